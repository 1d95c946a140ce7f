//! Which paths are legal: up*/down* on a BFS or a DFS spanning tree, and
//! UDWM (up*/down* with multiple virtual channels).
//!
//! **Link directions.** Every switch gets a label; the "up" end of a link is
//! the end with the lower label, and on equal labels the lower switch id
//! (the rule of OpenSM's updn routing). A legal up*/down* path
//! takes zero or more up links, then zero or more down links (Villalobos et
//! al. §2; Koibuchi et al. §3, §4.2).
//!
//! - **BFS tree** (Autonet; Koibuchi et al. §4.2): the label is the BFS level
//!   from the root, so links inside one level are directed by switch id. The
//!   levels come from [`UpDownTables`], which the `updown` routing uses
//!   too, so `paths` and that routing agree link for link.
//! - **DFS tree** (Sancho, Robles and Duato, "A new methodology to compute
//!   deadlock-free routing tables for irregular topologies", the methodology
//!   Villalobos et al. §2 and §5 use): a depth-first traversal from the root
//!   labels switches in visiting order (root 0); labels are distinct, so no
//!   tie rule is needed. **Next-node heuristic** (the methodology leaves it
//!   open; this one is ours): from the switch on top of the DFS stack, visit
//!   the unvisited neighbour with the most links to already visited switches
//!   (it closes the most cycles, so its links get a direction that keeps
//!   more shortest paths legal); ties go to the neighbour of higher degree,
//!   then to the lower switch id. When the top switch has no unvisited
//!   neighbour the traversal backtracks.
//! - **UDWM** (Koibuchi et al. §4.2, ref. \[11\]): the same link directions
//!   (BFS tree) and V virtual channels; a path may turn from a down link to
//!   an up link only onto a strictly lower-numbered virtual channel. In
//!   routelab's model the virtual channel of a path never rises,
//!   strictly falls at each down-to-up turn and stays the same on every other
//!   hop; a path may start on any virtual channel. Each virtual channel class
//!   alone obeys up*/down* and classes are only entered downwards, so the
//!   channel dependency graph stays acyclic.
//! - **Plain up*/down* with V virtual channels** keeps one virtual channel
//!   for the whole path (no turns at all), so each physical path appears
//!   once per virtual channel.
//!
//! The search space is a state graph: a state is (switch, virtual channel,
//! phase), phase [`PHASE_UP`] (up links still allowed) or [`PHASE_DOWN`].

pub use super::updown_tables::{PHASE_DOWN, PHASE_UP};
use super::updown_tables::{UpDownTables, up_end};
use crate::topology::{ChannelId, Network, PortId, SwitchId};

/// Which deadlock-free routing supplies the legal paths.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum LegalKind {
    /// up*/down* on a BFS spanning tree (Autonet).
    #[serde(rename = "updown-bfs")]
    #[strum(to_string = "updown-bfs", serialize = "updown", serialize = "bfs")]
    UpDownBfs,
    /// up*/down* on a DFS spanning tree (Sancho-Robles-Duato).
    #[serde(rename = "updown-dfs")]
    #[strum(to_string = "updown-dfs", serialize = "dfs")]
    UpDownDfs,
    /// up*/down* with multiple virtual channels (BFS tree).
    #[serde(rename = "udwm")]
    Udwm,
}

crate::spec_options::keyword_enum!(LegalKind, Display);

impl LegalKind {
    /// True when a down-to-up turn onto a lower virtual channel is allowed.
    pub fn turns(&self) -> bool {
        matches!(self, LegalKind::Udwm)
    }
}

/// One neighbour link of a switch, seen from the switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub port: PortId,
    pub to: SwitchId,
    /// The channel leaving through `port`.
    pub channel: ChannelId,
    /// True when going to `to` is an up move.
    pub up: bool,
}

/// Link directions and the state graph of one legal routing.
#[derive(Clone, Debug)]
pub struct Legality {
    kind: LegalKind,
    root: SwitchId,
    vcs: u8,
    labels: Vec<u32>,
    /// Per switch, its links in port order.
    links: Vec<Vec<Link>>,
}

