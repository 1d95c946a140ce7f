//! Distributed Routing Balancing (DRB): D. Franco, I. Garcés, E. Luque, "A
//! New Method to Make Communication Latency Uniform: Distributed Routing
//! Balancing", ICS 1999.
//!
//! DRB keeps latency low and uniform by expanding, when and as far as the
//! measured latency asks for it, a congested source-destination path into a
//! *metapath* of several *multi-step paths* (MSPs) A → X → Y → B, X in a
//! *supernode* around the source and Y in one around the destination (§2).
//! Its routing (§3) has three phases, all at the source:
//! 1. **Traffic load monitoring**: every message records the cycles it is
//!    blocked in the network; at its destination that latency goes back to
//!    the source on an acknowledgement with the highest priority
//!    ([`Acknowledgement`]: a real one-flit packet on its own VC class by
//!    default, or a modelled delay; `ack=packet|delay`).
//! 2. **Metapath configuration** on every acknowledgement: the pair's
//!    metapath widens or narrows ([`metapath`] has the rule as routelab
//!    reads eqs. 9-10, and the guards that keep it from oscillating).
//! 3. **MSP selection** for every message: a random draw from the
//!    cumulative distribution of the MSP bandwidths (eqs. 11-12).
//!
//! ## Candidates and the metapath of a pair
//! The candidate MSPs of a pair come from its two supernodes
//! ([`supernode`]) at a common size r: every (X, Y) in S(A, r) × S(B, r),
//! ordered by Length (eq. 2), then by how far X and Y lie from their
//! centres (so the canonical MSP X = A, Y = B, the original path, always
//! comes first), then by the ids of X and Y. Only MSPs at most `stretch`
//! hops longer than the pair's distance are candidates (default 0: minimal
//! MSPs only; [`DrbSpec::stretch`] has the reading). An (X, Y) whose route crosses
//! exactly the channels of an earlier candidate is the same path and is
//! skipped (e.g. X on the original path's first dimension). The metapath
//! uses the first w candidates, w its width; r is the smallest size, up to
//! `max-size`, that offers w of them; w is capped by `max-width` (presets:
//! 3, the paper's "original path and two more", §4).
//!
//! ## The two limits (§5)
//! - *Static routing*: both supernodes of size 0 (`max-size=0`): every
//!   message takes the minimal static path.
//! - *Random routing* (`limit=random`): the source supernode is the whole
//!   network, the destination supernode {B}, and the MSP is drawn
//!   uniformly (eq. 11's weights by 1/latency would not be random routing):
//!   Valiant's routing through a uniformly random X, each phase on the
//!   static routing. Its channel loads equal the oblivious analysis's VAL
//!   wherever the dimension order cannot matter (`tests/drb.rs`).
//!
//! ## State
//! Per packet ([`RouteState`]): the step in `phase` (0: A → X, 1: X → Y,
//! 2: Y → B), X and Y in `via`, the MSP's index in `path` (it comes back in
//! the feedback), 1 + the step of the last hop in `hop`, the class and step
//! of the last escape VC taken in `tag` (learnt from [`Hop::in_vc`]), and in
//! `aux` on midimew the current step's remaining jumps, on tori with
//! `tie=random` the message's tie draw (bit d: + in dimension d). Per pair, in the
//! routing: a [`Metapath`] (width, supernode size, MSP latencies), allocated
//! on the pair's first acknowledgement behind a dense index of 4 bytes a
//! pair (256 KiB on torus:16x16's 65 536 pairs); pairs that never send cost
//! nothing else.
//!
//! VC classes, the spare VCs single-step messages take below them
//! (`single-step=spare`, the default) and the minimum number of VCs per
//! topology: [`steps`]. The options, their defaults and the canonical
//! spelling: [`DrbSpec`].

pub mod metapath;
mod spec;
pub mod steps;
pub mod supernode;

pub use metapath::{Change, Decision, Metapath, Msp, Params};
pub use spec::{
    DEFAULT_MAX_SIZE, DEFAULT_MAX_WIDTH, DEFAULT_STRETCH, DEFAULT_TAU, DEFAULT_TOLERANCE, DrbSpec,
    Limit, MAX_WIDTH, MspLatency, SingleStep, Threshold, ThresholdSource,
};
pub use steps::Steps;
pub use supernode::{SupernodeType, members};

