//! The topology registry's vocabulary: a [`TopologyKind`] (one entry per
//! kind of network: its name, the spec form with its parameters' ranges,
//! an example, the routings its papers contrast on it, and its parser)
//! and [`TopologyBuild`], what a parsed spec can do (spell itself, say its
//! size without building, build). Shaped like the routing registry's
//! `RoutingKind` and `RoutingBuild` (`routing/kind.rs`): adding a topology
//! costs its file, with its entry, and one line in
//! [`super::registry::KINDS`].

use super::{Network, TopologyError};
use crate::limits::NetworkSize;

/// One documented parameter of a topology spec.
#[derive(Clone, Copy, Debug)]
pub struct TopologyParam {
    /// The key (`hosts`) or, for a positional parameter, its name in the
    /// form (`K`).
    pub key: &'static str,
    /// What it may be (`1..=64`).
    pub accepted: &'static str,
    /// Its value when not given (empty for a required one).
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// A parser: the whole spec text (trimmed, its first part this kind's
/// name or alias) to a buildable spec, or what is wrong with it.
pub type TopologyParse = fn(&str) -> Result<Box<dyn TopologyBuild>, TopologyError>;

/// One kind of network in the registry.
#[derive(Debug)]
pub struct TopologyKind {
    /// The spec's first part, e.g. `torus`.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The spec form with its ranges, as errors and help quote it:
    /// `torus:KxK[xK..] (k >= 3)[:hosts=H]`.
    pub form: &'static str,
    /// One line for menus, hovers and `--help`.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [TopologyParam],
    /// A spec the app's topology list starts the kind with.
    pub example: &'static str,
    /// `PREFIX:PATH`: a network read from a file (no size before it is
    /// read; not offered in the app's list, which builds from examples).
    pub from_file: bool,
    /// The routings this kind's papers contrast on it, in the order the
    /// app's B key and Balancer box step through them.
    pub contrasts: &'static [&'static str],
    /// Parse a spec of this kind.
    pub parse: TopologyParse,
}

/// A parsed topology spec of some kind.
pub trait TopologyBuild: std::fmt::Debug + Send + Sync {
    /// The canonical spec (what `Display` of [`super::TopologySpec`]
    /// prints; parsing it gives an equal spec).
    fn canonical(&self) -> String;
    /// Switches, hosts, switch-to-switch channels and most ports per
    /// switch of the network this spec builds, from the spec alone, so
    /// limits can refuse it before any memory is spent (`None` when only
    /// building tells, as for files). Saturating arithmetic: a huge spec
    /// gives huge numbers, never an overflow.
    fn size(&self) -> Option<NetworkSize>;
    /// Build the network; `spec` is the canonical spec, which the network
    /// keeps as its name.
    fn build(&self, spec: String) -> Result<Network, TopologyError>;
}

/// The size of a network of `switches` switches with `hosts_per` hosts
/// each, `channels` switch-to-switch channels and `ports` network ports
/// per switch.
pub fn size_of(switches: u64, hosts_per: u64, channels: u64, ports: u64) -> NetworkSize {
    NetworkSize {
        switches,
        hosts: switches.saturating_mul(hosts_per),
        network_channels: channels,
        max_ports: ports.saturating_add(hosts_per),
    }
}
