//! Path selection: one path per pair (Villalobos et al. §2 stage 2;
//! Koibuchi et al. §2-3). [`run`] dispatches an [`Algorithm`] to its
//! implementation: the simple selections, the counter-based family
//! (`balance`) or a metaheuristic run to the end of its budget.

use super::anneal::Annealer;
use super::balance;
use super::error::PathError;
use super::genetic::Genetic;
use super::pathset::PathSet;
use super::search::{Algorithm, Choice, Search, SearchParams};
use super::simple::{lowport, random};
use std::sync::Arc;

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
