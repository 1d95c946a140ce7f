//! Dimension-order routing (DOR): on k-ary n-cubes (Singh's thesis §2, "DOR";
//! Dally and Towles §14.4) and e-cube on hypercubes.
//!
//! Tori use dateline virtual channels for deadlock freedom (Dally and Seitz).
//! In each dimension, a packet that has to cross the wrap-around link uses
//! the lower class `0..V/2` until it crosses it and the upper class `V/2..V`
//! after. Packets that never cross the wrap-around link in a dimension:
//! - [`VcClasses::Strict`] (default): the classic scheme, always the upper
//!   class (the lower class then carries only wrapping packets).
//! - [`VcClasses::Balanced`] (`dor:classes=balanced`): pick one class at
//!   random when they enter the dimension and keep it for the whole
//!   dimension. Each class stays acyclic (the lower class never continues
//!   past the wrap link, the upper class never contains it) and the only
//!   dependencies between classes go lower to upper, so the routing stays
//!   deadlock-free while both classes carry traffic. Measured: it lifts
//!   uniform saturation on torus:8x8 from 0.467 to 0.487 flits/host/cycle,
//!   but past saturation of tornado on an 8-node ring it falls to 0.125 at
//!   some loads (0.5, 0.6) where the strict scheme holds 0.22 (`routelab sim
//!   --topology torus:8 --traffic tornado --packet-flits 1 --load 0.6
//!   --routing dor:classes=balanced`), and not at others (0.25 at 0.7).
//!   Why: the lower class of the ring fills up (every ring input's VC 0
//!   full, VC 1 empty), and then only hosts 5-7 (the wrapping ones) deliver;
//!   hosts 0-4 starve, their first channels carrying nothing for 20 000
//!   cycles. The switch's VC-allocation priority rotates by one input port
//!   per cycle whatever was granted, and in that steady state it
//!   phase-locks with the period at which VC 0 of the next channel frees,
//!   so the through port at switch 5 never comes first. With a
//!   pseudo-random first port per switch and cycle instead
//!   (`--port-priority random`, [`PortPriority`](crate::sim::PortPriority))
//!   the balanced scheme holds 0.23 at every load past saturation and the
//!   strict one 0.19. So the collapse is an artefact of the allocator's
//!   priority rule meeting a perfectly periodic pattern, not of the class
//!   assignment (`tests/throughput.rs` checks both sides). It stays off by
//!   default, since the default priority is the rotating one.
//!
//! Needs V >= 2 on tori. Meshes and hypercubes are acyclic under dimension
//! order and use every virtual channel.

use super::kind::{Family, RoutingBuild, RoutingKind, options};
use super::law::{DimOrder, DimStep, Dir, Law, ObliviousLaw, minimal_dirs, one_phase, stay};
use super::midimew::MidimewMinimal;
use super::{Candidate, Candidates, Hop, PacketInfo, PairTable, RouteState, Routing, Source};
use crate::topology::cube::Geometry;
use crate::topology::{Network, PortId, Shape, SwitchId};
use std::sync::Arc;

pub(super) const KIND: RoutingKind = RoutingKind {
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

/// Dimension-order routing, "DOR" (Singh's thesis §2.3; e-cube): minimal,
/// dimensions 0, 1, ... in turn; an offset of exactly k/2 goes by `tie`
/// (plus|random|parity, default plus). The simulated routing is
/// [`CubeDor`]; this is its law for the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DorLaw {
    pub tie: TieRule,
}

