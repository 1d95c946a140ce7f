//! BookSim2's `anynet` network files (`anynet:PATH`; booksim2's
//! `src/networks/anynet.cpp` and `src/examples/anynet/`):
//!
//! ```text
//! router 0 node 0 node 1 node 2 router 1
//! router 1 node 3 node 4 node 5
//! router 2 node 6 node 7 node 8 router 1 router 0 5
//! ```
//!
//! Each line names a router (or a node) and what it is cabled to: `node N`
//! attaches node N to the router, `router M` links the two routers, and a
//! number after an id is that link's latency in cycles (BookSim's link
//! weight; kept as metadata, the simulator uses one `--link-latency`).
//! A link listed on one router's line need not be repeated on the other's.
//! `router` and `node` are read case-insensitively; `#` and `//` start
//! comments (an extension; BookSim has none).
//!
//! As in BookSim, router ids must run 0..R-1 and node ids 0..N-1, a node
//! hangs off one router, and router `r` is switch `r` and node `n` is host
//! `n`. Ports are numbered as BookSim numbers a router's outputs: its
//! nodes first (by node id), then its router links (by neighbour id),
//! from 0.
//!
//! Parallel cables (an extension): BookSim keeps one channel per pair of
//! routers; routelab reads a neighbour repeated on one line as that many
//! cables (`router 0 router 4 router 4` is two cables). When both routers'
//! lines list the pair they must agree on the count.

use super::{Listing, NodeKind, RawFabric, RawNode};
use crate::limits::{MAX_HOSTS, MAX_IRREGULAR_SWITCHES, MAX_PORTS};
use crate::topology::TopologyError;
use std::collections::BTreeMap;

/// What a line's token names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Router,
    Node,
}

/// Parse an anynet file.
pub fn parse(path: &str, text: &str) -> Result<RawFabric, TopologyError> {
    let bad = |(line, problem): Problem| TopologyError::File {
        path: path.to_string(),
        line,
        problem,
    };
    let mut seen = Seen::default();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        seen.lines = line_no;
        let t = raw.split('#').next().unwrap_or("");
        let t = t.split("//").next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        seen.read_line(t).map_err(|p| bad((line_no, p)))?;
    }
    let n = seen.counts().map_err(|p| bad((0, p)))?;
    let cables = cables(&seen.mentions).map_err(bad)?;
    let ports = Ports::number(n, &seen.node_at, &cables);
    if let Some(r) = (0..n as usize).find(|&r| ports.next[r] > MAX_PORTS) {
        return Err(bad((
            seen.router_line[&(r as u64)],
            format!(
                "router {r} has {} ports (nodes and cables); at most {MAX_PORTS} ports per switch",
                ports.next[r]
            ),
        )));
    }
    Ok(fabric(&seen, &cables, &ports, n))
}

/// A problem found: its line (0: the file as a whole) and what it is.
type Problem = (usize, String);

/// Cables per unordered pair of routers: (count, first line, latency).
type Cables = BTreeMap<(u64, u64), (u64, usize, Option<u32>)>;

/// What the lines say, gathered before any check across lines.
#[derive(Default)]
struct Seen {
    /// First line naming each router.
    router_line: BTreeMap<u64, usize>,
    /// node -> (router, line).
    node_at: BTreeMap<u64, (u64, usize)>,
    /// (r, s) -> (mentions on r's lines, first line, latency).
    mentions: Cables,
    /// The line being read (at the end, the file's last).
    lines: usize,
}

/// `router` or `node`, case-insensitively.
fn kind_of(w: &str) -> Result<Kind, String> {
    match w.to_ascii_lowercase().as_str() {
        "router" => Ok(Kind::Router),
        "node" => Ok(Kind::Node),
        _ => Err(format!("`{w}`: expected `router` or `node` (then its id)")),
    }
}

/// The id after a `router` or `node` token, within the limits.
fn id_of(kind: Kind, w: Option<&&str>) -> Result<u64, String> {
    let what = if kind == Kind::Router {
        "router"
    } else {
        "node"
    };
    let w = w.ok_or_else(|| {
        format!("`{what}` at the end of the line; expected its id (is the line cut short?)")
    })?;
    let id: u64 = w
        .parse()
        .map_err(|_| format!("{what} id `{w}` is not a whole number"))?;
    let limit = if kind == Kind::Router {
        MAX_IRREGULAR_SWITCHES
    } else {
        MAX_HOSTS
    };
    if id >= limit {
        return Err(format!(
            "{what} {id}; at most {limit} {what}s (ids 0..={})",
            limit - 1
        ));
    }
    Ok(id)
}

