//! The two selections with no counters and no search (Koibuchi et al. §2):
//! a uniformly random path per pair, and low port first.

use super::pathset::PathSet;
use super::search::Choice;
use crate::rng::{Stream, below, stream};

/// Uniformly random path per pair, from stream [`Stream::Routing`] of `seed`.
pub fn random(set: &PathSet, seed: u64) -> Choice {
    let mut rng = stream(seed, Stream::Routing);
    (0..set.num_pairs())
        .map(|p| {
            let k = set.kept(p);
            if k > 1 { below(&mut rng, k) } else { 0 }
        })
        .collect()
}

/// Low port first: the path of rank 0 of every pair.
pub fn lowport(set: &PathSet) -> Choice {
    vec![0; set.num_pairs()]
}
