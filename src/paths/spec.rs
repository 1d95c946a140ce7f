//! The `paths:` routing spec: static tables chosen by path selection, e.g.
//! `paths:updown-bfs:maxcp`, `paths:udwm:sa:objective=sd:seed=3`.
//!
//! Form: `paths:LEGAL:SELECT[:root=N][:objective=sd|max|sumsq][:seed=S]
//! [:budget=N][:init=random|maxcp][:cap=N]`. The virtual channels of the
//! path model are the simulation's.

use super::error::PathError;
use super::legal::LegalKind;
use super::pathset::{DEFAULT_CAP, PathSet};
use super::search::{Algorithm, Choice, Init, Objective, SearchParams};
use super::select::run;
use super::tables::RouteTables;
use crate::spec_options::{OptionError, Options, Spec};
use crate::topology::Network;
use std::fmt;
use std::sync::Arc;

/// The accepted form, quoted in errors.
pub const ACCEPTED: &str = "paths:updown-bfs|updown-dfs|udwm:random|lowport|maxcp|hpcf|lvcf|lpcf|ga|sa\
[:root=N][:objective=sd|max|sumsq][:seed=S][:budget=N][:init=random|maxcp][:cap=N]";

/// A parsed `paths:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathsSpec {
    pub legal: LegalKind,
    pub select: Algorithm,
    pub root: u32,
    pub objective: Objective,
    pub seed: u64,
    pub budget: Option<u64>,
    pub init: Init,
    pub cap: usize,
}

impl PathsSpec {
    pub const ACCEPTED: &'static str = ACCEPTED;
    /// The option keys after `LEGAL:SELECT`.
    pub const KEYS: &'static [&'static str] =
        &["root", "objective", "seed", "budget", "init", "cap"];

    pub fn new(legal: LegalKind, select: Algorithm) -> PathsSpec {
        PathsSpec {
            legal,
            select,
            root: 0,
            objective: Objective::Sd,
            seed: 1,
            budget: None,
            init: Init::Random,
            cap: DEFAULT_CAP,
        }
    }

    /// Parse the parts after `paths:` (split on `:`).
    pub fn parse_parts(parts: &[&str]) -> Result<PathsSpec, String> {
        Spec::new("paths", parts.to_vec())
            .options(2, Self::KEYS)
            .and_then(|o| Self::from_options(&o))
            .map_err(|e| e.to_string())
    }

    /// From a `paths` spec's options: positional `LEGAL` and `SELECT`, then
    /// [`PathsSpec::KEYS`] (`Spec::split(s)?.options(2, PathsSpec::KEYS)`).
    pub fn from_options(o: &Options) -> Result<PathsSpec, OptionError> {
        let legal = o.positional_keyword(0, "path routing")?;
        let select = o.positional_keyword(1, "path selection")?;
        let mut s = PathsSpec::new(legal, select);
        s.root = o.u32("root", 0..=u32::MAX)?.unwrap_or(s.root);
        s.seed = o.u64("seed", 0..=u64::MAX)?.unwrap_or(s.seed);
        s.budget = o
            .u64("budget", 0..=crate::limits::MAX_SEARCH_BUDGET)?
            .or(s.budget);
        // At most u32::MAX, so that a cap means the same on 32-bit wasm.
        s.cap = o
            .u64("cap", 0..=u32::MAX as u64)?
            .map_or(s.cap, |c| c as usize);
        s.objective = o.keyword("objective")?.unwrap_or(s.objective);
        s.init = o.keyword("init")?.unwrap_or(s.init);
        Ok(s)
    }

    /// The search parameters this spec implies.
    pub fn params(&self) -> SearchParams {
        SearchParams {
            objective: self.objective,
            seed: self.seed,
            budget: self.budget,
            init: self.init,
            ..SearchParams::default()
        }
    }

    /// Build the path set on `net` with `vcs` virtual channels and select.
    pub fn compute(&self, net: &Network, vcs: u8) -> Result<(Arc<PathSet>, Choice), PathError> {
        let set = Arc::new(PathSet::build(net, self.legal, self.root, vcs, self.cap)?);
        let (choice, _) = run(&set, self.select, &self.params())?;
        Ok((set, choice))
    }

    /// The routing tables this spec selects.
    pub fn tables(&self, net: &Network, vcs: u8) -> Result<RouteTables, PathError> {
        let (set, choice) = self.compute(net, vcs)?;
        Ok(RouteTables::new(&set, &choice))
    }
}

impl fmt::Display for PathsSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "paths:{}:{}", self.legal, self.select)?;
        if self.root != 0 {
            write!(f, ":root={}", self.root)?;
        }
        if self.objective != Objective::Sd {
            write!(f, ":objective={}", self.objective)?;
        }
        if self.seed != 1 {
            write!(f, ":seed={}", self.seed)?;
        }
        if let Some(b) = self.budget {
            write!(f, ":budget={b}")?;
        }
        if self.init != Init::Random {
            write!(f, ":init={}", self.init.as_str())?;
        }
        if self.cap != DEFAULT_CAP {
            write!(f, ":cap={}", self.cap)?;
        }
        Ok(())
    }
}