impl Seen {
    /// One line without its comment: its head, then ids each maybe
    /// followed by a latency.
    fn read_line(&mut self, t: &str) -> Result<(), String> {
        let line_no = self.lines;
        let words: Vec<&str> = t.split_whitespace().collect();
        let head_kind = kind_of(words[0])?;
        let head = id_of(head_kind, words.get(1))?;
        if head_kind == Kind::Router {
            self.router_line.entry(head).or_insert(line_no);
        }
        let mut k = 2;
        let mut last: Option<(Kind, u64)> = None;
        while k < words.len() {
            let w = words[k];
            if let Ok(lat) = w.parse::<u32>() {
                // A latency after the previous id.
                match last {
                    Some((Kind::Router, s)) if head_kind == Kind::Router => {
                        if let Some(m) = self.mentions.get_mut(&(head, s)) {
                            m.2 = m.2.or(Some(lat));
                        }
                    }
                    Some(_) => {}
                    None => {
                        return Err(format!(
                            "`{w}`: a latency must follow a `router` or `node` id"
                        ));
                    }
                }
                last = None;
                k += 1;
                continue;
            }
            let kind = kind_of(w)?;
            let id = id_of(kind, words.get(k + 1))?;
            k += 2;
            last = Some((kind, id));
            self.link(head_kind, head, kind, id)?;
        }
        Ok(())
    }

    /// The head `head` linked to `id` on the current line.
    fn link(&mut self, head_kind: Kind, head: u64, kind: Kind, id: u64) -> Result<(), String> {
        let line_no = self.lines;
        match (head_kind, kind) {
            (Kind::Node, Kind::Node) => {
                return Err(format!(
                    "node {head} is cabled to node {id}; expected nodes to hang off routers"
                ));
            }
            (Kind::Node, Kind::Router) | (Kind::Router, Kind::Node) => {
                let (node, router) = if head_kind == Kind::Node {
                    (head, id)
                } else {
                    (id, head)
                };
                self.router_line.entry(router).or_insert(line_no);
                if let Some(&(r, first)) = self.node_at.get(&node) {
                    if r != router {
                        return Err(format!(
                            "node {node} is attached to router {router} here and to router {r} \
                             at line {first}; expected one router per node"
                        ));
                    }
                } else {
                    self.node_at.insert(node, (router, line_no));
                }
            }
            (Kind::Router, Kind::Router) => {
                if id == head {
                    return Err(format!("router {head} is linked to itself"));
                }
                self.router_line.entry(id).or_insert(line_no);
                let m = self
                    .mentions
                    .entry((head, id))
                    .or_insert((0, line_no, None));
                m.0 += 1;
            }
        }
        Ok(())
    }

    /// Routers and nodes, checked to run from 0 without gaps (BookSim
    /// indexes them by id).
    fn counts(&self) -> Result<u64, String> {
        let (router_line, node_at) = (&self.router_line, &self.node_at);
        let n = router_line.keys().next_back().map_or(0, |&r| r + 1);
        if let Some(missing) = (0..n).find(|r| !router_line.contains_key(r)) {
            return Err(format!(
                "router {missing} never appears, but router {} does; expected router ids 0..{} \
                 (BookSim indexes routers by id)",
                n - 1,
                n - 1
            ));
        }
        let hosts = node_at.keys().next_back().map_or(0, |&h| h + 1);
        if let Some(missing) = (0..hosts).find(|h| !node_at.contains_key(h)) {
            return Err(format!(
                "node {missing} never appears, but node {} does; expected node ids 0..{} \
                 (BookSim numbers nodes from 0 without gaps)",
                hosts - 1,
                hosts - 1
            ));
        }
        Ok(n)
    }
}

