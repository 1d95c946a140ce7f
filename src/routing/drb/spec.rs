//! The `drb` spec: its options, their defaults and limits, and parsing.
//! Its canonical spelling, the VCs it needs and building the routing are
//! the registry's side, beside the routing in the [parent module](super)
//! (so this module does not import that one), which also says what the
//! options do.

use super::SupernodeType;
use crate::routing::kind::options;
use crate::routing::kind::{Family, Knee, RoutingBuild, RoutingKind, tolerance_of};
use crate::routing::{Acknowledgement, TieRule};
use std::sync::Arc;

pub(in crate::routing) const KIND: RoutingKind = RoutingKind {
    name: "drb",
    aliases: &[],
    options: "[:tau=F][:tolerance=F][:max-size=N][:max-width=N][:supernode=gravity|subtopology][:ack=packet|delay][:stretch=N|any][:latency=network|total][:single-step=spare|classes][:tie=plus|random|parity][:limit=random]",
    summary: "Distributed Routing Balancing: metapaths of multi-step paths through supernodes, widened by acknowledged latency",
    families: &[Family::Adaptive],
    parse: |parts| DrbSpec::parse(parts).map(|s| Box::new(s) as Box<dyn RoutingBuild>),
    examples: &[
        "drb",
        "drb:ack=delay:max-width=4",
        "drb:supernode=subtopology:max-size=1",
        "drb:max-size=0",
        "drb:stretch=any:latency=total",
        "drb:single-step=classes",
        "drb:tie=plus",
        "drb:limit=random",
    ],
};

/// τ when no knee is read: built without a router (the analysis, tests,
/// [`crate::routing::RoutingSpec::build`]), or no knee found on the router
/// in use. The knee of DOR under uniform traffic on the torus:8x8 preset's
/// router by the curvature reading (`scripts/drb-results.sh`, step `tau`;
/// docs/results.md), and the default τ of `drb` before 2026-12-01.
pub const DEFAULT_TAU: f64 = 0.023;
/// The tolerance that goes with [`DEFAULT_TAU`] (τ/(2(1 + τ)), the lower
/// edge of the dead band halfway between L_c and ThL, so a metapath can
/// narrow); the default before 2026-12-01.
pub const DEFAULT_TOLERANCE: f64 = 0.011;
/// Default largest supernode size.
pub const DEFAULT_MAX_SIZE: u8 = 2;
/// Default largest metapath width (the paper's three MSPs).
pub const DEFAULT_MAX_WIDTH: u8 = 3;
/// Default `stretch`: minimal MSPs only.
pub const DEFAULT_STRETCH: u8 = 0;
/// Most MSPs a metapath may hold.
pub const MAX_WIDTH: u8 = 32;

/// Which of DRB's limits (§5), if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Limit {
    /// The method itself.
    #[default]
    None,
    /// Random routing: X uniform over the whole network, Y = B.
    Random,
}

