//! The vocabulary of the routing registry ([`super::registry`]): a
//! routing's entry ([`RoutingKind`]), its parsed and buildable spec
//! ([`RoutingBuild`]), the families `--compare` runs, and what a routing
//! reads of the router in use before it is built ([`KneeRequest`],
//! [`Knee`]: DRB's threshold). Every routing file declares its entry with
//! these; the registry lists them.

use super::law::Law;
use super::path_law::PathLaw;
use super::{Acknowledgement, Routing};
use crate::spec_options::{Options, Spec};
use crate::topology::Network;
use serde::Serialize;
use std::fmt::Debug;
use std::sync::Arc;

/// A group of routings that `--compare` runs together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The topology's own static routings: minimal, DOR, e-cube, up*/down*,
    /// D-mod-k.
    Static,
    /// Static tables chosen by path selection (`paths:LEGAL:SELECT`).
    PathSelection,
    /// Oblivious routings on tori and meshes (Singh's thesis): DOR, RDOR,
    /// VAL, ROMM, RLB, RLBth.
    Oblivious,
    /// Routings that react to the network's state: minimal adaptive routing
    /// on local buffer space (Duato), and DRB on acknowledged latency
    /// between its static and random limits.
    Adaptive,
    /// The fat-tree balancers of the time-slice model: the weighted-path
    /// paper's seven steps and the datacenter baselines (ECMP, D-mod-k,
    /// DRILL).
    FatTree,
}

/// A parsed routing spec that can be checked against a network and built.
/// One implementation per routing, next to the routing itself.
pub trait RoutingBuild: Send + Sync + Debug {
    /// The canonical spec string (what `Display` of [`super::RoutingSpec`]
    /// prints; parsing it gives an equal spec).
    fn canonical(&self) -> String;
    /// The canonical spec of the routing it builds on `net`: its own,
    /// unless on that network it is another spec's routing under another
    /// name (`minimal` is up*/down* on an irregular network; DOR's tie
    /// rules and classes mean nothing on a hypercube or midimew). Two specs
    /// with the same answer build the same routing there, so the app does
    /// not offer one as a contrast to the other.
    fn canonical_on(&self, _net: &Network) -> String {
        self.canonical()
    }
    /// `Ok` when the routing is defined on this network, else why not.
    fn applies_to(&self, net: &Network) -> Result<(), String>;
    /// Fewest virtual channels per port the routing needs on `net` to be
    /// deadlock-free (for its data packets; the engine adds the
    /// acknowledgement class when [`RoutingBuild::acknowledgement`] asks for
    /// packets). The comment on each implementation says why.
    fn min_vcs(&self, net: &Network) -> u8;
    /// How the routing wants to hear of deliveries.
    fn acknowledgement(&self) -> Acknowledgement {
        Acknowledgement::None
    }
    /// True when the routing offers several candidates and relies on the
    /// selection taking any free one (Duato's escape channel must be
    /// reachable whenever the adaptive ones are busy): runs refuse it with
    /// `selection = fixed`, which waits for the first candidate only.
    fn needs_free_choice(&self) -> bool {
        false
    }
    /// True when the routing's deadlock freedom assumes a virtual channel
    /// holds one packet at a time (Duato's theorem): runs refuse it on a
    /// router that may let a packet follow another's tail into a buffer
    /// (buffers deeper than one flit without `wait_for_tail_credit`).
    fn needs_tail_credit(&self) -> bool {
        false
    }
    /// Build for `net` with `vcs` virtual channels (already checked against
    /// [`RoutingBuild::applies_to`] and [`RoutingBuild::min_vcs`]).
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String>;
    /// The specs `--compare` runs for this routing's family on `net`
    /// (this routing's variants only; [`family_members`](super::registry::family_members) gathers them).
    fn variants(&self, net: &Network) -> Vec<String>;
    /// For downcasting (e.g. the path-selection spec behind `paths:`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// True for routings that decide once per time slice from their
    /// neighbours' buffer fill and so run only on the time-slice switch
    /// model (the fat-tree balancers).
    fn time_slice_only(&self) -> bool {
        false
    }
    /// The routing's exact law when it is an oblivious routing on k-ary
    /// n-cubes that the channel-load analysis knows (Singh's thesis §3.2:
    /// a per-dimension draw of directions and an intermediate node, then
    /// dimension-ordered phases): what `routelab load`, `--compare`, the
    /// `worst` traffic and the app's oblivious panel compute with. `None`
    /// (the default) keeps a routing out of the analysis.
    fn law(&self) -> Option<Law> {
        None
    }
    /// The routing's exact path law on `net` when it is an oblivious
    /// routing the analysis can sum on networks other than k-ary n-cubes
    /// (the dragonfly's MIN and VAL): per pair of switches, its paths with
    /// their probabilities ([`PathLaw`]). `None` (the default) when it has
    /// none there; `Some(Err)` when it has one but not on this network.
    fn path_law(&self, _net: &Network) -> Option<Result<Box<dyn PathLaw>, String>> {
        None
    }
    /// The knee this spec reads the defaults it leaves unset from, on
    /// `net`: DRB's threshold τ and dead band Tol (Franco et al. §3: ThL =
    /// L_c(1 + τ)) when `tau=` is not given. `None` (the default) for a
    /// routing with nothing to read, or a spec that gives it or already
    /// has its knee ([`RoutingBuild::with_knee`]). Whoever builds the
    /// routing with a router at hand measures the knee there
    /// (`sim::knee`: the scenario's `prepare` and a live swap) and applies
    /// it; built without one, the routing takes its constants.
    fn knee_request(&self, _net: &Network) -> Option<KneeRequest> {
        None
    }
    /// This spec with `knee` applied to the defaults it leaves unset, for
    /// a spec whose [`RoutingBuild::knee_request`] asked for it (`None`
    /// otherwise). Its canonical spelling does not change: the knee is the
    /// default's value on that router, not an option.
    fn with_knee(&self, _knee: &Arc<Knee>) -> Option<Box<dyn RoutingBuild>> {
        None
    }
}

