//! The traffic registry's vocabulary: a [`TrafficKind`] (one entry per
//! traffic pattern: its name, form, summary, example and parser) and
//! [`TrafficBuild`], what a parsed pattern spec can do (spell itself,
//! instantiate itself on a network). Shaped like the routing and topology
//! registries: adding a pattern costs its file, with its entry, and one
//! line in [`super::registry::KINDS`].

use super::pattern::{Pattern, TrafficError};
use crate::rng::SimRng;
use crate::topology::Network;

/// A parser: the whole spec text (trimmed, its first part this kind's
/// name or alias) to a pattern spec, or what is wrong with it.
pub type TrafficParse = fn(&str) -> Result<Box<dyn TrafficBuild>, TrafficError>;

/// One traffic pattern in the registry.
#[derive(Debug)]
pub struct TrafficKind {
    /// The spec's first part, e.g. `tornado`.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The spec form with its options, as errors and help quote it:
    /// `hotspot[:fraction=F][:nodes=A,B,..]`.
    pub form: &'static str,
    /// One line for menus, hovers and `--help`, with the paper or book it
    /// comes from.
    pub summary: &'static str,
    /// A spec the app's traffic list offers.
    pub example: &'static str,
    /// Parse a spec of this kind.
    pub parse: TrafficParse,
}

/// A parsed traffic pattern spec.
pub trait TrafficBuild: std::fmt::Debug + Send + Sync {
    /// The canonical spec (parsing it gives an equal spec).
    fn canonical(&self) -> String;
    /// The pattern on `net` (at least two hosts, checked before), with
    /// `rng` the run's traffic stream (a random permutation draws from it).
    fn build(&self, net: &Network, rng: &mut SimRng) -> Result<Pattern, TrafficError>;
}
