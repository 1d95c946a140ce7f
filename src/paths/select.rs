//! Path selection: one path per pair (Villalobos et al. §2 stage 2;
//! Koibuchi et al. §2-3). A [`Choice`] holds, for every pair (source-major,
//! [`super::pair_index`]), the index of its chosen path among the pair's
//! kept paths.

use super::anneal::Annealer;
use super::balance;
use super::genetic::Genetic;
use super::load::Objective;
use super::pathset::PathSet;
use super::{PathError, Search};
use crate::rng::{Stream, below, stream};
use std::fmt;
use std::sync::Arc;

/// Chosen path index per pair.
pub type Choice = Vec<u32>;

/// A path-selection algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Uniform over the pair's shortest legal paths (issue 5; over the kept
    /// ones when the pair was capped). Koibuchi et al. §2 "random".
    Random,
    /// Koibuchi et al. §2 "low port first": at every switch the lowest
    /// output port among those on a shortest legal path, then the lowest
    /// virtual channel; i.e. the lexicographically smallest (port, vc)
    /// sequence, the pair's path of rank 0.
    LowPort,
    /// Sancho's traffic balancing, MaxCp (see [`balance::maxcp`]).
    MaxCp,
    /// High physical channel first (see [`balance::hpcf`]).
    Hpcf,
    /// Low virtual channel first (see [`balance::lvcf`]).
    Lvcf,
    /// Low physical channel first (see [`balance::lpcf`]).
    Lpcf,
    /// Steady-state genetic algorithm ([`Genetic`]).
    Ga,
    /// Simulated annealing ([`Annealer`]).
    Sa,
}

impl Algorithm {
    pub const ACCEPTED: &'static str = "random, lowport, maxcp, hpcf, lvcf, lpcf, ga, sa";
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Random,
        Algorithm::LowPort,
        Algorithm::MaxCp,
        Algorithm::Hpcf,
        Algorithm::Lvcf,
        Algorithm::Lpcf,
        Algorithm::Ga,
        Algorithm::Sa,
    ];
    pub fn parse(s: &str) -> Option<Algorithm> {
        match s {
            "random" => Some(Algorithm::Random),
            "lowport" | "low-port" => Some(Algorithm::LowPort),
            "maxcp" | "sancho" | "traffic-balancing" => Some(Algorithm::MaxCp),
            "hpcf" => Some(Algorithm::Hpcf),
            "lvcf" => Some(Algorithm::Lvcf),
            "lpcf" => Some(Algorithm::Lpcf),
            "ga" => Some(Algorithm::Ga),
            "sa" => Some(Algorithm::Sa),
            _ => None,
        }
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::LowPort => "lowport",
            Algorithm::MaxCp => "maxcp",
            Algorithm::Hpcf => "hpcf",
            Algorithm::Lvcf => "lvcf",
            Algorithm::Lpcf => "lpcf",
            Algorithm::Ga => "ga",
            Algorithm::Sa => "sa",
        }
    }
    /// Uses a seed (random and the metaheuristics).
    pub fn is_random(&self) -> bool {
        matches!(self, Algorithm::Random | Algorithm::Ga | Algorithm::Sa)
    }
    /// A metaheuristic with an objective and a budget.
    pub fn is_search(&self) -> bool {
        matches!(self, Algorithm::Ga | Algorithm::Sa)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a metaheuristic starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    /// Random solutions (the paper's set-up; issue 5's bar).
    #[default]
    Random,
    /// SA starts from MaxCp's solution; GA puts it in as one individual
    /// (issue 4's "no worse than MaxCp" guarantee).
    MaxCp,
}

impl Init {
    pub const ACCEPTED: &'static str = "random, maxcp";
    pub fn parse(s: &str) -> Option<Init> {
        match s {
            "random" => Some(Init::Random),
            "maxcp" => Some(Init::MaxCp),
            _ => None,
        }
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            Init::Random => "random",
            Init::MaxCp => "maxcp",
        }
    }
}

/// Parameters of the seeded and searching algorithms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    pub objective: Objective,
    pub seed: u64,
    /// SA moves or GA generations; `None`: the algorithm's default.
    pub budget: Option<u64>,
    pub init: Init,
    /// GA population size.
    pub population: usize,
    /// GA per-position mutation probability (the paper: 0.01 or 0.02).
    pub mutation: f64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            objective: Objective::Sd,
            seed: 1,
            budget: None,
            init: Init::Random,
            population: Genetic::DEFAULT_POPULATION,
            mutation: Genetic::DEFAULT_MUTATION,
        }
    }
}

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

/// Run one algorithm; returns the choice and the iterations a search made
/// (0 for the others).
pub fn run(
    set: &Arc<PathSet>,
    alg: Algorithm,
    params: &SearchParams,
) -> Result<(Choice, u64), PathError> {
    Ok(match alg {
        Algorithm::Random => (random(set, params.seed), 0),
        Algorithm::LowPort => (lowport(set), 0),
        Algorithm::MaxCp => (balance::maxcp(set), 0),
        Algorithm::Hpcf => (balance::hpcf(set), 0),
        Algorithm::Lvcf => (balance::lvcf(set), 0),
        Algorithm::Lpcf => (balance::lpcf(set), 0),
        Algorithm::Sa => {
            let mut s = Annealer::new(set.clone(), params)?;
            while s.step(1 << 20) > 0 {}
            (s.best(), s.iterations())
        }
        Algorithm::Ga => {
            let mut s = Genetic::new(set.clone(), params)?;
            while s.step(1 << 12) > 0 {}
            (s.best(), s.iterations())
        }
    })
}
