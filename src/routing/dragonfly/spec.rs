//! The registry's side of the dragonfly's routings: MIN (`min`, which is
//! `rdor`'s alias, and what `minimal` resolves to on a dragonfly) and VAL
//! (`val[:intermediate=group|router]`), and [`with_dragonfly`], which lets
//! a torus routing's entry (`rdor`, `val`) stand for its dragonfly
//! counterpart on a dragonfly; the adaptive routings' entries
//! ([`UGAL_L`], [`UGAL_G`], [`PAR`]) and [`AdaptiveSpec`].

use super::adaptive::{AdaptiveParams, Adaptivity, DragonflyAdaptive};
use super::routing::{DragonflyRouting, Intermediate, Mode};
use crate::routing::Routing;
use crate::routing::kind::{Family, RoutingBuild, RoutingKind, options};
use crate::routing::law::Law;
use crate::routing::path_law::PathLaw;
use crate::topology::{Network, Shape};

/// MIN or VAL on a dragonfly, as a buildable spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DragonflySpec {
    pub mode: Mode,
}

fn is_dragonfly(net: &Network) -> bool {
    matches!(net.shape(), Shape::Dragonfly { .. })
}

/// `Ok` on a dragonfly; else why routing `name` does not apply.
fn on_dragonflies(name: &str, net: &Network) -> Result<(), String> {
    if is_dragonfly(net) {
        Ok(())
    } else {
        Err(format!(
            "{name} routes on dragonflies; {} is not one",
            net.spec()
        ))
    }
}

impl RoutingBuild for DragonflySpec {
    fn canonical(&self) -> String {
        self.mode.name()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        on_dragonflies(&self.mode.name(), net)
    }
    /// One VC per class: the global channels crossed, plus one by router
    /// (`routing.rs`'s docs).
    fn min_vcs(&self, _net: &Network) -> u8 {
        self.mode.classes()
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(DragonflyRouting::new(net, self.mode, vcs)?))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn path_law(&self, net: &Network) -> Option<Result<Box<dyn PathLaw>, String>> {
        Some(
            DragonflyRouting::new(net, self.mode, self.mode.classes())
                .map(|r| Box::new(r.path_law(net)) as Box<dyn PathLaw>),
        )
    }
}

/// MIN, what `minimal` is on a dragonfly.
pub(in crate::routing) fn min() -> Box<dyn RoutingBuild> {
    Box::new(DragonflySpec { mode: Mode::Min })
}

/// VAL with an intermediate given in the spec (on dragonflies only).
pub(in crate::routing) fn val(intermediate: Intermediate) -> Box<dyn RoutingBuild> {
    Box::new(DragonflySpec {
        mode: Mode::Val(intermediate),
    })
}

/// `cube` (a torus routing's spec) on tori and meshes, `dragonfly` on a
/// dragonfly: `rdor` (alias `min`) is MIN there and `val` is VAL, so one
/// name means the paper's routing on either. Everything network-free (its
/// canonical spelling, its torus law, downcasts) is `cube`'s.
pub(in crate::routing) fn with_dragonfly(
    cube: Box<dyn RoutingBuild>,
    dragonfly: Box<dyn RoutingBuild>,
) -> Box<dyn RoutingBuild> {
    Box::new(CubeOrDragonfly { cube, dragonfly })
}

#[derive(Debug)]
struct CubeOrDragonfly {
    cube: Box<dyn RoutingBuild>,
    dragonfly: Box<dyn RoutingBuild>,
}

impl CubeOrDragonfly {
    fn on(&self, net: &Network) -> &dyn RoutingBuild {
        if is_dragonfly(net) {
            &*self.dragonfly
        } else {
            &*self.cube
        }
    }
}

