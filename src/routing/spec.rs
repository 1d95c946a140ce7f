//! Routing spec strings, `name[:option...]`: parsed and built by the
//! routing they name ([`super::registry`]). `minimal` is the topology's own
//! minimal static routing; `dor[:tie=..][:classes=..]`, `updown[:root=N]`,
//! `dmodk`, and path-selection tables `paths:LEGAL:SELECT[:opts]`
//! ([`crate::paths`]).

use super::kind::{Family, Knee, KneeRequest, RoutingBuild};
use super::path_law::PathLaw;
use super::registry;
use super::{Acknowledgement, Routing};
use crate::topology::Network;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// A routing that cannot be parsed or built.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("routing `{spec}`: {problem}; accepted: {accepted}")]
pub struct RoutingError {
    pub spec: String,
    pub problem: String,
    pub accepted: String,
}

fn err(spec: &str, problem: impl Into<String>) -> RoutingError {
    RoutingError {
        spec: spec.into(),
        problem: problem.into(),
        accepted: registry::accepted(),
    }
}

/// Too few virtual channels: the problem, and the flag that fixes it
/// (a newcomer's `sim --routing rlb` was told it needs 8 VCs, not how to
/// give them).
pub fn too_few_vcs(spec: &str, problem: String, min: u8) -> RoutingError {
    RoutingError {
        spec: spec.into(),
        problem,
        accepted: format!(
            "--vcs {min}..={} (`vcs` in a scenario file)",
            crate::limits::VCS.end()
        ),
    }
}

/// An unknown routing name: the nearest registered names, and the names
/// only (each routing's options are in `--help`; a newcomer who typed
/// `rbl` was shown 900 characters of every routing's options).
fn unknown(spec: &str, name: &str) -> RoutingError {
    let near = registry::nearest(name);
    let hint = match near.as_slice() {
        [] => String::new(),
        [one] => format!(" (did you mean `{one}`?)"),
        more => format!(
            " (did you mean {}?)",
            more.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    };
    RoutingError {
        spec: spec.into(),
        problem: format!("unknown routing `{name}`{hint}"),
        accepted: format!(
            "{} (each with its options in `routelab sim --help`)",
            registry::names().join(", ")
        ),
    }
}

/// A parsed routing spec: which routing, with which options. Equal specs
/// print the same canonical string.
#[derive(Clone, Debug)]
pub struct RoutingSpec {
    kind: &'static registry::RoutingKind,
    build: Arc<dyn RoutingBuild>,
}

impl PartialEq for RoutingSpec {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}
impl Eq for RoutingSpec {}

impl FromStr for RoutingSpec {
    type Err = RoutingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or("");
        let rest: Vec<&str> = parts.collect();
        let kind = registry::kind(name).ok_or_else(|| unknown(s, name))?;
        let build = (kind.parse)(&rest).map_err(|problem| err(s, problem))?;
        Ok(RoutingSpec {
            kind,
            build: Arc::from(build),
        })
    }
}

impl fmt::Display for RoutingSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.build.canonical())
    }
}

impl RoutingSpec {
    /// The topology's own minimal static routing (`minimal`).
    pub fn minimal() -> RoutingSpec {
        "minimal".parse().expect("`minimal` parses")
    }

    /// The routing's name in the registry, e.g. `dor`.
    pub fn name(&self) -> &'static str {
        self.kind.name
    }

    /// Its family (what `--compare` runs with it).
    pub fn family(&self) -> Family {
        self.kind
            .families
            .first()
            .copied()
            .unwrap_or(Family::Static)
    }

    /// How it wants to hear of deliveries.
    pub fn acknowledgement(&self) -> Acknowledgement {
        self.build.acknowledgement()
    }

    /// True when it relies on the selection taking any free candidate
    /// ([`RoutingBuild::needs_free_choice`]).
    pub fn needs_free_choice(&self) -> bool {
        self.build.needs_free_choice()
    }

    /// True when it needs a VC to hold one packet at a time
    /// ([`RoutingBuild::needs_tail_credit`]).
    pub fn needs_tail_credit(&self) -> bool {
        self.build.needs_tail_credit()
    }

    /// Its exact law for the channel-load analysis, when it is an
    /// oblivious routing on tori and meshes ([`RoutingBuild::law`]).
    pub fn law(&self) -> Option<super::Law> {
        self.build.law()
    }
    /// The routing's exact path law on `net`, for the analysis on
    /// networks other than k-ary n-cubes ([`RoutingBuild::path_law`]).
    pub fn path_law(&self, net: &Network) -> Option<Result<Box<dyn PathLaw>, String>> {
        self.build.path_law(net)
    }

    /// True when it runs only on the time-slice switch model.
    pub fn time_slice_only(&self) -> bool {
        self.build.time_slice_only()
    }

    /// Fewest virtual channels it needs on `net` for its data packets.
    pub fn min_vcs(&self, net: &Network) -> u8 {
        self.build.min_vcs(net)
    }

    /// The canonical spec of the routing it builds on `net`
    /// ([`RoutingBuild::canonical_on`]): equal for two specs that build the
    /// same routing there (`minimal` and `updown` on an irregular network).
    pub fn canonical_on(&self, net: &Network) -> String {
        self.build.canonical_on(net)
    }

    /// `Ok` when the routing is defined on `net`.
    pub fn applies_to(&self, net: &Network) -> Result<(), RoutingError> {
        self.build
            .applies_to(net)
            .map_err(|p| err(&self.to_string(), p))
    }

    /// Every routing of its family that applies to `net` (canonical specs):
    /// what `--compare` runs.
    pub fn family_members(&self, net: &Network) -> Vec<String> {
        registry::family_members(self.family(), net, self.build.as_ref())
    }

    /// The knee its unset defaults are read from on `net`, when it has
    /// any ([`RoutingBuild::knee_request`]: DRB without `tau=`).
    pub fn knee_request(&self, net: &Network) -> Option<KneeRequest> {
        self.build.knee_request(net)
    }

    /// The spec with `knee` applied to the defaults it leaves unset
    /// ([`RoutingBuild::with_knee`]); itself when it reads none. The
    /// canonical spelling is the same.
    pub fn with_knee(&self, knee: &Arc<Knee>) -> RoutingSpec {
        match self.build.with_knee(knee) {
            Some(build) => RoutingSpec {
                kind: self.kind,
                build: Arc::from(build),
            },
            None => self.clone(),
        }
    }

    /// The parsed spec of the routing behind it, e.g.
    /// `spec.downcast::<crate::paths::PathsSpec>()` for `paths:` specs.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.build.as_any().downcast_ref::<T>()
    }

    /// Build the routing for `net` with `vcs` virtual channels per port for
    /// its data packets. Too few VCs, or a topology the routing is not
    /// defined on, is an error naming the minimum or the topology.
    pub fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, RoutingError> {
        let spec = self.to_string();
        self.build.applies_to(net).map_err(|p| err(&spec, p))?;
        let min = self.build.min_vcs(net).max(1);
        if vcs < min {
            return Err(too_few_vcs(
                &spec,
                format!(
                    "needs at least {min} virtual channel{} on {} (got {vcs})",
                    if min == 1 { "" } else { "s" },
                    net.spec()
                ),
                min,
            ));
        }
        self.build.build(net, vcs).map_err(|p| err(&spec, p))
    }
}
