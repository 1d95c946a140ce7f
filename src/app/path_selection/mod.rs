//! The path-selection panel: build the shortest
//! legal paths of the current network ([`PathSet`]), pick one path per
//! switch pair with one of the papers' algorithms, and look at the crossing
//! paths per channel: statistics, a histogram, the objective of a running
//! GA or SA per iteration, and the heatmap on the network view. Then drive
//! traffic over the tables (the matching `paths:` routing spec, applied
//! like any scenario) or compare two algorithms in the app's compare mode.
//!
//! GA and SA run on the UI thread a bounded time per frame through the
//! steppable [`Search`] API (no threads, so the same on the web); the
//! other algorithms and the path set itself are computed at once.
//!
//! This file holds the panel's state and computations; `panel` draws it.

mod panel;

use crate::paths::{
    Algorithm, Annealer, CrossingStats, DEFAULT_CAP, Genetic, LegalKind, Load, Objective, PathSet,
    PathsSpec, Search, run,
};
use crate::scenario::Scenario;
use crate::topology::Network;
use std::sync::Arc;
use web_time::{Duration, Instant};

/// Milliseconds of search per frame while GA or SA runs.
pub const FRAME_BUDGET_MS: u64 = 12;
/// Objective samples kept for the live plot (older ones are thinned).
const MAX_HISTORY: usize = 4000;
/// Least milliseconds between two refreshes of a running search's crossing
/// paths (each costs a pass over every chosen path).
const REFRESH_MS: u64 = 100;

/// A computed selection (finished, or the best so far of a running search).
#[derive(Clone, Debug)]
pub struct Computed {
    /// The routing spec that reproduces this selection.
    pub spec: PathsSpec,
    /// Virtual channels of the path model.
    pub vcs: u8,
    /// The network's topology spec it was computed on.
    pub topology: String,
    pub pairs: usize,
    pub paths_kept: usize,
    pub paths_total: u128,
    pub capped_pairs: usize,
    /// Crossing paths per physical switch-to-switch channel (by channel id).
    pub crossing: Vec<u32>,
    pub stats: CrossingStats,
    /// (iteration, best objective, current objective) of a GA or SA.
    pub history: Vec<[f64; 3]>,
    pub iterations: u64,
    pub budget: u64,
    /// Wall-clock milliseconds spent (path set and selection).
    pub elapsed_ms: f64,
}

impl Computed {
    /// The routing spec string (`paths:...`).
    pub fn routing(&self) -> String {
        self.spec.to_string()
    }
}

/// Crossing-path statistics of per-channel counts (the same as
/// [`Load::stats`]).
pub fn stats_of(counts: &[u32]) -> CrossingStats {
    let n = counts.len().max(1) as f64;
    let sum: u64 = counts.iter().map(|&c| c as u64).sum();
    let sumsq: u64 = counts.iter().map(|&c| c as u64 * c as u64).sum();
    let mean = sum as f64 / n;
    CrossingStats {
        sd: (sumsq as f64 / n - mean * mean).max(0.0).sqrt(),
        max: counts.iter().copied().max().unwrap_or(0),
        mean,
        min: counts.iter().copied().min().unwrap_or(0),
        sumsq,
        channels: counts.len(),
    }
}

/// The panel's settings, its result and a running search.
pub struct PathSelection {
    pub open: bool,
    pub legal: LegalKind,
    pub vcs: u8,
    pub root: u32,
    pub algorithm: Algorithm,
    pub objective: Objective,
    pub seed: u64,
    /// SA moves.
    pub sa_budget: u64,
    /// GA generations.
    pub ga_budget: u64,
    /// The second algorithm for "Compare with…" (run B).
    pub compare_algorithm: Algorithm,
    /// Colour run A's network view by the computed crossing paths.
    pub show_heatmap: bool,
    /// Run B's routing and crossing paths when comparing (set by the app
    /// each frame), drawn beside run A's in the histogram.
    pub compare_crossing: Option<(String, Vec<u32>)>,
    pub result: Option<Computed>,
    pub error: Option<String>,
    search: Option<Box<dyn Search>>,
    spent: Duration,
    /// The best solution improved since the shown crossing paths were taken.
    stale: bool,
    /// When the shown crossing paths were last taken from a running search.
    refreshed: Option<Instant>,
}

impl Default for PathSelection {
    fn default() -> Self {
        PathSelection {
            open: false,
            legal: LegalKind::UpDownDfs,
            vcs: 1,
            root: 0,
            algorithm: Algorithm::MaxCp,
            objective: Objective::Sd,
            seed: 1,
            sa_budget: 200_000,
            ga_budget: 2_000,
            compare_algorithm: Algorithm::Random,
            show_heatmap: true,
            compare_crossing: None,
            result: None,
            error: None,
            search: None,
            spent: Duration::ZERO,
            stale: false,
            refreshed: None,
        }
    }
}