impl RoutingBuild for CubeOrDragonfly {
    fn canonical(&self) -> String {
        self.cube.canonical()
    }
    fn canonical_on(&self, net: &Network) -> String {
        self.on(net).canonical_on(net)
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        self.on(net).applies_to(net).map_err(|e| {
            format!(
                "{e} (or a dragonfly, where it is {})",
                self.dragonfly.canonical()
            )
        })
    }
    fn min_vcs(&self, net: &Network) -> u8 {
        self.on(net).min_vcs(net)
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        self.on(net).build(net, vcs)
    }
    fn variants(&self, net: &Network) -> Vec<String> {
        self.on(net).variants(net)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self.cube.as_any()
    }
    fn law(&self) -> Option<Law> {
        self.cube.law()
    }
    fn path_law(&self, net: &Network) -> Option<Result<Box<dyn PathLaw>, String>> {
        if is_dragonfly(net) {
            self.dragonfly.path_law(net)
        } else {
            self.cube.path_law(net)
        }
    }
}

/// The options the adaptive routings share.
const ADAPTIVE_OPTIONS: &str =
    "[:threshold=0..100000][:candidates=1..8][:intermediate=group|router]";

/// Parses an adaptive routing's options (`adaptive.rs`'s docs).
fn parse_adaptive(kind: Adaptivity, parts: &[&str]) -> Result<Box<dyn RoutingBuild>, String> {
    let mut params = AdaptiveParams::of(kind);
    let name = params.name();
    let o = options(&name, parts, &["threshold", "candidates", "intermediate"])?;
    let e = |e: crate::spec_options::OptionError| e.to_string();
    if let Some(t) = o
        .u32("threshold", 0..=AdaptiveParams::MAX_THRESHOLD)
        .map_err(e)?
    {
        params.threshold = t;
    }
    if let Some(n) = o
        .u32("candidates", 1..=AdaptiveParams::MAX_CANDIDATES)
        .map_err(e)?
    {
        params.candidates = n;
    }
    if let Some(i) = o.keyword::<Intermediate>("intermediate").map_err(e)? {
        params.intermediate = i;
    }
    Ok(Box::new(AdaptiveSpec { params }))
}

/// UGAL-L (Kim et al., ISCA 2008, §4.2).
pub(in crate::routing) const UGAL_L: RoutingKind = RoutingKind {
    name: "ugal-l",
    aliases: &["ugal"],
    options: ADAPTIVE_OPTIONS,
    summary: "dragonfly: MIN or VAL per packet at the source router, by local queue x hops \
              (Kim et al. UGAL-L)",
    families: &[Family::Adaptive],
    parse: |parts| parse_adaptive(Adaptivity::UgalL, parts),
    examples: &[
        "ugal-l",
        "ugal-l:intermediate=router",
        "ugal-l:threshold=30:candidates=2",
    ],
};

/// UGAL-G (Kim et al., ISCA 2008, §4.2).
pub(in crate::routing) const UGAL_G: RoutingKind = RoutingKind {
    name: "ugal-g",
    aliases: &[],
    options: ADAPTIVE_OPTIONS,
    summary: "dragonfly: MIN or VAL per packet at the source, by every queue on each route \
              (Kim et al. UGAL-G, the ideal)",
    families: &[Family::Adaptive],
    parse: |parts| parse_adaptive(Adaptivity::UgalG, parts),
    examples: &["ugal-g"],
};

/// PAR (Jiang, Kim and Dally, ISCA 2009, §3).
pub(in crate::routing) const PAR: RoutingKind = RoutingKind {
    name: "par",
    aliases: &[],
    options: ADAPTIVE_OPTIONS,
    summary: "dragonfly: UGAL-L at the source, decided again at the next router of the \
              source group (Jiang et al. progressive adaptive routing)",
    families: &[Family::Adaptive],
    parse: |parts| parse_adaptive(Adaptivity::Par, parts),
    examples: &["par", "par:intermediate=router"],
};

/// UGAL-L, UGAL-G or PAR, as a buildable spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptiveSpec {
    pub params: AdaptiveParams,
}

impl RoutingBuild for AdaptiveSpec {
    fn canonical(&self) -> String {
        self.params.name()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        on_dragonflies(&self.params.name(), net)
    }
    /// VAL's classes with this intermediate, one more for PAR
    /// (`adaptive.rs`'s docs).
    fn min_vcs(&self, _net: &Network) -> u8 {
        self.params.classes()
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(DragonflyAdaptive::new(net, self.params, vcs)?))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