impl Legality {
    /// Directions for `kind` rooted at `root` with `vcs` virtual channels
    /// (1..=16). Panics on a root out of range; check it first.
    pub fn new(net: &Network, kind: LegalKind, root: SwitchId, vcs: u8) -> Legality {
        let labels = match kind {
            LegalKind::UpDownBfs | LegalKind::Udwm => {
                UpDownTables::bfs(net, root).levels().to_vec()
            }
            LegalKind::UpDownDfs => dfs_labels(net, root),
        };
        Self::with_labels(net, kind, root, vcs, labels)
    }

    /// Directions from explicit labels (lower is closer to the root; ties go
    /// to the lower switch id).
    pub fn with_labels(
        net: &Network,
        kind: LegalKind,
        root: SwitchId,
        vcs: u8,
        labels: Vec<u32>,
    ) -> Legality {
        let links = (0..net.num_switches() as SwitchId)
            .map(|s| {
                net.neighbours(s)
                    .map(|(p, t)| Link {
                        port: p,
                        to: t,
                        channel: net.port(s, p).out_channel.unwrap_or(u32::MAX),
                        up: up_end(&labels, s, t) == t,
                    })
                    .collect()
            })
            .collect();
        Legality {
            kind,
            root,
            vcs: vcs.max(1),
            labels,
            links,
        }
    }

    pub fn kind(&self) -> LegalKind {
        self.kind
    }
    pub fn root(&self) -> SwitchId {
        self.root
    }
    pub fn vcs(&self) -> u8 {
        self.vcs
    }
    /// Label of every switch (BFS level or DFS visiting order).
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }
    pub fn num_switches(&self) -> usize {
        self.links.len()
    }
    /// Links of a switch in port order.
    pub fn links(&self, s: SwitchId) -> &[Link] {
        &self.links[s as usize]
    }
    /// Number of states of the state graph.
    pub fn num_states(&self) -> usize {
        self.links.len() * self.vcs as usize * 2
    }
    /// Index of state (switch, vc, phase).
    #[inline]
    pub fn state(&self, s: SwitchId, vc: u8, phase: u8) -> usize {
        (s as usize * self.vcs as usize + vc as usize) * 2 + phase as usize
    }
    /// (switch, vc, phase) of a state index.
    #[inline]
    pub fn unstate(&self, x: usize) -> (SwitchId, u8, u8) {
        let phase = (x & 1) as u8;
        let sv = x >> 1;
        (
            (sv / self.vcs as usize) as SwitchId,
            (sv % self.vcs as usize) as u8,
            phase,
        )
    }

    /// Legal moves from a state, in (port, vc) order: (link, vc used on the
    /// link, next state).
    pub fn moves(&self, x: usize, mut f: impl FnMut(&Link, u8, usize)) {
        let (s, v, ph) = self.unstate(x);
        for l in &self.links[s as usize] {
            if l.up {
                if ph == PHASE_UP {
                    f(l, v, self.state(l.to, v, PHASE_UP));
                } else if self.kind.turns() {
                    for w in 0..v {
                        f(l, w, self.state(l.to, w, PHASE_UP));
                    }
                }
            } else {
                f(l, v, self.state(l.to, v, PHASE_DOWN));
            }
        }
    }

    /// Legal first hops from switch `s` (a path may start on any virtual
    /// channel, in the up phase), in (port, vc) order.
    pub fn first_moves(&self, s: SwitchId, mut f: impl FnMut(&Link, u8, usize)) {
        for l in &self.links[s as usize] {
            for v in 0..self.vcs {
                let ph = if l.up { PHASE_UP } else { PHASE_DOWN };
                f(l, v, self.state(l.to, v, ph));
            }
        }
    }

    /// Distances to `t` of every state (u16::MAX: cannot reach `t`), by a
    /// breadth-first search over reversed moves from every state at `t`.
    pub fn distances_to(&self, t: SwitchId, dist: &mut Vec<u16>, queue: &mut Vec<usize>) {
        dist.clear();
        dist.resize(self.num_states(), u16::MAX);
        queue.clear();
        for v in 0..self.vcs {
            for ph in [PHASE_UP, PHASE_DOWN] {
                let x = self.state(t, v, ph);
                dist[x] = 0;
                queue.push(x);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let y = queue[head];
            head += 1;
            let dy = dist[y];
            let (u, w, phu) = self.unstate(y);
            // Predecessors x = (s, v, ph) with a move x -> y.
            for l in &self.links[u as usize] {
                let s = l.to;
                // The move s -> u is up exactly when the link from u to s
                // goes down (s is not the up end).
                let move_up = !l.up;
                let visit = |x: usize, dist: &mut Vec<u16>, queue: &mut Vec<usize>| {
                    if dist[x] == u16::MAX {
                        dist[x] = dy + 1;
                        queue.push(x);
                    }
                };
                if move_up {
                    if phu != PHASE_UP {
                        continue;
                    }
                    visit(self.state(s, w, PHASE_UP), dist, queue);
                    if self.kind.turns() {
                        for v in w + 1..self.vcs {
                            visit(self.state(s, v, PHASE_DOWN), dist, queue);
                        }
                    }
                } else {
                    if phu != PHASE_DOWN {
                        continue;
                    }
                    visit(self.state(s, w, PHASE_UP), dist, queue);
                    visit(self.state(s, w, PHASE_DOWN), dist, queue);
                }
            }
        }
    }

    /// Check that a path (switches visited, vc per hop) is legal: consecutive
    /// switches linked, VC never rises, up*/down* within a VC, and a
    /// down-to-up turn only onto a strictly lower VC (only for UDWM).
    pub fn is_legal(&self, switches: &[SwitchId], vcs: &[u8]) -> bool {
        if switches.len() != vcs.len() + 1 {
            return false;
        }
        let mut phase = PHASE_UP;
        for i in 0..vcs.len() {
            let (s, t) = (switches[i], switches[i + 1]);
            let Some(l) = self.links(s).iter().find(|l| l.to == t) else {
                return false;
            };
            let (v, prev) = (vcs[i], if i == 0 { vcs[0] } else { vcs[i - 1] });
            if v >= self.vcs || v > prev {
                return false;
            }
            if l.up {
                if phase == PHASE_DOWN {
                    if !(self.kind.turns() && v < prev) {
                        return false;
                    }
                } else if v != prev {
                    return false;
                }
                phase = PHASE_UP;
            } else {
                if v != prev {
                    return false;
                }
                phase = PHASE_DOWN;
            }
        }
        true
    }
}