impl PathSelection {
    /// Take the legal set, root and algorithm from a `paths:` routing spec
    /// and the virtual channels from the scenario (other routings: only the
    /// virtual channels).
    pub fn sync_from(&mut self, scenario: &Scenario) {
        self.vcs = scenario.vcs.clamp(1, 16);
        if let Some(rest) = scenario.routing.strip_prefix("paths:") {
            let parts: Vec<&str> = rest.split(':').collect();
            if let Ok(p) = PathsSpec::parse_parts(&parts) {
                self.legal = p.legal;
                self.root = p.root;
                self.algorithm = p.select;
                self.objective = p.objective;
                self.seed = p.seed;
                match (p.select, p.budget) {
                    (Algorithm::Sa, Some(b)) => self.sa_budget = b,
                    (Algorithm::Ga, Some(b)) => self.ga_budget = b,
                    _ => {}
                }
            }
        }
    }

    /// The `paths:` spec of the current settings with algorithm `alg`
    /// (options that do not apply to it left at their defaults).
    pub fn spec_for(&self, alg: Algorithm) -> PathsSpec {
        let mut s = PathsSpec::new(self.legal, alg);
        s.root = self.root;
        if alg.is_random() {
            s.seed = self.seed;
        }
        if alg.is_search() {
            s.objective = self.objective;
            s.budget = Some(match alg {
                Algorithm::Sa => self.sa_budget,
                _ => self.ga_budget,
            });
        }
        s
    }

    /// True while a GA or SA is being stepped.
    pub fn is_running(&self) -> bool {
        self.search.is_some()
    }

    /// Stop a running search, keeping its best solution so far; the
    /// result's spec then carries the iterations made as its budget, so the
    /// `paths:` spec reproduces exactly this solution.
    pub fn stop(&mut self) {
        if let (Some(search), Some(r)) = (self.search.take(), self.result.as_mut()) {
            r.iterations = search.iterations();
            r.budget = r.iterations;
            r.spec.budget = Some(r.iterations);
            r.crossing = search.best_crossing();
            r.stats = stats_of(&r.crossing);
        }
        self.stale = false;
    }

