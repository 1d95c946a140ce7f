//! What every fat-tree balancer knows before the first slice: each switch's
//! level and parameters, who is behind each port, hop distances to every
//! access switch, and the ports that bring a message closer.

use crate::topology::fat_tree_params::{Level, SwitchParams, fat_tree_k, params_of};
use crate::topology::{Network, Peer, PortId, SwitchId};
use std::collections::VecDeque;

/// Largest k the time-slice model and its balancers take: ports fit a
/// 64-bit set and the per-pair tables stay small (k=32: 1280 switches,
/// 512 access switches).
pub const MAX_K: u32 = 32;

const NONE: u32 = u32::MAX;

/// Static tables of one fat tree.
#[derive(Clone, Debug)]
pub struct FatTreeTable {
    pub k: u32,
    /// Access switches (`0..num_access`).
    pub num_access: u32,
    pub num_switches: u32,
    pub params: Vec<SwitchParams>,
    pub level: Vec<Level>,
    /// Per (switch, port), flat from `port_start[s]`: the switch behind it,
    /// or NONE for a server.
    port_start: Vec<u32>,
    peer: Vec<u32>,
    /// Switch hops from switch s to access switch b: `hops[s · A + b]`.
    hops: Vec<u8>,
    /// Ports of s whose switch is strictly fewer hops from b.
    closer: Vec<u64>,
}

/// `Ok(k)` when the fat-tree balancers apply to `net`.
pub fn applies(net: &Network, name: &str) -> Result<u32, String> {
    match fat_tree_k(net) {
        Some(k) if k <= MAX_K => Ok(k),
        Some(k) => Err(format!(
            "{name} takes fat trees up to k={MAX_K} (got fattree:{k})"
        )),
        None => Err(format!("{name} needs a fattree topology")),
    }
}

impl FatTreeTable {
    /// The tables of `net` (a fat tree with k <= [`MAX_K`]).
    pub fn new(net: &Network, name: &str) -> Result<FatTreeTable, String> {
        let k = applies(net, name)?;
        let params = params_of(net).ok_or_else(|| format!("{name} needs a fattree topology"))?;
        let n = net.num_switches() as u32;
        let num_access = k * k / 2;
        let mut port_start = Vec::with_capacity(n as usize + 1);
        let mut peer = Vec::new();
        for s in 0..n {
            port_start.push(peer.len() as u32);
            peer.extend(net.ports(s).iter().map(|p| match p.peer {
                Peer::Switch { switch, .. } => switch,
                _ => NONE,
            }));
        }
        port_start.push(peer.len() as u32);
        let a = num_access as usize;
        let mut hops = vec![u8::MAX; n as usize * a];
        let mut queue = VecDeque::new();
        for b in 0..num_access {
            hops[b as usize * a + b as usize] = 0;
            queue.push_back(b);
            while let Some(s) = queue.pop_front() {
                let d = hops[s as usize * a + b as usize];
                for (_, t) in net.neighbours(s) {
                    let x = &mut hops[t as usize * a + b as usize];
                    if *x == u8::MAX {
                        *x = d + 1;
                        queue.push_back(t);
                    }
                }
            }
        }
        let mut t = FatTreeTable {
            k,
            num_access,
            num_switches: n,
            level: (0..n).map(|s| Level::of(k, s)).collect(),
            params,
            port_start,
            peer,
            hops,
            closer: Vec::new(),
        };
        t.closer = t.masks(|t, s, b| t.hops(s, b) as f64);
        Ok(t)
    }

    /// For every (switch s, access b): the ports of s whose switch is
    /// strictly closer to b by `dist`.
    pub fn masks(&self, dist: impl Fn(&Self, SwitchId, SwitchId) -> f64) -> Vec<u64> {
        let a = self.num_access;
        let mut out = vec![0u64; (self.num_switches * a) as usize];
        for s in 0..self.num_switches {
            for b in 0..a {
                if s == b {
                    continue;
                }
                let here = dist(self, s, b);
                let mut m = 0u64;
                for (p, &r) in self.peers(s).iter().enumerate() {
                    if r != NONE && dist(self, r, b) < here - 1e-9 {
                        m |= 1 << p;
                    }
                }
                out[(s * a + b) as usize] = m;
            }
        }
        out
    }

    /// The switch behind each port of `s` (`u32::MAX` for a server).
    #[inline]
    pub fn peers(&self, s: SwitchId) -> &[u32] {
        &self.peer[self.port_start[s as usize] as usize..self.port_start[s as usize + 1] as usize]
    }

    /// The switch behind `port` of `s`, if it is one.
    #[inline]
    pub fn peer(&self, s: SwitchId, port: PortId) -> Option<SwitchId> {
        self.peers(s)
            .get(port as usize)
            .copied()
            .filter(|&r| r != NONE)
    }

    /// Switch hops from `s` to access switch `b`.
    #[inline]
    pub fn hops(&self, s: SwitchId, b: SwitchId) -> u32 {
        self.hops[(s * self.num_access + b) as usize] as u32
    }

    /// The paper's `distance(s, target)` in edges, for a target server on
    /// access switch `b`: switch hops plus the last edge to the server.
    #[inline]
    pub fn distance(&self, s: SwitchId, b: SwitchId) -> u32 {
        self.hops(s, b) + 1
    }

    /// Ports of `s` one hop closer to access switch `b` (its minimal next
    /// hops; empty at `b` itself).
    #[inline]
    pub fn closer(&self, s: SwitchId, b: SwitchId) -> u64 {
        self.closer[(s * self.num_access + b) as usize]
    }

    /// Index of a per-(switch, access switch) table.
    #[inline]
    pub fn pair(&self, s: SwitchId, b: SwitchId) -> usize {
        (s * self.num_access + b) as usize
    }
}

/// The `i`-th set bit of `m` (i < popcount).
#[inline]
pub fn nth_bit(mut m: u64, i: u32) -> u32 {
    for _ in 0..i {
        m &= m - 1;
    }
    m.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fattree:4. Access 2 (the paper's node 18) reaches server 9 (on access
    /// switch 4, the paper's 20) in 5 edges over four shortest paths, not
    /// the two the paper's text names: 2 aggregates (10, 11) times 2 cores
    /// each.
    #[test]
    fn distances_and_next_hops_on_k4() {
        let net = Network::from_spec("fattree:4").unwrap();
        let t = FatTreeTable::new(&net, "test").unwrap();
        assert_eq!(net.host(9).switch, 4);
        assert_eq!(t.distance(2, 4), 5);
        assert_eq!(t.hops(2, 3), 2); // same pod
        assert_eq!(t.hops(2, 2), 0);
        // Count shortest paths from 2 to 4 by following closer ports.
        fn paths(t: &FatTreeTable, s: u32, b: u32) -> u32 {
            if s == b {
                return 1;
            }
            let m = t.closer(s, b);
            (0..64)
                .filter(|p| m & (1 << p) != 0)
                .map(|p| paths(t, t.peer(s, p as u16).unwrap(), b))
                .sum()
        }
        assert_eq!(paths(&t, 2, 4), 4);
        assert_eq!(paths(&t, 2, 3), 2);
        assert_eq!(nth_bit(0b101100, 1), 3);
    }
}
