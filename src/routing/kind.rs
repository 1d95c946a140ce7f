//! The vocabulary of the routing registry ([`super::registry`]): a
//! routing's entry ([`RoutingKind`]), its parsed and buildable spec
//! ([`RoutingBuild`]) and the families `--compare` runs. Every routing file
//! declares its entry with these; the registry lists them.

use super::law::Law;
use super::{Acknowledgement, Routing};
use crate::spec_options::{Options, Spec};
use crate::topology::Network;
use std::fmt::Debug;

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
