//! The running experiment: one simulation, or two in lockstep when comparing
//! balancers (no egui here).

use super::playback::FramePlan;
use crate::routing::RoutingSpec;
use crate::scenario::Scenario;
use crate::sim::{SimError, Simulation};
use web_time::{Duration, Instant};

/// One simulation, or two (A and B) built from the same scenario and seed
/// with different routings, stepped in lockstep.
///
/// On the desktop a lone run splits its cycles between two engine threads
/// ([`Simulation::set_engine_threads`]); when comparing, each run keeps one
/// engine thread and the two runs step side by side instead, B on a
/// helper thread while A steps on the caller's, cycle by cycle
/// ([`Session::run_sampled`]). Each run is its own simulation with its own
/// random streams, so either way the results are those of stepping them
/// one after the other; only the speed changes (docs/performance.md,
/// "Comparing two runs on two cores").
pub struct Session {
    /// The scenario the simulations were built from.
    pub scenario: Scenario,
    pub sim: Simulation,
    /// The comparison run (B), if comparing.
    pub compare: Option<Simulation>,
    /// Routing spec of B.
    pub compare_routing: Option<String>,
    rate: CycleRate,
    /// The scenario that a refused swap's cure ("Restart with 8 VCs and
    /// swap", [`super::swap_cure`]) replaced: the scenario panel's Revert
    /// puts it back.
    pub replaced: Option<Scenario>,
    /// Steps B beside A when comparing (desktop; `None` when the system
    /// would not start a thread: the runs then step one after the other).
    #[cfg(not(target_arch = "wasm32"))]
    beside: Option<crate::sim::HelperThread>,
}

/// Rename `routing` to the name `sim`'s routing goes by, when that name
/// is a spec (it always is for the registered routings).
fn canonical_routing(routing: &mut String, sim: &Simulation) {
    let name = sim.routing_name();
    if !name.is_empty() && name != *routing && name.parse::<RoutingSpec>().is_ok() {
        *routing = name;
    }
}

/// `scenario`'s simulation: on the desktop a run alone (`alone`) on two
/// engine threads ([`Simulation::set_engine_threads`]: the same results;
/// cycles with few flits in the network, small networks' all, stay on
/// one), a run compared with another on one (the two runs take a core
/// each, [`Session`]); in the browser on one.
fn build(scenario: &Scenario, alone: bool) -> Result<Simulation, String> {
    #[allow(unused_mut)]
    let mut sim = scenario.build().map_err(|e| e.to_string())?;
    // A model without a second thread, or a system that would not start
    // one, keeps the one it has.
    #[cfg(not(target_arch = "wasm32"))]
    if alone {
        let _ = sim.set_engine_threads(2);
    }
    #[cfg(target_arch = "wasm32")]
    let _ = alone;
    Ok(sim)
}

impl Session {
    /// Build the scenario; an error lists every problem and builds nothing.
    ///
    /// A routing has one name everywhere (the classroom issue): the
    /// scenario takes the name the built routing goes by, the one the
    /// title, legend, status bar and exports print, so an alias (`minimal`,
    /// `default`) or a spec with a default spelled out (`drb:tau=0.023`)
    /// reads as `dor:tie=plus` or `drb` in the Routing field too.
    /// `tests/routing_names.rs` checks that every such name builds the same
    /// routing, with the same results.
    pub fn new(mut scenario: Scenario) -> Result<Session, String> {
        let sim = build(&scenario, true)?;
        canonical_routing(&mut scenario.routing, &sim);
        Ok(Session {
            scenario,
            sim,
            compare: None,
            compare_routing: None,
            rate: CycleRate::default(),
            replaced: None,
            #[cfg(not(target_arch = "wasm32"))]
            beside: None,
        })
    }

