//! DRB's threshold read on the router in use: the knee of its static
//! routing's latency curve under uniform traffic, measured once per
//! network and router and kept for the process.
//!
//! Franco, Garcés and Luque (DRB, §2-3) widen a pair's metapath when its
//! latency passes the *threshold latency* ThL = L_c(1 + τ), L_c the
//! latency of the original path at zero load, and narrow it below ThL
//! less a *dead band* Tol; τ is to be read at "the point of the curve
//! with the minimum radius of curvature", the knee of the static routing's
//! latency against load. That knee belongs to the router: on torus:8x8 the
//! presets' router (10-flit packets, one-flit buffers) has it at τ = 0.108
//! and the default router (4-flit packets, 8-flit buffers, 8 VCs) at
//! τ = 0.927 (docs/results.md, "τ read on the router in use"). A `drb`
//! spec without `tau=` therefore reads τ here, on the network, switch
//! model, router and arrival process it runs on ([`KneeSetup`]), with
//! [`KneeRequest`] naming the static routing and the latency
//! (`RoutingBuild::knee_request`).
//!
//! ## The reading (issue 27's "double", `scripts/drb_knee.py`)
//! - L0 is the mean latency at a low load, [`LOW_FRACTION`] of the
//!   uniform-traffic capacity;
//! - the knee is the offered load at which the mean latency (generation
//!   to tail delivery) reaches [`KNEE_FACTOR`]·L0, interpolated linearly
//!   between the two probes around it;
//! - τ = (latency at the knee) / (latency at the low load) − 1, on the
//!   latency DRB compares with ThL: the network latency (head injection to
//!   tail delivery, `latency=network`), or the total latency
//!   (`latency=total`: 1 by construction); Tol = τ/(2(1 + τ)). Both are
//!   rounded to [`crate::routing::THRESHOLD_DIGITS`] decimals.
//!
//! ## The measurement
//! The knee is found by bisection on the load, between the low load and
//! the most a host can offer up to the capacity: [`PROBES`] probes in
//! all, the low one and [`BISECTIONS`] halvings (the last bracket is
//! 1/128 of that range: 0.0077 of capacity on torus:8x8). A probe runs
//! the static routing alone, no acknowledgement traffic, for
//! [`PROBE_WARMUP`] + [`PROBE_CYCLES`] cycles (the lengths of the sweep
//! docs/results.md reads τ = 0.927 on) with seed [`KNEE_SEED`], whatever
//! the run's seed: a scenario and a seed give one result everywhere. A
//! probe is above the knee when its mean latency reaches 2·L0 or it
//! saturates (the sweeps' rule, [`super::saturated`]). Cost: 8 probes of
//! 13 000 cycles, 104 000 cycles of the static routing (about 0.5 s on
//! torus:8x8 natively).
//!
//! **No knee** when the low probe saturates, when the mean latency stays
//! below 2·L0 up to the highest load probed, when the network saturates
//! within the last bracket before the latency is seen to double, or when
//! the static routing cannot run on this router: DRB then takes its
//! constants ([`crate::routing::drb::DEFAULT_TAU`]) and says why
//! ([`Knee::not_found`]).
//!
//! ## Kept for reuse
//! A knee depends only on its [`KneeRequest`] and [`KneeSetup`] (the
//! network's whole wiring, the switch model, every router field, the
//! arrival process), not on the load, the traffic or the seed of the run
//! that asks, so the process keeps the [`KEEP`] most recent (as
//! `paths::memo` keeps route tables): a sweep of 45 loads measures it
//! once, and a second `Scenario::build` finds it. Concurrent lookups of one
//! key wait for the first. [`KneeJob`] measures one in steps of at most a
//! given number of cycles (the app's frames, and the browser with no
//! threads), [`knee_for`] at once.

use super::config::{MeasureConfig, RouterConfig};
use super::endpoints::TrafficConfig;
use super::engine::Simulation;
use super::model_kind::SwitchModelKind;
use super::summary::saturated;
use crate::rng::{Stream, stream};
use crate::routing::{Knee, KneePoint, KneeRequest, RoutingSpec};
use crate::topology::{Channel, Network};
use crate::traffic::{Pattern, PatternSpec, Process};
use std::sync::{Arc, Mutex, OnceLock};

