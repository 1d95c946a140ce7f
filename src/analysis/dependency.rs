//! The channel-dependency graph of a routing (Dally and Seitz; Duato): a
//! node per (channel, virtual channel), an edge from every VC a packet may
//! hold to every VC its routing lets it ask for next. A routing whose graph
//! is acyclic cannot deadlock under wormhole switching.
//!
//! [`dependency_graph`] builds it exhaustively, with the VC assignment the
//! routing really uses: for every pair of switches with hosts, every route
//! state the routing's `at_source` can give ([`Routing::source_states`]),
//! and every candidate it offers at every hop (adaptive choices included),
//! it walks the routing on an idle network. A routing that cannot enumerate
//! its source states is refused, so nothing is checked by sampling.

use crate::routing::{BufferView, Candidates, Hop, PacketInfo, RouteState, Routing};
use crate::topology::{HostId, Network, Peer, PortId, SwitchId};
use petgraph::algo::toposort;
use petgraph::graphmap::DiGraphMap;
use std::collections::HashSet;

/// A (channel, virtual channel) node.
pub type VcNode = (u32, u8);

/// A deterministic hasher for the graph map (no random seeds: the same
/// cycle is reported on every run).
type Fixed = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

/// The graph and what it covered.
pub struct DependencyGraph {
    pub graph: DiGraphMap<VcNode, (), Fixed>,
    /// Routes walked (pairs × source states × adaptive branches).
    pub routes: u64,
}

impl DependencyGraph {
    /// A cycle of dependencies, if any: the (channel, VC) nodes on it.
    pub fn find_cycle(&self) -> Option<Vec<VcNode>> {
        let start = toposort(&self.graph, None).err()?.node_id();
        // Walk back to the start through nodes that reach it.
        let mut path = vec![start];
        let mut seen = HashSet::from([start]);
        let mut stack = vec![(start, self.graph.neighbors(start).collect::<Vec<_>>())];
        while let Some((_, next)) = stack.last_mut() {
            let Some(n) = next.pop() else {
                stack.pop();
                path.pop();
                continue;
            };
            if n == start {
                return Some(path);
            }
            if seen.insert(n) {
                path.push(n);
                stack.push((n, self.graph.neighbors(n).collect()));
            }
        }
        Some(vec![start])
    }
}

/// VCs a packet holds: (channel, lowest VC, highest VC).
type Held = Option<(u32, u8, u8)>;

/// A point of the walk: switch, arrival port, route state, VCs held.
type Point = (SwitchId, PortId, RouteState, Held);

struct Idle;
impl BufferView for Idle {
    fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
        1
    }
}

/// Why the graph could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DependencyError {
    #[error("routing `{0}` does not enumerate its source states")]
    NotEnumerable(String),
    #[error("routing `{routing}` offered port {port} at switch {at}, which leads nowhere")]
    DeadEnd {
        routing: String,
        at: SwitchId,
        port: PortId,
    },
    #[error("routing `{routing}` offered nothing at switch {at} for switch {dst}")]
    NoCandidate {
        routing: String,
        at: SwitchId,
        dst: SwitchId,
    },
    #[error("routing `{routing}` loops from switch {src} to {dst}")]
    Loop {
        routing: String,
        src: SwitchId,
        dst: SwitchId,
    },
}

/// Build the channel-dependency graph of `routing` on `net` (module docs).
pub fn dependency_graph(
    net: &Network,
    routing: &mut dyn Routing,
) -> Result<DependencyGraph, DependencyError> {
    let mut graph = DiGraphMap::with_capacity_and_hasher(0, 0, Fixed::default());
    let mut edges: HashSet<(VcNode, VcNode)> = HashSet::new();
    let mut routes = 0u64;
    let mut rng = crate::rng::stream(0, crate::rng::Stream::Routing);
    let with_hosts: Vec<(SwitchId, HostId)> = (0..net.num_switches() as SwitchId)
        .filter_map(|s| net.hosts_of(s).next().map(|h| (s, h)))
        .collect();
    let limit = 4 * net.num_switches() + 8;
    for &(a, ha) in &with_hosts {
        for &(b, hb) in &with_hosts {
            if a == b {
                continue;
            }
            let pkt = PacketInfo {
                src_host: ha,
                dst_host: hb,
                src_switch: a,
                dst_switch: b,
                flits: 1,
            };
            let states = routing
                .source_states(&pkt)
                .ok_or_else(|| DependencyError::NotEnumerable(routing.name()))?;
            // Depth-first over (switch, in port, state, VCs held), each
            // visited once per pair.
            let mut seen: HashSet<Point> = HashSet::new();
            let mut stack: Vec<(Point, usize)> = states
                .into_iter()
                .map(|st| ((a, net.host(ha).port, st, None), 0))
                .collect();
            while let Some(((at, in_port, mut st, held), depth)) = stack.pop() {
                if !seen.insert((at, in_port, st, held)) {
                    continue;
                }
                if depth > limit {
                    return Err(DependencyError::Loop {
                        routing: routing.name(),
                        src: a,
                        dst: b,
                    });
                }
                if at == b && (!routing.passes_destination() || routing.may_eject(at, &st)) {
                    routes += 1;
                    continue;
                }
                let mut out = Candidates::default();
                routing.route(
                    Hop {
                        at,
                        in_port,
                        now: 0,
                        pkt: &pkt,
                        state: &mut st,
                        view: &Idle,
                        rng: &mut rng,
                    },
                    &mut out,
                );
                if out.is_empty() {
                    return Err(DependencyError::NoCandidate {
                        routing: routing.name(),
                        at,
                        dst: b,
                    });
                }
                for c in out.as_slice() {
                    let port = net.ports(at).get(c.port as usize);
                    let (Some(ch), Some(Peer::Switch { switch, port: back })) =
                        (port.and_then(|p| p.out_channel), port.map(|p| p.peer))
                    else {
                        return Err(DependencyError::DeadEnd {
                            routing: routing.name(),
                            at,
                            port: c.port,
                        });
                    };
                    if let Some((pc, lo, hi)) = held {
                        for v in lo..=hi {
                            for w in c.vc_lo..=c.vc_hi {
                                if edges.insert(((pc, v), (ch, w))) {
                                    graph.add_edge((pc, v), (ch, w), ());
                                }
                            }
                        }
                    }
                    stack.push(((switch, back, st, Some((ch, c.vc_lo, c.vc_hi))), depth + 1));
                }
            }
        }
    }
    Ok(DependencyGraph { graph, routes })
}
