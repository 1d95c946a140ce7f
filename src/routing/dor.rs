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

use super::{BufferView, Candidates, PacketInfo, RouteState, Routing};
use crate::rng::SimRng;
use crate::topology::{PortId, SwitchId};

/// Which way DOR goes when a torus offset is exactly k/2 (two minimal
/// directions). The rule changes throughput on uniform, transpose and
/// worst-case traffic, so it is a parameter.
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
/// in dimension d when it does not.
#[derive(Clone, Debug)]
pub struct CubeDor {
    radix: Vec<u32>,
    wrap: bool,
    vcs: u8,
    tie: TieRule,
    classes: VcClasses,
    /// Coordinates of every switch, `coords[s * n + d]`.
    coords: Vec<u32>,
    /// The same coordinates packed one byte per dimension (dimension d in
    /// bits 8d..8d+8), when there are at most 8 dimensions of radix at most
    /// 256; empty otherwise. The next dimension to correct is then one XOR
    /// and a trailing-zeros count per hop instead of a loop.
    packed: Vec<u64>,
}

impl CubeDor {
    pub fn new(radix: Vec<u32>, wrap: bool, vcs: u8, tie: TieRule, classes: VcClasses) -> Self {
        let total: u32 = radix.iter().product();
        let coords: Vec<u32> = (0..total)
            .flat_map(|s| crate::topology::cube::coords(&radix, s))
            .collect();
        let n = radix.len();
        let packed = if n <= 8 && radix.iter().all(|&k| k <= 256) {
            coords
                .chunks(n.max(1))
                .map(|c| c.iter().rev().fold(0u64, |acc, &x| acc << 8 | x as u64))
                .collect()
        } else {
            Vec::new()
        };
        CubeDor {
            packed,
            radix,
            wrap,
            vcs,
            tie,
            classes,
            coords,
        }
    }