/// The low load, as a fraction of the uniform-traffic capacity: L0 is the
/// mean latency there (the lowest point of the sweep the documented knee
/// was read on).
pub const LOW_FRACTION: f64 = 0.02;
/// The knee is where the mean latency reaches this multiple of L0.
pub const KNEE_FACTOR: f64 = 2.0;
/// Halvings of the load range after the low probe.
pub const BISECTIONS: u32 = 7;
/// Probes in all: the low one and one per halving.
pub const PROBES: u32 = 1 + BISECTIONS;
/// Warm-up cycles of a probe.
pub const PROBE_WARMUP: u64 = 3000;
/// Measured cycles of a probe.
pub const PROBE_CYCLES: u64 = 10_000;
/// Cycles of one probe.
pub const PROBE_LENGTH: u64 = PROBE_WARMUP + PROBE_CYCLES;
/// Cycles of a whole measurement.
pub const KNEE_CYCLES: u64 = PROBES as u64 * PROBE_LENGTH;
/// The seed of every probe, whatever the seed of the run that asks.
pub const KNEE_SEED: u64 = 1;
/// Knees the process keeps (each holds its network's channel list).
pub const KEEP: usize = 32;

/// What a knee is measured on besides its request: the network, switch
/// model, router and arrival process of the run that asks.
#[derive(Clone)]
pub struct KneeSetup {
    pub network: Arc<Network>,
    pub model: SwitchModelKind,
    /// The router as the switch model runs it (its entry's `router`
    /// applied, as [`Simulation::new`] does).
    pub router: RouterConfig,
    pub process: Process,
}

impl KneeSetup {
    /// The setup of a run of `model` with `router` on `network`.
    pub fn new(
        network: Arc<Network>,
        model: SwitchModelKind,
        router: RouterConfig,
        process: Process,
    ) -> KneeSetup {
        KneeSetup {
            router: (model.entry().router)(router),
            network,
            model,
            process,
        }
    }

    /// The setup of a running simulation.
    pub fn of_run(sim: &Simulation) -> KneeSetup {
        KneeSetup::new(
            sim.network().clone(),
            sim.switch_model_kind(),
            sim.router().clone(),
            sim.endpoints().process(),
        )
    }
}

impl std::fmt::Debug for KneeSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KneeSetup")
            .field("network", &self.network.spec())
            .field("model", &self.model.as_str())
            .field("router", &self.router)
            .field("process", &self.process)
            .finish()
    }
}

type Cell = Arc<OnceLock<Arc<Knee>>>;

/// One kept knee and what it was measured on.
struct Entry {
    request: KneeRequest,
    model: &'static str,
    router: RouterConfig,
    process: Process,
    topology: String,
    switches: usize,
    channels: Vec<Channel>,
    cell: Cell,
}

