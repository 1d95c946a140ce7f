//! D-mod-k on a fat tree read from a fabric file (`dmodk` on an
//! `ibnetdiscover:`/`ibsim:`/`anynet:` topology): the static spreading
//! InfiniBand fat trees use (Zahavi et al.), on levels found from the
//! wiring instead of `fattree:K`'s numbering.
//!
//! Levels are [`crate::topology::import`]'s: level 0 the switches with
//! hosts, each other switch at its hop distance from them. The fabric is a
//! fat tree when no switch with hosts is above level 0, every cable joins
//! two adjacent levels, and from every leaf, going up and then down
//! reaches every other leaf.
//!
//! At a switch, for destination host `d` on leaf `t`:
//! - if `t` lies below (reachable by cables going down only), go down:
//!   among the down ports whose far switch has `t` below it (or is `t`),
//!   in port order, take number `d mod count` (parallel cables to one
//!   switch are spread by destination);
//! - else go up: among the up ports whose far switch can still reach `t`
//!   up then down, in port order, take number `(d / q) mod count`, where
//!   `q` is the product of the up-port counts of the levels below (the
//!   digit of `d` this level spreads by, as in D-mod-k on `fattree:K`).
//!
//! Up then down only: deadlock-free on one virtual channel.

use super::{Candidates, Hop, Routing};
use crate::topology::{Network, Peer, PortId, SwitchId};

/// A fixed-size set of leaf indices.
#[derive(Clone, Debug)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn union(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// D-mod-k tables of an imported fat tree.
#[derive(Clone, Debug)]
pub struct FabricDModK {
    /// Per switch: (port, far switch) going up and going down, port order.
    up: Vec<Vec<(PortId, SwitchId)>>,
    down: Vec<Vec<(PortId, SwitchId)>>,
    /// Per switch: leaves below it (itself for a leaf).
    below: Vec<Bits>,
    /// Per switch: leaves reachable up then down.
    reach: Vec<Bits>,
    /// Per switch: the divisor `q` of its level.
    divisor: Vec<u32>,
    /// Leaf index of each switch (`usize::MAX` above level 0).
    leaf: Vec<usize>,
    vcs: u8,
}

impl FabricDModK {
    /// The tables, or why the network is not a fat tree this routing knows.
    pub fn new(net: &Network, vcs: u8) -> Result<FabricDModK, String> {
        if net.fabric().is_none() {
            return Err(
                "dmodk needs a fattree topology or a fat tree read from a fabric file".into(),
            );
        }
        let n = net.num_switches();
        let has_hosts: Vec<bool> = (0..n as SwitchId)
            .map(|s| net.hosts_of(s).next().is_some())
            .collect();
        let links: Vec<(SwitchId, PortId, SwitchId, PortId)> = (0..n as SwitchId)
            .flat_map(|s| {
                net.ports(s)
                    .iter()
                    .enumerate()
                    .filter_map(move |(p, port)| match port.peer {
                        Peer::Switch { switch, port: q } if s < switch => {
                            Some((s, p as PortId, switch, q))
                        }
                        _ => None,
                    })
            })
            .collect();
        let (level, host_facing) = crate::topology::import::levels(n, &links, &has_hosts);
        let not_tree = |why: String| {
            Err(format!(
                "dmodk needs a fat tree: {why} (use updown or a paths: routing on this fabric)"
            ))
        };
        if !host_facing {
            return not_tree(
                "switches with hosts must be joined only through switches without hosts".into(),
            );
        }
        for &(a, _, b, _) in &links {
            if level[a as usize].abs_diff(level[b as usize]) != 1 {
                return not_tree(format!(
                    "switches {a} and {b} are cabled within one level ({})",
                    level[a as usize]
                ));
            }
        }
        let mut leaf = vec![usize::MAX; n];
        let mut leaves = 0;
        for s in 0..n {
            if level[s] == 0 {
                leaf[s] = leaves;
                leaves += 1;
            }
        }
        let mut up = vec![Vec::new(); n];
        let mut down = vec![Vec::new(); n];
        for s in 0..n as SwitchId {
            for (p, t) in net.neighbours(s) {
                if level[t as usize] > level[s as usize] {
                    up[s as usize].push((p, t));
                } else {
                    down[s as usize].push((p, t));
                }
            }
        }
        // Leaves below, by increasing level; reach, by decreasing level.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| (level[s], s));
        let mut below: Vec<Bits> = (0..n).map(|_| Bits::new(leaves)).collect();
        for &s in &order {
            if leaf[s] != usize::MAX {
                below[s].set(leaf[s]);
            }
            for &(_, t) in &down[s] {
                let b = below[t as usize].clone();
                below[s].union(&b);
            }
        }
        let mut reach: Vec<Bits> = below.clone();
        for &s in order.iter().rev() {
            for &(_, t) in &up[s] {
                let r = reach[t as usize].clone();
                reach[s].union(&r);
            }
        }
        if let Some(s) =
            (0..n).find(|&s| leaf[s] != usize::MAX && reach[s].count() as usize != leaves)
        {
            return not_tree(format!(
                "leaf switch {s} cannot reach every other leaf by going up then down"
            ));
        }
        // q per level: product of the up-port counts of the levels below
        // (the largest count on a level, as leaves may differ).
        let depth = level.iter().copied().max().unwrap_or(0) as usize + 1;
        let mut ups_at = vec![1u32; depth];
        for s in 0..n {
            ups_at[level[s] as usize] = ups_at[level[s] as usize].max(up[s].len() as u32);
        }
        let mut q_at = vec![1u32; depth];
        for l in 1..depth {
            q_at[l] = q_at[l - 1].saturating_mul(ups_at[l - 1].max(1));
        }
        let divisor = (0..n).map(|s| q_at[level[s] as usize]).collect();
        Ok(FabricDModK {
            up,
            down,
            below,
            reach,
            divisor,
            leaf,
            vcs,
        })
    }
}

impl Routing for FabricDModK {
    fn source_states(&self, _pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        Some(vec![super::RouteState::default()])
    }

    fn name(&self) -> String {
        "dmodk".into()
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let at = hop.at as usize;
        let d = hop.pkt.dst_host;
        let Some(&t) = self
            .leaf
            .get(hop.pkt.dst_switch as usize)
            .filter(|&&t| t != usize::MAX)
        else {
            return;
        };
        let pick = |list: &[(PortId, SwitchId)], ok: &dyn Fn(SwitchId) -> bool, key: u32| {
            let n = list.iter().filter(|&&(_, s)| ok(s)).count() as u32;
            (n > 0)
                .then(|| {
                    list.iter()
                        .filter(|&&(_, s)| ok(s))
                        .nth((key % n) as usize)
                        .map(|&(p, _)| p)
                })
                .flatten()
        };
        let port = if self.below[at].has(t) {
            pick(&self.down[at], &|s| self.below[s as usize].has(t), d)
        } else {
            let q = self.divisor[at].max(1);
            pick(&self.up[at], &|s| self.reach[s as usize].has(t), d / q)
        };
        if let Some(p) = port {
            out.push(p, 0, self.vcs - 1);
        }
    }
}
