//! The oblivious-routing panel (issue 11): Singh's exact channel-load
//! analysis of an oblivious routing on a torus or mesh
//! ([`crate::analysis`]), shown beside the simulation of the same run so a
//! student sees analysis and simulation agree, or sees where they do not.
//!
//! What it holds (this file: the panel's state, [`ObliviousAnalysis`] with
//! its [`Context`], and the small helpers mapping routings to the analysis
//! and their VC needs; no drawing):
//! - **Expected channel load** (Singh's thesis §2.2, the channel load
//!   γ_c = Σ_sd λ_sd·w_c(s,d)) of the routing analysed under run A's own
//!   traffic matrix, scaled to the run's offered load L: L·γ_c flits per
//!   cycle, the unit of the simulator's channel utilization, so both share
//!   one colour scale ([`shared_scale`]). The matrix is built from the very
//!   pattern the run draws from ([`Scenario::pattern_on`]): the scenario's
//!   `uniform` is therefore the simulator's uniform (the analysis's
//!   `uniform-other`, no self traffic), `worst` its routing's worst case.
//!   The expected load holds below saturation (L at most the ideal
//!   throughput, [`Expected::ideal_load`]). In `expected`: [`Expected`],
//!   its cache key and the job computing it ([`ExpectedJob`]).
//! - **A source and a destination** ([`PairInfo`]): §3.2's quadrant
//!   probabilities and the boxes the intermediate node q is drawn from, the
//!   law of q over the switches, a few paths sampled from the simulator's
//!   own routing, and the pair's expected crossings w_c(s,d) per channel.
//!   In `pair`.
//! - **The `--compare` table** ([`CompareTable`], §2.2's ideal, worst-case
//!   and average-case throughput) computed a cell at a time. In `compare`,
//!   over the time-sliced sums of `loads`.
//! - **Latency against offered load per routing**, the app's load sweep
//!   ([`SweepRunner`]) run for every routing, each with its analysed ideal
//!   throughput (as offered load: ideal × Θ) marked. Started from this
//!   file.
//! - **Drawing**: `panel` draws the panel; `central` gives the views the
//!   central area shows beside the runs ([`CentralViews`]).
//!
//! Slow work (the traffic matrix of a `worst` pattern, the channel weights,
//! the worst case and average of the table) runs on a thread natively and
//! in frame-sized steps on the web ([`Background`], in `background`);
//! results are cached by (topology, traffic, routing), so changing the
//! offered load or flipping between routings already seen costs nothing.

mod background;
mod central;
mod compare;
mod expected;
mod loads;
mod pair;
mod panel;
mod spec;

pub use background::{Background, Job};
pub use central::CentralViews;
pub use compare::{COLUMNS, CompareJob, CompareRow, CompareTable, value};
pub use expected::{Expected, ExpectedJob, ExpectedKey, shared_scale};
pub use loads::{AverageSum, LoadSum, Loads, SLICE};
pub use pair::{MAX_SAMPLES, PairInfo, QuadrantView, SampledPath, sample_paths};
pub use spec::{analysed_routing, spec_of};

use super::network_view::Selected;
use super::sweep::{SweepJob, SweepSettings};
use super::sweep_runner::SweepRunner;
use crate::analysis::{Cube, DEFAULT_SAMPLES, Law};
use crate::routing::RoutingSpec;
use crate::scenario::Scenario;
use crate::sim::{Simulation, SwitchModelKind};
use crate::topology::{Network, SwitchId};
use pair::PairKey;
use std::collections::HashMap;
use std::sync::Arc;
use web_time::Duration;

/// Milliseconds of frame-stepped analysis per frame (the web build).
pub const FRAME_BUDGET_MS: u64 = 8;
/// Most nodes on which the web build computes the table's worst case and
/// average (each a single step; beyond this one step can outlast a frame
/// by far).
pub const WEB_HEAVY_MAX_NODES: usize = 64;
/// Cached expected loads kept before the ones of other networks and
/// traffic are dropped.
const CACHE_LIMIT: usize = 48;

