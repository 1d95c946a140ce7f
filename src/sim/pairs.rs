//! Per source-destination pair statistics and the DRB paper's own metrics
//! (Franco, Garcés and Luque §4), gathered only when a run asks for them
//! ([`MeasureConfig::pair_stats`](super::MeasureConfig::pair_stats)).
//!
//! - **Uniformity of latency**, DRB's stated goal: the mean latency of every
//!   host pair that delivered a measured packet, and the coefficient of
//!   variation (standard deviation over mean) of those means.
//! - **Ordering**: a measured packet is delivered *out of order* when a
//!   packet of the same pair generated strictly later was delivered before
//!   it (generation cycles order a pair's packets, as its source queue is
//!   first in, first out; two packets of one pair generated in the same
//!   cycle are not told apart).
//! - **The paper's latency**, "the total time the packets have to wait to
//!   access the link from source to destination": the cycles a packet waits
//!   in its source queue plus the cycles its head is blocked in the network
//!   ([`Feedback::blocked_cycles`](crate::routing::Feedback::blocked_cycles)),
//!   without the transmission time.
//! - **Background traffic** under a hot spot: packets whose destination is
//!   not a hot host, the traffic balancing can help (the hot host's
//!   ejection link caps the rest).

use super::histogram::Histogram;
use crate::topology::HostId;
use std::collections::HashMap;

/// Most hosts for a dense pair table (hosts² entries); above it a hash map.
const DENSE_HOSTS: usize = 512;

/// Counters of one host pair over the measured packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCounter {
    /// Sum of the latencies (generation to tail delivery) of its packets.
    pub latency_sum: u64,
    /// Measured packets delivered.
    pub packets: u32,
    /// Of those, delivered after a packet of the pair generated later.
    pub out_of_order: u32,
    /// Largest generation cycle delivered so far (plus one; 0 = none).
    last_gen: u64,
}

/// One measured packet as the pair statistics see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairSample {
    pub src_host: HostId,
    pub dst_host: HostId,
    pub gen_cycle: u64,
    pub latency: u64,
    /// Cycles in the source queue.
    pub queued: u64,
    /// Cycles its head was blocked in the network.
    pub blocked: u64,
    pub flits: u64,
}

/// Per-pair counters and the paper's metrics.
#[derive(Clone, Debug)]
pub struct PairStats {
    hosts: usize,
    dense: Vec<PairCounter>,
    sparse: HashMap<u64, PairCounter>,
    /// Per host: a hot-spot destination.
    hot: Vec<bool>,
    wait_sum: u64,
    blocked_sum: u64,
    packets: u64,
    background_flits: u64,
    background: Histogram,
}

impl PairStats {
    /// Statistics for `hosts` hosts; `hot` lists the hot-spot hosts (empty
    /// when the traffic has none).
    pub fn new(hosts: usize, hot: &[HostId]) -> PairStats {
        let mut is_hot = vec![false; hosts];
        for &h in hot {
            if let Some(x) = is_hot.get_mut(h as usize) {
                *x = true;
            }
        }
        PairStats {
            hosts,
            dense: if hosts <= DENSE_HOSTS {
                vec![PairCounter::default(); hosts * hosts]
            } else {
                Vec::new()
            },
            sparse: HashMap::new(),
            hot: is_hot,
            wait_sum: 0,
            blocked_sum: 0,
            packets: 0,
            background_flits: 0,
            background: Histogram::default(),
        }
    }

    /// The same statistics, emptied (the measurement restarts).
    pub fn cleared(&self) -> PairStats {
        let hot: Vec<HostId> = (0..self.hosts as HostId)
            .filter(|&h| self.hot[h as usize])
            .collect();
        PairStats::new(self.hosts, &hot)
    }

    pub(crate) fn record(&mut self, p: PairSample) {
        self.packets += 1;
        self.wait_sum += p.queued + p.blocked;
        self.blocked_sum += p.blocked;
        if !self.hot.is_empty() && !self.hot[p.dst_host as usize] {
            self.background_flits += p.flits;
            self.background.record(p.latency);
        }
        let c = if self.dense.is_empty() {
            let key = (p.src_host as u64) << 32 | p.dst_host as u64;
            self.sparse.entry(key).or_default()
        } else {
            &mut self.dense[p.src_host as usize * self.hosts + p.dst_host as usize]
        };
        c.latency_sum += p.latency;
        c.packets += 1;
        if p.gen_cycle + 1 < c.last_gen {
            c.out_of_order += 1;
        }
        c.last_gen = c.last_gen.max(p.gen_cycle + 1);
    }

