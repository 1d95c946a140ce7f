//! up*/down* routing (Autonet; Schroeder et al.), as used by both path
//! selection papers (Villalobos et al. §2; Koibuchi et al. §2).
//!
//! A BFS spanning tree from a root (default switch 0) gives every switch a
//! level. A link's "up" end is the end with the lower level; on a link
//! between two switches of the same level the lower switch id is the up end
//! (OpenSM's updn rule, DOMAIN-NOTES). A legal path takes zero or more up
//! links, then zero or more down links, never down then up; that removes
//! every cycle of channel dependencies, so one virtual channel suffices.
//!
//! [`UpDownTables`] holds, for every destination, the length of the
//! shortest legal path from every switch in both phases (up still allowed /
//! down only). [`UpDown`] routes along shortest legal paths and offers every
//! minimal legal next hop in ascending port order, so the default `fixed`
//! selection takes the lowest port ("lowest port on ties").

use super::registry::{Family, RoutingBuild, RoutingKind, key_values};
use super::{Candidates, Hop, Routing};
use crate::topology::{Network, Peer, PortId, SwitchId, bfs_distances};

/// Phase of a packet on an up*/down* path.
pub const PHASE_UP: u8 = 0;
/// Down links only from here on.
pub const PHASE_DOWN: u8 = 1;

/// Levels, link directions and shortest legal distances.
#[derive(Clone, Debug)]
pub struct UpDownTables {
    root: SwitchId,
    level: Vec<u32>,
    n: usize,
    /// `dist[(t * n + s) * 2 + phase]`, u16::MAX when unreachable.
    dist: Vec<u16>,
    /// Neighbours per switch: (local port, neighbour, neighbour is the up end).
    nbr: Vec<Vec<(PortId, SwitchId, bool)>>,
}

impl UpDownTables {
    /// Largest network these tables are built for (memory: 4·N² bytes).
    pub const MAX_SWITCHES: usize = 8192;

    /// Build from a BFS tree rooted at `root`.
    pub fn bfs(net: &Network, root: SwitchId) -> UpDownTables {
        let level = bfs_distances(net, root);
        Self::with_levels(net, root, level)
    }

    /// Build from any level assignment (`level[s]`, lower is closer to the
    /// root); the same-level rule above still breaks ties.
    pub fn with_levels(net: &Network, root: SwitchId, level: Vec<u32>) -> UpDownTables {
        let n = net.num_switches();
        let nbr: Vec<Vec<(PortId, SwitchId, bool)>> = (0..n as SwitchId)
            .map(|s| {
                net.neighbours(s)
                    .map(|(p, t)| (p, t, Self::up_end(&level, s, t) == t))
                    .collect()
            })
            .collect();
        let mut t = UpDownTables {
            root,
            level,
            n,
            dist: vec![u16::MAX; n * n * 2],
            nbr,
        };
        let mut queue: Vec<(SwitchId, u8)> = Vec::with_capacity(2 * n);
        for target in 0..n {
            let base = target * n * 2;
            let dist = &mut t.dist[base..base + 2 * n];
            queue.clear();
            dist[target * 2] = 0;
            dist[target * 2 + 1] = 0;
            queue.push((target as SwitchId, PHASE_UP));
            queue.push((target as SwitchId, PHASE_DOWN));
            let mut head = 0;
            while head < queue.len() {
                let (u, pu) = queue[head];
                head += 1;
                let du = dist[u as usize * 2 + pu as usize];
                // Predecessors s with a legal move s -> u landing in phase pu.
                for &(_, s, u_is_up_of_s) in &t.nbr[u as usize] {
                    // The move s -> u is "up" when u is the up end, i.e. when s
                    // is not the up end seen from u.
                    let move_up = !u_is_up_of_s;
                    let preds: &[u8] = match (move_up, pu) {
                        (true, PHASE_UP) => &[PHASE_UP],
                        (false, PHASE_DOWN) => &[PHASE_UP, PHASE_DOWN],
                        _ => &[],
                    };
                    for &ps in preds {
                        let slot = &mut dist[s as usize * 2 + ps as usize];
                        if *slot == u16::MAX {
                            *slot = du + 1;
                            queue.push((s, ps));
                        }
                    }
                }
            }
        }
        t
    }

    /// The up end of the link between `a` and `b`.
    fn up_end(level: &[u32], a: SwitchId, b: SwitchId) -> SwitchId {
        let (la, lb) = (level[a as usize], level[b as usize]);
        if la < lb || (la == lb && a < b) { a } else { b }
    }