/// The `drb` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct DrbSpec {
    /// `tau`: τ of the threshold latency ThL = L_c(1 + τ) (§3), as given;
    /// `None` (the default) reads it on the router in use: the knee of
    /// DRB's static routing under uniform traffic ([`DrbSpec::threshold`]
    /// has the rule, [`Knee`] the reading). Given, it wins.
    pub tau: Option<f64>,
    /// `tolerance`: the dead band Tol around ThL (§3), as given; `None`
    /// (the default) takes τ/(2(1 + τ)) of the τ in use
    /// ([`tolerance_of`]). Given, it wins.
    pub tolerance: Option<f64>,
    pub max_size: u8,
    pub max_width: u8,
    pub supernode: SupernodeType,
    pub ack: Acknowledgement,
    /// `stretch`: the most hops a candidate MSP may add to the pair's
    /// distance (`None`, spelt `any`: no cap). The paper has DRB "balance
    /// Metapath bandwidth and lengthening" when it configures the
    /// supernodes (§3) and sets it apart from random routing because "path
    /// lengthening can be controlled" (§5), without saying how. routelab's
    /// default, 0, keeps to minimal MSPs (X and Y on minimal routes from A
    /// to B): a metapath then spreads a pair over other shortest routes
    /// and never lengthens it. `docs/results.md` ("Minimal MSPs") measures
    /// both readings.
    pub stretch: Option<u8>,
    /// `latency`: which latency a message carries back (eq. 3's reading).
    pub latency: MspLatency,
    /// `single-step`: whether single-step messages also use the data VCs
    /// the step classes leave over ([`SingleStep`]).
    pub single_step: SingleStep,
    /// `tie`: which way a step goes on a torus when the offset in a
    /// dimension is exactly half the ring (two minimal directions), DOR's
    /// [`TieRule`]. The paper's steps follow "minimal static routing" (§3)
    /// without naming a tie rule; it changes throughput (on torus:8x8 under
    /// uniform traffic DOR with ties to `+` saturates 14-15 % below DOR with
    /// random ties, docs/results.md), so it is a parameter:
    /// - `plus` (the default): always +, as `dor` (and BookSim's DOR) by
    ///   default;
    /// - `random`: drawn uniformly per message and dimension at the source,
    ///   as `dor:tie=random`;
    /// - `parity`: + when the message's source switch is even, − when odd,
    ///   as `dor:tie=parity`.
    ///
    /// Every step of a message uses the same choice. The MSPs a metapath
    /// offers are still chosen on the routes with ties to `+` (their
    /// disjointness, [`Drb`](super::Drb)'s candidates), and
    /// `Steps::route_hops` (what the app draws for an MSP) shows that route:
    /// a message of a half-way pair takes it or its mirror image. Meshes,
    /// hypercubes and midimew have no ties.
    pub tie: TieRule,
    pub limit: Limit,
    /// The knee τ and Tol were read on, once a router was known
    /// ([`RoutingBuild::with_knee`], `sim::knee`); not an option: the
    /// canonical spelling leaves it out.
    pub knee: Option<Arc<Knee>>,
}

/// Where the τ and Tol a DRB routing runs with come from.
#[derive(Clone, Debug, PartialEq)]
pub enum ThresholdSource {
    /// `tau=` given in the spec.
    Spec,
    /// The knee of the static routing on the router in use.
    Knee(Arc<Knee>),
    /// The knee was looked for on the router in use and not found
    /// ([`Knee::not_found`] says why): the constants.
    NoKnee(Arc<Knee>),
    /// Built without a router to read a knee on (the analysis, tests,
    /// [`crate::routing::RoutingSpec::build`]): the constants.
    NoRouter,
    /// The random limit (`limit=random`) compares no latency with a
    /// threshold.
    Unused,
}

/// The threshold a DRB routing runs with ([`DrbSpec::threshold`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Threshold {
    pub tau: f64,
    pub tolerance: f64,
    /// Where τ comes from.
    pub source: ThresholdSource,
    /// True when `tolerance=` was given (else τ/(2(1 + τ)) of this τ, or
    /// the constant that goes with the constant τ).
    pub tolerance_given: bool,
}

