//! `minimal`: the topology's own minimal static routing, the baseline every
//! paper compares against: DOR on tori and meshes, e-cube on hypercubes, the
//! minimal midimew rule, D-mod-k on fat trees, up*/down* (root 0) on
//! irregular networks, MIN (local, global, local; Kim et al. §4.1) on
//! dragonflies (where `minimal` and `min` are the same routing).

use super::Routing;
use super::kind::{Family, RoutingBuild, RoutingKind, options};
use crate::topology::{Network, Shape};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "minimal",
    aliases: &["default"],
    options: "",
    summary: "the topology's own static routing (DOR, e-cube, midimew, D-mod-k, up*/down* or the dragonfly's MIN)",
    families: &[Family::Static],
    parse: |parts| {
        options("minimal", parts, &[])?;
        Ok(Box::new(Minimal))
    },
    examples: &["minimal"],
};

/// The `minimal` spec.
#[derive(Clone, Copy, Debug)]
struct Minimal;

impl Minimal {
    /// The routing `minimal` stands for on `net`, with its default options.
    fn resolve(net: &Network) -> Result<Box<dyn RoutingBuild>, String> {
        let kind = match net.shape() {
            Shape::FatTree { .. } => super::dmodk::KIND,
            Shape::Irregular => super::updown::KIND,
            Shape::Dragonfly { .. } => return Ok(super::dragonfly::spec::min()),
            Shape::Cube { .. } | Shape::Hypercube { .. } | Shape::Midimew { .. } => {
                super::dor::KIND
            }
        };
        (kind.parse)(&[])
    }
}

impl RoutingBuild for Minimal {
    fn canonical(&self) -> String {
        "minimal".into()
    }
    fn canonical_on(&self, net: &Network) -> String {
        Self::resolve(net).map_or_else(|_| self.canonical(), |r| r.canonical_on(net))
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        Self::resolve(net)?.applies_to(net)
    }
    fn min_vcs(&self, net: &Network) -> u8 {
        Self::resolve(net).map(|r| r.min_vcs(net)).unwrap_or(1)
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Self::resolve(net)?.build(net, vcs)
    }
    /// `minimal` is one of the family's other members on every network.
    fn variants(&self, _net: &Network) -> Vec<String> {
        Vec::new()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
