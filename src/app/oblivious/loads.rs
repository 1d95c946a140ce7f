//! The analysis's two long sums cut into time slices, so the web build can
//! spread them over frames (no threads there): the channel loads
//! γ_c = Σ_sd λ_sd·w_c(s,d) ([`crate::analysis::channel_loads`], Singh's
//! thesis §2.2) and the mean over random permutations
//! ([`crate::analysis::random_permutation_average`], §2.2's average-case
//! throughput). Both give exactly the analysis's results (tests below).

use crate::analysis::{AnalysisError, AverageCase, ChannelWeights, TrafficMatrix};
use crate::rng::{SimRng, Stream, stream};
use crate::traffic::{Pattern, PatternSpec};
use num_rational::Ratio;
use web_time::{Duration, Instant};

/// Time slice of one step of a sum.
pub const SLICE: Duration = Duration::from_millis(4);

/// Entries (or samples) between two looks at the clock.
const CHECK_EVERY: usize = 64;

/// γ_c of one routing under one matrix, summed a slice at a time.
#[derive(Clone, Debug)]
pub struct LoadSum {
    /// Matrix entries added so far.
    next: usize,
    /// γ_c·L·D per analysis channel.
    numer: Vec<i128>,
    /// L·D.
    den: i128,
}

/// The result of a [`LoadSum`]: what [`crate::analysis::ChannelLoads`]
/// gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Loads {
    /// γ_c per analysis channel, flits per cycle per flit/node/cycle.
    pub gamma: Vec<f64>,
    /// max_c γ_c, exactly.
    pub max: Ratio<i128>,
    /// The busiest analysis channel (lowest index among ties).
    pub busiest: u32,
    /// 1/(Θ·max γ) as a fraction of Θ; None when nothing crosses a channel.
    pub ideal: Option<Ratio<i128>>,
    /// Mean hops per packet.
    pub avg_hops: Ratio<i128>,
}

impl LoadSum {
    /// Start summing `m` over `w`; the same checks as `channel_loads`
    /// (sizes and 128-bit room).
    pub fn new(w: &ChannelWeights, m: &TrafficMatrix) -> Result<LoadSum, String> {
        let cube = w.cube();
        if m.nodes() != cube.num_nodes() {
            return Err(format!(
                "the traffic matrix has {} nodes, the network {}",
                m.nodes(),
                cube.num_nodes()
            ));
        }
        let overflow = |what: &str| {
            AnalysisError::Overflow {
                spec: cube.network().spec().to_string(),
                routing: w.routing().to_string(),
                what: what.to_string(),
            }
            .to_string()
        };
        let hops: i128 = 2 * cube.radix().iter().map(|&k| k as i128).sum::<i128>();
        m.total_numerator()
            .checked_mul(w.denominator())
            .and_then(|x| x.checked_mul(2 * hops))
            .ok_or_else(|| overflow("Σλ·D (traffic and routing denominators)"))?;
        let den = m
            .denominator()
            .checked_mul(w.denominator())
            .ok_or_else(|| overflow("L·D"))?;
        Ok(LoadSum {
            next: 0,
            numer: vec![0; cube.num_channel_slots()],
            den,
        })
    }

    /// Add entries of `m` for about `slice`; true when all are in.
    pub fn advance(&mut self, w: &ChannelWeights, m: &TrafficMatrix, slice: Duration) -> bool {
        let start = Instant::now();
        let entries = m.entries();
        while self.next < entries.len() {
            let end = (self.next + CHECK_EVERY).min(entries.len());
            for &(s, d, x) in &entries[self.next..end] {
                let numer = &mut self.numer;
                w.row(s, d, |ch, v| numer[ch as usize] += x * v);
            }
            self.next = end;
            if start.elapsed() >= slice {
                break;
            }
        }
        self.next >= entries.len()
    }

    /// The loads (once [`Self::advance`] returned true).
    pub fn finish(&self, w: &ChannelWeights, m: &TrafficMatrix) -> Loads {
        let max = self.numer.iter().copied().max().unwrap_or(0);
        let busiest = self.numer.iter().position(|&x| x == max).unwrap_or(0) as u32;
        let max = Ratio::new(max, self.den);
        let total: i128 = self.numer.iter().sum();
        let injected = Ratio::new(m.total_numerator(), m.denominator());
        Loads {
            gamma: self
                .numer
                .iter()
                .map(|&x| x as f64 / self.den as f64)
                .collect(),
            ideal: (max != Ratio::from_integer(0)).then(|| (w.cube().capacity() * max).recip()),
            max,
            busiest,
            avg_hops: Ratio::new(total, self.den) / injected,
        }
    }
}