/// Which latency a threshold is read on at the knee: the one the routing
/// compares with it (DRB's `latency` option, eq. 3's reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KneeLatency {
    /// Head injection to tail delivery: the mean latency less the wait in
    /// the source queue.
    Network,
    /// Generation to tail delivery (the wait in the source queue
    /// included): τ is then 1 by construction, the latency having doubled.
    Total,
}

/// What a routing's router-dependent defaults are read from
/// ([`RoutingBuild::knee_request`]): the knee of `static_routing`'s mean
/// latency under uniform traffic, on the network, switch model, router and
/// arrival process in use, read on `latency`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct KneeRequest {
    /// The static routing simulated, canonical (`dor:tie=random`, `dor`).
    pub static_routing: String,
    pub latency: KneeLatency,
}

/// One load of a knee's measurement: a probe's results, or the knee
/// interpolated between two probes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KneePoint {
    /// Offered load, flits per host per cycle.
    pub load: f64,
    /// The same as a fraction of the uniform-traffic capacity.
    pub load_fraction: f64,
    /// Mean latency of the measured packets, generation to tail delivery.
    pub latency: f64,
    /// Their mean network latency, head injection to tail delivery.
    pub network_latency: f64,
}

/// Digits τ and the tolerance are rounded to: what `routelab sim` prints
/// is what the run uses, so `drb:tau=T:tolerance=D` typed from it runs the
/// same.
pub const THRESHOLD_DIGITS: i32 = 3;

/// `x` rounded to [`THRESHOLD_DIGITS`] decimals.
pub fn threshold_rounded(x: f64) -> f64 {
    let f = 10f64.powi(THRESHOLD_DIGITS);
    (x * f).round() / f
}

