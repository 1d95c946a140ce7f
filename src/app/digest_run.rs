//! Proof that the browser computes what the desktop computes: a link
//! `#scenario=<JSON>&digest` (or `&digest=CYCLES`) makes the app run the
//! link's scenario, once applied, for its warm-up plus measured cycles (what
//! `routelab sim` runs; or CYCLES) in frame-budgeted slices, then publish
//! the run's [`Digest`] (a hash of every counter and per-channel value, and
//! the fields themselves). `routelab sim --scenario FILE --digest` prints the
//! same for the same scenario; the real-browser test compares the two
//! (`tests/web/browser-test.mjs`). No egui here.

use crate::scenario::Scenario;
use crate::sim::{Digest, Simulation};
use web_time::{Duration, Instant};

/// The digest requested by a URL fragment or query: `None` when none is,
/// `Some(None)` for the scenario's own length, `Some(Some(n))` for `n`
/// cycles.
pub fn requested(fragment: &str) -> Option<Option<u64>> {
    let f = fragment.trim_start_matches(['#', '?']);
    f.split('&').find_map(|part| {
        if part == "digest" {
            Some(None)
        } else {
            part.strip_prefix("digest=")
                .map(|n| n.parse::<u64>().ok().filter(|&n| n > 0))
        }
    })
}

/// A run towards a digest, advanced a slice per frame.
pub struct DigestRun {
    sim: Simulation,
    target: u64,
    result: Option<Result<Digest, String>>,
}

impl DigestRun {
    /// Build `scenario` for a run of `cycles` cycles (default: warm-up plus
    /// measured cycles).
    pub fn new(scenario: &Scenario, cycles: Option<u64>) -> Result<DigestRun, String> {
        let sim = scenario.build().map_err(|e| e.to_string())?;
        Ok(DigestRun {
            sim,
            target: cycles.unwrap_or(scenario.warmup.saturating_add(scenario.cycles)),
            result: None,
        })
    }

    /// Run for at most `budget_ms` milliseconds; true once finished.
    pub fn tick(&mut self, budget_ms: u64) -> bool {
        if self.result.is_some() {
            return true;
        }
        let start = Instant::now();
        let budget = Duration::from_millis(budget_ms);
        while self.sim.now() < self.target {
            let n = (self.target - self.sim.now()).min(64);
            if let Err(e) = self.sim.run_for(n) {
                self.result = Some(Err(e.to_string()));
                return true;
            }
            if start.elapsed() >= budget {
                return false;
            }
        }
        self.result = Some(Ok(self.sim.digest()));
        true
    }

    /// Cycles run so far and the target.
    pub fn progress(&self) -> (u64, u64) {
        (self.sim.now(), self.target)
    }

    /// The digest (or why the run stopped), once finished.
    pub fn result(&self) -> Option<&Result<Digest, String>> {
        self.result.as_ref()
    }

    /// What the page shows: `running`, `done` or `error`, and the text (the
    /// digest's JSON or the error).
    pub fn page_state(&self) -> (&'static str, String) {
        match &self.result {
            None => ("running", String::new()),
            Some(Ok(d)) => ("done", d.to_json()),
            Some(Err(e)) => ("error", e.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_ask_for_digests() {
        assert_eq!(requested("#scenario=%7B%7D&digest"), Some(None));
        assert_eq!(requested("#digest=500&scenario=x"), Some(Some(500)));
        assert_eq!(requested("?digest=0"), Some(None));
        assert_eq!(requested("#scenario=x"), None);
    }

    /// The app's run gives the digest a plain run of the same length gives
    /// (what `routelab sim --digest` prints), in any slicing.
    #[test]
    fn sliced_runs_give_the_plain_runs_digest() {
        let s = Scenario {
            topology: "torus:4x4".into(),
            routing: "dor".into(),
            warmup: 100,
            cycles: 700,
            ..Scenario::default()
        };
        let mut run = DigestRun::new(&s, None).unwrap();
        while !run.tick(0) {}
        let mut plain = s.build().unwrap();
        plain.run_for(800).unwrap();
        assert_eq!(run.result(), Some(&Ok(plain.digest())));
        assert_eq!(run.progress(), (800, 800));
        assert_eq!(run.page_state().0, "done");
    }
}