    /// Every pair with a measured packet: (source host, destination host,
    /// counters), by source then destination.
    pub fn pairs(&self) -> Vec<(HostId, HostId, PairCounter)> {
        let mut out: Vec<(HostId, HostId, PairCounter)> = if self.dense.is_empty() {
            self.sparse
                .iter()
                .map(|(&k, &c)| ((k >> 32) as HostId, k as HostId, c))
                .collect()
        } else {
            self.dense
                .iter()
                .enumerate()
                .filter(|(_, c)| c.packets > 0)
                .map(|(i, &c)| ((i / self.hosts) as HostId, (i % self.hosts) as HostId, c))
                .collect()
        };
        out.sort_by_key(|&(s, d, _)| (s, d));
        out
    }

    /// Measured packets recorded.
    pub fn packets(&self) -> u64 {
        self.packets
    }

    /// Mean waiting time (source queueing + blocked in the network).
    pub fn mean_wait(&self) -> f64 {
        ratio(self.wait_sum, self.packets)
    }

    /// Mean cycles blocked in the network.
    pub fn mean_blocked(&self) -> f64 {
        ratio(self.blocked_sum, self.packets)
    }

    /// True when the traffic has hot-spot hosts.
    pub fn has_hot_spot(&self) -> bool {
        self.hot.iter().any(|&h| h)
    }

    /// Flits delivered to hosts that are not hot.
    pub fn background_flits(&self) -> u64 {
        self.background_flits
    }

    /// Latencies of the packets to hosts that are not hot.
    pub fn background_latency(&self) -> &Histogram {
        &self.background
    }

    /// Coefficient of variation (population standard deviation over mean)
    /// of the per-pair mean latencies; 0 without pairs.
    pub fn latency_cv(&self) -> f64 {
        let means: Vec<f64> = self
            .pairs()
            .iter()
            .map(|(_, _, c)| c.latency_sum as f64 / c.packets as f64)
            .collect();
        coefficient_of_variation(&means)
    }
}

/// Population standard deviation over mean; 0 for an empty or zero-mean set.
pub fn coefficient_of_variation(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return 0.0;
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    var.sqrt() / mean
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(src: u32, dst: u32, gen_cycle: u64, latency: u64) -> PairSample {
        PairSample {
            src_host: src,
            dst_host: dst,
            gen_cycle,
            latency,
            queued: 1,
            blocked: 2,
            flits: 4,
        }
    }

    #[test]
    fn out_of_order_and_uniformity() {
        for hosts in [4, DENSE_HOSTS + 1] {
            let mut p = PairStats::new(hosts, &[3]);
            // Pair 0 -> 1: generated at 10, 20, 30, delivered 20, 10, 30:
            // the packet of 10 arrives after the one of 20.
            p.record(sample(0, 1, 20, 10));
            p.record(sample(0, 1, 10, 30));
            p.record(sample(0, 1, 30, 20));
            // Same-cycle packets are not told apart.
            p.record(sample(2, 3, 5, 40));
            p.record(sample(2, 3, 5, 40));
            let pairs = p.pairs();
            assert_eq!(pairs.len(), 2);
            assert_eq!(pairs[0].2.out_of_order, 1);
            assert_eq!(pairs[0].2.packets, 3);
            assert_eq!(pairs[1].2.out_of_order, 0);
            // Means 20 and 40: cv = 10 / 30.
            assert!((p.latency_cv() - 1.0 / 3.0).abs() < 1e-12);
            assert_eq!(p.mean_wait(), 3.0);
            assert_eq!(p.mean_blocked(), 2.0);
            // Host 3 is hot: only pair 0 -> 1 is background.
            assert_eq!(p.background_flits(), 12);
            assert!(p.has_hot_spot());
            assert_eq!(p.cleared().packets(), 0);
            assert!(p.cleared().has_hot_spot());
        }
    }
}
