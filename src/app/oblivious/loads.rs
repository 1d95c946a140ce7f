//! The analysis's two long sums cut into time slices, so the web build can
//! spread them over frames (no threads there): the channel loads
//! γ_c = Σ_sd λ_sd·w_c(s,d) ([`crate::analysis::channel_loads`], Singh's
//! thesis §2.2) and the mean over random permutations
//! ([`crate::analysis::random_permutation_average`], §2.2's average-case
//! throughput). Both give exactly the analysis's results (tests below).

use crate::analysis::{self, AverageCase, ChannelLoads, ChannelWeights, TrafficMatrix};
use num_rational::Ratio;
use web_time::{Duration, Instant};

/// Time slice of one step of a sum.
pub const SLICE: Duration = Duration::from_millis(4);

/// Entries (or samples) between two looks at the clock.
const CHECK_EVERY: usize = 64;

/// γ_c of one routing under one matrix, summed a slice at a time: the
/// analysis's own steppable sum ([`analysis::LoadSum`]) with a clock.
#[derive(Clone, Debug)]
pub struct LoadSum(analysis::LoadSum);

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

impl From<&ChannelLoads> for Loads {
    fn from(l: &ChannelLoads) -> Loads {
        Loads {
            gamma: l.loads_f64(),
            max: l.max_channel_load(),
            busiest: l.busiest_channel(),
            ideal: l.ideal_throughput(),
            avg_hops: l.avg_hops(),
        }
    }
}

impl LoadSum {
    /// Start summing `m` over `w`; the checks of `channel_loads` (sizes
    /// and 128-bit room).
    pub fn new(w: &ChannelWeights, m: &TrafficMatrix) -> Result<LoadSum, String> {
        analysis::LoadSum::new(w, m)
            .map(LoadSum)
            .map_err(|e| e.to_string())
    }

    /// Add entries of `m` for about `slice`; true when all are in.
    pub fn advance(&mut self, w: &ChannelWeights, m: &TrafficMatrix, slice: Duration) -> bool {
        let start = Instant::now();
        while !self.0.done() {
            self.0.step(w, m, CHECK_EVERY);
            if start.elapsed() >= slice {
                break;
            }
        }
        self.0.done()
    }

    /// The loads (once [`Self::advance`] returned true).
    pub fn finish(&self) -> Loads {
        Loads::from(&self.0.clone().finish())
    }
}

/// The random-permutation average, a slice of samples at a time: the
/// analysis's own steppable average ([`analysis::AverageSum`], the
/// permutations of `random_permutation_average`) with a clock.
pub struct AverageSum(analysis::AverageSum);

impl AverageSum {
    pub fn new(w: &ChannelWeights, samples: usize, seed: u64) -> Result<AverageSum, String> {
        analysis::AverageSum::new(w, samples, seed)
            .map(AverageSum)
            .map_err(|e| e.to_string())
    }

    /// Draw samples for about `slice`; true when all are drawn.
    pub fn advance(&mut self, w: &ChannelWeights, slice: Duration) -> Result<bool, String> {
        let start = Instant::now();
        while !self.0.done() {
            self.0.step(w, CHECK_EVERY / 8).map_err(|e| e.to_string())?;
            if start.elapsed() >= slice {
                break;
            }
        }
        Ok(self.0.done())
    }

    /// Samples drawn so far.
    pub fn drawn(&self) -> usize {
        self.0.drawn()
    }

    /// The average (once [`Self::advance`] returned true).
    pub fn finish(&self, w: &ChannelWeights) -> Result<AverageCase, String> {
        self.0.finish(w).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Cube, Law, channel_loads, random_permutation_average};

    #[test]
    fn sliced_sums_are_the_analysis_results() {
        let cube = Cube::from_spec("torus:6x4").unwrap();
        for r in Law::compared() {
            let w = ChannelWeights::new(&cube, r.clone()).unwrap();
            for t in ["uniform", "uniform-other", "tornado", "nn", "randperm"] {
                let m = TrafficMatrix::build(&t.parse().unwrap(), cube.network(), 3).unwrap();
                let mut sum = LoadSum::new(&w, &m).unwrap();
                let mut steps = 0;
                while !sum.advance(&w, &m, Duration::ZERO) {
                    steps += 1;
                }
                assert!(m.entries().len() <= CHECK_EVERY || steps > 0);
                let got = sum.finish();
                let want = channel_loads(&w, &m).unwrap();
                assert_eq!(got.gamma, want.loads_f64(), "{r} {t}");
                assert_eq!(got.max, want.max_channel_load());
                assert_eq!(got.busiest, want.busiest_channel());
                assert_eq!(got.ideal, want.ideal_throughput());
                assert_eq!(got.avg_hops, want.avg_hops());
            }
            let mut avg = AverageSum::new(&w, 50, 7).unwrap();
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
        let w = ChannelWeights::new(&cube, "val".parse().unwrap()).unwrap();
        let m = TrafficMatrix::uniform(9);
        assert!(LoadSum::new(&w, &m).unwrap_err().contains("9 nodes"));
    }
}