/// Cables per unordered pair, the two ends' counts checked to agree.
fn cables(mentions: &Cables) -> Result<Cables, Problem> {
    let mut cables: BTreeMap<(u64, u64), (u64, usize, Option<u32>)> = BTreeMap::new();
    for (&(r, s), &(count, line, lat)) in mentions {
        let key = (r.min(s), r.max(s));
        match cables.get(&key) {
            None => {
                cables.insert(key, (count, line, lat));
            }
            Some(&(other, other_line, _)) if other != count => {
                let (first, second) = if other_line <= line {
                    (other_line, line)
                } else {
                    (line, other_line)
                };
                return Err((
                    second,
                    format!(
                        "the two ends of router {} - router {} disagree: line {first} lists {} \
                         cables, line {second} lists {}; expected the same count on both lines \
                         (or the pair on one line only)",
                        key.0,
                        key.1,
                        if first == other_line { other } else { count },
                        if first == other_line { count } else { other },
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(cables)
}

/// The ports as BookSim numbers a router's outputs: its nodes first (by
/// node id), then its router links (by neighbour id), from 0.
struct Ports {
    /// Each router's port count.
    next: Vec<u64>,
    /// Each node's port on its router.
    host: BTreeMap<u64, u64>,
    /// (r, s): r's first port to s.
    base: BTreeMap<(u64, u64), u64>,
}

impl Ports {
    fn number(n: u64, node_at: &BTreeMap<u64, (u64, usize)>, cables: &Cables) -> Ports {
        let mut next_port = vec![0u64; n as usize];
        let mut host_port: BTreeMap<u64, u64> = BTreeMap::new();
        for (&node, &(r, _)) in node_at {
            host_port.insert(node, next_port[r as usize]);
            next_port[r as usize] += 1;
        }
        let mut neighbours: Vec<Vec<(u64, u64)>> = vec![Vec::new(); n as usize];
        for (&(a, b), &(count, _, _)) in cables {
            neighbours[a as usize].push((b, count));
            neighbours[b as usize].push((a, count));
        }
        let mut base: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        for (r, list) in neighbours.iter_mut().enumerate() {
            list.sort_unstable();
            for &(s, count) in list.iter() {
                base.insert((r as u64, s), next_port[r]);
                next_port[r] += count;
            }
        }
        Ports {
            next: next_port,
            host: host_port,
            base,
        }
    }
}

/// The neutral description: every router, every node and its listing, and
/// each cable listed once.
fn fabric(seen: &Seen, cables: &Cables, ports: &Ports, n: u64) -> RawFabric {
    let (next_port, host_port, base) = (&ports.next, &ports.host, &ports.base);
    let (router_line, node_at) = (&seen.router_line, &seen.node_at);
    let mut raw = RawFabric {
        both_ends: false,
        port_base: 0,
        lines: seen.lines,
        ..RawFabric::default()
    };
    for r in 0..n {
        raw.nodes.push(RawNode {
            name: format!("router {r}"),
            kind: NodeKind::Switch,
            description: None,
            guid: None,
            lid: None,
            ports: next_port[r as usize] as u16,
            host_rank: None,
            line: router_line[&r],
        });
    }
    for (&node, &(r, line)) in node_at {
        raw.nodes.push(RawNode {
            name: format!("node {node}"),
            kind: NodeKind::Adapter,
            description: None,
            guid: None,
            lid: None,
            ports: 1,
            host_rank: Some(node),
            line,
        });
        raw.listings.push(Listing::new(
            r as usize,
            host_port[&node] as u16,
            format!("node {node}"),
            0,
            line,
        ));
    }
    for (&(a, b), &(count, line, lat)) in cables {
        let (pa, pb) = (base[&(a, b)], base[&(b, a)]);
        for k in 0..count {
            let mut l = Listing::new(
                a as usize,
                (pa + k) as u16,
                format!("router {b}"),
                (pb + k) as u16,
                line,
            );
            l.latency = lat;
            raw.listings.push(l);
        }
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::super::{FabricFormat, parse as build};

    #[test]
    fn booksims_example() {
        // booksim2's src/examples/anynet/anynet_file.
        let text = "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n\
                    router 2 node 6 node 7 node 8 router 1 router 0\n";
        let net = build(FabricFormat::AnyNet, "anynet:t".into(), "t", text).unwrap();
        assert_eq!(net.num_switches(), 3);
        assert_eq!(net.num_hosts(), 9);
        assert_eq!(net.num_network_channels(), 6);
        assert_eq!(net.host(4).switch, 1);
        // Router 2: nodes on ports 0..3, then router 0 on 3 and router 1 on 4.
        assert_eq!(net.neighbours(2).collect::<Vec<_>>(), vec![(3, 0), (4, 1)]);
    }

    #[test]
    fn repeated_neighbours_are_parallel_cables() {
        let text = "router 0 node 0 router 1 router 1 router 1 2\nrouter 1 node 1\n";
        let net = build(FabricFormat::AnyNet, "anynet:t".into(), "t", text).unwrap();
        assert_eq!(net.num_network_channels(), 6);
        assert_eq!(net.fabric().unwrap().cables[0].latency, Some(2));
        let bad = "router 0 node 0 router 1 router 1\nrouter 1 node 1 router 0\n";
        let e = build(FabricFormat::AnyNet, "anynet:t".into(), "t", bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("disagree"), "{e}");
    }
}
