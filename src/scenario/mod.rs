//! One serde type holds everything about an experiment: [`Scenario`].
//!
//! JSON files load field by field, so a file with several mistakes gets one
//! message per mistake, each naming the field and the accepted values.

pub mod worst;

use crate::rng::{Stream, stream};
use crate::routing::{RoutingSpec, Selection};
use crate::sim::knee::{self, KneeJob, KneeSetup};
use crate::sim::{
    MeasureConfig, PortPriority, RouterConfig, Simulation, SwitchModelKind, Switching,
    TrafficConfig,
};
use crate::topology::fat_tree_params::{SwitchOverride, apply_overrides};
use crate::topology::{Network, TopologySpec};
use crate::traffic::{Pattern, PatternSpec, Process};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything about one experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Short title (shown in menus).
    pub name: String,
    /// One line on what to look for.
    pub description: String,
    /// Topology spec, e.g. `torus:8x8` ([`TopologySpec`]).
    pub topology: String,
    /// Routing spec, e.g. `dor` ([`RoutingSpec`]).
    pub routing: String,
    /// Traffic pattern, e.g. `uniform` ([`PatternSpec`]).
    pub traffic: String,
    /// Inter-arrival process.
    pub process: Process,
    /// Offered load, flits per host per cycle, 0..=1.
    pub load: f64,
    /// Which switch model moves the packets, by its name in the registry
    /// ([`crate::sim::MODELS`]): `input-queued` (the default),
    /// `output-queued` or `timeslice`.
    pub switch_model: SwitchModelKind,
    pub packet_flits: u16,
    pub switching: Switching,
    pub vcs: u8,
    pub buffer_flits: u16,
    pub link_latency: u16,
    pub switch_delay: u16,
    pub selection: Selection,
    /// Which input port comes first in VC allocation: `rotating`,
    /// `random` or `oldest` ([`PortPriority`]).
    pub port_priority: PortPriority,
    /// Cycles measured after the warm-up.
    pub cycles: u64,
    pub warmup: u64,
    pub seed: u64,
    pub watchdog_cycles: u64,
    pub window_cycles: u64,
    /// Gather per-pair statistics and the DRB paper's metrics
    /// ([`MeasureConfig::pair_stats`]); written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pair_stats: bool,
    /// Reallocate a VC only into an empty buffer
    /// ([`RouterConfig::wait_for_tail_credit`]); written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wait_for_tail_credit: bool,
    /// Time-slice model: R, the slices a request may wait for room at its
    /// access switch before it fails (0: its begin slice).
    pub admit_slices: u64,
    /// Time-slice model: D, the slices within which a request must be
    /// delivered (latency < D).
    pub deadline_slices: u64,
    /// Time-slice model: switches set one by one, over the topology's own
    /// (e.g. `[{"switch": 9, "buffer": 1000, "bw_out": 20}]`).
    pub switches: Vec<SwitchOverride>,
    /// The routing this scenario is contrasted with in its paper (DOR
    /// against DRB, step 1 against step 7, DOR against RLB): the app's C
    /// key compares run A against it. The simulation does not read it;
    /// written only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_with: Option<String>,
}

/// Fields a scenario file may hold that its JSON omits at their default.
const OPTIONAL_FIELDS: &[&str] = &["pair_stats", "wait_for_tail_credit", "compare_with"];

impl Default for Scenario {
    fn default() -> Self {
        let c = RouterConfig::default();
        let m = MeasureConfig::default();
        Scenario {
            name: String::new(),
            description: String::new(),
            topology: "torus:8x8".into(),
            routing: "minimal".into(),
            traffic: "uniform".into(),
            process: Process::Bernoulli,
            load: 0.3,
            switch_model: SwitchModelKind::INPUT_QUEUED,
            packet_flits: c.packet_flits,
            switching: c.switching,
            vcs: c.vcs,
            buffer_flits: c.buffer_flits,
            link_latency: c.link_latency,
            switch_delay: c.switch_delay,
            selection: c.selection,
            port_priority: c.port_priority,
            cycles: 10_000,
            warmup: m.warmup,
            seed: 1,
            watchdog_cycles: m.watchdog_cycles,
            window_cycles: m.window_cycles,
            pair_stats: false,
            wait_for_tail_credit: false,
            admit_slices: m.admit_slices,
            deadline_slices: m.deadline_slices,
            switches: Vec::new(),
            compare_with: None,
        }
    }
}

