//! Worst-case traffic of an oblivious routing (Towles and Dally, "Worst-case
//! traffic for oblivious routing functions", 2002; Singh's thesis §2.2 and
//! §3.1, where it measures RLB's "worst-case throughput").
//!
//! For channel c, w_c(s,d) is the expected crossings of c by one s → d
//! packet ([`ChannelWeights`]). The heaviest permutation for c is a
//! maximum-weight perfect matching of the N×N matrix w_c (diagonal
//! allowed: a node may "send to itself", which loads nothing): its weight
//! γ*_c is the most load any permutation puts on c. By Birkhoff–von
//! Neumann every admissible traffic matrix (row and column sums at most 1)
//! is dominated by a mixture of permutations, so max_c γ*_c is also the
//! worst load over all admissible traffic, and θ_wc = 1 / (Θ · max_c γ*_c)
//! the worst-case ideal throughput as a fraction of capacity.
//!
//! The matching is the Kuhn–Munkres (Hungarian) algorithm of the
//! `pathfinding` crate on the integer numerators w_c·D (D the derived
//! common denominator of [`ChannelWeights`]), so γ*_c is exact. By
//! translation symmetry one channel per class suffices
//! ([`ChannelWeights::representatives`]: one per (dimension, direction) on
//! a torus); [`ChannelSet::All`] solves every channel instead, to check it.

use super::AnalysisError;
use super::weights::ChannelWeights;
use num_rational::Ratio;
use pathfinding::prelude::{Matrix, kuhn_munkres};

/// Largest total matching work, channels × N³, accepted by
/// [`worst_case`]: about a minute of Kuhn–Munkres on one core at worst.
/// torus:16x16 with a translation-invariant routing needs 4 × 256³ ≈
/// 6.7·10⁷ (0.1 s); torus:32x32 4 × 1024³ ≈ 4.3·10⁹ (7 s).
pub const MAX_MATCHING_WORK: u128 = 1 << 34;

/// Which channels get a matching of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelSet {
    /// One channel per symmetry class (the shortcut).
    Representatives,
    /// Every channel (no symmetry assumed).
    All,
}

/// The worst case of a routing (Towles and Dally).
#[derive(Clone, Debug, PartialEq)]
pub struct WorstCase {
    /// θ_wc = 1/(Θ·max_c γ*_c), fraction of capacity.
    pub ideal_throughput: Ratio<i128>,
    /// max_c γ*_c, flits per cycle per unit injection.
    pub max_channel_load: Ratio<i128>,
    /// The analysis channel achieving it (lowest index among ties).
    pub channel: u32,
    /// The permutation achieving it: node s sends to `permutation[s]`.
    pub permutation: Vec<u32>,
    /// γ*_c for every channel solved, `(channel, γ*_c)`.
    pub per_channel: Vec<(u32, Ratio<i128>)>,
}

/// γ*_c and a heaviest permutation for channel `ch` (a maximum-weight
/// perfect matching on w_c).
pub fn channel_worst(w: &ChannelWeights, ch: u32) -> (Ratio<i128>, Vec<u32>) {
    let (num, perm) = matching(w, ch);
    (Ratio::new(num, w.denominator()), perm)
}

fn matching(w: &ChannelWeights, ch: u32) -> (i128, Vec<u32>) {
    let n = w.cube().num_nodes();
    let weights = Matrix::from_fn(n, n, |(s, d)| w.weight(s as u32, d as u32, ch));
    let (total, assign) = kuhn_munkres(&weights);
    (total, assign.into_iter().map(|d| d as u32).collect())
}

/// The worst case over the channels of `set` (module docs).
pub fn worst_case_over(w: &ChannelWeights, set: ChannelSet) -> Result<WorstCase, AnalysisError> {
    let cube = w.cube();
    let channels: Vec<u32> = match set {
        ChannelSet::Representatives => w.representatives(),
        ChannelSet::All => (0..cube.num_channel_slots() as u32)
            .filter(|&c| cube.channel_exists(c))
            .collect(),
    };
    let n = cube.num_nodes() as u128;
    let work = channels.len() as u128 * n * n * n;
    if work > MAX_MATCHING_WORK {
        return Err(AnalysisError::TooLarge {
            spec: cube.network().spec().to_string(),
            what: format!(
                "the worst case of {} ({} matchings of {n}x{n})",
                w.routing(),
                channels.len()
            ),
            limit: "matchings x N^3 at most 2^34: every torus the analysis takes (one \
                    matching per dimension and direction, two with dor:tie=parity on even k), \
                    meshes (one matching per channel) up to about 16x16"
                .into(),
        });
    }
    let mut best: Option<(i128, u32, Vec<u32>)> = None;
    let mut per_channel = Vec::with_capacity(channels.len());
    for &ch in &channels {
        let (num, perm) = matching(w, ch);
        per_channel.push((ch, Ratio::new(num, w.denominator())));
        if best.as_ref().is_none_or(|b| num > b.0) {
            best = Some((num, ch, perm));
        }
    }
    let Some((num, channel, permutation)) = best.filter(|b| b.0 > 0) else {
        return Err(AnalysisError::TooLarge {
            spec: cube.network().spec().to_string(),
            what: "a network whose channels no packet can cross".into(),
            limit: "at least one loaded channel".into(),
        });
    };
    let max_channel_load = Ratio::new(num, w.denominator());
    Ok(WorstCase {
        ideal_throughput: (cube.capacity() * max_channel_load).recip(),
        max_channel_load,
        channel,
        permutation,
        per_channel,
    })
}

/// The worst case with the symmetry shortcut.
pub fn worst_case(w: &ChannelWeights) -> Result<WorstCase, AnalysisError> {
    worst_case_over(w, ChannelSet::Representatives)
}
