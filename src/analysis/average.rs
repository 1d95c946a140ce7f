//! Average-case throughput over random permutations (Singh's thesis §2.2,
//! "average-case throughput": the mean ideal throughput over many random
//! permutations; the thesis uses 10⁴ samples, routelab 1000 by default).
//!
//! Permutations come from stream [`Stream::Pattern`] of the seed, drawn one
//! after the other by the simulator's own `randperm` builder
//! ([`Pattern::build`]); the first is therefore the permutation
//! `routelab sim --traffic randperm --seed S` uses. Each sample's ideal
//! throughput is exact; the mean and its standard error are floats. The
//! 5th percentile is the nearest-rank one, ⌈0.05·samples⌉-th smallest.

use super::AnalysisError;
use super::weights::ChannelWeights;
use crate::rng::{SimRng, Stream, stream};
use crate::traffic::{Pattern, PatternSpec};
use num_rational::Ratio;

/// Samples the average case uses unless told otherwise.
pub const DEFAULT_SAMPLES: usize = 1000;

/// Ideal throughput over random permutations, fraction of capacity.
#[derive(Clone, Debug, PartialEq)]
pub struct AverageCase {
    /// Number of permutations drawn.
    pub samples: usize,
    /// Samples that loaded no channel (the identity permutation), left out
    /// of the statistics: they do not limit the network.
    pub idle_samples: usize,
    /// The seed of the permutation stream.
    pub seed: u64,
    /// Mean of the samples' ideal throughputs.
    pub mean: f64,
    /// Standard error of the mean (sample standard deviation / √samples).
    pub std_error: f64,
    /// The smallest sample, exactly.
    pub min: Ratio<i128>,
    /// The 5th percentile, nearest rank: the ⌈0.05·samples⌉-th smallest.
    pub p5: Ratio<i128>,
}

/// Mean ideal throughput of `samples` seeded random permutations
/// ([`AverageSum`] run to the end).
pub fn random_permutation_average(
    w: &ChannelWeights,
    samples: usize,
    seed: u64,
) -> Result<AverageCase, AnalysisError> {
    let mut sum = AverageSum::new(w, samples, seed)?;
    sum.step(w, samples)?;
    sum.finish(w)
}

/// The random-permutation average (§2.2) drawn in steps, a few samples at
/// a time, and resumable (the app spreads it over frames): the same
/// permutations, one after the other, as [`random_permutation_average`].
/// Every step takes the same `w` it was made with.
#[derive(Clone, Debug)]
pub struct AverageSum {
    samples: usize,
    seed: u64,
    rng: SimRng,
    loads: Vec<i128>,
    /// max_c γ_c·D of every sample so far (a permutation has L = 1).
    maxima: Vec<i128>,
}

impl AverageSum {
    /// Start drawing `samples` permutations from stream
    /// [`Stream::Pattern`] of `seed`.
    pub fn new(w: &ChannelWeights, samples: usize, seed: u64) -> Result<AverageSum, AnalysisError> {
        if samples == 0 {
            return Err(AnalysisError::TooLarge {
                spec: w.cube().network().spec().to_string(),
                what: "0 samples".into(),
                limit: "at least 1 permutation".into(),
            });
        }
        Ok(AverageSum {
            samples,
            seed,
            rng: stream(seed, Stream::Pattern),
            loads: vec![0i128; w.cube().num_channel_slots()],
            maxima: Vec::with_capacity(samples),
        })
    }

    /// Draw up to `n` more samples; returns how many were drawn (0 once
    /// all are).
    pub fn step(&mut self, w: &ChannelWeights, n: usize) -> Result<usize, AnalysisError> {
        let net = w.cube().network();
        let end = self.maxima.len().saturating_add(n).min(self.samples);
        let before = self.maxima.len();
        while self.maxima.len() < end {
            let perm = match Pattern::build(&PatternSpec::named("randperm"), net, &mut self.rng) {
                Ok(Pattern::Permutation(p)) => p,
                Ok(_) => {
                    return Err(AnalysisError::Traffic {
                        spec: "randperm".into(),
                        problem: "did not build a permutation".into(),
                        accepted: super::matrix::accepted(),
                    });
                }
                Err(e) => {
                    return Err(AnalysisError::Traffic {
                        spec: e.spec,
                        problem: e.problem,
                        accepted: super::matrix::accepted(),
                    });
                }
            };
            let loads = &mut self.loads;
            loads.iter_mut().for_each(|x| *x = 0);
            for (s, &d) in perm.iter().enumerate() {
                w.row(s as u32, d, |ch, v| loads[ch as usize] += v);
            }
            self.maxima.push(loads.iter().copied().max().unwrap_or(0));
        }
        Ok(self.maxima.len() - before)
    }

    /// Samples drawn so far.
    pub fn drawn(&self) -> usize {
        self.maxima.len()
    }

    /// Samples asked for.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// True once every sample is drawn.
    pub fn done(&self) -> bool {
        self.maxima.len() >= self.samples
    }

    /// The average of the samples drawn (all of them once [`Self::done`]).
    pub fn finish(&self, w: &ChannelWeights) -> Result<AverageCase, AnalysisError> {
        summarize(w, self.samples, self.seed, self.maxima.clone())
    }
}

/// Mean, spread and low tail of the samples' ideal throughputs from their
/// maximum channel loads (numerators over D).
fn summarize(
    w: &ChannelWeights,
    samples: usize,
    seed: u64,
    mut maxima: Vec<i128>,
) -> Result<AverageCase, AnalysisError> {
    let cap = w.cube().capacity();
    let den = w.denominator();
    // A sample that loads no channel (the identity) does not limit the
    // network: leave it out of the statistics and count it.
    let idle = maxima.iter().filter(|&&m| m == 0).count();
    maxima.retain(|&m| m > 0);
    if maxima.is_empty() {
        return Err(AnalysisError::TooLarge {
            spec: w.cube().network().spec().to_string(),
            what: "random permutations that all keep every packet at its source".into(),
            limit: "at least one sample that loads a channel".into(),
        });
    }
    // Throughput = D / (Θ·max): a larger load is a smaller throughput.
    let exact = |m: i128| (cap * Ratio::new(m, den)).recip();
    let values: Vec<f64> = maxima
        .iter()
        .map(|&m| {
            let r = exact(m);
            *r.numer() as f64 / *r.denom() as f64
        })
        .collect();
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = if values.len() > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    // Descending load = ascending throughput.
    maxima.sort_unstable_by(|a, b| b.cmp(a));
    let rank = maxima.len().div_ceil(20).max(1); // ⌈0.05·samples⌉
    Ok(AverageCase {
        samples,
        idle_samples: idle,
        seed,
        mean,
        std_error: (var / n).sqrt(),
        min: exact(maxima[0]),
        p5: exact(maxima[rank - 1]),
    })
}
