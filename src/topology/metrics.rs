//! Distances and ideal capacity of a network.
//!
//! Capacity is the uniform-traffic throughput bound in flits per host per
//! cycle with unit-bandwidth channels (Dally and Towles §3.3.1), capped by the
//! host link: `min(1, network bound per switch / hosts per switch)`.
//! - torus (k-ary n-cube, k = largest radix): `8/k` for even k,
//!   `8k/(k²-1)` for odd k;
//! - mesh: `4/k`;
//! - hypercube: `2`;
//! - midimew, fat tree, irregular and file networks: the channel-load bound
//!   `C / (N_h · H)`, where C is the number of switch-to-switch channels,
//!   N_h the number of hosts and H the mean number of switch-to-switch hops
//!   between two distinct hosts over minimal paths: the load each channel
//!   would carry if uniform traffic were spread perfectly over all channels.
//!   It is exact for edge-symmetric networks (it gives 8/k on even tori) and an
//!   upper bound otherwise.

use super::{Network, Shape, SwitchId};
use serde::Serialize;
use std::collections::VecDeque;

/// Hop distances from `src` to every switch (u32::MAX when unreachable).
///
/// A plain BFS over the port lists rather than petgraph's Dijkstra: it is
/// run N times when building routing tables and returns a dense vector.
pub fn bfs_distances(net: &Network, src: SwitchId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; net.num_switches()];
    let mut q = VecDeque::new();
    dist[src as usize] = 0;
    q.push_back(src);
    while let Some(s) = q.pop_front() {
        let d = dist[s as usize] + 1;
        for (_, t) in net.neighbours(s) {
            if dist[t as usize] == u32::MAX {
                dist[t as usize] = d;
                q.push_back(t);
            }
        }
    }
    dist
}

/// All-pairs switch distances, row-major `dist[a * n + b]`.
pub fn all_pairs(net: &Network) -> Vec<u32> {
    let n = net.num_switches();
    let mut out = Vec::with_capacity(n * n);
    for s in 0..n as SwitchId {
        out.extend(bfs_distances(net, s));
    }
    out
}

/// True when every switch reaches every other (petgraph's component count).
pub fn is_connected(net: &Network) -> bool {
    petgraph::algo::connected_components(net.graph()) <= 1
}

/// Diameter and average distances of a network.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DistanceStats {
    /// Largest switch-to-switch hop distance.
    pub diameter: u32,
    /// Mean hop distance over ordered pairs of distinct switches.
    pub avg_switch_distance: f64,
    /// Mean switch-to-switch hops over ordered pairs of distinct hosts.
    pub avg_host_distance: f64,
}

impl DistanceStats {
    /// Distances over every pair, computed with the network's symmetry
    /// where it has one so that large networks take milliseconds: k-ary
    /// n-cubes by their per-dimension sums (exact), hypercubes and midimew
    /// (vertex-transitive) from one switch, fat trees from one switch per
    /// level (the levels are each one orbit); other networks by a search
    /// from every switch. Every sum is the exact integer a search from every
    /// switch gives, so the results are identical ([`DistanceStats::by_search`]).
    pub fn of(net: &Network) -> DistanceStats {
        let n = net.num_switches() as u64;
        let uniform_hosts = |h: u64, sum_sw: u128, diameter: u32| {
            // h hosts on every switch: pairs of hosts on two switches weigh
            // h², on one switch h(h-1) (at distance 0).
            let pairs_sw = n * n.saturating_sub(1);
            let pairs_host = h * h * pairs_sw + n * h * h.saturating_sub(1);
            Self::from_sums(
                n,
                diameter,
                sum_sw,
                h as u128 * h as u128 * sum_sw,
                pairs_host,
            )
        };
        match net.shape() {
            Shape::Cube { radix, wrap } if (net.num_hosts() as u64).is_multiple_of(n.max(1)) => {
                let h = net.num_hosts() as u64 / n.max(1);
                let (mut sum, mut diameter) = (0u128, 0u32);
                for &k in radix {
                    let k = k as u128;
                    // Ordered coordinate pairs' distance sum and the largest.
                    let (d_sum, d_max) = if *wrap {
                        let one: u128 = (0..k).map(|o| o.min(k - o)).sum();
                        (k * one, (k / 2) as u32)
                    } else {
                        ((k * k * k - k) / 3, (k - 1) as u32)
                    };
                    let others = n as u128 / k;
                    sum += d_sum * others * others;
                    diameter += d_max;
                }
                uniform_hosts(h, sum, diameter)
            }
            Shape::Hypercube { .. } | Shape::Midimew { .. }
                if (net.num_hosts() as u64).is_multiple_of(n.max(1)) =>
            {
                let h = net.num_hosts() as u64 / n.max(1);
                let d = bfs_distances(net, 0);
                let diameter = d
                    .iter()
                    .copied()
                    .filter(|&x| x != u32::MAX)
                    .max()
                    .unwrap_or(0);
                let one: u128 = d
                    .iter()
                    .filter(|&&x| x != u32::MAX)
                    .map(|&x| x as u128)
                    .sum();
                uniform_hosts(h, one * n as u128, diameter)
            }
            Shape::FatTree { k } => {
                let (k, half) = (*k as u64, *k as u64 / 2);
                let access = k * half;
                // One access, one aggregate and one core switch, each for
                // its whole level.
                Self::search(
                    net,
                    &[
                        (0, access),
                        (access as SwitchId, access),
                        ((2 * access) as SwitchId, half * half),
                    ],
                )
            }
            _ => Self::by_search(net),
        }
    }