pub(in crate::routing) use spec::KIND;

use super::kind::{Knee, KneeLatency, KneeRequest, RoutingBuild};
use super::{
    Acknowledgement, Candidates, Feedback, Hop, PacketInfo, RouteState, Routing, Source, TieRule,
    Timing,
};
use crate::rng::{below, unit};
use crate::topology::{Network, PortId, Shape, SwitchId};
use std::collections::HashSet;
use std::sync::Arc;

/// A candidate MSP's sort key: (Length, distance of X and Y from their
/// centres, X, Y).
type CandidateKey = (u32, u32, SwitchId, SwitchId);

/// Counters over all pairs, for views and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrbCounters {
    /// Messages sent, and of those on the canonical MSP (X = A, Y = B).
    pub sent: u64,
    pub sent_canonical: u64,
    /// Acknowledgements heard.
    pub acks: u64,
    /// Width changes made, over all pairs.
    pub changes: u64,
    /// Pairs with a metapath (heard at least once), and of those with
    /// w > 1.
    pub pairs: u64,
    pub expanded: u64,
    /// Sum of the widths of the pairs with a metapath.
    pub width_sum: u64,
}

impl DrbCounters {
    /// Average metapath width over the pairs with a metapath (1 if none).
    pub fn mean_width(&self) -> f64 {
        if self.pairs == 0 {
            1.0
        } else {
            self.width_sum as f64 / self.pairs as f64
        }
    }
    /// Share of messages sent on the original path.
    pub fn canonical_share(&self) -> f64 {
        if self.sent == 0 {
            1.0
        } else {
            self.sent_canonical as f64 / self.sent as f64
        }
    }
}

/// The DRB routing.
#[derive(Clone, Debug)]
pub struct Drb {
    spec: DrbSpec,
    params: Params,
    steps: Steps,
    timing: Timing,
    n: usize,
    /// Per pair `a·n + b`: 1 + the index of its metapath, 0 = none yet.
    index: Vec<u32>,
    paths: Vec<Metapath>,
    /// The pair of each metapath.
    owners: Vec<(SwitchId, SwitchId)>,
    counters: DrbCounters,
}

impl Drb {
    /// DRB on `net` with `vcs` data VCs.
    pub fn new(net: &Network, spec: DrbSpec, vcs: u8) -> Result<Drb, String> {
        spec.applies_to(net)?;
        let mut steps = Steps::new(net, spec.classes(), vcs)?;
        steps.spare_for_single(spec.single_step == SingleStep::Spare);
        steps.set_message_ties(spec.tie != TieRule::Plus);
        let n = steps.nodes() as usize;
        let threshold = spec.threshold();
        Ok(Drb {
            params: Params {
                tau: threshold.tau,
                tolerance: threshold.tolerance,
                max_width: spec.max_width,
            },
            spec,
            steps,
            timing: Timing::default(),
            n,
            index: vec![0; n * n],
            paths: Vec::new(),
            owners: Vec::new(),
            counters: DrbCounters::default(),
        })
    }

    pub fn spec(&self) -> &DrbSpec {
        &self.spec
    }
    pub fn params(&self) -> &Params {
        &self.params
    }
    pub fn steps(&self) -> &Steps {
        &self.steps
    }
    pub fn timing(&self) -> &Timing {
        &self.timing
    }
    pub fn counters(&self) -> DrbCounters {
        self.counters
    }

    /// The metapath of pair (a, b), once it has been heard.
    pub fn metapath(&self, a: SwitchId, b: SwitchId) -> Option<&Metapath> {
        let i = *self.index.get(a as usize * self.n + b as usize)?;
        (i > 0).then(|| &self.paths[i as usize - 1])
    }

    /// Every pair with a metapath and its metapath.
    pub fn metapaths(&self) -> impl Iterator<Item = ((SwitchId, SwitchId), &Metapath)> {
        self.owners.iter().copied().zip(self.paths.iter())
    }

    /// The supernodes a pair's metapath draws from: (source, destination).
    pub fn supernodes(&self, a: SwitchId, b: SwitchId) -> (Vec<SwitchId>, Vec<SwitchId>) {
        if self.spec.limit == Limit::Random {
            return ((0..self.n as SwitchId).collect(), vec![b]);
        }
        let size = self.metapath(a, b).map(|m| m.size as u32).unwrap_or(0);
        (
            members(&self.steps, self.spec.supernode, a, size),
            members(&self.steps, self.spec.supernode, b, size),
        )
    }