impl ObliviousLaw for DorLaw {
    fn spec(&self) -> String {
        format!("dor:tie={}", self.tie.as_str())
    }
    fn name(&self) -> String {
        match self.tie {
            TieRule::Plus => "dor".into(),
            t => format!("dor:tie={}", t.as_str()),
        }
    }
    fn dim_steps(&self, k: u32, wrap: bool, side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        if a == b {
            return stay(a);
        }
        let tie = match self.tie {
            TieRule::Plus => Some(Dir::Plus),
            TieRule::Parity => Some(side),
            TieRule::Random => None,
        };
        one_phase(a, &minimal_dirs(k, wrap, a, b, tie))
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (DimOrder::Xy, DimOrder::Xy)
    }
    fn two_phase(&self) -> bool {
        false
    }
    fn depends_on_source(&self) -> bool {
        self.tie == TieRule::Parity
    }
    fn tie_side(&self, s: u32) -> Dir {
        if self.tie == TieRule::Parity && s % 2 == 1 {
            Dir::Minus
        } else {
            Dir::Plus
        }
    }
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
            Shape::Hypercube { .. } => Box::new(Ecube::new(vcs)),
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

/// Which way DOR goes when a torus offset is exactly k/2 (two minimal
/// directions). The rule changes throughput on uniform, transpose and
/// worst-case traffic, so it is a parameter (`dor:tie=`, and `drb:tie=` for
/// the steps of DRB's multi-step paths, [`crate::routing::drb::DrbSpec::tie`]).
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieRule {
    /// Always the + direction (BookSim's default).
    #[default]
    Plus,
    /// Chosen uniformly per packet and dimension at the source.
    Random,
    /// + when the source switch id is even, - when odd.
    Parity,
}

crate::spec_options::keyword_enum!(TieRule);

impl TieRule {
    /// A packet's tie bits, set at its source: bit d set means + on a tie
    /// in dimension d. DOR keeps them in `RouteState::tag`, DRB's steps in
    /// `RouteState::aux` ([`crate::routing::drb::DrbSpec::tie`]).
    #[inline]
    pub fn source_bits<R: rand::RngCore + ?Sized>(self, src_switch: SwitchId, rng: &mut R) -> u32 {
        match self {
            TieRule::Random => rng.next_u32(),
            _ => self.fixed_bits(src_switch),
        }
    }

    /// The tie bits of `plus` and `parity`, which draw nothing.
    fn fixed_bits(self, src_switch: SwitchId) -> u32 {
        if self == TieRule::Parity && !src_switch.is_multiple_of(2) {
            0
        } else {
            u32::MAX
        }
    }

    /// Every value [`TieRule::source_bits`] can take for a packet from
    /// `src_switch` on a network of `dims` dimensions (for the
    /// channel-dependency test): all `2^dims` draws with `random` (bits
    /// above the dimensions do not matter; at most 12 dimensions).
    pub fn source_choices(self, src_switch: SwitchId, dims: usize) -> Vec<u32> {
        match self {
            TieRule::Random => (0..1u32 << dims.min(12)).collect(),
            _ => vec![self.fixed_bits(src_switch)],
        }
    }
}

/// How torus DOR assigns dateline classes to packets that do not wrap.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VcClasses {
    /// Random class per packet and dimension (module docs).
    Balanced,
    /// Always the upper class.
    #[default]
    Strict,
}

crate::spec_options::keyword_enum!(VcClasses);

/// DOR on a torus or mesh (port `2d` is +d, `2d+1` is -d).
///
/// Packet state: `tag` bit d = go + on a tie in dimension d; `aux` bit d =
/// the packet crosses the wrap link in dimension d, bit 16 + d = its class
/// in dimension d when it does not. With strict classes the class bits are
/// all set and the wrap bits not kept: the class is then the dateline side
/// the packet is on at each hop (upper once it has crossed the wrap link
/// or when it never will), which needs neither.
#[derive(Clone, Debug)]
pub struct CubeDor {
    geometry: Geometry,
    vcs: u8,
    tie: TieRule,
    classes: VcClasses,
}

impl CubeDor {
    pub fn new(radix: Vec<u32>, wrap: bool, vcs: u8, tie: TieRule, classes: VcClasses) -> Self {
        CubeDor {
            geometry: Geometry::new(radix, wrap),
            vcs,
            tie,
            classes,
        }
    }
}

