//! Simulated annealing over the choice of path per pair (Villalobos et al.
//! §3.2 and §4.2).
//!
//! - Solution: one path index per pair; pairs with a single kept path are
//!   fixed and not part of the search.
//! - Start: a uniformly random choice ([`Init::Random`], the paper's set-up)
//!   or MaxCp's solution ([`Init::MaxCp`]).
//! - Neighbour: one pair (uniform among the searchable ones) moved to
//!   another of its paths (uniform among the others).
//! - Acceptance: always when the cost does not rise, else with probability
//!   `exp(-Δ/T)` (`libm::exp`, so identical on every platform).
//! - Iterations per temperature: `min(1000, Π kᵢ)`, kᵢ the pair path counts.
//! - Cooling: geometric, `T ← 0.95·T`. The paper leaves the initial
//!   temperature open; routelab samples 256 random moves from the start and
//!   sets T₀ so that the average worsening move is accepted with
//!   probability 1/2 (T₀ = mean Δ⁺ / ln 2).
//! - Stop: after a budget of moves ([`Annealer::DEFAULT_BUDGET`] unless
//!   given); the best solution met is returned.
//!
//! A move is evaluated incrementally with [`Load`]: only the channels of the
//! old and the new path change, so a move costs O(path length).

use super::balance;
use super::error::PathError;
use super::load::Load;
use super::pathset::PathSet;
use super::search::{Choice, Init, Objective, Search, SearchParams};
use super::simple::random;
use crate::rng::{SimRng, Stream, below, stream, unit};
use std::sync::Arc;

/// Simulated annealing, steppable for a live view.
#[derive(Clone, Debug)]
pub struct Annealer {
    set: Arc<PathSet>,
    obj: Objective,
    rng: SimRng,
    genes: Vec<u32>,
    choice: Choice,
    load: Load,
    cost: f64,
    best: Choice,
    best_cost: f64,
    best_value: f64,
    journal: Vec<(u32, u32)>,
    temp: f64,
    t0: f64,
    per_temp: u64,
    in_temp: u64,
    iters: u64,
    budget: u64,
}

impl Annealer {
    /// Moves made when no budget is given.
    pub const DEFAULT_BUDGET: u64 = 2_000_000;
    /// Geometric cooling factor.
    pub const ALPHA: f64 = 0.95;

    pub fn new(set: Arc<PathSet>, params: &SearchParams) -> Result<Annealer, PathError> {
        let mut rng = stream(params.seed, Stream::Routing);
        let genes = set.variable_pairs();
        let choice = match params.init {
            Init::Random => random(&set, params.seed ^ 0x5A),
            Init::MaxCp => balance::maxcp(&set),
        };
        let load = Load::of(&set, &choice);
        let cost = load.cost(params.objective);
        let mut per_temp: u64 = 1;
        for &g in &genes {
            per_temp = per_temp.saturating_mul(set.kept(g as usize) as u64);
            if per_temp >= 1000 {
                per_temp = 1000;
                break;
            }
        }
        let mut a = Annealer {
            obj: params.objective,
            genes,
            best: choice.clone(),
            best_cost: cost,
            best_value: load.value(params.objective),
            choice,
            load,
            cost,
            journal: Vec::new(),
            temp: 0.0,
            t0: 0.0,
            per_temp,
            in_temp: 0,
            iters: 0,
            budget: if params.budget == Some(0) {
                0
            } else {
                params.budget.unwrap_or(Self::DEFAULT_BUDGET)
            },
            rng: stream(params.seed, Stream::Routing),
            set,
        };
        if a.genes.is_empty() {
            a.budget = 0;
        }
        // Initial temperature from sampled worsening moves.
        let (mut sum, mut n) = (0.0, 0u32);
        for _ in 0..if a.genes.is_empty() { 0 } else { 256 } {
            let (g, new) = a.draw(&mut rng);
            let c = a.apply(g, new);
            if c > a.cost {
                sum += c - a.cost;
                n += 1;
            }
            let old = a.choice[g as usize];
            a.apply_hops(g, new, old);
        }
        a.t0 = if n > 0 {
            sum / n as f64 / std::f64::consts::LN_2
        } else {
            1e-9
        };
        a.temp = a.t0;
        Ok(a)
    }

    fn draw(&self, rng: &mut SimRng) -> (u32, u32) {
        let g = self.genes[below(rng, self.genes.len() as u32) as usize];
        let k = self.set.kept(g as usize);
        let cur = self.choice[g as usize];
        let mut new = below(rng, k - 1);
        if new >= cur {
            new += 1;
        }
        (g, new)
    }

    fn apply_hops(&mut self, g: u32, from: u32, to: u32) {
        let set = &*self.set;
        self.load.remove_path(set, set.pair_path(g as usize, from));
        self.load.add_path(set, set.pair_path(g as usize, to));
    }

    /// Switch pair `g` to path `new` in the load (not in the choice) and
    /// return the new cost.
    fn apply(&mut self, g: u32, new: u32) -> f64 {
        let cur = self.choice[g as usize];
        self.apply_hops(g, cur, new);
        self.load.cost(self.obj)
    }

    /// Current temperature.
    pub fn temperature(&self) -> f64 {
        self.temp
    }
    /// Initial temperature.
    pub fn initial_temperature(&self) -> f64 {
        self.t0
    }
    /// Iterations per temperature, `min(1000, Π kᵢ)`.
    pub fn iterations_per_temperature(&self) -> u64 {
        self.per_temp
    }
    /// The current solution.
    pub fn current(&self) -> &Choice {
        &self.choice
    }
    /// Crossing paths of the current solution (cheap: no copy).
    pub fn current_crossing(&self) -> &[u32] {
        self.load.counts()
    }
    /// Search cost of the best solution (see [`Objective::Max`]).
    pub fn best_cost(&self) -> f64 {
        self.best_cost
    }
}

impl Search for Annealer {
    fn step(&mut self, n: u64) -> u64 {
        let todo = n.min(self.budget.saturating_sub(self.iters));
        let mut rng = std::mem::replace(&mut self.rng, stream(0, Stream::Routing));
        for _ in 0..todo {
            let (g, new) = self.draw(&mut rng);
            let c = self.apply(g, new);
            let delta = c - self.cost;
            let accept =
                delta <= 0.0 || (self.temp > 0.0 && unit(&mut rng) < libm::exp(-delta / self.temp));
            if accept {
                self.choice[g as usize] = new;
                self.cost = c;
                self.journal.push((g, new));
                if c < self.best_cost {
                    self.best_cost = c;
                    self.best_value = self.load.value(self.obj);
                    for &(g, v) in &self.journal {
                        self.best[g as usize] = v;
                    }
                    self.journal.clear();
                }
            } else {
                let old = self.choice[g as usize];
                self.apply_hops(g, new, old);
            }
            self.in_temp += 1;
            if self.in_temp >= self.per_temp {
                self.in_temp = 0;
                self.temp *= Self::ALPHA;
            }
        }
        self.rng = rng;
        self.iters += todo;
        todo
    }
    fn iterations(&self) -> u64 {
        self.iters
    }
    fn budget(&self) -> u64 {
        self.budget
    }
    fn objective(&self) -> f64 {
        self.best_value
    }
    fn current_objective(&self) -> f64 {
        self.load.value(self.obj)
    }
    fn best(&self) -> Choice {
        self.best.clone()
    }
    fn best_crossing(&self) -> Vec<u32> {
        Load::of(&self.set, &self.best).counts().to_vec()
    }
}
