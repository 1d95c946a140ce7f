//! The `dor` spec: its options (`tie`, `classes`) and how it builds DOR
//! on each network it applies to (the tabulated form where the rules allow
//! it, [`TabulatedDor`]).

use super::{CubeDor, DorLaw, TabulatedDor, TieRule, VcClasses};
use crate::routing::Ecube;
use crate::routing::MidimewMinimal;
use crate::routing::Routing;
use crate::routing::kind::{Family, RoutingBuild, RoutingKind, options};
use crate::routing::law::Law;
use crate::topology::{Network, Shape};

pub(in crate::routing) const KIND: RoutingKind = RoutingKind {
    name: "dor",
    aliases: &[],
    options: "[:tie=plus|random|parity][:classes=strict|balanced]",
    summary: "dimension order: DOR on tori and meshes, e-cube on hypercubes, the minimal rule on midimew",
    families: &[Family::Static, Family::Oblivious],
    parse: |parts| {
        let o = options("dor", parts, &["tie", "classes"])?;
        Ok(Box::new(DorSpec {
            tie: o
                .keyword("tie")
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
            classes: o
                .keyword("classes")
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
        }))
    },
    examples: &["dor", "dor:tie=random", "dor:tie=parity:classes=balanced"],
};

/// The `dor` spec: the tie rule and the dateline class scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DorSpec {
    pub tie: TieRule,
    pub classes: VcClasses,
}

impl RoutingBuild for DorSpec {
    /// DOR's law for the analysis (its VC classes do not change paths).
    fn law(&self) -> Option<Law> {
        Some(Law::new(DorLaw { tie: self.tie }))
    }
    fn canonical(&self) -> String {
        let mut s = String::from("dor");
        if self.tie != TieRule::Plus {
            s.push_str(&format!(":tie={}", self.tie.as_str()));
        }
        if self.classes != VcClasses::Strict {
            s.push_str(&format!(":classes={}", self.classes.as_str()));
        }
        s
    }
    /// On a hypercube (e-cube) and a midimew (its minimal rule) there are
    /// neither ties nor datelines: every DOR spec is plain `dor` there.
    fn canonical_on(&self, net: &Network) -> String {
        match net.shape() {
            Shape::Hypercube { .. } | Shape::Midimew { .. } => "dor".into(),
            _ => self.canonical(),
        }
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::Cube { .. } | Shape::Hypercube { .. } | Shape::Midimew { .. } => Ok(()),
            _ => Err(format!(
                "{} has no dimensions; use updown (or dmodk on fat trees)",
                net.spec()
            )),
        }
    }
    /// Tori and midimew: two, one dateline class each (module docs).
    /// Meshes and hypercubes are acyclic under dimension order: one.
    fn min_vcs(&self, net: &Network) -> u8 {
        match net.shape() {
            Shape::Cube { wrap: true, .. } | Shape::Midimew { .. } => 2,
            _ => 1,
        }
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(match net.shape() {
            Shape::Cube { radix, wrap } => {
                let dor = CubeDor::new(radix.clone(), *wrap, vcs, self.tie, self.classes);
                match TabulatedDor::new(dor) {
                    Ok(table) => Box::new(table),
                    Err(dor) => Box::new(dor),
                }
            }
            Shape::Hypercube { .. } => Box::new(Ecube::new(vcs, net.num_switches() as u32)),
            Shape::Midimew { n, b } => Box::new(MidimewMinimal::new(*n, *b, vcs)),
            _ => return Err(self.applies_to(net).err().unwrap_or_default()),
        })
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