    /// Start (or stop, with `None`) comparing against `routing`. Both runs
    /// restart at cycle 0 so they stay in step.
    pub fn set_compare(&mut self, routing: Option<String>) -> Result<(), String> {
        match routing {
            None => {
                // Run A goes on alone, on two engine threads from the next
                // cycle (the same results).
                self.compare = None;
                self.compare_routing = None;
                #[cfg(not(target_arch = "wasm32"))]
                {
                    self.beside = None;
                    let _ = self.sim.set_engine_threads(2);
                }
                Ok(())
            }
            Some(r) => {
                let b = Scenario {
                    routing: r.clone(),
                    ..self.scenario.clone()
                };
                let sim_b = build(&b, false)?;
                self.sim = build(&self.scenario, false)?;
                let mut r = r;
                canonical_routing(&mut r, &sim_b);
                self.compare = Some(sim_b);
                self.compare_routing = Some(r);
                self.rate = CycleRate::default();
                #[cfg(not(target_arch = "wasm32"))]
                if self.beside.is_none() {
                    self.beside = crate::sim::HelperThread::new().ok();
                }
                Ok(())
            }
        }
    }

    /// Rebuild at cycle 0 (same seed, same compare routing).
    pub fn reset(&mut self) -> Result<(), String> {
        let alone = self.compare_routing.is_none();
        let sim = build(&self.scenario, alone)?;
        let compare = match &self.compare_routing {
            Some(r) => Some(build(
                &Scenario {
                    routing: r.clone(),
                    ..self.scenario.clone()
                },
                false,
            )?),
            None => None,
        };
        self.sim = sim;
        self.compare = compare;
        self.rate = CycleRate::default();
        Ok(())
    }

    /// Swap the balancer of run A (or B) live.
    pub fn swap_routing(&mut self, spec: &str, on_compare: bool) -> Result<(), String> {
        let parsed: RoutingSpec = spec.parse().map_err(|e| format!("{e}"))?;
        let target = if on_compare {
            self.compare
                .as_mut()
                .ok_or("no comparison run to swap on")?
        } else {
            &mut self.sim
        };
        target.swap_routing(&parsed)
    }

    pub fn now(&self) -> u64 {
        self.sim.now()
    }

    /// The runs, A first.
    pub fn sims(&self) -> impl Iterator<Item = &Simulation> {
        std::iter::once(&self.sim).chain(self.compare.as_ref())
    }

    /// The runs, A first, each named as the views and panels title it
    /// ("A: dor", "B: romm").
    pub fn labelled_runs(&self) -> Vec<(String, &Simulation)> {
        self.sims()
            .zip(["A", "B"])
            .map(|(s, name)| (format!("{name}: {}", s.routing_name()), s))
            .collect()
    }

    /// The first failure (deadlock, no route) of either run.
    pub fn failure(&self) -> Option<String> {
        self.sims().find_map(|s| s.failure()).map(|e| e.to_string())
    }

    /// Run a frame's worth of cycles, both runs in lockstep, stopping at the
    /// time budget or the first failure. Returns the cycles run.
    pub fn run(&mut self, plan: FramePlan) -> u64 {
        self.run_sampled(plan, 0, |_| {})
    }

