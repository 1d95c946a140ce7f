//! Oblivious load-balanced routing on k-ary n-cubes (Singh's thesis §2.3 and
//! §3): RDOR (the thesis's minimal baseline "MIN" beyond one dimension),
//! Valiant's VAL, ROMM, RLB and RLBth. DOR is [`super::CubeDor`].
//!
//! Every one is a two-phase route through an intermediate node q (§3.2,
//! Fig. 3.3), drawn at the source: in each dimension j, independently, a
//! direction and a coordinate q_j; then the packet goes s → q in a dimension
//! order drawn for phase 1 and q → d in one drawn for phase 2, each phase
//! moving only in its drawn directions (no backtracking). Each routing's law
//! is declared once, here, as an [`ObliviousLaw`]: its exact per-dimension
//! distribution ([`ObliviousLaw::dim_steps`], what the analysis computes
//! with) and the simulator's draw of it ([`ObliviousLaw::draw_dim`]; a test
//! checks the draws against the analysis's paths and loads):
//! - **RDOR**: q = s; the minimal direction, a tie (offset k/2) broken
//!   uniformly per packet and dimension; one dimension order uniform over the
//!   n! orders.
//! - **VAL**: q_j uniform over the k coordinates; minimal directions in each
//!   phase (ties uniform); an independent uniform order per phase.
//! - **ROMM**: the minimal direction (ties uniform) and q_j uniform over the
//!   Δ+1 coordinates from s_j to d_j inclusive; `order=xy` (both phases
//!   0, 1, ..) or `order=random` (independent uniform orders).
//! - **RLB**: the short direction with probability (k-Δ)/k and the long one
//!   with Δ/k (at Δ = k/2 each with 1/2), q_j uniform over the box the
//!   direction spans (Δ+1 coordinates the short way, k-Δ+1 the long way),
//!   independent uniform orders per phase. Tori only.
//! - **RLBth**: RLB, but a dimension with 4Δ < k always goes the short way.
//!
//! A packet whose first phase passes through its destination goes on to q:
//! it leaves at the destination only in its last phase
//! ([`super::Routing::may_eject`]).
//!
//! **Deadlock freedom, and the VCs it takes.** The virtual channels are cut
//! into classes, one per (phase, segment, dateline side), in that
//! lexicographic order, and a packet only ever moves to a later class:
//! - *phase*: 1 or 2 (one for RDOR);
//! - *segment*: with a random dimension order, the position of the current
//!   dimension in the phase's order (0..n); with `xy` order a single segment,
//!   since dimension order alone already orders the dimensions;
//! - *dateline side* (tori only): the lower side while the packet still has
//!   to cross the wrap-around link of the current dimension in this phase,
//!   the upper side after it has or when it never will
//!   ([`Geometry::still_to_wrap`]).
//!
//! Within one class a packet moves along one ring in one direction, so the
//! class's channel dependencies lie along that ring, and the dateline split
//! leaves the wrap-around link only in the lower side with nothing after it
//! there: each class is acyclic, and dependencies between classes only go
//! forward, so the whole channel-dependency graph is acyclic
//! (`tests/deadlock.rs` builds it over every source, destination and random
//! choice). Minimum VCs, one per class, on a torus of n dimensions: RDOR
//! 2n, ROMM `xy` 4, VAL, ROMM `random`, RLB and RLBth 4n (8 on a 2-D torus,
//! 12 on a 3-D one); on a mesh half of those. Beyond the minimum the VCs are
//! split evenly between classes (`V / classes` each; the remainder unused).
//!
//! Files: the laws ([`laws`]: RDOR, VAL, ROMM, RLB and RLBth, what each
//! draws), their specs and the registry's entries ([`spec`]), and here the
//! simulated routing every law builds into ([`Oblivious`]) and its VC
//! classes.

mod laws;
mod spec;

pub use laws::{RdorLaw, RlbLaw, RommLaw, ValLaw, rlb_directions};
pub use spec::ObliviousSpec;
pub(in crate::routing) use spec::{RDOR, RLB, RLBTH, ROMM, VAL};

use super::law::{DimDraw, DimOrder, Law, ObliviousLaw, permutations};
use super::{Candidates, Hop, PacketInfo, RouteState, Routing, Source};
use crate::rng::{SimRng, below};
use crate::topology::SwitchId;
use crate::topology::cube::Geometry;

