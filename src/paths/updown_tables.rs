//! up*/down* link directions and shortest legal distances (Autonet;
//! Schroeder et al.), shared by the `updown` routing and by path selection
//! (Villalobos et al. §2; Koibuchi et al. §2).
//!
//! A BFS spanning tree from a root gives every switch a level. A link's
//! "up" end is the end with the lower level; on a link between two switches
//! of the same level the lower switch id is the up end (the rule of OpenSM,
//! InfiniBand's subnet manager, in its updn routing). A legal path takes
//! zero or more up links, then zero or more down links, never down then up;
//! that removes every cycle of channel dependencies, so one virtual channel
//! suffices.
//!
//! [`UpDownTables`] holds, for every destination, the length of the
//! shortest legal path from every switch in both phases ([`PHASE_UP`]: up
//! still allowed; [`PHASE_DOWN`]: down only), and the minimal legal next
//! hops in ascending port order.
//!
//! **Why here.** Which paths are legal is what `paths` computes (see
//! [`legal`](super::legal)); the link directions depend on a chosen root
//! and tie rule, not on the network alone, so they are not a property of
//! `topology`. The `updown` routing imports them from here (routing may
//! import paths; paths never imports routing).

use crate::topology::{Network, PortId, SwitchId, bfs_distances};

/// Phase of a packet or a path-search state: up links still allowed.
pub const PHASE_UP: u8 = 0;
/// Phase: down links only from here on (until a UDWM turn, see
/// [`legal`](super::legal)).
pub const PHASE_DOWN: u8 = 1;

/// The up end of the link between `a` and `b` under `labels` (BFS levels or
/// any other order; lower is closer to the root, ties go to the lower id).
pub fn up_end(labels: &[u32], a: SwitchId, b: SwitchId) -> SwitchId {
    let (la, lb) = (labels[a as usize], labels[b as usize]);
    if la < lb || (la == lb && a < b) { a } else { b }
}

/// Levels, link directions and shortest legal distances.
#[derive(Clone, Debug)]
pub struct UpDownTables {
    /// Read by the `updown` routing's name (crate-visible for it).
    pub(crate) root: SwitchId,
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
                    .map(|(p, t)| (p, t, up_end(&level, s, t) == t))
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

    pub fn root(&self) -> SwitchId {
        self.root
    }
    /// BFS level of every switch.
    pub fn levels(&self) -> &[u32] {
        &self.level
    }
    /// True when going from `from` to its neighbour `to` is an up move.
    pub fn is_up(&self, from: SwitchId, to: SwitchId) -> bool {
        up_end(&self.level, from, to) == to
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