    /// The pair's candidate MSPs at supernode size `size`, in order (module
    /// docs), the first `want` distinct ones at most.
    pub fn candidates(&self, a: SwitchId, b: SwitchId, size: u32, want: usize) -> Vec<Msp> {
        let sa = members(&self.steps, self.spec.supernode, a, size);
        let sb = members(&self.steps, self.spec.supernode, b, size);
        let mut all: Vec<(u32, u32, SwitchId, SwitchId)> = Vec::with_capacity(sa.len() * sb.len());
        let most = self
            .spec
            .stretch
            .map_or(u32::MAX, |x| self.steps.distance(a, b) + x as u32);
        for &x in &sa {
            for &y in &sb {
                let len = self.steps.msp_length(a, x, y, b);
                if len > most {
                    continue;
                }
                let off = self.steps.distance(a, x) + self.steps.distance(y, b);
                all.push((len, off, x, y));
            }
        }
        all.sort_unstable();
        // Distinct routes, in order.
        let mut seen: HashSet<Vec<(SwitchId, PortId)>> = HashSet::new();
        let mut routes: Vec<(CandidateKey, Vec<(SwitchId, PortId)>)> = Vec::new();
        for c in all {
            let hops = self.steps.route_hops(a, c.2, c.3, b);
            if seen.insert(hops.clone()) {
                routes.push((c, hops));
            }
        }
        let mut out = Vec::new();
        let mut used: HashSet<(SwitchId, PortId)> = HashSet::new();
        let mut taken = vec![false; routes.len()];
        while out.len() < want {
            // The next MSP: shortest first, then the one sharing the fewest
            // channels with those already taken (the most disjoint), then
            // nearest the centres, then by ids.
            let pick = (0..routes.len()).filter(|&i| !taken[i]).min_by_key(|&i| {
                let ((len, off, x, y), hops) = &routes[i];
                let shared = hops.iter().filter(|h| used.contains(h)).count();
                (*len, shared, *off, *x, *y)
            });
            let Some(i) = pick else { break };
            taken[i] = true;
            let ((len, _, x, y), hops) = &routes[i];
            used.extend(hops.iter().copied());
            out.push(Msp::new(
                *x,
                *y,
                *len,
                self.timing.zero_load(len + 1) as f64,
            ));
        }
        out
    }

    /// The first `want` candidates and the supernode size they come from:
    /// size w - 1 (the supernodes grow with the metapath: w = 2 draws from
    /// size 1, w = 3 from size 2), capped by `max-size`, or larger when
    /// that size offers fewer than `want` distinct MSPs.
    fn widest(&self, a: SwitchId, b: SwitchId, want: usize) -> (Vec<Msp>, u8) {
        let start = (want.saturating_sub(1)).min(self.spec.max_size as usize) as u8;
        let mut best = (Vec::new(), start);
        for size in start..=self.spec.max_size {
            let c = self.candidates(a, b, size as u32, want);
            let enough = c.len() >= want;
            best = (c, size);
            if enough {
                break;
            }
        }
        best
    }

    fn metapath_index(&mut self, a: SwitchId, b: SwitchId) -> usize {
        let slot = a as usize * self.n + b as usize;
        if self.index[slot] == 0 {
            let len = self.steps.distance(a, b);
            self.paths
                .push(Metapath::canonical(a, b, len, &self.timing));
            self.owners.push((a, b));
            self.index[slot] = self.paths.len() as u32;
            self.counters.pairs += 1;
            self.counters.width_sum += 1;
        }
        self.index[slot] as usize - 1
    }
}

impl Routing for Drb {
    fn name(&self) -> String {
        self.spec.canonical()
    }

    fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
        // Adaptive VCs only where a VC holds one packet at a time (steps).
        self.steps.layout(timing.one_packet_per_vc());
        // Canonical latencies depend on the timing: recompute them.
        for ((a, b), m) in self.owners.iter().zip(self.paths.iter_mut()) {
            m.canonical = timing.zero_load(self.steps.distance(*a, *b) + 1) as f64;
            for msp in &mut m.msps {
                msp.canonical = timing.zero_load(msp.length + 1) as f64;
            }
        }
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn acknowledgement(&self) -> Acknowledgement {
        self.spec.ack
    }