/// Most cycles a scenario may ask for ([`crate::limits::MAX_CYCLES`]).
pub const MAX_CYCLES: u64 = crate::limits::MAX_CYCLES;

/// A scenario that cannot run: every problem found, one per entry.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[error("{}", problems.join("\n"))]
pub struct ScenarioError {
    pub problems: Vec<String>,
}

impl ScenarioError {
    pub fn one(p: impl Into<String>) -> Self {
        ScenarioError {
            problems: vec![p.into()],
        }
    }
}

/// The parts a scenario builds before it runs.
pub struct Built {
    pub network: Arc<Network>,
    /// The routing spec, its router-dependent defaults read on this
    /// scenario's router (DRB's τ from the knee: [`crate::sim::knee`]).
    pub routing: RoutingSpec,
    /// The traffic pattern instantiated on the network.
    pub pattern: Pattern,
    /// The routing built for the network (its tables: a path selection
    /// takes seconds on 64 switches), kept so that [`Scenario::build`]
    /// does not build it a second time.
    pub tables: Box<dyn crate::routing::Routing>,
}

impl Scenario {
    /// Parse JSON, reporting every bad field (not just the first).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ScenarioError::one(format!("not valid JSON: {e}")))?;
        let serde_json::Value::Object(map) = value else {
            return Err(ScenarioError::one(
                "a scenario is a JSON object like {\"topology\": \"torus:8x8\", ...}",
            ));
        };
        let defaults = serde_json::to_value(Scenario::default()).unwrap_or_default();
        let known: Vec<String> = defaults
            .as_object()
            .map(|m| m.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain(OPTIONAL_FIELDS.iter().map(|f| f.to_string()))
            .collect();
        let mut problems = Vec::new();
        let mut merged = defaults.as_object().cloned().unwrap_or_default();
        for (k, v) in map {
            if !known.contains(&k) {
                problems.push(format!(
                    "unknown field `{k}`; accepted fields: {}",
                    known.join(", ")
                ));
                continue;
            }
            // Check this field alone against the type of its default.
            let mut probe = defaults.as_object().cloned().unwrap_or_default();
            probe.insert(k.clone(), v.clone());
            match serde_json::from_value::<Scenario>(serde_json::Value::Object(probe)) {
                Ok(_) => {
                    merged.insert(k, v);
                }
                Err(e) => problems.push(format!("field `{k}`: {}", field_hint(&k, &e))),
            }
        }
        if !problems.is_empty() {
            return Err(ScenarioError { problems });
        }
        serde_json::from_value(serde_json::Value::Object(merged))
            .map_err(|e| ScenarioError::one(e.to_string()))
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The router's parameters.
    pub fn router_config(&self) -> RouterConfig {
        RouterConfig {
            switching: self.switching,
            vcs: self.vcs,
            buffer_flits: self.buffer_flits,
            packet_flits: self.packet_flits,
            link_latency: self.link_latency,
            switch_delay: self.switch_delay,
            selection: self.selection,
            port_priority: self.port_priority,
            wait_for_tail_credit: self.wait_for_tail_credit,
        }
    }

    /// The measurement's parameters.
    pub fn measure_config(&self) -> MeasureConfig {
        MeasureConfig {
            warmup: self.warmup,
            watchdog_cycles: self.watchdog_cycles,
            window_cycles: self.window_cycles,
            pair_stats: self.pair_stats,
            admit_slices: self.admit_slices,
            deadline_slices: self.deadline_slices,
        }
    }

    /// Check everything that can be checked without building: every problem.
    pub fn problems(&self) -> Vec<String> {
        let mut p = self.router_config().problems();
        p.extend(self.measure_config().problems());
        match self.topology.parse::<TopologySpec>() {
            Err(e) => p.push(e.to_string()),
            Ok(spec) => {
                if let Some(m) = spec.size().and_then(|size| self.state_problem(&size)) {
                    p.push(format!("topology `{}`: {m}", self.topology));
                }
            }
        }
        if let Err(e) = self.routing.parse::<RoutingSpec>() {
            p.push(e.to_string());
        }
        if let Some(Err(e)) = self.compare_with.as_ref().map(|c| c.parse::<RoutingSpec>()) {
            // Named like the other fields' problems (`field `k`: ...`).
            p.push(format!("field `compare_with`: {e}"));
        }
        match worst::check(&self.traffic, &self.routing) {
            Some(Err(e)) => p.push(e),
            Some(Ok(())) => {}
            None => {
                if let Err(e) = self.traffic.parse::<PatternSpec>() {
                    p.push(e.to_string());
                }
            }
        }
        let unit = self.switch_model.unit();
        if !(0.0..=unit.max_load).contains(&self.load) || self.load.is_nan() {
            p.push(format!(
                "load = {}; accepted 0..={} {}",
                self.load, unit.max_load, unit.load
            ));
        }
        if !self.switches.is_empty() && !self.switch_model.entry().per_switch_params {
            let takers: Vec<&str> = crate::sim::MODELS
                .iter()
                .filter(|m| m.entry().per_switch_params)
                .map(|m| m.as_str())
                .collect();
            p.push(format!(
                "switches: per-switch parameters are for switch_model = {}",
                takers.join(" or ")
            ));
        }
        if self.cycles == 0 || self.cycles > MAX_CYCLES {
            p.push(format!(
                "cycles = {}; accepted 1..={MAX_CYCLES}",
                self.cycles
            ));
        }
        // Nothing moves for up to a link and switch traversal plus a
        // credit's return without being stuck; a shorter watchdog period
        // would call flits still on their way a deadlock.
        let quiet = 2 * (self.link_latency as u64 + self.switch_delay as u64) + 2;
        if self.watchdog_cycles > 0 && self.watchdog_cycles < quiet {
            p.push(format!(
                "watchdog_cycles = {}; accepted {quiet} or more with link_latency = {} and switch_delay = {} (2 x (link_latency + switch_delay) + 2: a shorter period calls flits still on a link a deadlock)",
                self.watchdog_cycles, self.link_latency, self.switch_delay
            ));
        }
        if self.warmup > MAX_CYCLES {
            p.push(format!(
                "warmup = {}; accepted 0..={MAX_CYCLES}",
                self.warmup
            ));
        }
        p
    }

    /// The simulation state a network of `size` would need with this
    /// scenario's router, when over [`crate::limits::MAX_STATE_BYTES`].
    fn state_problem(&self, size: &crate::limits::NetworkSize) -> Option<String> {
        if !crate::limits::VCS.contains(&self.vcs)
            || !crate::limits::BUFFER_FLITS.contains(&self.buffer_flits)
        {
            return None; // reported on their own
        }
        crate::limits::simulation_problem(
            size,
            crate::limits::StateParams {
                vcs: self.vcs as u64,
                buffer_flits: self.buffer_flits as u64,
            },
        )
    }

    /// Build the network and check routing and traffic against it. A
    /// routing with router-dependent defaults (DRB without `tau=`) gets
    /// them read on this scenario's network, switch model, router and
    /// arrival process ([`crate::sim::knee`]: the kept knee, or measured
    /// now, once the scenario has passed every other check).
    pub fn prepare(&self) -> Result<Built, ScenarioError> {
        let mut built = self.prepare_as_given()?;
        if built.routing.knee_request(&built.network).is_some() {
            built.routing = knee::resolve(&built.routing, &self.knee_setup(&built.network));
            built.tables =
                Simulation::build_routing(&built.routing, &built.network, self.vcs).map_err(one)?;
        }
        Ok(built)
    }

    /// The network, as this scenario builds it (its per-switch overrides
    /// applied), checked against the state limits.
    fn network(&self) -> Result<Arc<Network>, ScenarioError> {
        let topo: TopologySpec = self.topology.parse().map_err(one)?;
        let mut network = topo.build().map_err(one)?;
        apply_overrides(&mut network, &self.switches)
            .map_err(|problems| ScenarioError { problems })?;
        let network = Arc::new(network);
        // A file's size is known only now.
        if let Some(m) = self.state_problem(&network_size(&network)) {
            return Err(ScenarioError::one(format!(
                "topology `{}`: {m}",
                self.topology
            )));
        }
        Ok(network)
    }

    /// What a knee is read on for this scenario on `network`: its switch
    /// model, router and arrival process.
    pub fn knee_setup(&self, network: &Arc<Network>) -> KneeSetup {
        KneeSetup::new(
            network.clone(),
            self.switch_model,
            self.router_config(),
            self.process,
        )
    }

    /// The measurement this scenario with `routing` (a spec; the
    /// scenario's own routing does not matter) would make before it
    /// builds: `None` when the routing reads no knee, its knee is kept, or
    /// the scenario does not build anyway. The app runs it a frame at a
    /// time before it applies the scenario.
    pub fn knee_job(&self, routing: &str) -> Option<KneeJob> {
        let spec: RoutingSpec = routing.parse().ok()?;
        let network = self.network().ok()?;
        let request = spec.knee_request(&network)?;
        let setup = self.knee_setup(&network);
        if knee::cached(&setup, &request).is_some() {
            return None;
        }
        Scenario {
            routing: routing.to_string(),
            ..self.clone()
        }
        .prepare_as_given()
        .ok()?;
        Some(KneeJob::new(setup, request))
    }

    /// [`Scenario::prepare`] with the routing's defaults as the spec has
    /// them (no knee read).
    fn prepare_as_given(&self) -> Result<Built, ScenarioError> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(ScenarioError { problems });
        }
        let routing: RoutingSpec = self.routing.parse().map_err(one)?;
        let network = self.network()?;
        let mut problems = Vec::new();
        if let Err(e) = self.switch_model.check(&network, &routing) {
            problems.push(e);
        }
        let tables = match Simulation::build_routing(&routing, &network, self.vcs) {
            Ok(t) => Some(t),
            Err(e) => {
                problems.push(e.to_string());
                None
            }
        };
        if let Some(p) = self.router_config().routing_problem(&routing) {
            problems.push(p);
        }
        let pattern = self.pattern_on(&network);
        if let Err(e) = &pattern {
            problems.push(e.to_string());
        }
        match (pattern, tables) {
            (Ok(pattern), Some(tables)) if problems.is_empty() => Ok(Built {
                network,
                routing,
                pattern,
                tables,
            }),
            _ => Err(ScenarioError { problems }),
        }
    }

    /// The traffic pattern instantiated on `network`. Its own draws
    /// (randperm) come from a stream of their own, so the traffic stream
    /// proper starts identically for every routing.
    pub fn pattern_on(&self, network: &Network) -> Result<Pattern, ScenarioError> {
        if let Some(p) = worst::pattern(&self.traffic, &self.routing, network) {
            return p.map_err(ScenarioError::one);
        }
        let spec: PatternSpec = self.traffic.parse().map_err(one)?;
        let mut rng = stream(self.seed, Stream::Pattern);
        Pattern::build(&spec, network, &mut rng).map_err(one)
    }

    /// Validate and build a ready-to-step simulation.
    pub fn build(&self) -> Result<Simulation, ScenarioError> {
        self.simulate(self.prepare()?)
    }

    /// The simulation of what [`Scenario::prepare`] returned (its network,
    /// pattern and routing, built once).
    pub fn simulate(&self, built: Built) -> Result<Simulation, ScenarioError> {
        self.simulation(built.network, built.tables, built.pattern)
    }

    /// Build on an existing network (sweeps share one) with a routing
    /// (its router-dependent defaults read on this scenario's router, as
    /// [`Scenario::prepare`] does, when `routing` has not had them yet).
    pub fn build_on(
        &self,
        network: Arc<Network>,
        routing: &RoutingSpec,
    ) -> Result<Simulation, ScenarioError> {
        let pattern = self.pattern_on(&network)?;
        self.build_with(network, routing, pattern)
    }

    /// Build on a network with a routing and an instantiated pattern.
    pub fn build_with(
        &self,
        network: Arc<Network>,
        routing: &RoutingSpec,
        pattern: Pattern,
    ) -> Result<Simulation, ScenarioError> {
        if let Some(p) = self.router_config().routing_problem(routing) {
            return Err(ScenarioError::one(p));
        }
        let resolved;
        let routing = if routing.knee_request(&network).is_some() {
            // Checked as given first: a routing that does not build here
            // reads no knee.
            Simulation::build_routing(routing, &network, self.vcs).map_err(one)?;
            resolved = knee::resolve(routing, &self.knee_setup(&network));
            &resolved
        } else {
            routing
        };
        let routing = Simulation::build_routing(routing, &network, self.vcs).map_err(one)?;
        self.simulation(network, routing, pattern)
    }

    /// The simulation of this scenario with a routing already built.
    fn simulation(
        &self,
        network: Arc<Network>,
        routing: Box<dyn crate::routing::Routing>,
        pattern: Pattern,
    ) -> Result<Simulation, ScenarioError> {
        Simulation::new(
            network,
            self.switch_model,
            routing,
            TrafficConfig {
                pattern,
                process: self.process,
                load: self.load,
            },
            self.router_config(),
            self.measure_config(),
            self.seed,
        )
        .map_err(ScenarioError::one)
    }
}