    /// [`Session::run`], handing both runs to `on_sample` after every cycle
    /// that ends on a multiple of `every` (none when `every` is 0), however
    /// many cycles a frame runs: curves sampled this way are the same at
    /// any frame rate, on any machine, native or web (a warm-up run flat
    /// out in one frame still leaves its samples).
    pub fn run_sampled(
        &mut self,
        plan: FramePlan,
        every: u64,
        mut on_sample: impl FnMut(&[&Simulation]),
    ) -> u64 {
        if plan.cycles == 0 || self.failure().is_some() {
            self.rate.observe(self.sim.now());
            return 0;
        }
        let start = Instant::now();
        let budget = Duration::from_millis(plan.budget_ms as u64);
        let mut done = 0;
        // Check the clock every few cycles: Instant::now is not free on the web.
        let chunk = 8u64;
        'outer: while done < plan.cycles {
            let n = chunk.min(plan.cycles - done);
            for _ in 0..n {
                let (a, b) = self.step_both();
                done += 1;
                if a.is_err() || matches!(b, Some(Err(_))) {
                    break 'outer;
                }
                if every > 0 && self.sim.now().is_multiple_of(every) {
                    let sims: Vec<&Simulation> = self.sims().collect();
                    on_sample(&sims);
                }
            }
            if plan.budget_ms != u32::MAX && start.elapsed() >= budget {
                break;
            }
        }
        self.rate.observe(self.sim.now());
        done
    }

    /// One cycle of A and, when comparing, of B: on the desktop B steps on
    /// the helper thread while A steps here (each run is its own
    /// simulation, so the results are those of one after the other).
    fn step_both(&mut self) -> (Result<(), SimError>, Option<Result<(), SimError>>) {
        #[cfg(not(target_arch = "wasm32"))]
        if let (Some(b), Some(beside)) = (self.compare.as_mut(), self.beside.as_ref()) {
            let a = &mut self.sim;
            let mut from_b = Ok(());
            let from_a = beside.join(|| from_b = b.step(), || a.step());
            return (from_a, Some(from_b));
        }
        let a = self.sim.step();
        (a, self.compare.as_mut().map(Simulation::step))
    }

    /// Simulated cycles per wall-clock second, over the last second or so.
    pub fn cycles_per_second(&self) -> f64 {
        self.rate.per_second
    }
}

/// Cycles per second from (time, cycle) samples.
#[derive(Default)]
struct CycleRate {
    last: Option<(Instant, u64)>,
    per_second: f64,
}