impl Threshold {
    /// Where τ comes from, one word for JSON: `spec`, `knee`, `no_knee`,
    /// `no_router` or `unused`.
    pub fn source_name(&self) -> &'static str {
        match self.source {
            ThresholdSource::Spec => "spec",
            ThresholdSource::Knee(_) => "knee",
            ThresholdSource::NoKnee(_) => "no_knee",
            ThresholdSource::NoRouter => "no_router",
            ThresholdSource::Unused => "unused",
        }
    }

    /// The knee looked for, found or not.
    pub fn knee(&self) -> Option<&Arc<Knee>> {
        match &self.source {
            ThresholdSource::Knee(k) | ThresholdSource::NoKnee(k) => Some(k),
            _ => None,
        }
    }

    /// One line on the threshold and where it comes from, e.g. "τ = 0.927,
    /// tolerance 0.241: the knee of dor under uniform traffic on this
    /// router, load 0.428 (42.8 % of capacity), where the mean latency
    /// doubles from L0 = 14.5 cycles; network latency 27.8 over 14.4".
    pub fn describe(&self) -> String {
        let values = format!("τ = {}, tolerance {}", self.tau, self.tolerance);
        let tol = if self.tolerance_given {
            " (tolerance given in the spec)"
        } else {
            ""
        };
        match &self.source {
            ThresholdSource::Spec => format!("{values}: given in the spec"),
            ThresholdSource::Unused => {
                "no threshold: the random limit (limit=random) reads no latency".into()
            }
            ThresholdSource::NoRouter => format!(
                "{values}: DRB's constants (built without a router to read the knee on){tol}"
            ),
            ThresholdSource::NoKnee(k) => format!(
                "{values}: DRB's constants (no knee found for {} under uniform traffic on this router: {}){tol}",
                k.request.static_routing,
                k.not_found.as_deref().unwrap_or("no reading")
            ),
            ThresholdSource::Knee(k) => {
                let (Some(low), Some(at)) = (k.low, k.knee) else {
                    return values;
                };
                let read = match k.request.latency {
                    crate::routing::KneeLatency::Network => format!(
                        "network latency {:.1} over {:.1} cycles",
                        at.network_latency, low.network_latency
                    ),
                    crate::routing::KneeLatency::Total => "read on the total latency".into(),
                };
                format!(
                    "{values}: the knee of {} under uniform traffic on this router, load {:.3} ({:.1} % of capacity), where the mean latency doubles from L0 = {:.1} cycles; {read}{tol}",
                    k.request.static_routing,
                    at.load,
                    100.0 * at.load_fraction,
                    low.latency
                )
            }
        }
    }
}

/// Which VCs a *single-step* message (one whose MSP has one non-null step:
/// the original path A → B, as static routing sends it, §5 "below load 0.4
/// DRB behaves like static routing") may take, in the layout where every
/// data VC belongs to a step class (`steps` module docs, "Single-step
/// messages"). The paper does not say how its simulator shares VCs
/// between steps (§5 only requires the steps' classes for deadlock
/// freedom).
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SingleStep {
    /// `single-step=spare` (the default since 2026-11-26): the VCs the step
    /// classes leave over (data VCs − classes × halves × VCs per class, 4 of
    /// the 10 data VCs of a torus run with 12) form a class below class 0
    /// that only single-step messages take, in their dateline half, any of
    /// them at any hop; they climb into the step classes when it is busy.
    #[default]
    Spare,
    /// `single-step=classes`: single-step messages use the step classes
    /// only (from the lowest free class up, as every message); the VCs left
    /// over stay unused (routelab before 2026-11-26).
    Classes,
}

crate::spec_options::keyword_enum!(SingleStep);

/// Which of a message's latencies DRB's monitoring measures: eq. 3's
/// Latency(MSP), "the transmission time plus the waiting time spent by one
/// message ... on router's queues", which §3's monitoring accumulates "at
/// each intermediate router" from the cycles the message is blocked.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MspLatency {
    /// `latency=network` (the default): head injection to tail delivery
    /// ([`Feedback::network_latency`](crate::routing::Feedback::network_latency)),
    /// the routers' queues and the transmission time only, as §3
    /// accumulates it.
    #[default]
    Network,
    /// `latency=total`: generation to tail delivery, the wait in the source
    /// host's queue included
    /// ([`Feedback::latency`](crate::routing::Feedback::latency)). Past
    /// saturation that wait, the same for every MSP of the source,
    /// dominates and hides which MSP is congested.
    Total,
}

crate::spec_options::keyword_enum!(MspLatency);

impl Default for DrbSpec {
    fn default() -> Self {
        DrbSpec {
            tau: None,
            tolerance: None,
            max_size: DEFAULT_MAX_SIZE,
            max_width: DEFAULT_MAX_WIDTH,
            supernode: SupernodeType::Gravity,
            ack: Acknowledgement::Packet,
            stretch: Some(DEFAULT_STRETCH),
            latency: MspLatency::Network,
            single_step: SingleStep::Spare,
            tie: TieRule::Random,
            limit: Limit::None,
            knee: None,
        }
    }
}

