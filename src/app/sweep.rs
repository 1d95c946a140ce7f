//! Load sweeps from the app: what a sweep covers, its points, and the job
//! that runs them one after the other in budgeted slices (the web's
//! frames). [`super::sweep_runner`] runs a sweep without freezing the app:
//! natively a point on each core at once (`app/sweep_threads.rs`), on the
//! web a few milliseconds of cycles per frame (no threads there).

use crate::scenario::Scenario;
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};

/// What a sweep covers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepSettings {
    pub load_from: f64,
    pub load_to: f64,
    pub load_step: f64,
    /// Measured cycles per point (after the scenario's warm-up).
    pub cycles: u64,
    /// Stop a routing's loads at its first saturated point, as `routelab
    /// sweep` does (unless `--no-stop`): accepted below 95% of generated.
    pub stop_at_saturation: bool,
}

impl Default for SweepSettings {
    fn default() -> Self {
        SweepSettings {
            load_from: 0.05,
            load_to: 0.95,
            load_step: 0.1,
            cycles: 3000,
            stop_at_saturation: true,
        }
    }
}

impl SweepSettings {
    /// The loads (from, to, step) and cycles per point, as two rows of
    /// fields: the load sweep's and the oblivious panel's routing sweep's.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("Loads");
            ui.add(
                egui::DragValue::new(&mut self.load_from)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("First offered load");
            ui.label("to");
            ui.add(
                egui::DragValue::new(&mut self.load_to)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("Last offered load");
            ui.label("step");
            ui.add(
                egui::DragValue::new(&mut self.load_step)
                    .range(0.005..=1.0)
                    .speed(0.005),
            )
            .on_hover_text("Load increment");
        });
        ui.horizontal(|ui| {
            ui.label("Cycles per point");
            ui.add(egui::DragValue::new(&mut self.cycles).range(100..=10_000_000))
                .on_hover_text("Measured cycles per load, after the scenario's warm-up");
        });
    }

    /// The offered loads, or a message saying what is wrong.
    pub fn loads(&self) -> Result<Vec<f64>, String> {
        let ok = |x: f64| (0.0..=1.0).contains(&x);
        if !ok(self.load_from) || !ok(self.load_to) || self.load_from > self.load_to {
            return Err(format!(
                "loads {}..{}: need 0 <= from <= to <= 1",
                self.load_from, self.load_to
            ));
        }
        if self.load_step.is_nan() || self.load_step < 0.001 {
            return Err(format!("load step {}: need at least 0.001", self.load_step));
        }
        if self.cycles == 0 {
            return Err("cycles per point must be at least 1".into());
        }
        let n = ((self.load_to - self.load_from) / self.load_step + 1e-9).floor() as usize;
        Ok((0..=n)
            .map(|i| ((self.load_from + i as f64 * self.load_step) * 1e6).round() / 1e6)
            .collect())
    }
}

/// One measured point.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// Routing spec (which run it belongs to).
    pub routing: String,
    pub offered: f64,
    pub accepted: f64,
    pub avg_latency: f64,
    /// Accepted below 95% of generated (the CLI's rule).
    pub saturated: bool,
}

/// Results so far and progress.
#[derive(Clone, Debug, Default)]
pub struct SweepProgress {
    pub points: Vec<SweepPoint>,
    pub total: usize,
    pub finished: bool,
    pub error: Option<String>,
}

/// A sweep that advances a bounded number of cycles per call.
pub struct SweepJob {
    scenario: Scenario,
    cycles: u64,
    /// (routing, load) still to run, in order.
    todo: Vec<(String, f64)>,
    current: Option<(String, f64, Simulation)>,
    stop_at_saturation: bool,
    pub progress: SweepProgress,
}

impl SweepJob {
    /// Every load for each routing (A, then B when comparing).
    pub fn new(
        scenario: Scenario,
        routings: &[String],
        settings: &SweepSettings,
    ) -> Result<SweepJob, String> {
        let loads = settings.loads()?;
        let mut todo = Vec::new();
        for r in routings {
            for &l in &loads {
                todo.push((r.clone(), l));
            }
        }
        todo.reverse();
        let total = todo.len();
        Ok(SweepJob {
            scenario,
            cycles: settings.cycles,
            todo,
            current: None,
            stop_at_saturation: settings.stop_at_saturation,
            progress: SweepProgress {
                total,
                ..SweepProgress::default()
            },
        })
    }

