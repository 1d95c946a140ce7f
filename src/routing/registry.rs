//! Every routing routelab has, by name: how its spec is parsed and built
//! (each in the routing's own file), which topologies it applies to, the
//! virtual channels it needs, and which family it belongs to (what
//! `--compare` runs). A routing joins the CLI, scenario files, the app, the
//! `--compare` sets and the crate's property tests by being listed in
//! [`KINDS`].

use super::{Acknowledgement, Routing};
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
    /// Build for `net` with `vcs` virtual channels (already checked against
    /// [`RoutingBuild::applies_to`] and [`RoutingBuild::min_vcs`]).
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String>;
    /// The specs `--compare` runs for this routing's family on `net`
    /// (this routing's variants only; [`family_members`] gathers them).
    fn variants(&self, net: &Network) -> Vec<String>;
    /// For downcasting (e.g. the path-selection spec behind `paths:`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// True for routings that decide once per time slice from their
    /// neighbours' buffer fill and so run only on the time-slice switch
    /// model (the fat-tree balancers).
    fn time_slice_only(&self) -> bool {
        false
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
    pub family: Family,
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

/// Every routing.
pub const KINDS: &[RoutingKind] = &[
    super::minimal::KIND,
    super::dor::KIND,
    super::updown::KIND,
    super::dmodk::KIND,
    super::source_routed::KIND,
    super::fattree::GREEDY_KIND,
    super::fattree::ECMP_KIND,
    super::fattree::DRILL_KIND,
];

/// The routing named `name`, if any.
pub fn kind(name: &str) -> Option<&'static RoutingKind> {
    KINDS
        .iter()
        .find(|k| k.name == name || k.aliases.contains(&name))
}

/// The accepted forms of every routing, for error messages.
pub fn accepted() -> String {
    KINDS
        .iter()
        .map(|k| format!("{}{}", k.name, k.options))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every spec in `family` that applies to `net`, in registry order,
/// without repeats: what `--compare` runs.
pub fn family_members(family: Family, net: &Network, like: &dyn RoutingBuild) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in KINDS.iter().filter(|k| k.family == family) {
        let variants = if let Ok(b) = (k.parse)(&[]) {
            if b.applies_to(net).is_err() {
                continue;
            }
            b.variants(net)
        } else {
            Vec::new()
        };
        for v in variants {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    // Families whose members are variants of the given spec (path selection:
    // every algorithm on the given legal paths).
    for v in like.variants(net) {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Split `key=value` options, naming the offender when one is not.
pub(super) fn key_values<'a>(parts: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    parts
        .iter()
        .map(|p| {
            p.split_once('=')
                .ok_or_else(|| format!("option `{p}` is not key=value"))
        })
        .collect()
}

/// A routing that takes no options.
pub(super) fn no_options(name: &str, parts: &[&str]) -> Result<(), String> {
    match parts.first() {
        Some(p) => {
            let k = p.split_once('=').map(|(k, _)| k).unwrap_or(p);
            Err(format!("`{name}` takes no option `{k}`"))
        }
        None => Ok(()),
    }
}