    pub fn root(&self) -> SwitchId {
        self.root
    }
    /// BFS level of every switch.
    pub fn levels(&self) -> &[u32] {
        &self.level
    }
    /// True when going from `from` to its neighbour `to` is an up move.
    pub fn is_up(&self, from: SwitchId, to: SwitchId) -> bool {
        Self::up_end(&self.level, from, to) == to
    }
    /// Shortest legal path length from `s` to `t` starting in `phase`.
    pub fn distance(&self, s: SwitchId, t: SwitchId, phase: u8) -> Option<u32> {
        let d = self.dist[(t as usize * self.n + s as usize) * 2 + phase as usize];
        (d != u16::MAX).then_some(d as u32)
    }
    /// Phase after arriving at `s` from neighbour `from` (None: from a host).
    pub fn phase_after(&self, from: Option<SwitchId>, s: SwitchId) -> u8 {
        match from {
            Some(u) if !self.is_up(u, s) => PHASE_DOWN,
            _ => PHASE_UP,
        }
    }
    /// Every minimal legal next hop from `s` (in `phase`) towards `t`, in port
    /// order: (port, neighbour, phase after the hop).
    pub fn next_hops(
        &self,
        s: SwitchId,
        t: SwitchId,
        phase: u8,
    ) -> impl Iterator<Item = (PortId, SwitchId, u8)> + '_ {
        let here = self.distance(s, t, phase).unwrap_or(0);
        self.nbr[s as usize]
            .iter()
            .filter_map(move |&(p, u, u_is_up)| {
                if u_is_up && phase == PHASE_DOWN {
                    return None;
                }
                let next_phase = if u_is_up { PHASE_UP } else { PHASE_DOWN };
                let d = self.distance(u, t, next_phase)?;
                (d + 1 == here).then_some((p, u, next_phase))
            })
    }
}

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "updown",
    aliases: &[],
    options: "[:root=N]",
    summary: "up*/down* on a BFS spanning tree from switch N (default 0)",
    families: &[Family::Static],
    parse: |parts| {
        let mut root = 0;
        for (k, v) in key_values(parts)? {
            match k {
                "root" => {
                    root = v
                        .parse()
                        .map_err(|_| format!("root `{v}` is not a switch number"))?
                }
                _ => return Err(format!("`updown` takes no option `{k}`; accepted root")),
            }
        }
        Ok(Box::new(UpDownSpec { root }))
    },
    examples: &["updown", "updown:root=1"],
};

/// The `updown` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpDownSpec {
    pub root: SwitchId,
}

impl RoutingBuild for UpDownSpec {
    fn canonical(&self) -> String {
        if self.root == 0 {
            "updown".into()
        } else {
            format!("updown:root={}", self.root)
        }
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        if self.root as usize >= net.num_switches() {
            return Err(format!(
                "root {}; accepted 0..{}",
                self.root,
                net.num_switches()
            ));
        }
        if net.num_switches() > UpDownTables::MAX_SWITCHES {
            return Err(format!(
                "{} switches; up*/down* tables are built for at most {}",
                net.num_switches(),
                UpDownTables::MAX_SWITCHES
            ));
        }
        Ok(())
    }
    /// No down-to-up turn anywhere: acyclic on one virtual channel.
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(UpDown::new(net, self.root, vcs)))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec!["updown".into()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Routing along shortest legal up*/down* paths.
#[derive(Clone, Debug)]
pub struct UpDown {
    tables: UpDownTables,
    /// Per switch and port: the neighbour behind it, if a switch.
    peer: Vec<Vec<Option<SwitchId>>>,
    vcs: u8,
}

impl UpDown {
    pub fn new(net: &Network, root: SwitchId, vcs: u8) -> Self {
        let peer = (0..net.num_switches() as SwitchId)
            .map(|s| {
                net.ports(s)
                    .iter()
                    .map(|p| match p.peer {
                        Peer::Switch { switch, .. } => Some(switch),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        UpDown {
            tables: UpDownTables::bfs(net, root),
            peer,
            vcs,
        }
    }
    pub fn tables(&self) -> &UpDownTables {
        &self.tables
    }
}

impl Routing for UpDown {
    fn source_states(&self, _pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        Some(vec![super::RouteState::default()])
    }

    fn name(&self) -> String {
        format!("updown:root={}", self.tables.root)
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let at = hop.at;
        let from = self.peer[at as usize][hop.in_port as usize];
        let phase = self.tables.phase_after(from, at);
        for (p, _, _) in self.tables.next_hops(at, hop.pkt.dst_switch, phase) {
            out.push(p, 0, self.vcs - 1);
        }
    }
}