/// [`CubeDor`] with its answers looked up in a table instead of worked out
/// per hop. With the default rules (`tie=plus`, strict classes) DOR's
/// answer at a switch depends on nothing but that switch and the
/// destination's: the first dimension in which they differ and their
/// coordinates there. So the answers are worked out once when the routing
/// is built, and looked up per hop:
/// - on networks of up to [`TABLE_MAX_SWITCHES`] switches, for every pair
///   of switches (no coordinate arithmetic at all), in a [`PairTable`]
///   that the engine looks up itself ([`Routing::pair_table`]);
/// - on larger ones, for every dimension and pair of coordinates in it
///   (the first differing dimension is still found per hop; a table of
///   every pair would no longer fit in the cache beside the simulation's
///   own state).
///
/// The same answers (a unit test compares them with [`CubeDor`]'s), in
/// fewer instructions for the whole run: `torus:8x8` at 0.3 11.9 % (5.7 %
/// from the table, 6.6 % more from the engine's own lookup), `torus:32x32`
/// at 0.1 2.6 % (docs/performance.md, "Engine, eighth pass"). A type of
/// its own, not a test inside [`CubeDor`]: such a test cost the runs that
/// still work the answers out 0.5 %.
#[derive(Clone, Debug)]
pub struct TabulatedDor {
    dor: CubeDor,
    lookup: Lookup,
}

/// Where [`TabulatedDor`] keeps its answers.
#[derive(Clone, Debug)]
enum Lookup {
    /// The answer at every switch for every destination switch, which the
    /// engine also looks up itself ([`Routing::pair_table`]).
    Pairs(Arc<PairTable>),
    /// The answer in dimension `d` from coordinate `c` to `t`, at
    /// `start[d] + c · k_d + t`.
    Dims {
        start: Vec<usize>,
        table: Vec<Candidate>,
    },
}

/// Most switches for which [`TabulatedDor`] keeps the answer of every pair:
/// 128 switches are 16 384 answers of 4 bytes (64 kB).
pub const TABLE_MAX_SWITCHES: u32 = 128;

/// A per-dimension entry with no answer (equal coordinates, never asked).
const NO_CANDIDATE: Candidate = Candidate {
    port: PortId::MAX,
    vc_lo: 0,
    vc_hi: 0,
};

impl TabulatedDor {
    /// The tabulated routing, or `dor` back when its rules rule a table
    /// out (a tie rule other than `plus`, or balanced classes).
    pub fn new(dor: CubeDor) -> Result<Self, CubeDor> {
        // `tie=plus` sets every tie bit of every packet and strict classes
        // read no state bits (`at_source`), so one state stands for all.
        if dor.tie != TieRule::Plus || dor.classes != VcClasses::Strict {
            return Err(dor);
        }
        let state = RouteState {
            tag: TieRule::Plus.fixed_bits(0),
            aux: 0xFFFF << 16,
            ..RouteState::default()
        };
        let answer = |a: SwitchId, b: SwitchId| {
            let mut out = Candidates::default();
            dor.compute(a, b, &state, &mut out);
            out.as_slice().first().copied()
        };
        let g = &dor.geometry;
        let n = g.nodes();
        let lookup = if n <= TABLE_MAX_SWITCHES {
            Lookup::Pairs(Arc::new(PairTable::build(n, answer)))
        } else {
            // Switch ids put dimension 0 lowest: coordinate c in dimension
            // d alone is switch c · (k_0 · ... · k_{d-1}).
            let (mut start, mut table, mut stride) = (Vec::new(), Vec::new(), 1);
            for &k in g.radix() {
                start.push(table.len());
                for c in 0..k {
                    for t in 0..k {
                        table.push(answer(c * stride, t * stride).unwrap_or(NO_CANDIDATE));
                    }
                }
                stride *= k;
            }
            Lookup::Dims { start, table }
        };
        Ok(TabulatedDor { dor, lookup })
    }
}

impl Routing for TabulatedDor {
    fn name(&self) -> String {
        self.dor.name()
    }
    fn at_source(&mut self, src: Source<'_>) {
        self.dor.at_source(src)
    }
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        self.dor.source_states(pkt)
    }
    fn pair_table(&self) -> Option<Arc<PairTable>> {
        match &self.lookup {
            Lookup::Pairs(table) => Some(table.clone()),
            Lookup::Dims { .. } => None,
        }
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let (at, dst) = (hop.at, hop.pkt.dst_switch);
        let e = match &self.lookup {
            Lookup::Pairs(table) => match table.get(at, dst) {
                Some(e) => e,
                None => return,
            },
            Lookup::Dims { start, table } => {
                let g = &self.dor.geometry;
                let Some((d, c, t)) = g.first_difference(at, dst) else {
                    return;
                };
                table[start[d] + (c * g.radix()[d] + t) as usize]
            }
        };
        if e.port != NO_CANDIDATE.port {
            out.push(e.port, e.vc_lo, e.vc_hi);
        }
    }
}

