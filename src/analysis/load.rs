//! Expected channel loads γ_c of an oblivious routing under a traffic
//! matrix, and the ideal throughput they allow (Singh's thesis §2.2;
//! Dally and Towles §3.3).
//!
//! γ_c = Σ_sd λ_sd · w_c(s,d) is the load of channel c, in flits per cycle,
//! when every node injects one flit per cycle with destinations drawn from
//! Λ. A channel carries at most one flit per cycle, so the network
//! saturates at an injection rate of 1 / max_c γ_c per node: the *ideal*
//! throughput, reached only with perfect flow control. routelab reports it
//! as a fraction of the capacity Θ ([`Cube::capacity`](crate::analysis::geometry::Cube::capacity)):
//! 1 / (Θ · max_c γ_c).

use super::AnalysisError;
use super::matrix::TrafficMatrix;
use super::weights::ChannelWeights;
use num_rational::Ratio;

/// Exact channel loads of one routing under one traffic matrix.
#[derive(Clone, Debug)]
pub struct ChannelLoads {
    /// γ_c·den per analysis channel (0 past a mesh boundary).
    numer: Vec<i128>,
    den: i128,
    /// Σ_sd λ_sd (N for every pattern here).
    injected: Ratio<i128>,
    capacity: Ratio<i128>,
}

/// γ_c for every channel: Σ_sd λ_sd·w_c(s,d), exactly ([`LoadSum`] run to
/// the end).
pub fn channel_loads(w: &ChannelWeights, m: &TrafficMatrix) -> Result<ChannelLoads, AnalysisError> {
    let mut sum = LoadSum::new(w, m)?;
    sum.step(w, m, usize::MAX);
    Ok(sum.finish())
}

/// The sum γ_c = Σ_sd λ_sd·w_c(s,d) (§2.2) run in steps, a few matrix
/// entries at a time, and resumable (as [`crate::paths::Search`] is): the
/// app spreads it over frames, [`channel_loads`] runs it in one step. Every
/// step takes the same `w` and `m` it was made with.
#[derive(Clone, Debug)]
pub struct LoadSum {
    /// Matrix entries added so far.
    next: usize,
    /// Matrix entries in all.
    entries: usize,
    /// γ_c·den per analysis channel.
    numer: Vec<i128>,
    /// L·D.
    den: i128,
    injected: Ratio<i128>,
    capacity: Ratio<i128>,
}

impl LoadSum {
    /// Start summing `m` over `w`: checks the sizes and that the exact sum
    /// fits in 128 bits.
    pub fn new(w: &ChannelWeights, m: &TrafficMatrix) -> Result<LoadSum, AnalysisError> {
        let cube = w.cube();
        if m.nodes() != cube.num_nodes() {
            return Err(AnalysisError::Traffic {
                spec: "matrix".into(),
                problem: format!("{} nodes, the network has {}", m.nodes(), cube.num_nodes()),
                accepted: super::matrix::accepted(),
            });
        }
        let overflow = |what: &str| AnalysisError::Overflow {
            spec: cube.network().spec().to_string(),
            routing: w.routing().to_string(),
            what: what.to_string(),
        };
        // Every γ_c·den is at most Σ λ·L · 2D, and the sum over channels at
        // most that times the longest path (2·Σ k_j hops).
        let total = m.total_numerator();
        let hops: i128 = 2 * cube.radix().iter().map(|&k| k as i128).sum::<i128>();
        total
            .checked_mul(w.denominator())
            .and_then(|x| x.checked_mul(2 * hops))
            .ok_or_else(|| overflow("Σλ·D (traffic and routing denominators)"))?;
        let den = m
            .denominator()
            .checked_mul(w.denominator())
            .ok_or_else(|| overflow("L·D"))?;
        Ok(LoadSum {
            next: 0,
            entries: m.entries().len(),
            numer: vec![0i128; cube.num_channel_slots()],
            den,
            injected: Ratio::new(total, m.denominator()),
            capacity: cube.capacity(),
        })
    }