    /// Direction (+1 / -1) for offset `c -> t` in a dimension of radix k.
    /// Written without data-dependent branches (selects only): under
    /// random traffic every comparison here is a coin toss, and this runs
    /// once per packet per dimension at the source and once per hop.
    #[inline]
    fn plus(&self, k: u32, c: u32, t: u32, plus_on_tie: bool) -> bool {
        if !self.wrap {
            return t > c;
        }
        let delta = if t >= c { t - c } else { t + k - c };
        let tie = 2 * delta == k;
        (tie & plus_on_tie) | (!tie & (2 * delta < k))
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

    fn at_source(&mut self, pkt: &PacketInfo, state: &mut RouteState, rng: &mut SimRng) {
        use rand::RngCore;
        state.tag = match self.tie {
            TieRule::Plus => u32::MAX,
            TieRule::Parity => {
                if pkt.src_switch.is_multiple_of(2) {
                    u32::MAX
                } else {
                    0
                }
            }
            TieRule::Random => rng.next_u32(),
        };
        if !self.wrap {
            return;
        }
        let n = self.radix.len();
        let (sc, dc) = (
            &self.coords[pkt.src_switch as usize * n..][..n],
            &self.coords[pkt.dst_switch as usize * n..][..n],
        );
        let mut wraps = 0u32;
        for d in 0..n.min(16) {
            let (c, t) = (sc[d], dc[d]);
            let plus = self.plus(self.radix[d], c, t, state.tag >> d & 1 == 1);
            // Non-short-circuit operators: no branch on the coordinates.
            let wrap = (c != t) & ((plus & (c > t)) | (!plus & (c < t)));
            wraps |= (wrap as u32) << d;
        }
        let classes = match self.classes {
            VcClasses::Balanced => rng.next_u32() & 0xFFFF,
            VcClasses::Strict => 0xFFFF,
        };
        state.aux = wraps | classes << 16;
    }

    fn route(
        &mut self,
        at: SwitchId,
        _in_port: PortId,
        pkt: &PacketInfo,
        state: &mut RouteState,
        _view: &dyn BufferView,
        _rng: &mut SimRng,
        out: &mut Candidates,
    ) {
        let (d, c, t) = if self.packed.is_empty() {
            let n = self.radix.len();
            let here = &self.coords[at as usize * n..][..n];
            let there = &self.coords[pkt.dst_switch as usize * n..][..n];
            match (0..n).find(|&d| here[d] != there[d]) {
                Some(d) => (d, here[d], there[d]),
                None => return,
            }
        } else {
            // The lowest unaligned dimension without a branch per dimension
            // (which one comes next is a coin toss under random traffic).
            let (h, g) = (
                self.packed[at as usize],
                self.packed[pkt.dst_switch as usize],
            );
            let x = h ^ g;
            if x == 0 {
                return;
            }
            let shift = x.trailing_zeros() & !7;
            (
                (shift / 8) as usize,
                (h >> shift) as u32 & 0xFF,
                (g >> shift) as u32 & 0xFF,
            )
        };
        let plus = self.plus(self.radix[d], c, t, state.tag >> (d % 32) & 1 == 1);
        let port = (2 * d + usize::from(!plus)) as PortId;
        if self.wrap {
            let half = self.vcs / 2;
            let bit = d.min(15);
            // Crosses the dateline: lower class until it has; otherwise the
            // class chosen at the source. Selects, not branches.
            let wraps = state.aux >> bit & 1 == 1;
            let crossed = (plus & (c < t)) | (!plus & (c > t));
            let class = state.aux >> (16 + bit) & 1 == 1;
            let upper = (wraps & crossed) | (!wraps & class);
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
    fn route(
        &mut self,
        at: SwitchId,
        _in_port: PortId,
        pkt: &PacketInfo,
        _state: &mut RouteState,
        _view: &dyn BufferView,
        _rng: &mut SimRng,
        out: &mut Candidates,
    ) {
        let diff = at ^ pkt.dst_switch;
        if diff != 0 {
            out.push(diff.trailing_zeros() as PortId, 0, self.vcs - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    struct Empty;
    impl BufferView for Empty {
        fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
            1
        }
    }

    /// The packed-coordinate fast path and the general loop choose the same
    /// port and VC class for every switch pair, tie rule and class draw.
    #[test]
    fn packed_coordinates_route_like_the_general_loop() {
        for (radix, wrap) in [
            (vec![8, 8], true),
            (vec![5, 3, 4], true),
            (vec![6, 5], false),
            (vec![256, 2], true),
        ] {
            for (tie, classes) in [
                (TieRule::Plus, VcClasses::Strict),
                (TieRule::Random, VcClasses::Balanced),
                (TieRule::Parity, VcClasses::Strict),
            ] {
                let fast = CubeDor::new(radix.clone(), wrap, 4, tie, classes);
                assert!(!fast.packed.is_empty());
                let mut slow = fast.clone();
                slow.packed.clear();
                let total: u32 = radix.iter().product();
                let mut rng = stream(3, Stream::Routing);
                for a in (0..total).step_by(7) {
                    for b in 0..total {
                        let info = PacketInfo {
                            src_host: a,
                            dst_host: b,
                            src_switch: a,
                            dst_switch: b,
                            flits: 1,
                        };
                        let mut st = RouteState::default();
                        let mut f = fast.clone();
                        f.at_source(&info, &mut st, &mut rng);
                        for at in [a, b, (a + b) % total] {
                            let (mut cf, mut cs) = (Candidates::default(), Candidates::default());
                            let (mut sf, mut ss) = (st, st);
                            f.route(at, 0, &info, &mut sf, &Empty, &mut rng, &mut cf);
                            slow.route(at, 0, &info, &mut ss, &Empty, &mut rng, &mut cs);
                            assert_eq!(cf.as_slice(), cs.as_slice(), "{radix:?} {a}->{b} at {at}");
                        }
                    }
                }
            }
        }
    }
}