/// Why the analysis does not apply to `net`, in a sentence for the panel;
/// `None` when it does (a torus or mesh with one host per switch, within
/// the analysis's size limits).
pub fn unavailable(net: &Network) -> Option<String> {
    Cube::from_network(net).err().map(|e| {
        format!(
            "The exact channel-load analysis (Singh's thesis §2.2) covers k-ary n-cubes: tori and meshes with one host per switch. Here: {e}. Load a ring or torus preset (Presets > Oblivious routing) to use this panel."
        )
    })
}

/// Each compared routing's fewest virtual channels on `net` in the
/// simulator (one per VC class: phase × dimension-order segment × dateline
/// side, `routing/oblivious.rs`), or why it does not run there.
pub fn vc_needs(net: &Network) -> Vec<(Law, Result<u8, String>)> {
    Law::compared()
        .iter()
        .map(|r| {
            let need = spec_of(r)
                .parse::<RoutingSpec>()
                .map_err(|e| e.to_string())
                .and_then(|s| {
                    s.applies_to(net).map_err(|e| e.problem)?;
                    Ok(s.min_vcs(net).max(1))
                });
            (r.clone(), need)
        })
        .collect()
}

/// A plain explanation when routing `spec` needs more virtual channels on
/// `net` than the run's `vcs` (what a refused live swap should say).
pub fn vc_hint(spec: &str, net: &Network, vcs: u8) -> Option<String> {
    let s: RoutingSpec = spec.parse().ok()?;
    s.applies_to(net).ok()?;
    let need = s.min_vcs(net).max(1);
    (need > vcs).then(|| {
        format!(
            "{s} needs {need} virtual channels on {} (one per VC class it climbs through to stay deadlock-free: phase, dimension-order segment and dateline side); the run has {vcs}. Set Virtual channels to {need} in the scenario and Apply (the run restarts at cycle 0), or load a preset of the Oblivious routing group.",
            net.spec()
        )
    })
}

/// What the panel analyses this frame: run A's network, traffic and load.
#[derive(Clone, Debug)]
pub struct Context {
    pub topology: String,
    /// Why the analysis does not apply here (then nothing else is set).
    pub unavailable: Option<String>,
    /// The routing analysed (None: run A's routing is not one the analysis
    /// knows and none was chosen).
    pub routing: Option<Law>,
    /// Run A's current routing (the simulator's name).
    pub run_routing: String,
    /// Whether the routing analysed is run A's (so the views compare like
    /// with like).
    pub same_as_run: bool,
    pub traffic: String,
    /// Offered load, flits per host per cycle.
    pub load: f64,
    /// The run's virtual channels.
    pub vcs: u8,
    key: Option<ExpectedKey>,
}

/// The panel's state.
pub struct ObliviousAnalysis {
    pub open: bool,
    /// The routing analysed; `None` follows run A's routing.
    pub routing: Option<Law>,
    /// Show the expected load beside the simulation in the central view.
    pub show_expected: bool,
    /// Colour the analysis view by the picked pair's w_c(s,d) instead.
    pub show_pair_load: bool,
    /// Clicking a switch in a network view picks the source, then the
    /// destination.
    pub picking: bool,
    pub source: Option<SwitchId>,
    pub destination: Option<SwitchId>,
    /// Paths sampled for the pair.
    pub samples: usize,
    pub sample_seed: u64,
    /// Shade only this quadrant's box (None: the law of q over all).
    pub quadrant: Option<usize>,
    /// The per-routing latency sweep's loads and cycles.
    pub sweep_settings: SweepSettings,
    /// Run the per-routing sweep with output-queued switches (only the
    /// channels limit throughput, as in the analysis).
    pub sweep_output_queued: bool,
    pub sweep: SweepRunner,
    /// The scenario the sweep was started from.
    pub sweep_scenario: Option<Scenario>,
    /// Routings left out of the sweep, and why.
    pub sweep_skipped: Vec<String>,
    context: Option<Context>,
    cache: HashMap<ExpectedKey, Result<Arc<Expected>, String>>,
    jobs: Vec<(Vec<ExpectedKey>, Background<ExpectedJob>)>,
    compare: Option<Background<CompareJob>>,
    /// Topology whose table computation was cancelled (not restarted by
    /// itself).
    compare_cancelled: Option<String>,
    pair: Option<(PairKey, Arc<PairInfo>)>,
    /// (topology, why not) of the last network checked.
    checked: Option<(String, Option<String>)>,
}

