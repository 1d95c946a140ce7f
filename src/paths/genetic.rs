//! Steady-state genetic algorithm over the choice of path per pair
//! (Villalobos et al. §3.1, Figure 2, and §4.1).
//!
//! - Individual: a vector with one position per pair that has more than one
//!   kept path (the paper leaves single-path pairs out), holding the index
//!   of the chosen path.
//! - Initial population: random individuals ([`Init::Random`]); with
//!   [`Init::MaxCp`] one individual is MaxCp's solution, which guarantees
//!   the result is no worse than MaxCp (only the two worst are ever
//!   replaced, so the best individual survives).
//! - Selection: rank based; the population sorted best first, individual
//!   of rank i (0 = best) of P is drawn with probability ∝ P − i. Two
//!   parents are drawn independently.
//! - Crossover: classical one-point, the cut uniform in 1..len, giving two
//!   children.
//! - Mutation: every position of every child independently with probability
//!   `mutation` (default 0.01, the paper's 0.01-0.02), to a different path
//!   drawn uniformly; positions are found by geometric skips, so the cost is
//!   proportional to the mutations, not the length.
//! - Replacement: both children join the population and the two worst
//!   individuals leave (ties: the newest leave first).
//! - Stop: after a budget of generations ([`Genetic::DEFAULT_BUDGET`]).
//!
//! A child is evaluated incrementally from the parent it shares most genes
//! with: only the positions where they differ change the load.

use super::balance;
use super::error::PathError;
use super::load::Load;
use super::pathset::PathSet;
use super::search::{Choice, Init, Objective, Search, SearchParams};
use crate::rng::{SimRng, Stream, below, stream, unit};
use std::sync::Arc;

#[derive(Clone, Debug)]
struct Individual {
    cost: f64,
    value: f64,
    genome: Vec<u16>,
    load: Load,
}

/// Steady-state GA, steppable for a live view.
#[derive(Clone, Debug)]
pub struct Genetic {
    set: Arc<PathSet>,
    obj: Objective,
    rng: SimRng,
    genes: Vec<u32>,
    base: Choice,
    load: Load,
    pop: Vec<Individual>,
    pm: f64,
    gens: u64,
    budget: u64,
}

impl Genetic {
    /// Generations made when no budget is given.
    pub const DEFAULT_BUDGET: u64 = 100_000;
    pub const DEFAULT_POPULATION: usize = SearchParams::DEFAULT_POPULATION;
    pub const DEFAULT_MUTATION: f64 = SearchParams::DEFAULT_MUTATION;

    pub fn new(set: Arc<PathSet>, params: &SearchParams) -> Result<Genetic, PathError> {
        if params.population < 2 {
            return Err(PathError(format!(
                "population {}; accepted 2 or more",
                params.population
            )));
        }
        if !(params.mutation > 0.0 && params.mutation < 1.0) {
            return Err(PathError(format!(
                "mutation {}; accepted a probability in (0, 1), the paper uses 0.01-0.02",
                params.mutation
            )));
        }
        let genes = set.variable_pairs();
        if let Some(&g) = genes
            .iter()
            .find(|&&g| set.kept(g as usize) > u16::MAX as u32)
        {
            return Err(PathError(format!(
                "pair {g} keeps {} paths; the GA handles at most {} (set a cap)",
                set.kept(g as usize),
                u16::MAX
            )));
        }
        let mut rng = stream(params.seed, Stream::Routing);
        // Fixed pairs' paths stay in `load`; the search's are added per child.
        let base = vec![0u32; set.num_pairs()];
        let mut load = Load::new(set.num_channels());
        let mut is_gene = vec![false; set.num_pairs()];
        for &g in &genes {
            is_gene[g as usize] = true;
        }
        for (p, gene) in is_gene.iter().enumerate() {
            if !gene {
                load.add_path(&set, set.pair_path(p, 0));
            }
        }
        let mut g = Genetic {
            obj: params.objective,
            rng: stream(params.seed, Stream::Routing),
            base,
            load,
            pop: Vec::with_capacity(params.population + 2),
            pm: params.mutation,
            gens: 0,
            budget: params.budget.unwrap_or(Self::DEFAULT_BUDGET),
            genes,
            set,
        };
        if g.genes.is_empty() {
            g.budget = 0;
        }
        for i in 0..params.population {
            let genome: Vec<u16> = if i == 0 && params.init == Init::MaxCp {
                let m = balance::maxcp(&g.set);
                g.genes.iter().map(|&p| m[p as usize] as u16).collect()
            } else {
                g.genes
                    .iter()
                    .map(|&p| below(&mut rng, g.set.kept(p as usize)) as u16)
                    .collect()
            };
            let ind = g.evaluate(genome);
            g.pop.push(ind);
        }
        g.sort();
        Ok(g)
    }

