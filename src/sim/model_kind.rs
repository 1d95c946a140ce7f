//! The vocabulary of the switch-model registry ([`super::models`]): a
//! model's entry ([`SwitchModelEntry`]: its names, what it accepts, its
//! load range and unit, the set-up it needs and its builder) and the handle
//! a scenario and a [`super::Simulation`] keep ([`SwitchModelKind`]). Every
//! model file declares its entry with these; the registry lists them, as
//! [`crate::routing::registry`] lists the routings.

use super::config::RouterConfig;
use super::model::SwitchModel;
use crate::routing::RoutingSpec;
use crate::topology::Network;
use std::sync::Arc;

/// What one step of a model is and what load it is offered in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepUnit {
    /// The unit of a step and of latencies, plural: `cycles` or `slices`.
    pub step: &'static str,
    /// One step, capitalised, as a counter reads: `Cycle` or `Slice`.
    pub one: &'static str,
    /// The unit of the offered load, e.g. `flits per host per cycle`.
    pub load: &'static str,
    /// The same, short, for axes: `flits/host/cycle`.
    pub load_short: &'static str,
    /// The largest offered load a scenario may ask for, in that unit.
    pub max_load: f64,
}

/// One step is one clock cycle; loads in flits per host per cycle, 0..=1
/// (the cycle-level models).
pub const CYCLES: StepUnit = StepUnit {
    step: "cycles",
    one: "Cycle",
    load: "flits per host per cycle",
    load_short: "flits/host/cycle",
    max_load: 1.0,
};

/// Builds a model of a network with a router's parameters and a seed.
pub type BuildFn = fn(Arc<Network>, &RouterConfig, u64) -> Result<Box<dyn SwitchModel>, String>;

/// `Ok` when a routing can run on a network under the model, else why not,
/// naming what is accepted.
pub type AcceptsFn = fn(&Network, &RoutingSpec) -> Result<(), String>;

/// One switch model in the registry.
#[derive(Clone, Copy)]
pub struct SwitchModelEntry {
    /// Name as a scenario's `switch_model` and `--switch-model` spell it.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// One line for `--help`, menus and error messages.
    pub summary: &'static str,
    /// Its step, its load unit and the largest load a scenario may offer.
    pub unit: StepUnit,
    /// Which topologies and routings it takes (with the messages).
    pub accepts: AcceptsFn,
    /// The router it runs, from the scenario's: the time-slice model moves
    /// one message per packet and so sets `packet_flits = 1`. Identity
    /// for the others.
    pub router: fn(RouterConfig) -> RouterConfig,
    /// True when requests succeed only within the admission limit R and
    /// the deadline D of [`super::MeasureConfig`] (the engine then counts
    /// them, [`super::Deadlines`]).
    pub deadlines: bool,
    /// True when a scenario may set switches one by one (`switches`).
    pub per_switch_params: bool,
    /// True when the router's parameters (packet size, switching, virtual
    /// channels, buffer depth, selection, port priority) change its
    /// results; false for a model that moves one-flit messages between
    /// switch buffers (the app then does not offer them).
    pub router_params: bool,
    /// Build the model.
    pub build: BuildFn,
}

impl std::fmt::Debug for SwitchModelEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SwitchModelEntry")
            .field("name", &self.name)
            .finish()
    }
}

/// The router unchanged (for [`SwitchModelEntry::router`]).
pub fn same_router(router: RouterConfig) -> RouterConfig {
    router
}

/// Which switch model moves packets between buffers (a scenario's
/// `switch_model`): a handle on its registry entry, compared by name. The
/// registry's models have constants ([`SwitchModelKind::INPUT_QUEUED`],
/// [`SwitchModelKind::OUTPUT_QUEUED`], [`SwitchModelKind::TIME_SLICE`]);
/// [`SwitchModelKind::new`] makes one of any entry, a test's own included.
#[derive(Clone, Copy)]
pub struct SwitchModelKind(&'static SwitchModelEntry);

impl SwitchModelKind {
    /// The handle of `entry`.
    pub const fn new(entry: &'static SwitchModelEntry) -> SwitchModelKind {
        SwitchModelKind(entry)
    }
    /// Its registry entry.
    pub fn entry(&self) -> &'static SwitchModelEntry {
        self.0
    }
    /// Its canonical name, e.g. `input-queued`.
    pub fn as_str(&self) -> &'static str {
        self.0.name
    }
    /// Its step, load unit and load range.
    pub fn unit(&self) -> StepUnit {
        self.0.unit
    }
    /// True when requests count against the admission limit R and the
    /// deadline D ([`SwitchModelEntry::deadlines`]).
    pub fn uses_deadlines(&self) -> bool {
        self.0.deadlines
    }
    /// True when the router's parameters matter
    /// ([`SwitchModelEntry::router_params`]).
    pub fn uses_router_params(&self) -> bool {
        self.0.router_params
    }
    /// `Ok` when `routing` can run on `net` under this model, else why not.
    pub fn check(&self, net: &Network, routing: &RoutingSpec) -> Result<(), String> {
        (self.0.accepts)(net, routing)
    }
}

impl PartialEq for SwitchModelKind {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for SwitchModelKind {}

impl std::hash::Hash for SwitchModelKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl std::fmt::Debug for SwitchModelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SwitchModelKind({})", self.0.name)
    }
}

impl std::fmt::Display for SwitchModelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl serde::Serialize for SwitchModelKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name)
    }
}

/// For cycle-level models: refuse the routings that decide once per time
/// slice (the fat-tree balancers), naming the model that runs them.
pub fn per_cycle_routing(model: &str, routing: &RoutingSpec) -> Result<(), String> {
    if routing.time_slice_only() {
        return Err(format!(
            "routing `{routing}` decides once per time slice from its neighbours' buffer fill and runs only on switch_model = timeslice (on {model} switches use dmodk, minimal or updown)"
        ));
    }
    Ok(())
}