impl Default for ObliviousAnalysis {
    fn default() -> Self {
        ObliviousAnalysis {
            open: false,
            routing: None,
            show_expected: true,
            show_pair_load: false,
            picking: true,
            source: None,
            destination: None,
            samples: 4,
            sample_seed: 1,
            quadrant: None,
            sweep_settings: SweepSettings {
                load_from: 0.05,
                load_to: 0.6,
                load_step: 0.05,
                cycles: 2000,
                // Every load: the curves run past each routing's mark.
                stop_at_saturation: false,
            },
            sweep_output_queued: true,
            sweep: SweepRunner::Idle,
            sweep_scenario: None,
            sweep_skipped: Vec::new(),
            context: None,
            cache: HashMap::new(),
            jobs: Vec::new(),
            compare: None,
            compare_cancelled: None,
            pair: None,
            checked: None,
        }
    }
}

impl ObliviousAnalysis {
    /// Once a frame: follow run A (its network, routing, traffic and
    /// load), start what the open panel needs and collect what finished.
    /// Returns whether work is under way (the app then asks for another
    /// frame).
    pub fn tick(&mut self, scenario: &Scenario, sim: &Simulation) -> bool {
        self.poll();
        self.sweep.tick();
        if !self.open {
            return self.is_busy();
        }
        let net = sim.network();
        let spec = net.spec().to_string();
        if self.checked.as_ref().is_none_or(|c| c.0 != spec) {
            self.checked = Some((spec.clone(), unavailable(net)));
            if let (Some(s), Some(d)) = (self.source, self.destination)
                && (s as usize >= net.num_switches() || d as usize >= net.num_switches())
            {
                self.source = None;
                self.destination = None;
            }
        }
        let why_not = self.checked.as_ref().and_then(|c| c.1.clone());
        let run_routing = sim.routing_name();
        let run_analysed = analysed_routing(&run_routing);
        let routing = self.routing.clone().or_else(|| run_analysed.clone());
        let key = match (&why_not, &routing) {
            (None, Some(r)) => Some(ExpectedKey::new(scenario, net, r)),
            _ => None,
        };
        if let (Some(k), Some(r)) = (&key, &routing)
            && !self.cache.contains_key(k)
        {
            self.ensure(scenario, net, std::slice::from_ref(r));
        }
        if why_not.is_none() {
            self.ensure_sweep_marks(scenario, net);
        }
        self.context = Some(Context {
            topology: spec,
            unavailable: why_not,
            same_as_run: routing.is_some() && routing == run_analysed,
            routing,
            run_routing,
            traffic: scenario.traffic.clone(),
            load: scenario.load,
            vcs: scenario.vcs,
            key,
        });
        self.update_pair();
        self.is_busy()
    }

    /// True while an analysis, the table or the sweep works.
    pub fn is_busy(&self) -> bool {
        !self.jobs.is_empty()
            || self.compare.as_ref().is_some_and(|c| c.is_running())
            || self.sweep.is_running()
    }

    /// This frame's context (after [`Self::tick`]).
    pub fn context(&self) -> Option<&Context> {
        self.context.as_ref()
    }

    /// The expected load of the routing analysed, when computed (or why it
    /// cannot be).
    pub fn expected(&self) -> Option<&Result<Arc<Expected>, String>> {
        let k = self.context.as_ref()?.key.as_ref()?;
        self.cache.get(k)
    }

    /// The expected load of `routing` under the current run's traffic, if
    /// computed.
    pub fn expected_of(&self, routing: &Law) -> Option<&Arc<Expected>> {
        let k = self.context.as_ref()?.key.as_ref()?;
        let key = ExpectedKey {
            routing: spec_of(routing),
            ..k.clone()
        };
        self.cache.get(&key)?.as_ref().ok()
    }