impl CubeDor {
    /// The route state of a packet with tie bits `tag` and class bits
    /// `classes` on a torus: which dimensions it wraps in.
    fn state(&self, pkt: &PacketInfo, tag: u32, classes: u32) -> RouteState {
        let g = &self.geometry;
        let (sc, dc) = (g.coords(pkt.src_switch), g.coords(pkt.dst_switch));
        let mut wraps = 0u32;
        for d in 0..g.dims().min(16) {
            let (c, t) = (sc[d], dc[d]);
            let plus = g.minimal_plus(g.radix()[d], c, t, tag >> d & 1 == 1);
            wraps |= (Geometry::still_to_wrap(c, t, plus) as u32) << d;
        }
        RouteState {
            tag,
            aux: wraps | classes << 16,
            ..RouteState::default()
        }
    }
}

impl Routing for CubeDor {
    fn name(&self) -> String {
        let mut n = format!("dor:tie={}", self.tie.as_str());
        if self.classes != VcClasses::Strict {
            n.push_str(&format!(":classes={}", self.classes.as_str()));
        }
        n
    }

    fn at_source(&mut self, src: Source<'_>) {
        use rand::RngCore;
        let Source {
            pkt, state, rng, ..
        } = src;
        let tag = self.tie.source_bits(pkt.src_switch, rng);
        if !self.geometry.wrap() {
            state.tag = tag;
            return;
        }
        *state = match self.classes {
            VcClasses::Balanced => self.state(pkt, tag, rng.next_u32() & 0xFFFF),
            // `route` reads no wrap bits with strict classes.
            VcClasses::Strict => RouteState {
                tag,
                aux: 0xFFFF << 16,
                ..RouteState::default()
            },
        };
    }

    /// Every tie choice and class draw (for the channel-dependency test).
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        let n = self.geometry.dims().min(12);
        let ties = self.tie.source_choices(pkt.src_switch, n);
        let classes: Vec<u32> = match self.classes {
            VcClasses::Balanced if self.geometry.wrap() => (0..1u32 << n).collect(),
            _ => vec![0xFFFF],
        };
        let mut out = Vec::new();
        for &t in &ties {
            for &c in &classes {
                out.push(if self.geometry.wrap() {
                    self.state(pkt, t, c)
                } else {
                    RouteState {
                        tag: t,
                        ..RouteState::default()
                    }
                });
            }
        }
        Some(out)
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        self.compute(hop.at, hop.pkt.dst_switch, hop.state, out)
    }
}

impl CubeDor {
    /// DOR's answer at switch `at` for a packet to switch `dst` with route
    /// state `state` (none when `at == dst`). Inlined into `route`: as a
    /// call it cost the networks without a table 2-3 % more instructions.
    #[inline(always)]
    fn compute(&self, at: SwitchId, dst: SwitchId, state: &RouteState, out: &mut Candidates) {
        let g = &self.geometry;
        let Some((d, c, t)) = g.first_difference(at, dst) else {
            return;
        };
        let plus = g.minimal_plus(g.radix()[d], c, t, state.tag >> (d % 32) & 1 == 1);
        let port = Geometry::port(d, plus);
        if g.wrap() {
            let half = self.vcs / 2;
            let bit = d.min(15);
            // Dateline rule: the lower class until the packet has crossed
            // the wrap link, the upper one after; packets that never wrap
            // in this dimension use the class chosen at the source.
            // Selects, not branches.
            let crossed = !Geometry::still_to_wrap(c, t, plus);
            // With strict classes a packet that never wraps in this
            // dimension is upper (class bit set) and never still has to
            // wrap (`crossed` true), so `crossed` alone is the answer; the
            // test is the same for every hop of a run.
            let upper = if self.classes == VcClasses::Strict {
                crossed
            } else {
                let wraps = state.aux >> bit & 1 == 1;
                let class = state.aux >> (16 + bit) & 1 == 1;
                (wraps & crossed) | (!wraps & class)
            };
            let (lo, hi) = if upper {
                (half, self.vcs - 1)
            } else {
                (0, half - 1)
            };
            out.push(port, lo, hi);
        } else {
            out.push(port, 0, self.vcs - 1);
        }
    }
}