    /// Distances by a breadth-first search from every switch.
    pub fn by_search(net: &Network) -> DistanceStats {
        let all: Vec<(SwitchId, u64)> = (0..net.num_switches() as SwitchId)
            .map(|s| (s, 1))
            .collect();
        Self::search(net, &all)
    }

    /// Searches from `sources`, each standing for `multiplicity` switches
    /// with the same distances to the same host counts.
    fn search(net: &Network, sources: &[(SwitchId, u64)]) -> DistanceStats {
        let n = net.num_switches();
        let hosts_at: Vec<u64> = (0..n as SwitchId)
            .map(|s| net.hosts_of(s).count() as u64)
            .collect();
        let (mut diameter, mut sum_sw, mut sum_host, mut pairs_host) = (0u32, 0u128, 0u128, 0u64);
        for &(s, multiplicity) in sources {
            let d = bfs_distances(net, s);
            let m = multiplicity as u128;
            for (t, &dt) in d.iter().enumerate() {
                if dt == u32::MAX {
                    continue;
                }
                diameter = diameter.max(dt);
                sum_sw += m * dt as u128;
                let w = if t == s as usize {
                    hosts_at[t] * hosts_at[t].saturating_sub(1)
                } else {
                    hosts_at[s as usize] * hosts_at[t]
                };
                sum_host += m * (w as u128 * dt as u128);
                pairs_host += multiplicity * w;
            }
        }
        Self::from_sums(n as u64, diameter, sum_sw, sum_host, pairs_host)
    }

    fn from_sums(
        n: u64,
        diameter: u32,
        sum_sw: u128,
        sum_host: u128,
        pairs_host: u64,
    ) -> DistanceStats {
        let pairs_sw = (n * n.saturating_sub(1)).max(1) as f64;
        DistanceStats {
            diameter,
            avg_switch_distance: sum_sw as f64 / pairs_sw,
            avg_host_distance: sum_host as f64 / pairs_host.max(1) as f64,
        }
    }
}

/// Ideal uniform-traffic capacity in flits per host per cycle (module docs).
pub fn capacity_per_host(net: &Network) -> f64 {
    let hosts_per_switch = net.max_hosts_per_switch().max(1) as f64;
    let per_switch = match net.shape() {
        Shape::Cube { radix, wrap } => super::cube::capacity(radix, *wrap),
        Shape::Hypercube { .. } => 2.0,
        _ => {
            let h = DistanceStats::of(net).avg_host_distance;
            let c = net.num_network_channels() as f64;
            let hosts = net.num_hosts() as f64;
            if h <= 0.0 || hosts == 0.0 {
                return 1.0;
            }
            return (c / (hosts * h)).min(1.0);
        }
    };
    (per_switch / hosts_per_switch).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_capacities() {
        let c = |s: &str| capacity_per_host(&Network::from_spec(s).unwrap());
        assert!((c("torus:8x8") - 1.0).abs() < 1e-12); // 8/8
        assert!((c("torus:16x16") - 0.5).abs() < 1e-12); // 8/16
        assert_eq!(c("torus:5x5"), 1.0); // 8·5/24 > 1, capped by the host link
        assert!((c("mesh:8x8") - 0.5).abs() < 1e-12); // 4/8
        assert!((c("torus:16x16:hosts=2") - 0.25).abs() < 1e-12);
        assert!((c("hypercube:6") - 1.0).abs() < 1e-12); // min(1, 2)
    }

    #[test]
    fn odd_torus_capacity() {
        // k = 9: 8*9/80 = 0.9
        let c = capacity_per_host(&Network::from_spec("torus:9x9").unwrap());
        assert!((c - 0.9).abs() < 1e-12, "{c}");
    }

    #[test]
    fn channel_load_bound_matches_torus_formula() {
        // The generic bound C/(N·H) on an even torus with uniform traffic over
        // all *other* nodes is 8/k · (N-1)/N; check it stays that close.
        let net = Network::from_spec("torus:8x8").unwrap();
        let h = DistanceStats::of(&net).avg_host_distance;
        let bound = net.num_network_channels() as f64 / (64.0 * h);
        assert!((bound - 63.0 / 64.0).abs() < 1e-12, "{bound}");
    }

    #[test]
    fn symmetric_shortcuts_equal_a_search_from_every_switch() {
        for spec in [
            "torus:8x8",
            "torus:5",
            "torus:3x4x5:hosts=2",
            "mesh:4x4",
            "mesh:2x3x5:hosts=3",
            "hypercube:1",
            "hypercube:5:hosts=2",
            "midimew:5",
            "midimew:13",
            "midimew:64:hosts=2",
            "fattree:2",
            "fattree:4",
            "fattree:8",
        ] {
            let net = Network::from_spec(spec).unwrap();
            assert_eq!(
                DistanceStats::of(&net),
                DistanceStats::by_search(&net),
                "{spec}"
            );
        }
    }

    #[test]
    fn distances_of_known_networks() {
        let d = DistanceStats::of(&Network::from_spec("hypercube:4").unwrap());
        assert_eq!(d.diameter, 4);
        // mean over distinct pairs: (n/2)·N/(N-1) = 2·16/15
        assert!((d.avg_switch_distance - 32.0 / 15.0).abs() < 1e-12);
        let d = DistanceStats::of(&Network::from_spec("torus:8x8").unwrap());
        assert_eq!(d.diameter, 8);
        let d = DistanceStats::of(&Network::from_spec("fattree:4").unwrap());
        assert_eq!(d.diameter, 4);
    }
}
