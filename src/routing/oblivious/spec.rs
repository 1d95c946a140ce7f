//! The oblivious routings' specs: the registry's entries (`rdor`, `val`,
//! `romm`, `rlb`, `rlbth`), their options and parsing, and
//! [`ObliviousSpec`], which builds any law into the simulated routing
//! ([`Oblivious`]) and hands it to the analysis.

use super::laws::{RdorLaw, RlbLaw, RommLaw, ValLaw};
use super::{Oblivious, classes};
use crate::routing::Routing;
use crate::routing::dragonfly::Intermediate;
use crate::routing::dragonfly::spec::{self as dragonfly, with_dragonfly};
use crate::routing::kind::{Family, RoutingBuild, RoutingKind, options};
use crate::routing::law::{DimOrder, Law, ObliviousLaw};
use crate::topology::cube::Geometry;
use crate::topology::{Network, Shape};

/// A routing entry whose spec takes no option.
fn plain(name: &str, parts: &[&str], law: impl ObliviousLaw + 'static) -> ParseResult {
    options(name, parts, &[])?;
    Ok(Box::new(ObliviousSpec { law: Law::new(law) }))
}

type ParseResult = Result<Box<dyn RoutingBuild>, String>;

pub(in crate::routing) const RDOR: RoutingKind = RoutingKind {
    name: "rdor",
    aliases: &["min"],
    options: "",
    summary: "randomised dimension order, minimal (Singh's MIN beyond one dimension); \
              on a dragonfly Kim et al.'s MIN (local, global, local)",
    families: &[Family::Oblivious],
    parse: |parts| {
        Ok(with_dragonfly(
            plain("rdor", parts, RdorLaw)?,
            dragonfly::min(),
        ))
    },
    examples: &["rdor"],
};

pub(in crate::routing) const VAL: RoutingKind = RoutingKind {
    name: "val",
    aliases: &["valiant"],
    options: "[:intermediate=group|router] (dragonfly)",
    summary: "Valiant: a uniformly random intermediate node, minimal in both phases; \
              on a dragonfly a random intermediate group (Kim et al. §4.1) or router",
    families: &[Family::Oblivious],
    parse: |parts| {
        let o = options("val", parts, &["intermediate"])?;
        match o
            .keyword::<Intermediate>("intermediate")
            .map_err(|e| e.to_string())?
        {
            None | Some(Intermediate::Group) => Ok(with_dragonfly(
                plain("val", &[], ValLaw)?,
                dragonfly::val(Intermediate::Group),
            )),
            Some(i) => Ok(dragonfly::val(i)),
        }
    },
    examples: &["val", "val:intermediate=router"],
};

pub(in crate::routing) const ROMM: RoutingKind = RoutingKind {
    name: "romm",
    aliases: &[],
    options: "[:order=xy|random]",
    summary: "ROMM: an intermediate node in the minimal box",
    families: &[Family::Oblivious],
    parse: |parts| {
        let o = options("romm", parts, &["order"])?;
        let order = match o.get("order") {
            None => DimOrder::Xy,
            Some(v) => DimOrder::parse(v)
                .ok_or_else(|| format!("order `{v}`; accepted {}", DimOrder::ACCEPTED))?,
        };
        Ok(Box::new(ObliviousSpec {
            law: Law::new(RommLaw { order }),
        }))
    },
    examples: &["romm", "romm:order=random"],
};

pub(in crate::routing) const RLB: RoutingKind = RoutingKind {
    name: "rlb",
    aliases: &[],
    options: "",
    summary: "Randomized Local Balance: the long way with probability Δ/k (tori)",
    families: &[Family::Oblivious],
    parse: |parts| plain("rlb", parts, RlbLaw { threshold: false }),
    examples: &["rlb"],
};

pub(in crate::routing) const RLBTH: RoutingKind = RoutingKind {
    name: "rlbth",
    aliases: &[],
    options: "",
    summary: "RLB with a threshold: always the short way when Δ < k/4 (tori)",
    families: &[Family::Oblivious],
    parse: |parts| plain("rlbth", parts, RlbLaw { threshold: true }),
    examples: &["rlbth"],
};

/// A parsed oblivious-routing spec: its law. Any [`ObliviousLaw`] builds
/// into the simulated [`Oblivious`] routing and, through
/// [`RoutingBuild::law`], into the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObliviousSpec {
    pub law: Law,
}

impl RoutingBuild for ObliviousSpec {
    fn canonical(&self) -> String {
        self.law.name()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::Cube { wrap: false, .. } if self.law.torus_only().is_some() => Err(format!(
                "{} {}; on {} use rdor, val or romm",
                self.law.name(),
                self.law.torus_only().unwrap_or_default(),
                net.spec()
            )),
            Shape::Cube { radix, .. } if radix.len() > 8 => Err(format!(
                "{} has {} dimensions; oblivious routings handle at most 8",
                net.spec(),
                radix.len()
            )),
            Shape::Cube { .. } => Ok(()),
            _ => Err(format!(
                "{} routes on tori and meshes; {} is not one",
                self.law.name(),
                net.spec()
            )),
        }
    }
    /// One VC per class (module docs).
    fn min_vcs(&self, net: &Network) -> u8 {
        match net.shape() {
            Shape::Cube { radix, wrap } => classes(&*self.law, radix.len(), *wrap) as u8,
            _ => 1,
        }
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        let Shape::Cube { radix, wrap } = net.shape() else {
            return Err(self.applies_to(net).err().unwrap_or_default());
        };
        Ok(Box::new(Oblivious::new(
            self.law.clone(),
            Geometry::new(radix.clone(), *wrap),
            vcs,
        )))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn law(&self) -> Option<Law> {
        Some(self.law.clone())
    }
}
