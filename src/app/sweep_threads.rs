//! A load sweep's points on the desktop's cores: each worker thread takes
//! the next (routing, load) point in the sweep's order, runs it to its end
//! and records it. The points recorded are those a [`SweepJob`] gives
//! running them one after the other, in its order:
//! - a point is its own simulation (one engine thread, its own random
//!   streams), so it measures the same on any thread;
//! - when a routing saturates at a load and the sweep stops there
//!   ([`SweepSettings::stop_at_saturation`](super::sweep::SweepSettings)),
//!   its higher loads are dropped: those still to run, those running
//!   (stopped at their next chunk) and those already recorded, which a
//!   one-after-the-other sweep would never have run;
//! - a point whose simulation cannot be built ends the sweep with its
//!   error, and the points after it are dropped likewise;
//! - the progress lists the points in the sweep's order, whichever
//!   finished first.
//!
//! A worker takes the first point of a routing that has none running when
//! there is one: a routing's next load is run before its lower one has
//! ended only when nothing else is left (it is wasted if the lower one
//! saturates).
//!
//! `tests` compares this with [`SweepJob`] point for point.

use super::sweep::{SweepJob, SweepPoint, SweepProgress, measured_point, point_simulation};
use crate::scenario::Scenario;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Cycles a worker runs between looks at the stop flags.
const CHUNK: u64 = 2000;

/// One point of the sweep: its place in the sweep's order, its routing and
/// load.
#[derive(Clone, Debug)]
struct Task {
    index: usize,
    routing: String,
    load: f64,
}

/// A point being run, and its flag: set when the point is dropped.
struct Running {
    task: Task,
    dropped: Arc<AtomicBool>,
}

/// What the workers share.
struct Board {
    stop_at_saturation: bool,
    /// Points not started, in the sweep's order.
    todo: std::collections::VecDeque<Task>,
    running: Vec<Running>,
    /// Recorded points, by their place in the sweep's order.
    done: Vec<(usize, SweepPoint)>,
    error: Option<(usize, String)>,
}

impl Board {
    /// The next point to run, if any (after an error, only points before
    /// it are left).
    fn take(&mut self) -> Option<(Task, Arc<AtomicBool>)> {
        // A routing's next load may be dropped by the one running (if
        // that saturates), so another routing's point goes first when
        // there is one.
        let idle = (self.todo.iter())
            .position(|t| self.running.iter().all(|r| r.task.routing != t.routing));
        let task = self.todo.remove(idle.unwrap_or(0))?;
        let dropped = Arc::new(AtomicBool::new(false));
        self.running.push(Running {
            task: task.clone(),
            dropped: dropped.clone(),
        });
        Some((task, dropped))
    }

    /// Drop every point that `keep(index, routing, load)` refuses: not yet
    /// run, running or recorded.
    fn drop_unless(&mut self, keep: impl Fn(usize, &str, f64) -> bool) {
        let kept = |t: &Task| keep(t.index, &t.routing, t.load);
        self.todo.retain(kept);
        for r in &self.running {
            if !kept(&r.task) {
                r.dropped.store(true, Ordering::Relaxed);
            }
        }
        self.running.retain(|r| kept(&r.task));
        self.done
            .retain(|(index, p)| keep(*index, &p.routing, p.offered));
    }

    /// `task` will not be recorded (cancelled or dropped while it ran).
    fn abandon(&mut self, task: &Task) {
        self.running.retain(|r| r.task.index != task.index);
    }

    /// `task` ended: with its point, or with the error building it.
    fn finish(&mut self, task: &Task, outcome: Result<SweepPoint, String>) {
        self.abandon(task);
        match outcome {
            Err(e) => {
                // As a one-after-the-other sweep: it would have stopped here.
                if self.error.as_ref().is_none_or(|(i, _)| task.index < *i) {
                    self.error = Some((task.index, e));
                }
                self.drop_unless(|index, _, _| index < task.index);
            }
            Ok(point) => {
                if self.error.as_ref().is_some_and(|(i, _)| *i < task.index) {
                    return;
                }
                let saturated = point.saturated;
                self.done.push((task.index, point));
                if saturated && self.stop_at_saturation {
                    // The routing's loads run in ascending order, so
                    // its higher loads come after this one.
                    let (r, l) = (task.routing.clone(), task.load);
                    self.drop_unless(|_, routing, load| routing != r || load <= l);
                }
            }
        }
    }

    fn progress(&self) -> SweepProgress {
        let mut done: Vec<&(usize, SweepPoint)> = self.done.iter().collect();
        done.sort_by_key(|(index, _)| *index);
        SweepProgress {
            points: done.into_iter().map(|(_, p)| p.clone()).collect(),
            total: self.done.len() + self.running.len() + self.todo.len(),
            finished: self.todo.is_empty() && self.running.is_empty(),
            error: self.error.as_ref().map(|(_, e)| e.clone()),
        }
    }
}