impl Entry {
    fn is(&self, setup: &KneeSetup, request: &KneeRequest) -> bool {
        let net = &setup.network;
        self.request == *request
            && self.model == setup.model.as_str()
            && self.router == setup.router
            && self.process == setup.process
            && self.topology == net.spec()
            && self.switches == net.num_switches()
            && self.channels == net.channels()
    }
}

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn cache() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    // A poisoned lock only means a measurement panicked elsewhere; the
    // list itself is always whole (measurements run outside the lock).
    CACHE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The cell for (`setup`, `request`), moved to the front (a new, empty
/// one when there is none); the oldest beyond [`KEEP`] are dropped.
fn cell(setup: &KneeSetup, request: &KneeRequest) -> Cell {
    let mut entries = cache();
    let entry = match entries.iter().position(|e| e.is(setup, request)) {
        Some(i) => entries.remove(i),
        None => Entry {
            request: request.clone(),
            model: setup.model.as_str(),
            router: setup.router.clone(),
            process: setup.process,
            topology: setup.network.spec().to_string(),
            switches: setup.network.num_switches(),
            channels: setup.network.channels().to_vec(),
            cell: Cell::default(),
        },
    };
    let cell = entry.cell.clone();
    entries.insert(0, entry);
    entries.truncate(KEEP);
    cell
}

/// The kept knee of (`setup`, `request`), if it was measured; measures
/// nothing.
pub fn cached(setup: &KneeSetup, request: &KneeRequest) -> Option<Arc<Knee>> {
    cache()
        .iter()
        .find(|e| e.is(setup, request))
        .and_then(|e| e.cell.get().cloned())
}

/// The knee of (`setup`, `request`): the kept one, or measured now (and
/// kept).
pub fn knee_for(setup: &KneeSetup, request: &KneeRequest) -> Arc<Knee> {
    cell(setup, request)
        .get_or_init(|| {
            let mut job = KneeJob::new(setup.clone(), request.clone());
            job.keep = false;
            loop {
                if let Some(k) = job.step(PROBE_LENGTH) {
                    return k;
                }
            }
        })
        .clone()
}

/// `spec` with its router-dependent defaults read on `setup`
/// ([`RoutingSpec::knee_request`], [`knee_for`]); `spec` itself when it
/// reads none.
pub fn resolve(spec: &RoutingSpec, setup: &KneeSetup) -> RoutingSpec {
    match spec.knee_request(&setup.network) {
        Some(request) => spec.with_knee(&knee_for(setup, &request)),
        None => spec.clone(),
    }
}

/// How far a [`KneeJob`] has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KneeProgress {
    /// The probe running (1-based), or the last one when done.
    pub probe: u32,
    /// Probes in all ([`PROBES`]).
    pub probes: u32,
    /// Cycles simulated so far, and in all at most ([`KNEE_CYCLES`]).
    pub cycles: u64,
    pub total_cycles: u64,
}

/// One probe running.
struct Probe {
    sim: Box<Simulation>,
    load: f64,
}

/// A probe's reading.
#[derive(Clone, Copy, Debug)]
struct Reading {
    point: KneePoint,
    saturated: bool,
}

/// The measurement of one knee in steps ([`KneeJob::step`]): the probes of
/// the module's bisection one after the other, each advanced by at most
/// the cycles a step is given. Deterministic: how it is cut into steps
/// changes nothing. Done, it keeps its knee for the process ([`cached`]).
pub struct KneeJob {
    setup: KneeSetup,
    request: KneeRequest,
    /// The static routing, once parsed and checked.
    spec: Option<RoutingSpec>,
    /// Uniform-traffic capacity and the highest load probed at most.
    capacity: f64,
    top: f64,
    probe: Option<Probe>,
    low: Option<KneePoint>,
    below: Option<KneePoint>,
    above: Option<Reading>,
    started: u32,
    cycles: u64,
    result: Option<Arc<Knee>>,
    /// Keep the knee for the process when done ([`knee_for`] keeps it
    /// itself).
    keep: bool,
}

impl std::fmt::Debug for KneeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KneeJob")
            .field("setup", &self.setup)
            .field("request", &self.request)
            .field("progress", &self.progress())
            .finish()
    }
}

impl KneeJob {
    /// The measurement of `request`'s knee on `setup` (nothing runs yet).
    pub fn new(setup: KneeSetup, request: KneeRequest) -> KneeJob {
        KneeJob {
            setup,
            request,
            spec: None,
            capacity: 0.0,
            top: 0.0,
            probe: None,
            low: None,
            below: None,
            above: None,
            started: 0,
            cycles: 0,
            result: None,
            keep: true,
        }
    }

    /// What it measures.
    pub fn request(&self) -> &KneeRequest {
        &self.request
    }

    /// What it measures on.
    pub fn setup(&self) -> &KneeSetup {
        &self.setup
    }

    /// How far it has got.
    pub fn progress(&self) -> KneeProgress {
        KneeProgress {
            probe: self.started.max(1),
            probes: PROBES,
            cycles: self.cycles,
            total_cycles: KNEE_CYCLES,
        }
    }

    /// The knee this job measured, once done.
    pub fn result(&self) -> Option<&Arc<Knee>> {
        self.result.as_ref()
    }