impl DrbSpec {
    /// Option keys `drb` takes.
    pub const KEYS: &'static [&'static str] = &[
        "tau",
        "tolerance",
        "max-size",
        "max-width",
        "supernode",
        "ack",
        "stretch",
        "latency",
        "single-step",
        "tie",
        "limit",
    ];

    fn parse(parts: &[&str]) -> Result<DrbSpec, String> {
        let d = DrbSpec::default();
        let o = options("drb", parts, Self::KEYS)?;
        let e = |e: crate::spec_options::OptionError| e.to_string();
        let text = |k: &str, parse: &dyn Fn(&str) -> bool, accepted: &str| match o.get(k) {
            Some(v) if !parse(v) => Err(format!("{k} `{v}`; accepted {accepted}")),
            v => Ok(v),
        };
        let supernode = match text(
            "supernode",
            &|v| SupernodeType::parse(v).is_some(),
            SupernodeType::ACCEPTED,
        )? {
            Some(v) => SupernodeType::parse(v).unwrap_or_default(),
            None => d.supernode,
        };
        let ack = match text(
            "ack",
            &|v| v == "packet" || v == "delay",
            Acknowledgement::ACCEPTED,
        )? {
            Some("delay") => Acknowledgement::Delay,
            Some(_) => Acknowledgement::Packet,
            None => d.ack,
        };
        let stretch = match text(
            "stretch",
            &|v| v == "any" || v.parse::<u8>().is_ok_and(|n| n <= 64),
            "an integer 0..=64 or any",
        )? {
            Some("any") => None,
            Some(v) => v.parse::<u8>().ok(),
            None => d.stretch,
        };
        let limit = match text("limit", &|v| v == "random" || v == "none", "random, none")? {
            Some("random") => Limit::Random,
            _ => Limit::None,
        };
        Ok(DrbSpec {
            tau: o.f64("tau", 0.0..=100.0).map_err(e)?,
            tolerance: o.f64("tolerance", 0.0..=1.0).map_err(e)?,
            max_size: o
                .u32("max-size", 0..=64)
                .map_err(e)?
                .map_or(d.max_size, |v| v as u8),
            max_width: o
                .u32("max-width", 1..=MAX_WIDTH as u32)
                .map_err(e)?
                .map_or(d.max_width, |v| v as u8),
            supernode,
            ack,
            stretch,
            latency: o.keyword("latency").map_err(e)?.unwrap_or(d.latency),
            single_step: o
                .keyword("single-step")
                .map_err(e)?
                .unwrap_or(d.single_step),
            tie: o.keyword("tie").map_err(e)?.unwrap_or(d.tie),
            limit,
            knee: None,
        })
    }

    /// The τ and Tol this spec runs with, and where τ comes from: `tau=`
    /// when given; else the knee applied to it ([`DrbSpec::knee`]), when
    /// one was found; else [`DEFAULT_TAU`]. Tol: `tolerance=` when given;
    /// else τ/(2(1 + τ)) of that τ ([`tolerance_of`]), or
    /// [`DEFAULT_TOLERANCE`] beside the constant τ.
    pub fn threshold(&self) -> Threshold {
        let knee_tau = self.knee.as_ref().and_then(|k| k.tau());
        let source = match (&self.knee, knee_tau) {
            _ if self.tau.is_some() => ThresholdSource::Spec,
            _ if self.limit == Limit::Random => ThresholdSource::Unused,
            (Some(k), Some(_)) => ThresholdSource::Knee(k.clone()),
            (Some(k), None) => ThresholdSource::NoKnee(k.clone()),
            (None, _) => ThresholdSource::NoRouter,
        };
        let tau = self.tau.or(knee_tau).unwrap_or(DEFAULT_TAU);
        let tolerance = match self.tolerance {
            Some(t) => t,
            None if self.tau.is_some() || knee_tau.is_some() => tolerance_of(tau),
            None => DEFAULT_TOLERANCE,
        };
        Threshold {
            tau,
            tolerance,
            source,
            tolerance_given: self.tolerance.is_some(),
        }
    }

    /// Step classes the spec's routes need: one per possible non-null step.
    pub fn classes(&self) -> u8 {
        match self.limit {
            Limit::Random => 2,
            Limit::None if self.max_size == 0 => 1,
            Limit::None => 3,
        }
    }
}