/// The dead band that goes with threshold τ: Tol = τ/(2(1 + τ)), which
/// puts the band's lower edge ThL(1 - Tol) halfway between L_c and ThL, so
/// a metapath widened at ThL can narrow again (rounded,
/// [`THRESHOLD_DIGITS`]).
pub fn tolerance_of(tau: f64) -> f64 {
    threshold_rounded(tau / (2.0 * (1.0 + tau)))
}

/// The knee of a static routing's latency curve under uniform traffic on
/// one network and router (issue 27's reading, `scripts/drb_knee.py
/// --reading double`): L0 is the mean latency at a low load, the knee the
/// offered load at which the mean latency reaches 2·L0, and τ the latency
/// the routing compares with its threshold at the knee over the same at
/// the low load, less one. `sim::knee` measures it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Knee {
    pub request: KneeRequest,
    /// The low-load probe: L0 (`latency`) and the network latency there.
    pub low: Option<KneePoint>,
    /// The knee, interpolated between the two probes around it.
    pub knee: Option<KneePoint>,
    /// Why no knee was found, when none was (the routing then takes its
    /// constants).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_found: Option<String>,
    /// Probes simulated, and their cycles in all (warm-ups included).
    pub probes: u32,
    pub cycles: u64,
}

impl Knee {
    /// τ at the knee, on the requested latency (rounded,
    /// [`THRESHOLD_DIGITS`]); `None` when no knee was found.
    pub fn tau(&self) -> Option<f64> {
        let (low, knee) = (self.low?, self.knee?);
        let (at_low, at_knee) = match self.request.latency {
            KneeLatency::Network => (low.network_latency, knee.network_latency),
            KneeLatency::Total => (low.latency, knee.latency),
        };
        (at_low > 0.0 && at_knee.is_finite())
            .then(|| threshold_rounded((at_knee / at_low - 1.0).max(0.0)))
    }
    /// The dead band that goes with [`Knee::tau`] ([`tolerance_of`]).
    pub fn tolerance(&self) -> Option<f64> {
        self.tau().map(tolerance_of)
    }
}

/// Parses the options of a routing spec (the parts after its name, split
/// on `:`) into a buildable spec, or says what is wrong.
pub type ParseFn = fn(&[&str]) -> Result<Box<dyn RoutingBuild>, String>;

/// One routing in the registry.
#[derive(Clone, Copy)]
pub struct RoutingKind {
    /// Spec name, e.g. `dor`.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// Its options, as shown in errors and help, e.g. `[:tie=plus|random|parity]`.
    pub options: &'static str,
    /// One line for menus and `--help`.
    pub summary: &'static str,
    /// The families it belongs to; the first is the one `--compare` runs.
    pub families: &'static [Family],
    /// Parse the parts after the name (split on `:`).
    pub parse: ParseFn,
    /// Specs that exercise it (property tests run every one that applies).
    pub examples: &'static [&'static str],
}

impl std::fmt::Debug for RoutingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoutingKind")
            .field("name", &self.name)
            .finish()
    }
}

/// The options of routing `name` (the parts after its name), checked
/// against the keys it accepts, with the crate's one spec-option parser.
pub(super) fn options<'a>(
    name: &'a str,
    parts: &[&'a str],
    keys: &[&str],
) -> Result<Options<'a>, String> {
    Spec::new(name, parts.to_vec())
        .options(0, keys)
        .map_err(|e| e.to_string())
}

/// The options of routing `name` that are given, as (key, value) in the
/// order of `keys`, checked by [`options`] (known keys, each once).
pub(super) fn given_options<'a>(
    name: &'a str,
    parts: &[&'a str],
    keys: &[&'a str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let o = options(name, parts, keys)?;
    Ok(keys
        .iter()
        .filter_map(|&k| o.get(k).map(|v| (k, v)))
        .collect())
}