impl CycleRate {
    fn observe(&mut self, cycle: u64) {
        let now = Instant::now();
        match self.last {
            None => self.last = Some((now, cycle)),
            Some((t, c)) => {
                let dt = now.duration_since(t).as_secs_f64();
                if dt >= 0.5 {
                    self.per_second = cycle.saturating_sub(c) as f64 / dt;
                    self.last = Some((now, cycle));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::playback::{Playback, PlaybackCommand};

    fn small() -> Scenario {
        Scenario {
            topology: "torus:4x4".into(),
            warmup: 0,
            ..Scenario::default()
        }
    }

    #[test]
    fn playback_commands_drive_the_simulation() {
        let mut s = Session::new(small()).unwrap();
        let mut p = Playback::default();
        p.apply(PlaybackCommand::Step(5));
        let plan = p.plan(s.now(), 0);
        s.run(plan);
        assert_eq!(s.now(), 5);
        p.apply(PlaybackCommand::RunUntil(40));
        for _ in 0..100 {
            let plan = p.plan(s.now(), 0);
            s.run(plan);
        }
        assert_eq!(s.now(), 40);
        assert!(!p.playing);
        p.apply(PlaybackCommand::Reset);
        assert!(p.reset_requested);
        s.reset().unwrap();
        assert_eq!(s.now(), 0);
    }

    #[test]
    fn compare_runs_in_lockstep_and_swaps_are_recorded() {
        let mut s = Session::new(small()).unwrap();
        s.set_compare(Some("dor:tie=random".into())).unwrap();
        s.run(FramePlan {
            cycles: 30,
            budget_ms: u32::MAX,
        });
        let b = s.compare.as_ref().unwrap();
        assert_eq!(b.now(), 30);
        assert_eq!(s.sim.now(), 30);
        s.swap_routing("dor:tie=parity", false).unwrap();
        assert_eq!(s.sim.swaps().len(), 2);
        assert!(s.swap_routing("zigzag", false).is_err());
        assert_eq!(s.sim.swaps().len(), 2);
    }

    /// DRB's curves do not depend on how many cycles a frame runs: one
    /// frame of 1 000 cycles (a warm-up run flat out), ten of 100 and
    /// frames of 37 all leave a sample at every multiple of 100, with
    /// both runs of a comparison, and the same samples.
    #[test]
    fn samples_fall_on_the_same_cycles_whatever_a_frame_runs() {
        use crate::app::drb_panel::{DrbPanel, SAMPLE_CYCLES};
        // DRB's default before 2026-12-01, which widens metapaths within
        // these 1 000 cycles (today's default widens none by then).
        const DRB: &str = "drb:tau=0.023:tolerance=0.011:tie=plus";
        let drb = Scenario {
            routing: DRB.into(),
            vcs: 8,
            load: 0.4,
            ..small()
        };
        let curves = |frames: &[u64]| {
            let mut s = Session::new(drb.clone()).unwrap();
            s.set_compare(Some(DRB.into())).unwrap();
            let mut p = DrbPanel::default();
            for &n in frames {
                let plan = FramePlan {
                    cycles: n,
                    budget_ms: u32::MAX,
                };
                s.run_sampled(plan, SAMPLE_CYCLES, |sims| p.sample(sims));
            }
            assert_eq!(s.now(), 1000);
            p.expansion
        };
        let one = curves(&[1000]);
        assert_eq!(one.len(), 2, "a curve for each run");
        let cycles: Vec<u64> = one[0].iter().map(|x| x.cycle).collect();
        assert_eq!(cycles, (1..=10).map(|k| k * 100).collect::<Vec<_>>());
        assert!(one[0].last().unwrap().expanded > 0, "{:?}", one[0]);
        assert_eq!(curves(&[100; 10]), one);
        let mut odd = vec![37; 27];
        odd.push(1);
        assert_eq!(curves(&odd), one);
        // Without sampling nothing is handed over.
        let mut s = Session::new(drb.clone()).unwrap();
        let mut calls = 0;
        s.run_sampled(
            FramePlan {
                cycles: 300,
                budget_ms: u32::MAX,
            },
            0,
            |_| calls += 1,
        );
        assert_eq!(calls, 0);
    }

    /// When comparing, B steps on a helper thread beside A (desktop), each
    /// run on one engine thread; a lone run is built on two. Either way
    /// every run's digest (every counter, per-channel value and buffer) is
    /// that of its scenario stepped alone, and the two stay in step, also
    /// after a reset and across frames of odd sizes.
    #[test]
    fn compared_runs_give_what_each_gives_alone() {
        let sc = Scenario {
            topology: "torus:8x8".into(),
            load: 0.4,
            ..small()
        };
        let alone = |routing: &str, cycles: u64| {
            let mut sim = Scenario {
                routing: routing.into(),
                ..sc.clone()
            }
            .build()
            .unwrap();
            for _ in 0..cycles {
                sim.step().unwrap();
            }
            sim.digest()
        };
        let same = |run: &Simulation, routing: &str| {
            let d = alone(routing, run.now());
            assert_eq!(run.digest().first_difference(&d), None, "{routing}");
        };
        let mut s = Session::new(sc.clone()).unwrap();
        s.set_compare(Some("dor:tie=random".into())).unwrap();
        #[cfg(not(target_arch = "wasm32"))]
        assert!(s.beside.is_some(), "a helper thread steps B");
        for n in [1, 37, 500, 1462] {
            s.run(FramePlan {
                cycles: n,
                budget_ms: u32::MAX,
            });
        }
        assert_eq!(s.now(), 2000);
        assert_eq!(s.compare.as_ref().unwrap().now(), 2000);
        same(&s.sim, &sc.routing);
        same(s.compare.as_ref().unwrap(), "dor:tie=random");
        s.reset().unwrap();
        s.run(FramePlan {
            cycles: 300,
            budget_ms: u32::MAX,
        });
        same(&s.sim, &sc.routing);
        same(s.compare.as_ref().unwrap(), "dor:tie=random");
        // Back to one run: it goes on alone, on two engine threads.
        s.set_compare(None).unwrap();
        s.run(FramePlan {
            cycles: 200,
            budget_ms: u32::MAX,
        });
        same(&s.sim, &sc.routing);
    }

    #[test]
    fn bad_scenario_builds_nothing() {
        let bad = Scenario { vcs: 0, ..small() };
        assert!(Session::new(bad).is_err());
        let mut s = Session::new(small()).unwrap();
        assert!(s.set_compare(Some("dmodk".into())).is_err());
        assert!(s.compare.is_none());
    }
}