/// The random-permutation average, a slice of samples at a time: the
/// permutations of `random_permutation_average` (stream
/// [`Stream::Pattern`] of the seed, one after the other).
pub struct AverageSum {
    samples: usize,
    seed: u64,
    rng: SimRng,
    loads: Vec<i128>,
    /// max_c γ_c·D of every sample so far.
    maxima: Vec<i128>,
}

impl AverageSum {
    pub fn new(w: &ChannelWeights, samples: usize, seed: u64) -> AverageSum {
        AverageSum {
            samples,
            seed,
            rng: stream(seed, Stream::Pattern),
            loads: vec![0; w.cube().num_channel_slots()],
            maxima: Vec::with_capacity(samples),
        }
    }

    /// Draw samples for about `slice`; true when all are drawn.
    pub fn advance(&mut self, w: &ChannelWeights, slice: Duration) -> Result<bool, String> {
        let start = Instant::now();
        let net = w.cube().network();
        while self.maxima.len() < self.samples {
            let perm = match Pattern::build(&PatternSpec::RandPerm, net, &mut self.rng) {
                Ok(Pattern::Permutation(p)) => p,
                Ok(_) => return Err("randperm did not build a permutation".into()),
                Err(e) => return Err(format!("randperm: {}", e.problem)),
            };
            self.loads.iter_mut().for_each(|x| *x = 0);
            for (s, &d) in perm.iter().enumerate() {
                let loads = &mut self.loads;
                w.row(s as u32, d, |ch, v| loads[ch as usize] += v);
            }
            self.maxima
                .push(self.loads.iter().copied().max().unwrap_or(0));
            if self.maxima.len().is_multiple_of(CHECK_EVERY / 8) && start.elapsed() >= slice {
                break;
            }
        }
        Ok(self.maxima.len() >= self.samples)
    }

    /// Samples drawn so far.
    pub fn drawn(&self) -> usize {
        self.maxima.len()
    }

    /// The average (once [`Self::advance`] returned true).
    pub fn finish(&self, w: &ChannelWeights) -> Result<AverageCase, String> {
        crate::analysis::summarize_average(w, self.samples, self.seed, self.maxima.clone())
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Cube, ObliviousRouting, channel_loads, random_permutation_average};

    #[test]
    fn sliced_sums_are_the_analysis_results() {
        let cube = Cube::from_spec("torus:6x4").unwrap();
        for r in ObliviousRouting::COMPARED {
            let w = ChannelWeights::new(&cube, r).unwrap();
            for t in ["uniform", "uniform-other", "tornado", "nn", "randperm"] {
                let m = TrafficMatrix::build(&t.parse().unwrap(), cube.network(), 3).unwrap();
                let mut sum = LoadSum::new(&w, &m).unwrap();
                let mut steps = 0;
                while !sum.advance(&w, &m, Duration::ZERO) {
                    steps += 1;
                }
                assert!(m.entries().len() <= CHECK_EVERY || steps > 0);
                let got = sum.finish(&w, &m);
                let want = channel_loads(&w, &m).unwrap();
                assert_eq!(got.gamma, want.loads_f64(), "{r} {t}");
                assert_eq!(got.max, want.max_channel_load());
                assert_eq!(got.busiest, want.busiest_channel());
                assert_eq!(got.ideal, want.ideal_throughput());
                assert_eq!(got.avg_hops, want.avg_hops());
            }
            let mut avg = AverageSum::new(&w, 50, 7);
            while !avg.advance(&w, Duration::ZERO).unwrap() {}
            assert_eq!(avg.drawn(), 50);
            assert_eq!(
                avg.finish(&w).unwrap(),
                random_permutation_average(&w, 50, 7).unwrap(),
                "{r}"
            );
        }
    }

    #[test]
    fn a_matrix_of_another_size_is_refused() {
        let cube = Cube::from_spec("torus:4x4").unwrap();
        let w = ChannelWeights::new(&cube, ObliviousRouting::Val).unwrap();
        let m = TrafficMatrix::uniform(9);
        assert!(LoadSum::new(&w, &m).unwrap_err().contains("9 nodes"));
    }
}
