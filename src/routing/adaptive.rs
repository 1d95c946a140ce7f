//! Minimal adaptive routing with a dimension-order escape channel: Duato's
//! protocol (J. Duato, "A new theory of deadlock-free adaptive routing in
//! wormhole networks", IEEE TPDS 4(12), 1993; Duato, Yalamanchili and Ni,
//! *Interconnection Networks*, ch. 4), the adaptive baseline DRB positions
//! itself against (Franco et al. §1, §6).
//!
//! On tori, meshes and hypercubes. At every switch the packet may take any
//! *minimal* output (every dimension with an offset left; both directions
//! of a torus dimension at an offset of exactly k/2) on the *adaptive*
//! virtual channels, ordered by free downstream buffer space (the sum of
//! the credits of the port's adaptive VCs, [`BufferView`]; ties: lower
//! dimension, then +), and last the *escape* channel: the port dimension
//! order takes (ties to +), on the escape VCs with the dateline rule
//! ([`Geometry::still_to_wrap`]).
//!
//! VCs: tori use VCs 0 and 1 as the escape pair (lower and upper dateline
//! halves) and 2.. as adaptive; meshes and hypercubes VC 0 as escape and
//! 1.. as adaptive. Minimum: 3 on tori, 2 on meshes and hypercubes.
//!
//! Deadlock freedom (Duato's theorem): the escape subfunction, DOR with
//! datelines, is connected, and its *extended* channel-dependency graph —
//! direct dependencies between escape channels plus the indirect ones
//! through any sequence of adaptive hops — is acyclic: a minimal adaptive
//! hop never reopens a dimension DOR has finished, nor turns back in a
//! dimension, so from an escape channel of dimension i a packet can only
//! next ask for escape channels of dimension i further along its direction
//! (lower half before the wrap link, upper after) or of a higher dimension.
//! `tests/drb.rs` builds that graph on torus:4x4 and checks it.
//!
//! The routing needs a selection that takes any free candidate
//! (`selection = first-free` or `adaptive`): with `fixed` a packet would
//! wait for its first adaptive choice only, and the escape channel would
//! never be reachable. And Duato's theorem assumes a VC holds one packet at
//! a time: with buffers deeper than one flit the router must then wait for
//! the tail credit before reallocating a VC (`wait_for_tail_credit`),
//! otherwise a packet in an escape VC can wait behind another packet's tail
//! in an adaptive VC, and that packet for an escape VC the first could
//! never have asked for (a deadlock routelab reproduced with DRB's random
//! limit on torus:8x8 with 3-flit buffers). Runs refuse both combinations.
//!
//! Past saturation, with one-flit packets and that rule, each VC holds one
//! packet and blocked packets park in whole VCs; with a port order that
//! ignores age the network fills with them and throughput collapses to a
//! quarter, starving the hosts behind the jam (congestion, not deadlock:
//! `tests/adaptive_collapse.rs`, docs/results.md). Age-based arbitration
//! (`port_priority = oldest`) serves packets already in the network first
//! and keeps the router out of that state.

use super::kind::options;
use super::kind::{Family, RoutingBuild, RoutingKind};
use super::{BufferView, Candidates, Hop, MAX_CANDIDATES, PacketInfo, RouteState, Routing};
use crate::topology::cube::Geometry;
use crate::topology::{Network, PortId, Shape, SwitchId};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "adaptive",
    aliases: &["duato"],
    options: "",
    summary: "minimal adaptive routing with a DOR escape channel (Duato), on tori, meshes and hypercubes; needs selection first-free or adaptive",
    families: &[Family::Adaptive],
    parse: |parts| {
        options("adaptive", parts, &[])?;
        Ok(Box::new(AdaptiveSpec))
    },
    examples: &["adaptive"],
};

/// The `adaptive` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptiveSpec;