/// Run `job`'s points on `workers` threads (this one and `workers - 1`
/// more), publishing the progress to `shared` after every point, until
/// the sweep ends or `cancel` is set.
pub(super) fn run(
    job: SweepJob,
    workers: usize,
    shared: &Mutex<SweepProgress>,
    cancel: &AtomicBool,
) {
    let (scenario, cycles, stop_at_saturation, plan) = job.into_plan();
    let board = Mutex::new(Board {
        stop_at_saturation,
        todo: (plan.into_iter().enumerate())
            .map(|(index, (routing, load))| Task {
                index,
                routing,
                load,
            })
            .collect(),
        running: Vec::new(),
        done: Vec::new(),
        error: None,
    });
    let end = scenario.warmup + cycles;
    let work = || worker(&scenario, end, &board, shared, cancel);
    std::thread::scope(|scope| {
        for _ in 1..workers.max(1) {
            // A worker the system would not start leaves the work to the
            // others.
            let _ = std::thread::Builder::new()
                .name("routelab-sweep".into())
                .spawn_scoped(scope, work);
        }
        work();
    });
    let mut last = lock(&board).progress();
    last.finished = true;
    *lock(shared) = last;
}

/// A lock that outlives a panicked holder (the board's state is updated in
/// whole steps, so it is consistent).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn worker(
    scenario: &Scenario,
    end: u64,
    board: &Mutex<Board>,
    shared: &Mutex<SweepProgress>,
    cancel: &AtomicBool,
) {
    while !cancel.load(Ordering::Relaxed) {
        let Some((task, dropped)) = lock(board).take() else {
            return;
        };
        let outcome = match point_simulation(scenario, &task.routing, task.load) {
            Err(e) => Err(e),
            Ok(mut sim) => {
                let mut failed = false;
                while !failed && sim.now() < end {
                    if cancel.load(Ordering::Relaxed) || dropped.load(Ordering::Relaxed) {
                        break;
                    }
                    let n = CHUNK.min(end - sim.now());
                    failed = sim.run_for(n).is_err();
                }
                if !failed && sim.now() < end {
                    // Cancelled or dropped: no point.
                    lock(board).abandon(&task);
                    continue;
                }
                Ok(measured_point(&task.routing, task.load, &sim, failed))
            }
        };
        let mut b = lock(board);
        if dropped.load(Ordering::Relaxed) {
            continue;
        }
        b.finish(&task, outcome);
        *lock(shared) = b.progress();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::sweep::SweepSettings;
    use crate::app::sweep::tests::{quick_sweep, saturating_sweep};

    fn one_after_the_other(
        sc: &Scenario,
        routings: &[String],
        st: &SweepSettings,
    ) -> SweepProgress {
        let mut job = SweepJob::new(sc.clone(), routings, st).unwrap();
        while !job.work(1000) {}
        job.progress
    }

    fn side_by_side(
        sc: &Scenario,
        routings: &[String],
        st: &SweepSettings,
        workers: usize,
    ) -> SweepProgress {
        let job = SweepJob::new(sc.clone(), routings, st).unwrap();
        let shared = Mutex::new(job.progress.clone());
        run(job, workers, &shared, &AtomicBool::new(false));
        shared.into_inner().unwrap()
    }

    /// Two routings on a ring under tornado traffic, one saturating within
    /// the loads: on one, two and three workers the points (every field,
    /// latencies bit for bit), their order and the total are those of the
    /// sweep run one point after the other, with the stop at saturation
    /// and without.
    #[test]
    fn points_side_by_side_are_those_one_after_the_other() {
        let routings = ["dor".to_string(), "dor:tie=random".to_string()];
        for stop_at_saturation in [true, false] {
            let (sc, st) = saturating_sweep(0.1, stop_at_saturation);
            let want = one_after_the_other(&sc, &routings, &st);
            assert!(want.points.iter().any(|p| p.saturated), "{:?}", want.points);
            for workers in [1, 2, 3] {
                let got = side_by_side(&sc, &routings, &st, workers);
                let bits = |p: &SweepProgress| {
                    (p.points.iter())
                        .map(|x| {
                            let f = (x.offered.to_bits(), x.accepted.to_bits());
                            (x.routing.clone(), f, x.avg_latency.to_bits(), x.saturated)
                        })
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&got), bits(&want), "{workers} workers");
                assert_eq!(got.total, want.total);
                assert!(got.finished && got.error.is_none());
            }
        }
    }

    /// A routing that does not build ends the sweep with its error after
    /// the points before it, as one after the other.
    #[test]
    fn an_error_ends_the_sweep_where_it_would_one_after_the_other() {
        let (sc, st) = quick_sweep();
        let routings = [
            "dor".to_string(),
            "dmodk".to_string(),
            "dor:tie=random".to_string(),
        ];
        let want = one_after_the_other(&sc, &routings, &st);
        assert!(want.error.is_some());
        assert_eq!(want.points.len(), 3, "{:?}", want.points);
        let got = side_by_side(&sc, &routings, &st, 2);
        assert_eq!(got.points, want.points);
        assert_eq!(got.error, want.error);
        assert!(got.finished);
    }

    /// Cancelling stops the workers in the middle of their points (each of
    /// a million cycles, seconds of work): the sweep ends, with no point.
    #[test]
    fn cancelling_ends_the_sweep() {
        let sc = Scenario {
            topology: "torus:8x8".into(),
            warmup: 100,
            ..Scenario::default()
        };
        let st = SweepSettings {
            load_from: 0.05,
            load_to: 0.5,
            load_step: 0.05,
            cycles: 1_000_000,
            stop_at_saturation: false,
        };
        let job = SweepJob::new(sc, &["dor".into()], &st).unwrap();
        let shared = Mutex::new(job.progress.clone());
        let cancel = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                cancel.store(true, Ordering::Relaxed);
            });
            run(job, 2, &shared, &cancel);
        });
        let p = shared.into_inner().unwrap();
        assert!(p.finished && p.points.is_empty(), "{p:?}");
    }
}