    /// Every MSP the pair's metapath can ever hold: the first `max-width`
    /// candidates at every supernode size up to `max-size` (a narrower
    /// metapath takes a prefix of them); in the random limit every X.
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        let (a, b) = (pkt.src_switch, pkt.dst_switch);
        let mut vias: Vec<[SwitchId; 2]> = match self.spec.limit {
            Limit::Random => (0..self.n as SwitchId).map(|x| [x, b]).collect(),
            Limit::None => (0..=self.spec.max_size as u32)
                .flat_map(|size| self.candidates(a, b, size, self.spec.max_width as usize))
                .map(|m| [m.x, m.y])
                .collect(),
        };
        vias.sort_unstable();
        vias.dedup();
        // The message's tie bits (bit d: + in dimension d): every draw
        // with `tie=random`, the source's parity's with `tie=parity`.
        let ties: Vec<u32> = match self.steps.geometry() {
            Some(g) if self.steps.message_ties() => {
                self.spec.tie.source_choices(a, g.radix().len())
            }
            _ => vec![0],
        };
        Some(
            vias.into_iter()
                .flat_map(|via| {
                    ties.iter().map(move |&aux| RouteState {
                        via,
                        aux,
                        ..RouteState::default()
                    })
                })
                .collect(),
        )
    }

    /// The adaptive VCs of the escape-classes layout ([`Steps::layout`]).
    fn adaptive_vcs(&self) -> Option<(u8, u8)> {
        self.steps.adaptive()
    }

    /// The step classes are learnt from the VC each hop took.
    fn learns_vc(&self) -> bool {
        true
    }

    /// An MSP may cross B before its last step (A -> X or X -> Y through
    /// B): the message goes on to its intermediate nodes, as the paper's
    /// multi-step paths are messages addressed to X, then Y, then B.
    fn passes_destination(&self) -> bool {
        true
    }

    /// At B, the message may leave once every waypoint still ahead is B.
    fn may_eject(&self, at: SwitchId, st: &RouteState) -> bool {
        match st.phase {
            0 => st.via[0] == at && st.via[1] == at,
            1 => st.via[1] == at,
            _ => true,
        }
    }

    fn at_source(&mut self, src: Source<'_>) {
        let Source {
            now,
            pkt,
            state,
            rng,
        } = src;
        let (a, b) = (pkt.src_switch, pkt.dst_switch);
        let (x, y, path) = match self.spec.limit {
            Limit::Random => {
                let x = below(rng, self.n as u32);
                (x, b, x)
            }
            Limit::None => {
                let i = self.index[a as usize * self.n + b as usize];
                if i == 0 {
                    (a, b, 0)
                } else {
                    let m = &mut self.paths[i as usize - 1];
                    m.sent_at(now);
                    let k = if m.width() > 1 {
                        m.select(unit(rng))
                    } else {
                        0
                    };
                    m.msps[k].sent += 1;
                    (m.msps[k].x, m.msps[k].y, k as u32)
                }
            }
        };
        self.counters.sent += 1;
        if x == a && y == b {
            self.counters.sent_canonical += 1;
        }
        state.phase = 0;
        state.hop = 0;
        state.tag = 0;
        state.via = [x, y];
        if self.steps.message_ties() {
            state.aux = self.spec.tie.source_bits(a, rng);
        }
        state.path = path.min(u16::MAX as u32) as u16;
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let st = hop.state;
        let at = hop.at;
        let dst = hop.pkt.dst_switch;
        // `hop` holds 1 + the step of the last hop routed (0 before the
        // first), so the class the packet arrived in counts only after it.
        let first = st.hop == 0;
        let last_step = st.hop.saturating_sub(1) as u8;
        // Advance past waypoints reached (null steps included).
        let target = loop {
            let target = match st.phase {
                0 => st.via[0],
                1 => st.via[1],
                _ => dst,
            };
            if at == target && st.phase < 2 {
                st.phase += 1;
                continue;
            }
            break target;
        };
        if at == target {
            return;
        }
        if first || st.phase != last_step {
            self.steps.enter(at, target, st);
        }
        st.hop = st.phase as u16 + 1;
        // Classes: from the class of the last class VC taken (one above if
        // a step boundary was crossed since), up to the highest that leaves
        // one for every non-null step still to come. `tag` keeps that class
        // (bits 0-1), its step (bits 2-3) and bit 4 = set.
        if !first && let Some(c) = self.steps.class_of(hop.in_vc) {
            st.tag = c as u32 | (last_step as u32) << 2 | 1 << 4;
        }
        let top = self.steps.classes() - 1;
        let later = u8::from(st.phase < 1 && st.via[0] != st.via[1])
            + u8::from(st.phase < 2 && st.via[1] != dst);
        let hi = top.saturating_sub(later);
        let lo = if st.tag & 1 << 4 == 0 {
            0
        } else {
            let (c, s) = ((st.tag & 3) as u8, (st.tag >> 2 & 3) as u8);
            c + u8::from(st.phase != s)
        };
        let (port, upper) = self.steps.hop(at, target, st);
        // A single-step message (no non-null step behind or ahead: it has
        // taken no class VC yet and none is to come) may also take the
        // spare VCs below class 0 (`single-step=spare`, [`steps`]).
        let single = later == 0 && st.tag & 1 << 4 == 0 && self.steps.spare() > 0;
        let (vlo, vhi) = if single {
            self.steps.single(hi, upper)
        } else {
            self.steps.escape(lo, hi, upper)
        };
        out.push(port, vlo, vhi);
        if let Some((alo, ahi)) = self.steps.adaptive() {
            out.push(port, alo, ahi);
        }
    }

    fn on_feedback(&mut self, fb: &Feedback) {
        self.counters.acks += 1;
        if self.spec.limit == Limit::Random {
            return;
        }
        let (a, b) = (fb.pkt.src_switch, fb.pkt.dst_switch);
        if a == b {
            return;
        }
        // Eq. 3: the message's transmission time plus its queueing delays
        // (metapath module docs), with or without its source queueing.
        let latency = match self.spec.latency {
            MspLatency::Total => fb.latency(),
            MspLatency::Network => fb.network_latency(),
        } as f64;
        let i = self.metapath_index(a, b);
        let (x, y) = (fb.state.via[0], fb.state.via[1]);
        let m = &mut self.paths[i];
        // The MSP the message took, if the metapath still holds it.
        let k = fb.state.path as usize;
        let k = if m.msps.get(k).is_some_and(|p| p.x == x && p.y == y) {
            Some(k)
        } else {
            m.msps.iter().position(|p| p.x == x && p.y == y)
        };
        let Some(k) = k else {
            m.acks += 1;
            return;
        };
        let params = self.params;
        let decision = m.hear(k, latency, &params);
        let w = m.width();
        let want = match decision {
            Decision::Keep => return,
            Decision::Grow(d) => w + d as usize,
            Decision::Shrink => w - 1,
        };
        let (msps, size) = self.widest(a, b, want);
        let m = &mut self.paths[i];
        if msps.len() < want {
            m.available = Some(msps.len() as u8);
        }
        let before = m.width();
        let changes = m.changes;
        m.reconfigure(msps, size, matches!(decision, Decision::Grow(_)));
        let after = m.width();
        if m.changes != changes {
            self.counters.changes += 1;
        }
        self.counters.width_sum = self.counters.width_sum + after as u64 - before as u64;
        if before == 1 && after > 1 {
            self.counters.expanded += 1;
        } else if before > 1 && after == 1 {
            self.counters.expanded -= 1;
        }
    }
}

