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

use super::law::{DimOrder, DimStep, Dir, ObliviousLaw, minimal_dirs, one_phase, stay};
use super::{
    Candidates, Hop, PacketInfo, PairTable, RouteState, Routing, Source, TABLE_MAX_SWITCHES,
};

mod spec;
mod table;
use crate::topology::SwitchId;
use crate::topology::cube::Geometry;
pub use spec::DorSpec;
pub(super) use spec::KIND;
use std::sync::Arc;
pub use table::TabulatedDor;

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

    /// The state `at_source` gives with ties to +, which draw nothing and
    /// read nothing of the packet, and strict classes on a torus (or a
    /// mesh's none). Every other rule's state depends on the source switch
    /// or a draw. (`fixed_source_state_is_what_at_source_gives` checks it
    /// against `at_source`.)
    fn fixed_source_state(&self) -> Option<RouteState> {
        if self.tie != TieRule::Plus {
            return None;
        }
        let tag = TieRule::Plus.fixed_bits(0);
        if !self.geometry.wrap() {
            return Some(RouteState {
                tag,
                ..RouteState::default()
            });
        }
        match self.classes {
            VcClasses::Balanced => None,
            // `route` reads no wrap bits with strict classes.
            VcClasses::Strict => Some(RouteState {
                tag,
                aux: 0xFFFF << 16,
                ..RouteState::default()
            }),
        }
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
/// Its answer depends on nothing but the switch and the destination, so on
/// hypercubes of up to [`TABLE_MAX_SWITCHES`] switches it also offers the
/// engine its answers as a [`PairTable`] ([`Routing::pair_table`]); `route`
/// keeps the arithmetic (an XOR and a trailing-zeros count), which is what
/// the table holds.
#[derive(Clone, Debug)]
pub struct Ecube {
    vcs: u8,
    table: Option<Arc<PairTable>>,
}

impl Ecube {
    /// E-cube with `vcs` VCs (every one a candidate) on a hypercube of
    /// `switches` switches.
    pub fn new(vcs: u8, switches: u32) -> Self {
        let mut ecube = Ecube { vcs, table: None };
        if switches <= TABLE_MAX_SWITCHES {
            let answer = |at: SwitchId, dst: SwitchId| {
                let mut out = Candidates::default();
                ecube.answer(at, dst, &mut out);
                out.as_slice().first().copied()
            };
            ecube.table = Some(Arc::new(PairTable::build(switches, answer)));
        }
        ecube
    }

    #[inline]
    fn answer(&self, at: SwitchId, dst: SwitchId, out: &mut Candidates) {
        let diff = at ^ dst;
        if diff != 0 {
            out.push(
                diff.trailing_zeros() as crate::topology::PortId,
                0,
                self.vcs - 1,
            );
        }
    }
}

impl Routing for Ecube {
    fn name(&self) -> String {
        "dor".into()
    }
    fn source_states(&self, _pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(vec![RouteState::default()])
    }
    fn pair_table(&self) -> Option<Arc<PairTable>> {
        self.table.clone()
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        self.answer(hop.at, hop.pkt.dst_switch, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream, stream};
    use rand::RngCore;

    /// A one-flit packet from switch `src` to switch `dst` (host `i` on
    /// switch `i`), and the state `routing`'s `at_source` leaves it in,
    /// drawing from `rng`.
    pub(super) fn at_source_of(
        routing: &mut dyn Routing,
        src: SwitchId,
        dst: SwitchId,
        rng: &mut SimRng,
    ) -> (PacketInfo, RouteState) {
        let pkt = PacketInfo {
            src_host: src,
            dst_host: dst,
            src_switch: src,
            dst_switch: dst,
            flits: 1,
        };
        let mut state = RouteState::default();
        routing.at_source(Source {
            now: 0,
            pkt: &pkt,
            state: &mut state,
            rng,
        });
        (pkt, state)
    }

    /// Where DOR offers a fixed source state, `at_source` gives every
    /// packet that state and draws nothing; it offers one for ties to +
    /// with strict classes or on a mesh, and none for the other rules.
    #[test]
    fn fixed_source_state_is_what_at_source_gives() {
        for (radix, wrap) in [
            (vec![4, 4], true),
            (vec![5, 3], false),
            (vec![3, 4, 2], true),
        ] {
            for tie in [TieRule::Plus, TieRule::Random, TieRule::Parity] {
                for classes in [VcClasses::Strict, VcClasses::Balanced] {
                    let mut dor = CubeDor::new(radix.clone(), wrap, 2, tie, classes);
                    let fixed = dor.fixed_source_state();
                    let offered = tie == TieRule::Plus && (classes == VcClasses::Strict || !wrap);
                    assert_eq!(fixed.is_some(), offered, "{radix:?} {tie:?} {classes:?}");
                    let Some(fixed) = fixed else { continue };
                    let n = dor.geometry.nodes();
                    let mut rng = stream(5, Stream::Routing);
                    for (src, dst) in (0..n).flat_map(|s| (0..n).map(move |d| (s, d))) {
                        let mut drawn = rng.clone();
                        let (_, state) = at_source_of(&mut dor, src, dst, &mut drawn);
                        assert_eq!(state, fixed, "{radix:?} {tie:?} {classes:?} {src}->{dst}");
                        assert_eq!(drawn.next_u64(), rng.clone().next_u64(), "a draw");
                        // (Each packet's call starts from another point of
                        // the stream.)
                        rng.next_u64();
                    }
                }
            }
        }
    }

    /// E-cube's table holds its arithmetic's answer for every pair (the
    /// lowest differing bit, every VC) up to 128 switches; above, there is
    /// no table.
    #[test]
    fn ecube_table_answers_as_the_arithmetic_does() {
        for dims in 1..=7u32 {
            let n = 1 << dims;
            let ecube = Ecube::new(3, n);
            let table = ecube.pair_table().expect("a table up to 128 switches");
            assert_eq!(table.switches(), n as usize);
            for at in 0..n {
                for dst in 0..n {
                    let mut out = Candidates::default();
                    ecube.answer(at, dst, &mut out);
                    assert_eq!(table.get(at, dst).as_slice(), out.as_slice());
                    let bit = (at != dst).then(|| (at ^ dst).trailing_zeros());
                    assert_eq!(out.as_slice().first().map(|c| c.port as u32), bit);
                }
            }
        }
        assert!(Ecube::new(2, 256).pair_table().is_none());
    }
}