/// E-cube routing on a binary hypercube: correct the lowest differing bit.
#[derive(Clone, Debug)]
pub struct Ecube {
    vcs: u8,
}

impl Ecube {
    pub fn new(vcs: u8) -> Self {
        Ecube { vcs }
    }
}

impl Routing for Ecube {
    fn name(&self) -> String {
        "dor".into()
    }
    fn source_states(&self, _pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(vec![RouteState::default()])
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let diff = hop.at ^ hop.pkt.dst_switch;
        if diff != 0 {
            out.push(
                diff.trailing_zeros() as crate::topology::PortId,
                0,
                self.vcs - 1,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};
    use crate::routing::BufferView;

    struct Idle;
    impl BufferView for Idle {
        fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
            1
        }
    }

    /// The table of the default rules gives, for every switch, destination
    /// and source, the answer the arithmetic gives with the state the
    /// packet gets at its source, kept per pair of switches (up to 128
    /// switches) or per dimension (more); the other rules keep no table.
    /// Odd and even radices (ties), tori and meshes, 1-4 dimensions, 2 and
    /// 4 VCs.
    #[test]
    fn table_answers_as_the_arithmetic_does() {
        let mut rng = stream(7, Stream::Routing);
        for (radix, wrap) in [
            (vec![8, 8], true),
            (vec![4], true),
            (vec![5, 4, 3], true),
            (vec![11, 11], true),
            (vec![16, 12], true),
            (vec![3, 3, 3, 5], true),
            (vec![4, 4], false),
            (vec![12, 11], false),
            (vec![2, 3, 4], false),
        ] {
            for vcs in [2u8, 4] {
                let mut plain =
                    CubeDor::new(radix.clone(), wrap, vcs, TieRule::Plus, VcClasses::Strict);
                let mut dor = TabulatedDor::new(plain.clone()).expect("a table");
                let n = plain.geometry.nodes();
                // Both ways of keeping the answers are compared.
                let pairs = matches!(dor.lookup, Lookup::Pairs(_));
                assert_eq!(dor.pair_table().is_some(), pairs);
                assert_eq!(pairs, n <= TABLE_MAX_SWITCHES, "{radix:?}");
                // Every source on the small networks, a spread of them on
                // the others (the state of these rules is the same for all).
                for src in (0..n).step_by((n as usize / 16).max(1)) {
                    for dst in 0..n {
                        let pkt = PacketInfo {
                            src_host: src,
                            dst_host: dst,
                            src_switch: src,
                            dst_switch: dst,
                            flits: 1,
                        };
                        let mut state = RouteState::default();
                        plain.at_source(Source {
                            now: 0,
                            pkt: &pkt,
                            state: &mut state,
                            rng: &mut rng,
                        });
                        // Every switch, on the packet's path or not.
                        for at in 0..n {
                            let mut answers = [Candidates::default(); 2];
                            let routings: [&mut dyn Routing; 2] = [&mut dor, &mut plain];
                            for (r, out) in routings.into_iter().zip(&mut answers) {
                                r.route(
                                    Hop {
                                        at,
                                        in_port: 0,
                                        in_vc: 0,
                                        now: 0,
                                        pkt: &pkt,
                                        state: &mut state.clone(),
                                        view: &Idle,
                                        rng: &mut rng,
                                    },
                                    out,
                                );
                            }
                            assert_eq!(
                                answers[0].as_slice(),
                                answers[1].as_slice(),
                                "{radix:?} wrap {wrap} at {at} from {src} to {dst}"
                            );
                            assert_eq!(answers[0].is_empty(), at == dst);
                        }
                    }
                }
            }
        }
        for (tie, classes) in [
            (TieRule::Random, VcClasses::Strict),
            (TieRule::Parity, VcClasses::Strict),
            (TieRule::Plus, VcClasses::Balanced),
        ] {
            assert!(TabulatedDor::new(CubeDor::new(vec![8, 8], true, 2, tie, classes)).is_err());
        }
    }
}