    /// Number of cached expected loads (tests).
    pub fn cached(&self) -> usize {
        self.cache.len()
    }

    /// Number of expected-load computations under way (tests).
    pub fn jobs_running(&self) -> usize {
        self.jobs.len()
    }

    /// Start computing the expected loads of `routings` under `scenario`'s
    /// traffic on `net`, except those cached or already under way.
    pub fn ensure(&mut self, scenario: &Scenario, net: &Arc<Network>, routings: &[Law]) {
        let missing: Vec<(ExpectedKey, Law)> = routings
            .iter()
            .map(|r| (ExpectedKey::new(scenario, net, r), r.clone()))
            .filter(|(k, _)| {
                !self.cache.contains_key(k) && !self.jobs.iter().any(|(keys, _)| keys.contains(k))
            })
            .collect();
        if missing.is_empty() {
            return;
        }
        let (keys, routings): (Vec<_>, Vec<_>) = missing.into_iter().unzip();
        let job = ExpectedJob::new(scenario, net.clone(), routings);
        self.jobs.push((keys, Background::start(job)));
    }

    /// Collect finished expected loads (and step frame-run jobs).
    fn poll(&mut self) {
        let n = self.jobs.len().max(1) as u64;
        let budget = Duration::from_millis((FRAME_BUDGET_MS / n).max(1));
        let mut done = Vec::new();
        for (i, (keys, job)) in self.jobs.iter_mut().enumerate() {
            job.tick(budget);
            for (k, (_, result)) in keys.iter().zip(job.snapshot()) {
                self.cache.entry(k.clone()).or_insert(result);
            }
            if job.is_finished() {
                done.push(i);
            }
        }
        for i in done.into_iter().rev() {
            self.jobs.remove(i);
        }
        if let Some(c) = &mut self.compare {
            c.tick(Duration::from_millis(FRAME_BUDGET_MS));
        }
        if self.cache.len() > CACHE_LIMIT
            && let Some(k) = self.context.as_ref().and_then(|c| c.key.clone())
        {
            self.cache
                .retain(|c, _| c.topology == k.topology && c.traffic == k.traffic);
        }
    }

    /// Pick from a click in a network view: a clicked switch becomes the
    /// source, the next one the destination, the one after a new source.
    /// The click is taken (the selection cleared) so the details panel
    /// does not open for it.
    pub fn take_pick(&mut self, selected: &mut Option<Selected>) {
        if !(self.open && self.picking) || self.unavailable().is_some() {
            return;
        }
        if let Some(Selected::Switch(s)) = *selected {
            *selected = None;
            if self.source.is_some() && self.destination.is_none() {
                self.destination = Some(s);
            } else {
                self.source = Some(s);
                self.destination = None;
            }
            self.quadrant = None;
        }
    }

    /// Set the pair directly (the panel's fields, tests).
    pub fn set_pair(&mut self, source: SwitchId, destination: SwitchId) {
        self.source = Some(source);
        self.destination = Some(destination);
        self.quadrant = None;
    }

    /// Why the analysis does not apply to the current network.
    pub fn unavailable(&self) -> Option<&str> {
        self.context.as_ref()?.unavailable.as_deref()
    }

    fn update_pair(&mut self) {
        let (Some(s), Some(d)) = (self.source, self.destination) else {
            self.pair = None;
            return;
        };
        let Some(Ok(expected)) = self.expected().cloned() else {
            self.pair = None;
            return;
        };
        let Some(k) = self.context.as_ref().and_then(|c| c.key.clone()) else {
            return;
        };
        let key = PairKey {
            expected: k,
            source: s,
            destination: d,
            samples: self.samples.min(MAX_SAMPLES),
            seed: self.sample_seed,
        };
        if self.pair.as_ref().is_some_and(|(pk, _)| *pk == key) {
            return;
        }
        let n = expected.weights.cube().num_nodes() as u32;
        if s >= n || d >= n {
            self.pair = None;
            return;
        }
        let info = PairInfo::compute(&expected, s, d, key.samples, key.seed);
        self.pair = Some((key, Arc::new(info)));
    }

