//! `minimal`: the topology's own minimal static routing, the baseline every
//! paper compares against: DOR on tori and meshes, e-cube on hypercubes, the
//! minimal midimew rule, D-mod-k on fat trees, up*/down* (root 0) on
//! irregular networks.

use super::registry::{Family, RoutingBuild, RoutingKind, no_options};
use super::{Routing, RoutingSpec};
use crate::topology::{Network, Shape};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "minimal",
    aliases: &["default"],
    options: "",
    summary: "the topology's own static routing (DOR, e-cube, midimew, D-mod-k or up*/down*)",
    families: &[Family::Static],
    parse: |parts| {
        no_options("minimal", parts)?;
        Ok(Box::new(Minimal))
    },
    examples: &["minimal"],
};

/// The `minimal` spec.
#[derive(Clone, Copy, Debug)]
struct Minimal;

impl Minimal {
    /// The routing `minimal` stands for on `net`.
    fn resolve(net: &Network) -> RoutingSpec {
        let s = match net.shape() {
            Shape::FatTree { .. } => "dmodk",
            Shape::Irregular => "updown",
            Shape::Cube { .. } | Shape::Hypercube { .. } | Shape::Midimew { .. } => "dor",
        };
        s.parse().expect("built-in spec parses")
    }
}

impl RoutingBuild for Minimal {
    fn canonical(&self) -> String {
        "minimal".into()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        Self::resolve(net).applies_to(net).map_err(|e| e.problem)
    }
    fn min_vcs(&self, net: &Network) -> u8 {
        Self::resolve(net).min_vcs(net)
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Self::resolve(net).build(net, vcs).map_err(|e| e.problem)
    }
    /// `minimal` is one of the family's other members on every network.
    fn variants(&self, _net: &Network) -> Vec<String> {
        Vec::new()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