    /// Advance by at most `max_cycles` cycles (at least one); the knee
    /// when it is done (and from then on).
    pub fn step(&mut self, max_cycles: u64) -> Option<Arc<Knee>> {
        if let Some(k) = &self.result {
            return Some(k.clone());
        }
        let mut budget = max_cycles.max(1);
        loop {
            if self.probe.is_none() {
                match self.next_probe() {
                    Err(reason) => return Some(self.finish(Some(reason))),
                    Ok(false) => return Some(self.finish(None)),
                    Ok(true) => {}
                }
            }
            let Some(p) = self.probe.as_mut() else {
                return Some(self.finish(Some("no probe".into())));
            };
            let n = (PROBE_LENGTH - p.sim.now()).min(budget);
            if let Err(e) = p.sim.run_for(n) {
                let reason = format!("the probe at load {:.3} stopped: {e}", p.load);
                return Some(self.finish(Some(reason)));
            }
            self.cycles += n;
            budget -= n;
            if p.sim.now() >= PROBE_LENGTH {
                let probe = self.probe.take();
                if let Some(p) = probe
                    && let Err(reason) = self.record(&p)
                {
                    return Some(self.finish(Some(reason)));
                }
            }
            if budget == 0 {
                return None;
            }
        }
    }

    /// A probe's simulation at `load`.
    fn simulation(&self, spec: &RoutingSpec, load: f64) -> Result<Simulation, String> {
        let s = &self.setup;
        let net = &s.network;
        let routing =
            Simulation::build_routing(spec, net, s.router.vcs).map_err(|e| e.to_string())?;
        let uniform: PatternSpec = "uniform".parse().map_err(|e| format!("{e}"))?;
        let pattern = Pattern::build(&uniform, net, &mut stream(KNEE_SEED, Stream::Pattern))
            .map_err(|e| e.to_string())?;
        Simulation::new(
            net.clone(),
            s.model,
            routing,
            TrafficConfig {
                pattern,
                process: s.process,
                load,
            },
            s.router.clone(),
            MeasureConfig {
                warmup: PROBE_WARMUP,
                ..MeasureConfig::default()
            },
            KNEE_SEED,
        )
    }

    /// Start the next probe: `Ok(true)` when one started, `Ok(false)` when
    /// every probe has run.
    fn next_probe(&mut self) -> Result<bool, String> {
        let spec = match &self.spec {
            Some(spec) => spec.clone(),
            None => {
                let spec = self.checked_spec()?;
                // The capacity and the most a host offers, of the model.
                let sim = self.simulation(&spec, 0.0)?;
                self.capacity = sim.capacity();
                self.top = self.capacity.min(sim.max_load());
                self.spec = Some(spec.clone());
                spec
            }
        };
        let load = match (self.low, self.below) {
            _ if self.started >= PROBES => return Ok(false),
            (None, _) => LOW_FRACTION * self.capacity,
            (Some(_), Some(below)) => {
                let upper = self.above.map_or(self.top, |a| a.point.load);
                (below.load + upper) / 2.0
            }
            (Some(_), None) => return Err("no probe below the knee".into()),
        };
        let sim = self.simulation(&spec, load)?;
        self.probe = Some(Probe {
            sim: Box::new(sim),
            load,
        });
        self.started += 1;
        Ok(true)
    }

    /// The static routing, parsed and checked against the network, the
    /// switch model and the router.
    fn checked_spec(&self) -> Result<RoutingSpec, String> {
        let s = &self.setup;
        let spec: RoutingSpec = self
            .request
            .static_routing
            .parse()
            .map_err(|e| format!("{e}"))?;
        if let Some(p) = s.router.routing_problem(&spec) {
            return Err(p);
        }
        s.model.check(&s.network, &spec)?;
        Simulation::build_routing(&spec, &s.network, s.router.vcs).map_err(|e| e.to_string())?;
        Ok(spec)
    }

    /// Take a finished probe's reading into the bisection.
    fn record(&mut self, p: &Probe) -> Result<(), String> {
        let st = p.sim.stats();
        let measured = p.sim.now().saturating_sub(st.measure_start()).max(1);
        let denom = (self.setup.network.num_hosts() as f64 * measured as f64).max(1.0);
        let accepted = st.delivered_flits() as f64 / denom;
        let generated = st.generated_flits() as f64 / denom;
        let reading = Reading {
            point: KneePoint {
                load: p.load,
                load_fraction: p.load / self.capacity,
                latency: st.latency().mean(),
                network_latency: st.mean_network_latency(),
            },
            saturated: st.delivered_packets() == 0 || saturated(accepted, generated),
        };
        match self.low {
            None if reading.saturated => Err(format!(
                "the network saturates at the lowest load probed, {:.3} ({} % of capacity)",
                p.load,
                100.0 * LOW_FRACTION
            )),
            None => {
                self.low = Some(reading.point);
                self.below = Some(reading.point);
                Ok(())
            }
            Some(low) => {
                if reading.saturated || reading.point.latency >= KNEE_FACTOR * low.latency {
                    self.above = Some(reading);
                } else {
                    self.below = Some(reading.point);
                }
                Ok(())
            }
        }
    }