    /// The picked pair's numbers, when both ends are picked and the
    /// routing's weights are ready.
    pub fn pair(&self) -> Option<&Arc<PairInfo>> {
        self.pair.as_ref().map(|(_, p)| p)
    }

    /// The compare table so far (of the network it was started on).
    pub fn compare_table(&self) -> Option<CompareTable> {
        self.compare.as_ref().map(|c| c.snapshot())
    }

    /// True while the compare table is computed.
    pub fn compare_running(&self) -> bool {
        self.compare.as_ref().is_some_and(|c| c.is_running())
    }

    /// Start the compare table of `net` unless it exists, runs, or was
    /// cancelled on this network. `seed`: the average's permutations.
    pub fn ensure_compare(&mut self, net: &Network, seed: u64) {
        let exists = self
            .compare_table()
            .is_some_and(|t| t.topology == net.spec() && t.seed == seed);
        let cancelled = self.compare_cancelled.as_deref() == Some(net.spec());
        if !exists && !cancelled {
            self.restart_compare(net, seed);
        }
    }

    /// (Re)start the compare table of `net`.
    pub fn restart_compare(&mut self, net: &Network, seed: u64) {
        self.compare_cancelled = None;
        let heavy = cfg!(not(target_arch = "wasm32")) || net.num_switches() <= WEB_HEAVY_MAX_NODES;
        let job = CompareJob::new(net, DEFAULT_SAMPLES, seed, heavy);
        self.compare = Some(Background::start(job));
    }

    /// Stop the compare table, keeping the cells done.
    pub fn cancel_compare(&mut self) {
        if let Some(c) = &mut self.compare {
            if c.is_running() {
                let t = c.snapshot();
                self.compare_cancelled = Some(t.topology);
            }
            c.cancel();
        }
    }

    /// The routings the per-routing sweep runs on `net` with `vcs` virtual
    /// channels (their simulator specs), and the ones it leaves out with why.
    pub fn sweep_routings(net: &Network, vcs: u8) -> (Vec<String>, Vec<String>) {
        let mut run = Vec::new();
        let mut skipped = Vec::new();
        for (r, need) in vc_needs(net) {
            match need {
                Ok(n) if n <= vcs => run.push(spec_of(&r)),
                Ok(n) => skipped.push(format!(
                    "{r}: needs {n} virtual channels, the scenario has {vcs}"
                )),
                Err(e) => skipped.push(format!("{r}: {e}")),
            }
        }
        (run, skipped)
    }

    /// Start the latency sweep of every routing that runs on the scenario.
    pub fn start_sweep(&mut self, scenario: &Scenario, net: &Network) -> Result<(), String> {
        let (routings, skipped) = Self::sweep_routings(net, scenario.vcs);
        if routings.is_empty() {
            return Err(format!("no routing to sweep: {}", skipped.join("; ")));
        }
        let mut s = scenario.clone();
        if self.sweep_output_queued {
            s.switch_model = SwitchModelKind::OUTPUT_QUEUED;
        }
        let job = SweepJob::new(s.clone(), &routings, &self.sweep_settings)?;
        self.sweep = SweepRunner::start(job);
        self.sweep_scenario = Some(s);
        self.sweep_skipped = skipped;
        Ok(())
    }

    /// Compute the analysed throughput of every swept routing (the plot's
    /// marks) when the sweep ran on the current network and traffic.
    fn ensure_sweep_marks(&mut self, scenario: &Scenario, net: &Arc<Network>) {
        let Some(s) = &self.sweep_scenario else {
            return;
        };
        if s.topology != scenario.topology
            || s.traffic != scenario.traffic
            || s.seed != scenario.seed
            || s.routing != scenario.routing
        {
            return;
        }
        let routings: Vec<Law> = Self::sweep_routings(net, s.vcs)
            .0
            .iter()
            .filter_map(|r| r.parse().ok())
            .collect();
        self.ensure(scenario, net, &routings);
    }