/// VC classes of a law on a cube of `dims` dimensions (module docs): one
/// per (phase, segment, dateline side).
pub fn classes(law: &dyn ObliviousLaw, dims: usize, torus: bool) -> usize {
    let phases = if law.two_phase() { 2 } else { 1 };
    let segments = if random_order(law) { dims.max(1) } else { 1 };
    phases * segments * if torus { 2 } else { 1 }
}

/// True when a phase draws a random dimension order (one segment per
/// position in the order).
fn random_order(law: &dyn ObliviousLaw) -> bool {
    let (o1, o2) = law.phase_orders();
    o1 == DimOrder::Random || o2 == DimOrder::Random
}

/// The draws of one packet: q, the direction of every dimension in each
/// phase (bit j set = +), and the two dimension orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub q: SwitchId,
    pub first_plus: u8,
    pub second_plus: u8,
    /// Dimension orders, 3 bits a position (position 0 lowest).
    pub order1: u32,
    pub order2: u32,
}

/// An oblivious routing on a torus or mesh.
///
/// Route state: `phase` 0 (towards q) or 1 (towards d); `via[0]` = q;
/// `tag` bits 0..8 the phase-1 directions, 8..16 the phase-2 ones; `aux` the
/// phase-1 order and `via[1]` the phase-2 order (3 bits per position).
#[derive(Clone, Debug)]
pub struct Oblivious {
    law: Law,
    geometry: Geometry,
    vcs: u8,
    /// VCs per class.
    per_class: u8,
    /// The law's shape, read on every hop: [`ObliviousLaw::two_phase`],
    /// [`ObliviousLaw::phase_orders`] and whether either order is random.
    two_phase: bool,
    orders: (DimOrder, DimOrder),
    random_order: bool,
}

impl Oblivious {
    pub fn new(law: Law, geometry: Geometry, vcs: u8) -> Oblivious {
        let classes = classes(&*law, geometry.dims(), geometry.wrap());
        Oblivious {
            per_class: (vcs as usize / classes).max(1) as u8,
            two_phase: law.two_phase(),
            orders: law.phase_orders(),
            random_order: random_order(&*law),
            law,
            geometry,
            vcs,
        }
    }

    /// The law it draws from.
    pub fn law(&self) -> &Law {
        &self.law
    }

    /// Draw one packet's plan: every dimension's draw in turn
    /// ([`ObliviousLaw::draw_dim`]), then the phase-1 order (two-phase laws
    /// only) and the phase-2 order.
    pub fn draw(&self, src: SwitchId, dst: SwitchId, rng: &mut SimRng) -> Plan {
        let g = &self.geometry;
        let n = g.dims();
        let (sc, dc) = (g.coords(src), g.coords(dst));
        let mut q = [0u32; 8];
        let (mut first, mut second) = (0u8, 0u8);
        for j in 0..n {
            let (k, a, b) = (g.radix()[j], sc[j], dc[j]);
            let (f, qj, s) = self.law.draw_dim(k, g.wrap(), a, b, rng);
            q[j] = qj;
            first |= (f as u8) << j;
            second |= (s as u8) << j;
        }
        let order1 = if self.two_phase {
            self.order(self.orders.0, rng)
        } else {
            identity_order(n)
        };
        let order2 = self.order(self.orders.1, rng);
        Plan {
            q: g.id_of(&q[..n]),
            first_plus: first,
            second_plus: second,
            order1,
            order2,
        }
    }