    /// Build the path set on `net` and select (GA and SA: start the search;
    /// [`PathSelection::tick`] advances it).
    pub fn compute(&mut self, net: &Network) {
        self.stop();
        self.error = None;
        let spec = self.spec_for(self.algorithm);
        let start = Instant::now();
        let set = match PathSet::build(net, spec.legal, spec.root, self.vcs, DEFAULT_CAP) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                self.error = Some(format!("No path set: {e}"));
                return;
            }
        };
        let params = spec.params();
        let (crossing, search): (Vec<u32>, Option<Box<dyn Search>>) = if spec.select.is_search() {
            let s: Result<Box<dyn Search>, _> = match spec.select {
                Algorithm::Sa => Annealer::new(set.clone(), &params).map(|a| Box::new(a) as _),
                _ => Genetic::new(set.clone(), &params).map(|g| Box::new(g) as _),
            };
            match s {
                Ok(s) => (s.best_crossing(), Some(s)),
                Err(e) => {
                    self.error = Some(format!("Search not started: {e}"));
                    return;
                }
            }
        } else {
            match run(&set, spec.select, &params) {
                Ok((choice, _)) => (Load::of(&set, &choice).counts().to_vec(), None),
                Err(e) => {
                    self.error = Some(format!("Selection failed: {e}"));
                    return;
                }
            }
        };
        let (iterations, budget, history) = match &search {
            Some(s) => (
                s.iterations(),
                s.budget(),
                vec![[0.0, s.objective(), s.current_objective()]],
            ),
            None => (0, 0, Vec::new()),
        };
        self.result = Some(Computed {
            vcs: self.vcs,
            topology: net.spec().to_string(),
            pairs: set.num_pairs(),
            paths_kept: set.num_paths(),
            paths_total: set.paths_total(),
            capped_pairs: set.capped_pairs(),
            stats: stats_of(&crossing),
            crossing,
            history,
            iterations,
            budget,
            elapsed_ms: 0.0,
            spec,
        });
        self.spent = start.elapsed();
        if let Some(r) = &mut self.result {
            r.elapsed_ms = self.spent.as_secs_f64() * 1e3;
        }
        if search.is_some() {
            self.search = search;
            self.stale = false;
            self.refreshed = None;
        }
    }

    /// Advance a running search for about `budget_ms` milliseconds; returns
    /// whether it is still running (the app then asks for another frame).
    pub fn tick(&mut self, budget_ms: u64) -> bool {
        let Some(search) = self.search.as_mut() else {
            return false;
        };
        let start = Instant::now();
        let budget = Duration::from_millis(budget_ms);
        // SA moves are cheap, GA generations much less so.
        let chunk = match self.result.as_ref().map(|r| r.spec.select) {
            Some(Algorithm::Sa) => 4096,
            _ => 8,
        };
        while search.step(chunk) > 0 && start.elapsed() < budget {}
        let done = search.done();
        if let Some(r) = &mut self.result {
            let best = search.objective();
            let improved = r.history.last().is_none_or(|h| best < h[1]);
            r.iterations = search.iterations();
            r.history
                .push([r.iterations as f64, best, search.current_objective()]);
            if r.history.len() > MAX_HISTORY {
                // Keep the first sample and every other one after it.
                let first = r.history[0];
                let mut i = 0;
                r.history.retain(|_| {
                    i += 1;
                    i % 2 == 0
                });
                r.history.insert(0, first);
            }
            self.stale |= improved;
            let due = self
                .refreshed
                .is_none_or(|t| t.elapsed() >= Duration::from_millis(REFRESH_MS));
            if done || (self.stale && due) {
                r.crossing = search.best_crossing();
                r.stats = stats_of(&r.crossing);
                self.stale = false;
                self.refreshed = Some(Instant::now());
            }
            self.spent += start.elapsed();
            r.elapsed_ms = self.spent.as_secs_f64() * 1e3;
        }
        if done {
            self.stop();
        }
        !done
    }

    /// The crossing paths to colour run A's view by, as per-channel values,
    /// when the panel is open, asked to and computed on `net`.
    pub fn heatmap(&self, net: &Network) -> Option<(String, Vec<f64>)> {
        let r = self.result.as_ref()?;
        if !(self.open && self.show_heatmap) || r.topology != net.spec() {
            return None;
        }
        let mut v: Vec<f64> = r.crossing.iter().map(|&c| c as f64).collect();
        v.resize(net.num_channels(), 0.0);
        let what = if self.is_running() {
            "best so far"
        } else {
            "computed"
        };
        Some((format!("Crossing paths of {} ({what})", r.routing()), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologySpec;

    fn net() -> Network {
        "irregular:8:seed=3"
            .parse::<TopologySpec>()
            .unwrap()
            .build()
            .unwrap()
    }

    #[test]
    fn maxcp_computes_at_once_and_matches_the_spec() {
        let net = net();
        let mut p = PathSelection::default();
        p.compute(&net);
        assert!(!p.is_running());
        let r = p.result.as_ref().unwrap();
        assert_eq!(r.routing(), "paths:updown-dfs:maxcp");
        let (set, choice) = r.spec.compute(&net, 1).unwrap();
        assert_eq!(r.stats, Load::of(&set, &choice).stats());
    }

    #[test]
    fn a_stepped_search_ends_where_the_spec_does() {
        let net = net();
        let mut p = PathSelection {
            algorithm: Algorithm::Sa,
            sa_budget: 20_000,
            ..PathSelection::default()
        };
        p.compute(&net);
        assert!(p.is_running());
        let mut frames = 0;
        while p.tick(1) {
            frames += 1;
            assert!(frames < 100_000);
        }
        let r = p.result.as_ref().unwrap();
        assert_eq!(r.iterations, 20_000);
        assert!(r.history.len() >= 2);
        let (set, choice) = r.spec.compute(&net, 1).unwrap();
        assert_eq!(r.crossing, Load::of(&set, &choice).counts());
    }

    #[test]
    fn a_stopped_search_keeps_a_spec_that_reproduces_it() {
        let net = net();
        let mut p = PathSelection {
            algorithm: Algorithm::Ga,
            ga_budget: 1_000_000,
            ..PathSelection::default()
        };
        p.compute(&net);
        p.tick(1);
        p.stop();
        assert!(!p.is_running());
        let r = p.result.as_ref().unwrap();
        assert!(r.iterations > 0 && r.iterations < 1_000_000);
        assert_eq!(r.spec.budget, Some(r.iterations));
        let (set, choice) = r.spec.compute(&net, 1).unwrap();
        assert_eq!(r.crossing, Load::of(&set, &choice).counts());
    }

    #[test]
    fn a_bad_root_is_an_error_not_a_panic() {
        let mut p = PathSelection {
            root: 99,
            ..PathSelection::default()
        };
        p.compute(&net());
        assert!(p.error.as_ref().unwrap().contains("root"));
        assert!(p.result.is_none());
    }
}
