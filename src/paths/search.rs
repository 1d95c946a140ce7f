//! The vocabulary every path-selection algorithm shares: the [`Choice`] it
//! produces, the [`Algorithm`] names, what a metaheuristic minimises
//! ([`Objective`]) and where it starts ([`Init`]), its [`SearchParams`], and
//! the steppable [`Search`] trait. A leaf: it imports nothing from its
//! sibling files, so every algorithm can import it.
//!
//! A [`Choice`] holds, for every pair (source-major, see
//! [`pair_index`](super::pair_index)), the index of its chosen path among
//! the pair's kept paths.

/// Chosen path index per pair.
pub type Choice = Vec<u32>;

/// A path-selection algorithm.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Uniform over the pair's shortest legal paths: every whole path of
    /// the pair is equally likely, not one hop at a time (over the kept
    /// ones when the pair was capped). Koibuchi et al. §2 "random".
    Random,
    /// Koibuchi et al. §2 "low port first": at every switch the lowest
    /// output port among those on a shortest legal path, then the lowest
    /// virtual channel; i.e. the lexicographically smallest (port, vc)
    /// sequence, the pair's path of rank 0.
    #[strum(to_string = "lowport", serialize = "low-port")]
    LowPort,
    /// Sancho's traffic balancing, MaxCp (see [`maxcp`](super::maxcp)).
    #[strum(
        to_string = "maxcp",
        serialize = "sancho",
        serialize = "traffic-balancing"
    )]
    MaxCp,
    /// High physical channel first (see [`hpcf`](super::hpcf)).
    Hpcf,
    /// Low virtual channel first (see [`lvcf`](super::lvcf)).
    Lvcf,
    /// Low physical channel first (see [`lpcf`](super::lpcf)).
    Lpcf,
    /// Steady-state genetic algorithm ([`Genetic`](super::Genetic)).
    Ga,
    /// Simulated annealing ([`Annealer`](super::Annealer)).
    Sa,
}

crate::spec_options::keyword_enum!(Algorithm, Display);

impl Algorithm {
    /// Uses a seed (random and the metaheuristics).
    pub fn is_random(&self) -> bool {
        matches!(self, Algorithm::Random | Algorithm::Ga | Algorithm::Sa)
    }
    /// A metaheuristic with an objective and a budget.
    pub fn is_search(&self) -> bool {
        matches!(self, Algorithm::Ga | Algorithm::Sa)
    }
}

/// Where a metaheuristic starts.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    /// Random solutions (the paper's set-up, under which GA and SA must
    /// reach MaxCp's value within a stated budget: see docs/results.md).
    #[default]
    Random,
    /// SA starts from MaxCp's solution; GA puts it in as one individual,
    /// which guarantees the result is no worse than MaxCp's.
    MaxCp,
}

crate::spec_options::keyword_enum!(Init);

/// What a metaheuristic minimises (Villalobos et al. §4: "minimizing the
/// maximum use of a channel, the deviation in channels use, and the sum of
/// channels use"). The sum is the same for every choice of shortest paths,
/// so routelab minimises the sum of squares instead.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Standard deviation of crossing paths (the paper's choice).
    #[default]
    #[strum(to_string = "sd", serialize = "deviation")]
    Sd,
    /// Maximum crossing paths. The search breaks ties by the sum of squares
    /// (cost = max + sumsq / (channels · max² + 1), which orders solutions
    /// by max first); the reported value is the max alone.
    Max,
    /// Sum of squared crossing paths (equivalent to sd for a fixed sum).
    Sumsq,
}

crate::spec_options::keyword_enum!(Objective, Display);

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

impl SearchParams {
    /// GA population size when none is given.
    pub const DEFAULT_POPULATION: usize = 50;
    /// GA mutation probability when none is given.
    pub const DEFAULT_MUTATION: f64 = 0.01;
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            objective: Objective::Sd,
            seed: 1,
            budget: None,
            init: Init::Random,
            population: Self::DEFAULT_POPULATION,
            mutation: Self::DEFAULT_MUTATION,
        }
    }
}

/// A search that can be advanced a little at a time (for a live GUI plot):
/// [`Annealer`](super::Annealer) and [`Genetic`](super::Genetic) implement it.
pub trait Search {
    /// Advance by up to `n` iterations (SA moves or GA generations); returns
    /// how many were made (0 once the budget is spent).
    fn step(&mut self, n: u64) -> u64;
    /// Iterations made so far.
    fn iterations(&self) -> u64;
    /// The iteration budget.
    fn budget(&self) -> u64;
    /// True once the budget is spent.
    fn done(&self) -> bool {
        self.iterations() >= self.budget()
    }
    /// Objective value (as reported, e.g. the SD) of the best solution so far.
    fn objective(&self) -> f64;
    /// Objective value of the current solution (SA) or population median (GA).
    fn current_objective(&self) -> f64;
    /// The best solution so far, one path index per pair.
    fn best(&self) -> Choice;
    /// Crossing paths per physical network channel of the best solution.
    fn best_crossing(&self) -> Vec<u32>;
}
