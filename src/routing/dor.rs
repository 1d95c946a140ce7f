//! Dimension-order routing (DOR): on k-ary n-cubes (Singh's thesis §2, "DOR";
//! Dally and Towles §14.4) and e-cube on hypercubes.
//!
//! Tori use dateline virtual channels for deadlock freedom (Dally and Seitz):
//! in each dimension a packet that still has to cross the wrap-around link
//! uses the lower class `0..V/2`; after crossing it, or if it never crosses
//! it, the upper class `V/2..V`. Needs V >= 2. Meshes and hypercubes are
//! acyclic under dimension order and use every virtual channel.

use super::{BufferView, Candidates, PacketInfo, RouteState, Routing};
use crate::rng::SimRng;
use crate::topology::{PortId, SwitchId};

/// Which way DOR goes when a torus offset is exactly k/2 (two minimal
/// directions). The rule changes throughput on uniform, transpose and
/// worst-case traffic (DOMAIN-NOTES), so it is a parameter.
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

impl TieRule {
    pub const ACCEPTED: &'static str = "plus, random, parity";
    pub fn parse(s: &str) -> Option<TieRule> {
        match s {
            "plus" => Some(TieRule::Plus),
            "random" => Some(TieRule::Random),
            "parity" => Some(TieRule::Parity),
            _ => None,
        }
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            TieRule::Plus => "plus",
            TieRule::Random => "random",
            TieRule::Parity => "parity",
        }
    }
}

/// DOR on a torus or mesh (port `2d` is +d, `2d+1` is -d).
#[derive(Clone, Debug)]
pub struct CubeDor {
    radix: Vec<u32>,
    wrap: bool,
    vcs: u8,
    tie: TieRule,
}

impl CubeDor {
    pub fn new(radix: Vec<u32>, wrap: bool, vcs: u8, tie: TieRule) -> Self {
        CubeDor {
            radix,
            wrap,
            vcs,
            tie,
        }
    }

    /// Direction (+1 / -1) and whether the packet will still cross the
    /// dateline, for offset `c -> t` in a dimension of radix k.
    fn direction(&self, k: u32, c: u32, t: u32, plus_on_tie: bool) -> (bool, bool) {
        if !self.wrap {
            return (t > c, false);
        }
        let delta = (t + k - c) % k;
        let plus = if 2 * delta == k {
            plus_on_tie
        } else {
            2 * delta < k
        };
        let will_wrap = if plus { c > t } else { c < t };
        (plus, will_wrap)
    }
}

impl Routing for CubeDor {
    fn name(&self) -> String {
        format!("dor:tie={}", self.tie.as_str())
    }

    fn at_source(&mut self, pkt: &PacketInfo, state: &mut RouteState, rng: &mut SimRng) {
        state.tag = match self.tie {
            TieRule::Plus => u32::MAX,
            TieRule::Parity => {
                if pkt.src_switch.is_multiple_of(2) {
                    u32::MAX
                } else {
                    0
                }
            }
            TieRule::Random => {
                use rand::RngCore;
                rng.next_u32()
            }
        };
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
        let (mut a, mut b) = (at, pkt.dst_switch);
        for (d, &k) in self.radix.iter().enumerate() {
            let (c, t) = (a % k, b % k);
            a /= k;
            b /= k;
            if c == t {
                continue;
            }
            let (plus, will_wrap) = self.direction(k, c, t, state.tag >> (d % 32) & 1 == 1);
            let port = (2 * d + usize::from(!plus)) as PortId;
            if self.wrap {
                let half = self.vcs / 2;
                if will_wrap {
                    out.push(port, 0, half - 1);
                } else {
                    out.push(port, half, self.vcs - 1);
                }
            } else {
                out.push(port, 0, self.vcs - 1);
            }
            return;
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
