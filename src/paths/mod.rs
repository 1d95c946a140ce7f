//! Static path selection on irregular networks (issue 4): build the set of
//! shortest legal paths a deadlock-free routing allows, pick one path per
//! switch pair with one of the papers' algorithms, look at how the chosen
//! paths pile up on the channels, and turn the choice into routing tables.
//!
//! The pipeline is the one of Villalobos et al. §2 (Figure 1): *computing
//! routing paths* ([`PathSet`]), *path selection* (`select`, [`Annealer`],
//! [`Genetic`]), *building routing tables* ([`RouteTables`]).
//!
//! - Legal paths ([`legal`]): up*/down* on a BFS tree (Autonet) or on a DFS
//!   tree (Sancho-Robles-Duato, used by Villalobos et al. §2), and UDWM
//!   (Koibuchi et al. §4.2) with V virtual channels.
//! - Path sets ([`PathSet`]): every shortest legal path of every ordered
//!   switch pair, counted exactly, kept up to a cap per pair.
//! - Selection ([`Algorithm`]): random, low port first, MaxCp (Sancho's
//!   traffic balancing), high physical channel first, low virtual channel
//!   first, low physical channel first (Koibuchi et al. §2-3), and the two
//!   metaheuristics of Villalobos et al. §3-4 (steady-state GA, simulated
//!   annealing) with a selectable [`Objective`].
//! - Crossing paths ([`Load`], [`CrossingStats`]): the number of chosen paths
//!   crossing each physical switch-to-switch channel; Koibuchi et al. Tables
//!   2-4 report its standard deviation.
//!
//! Everything is deterministic for a given seed (streams from [`crate::rng`]);
//! no hash-map iteration is involved anywhere.

mod anneal;
mod balance;
mod genetic;
pub mod legal;
mod load;
mod pathset;
mod select;
mod spec;
mod tables;

pub use anneal::Annealer;
pub use balance::{hpcf, lpcf, lvcf, maxcp};
pub use genetic::Genetic;
pub use legal::{LegalKind, Legality};
pub use load::{CrossingStats, Load, Objective};
pub use pathset::{DEFAULT_CAP, Hop, PathSet, pair_count, pair_index, pair_of};
pub use select::{Algorithm, Choice, Init, SearchParams, lowport, random, run};
pub use spec::PathsSpec;
pub use tables::{ForwardingEntry, RouteTables, TablesFile};

/// Something about a path-selection request that cannot work; the message
/// names the field and the accepted values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PathError(pub String);

/// A search that can be advanced a little at a time (for a live GUI plot):
/// [`Annealer`] and [`Genetic`] implement it.
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