    /// The knee of the probes run (or why there is none), kept for the
    /// process when this job keeps it.
    fn finish(&mut self, reason: Option<String>) -> Arc<Knee> {
        self.probe = None;
        let mut knee = Knee {
            request: self.request.clone(),
            low: self.low,
            knee: None,
            not_found: None,
            probes: self.started,
            cycles: self.cycles,
        };
        match (reason, self.low, self.below, self.above) {
            (Some(reason), ..) => knee.not_found = Some(reason),
            (None, Some(low), Some(below), None) => {
                knee.not_found = Some(format!(
                    "the mean latency stays below {KNEE_FACTOR} × L0 = {:.1} cycles up to load {:.3} ({:.1} % of capacity), the highest probed",
                    KNEE_FACTOR * low.latency,
                    below.load,
                    100.0 * below.load_fraction
                ))
            }
            (None, Some(low), Some(below), Some(above)) if above.saturated => {
                knee.not_found = Some(format!(
                    "the network saturates between loads {:.3} and {:.3} before the mean latency doubles (it reaches {:.1} cycles at load {:.3}, L0 = {:.1})",
                    below.load, above.point.load, below.latency, below.load, low.latency
                ))
            }
            (None, Some(low), Some(below), Some(above)) => {
                let (a, b) = (below, above.point);
                let target = KNEE_FACTOR * low.latency;
                let f = if b.latency > a.latency {
                    ((target - a.latency) / (b.latency - a.latency)).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                let at = |x: f64, y: f64| x + f * (y - x);
                knee.knee = Some(KneePoint {
                    load: at(a.load, b.load),
                    load_fraction: at(a.load_fraction, b.load_fraction),
                    latency: at(a.latency, b.latency),
                    network_latency: at(a.network_latency, b.network_latency),
                });
            }
            _ => knee.not_found = Some("no probe ran".into()),
        }
        let knee = Arc::new(knee);
        if self.keep {
            // Kept unless a lookup of the same key kept its own (the same
            // knee: the measurement is deterministic).
            cell(&self.setup, &self.request).get_or_init(|| knee.clone());
        }
        self.result = Some(knee.clone());
        knee
    }
}

impl Simulation {
    /// Build `spec` for this run and swap it in
    /// ([`Simulation::set_routing`]). Its router-dependent defaults (DRB's
    /// τ and tolerance without `tau=`) are read on this run's network,
    /// switch model, router and arrival process ([`knee_for`]: the kept
    /// knee, or measured now); a swap the run refuses anyway measures
    /// nothing. (It lives here, not beside `set_routing`, because it runs
    /// simulations of its own.)
    pub fn swap_routing(&mut self, spec: &RoutingSpec) -> Result<(), String> {
        let routing = match spec.knee_request(self.network()) {
            None => self.routing_for_swap(spec)?,
            Some(request) => {
                let setup = KneeSetup::of_run(self);
                if cached(&setup, &request).is_none() {
                    self.routing_for_swap(spec)?;
                }
                let knee = knee_for(&setup, &request);
                self.routing_for_swap(&spec.with_knee(&knee))?
            }
        };
        self.set_routing(routing)
    }

    /// The measurement a swap to `spec` would make first: `None` when it
    /// reads no knee, its knee is kept, or the run refuses the swap anyway
    /// (the app measures it a frame at a time before it swaps).
    pub fn swap_knee_job(&self, spec: &RoutingSpec) -> Option<KneeJob> {
        let request = spec.knee_request(self.network())?;
        let setup = KneeSetup::of_run(self);
        if cached(&setup, &request).is_some() || self.routing_for_swap(spec).is_err() {
            return None;
        }
        Some(KneeJob::new(setup, request))
    }
}