/// The size of a built network, for the limits.
fn network_size(net: &Network) -> crate::limits::NetworkSize {
    crate::limits::NetworkSize {
        switches: net.num_switches() as u64,
        hosts: net.num_hosts() as u64,
        network_channels: net.num_network_channels() as u64,
        max_ports: (0..net.num_switches() as u32)
            .map(|s| net.ports(s).len() as u64)
            .max()
            .unwrap_or(0),
    }
}

/// The registered switch models, quoted, for `switch_model`'s message:
/// `"input-queued", "output-queued" or "timeslice"`.
fn models_quoted() -> String {
    let names: Vec<String> = crate::sim::MODELS
        .iter()
        .map(|m| format!("\"{m}\""))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

fn one(e: impl std::fmt::Display) -> ScenarioError {
    ScenarioError::one(e.to_string())
}

fn field_hint(field: &str, e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.split(" at line").next().unwrap_or(&msg).to_string();
    let accepted = match field {
        "switching" => "\"saf\", \"vct\" or \"wormhole\"",
        "selection" => "\"fixed\", \"first-free\" or \"adaptive\"",
        "port_priority" => "\"rotating\" or \"random\"",
        "switch_model" => return format!("{msg}; accepted {}", models_quoted()),
        "process" => "\"bernoulli\", \"exponential\" or \"on_off\"",
        "switches" => {
            "a list like [{\"switch\": 9, \"buffer\": 1000, \"bw_in\": 60, \"bw_out\": 20}]"
        }
        "load" => "a number in 0..=1",
        "vcs" => "a whole number 1..=16",
        "packet_flits" | "buffer_flits" => "a whole number 1..=1024",
        "link_latency" | "switch_delay" => "a whole number 1..=64",
        "pair_stats" | "wait_for_tail_credit" => "true or false",
        "cycles" | "warmup" | "seed" | "watchdog_cycles" | "window_cycles" | "admit_slices"
        | "deadline_slices" => "a non-negative whole number",
        _ => "a string",
    };
    format!("{msg}; accepted {accepted}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_field_is_reported() {
        let e = Scenario::from_json(r#"{"vcs": "two", "load": "high", "colour": 1}"#).unwrap_err();
        assert_eq!(e.problems.len(), 3, "{e}");
        assert!(e.problems.iter().any(|p| p.contains("`vcs`")));
        assert!(e.problems.iter().any(|p| p.contains("`load`")));
        assert!(
            e.problems
                .iter()
                .any(|p| p.contains("unknown field `colour`"))
        );
    }

    #[test]
    fn semantic_problems_are_all_listed() {
        let s = Scenario {
            topology: "torus:2x2".into(),
            traffic: "zigzag".into(),
            load: 2.0,
            vcs: 0,
            ..Scenario::default()
        };
        let p = s.problems();
        assert!(p.len() >= 4, "{p:?}");
    }

    #[test]
    fn a_bad_compared_routing_names_its_field() {
        // Found by `fuzz_scenario::scenario_json` (seed 20261129): a
        // topology spec where the compared routing goes.
        let s = Scenario {
            compare_with: Some("torus:8x8".into()),
            ..Scenario::default()
        };
        let p = s.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("field `compare_with`: routing `torus:8x8`: unknown routing `torus`"),
            "{p:?}"
        );
        assert!(p[0].contains("accepted: "), "{p:?}");
    }

    #[test]
    fn json_round_trip() {
        let s = Scenario::default();
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn torus_dor_needs_two_vcs() {
        let s = Scenario {
            vcs: 1,
            ..Scenario::default()
        };
        let e = s.build().err().unwrap().to_string();
        assert!(e.contains("at least 2 virtual channels"), "{e}");
    }
}