/// The registry's side of the `drb` spec ([`DrbSpec`]): its canonical
/// spelling, where it applies, the VCs it needs and building [`Drb`]. It
/// lives here, beside the routing it builds, so the spec module does not
/// import this one.
impl RoutingBuild for DrbSpec {
    fn canonical(&self) -> String {
        let d = DrbSpec::default();
        let mut s = String::from("drb");
        if let Some(tau) = self.tau {
            s.push_str(&format!(":tau={tau}"));
        }
        if let Some(tolerance) = self.tolerance {
            s.push_str(&format!(":tolerance={tolerance}"));
        }
        if self.max_size != d.max_size {
            s.push_str(&format!(":max-size={}", self.max_size));
        }
        if self.max_width != d.max_width {
            s.push_str(&format!(":max-width={}", self.max_width));
        }
        if self.supernode != d.supernode {
            s.push_str(&format!(":supernode={}", self.supernode.as_str()));
        }
        if self.ack != d.ack {
            s.push_str(&format!(":ack={}", self.ack.as_str()));
        }
        if self.stretch != d.stretch {
            match self.stretch {
                Some(x) => s.push_str(&format!(":stretch={x}")),
                None => s.push_str(":stretch=any"),
            }
        }
        if self.latency != d.latency {
            s.push_str(&format!(":latency={}", self.latency.as_str()));
        }
        if self.single_step != d.single_step {
            s.push_str(&format!(":single-step={}", self.single_step.as_str()));
        }
        if self.tie != d.tie {
            s.push_str(&format!(":tie={}", self.tie.as_str()));
        }
        if self.limit == Limit::Random {
            s.push_str(":limit=random");
        }
        s
    }
    /// On a hypercube and a midimew no step has a tie, and the steps draw
    /// no tie bits there (`Steps::set_message_ties` holds only on
    /// tori and meshes), so every `tie` rule builds the same routing, under
    /// the name without it. (On a mesh `tie=random` and `tie=plus` differ
    /// in the random stream, so they keep their names there.)
    fn canonical_on(&self, net: &Network) -> String {
        match net.shape() {
            Shape::Hypercube { .. } | Shape::Midimew { .. } => DrbSpec {
                tie: DrbSpec::default().tie,
                ..self.clone()
            }
            .canonical(),
            _ => self.canonical(),
        }
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::Cube { .. } | Shape::Hypercube { .. } => Ok(()),
            Shape::Midimew { .. } if self.supernode == SupernodeType::Subtopology => Err(format!(
                "{} is not a cube: it has no subtopology supernodes (use supernode=gravity)",
                net.spec()
            )),
            Shape::Midimew { .. } => Ok(()),
            _ => Err(format!(
                "{} has no minimal static routing for DRB's steps; DRB runs on tori, meshes, hypercubes and midimew",
                net.spec()
            )),
        }
    }
    /// Step classes × dateline halves ([`steps`]): the full
    /// method needs 6 on tori and midimew (three steps, two dateline halves
    /// each) and 3 on meshes and hypercubes; the random limit 4 and 2 (two
    /// steps); the static limit 2 and 1. Packet acknowledgements add their
    /// own class (the engine adds it: 2 on tori and midimew, 1 elsewhere).
    fn min_vcs(&self, net: &Network) -> u8 {
        let halves = match net.shape() {
            Shape::Cube { wrap: true, .. } | Shape::Midimew { .. } => 2,
            _ => 1,
        };
        self.classes() * halves
    }
    fn acknowledgement(&self) -> Acknowledgement {
        self.ack
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(Drb::new(net, self.clone(), vcs)?))
    }
    /// Without `tau=`, τ and Tol are read on the knee of DRB's own static
    /// routing, the routing of its steps and of its static limit (§5): DOR
    /// with DRB's tie rule on tori and meshes (`dor:tie=random` by
    /// default), the `dor` spec's e-cube on hypercubes and minimal routing
    /// on midimew; on the latency DRB compares with ThL (`latency`). The
    /// random limit compares none, so it reads none.
    fn knee_request(&self, net: &Network) -> Option<KneeRequest> {
        if self.tau.is_some() || self.knee.is_some() || self.limit == Limit::Random {
            return None;
        }
        self.applies_to(net).ok()?;
        let static_routing = match net.shape() {
            Shape::Cube { .. } => match self.tie {
                TieRule::Plus => "dor".to_string(),
                tie => format!("dor:tie={}", tie.as_str()),
            },
            _ => "dor".to_string(),
        };
        Some(KneeRequest {
            static_routing,
            latency: match self.latency {
                MspLatency::Network => KneeLatency::Network,
                MspLatency::Total => KneeLatency::Total,
            },
        })
    }
    fn with_knee(&self, knee: &Arc<Knee>) -> Option<Box<dyn RoutingBuild>> {
        Some(Box::new(DrbSpec {
            knee: Some(knee.clone()),
            ..self.clone()
        }))
    }
    /// DRB between its two limits (§5).
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![
            "drb:max-size=0".into(),
            self.canonical(),
            "drb:limit=random".into(),
        ]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
