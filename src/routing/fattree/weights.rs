//! Step 4 of the weighted-path paper ("Model building", then "Model
//! solving"): a weight per switch from its bandwidths and level,
//!
//! ```text
//! weight_i = bw_in_i / (k_level_i · bw_out_i + level_i) + 0.5
//! ```
//!
//! (servers weigh 0; levels: access 1, aggregate 2, core 3), and the
//! weighted distance between two nodes, the least sum of the weights of the
//! nodes on a path, both ends included. As the paper computes it: Dijkstra
//! (petgraph) with each edge weighing the mean of its two ends' weights,
//! which leaves out half of each end's weight, then that half-end
//! correction added back. Servers hang off one access switch each and
//! weigh 0, so the distance to a server is the distance to its access
//! switch.

use super::table::FatTreeTable;
use crate::topology::SwitchId;
use petgraph::graph::{NodeIndex, UnGraph};

/// Weights and weighted distances of one fat tree.
#[derive(Clone, Debug)]
pub struct WeightedDistances {
    /// The paper's `weight_i` per switch.
    pub weight: Vec<f64>,
    /// `weight_distance(s, b)` per (switch, access switch), flat as
    /// [`FatTreeTable::pair`].
    dist: Vec<f64>,
    /// Ports of s whose switch has a strictly smaller weighted distance
    /// to b.
    closer: Vec<u64>,
}

/// The paper's weight of a switch with these parameters at `level` (1..=3)
/// with the level's coefficient `k_level`.
pub fn weight(bw_in: u32, bw_out: u32, level: u32, k_level: f64) -> f64 {
    bw_in as f64 / (k_level * bw_out as f64 + level as f64) + 0.5
}

impl WeightedDistances {
    /// `k_level[l - 1]` is the coefficient of level l.
    pub fn new(t: &FatTreeTable, k_level: [f64; 3]) -> WeightedDistances {
        let n = t.num_switches as usize;
        let weight: Vec<f64> = (0..n)
            .map(|s| {
                let p = t.params[s];
                let level = t.level[s] as u32;
                weight(p.bw_in, p.bw_out, level, k_level[level as usize - 1])
            })
            .collect();
        let mut g: UnGraph<(), f64> = UnGraph::with_capacity(n, n * t.k as usize);
        for _ in 0..n {
            g.add_node(());
        }
        for s in 0..n as SwitchId {
            for &r in t.peers(s) {
                if r != u32::MAX && s < r {
                    let w = (weight[s as usize] + weight[r as usize]) / 2.0;
                    g.add_edge(NodeIndex::new(s as usize), NodeIndex::new(r as usize), w);
                }
            }
        }
        let a = t.num_access as usize;
        let mut dist = vec![f64::INFINITY; n * a];
        for b in 0..a {
            let from_b = petgraph::algo::dijkstra(&g, NodeIndex::new(b), None, |e| *e.weight());
            for (node, d) in from_b {
                let s = node.index();
                // The half-end correction: edges carry half of each end.
                dist[s * a + b] = d + (weight[s] + weight[b]) / 2.0;
            }
        }
        let mut w = WeightedDistances {
            weight,
            dist,
            closer: Vec::new(),
        };
        w.closer = t.masks(|t, s, b| w.dist[t.pair(s, b)]);
        w
    }

    /// `weight_distance(s, target)` for a target server on access switch
    /// `b` (the server itself weighs 0).
    #[inline]
    pub fn distance(&self, t: &FatTreeTable, s: SwitchId, b: SwitchId) -> f64 {
        self.dist[t.pair(s, b)]
    }

    /// Ports of `s` whose switch is strictly closer to `b` by weight.
    #[inline]
    pub fn closer(&self, t: &FatTreeTable, s: SwitchId, b: SwitchId) -> u64 {
        self.closer[t.pair(s, b)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Network;

    /// Every switch alike (`equal`: bw 80/80) with k_level = (1, 2, 3):
    /// access 80/81 + 0.5, aggregate 80/162 + 0.5, core 80/243 + 0.5. A
    /// cross-pod path access-aggregate-core-aggregate-access sums them;
    /// the minimal next hops are exactly the ports closer by weight.
    #[test]
    fn weighted_distance_by_hand() {
        let net = Network::from_spec("fattree:4").unwrap();
        let t = FatTreeTable::new(&net, "test").unwrap();
        let w = WeightedDistances::new(&t, [1.0, 2.0, 3.0]);
        let (a, g, c) = (80.0 / 81.0 + 0.5, 80.0 / 162.0 + 0.5, 80.0 / 243.0 + 0.5);
        assert!((w.weight[0] - a).abs() < 1e-12);
        assert!((w.weight[8] - g).abs() < 1e-12);
        assert!((w.weight[16] - c).abs() < 1e-12);
        assert!((w.distance(&t, 2, 4) - (2.0 * a + 2.0 * g + c)).abs() < 1e-9);
        assert!((w.distance(&t, 2, 3) - (2.0 * a + g)).abs() < 1e-9);
        assert!((w.distance(&t, 4, 4) - a).abs() < 1e-9);
        for s in 0..20 {
            for b in 0..8 {
                assert_eq!(w.closer(&t, s, b), t.closer(s, b), "{s} -> {b}");
            }
        }
    }
}