    /// Add up to `n` more entries of `m`; returns how many were added (0
    /// once every entry is in).
    pub fn step(&mut self, w: &ChannelWeights, m: &TrafficMatrix, n: usize) -> usize {
        let end = self.next.saturating_add(n).min(self.entries);
        let numer = &mut self.numer;
        for &(s, d, x) in &m.entries()[self.next..end] {
            w.row(s, d, |ch, v| numer[ch as usize] += x * v);
        }
        let added = end - self.next;
        self.next = end;
        added
    }

    /// Matrix entries added so far.
    pub fn added(&self) -> usize {
        self.next
    }

    /// Matrix entries in all.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// True once every entry is in.
    pub fn done(&self) -> bool {
        self.next >= self.entries
    }

    /// The loads (once [`Self::done`]; before, the loads of the entries
    /// added so far).
    pub fn finish(self) -> ChannelLoads {
        debug_assert!(self.done(), "LoadSum::finish before every entry is in");
        ChannelLoads {
            numer: self.numer,
            den: self.den,
            injected: self.injected,
            capacity: self.capacity,
        }
    }
}

impl ChannelLoads {
    /// γ_c of analysis channel `ch`.
    pub fn load(&self, ch: u32) -> Ratio<i128> {
        Ratio::new(self.numer[ch as usize], self.den)
    }
    /// γ_c of every analysis channel as floats (flits per cycle per unit of
    /// injection).
    pub fn loads_f64(&self) -> Vec<f64> {
        self.numer
            .iter()
            .map(|&x| x as f64 / self.den as f64)
            .collect()
    }
    /// max_c γ_c, exactly.
    pub fn max_channel_load(&self) -> Ratio<i128> {
        Ratio::new(self.numer.iter().copied().max().unwrap_or(0), self.den)
    }
    /// A channel with the largest load (the lowest index among ties).
    pub fn busiest_channel(&self) -> u32 {
        let max = self.numer.iter().copied().max().unwrap_or(0);
        self.numer.iter().position(|&x| x == max).unwrap_or(0) as u32
    }
    /// Ideal throughput as a fraction of capacity: 1 / (Θ · max_c γ_c)
    /// (§2.2). `None` when no channel carries anything (all traffic stays
    /// at its source): the network then never saturates.
    pub fn ideal_throughput(&self) -> Option<Ratio<i128>> {
        let max = self.max_channel_load();
        (max != Ratio::from_integer(0)).then(|| (self.capacity * max).recip())
    }
    /// Σ_c γ_c: expected channel crossings per cycle, which equals
    /// Σ_sd λ_sd·E[hops(s,d)] (conservation).
    pub fn total_load(&self) -> Ratio<i128> {
        Ratio::new(self.numer.iter().sum(), self.den)
    }
    /// Mean hops per packet: Σ_c γ_c / Σ_sd λ_sd (switch-to-switch hops;
    /// a packet to its own node counts 0).
    pub fn avg_hops(&self) -> Ratio<i128> {
        self.total_load() / self.injected
    }
    /// The capacity Θ the throughput is a fraction of.
    pub fn capacity(&self) -> Ratio<i128> {
        self.capacity
    }
}

/// Load summary of one routing and traffic.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSummary {
    /// 1/(Θ·max γ), fraction of capacity (None: nothing crosses a channel).
    pub ideal_throughput: Option<Ratio<i128>>,
    /// max_c γ_c in flits per cycle per unit injection.
    pub max_channel_load: Ratio<i128>,
    /// Mean hops per packet.
    pub avg_hops: Ratio<i128>,
}

/// γ_c, then the summary, for `routing`'s weights and matrix `m`.
pub fn ideal_throughput(
    w: &ChannelWeights,
    m: &TrafficMatrix,
) -> Result<LoadSummary, AnalysisError> {
    let l = channel_loads(w, m)?;
    Ok(LoadSummary {
        ideal_throughput: l.ideal_throughput(),
        max_channel_load: l.max_channel_load(),
        avg_hops: l.avg_hops(),
    })
}