    /// A dimension order: identity for `xy`, else uniform over the n!
    /// orders (Fisher-Yates).
    fn order(&self, order: DimOrder, rng: &mut SimRng) -> u32 {
        let n = self.geometry.dims();
        if order == DimOrder::Xy {
            return identity_order(n);
        }
        let mut dims: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        for i in (1..n).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            dims.swap(i, j);
        }
        pack(dims[..n].iter().map(|&d| d as usize))
    }

    /// The route state of a plan (phase 0 for two-phase laws).
    pub fn state_for(&self, plan: Plan) -> RouteState {
        RouteState {
            phase: if self.two_phase { 0 } else { 1 },
            tag: plan.first_plus as u32 | (plan.second_plus as u32) << 8,
            aux: plan.order1,
            via: [plan.q, plan.order2],
            ..RouteState::default()
        }
    }

    /// Every plan this routing can draw from `src` to `dst` (its support),
    /// for exhaustive checks.
    pub fn plans(&self, src: SwitchId, dst: SwitchId) -> Vec<Plan> {
        let g = &self.geometry;
        let n = g.dims();
        let (sc, dc) = (g.coords(src), g.coords(dst));
        // Per dimension: the (first plus, q_j, second plus) it can draw.
        let per_dim: Vec<Vec<DimDraw>> = (0..n)
            .map(|j| self.law.support(g.radix()[j], g.wrap(), sc[j], dc[j]))
            .collect();
        let orders = |order: DimOrder| -> Vec<u32> {
            match order {
                DimOrder::Random => permutations(n)
                    .into_iter()
                    .map(|p| pack(p.into_iter()))
                    .collect(),
                DimOrder::Xy => vec![identity_order(n)],
            }
        };
        let orders1 = if self.two_phase {
            orders(self.orders.0)
        } else {
            vec![identity_order(n)]
        };
        let orders2 = orders(self.orders.1);
        let mut plans = Vec::new();
        let mut pick = vec![0usize; n];
        loop {
            let mut q = [0u32; 8];
            let (mut first, mut second) = (0u8, 0u8);
            for j in 0..n {
                let (f, qj, s) = per_dim[j][pick[j]];
                q[j] = qj;
                first |= (f as u8) << j;
                second |= (s as u8) << j;
            }
            for &o1 in &orders1 {
                for &o2 in &orders2 {
                    plans.push(Plan {
                        q: g.id_of(&q[..n]),
                        first_plus: first,
                        second_plus: second,
                        order1: o1,
                        order2: o2,
                    });
                }
            }
            let mut j = 0;
            loop {
                if j == n {
                    return plans;
                }
                pick[j] += 1;
                if pick[j] < per_dim[j].len() {
                    break;
                }
                pick[j] = 0;
                j += 1;
            }
        }
    }
}

fn identity_order(n: usize) -> u32 {
    pack(0..n)
}

/// A dimension order packed 3 bits a position (position 0 lowest).
fn pack(order: impl Iterator<Item = usize>) -> u32 {
    order
        .enumerate()
        .fold(0, |acc, (pos, d)| acc | (d as u32) << (3 * pos))
}

impl Routing for Oblivious {
    fn name(&self) -> String {
        self.law.name()
    }

    fn at_source(&mut self, src: Source<'_>) {
        let plan = self.draw(src.pkt.src_switch, src.pkt.dst_switch, src.rng);
        *src.state = self.state_for(plan);
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let g = &self.geometry;
        let n = g.dims();
        let state = hop.state;
        loop {
            let target = if state.phase == 0 {
                state.via[0]
            } else {
                hop.pkt.dst_switch
            };
            let order = if state.phase == 0 {
                state.aux
            } else {
                state.via[1]
            };
            let (here, there) = (g.coords(hop.at), g.coords(target));
            let next = (0..n).find_map(|pos| {
                let j = (order >> (3 * pos) & 7) as usize;
                (here[j] != there[j]).then_some((pos, j))
            });
            let Some((pos, j)) = next else {
                if state.phase == 0 {
                    // At q: the second phase starts here.
                    state.phase = 1;
                    continue;
                }
                return;
            };
            let phase = state.phase as usize;
            let plus = state.tag >> (8 * phase + j) & 1 == 1;
            let (c, t) = (here[j], there[j]);
            let phase_index = if self.two_phase { phase } else { 0 };
            let (segments, segment) = if self.random_order { (n, pos) } else { (1, 0) };
            let sides = if g.wrap() { 2 } else { 1 };
            let upper = g.wrap() && !Geometry::still_to_wrap(c, t, plus);
            let class = ((phase_index * segments + segment) * sides) + usize::from(upper);
            let lo = class * self.per_class as usize;
            let hi = (lo + self.per_class as usize - 1).min(self.vcs as usize - 1);
            out.push(Geometry::port(j, plus), lo as u8, hi as u8);
            return;
        }
    }

    /// Only in the last phase, or at q itself when q is the destination.
    fn may_eject(&self, at: SwitchId, state: &RouteState) -> bool {
        state.phase == 1 || state.via[0] == at
    }

    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(
            self.plans(pkt.src_switch, pkt.dst_switch)
                .into_iter()
                .map(|p| self.state_for(p))
                .collect(),
        )
    }

    fn passes_destination(&self) -> bool {
        self.two_phase
    }
}