impl RoutingBuild for AdaptiveSpec {
    fn canonical(&self) -> String {
        "adaptive".into()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::Cube { .. } | Shape::Hypercube { .. } => Ok(()),
            _ => Err(format!(
                "{} is not a torus, mesh or hypercube; adaptive routing needs dimensions",
                net.spec()
            )),
        }
    }
    /// The escape channel's VCs (2 on tori for the dateline, 1 elsewhere)
    /// and at least one adaptive VC.
    fn min_vcs(&self, net: &Network) -> u8 {
        escape_vcs(net) + 1
    }
    fn needs_free_choice(&self) -> bool {
        true
    }
    fn needs_tail_credit(&self) -> bool {
        true
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(match net.shape() {
            Shape::Cube { radix, wrap } => Box::new(Adaptive::new(
                Some(Geometry::new(radix.clone(), *wrap)),
                vcs,
            )),
            Shape::Hypercube { .. } => Box::new(Adaptive::new(None, vcs)),
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

fn escape_vcs(net: &Network) -> u8 {
    match net.shape() {
        Shape::Cube { wrap: true, .. } => 2,
        _ => 1,
    }
}

/// Minimal adaptive routing with a DOR escape channel.
#[derive(Clone, Debug)]
pub struct Adaptive {
    /// The torus or mesh; `None` on a hypercube.
    geometry: Option<Geometry>,
    vcs: u8,
    /// First adaptive VC (the escape VCs are below it).
    first_adaptive: u8,
    scratch: Vec<PortId>,
}

impl Adaptive {
    pub fn new(geometry: Option<Geometry>, vcs: u8) -> Adaptive {
        let first_adaptive = match &geometry {
            Some(g) if g.wrap() => 2,
            _ => 1,
        };
        Adaptive {
            geometry,
            vcs,
            first_adaptive,
            scratch: Vec::with_capacity(16),
        }
    }

    /// The escape VCs (lo, hi) are `0..first_adaptive`; the adaptive ones
    /// `first_adaptive..vcs`.
    pub fn first_adaptive(&self) -> u8 {
        self.first_adaptive
    }

    /// Minimal output ports from `at` towards `dst` (dimension order, +
    /// before -), and the escape hop: (port, VC).
    pub fn options(&self, at: SwitchId, dst: SwitchId, minimal: &mut Vec<PortId>) -> (PortId, u8) {
        minimal.clear();
        match &self.geometry {
            Some(g) => {
                let (here, there) = (g.coords(at), g.coords(dst));
                for d in 0..g.dims() {
                    let (c, t) = (here[d], there[d]);
                    if c == t {
                        continue;
                    }
                    let k = g.radix()[d];
                    if g.is_tie(d, c, t) {
                        minimal.push(Geometry::port(d, true));
                        minimal.push(Geometry::port(d, false));
                    } else {
                        minimal.push(Geometry::port(d, g.minimal_plus(k, c, t, true)));
                    }
                }
                let (d, c, t) = g.first_difference(at, dst).unwrap_or((0, 0, 0));
                let plus = g.minimal_plus(g.radix()[d], c, t, true);
                let vc = if g.wrap() {
                    u8::from(!Geometry::still_to_wrap(c, t, plus))
                } else {
                    0
                };
                (Geometry::port(d, plus), vc)
            }
            None => {
                let diff = at ^ dst;
                let mut bits = diff;
                while bits != 0 {
                    minimal.push(bits.trailing_zeros() as PortId);
                    bits &= bits - 1;
                }
                (diff.trailing_zeros() as PortId, 0)
            }
        }
    }

    fn free(&self, view: &dyn BufferView, port: PortId) -> u32 {
        (self.first_adaptive..self.vcs)
            .map(|vc| view.free_slots(port, vc))
            .sum()
    }
}

impl Routing for Adaptive {
    fn name(&self) -> String {
        "adaptive".into()
    }

    /// Every VC above the escape pair (or VC) is adaptive.
    fn adaptive_vcs(&self) -> Option<(u8, u8)> {
        (self.vcs > self.first_adaptive).then(|| (self.first_adaptive, self.vcs - 1))
    }

    /// No source state: every choice is made hop by hop.
    fn source_states(&self, _pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(vec![RouteState::default()])
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let mut minimal = std::mem::take(&mut self.scratch);
        let (escape, escape_vc) = self.options(hop.at, hop.pkt.dst_switch, &mut minimal);
        if !minimal.is_empty() {
            // Most free adaptive space first; ties keep dimension order.
            // The escape channel always fits (one candidate slot is kept).
            let mut scored = [(0u32, 0usize, 0 as PortId); MAX_CANDIDATES - 1];
            let n = minimal.len().min(MAX_CANDIDATES - 1);
            for (i, &p) in minimal.iter().take(n).enumerate() {
                scored[i] = (self.free(hop.view, p), i, p);
            }
            scored[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for &(_, _, p) in &scored[..n] {
                out.push(p, self.first_adaptive, self.vcs - 1);
            }
            out.push(escape, escape_vc, escape_vc);
        }
        self.scratch = minimal;
    }
}