/// DFS visiting order from `root` with the next-node heuristic documented in
/// the module (most links to visited switches, then highest degree, then
/// lowest id). Unreachable switches get labels after every reachable one.
pub fn dfs_labels(net: &Network, root: SwitchId) -> Vec<u32> {
    let n = net.num_switches();
    let nbrs: Vec<Vec<SwitchId>> = (0..n as SwitchId)
        .map(|s| {
            let mut v: Vec<SwitchId> = net.neighbours(s).map(|(_, t)| t).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let mut label = vec![u32::MAX; n];
    let mut visited_links = vec![0u32; n];
    let mut next = 0u32;
    let mut visit = |s: SwitchId, label: &mut Vec<u32>, visited_links: &mut Vec<u32>| {
        label[s as usize] = next;
        next += 1;
        for &t in &nbrs[s as usize] {
            visited_links[t as usize] += 1;
        }
    };
    let mut stack = vec![root];
    visit(root, &mut label, &mut visited_links);
    while let Some(&top) = stack.last() {
        let best = nbrs[top as usize]
            .iter()
            .copied()
            .filter(|&t| label[t as usize] == u32::MAX)
            .max_by_key(|&t| {
                (
                    visited_links[t as usize],
                    nbrs[t as usize].len(),
                    std::cmp::Reverse(t),
                )
            });
        match best {
            Some(t) => {
                visit(t, &mut label, &mut visited_links);
                stack.push(t);
            }
            None => {
                stack.pop();
            }
        }
    }
    for l in label.iter_mut() {
        if *l == u32::MAX {
            *l = next;
            next += 1;
        }
    }
    label
}