    /// What the job is to run, for running its points side by side
    /// (`app/sweep_threads.rs`): the scenario, the measured cycles per
    /// point, whether a routing stops at its first saturated load, and the
    /// (routing, load) points in the order this job would run them.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn into_plan(self) -> (Scenario, u64, bool, Vec<(String, f64)>) {
        let mut todo = self.todo;
        todo.reverse();
        (self.scenario, self.cycles, self.stop_at_saturation, todo)
    }

    /// Run at most `max_cycles` cycles; true when the sweep is finished.
    pub fn work(&mut self, max_cycles: u64) -> bool {
        let mut budget = max_cycles;
        while budget > 0 && !self.progress.finished {
            if self.current.is_none() {
                let Some((routing, load)) = self.todo.pop() else {
                    self.progress.finished = true;
                    break;
                };
                match point_simulation(&self.scenario, &routing, load) {
                    Ok(sim) => self.current = Some((routing, load, sim)),
                    Err(e) => {
                        self.progress.error = Some(e.to_string());
                        self.progress.finished = true;
                        break;
                    }
                }
            }
            let Some((routing, load, sim)) = self.current.as_mut() else {
                break;
            };
            let end = self.scenario.warmup + self.cycles;
            let n = budget.min(end.saturating_sub(sim.now()));
            let failed = sim.run_for(n).is_err();
            budget -= n;
            if failed || sim.now() >= end {
                let point = measured_point(routing, *load, sim, failed);
                let saturated = point.saturated;
                self.progress.points.push(point);
                if saturated && self.stop_at_saturation {
                    // This routing's higher loads would only saturate more.
                    let r = routing.clone();
                    let before = self.todo.len();
                    self.todo.retain(|(x, _)| *x != r);
                    self.progress.total -= before - self.todo.len();
                }
                self.current = None;
            }
        }
        self.progress.finished
    }
}

/// The simulation of one point: the scenario with `routing` at `load`
/// (one engine thread: a sweep's points run side by side instead).
pub(super) fn point_simulation(
    scenario: &Scenario,
    routing: &str,
    load: f64,
) -> Result<Simulation, String> {
    Scenario {
        routing: routing.into(),
        load,
        ..scenario.clone()
    }
    .build()
    .map_err(|e| e.to_string())
}

/// The point a run ended (`failed`: stopped by a failure, a deadlock or no
/// route, which counts as saturated, with no latency) or measured.
pub(super) fn measured_point(
    routing: &str,
    load: f64,
    sim: &Simulation,
    failed: bool,
) -> SweepPoint {
    let s = sim.summary();
    SweepPoint {
        routing: routing.into(),
        offered: load,
        accepted: s.accepted,
        avg_latency: if failed { f64::NAN } else { s.avg_latency },
        saturated: failed || s.is_saturated(),
    }
}

/// Sweep results as CSV.
pub fn sweep_csv(points: &[SweepPoint]) -> String {
    let mut s = String::from(
        "routing,offered_flits_per_host_cycle,accepted_flits_per_host_cycle,avg_latency_cycles\n",
    );
    for p in points {
        s.push_str(&format!(
            "{},{},{},{}\n",
            p.routing, p.offered, p.accepted, p.avg_latency
        ));
    }
    s
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A quick sweep: `torus:4x4`, loads 0.1 to 0.3, 200 cycles a point
    /// after 50 of warm-up, stopping at saturation.
    pub(in crate::app) fn quick_sweep() -> (Scenario, SweepSettings) {
        let sc = Scenario {
            topology: "torus:4x4".into(),
            warmup: 50,
            ..Scenario::default()
        };
        let st = SweepSettings {
            load_from: 0.1,
            load_to: 0.3,
            load_step: 0.1,
            cycles: 200,
            stop_at_saturation: true,
        };
        (sc, st)
    }

    /// A sweep that saturates part-way: tornado on the ring `torus:8`
    /// (capacity 1/3 for minimal routing), loads 0.1 to 0.9 in steps of
    /// `load_step`, 600 cycles a point after 200 of warm-up.
    pub(in crate::app) fn saturating_sweep(
        load_step: f64,
        stop_at_saturation: bool,
    ) -> (Scenario, SweepSettings) {
        let sc = Scenario {
            topology: "torus:8".into(),
            traffic: "tornado".into(),
            warmup: 200,
            ..Scenario::default()
        };
        let st = SweepSettings {
            load_from: 0.1,
            load_to: 0.9,
            load_step,
            cycles: 600,
            stop_at_saturation,
        };
        (sc, st)
    }

    #[test]
    fn job_measures_every_point_in_small_slices() {
        let (sc, st) = quick_sweep();
        let mut job = SweepJob::new(sc, &["dor".into()], &st).unwrap();
        let mut calls = 0;
        while !job.work(37) {
            calls += 1;
            assert!(calls < 1000);
        }
        assert_eq!(job.progress.points.len(), 3);
        assert!(job.progress.points[2].accepted > job.progress.points[0].accepted);
    }

    #[test]
    fn a_routing_stops_at_its_first_saturated_load_unless_asked_not_to() {
        let (sc, mut st) = saturating_sweep(0.2, true);
        let run = |st: &SweepSettings| {
            let mut job = SweepJob::new(sc.clone(), &["dor".into()], st).unwrap();
            while !job.work(1000) {}
            job.progress
        };
        let stopped = run(&st);
        let last = stopped.points.last().unwrap();
        assert!(last.saturated, "{:?}", stopped.points);
        assert!(
            stopped.points[..stopped.points.len() - 1]
                .iter()
                .all(|p| !p.saturated)
        );
        assert!(stopped.points.len() < 5, "{:?}", stopped.points);
        assert_eq!(stopped.total, stopped.points.len());
        st.stop_at_saturation = false;
        let all = run(&st);
        assert_eq!(all.points.len(), 5);
        assert_eq!(all.points[..stopped.points.len()], stopped.points[..]);
    }

    #[test]
    fn bad_settings_are_refused() {
        let st = SweepSettings {
            load_from: 0.9,
            load_to: 0.1,
            ..SweepSettings::default()
        };
        assert!(SweepJob::new(Scenario::default(), &["dor".into()], &st).is_err());
    }
}
