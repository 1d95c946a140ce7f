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
use crate::rng::{Stream, stream};
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

/// Mean ideal throughput of `samples` seeded random permutations.
pub fn random_permutation_average(
    w: &ChannelWeights,
    samples: usize,
    seed: u64,
) -> Result<AverageCase, AnalysisError> {
    let cube = w.cube();
    let net = cube.network();
    if samples == 0 {
        return Err(AnalysisError::TooLarge {
            spec: net.spec().to_string(),
            what: "0 samples".into(),
            limit: "at least 1 permutation".into(),
        });
    }
    let mut rng = stream(seed, Stream::Pattern);
    let mut loads = vec![0i128; cube.num_channel_slots()];
    // max_c γ_c·D of every sample (a permutation has L = 1).
    let mut maxima = Vec::with_capacity(samples);
    for _ in 0..samples {
        let perm = match Pattern::build(&PatternSpec::RandPerm, net, &mut rng) {
            Ok(Pattern::Permutation(p)) => p,
            Ok(_) => {
                return Err(AnalysisError::Traffic {
                    spec: "randperm".into(),
                    problem: "did not build a permutation".into(),
                    accepted: super::matrix::ACCEPTED.into(),
                });
            }
            Err(e) => {
                return Err(AnalysisError::Traffic {
                    spec: e.spec,
                    problem: e.problem,
                    accepted: super::matrix::ACCEPTED.into(),
                });
            }
        };
        loads.iter_mut().for_each(|x| *x = 0);
        for (s, &d) in perm.iter().enumerate() {
            w.row(s as u32, d, |ch, v| loads[ch as usize] += v);
        }
        maxima.push(loads.iter().copied().max().unwrap_or(0));
    }
    summarize(w, samples, seed, maxima)
}

/// The statistics [`random_permutation_average`] returns, for callers
/// that draw the same permutations themselves (the app, a few per frame):
/// `maxima` holds each sample's max_c γ_c as a numerator over
/// [`ChannelWeights::denominator`], `samples` and `seed` are reported.
pub fn summarize_average(
    w: &ChannelWeights,
    samples: usize,
    seed: u64,
    maxima: Vec<i128>,
) -> Result<AverageCase, AnalysisError> {
    summarize(w, samples, seed, maxima)
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