    fn evaluate(&self, genome: Vec<u16>) -> Individual {
        let set = &*self.set;
        let mut load = self.load.clone();
        for (i, &p) in self.genes.iter().enumerate() {
            load.add_path(set, set.pair_path(p as usize, genome[i] as u32));
        }
        Individual {
            cost: load.cost(self.obj),
            value: load.value(self.obj),
            genome,
            load,
        }
    }

    /// Evaluate a child incrementally from a parent: only the positions
    /// where they differ change the load.
    fn evaluate_from(&self, parent: usize, genome: Vec<u16>) -> Individual {
        let set = &*self.set;
        let par = &self.pop[parent];
        let mut load = par.load.clone();
        for (i, (&c, &q)) in genome.iter().zip(&par.genome).enumerate() {
            if c != q {
                let p = self.genes[i] as usize;
                load.remove_path(set, set.pair_path(p, q as u32));
                load.add_path(set, set.pair_path(p, c as u32));
            }
        }
        Individual {
            cost: load.cost(self.obj),
            value: load.value(self.obj),
            genome,
            load,
        }
    }

    fn sort(&mut self) {
        // Stable: on equal cost the older individual ranks first.
        self.pop.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    }

    fn select(&self, rng: &mut SimRng) -> usize {
        let p = self.pop.len() as u64;
        let total = p * (p + 1) / 2;
        let mut r = if total > u32::MAX as u64 {
            (unit(rng) * total as f64) as u64
        } else {
            below(rng, total as u32) as u64
        };
        let mut i = 0u64;
        while i + 1 < p && r >= p - i {
            r -= p - i;
            i += 1;
        }
        i as usize
    }

    fn mutate(&self, genome: &mut [u16], rng: &mut SimRng) {
        let ln = libm::log(1.0 - self.pm);
        let mut pos = 0usize;
        loop {
            let u = 1.0 - unit(rng); // (0, 1]
            let skip = (libm::log(u) / ln) as usize;
            pos = pos.saturating_add(skip);
            if pos >= genome.len() {
                break;
            }
            let k = self.set.kept(self.genes[pos] as usize);
            let cur = genome[pos] as u32;
            let mut new = below(rng, k - 1);
            if new >= cur {
                new += 1;
            }
            genome[pos] = new as u16;
            pos += 1;
        }
    }

    /// Population size.
    pub fn population(&self) -> usize {
        self.pop.len()
    }
    /// Objective values of the population, best first.
    pub fn values(&self) -> Vec<f64> {
        self.pop.iter().map(|i| i.value).collect()
    }
    fn expand(&self, genome: &[u16]) -> Choice {
        let mut c = self.base.clone();
        for (i, &p) in self.genes.iter().enumerate() {
            c[p as usize] = genome[i] as u32;
        }
        c
    }
}

impl Search for Genetic {
    fn step(&mut self, n: u64) -> u64 {
        let todo = n.min(self.budget.saturating_sub(self.gens));
        let mut rng = std::mem::replace(&mut self.rng, stream(0, Stream::Routing));
        let len = self.genes.len();
        for _ in 0..todo {
            let a = self.select(&mut rng);
            let b = self.select(&mut rng);
            let (mut h1, mut h2) = (self.pop[a].genome.clone(), self.pop[b].genome.clone());
            let mut cut = len;
            if len >= 2 {
                cut = 1 + below(&mut rng, (len - 1) as u32) as usize;
                h1[cut..].copy_from_slice(&self.pop[b].genome[cut..]);
                h2[cut..].copy_from_slice(&self.pop[a].genome[cut..]);
            }
            self.mutate(&mut h1, &mut rng);
            self.mutate(&mut h2, &mut rng);
            // Each child starts from the parent it shares most with.
            let (base1, base2) = if 2 * cut >= len { (a, b) } else { (b, a) };
            let c1 = self.evaluate_from(base1, h1);
            let c2 = self.evaluate_from(base2, h2);
            self.pop.push(c1);
            self.pop.push(c2);
            self.sort();
            self.pop.truncate(self.pop.len() - 2);
        }
        self.rng = rng;
        self.gens += todo;
        todo
    }
    fn iterations(&self) -> u64 {
        self.gens
    }
    fn budget(&self) -> u64 {
        self.budget
    }
    fn objective(&self) -> f64 {
        self.pop[0].value
    }
    fn current_objective(&self) -> f64 {
        self.pop[self.pop.len() / 2].value
    }
    fn best(&self) -> Choice {
        self.expand(&self.pop[0].genome)
    }
    fn best_crossing(&self) -> Vec<u32> {
        Load::of(&self.set, &self.best()).counts().to_vec()
    }
}