    /// Whether the sweep's marks are those of the current run (the sweep
    /// ran on its network and traffic).
    pub fn sweep_matches(&self, scenario: &Scenario) -> bool {
        self.sweep_scenario.as_ref().is_some_and(|s| {
            s.topology == scenario.topology
                && s.traffic == scenario.traffic
                && s.seed == scenario.seed
                && s.routing == scenario.routing
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::DimOrder;
    use crate::routing::{DorLaw, RdorLaw, RlbLaw, RommLaw, TieRule, ValLaw};

    fn law(s: &str) -> Law {
        s.parse().unwrap()
    }
    use crate::analysis::{ChannelWeights, TrafficMatrix, channel_loads};
    use crate::topology::{ChannelId, Endpoint};
    use std::time::Instant;

    fn scenario(topology: &str, routing: &str, traffic: &str, vcs: u8) -> Scenario {
        Scenario {
            topology: topology.into(),
            routing: routing.into(),
            traffic: traffic.into(),
            vcs,
            warmup: 200,
            ..Scenario::default()
        }
    }

    /// Tick until the background work is done.
    fn settle(a: &mut ObliviousAnalysis, s: &Scenario, sim: &Simulation) {
        let start = Instant::now();
        while a.tick(s, sim) {
            assert!(
                start.elapsed().as_secs() < 60,
                "the analysis never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        a.tick(s, sim);
    }

    #[test]
    fn simulator_routings_map_to_the_analysis() {
        let dor = |tie| Some(Law::new(DorLaw { tie }));
        for (spec, want) in [
            ("dor", dor(TieRule::Plus)),
            ("dor:tie=plus", dor(TieRule::Plus)),
            ("dor:tie=parity:classes=balanced", dor(TieRule::Parity)),
            ("min", Some(Law::new(RdorLaw))),
            ("val", Some(Law::new(ValLaw))),
            (
                "romm:order=random",
                Some(Law::new(RommLaw {
                    order: DimOrder::Random,
                })),
            ),
            ("rlbth", Some(Law::new(RlbLaw { threshold: true }))),
            ("updown", None),
            ("minimal", None),
            ("nonsense", None),
        ] {
            assert_eq!(analysed_routing(spec), want, "{spec}");
        }
        // Every analysis spec is also a simulator spec of the same routing.
        for r in Law::compared() {
            assert_eq!(analysed_routing(&spec_of(&r)), Some(r));
        }
    }

    /// Units: the expected load is γ_c × the offered load, in flits per
    /// cycle, with the simulator's uniform (no self traffic) for the
    /// scenario's `uniform`.
    #[test]
    fn expected_load_is_gamma_times_load_with_the_simulators_uniform() {
        let s = Scenario {
            load: 0.25,
            ..scenario("torus:4x4", "dor", "uniform", 2)
        };
        let sim = s.build().unwrap();
        let mut a = ObliviousAnalysis {
            open: true,
            ..Default::default()
        };
        settle(&mut a, &s, &sim);
        let e = a.expected().unwrap().as_ref().unwrap().clone();
        assert_eq!(a.context().unwrap().routing, analysed_routing("dor"));
        let cube = Cube::from_network(sim.network()).unwrap();
        let other =
            TrafficMatrix::build(&"uniform-other".parse().unwrap(), cube.network(), 1).unwrap();
        let w = ChannelWeights::new(
            &cube,
            Law::new(DorLaw {
                tie: Default::default(),
            }),
        )
        .unwrap();
        let l = channel_loads(&w, &other).unwrap();
        let u = e.utilization(s.load);
        for ch in 0..cube.num_channel_slots() as u32 {
            let id = cube.network_channel(ch).unwrap() as usize;
            let want = 0.25 * value(l.load(ch));
            assert!((u[id] - want).abs() < 1e-12, "channel {id}");
        }
        // Hosts inject and eject the offered load.
        let inj = sim.network().injection_channel(0) as usize;
        assert!((u[inj] - 0.25).abs() < 1e-12);
        // The analysis's own uniform (s = d included) loads less.
        let thesis = TrafficMatrix::build(&"uniform".parse().unwrap(), cube.network(), 1).unwrap();
        let t = channel_loads(&w, &thesis).unwrap();
        assert!(value(t.max_channel_load()) < value(e.max_gamma));
        assert_eq!(
            e.ideal_load().unwrap(),
            value(e.ideal.unwrap() * e.capacity)
        );
    }

    #[test]
    fn results_are_cached_by_topology_traffic_and_routing() {
        let s = scenario("torus:4x4", "rlb", "tornado", 8);
        let sim = s.build().unwrap();
        let mut a = ObliviousAnalysis {
            open: true,
            ..Default::default()
        };
        settle(&mut a, &s, &sim);
        assert_eq!(a.cached(), 1);
        // A new load reuses it.
        let faster = Scenario {
            load: 0.9,
            ..s.clone()
        };
        a.tick(&faster, &sim);
        assert_eq!(a.jobs_running(), 0);
        assert_eq!(a.cached(), 1);
        assert_eq!(a.context().unwrap().load, 0.9);
        // Another routing is computed once, then both stay.
        a.routing = Some(law("val"));
        settle(&mut a, &s, &sim);
        assert_eq!(a.cached(), 2);
        a.routing = None;
        a.tick(&s, &sim);
        assert_eq!(a.jobs_running(), 0);
        assert_eq!(a.expected().unwrap().as_ref().unwrap().routing, law("rlb"));
        // Asking twice starts one computation.
        let other = Scenario {
            traffic: "transpose".into(),
            ..s.clone()
        };
        a.ensure(&other, sim.network(), &[law("rdor")]);
        a.ensure(&other, sim.network(), &[law("rdor")]);
        assert_eq!(a.jobs_running(), 1);
        // A closed panel computes nothing new.
        let mut closed = ObliviousAnalysis::default();
        assert!(!closed.tick(&s, &sim));
        assert_eq!(closed.cached(), 0);
    }

    #[test]
    fn other_networks_get_an_explanation() {
        for topo in ["fattree:4", "irregular:16:seed=3", "torus:4x4:hosts=2"] {
            let s = scenario(topo, "minimal", "uniform", 2);
            let sim = s.build().unwrap();
            let mut a = ObliviousAnalysis {
                open: true,
                ..Default::default()
            };
            settle(&mut a, &s, &sim);
            let why = a.unavailable().expect(topo);
            assert!(why.contains("tori and meshes"), "{why}");
            assert!(a.expected().is_none());
            let mut sel = Some(Selected::Switch(0));
            a.take_pick(&mut sel);
            assert_eq!(sel, Some(Selected::Switch(0)), "no picking there");
        }
    }

    /// Singh §3.2's example: RLB on the 8x8 torus from (0,0) to (2,3).
    #[test]
    fn the_thesis_pair_has_its_quadrants_boxes_and_paths() {
        let s = scenario("torus:8x8", "rlb", "uniform", 8);
        let sim = s.build().unwrap();
        let mut a = ObliviousAnalysis {
            open: true,
            samples: 8,
            ..Default::default()
        };
        // Click (0,0) then (2,3) = switch 2 + 8·3.
        let mut sel = Some(Selected::Switch(0));
        settle(&mut a, &s, &sim);
        a.take_pick(&mut sel);
        assert_eq!(sel, None);
        sel = Some(Selected::Switch(26));
        a.take_pick(&mut sel);
        a.tick(&s, &sim);
        let p = a.pair().unwrap().clone();
        assert_eq!(
            (p.source_coords.clone(), p.destination_coords.clone()),
            (vec![0, 0], vec![2, 3])
        );
        let q = p.quadrants.as_ref().unwrap();
        let probs: Vec<String> = q.iter().map(|q| q.probability.to_string()).collect();
        assert_eq!(probs, ["15/32", "9/32", "5/32", "3/32"]);
        assert_eq!(q[0].directions, "(+,+)");
        assert_eq!(q[0].switches.len(), 3 * 4);
        assert_eq!(q[3].switches.len(), 7 * 6);
        let total: f64 = p.intermediate.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        // Each sample leaves s, passes its q and ends at d.
        let net = sim.network();
        assert_eq!(p.samples.len(), 8);
        for path in &p.samples {
            let q = path.intermediate.unwrap();
            assert!(p.intermediate[q as usize] > 0.0);
            let dst = |c: ChannelId| match net.channel(c).dst {
                Endpoint::Switch { switch, .. } => switch,
                Endpoint::Host { .. } => u32::MAX,
            };
            let visited: Vec<SwitchId> = path.channels.iter().map(|&c| dst(c)).collect();
            assert_eq!(*visited.last().unwrap(), 26);
            assert!(q == 0 || visited.contains(&q), "{visited:?} misses q {q}");
        }
        // w_c(s,d) sums to the expected hops.
        let hops: f64 = p.loaded_channels().iter().map(|c| c.1).sum();
        assert!((hops - p.expected_hops).abs() < 1e-9 && hops >= 5.0);
        // A third click starts a new pair.
        sel = Some(Selected::Switch(9));
        a.take_pick(&mut sel);
        assert_eq!((a.source, a.destination), (Some(9), None));
        a.tick(&s, &sim);
        assert!(a.pair().is_none());
    }

    #[test]
    fn one_phase_routings_have_no_box_and_val_the_whole_torus() {
        let s = scenario("torus:4x4", "val", "uniform", 8);
        let sim = s.build().unwrap();
        let mut a = ObliviousAnalysis {
            open: true,
            ..Default::default()
        };
        a.set_pair(0, 5);
        settle(&mut a, &s, &sim);
        let p = a.pair().unwrap().clone();
        assert!(p.quadrants.as_ref().unwrap_err().contains("whole torus"));
        assert!(
            p.intermediate
                .iter()
                .all(|&x| (x - 1.0 / 16.0).abs() < 1e-12)
        );
        a.routing = Some(law("rdor"));
        settle(&mut a, &s, &sim);
        let p = a.pair().unwrap().clone();
        assert!(p.quadrants.as_ref().unwrap_err().contains("one phase"));
        assert!(p.intermediate.is_empty());
        assert!(
            p.samples
                .iter()
                .all(|x| x.intermediate.is_none() && x.channels.len() == 2)
        );
    }

    #[test]
    fn too_few_vcs_are_explained() {
        let net = Network::from_spec("torus:8x8").unwrap();
        let hint = vc_hint("rlb", &net, 2).unwrap();
        assert!(hint.contains("needs 8 virtual channels"), "{hint}");
        assert!(vc_hint("rlb", &net, 8).is_none());
        assert!(vc_hint("dor", &net, 2).is_none());
        let needs = vc_needs(&net);
        let need = |r: &str| needs.iter().find(|n| spec_of(&n.0) == r).unwrap().1.clone();
        assert_eq!(need("rlb"), Ok(8));
        assert_eq!(need("rdor"), Ok(4));
        assert_eq!(need("dor:tie=plus"), Ok(2));
        let mesh = Network::from_spec("mesh:4x4").unwrap();
        assert!(vc_needs(&mesh).iter().any(|n| n.1.is_err()));
        let (run, skipped) = ObliviousAnalysis::sweep_routings(&net, 4);
        assert_eq!(run, ["dor:tie=plus", "rdor", "romm:order=xy"]);
        assert_eq!(skipped.len(), 3);
    }

    /// The point of the panel: below saturation the simulated utilization
    /// is the expected load (the 8-ring under tornado, RLB).
    #[test]
    fn simulation_agrees_with_the_expected_load_below_saturation() {
        let s = Scenario {
            load: 0.3,
            cycles: 200_000,
            ..scenario("torus:8", "rlb", "tornado", 4)
        };
        let mut sim = s.build().unwrap();
        // Long enough for the Bernoulli noise to fall to about 1 %.
        sim.run_for(200_000).unwrap();
        let mut a = ObliviousAnalysis {
            open: true,
            ..Default::default()
        };
        settle(&mut a, &s, &sim);
        let e = a.expected().unwrap().as_ref().unwrap();
        let want = e.utilization(s.load);
        let got = sim.channel_utilization();
        for c in 0..sim.network().num_network_channels() {
            assert!(
                (got[c] - want[c]).abs() < 0.02,
                "channel {c}: simulated {} expected {}",
                got[c],
                want[c]
            );
        }
    }
}
