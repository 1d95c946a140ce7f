//! The `paths:` routing spec: static tables chosen by path selection, e.g.
//! `paths:updown-bfs:maxcp`, `paths:udwm:sa:objective=sd:seed=3`.
//!
//! Form: `paths:LEGAL:SELECT[:root=N][:objective=sd|max|sumsq][:seed=S]
//! [:budget=N][:init=random|maxcp][:cap=N]`. The virtual channels of the
//! path model are the simulation's.

use super::legal::LegalKind;
use super::load::Objective;
use super::pathset::{DEFAULT_CAP, PathSet};
use super::select::{Algorithm, Choice, Init, SearchParams, run};
use super::{PathError, RouteTables};
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
        let legal = parts.first().copied().unwrap_or("");
        let legal = LegalKind::parse(legal)
            .ok_or_else(|| format!("path routing `{legal}`; accepted {}", LegalKind::ACCEPTED))?;
        let select = parts.get(1).copied().unwrap_or("");
        let select = Algorithm::parse(select).ok_or_else(|| {
            format!(
                "path selection `{select}`; accepted {}",
                Algorithm::ACCEPTED
            )
        })?;
        let mut s = PathsSpec::new(legal, select);
        for p in parts.iter().skip(2) {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| format!("option `{p}` is not key=value"))?;
            let num = |what: &str| {
                v.parse::<u64>()
                    .map_err(|_| format!("{what} `{v}` is not a whole number"))
            };
            match k {
                "root" => s.root = num("root")? as u32,
                "seed" => s.seed = num("seed")?,
                "budget" => s.budget = Some(num("budget")?),
                "cap" => s.cap = num("cap")? as usize,
                "objective" => {
                    s.objective = Objective::parse(v).ok_or_else(|| {
                        format!("objective `{v}`; accepted {}", Objective::ACCEPTED)
                    })?
                }
                "init" => {
                    s.init = Init::parse(v)
                        .ok_or_else(|| format!("init `{v}`; accepted {}", Init::ACCEPTED))?
                }
                _ => {
                    return Err(format!(
                        "`paths` takes no option `{k}`; accepted root, objective, seed, budget, init, cap"
                    ));
                }
            }
        }
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
