//! Oblivious load-balanced routing on k-ary n-cubes (Singh's thesis §2.3 and
//! §3): RDOR (the thesis's minimal baseline "MIN" beyond one dimension),
//! Valiant's VAL, ROMM, RLB and RLBth. DOR is [`super::CubeDor`].
//!
//! Every one is a two-phase route through an intermediate node q (§3.2,
//! Fig. 3.3), drawn at the source: in each dimension j, independently, a
//! direction and a coordinate q_j; then the packet goes s → q in a dimension
//! order drawn for phase 1 and q → d in one drawn for phase 2, each phase
//! moving only in its drawn directions (no backtracking). The laws, exactly
//! as [`crate::analysis::ObliviousRouting::dim_steps`] states them (a test
//! checks the simulator's draws against the analysis's loads):
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

use super::kind::{Family, RoutingBuild, RoutingKind, options};
use super::{Candidates, Hop, PacketInfo, RouteState, Routing, Source};
use crate::rng::{SimRng, below};
use crate::topology::cube::Geometry;
use crate::topology::{Network, Shape, SwitchId};

/// Which law an oblivious routing draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Law {
    Rdor,
    Val,
    Romm { random_order: bool },
    Rlb,
    RlbTh,
}

impl Law {
    fn two_phase(self) -> bool {
        !matches!(self, Law::Rdor)
    }
    fn random_order(self) -> bool {
        !matches!(
            self,
            Law::Romm {
                random_order: false
            }
        )
    }
    fn torus_only(self) -> bool {
        matches!(self, Law::Rlb | Law::RlbTh)
    }
    fn name(self) -> &'static str {
        match self {
            Law::Rdor => "rdor",
            Law::Val => "val",
            Law::Romm {
                random_order: false,
            } => "romm",
            Law::Romm { random_order: true } => "romm:order=random",
            Law::Rlb => "rlb",
            Law::RlbTh => "rlbth",
        }
    }
    /// VC classes on a cube of `dims` dimensions (module docs).
    pub fn classes(self, dims: usize, torus: bool) -> usize {
        let phases = if self.two_phase() { 2 } else { 1 };
        let segments = if self.random_order() { dims.max(1) } else { 1 };
        phases * segments * if torus { 2 } else { 1 }
    }
}

pub(super) const RDOR: RoutingKind = RoutingKind {
    name: "rdor",
    aliases: &["min"],
    options: "",
    summary: "randomised dimension order, minimal (Singh's MIN beyond one dimension)",
    families: &[Family::Oblivious],
    parse: |parts| {
        options("rdor", parts, &[])?;
        Ok(Box::new(ObliviousSpec { law: Law::Rdor }))
    },
    examples: &["rdor"],
};

pub(super) const VAL: RoutingKind = RoutingKind {
    name: "val",
    aliases: &["valiant"],
    options: "",
    summary: "Valiant: a uniformly random intermediate node, minimal in both phases",
    families: &[Family::Oblivious],
    parse: |parts| {
        options("val", parts, &[])?;
        Ok(Box::new(ObliviousSpec { law: Law::Val }))
    },
    examples: &["val"],
};

pub(super) const ROMM: RoutingKind = RoutingKind {
    name: "romm",
    aliases: &[],
    options: "[:order=xy|random]",
    summary: "ROMM: an intermediate node in the minimal box",
    families: &[Family::Oblivious],
    parse: |parts| {
        let o = options("romm", parts, &["order"])?;
        let random_order = match o.get("order") {
            None | Some("xy") => false,
            Some("random") => true,
            Some(v) => return Err(format!("order `{v}`; accepted xy, random")),
        };
        Ok(Box::new(ObliviousSpec {
            law: Law::Romm { random_order },
        }))
    },
    examples: &["romm", "romm:order=random"],
};

pub(super) const RLB: RoutingKind = RoutingKind {
    name: "rlb",
    aliases: &[],
    options: "",
    summary: "Randomized Local Balance: the long way with probability Δ/k (tori)",
    families: &[Family::Oblivious],
    parse: |parts| {
        options("rlb", parts, &[])?;
        Ok(Box::new(ObliviousSpec { law: Law::Rlb }))
    },
    examples: &["rlb"],
};

pub(super) const RLBTH: RoutingKind = RoutingKind {
    name: "rlbth",
    aliases: &[],
    options: "",
    summary: "RLB with a threshold: always the short way when Δ < k/4 (tori)",
    families: &[Family::Oblivious],
    parse: |parts| {
        options("rlbth", parts, &[])?;
        Ok(Box::new(ObliviousSpec { law: Law::RlbTh }))
    },
    examples: &["rlbth"],
};

/// A parsed oblivious-routing spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObliviousSpec {
    pub law: Law,
}

impl RoutingBuild for ObliviousSpec {
    fn canonical(&self) -> String {
        self.law.name().to_string()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::Cube { wrap: false, .. } if self.law.torus_only() => Err(format!(
                "{} chooses between the short and the long way round, which only a torus has; on {} use rdor, val or romm",
                self.law.name(),
                net.spec()
            )),
            Shape::Cube { radix, .. } if radix.len() > 8 => Err(format!(
                "{} has {} dimensions; oblivious routings handle at most 8",
                net.spec(),
                radix.len()
            )),
            Shape::Cube { .. } => Ok(()),
            _ => Err(format!(
                "{} routes on tori and meshes; {} is not one",
                self.law.name(),
                net.spec()
            )),
        }
    }
    /// One VC per class (module docs).
    fn min_vcs(&self, net: &Network) -> u8 {
        match net.shape() {
            Shape::Cube { radix, wrap } => self.law.classes(radix.len(), *wrap) as u8,
            _ => 1,
        }
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        let Shape::Cube { radix, wrap } = net.shape() else {
            return Err(self.applies_to(net).err().unwrap_or_default());
        };
        Ok(Box::new(Oblivious::new(
            self.law,
            Geometry::new(radix.clone(), *wrap),
            vcs,
        )))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
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
}

impl Oblivious {
    pub fn new(law: Law, geometry: Geometry, vcs: u8) -> Oblivious {
        let classes = law.classes(geometry.dims(), geometry.wrap());
        Oblivious {
            per_class: (vcs as usize / classes).max(1) as u8,
            law,
            geometry,
            vcs,
        }
    }

    /// The minimal direction from `a` to `b` (radix `k`); a tie by a coin.
    fn minimal(&self, k: u32, a: u32, b: u32, rng: &mut SimRng) -> bool {
        if !self.geometry.wrap() {
            return b > a;
        }
        let off = Geometry::plus_offset(k, a, b);
        if 2 * off == k {
            below(rng, 2) == 0
        } else {
            2 * off < k
        }
    }

    /// Draw one packet's plan (module docs: the laws).
    pub fn draw(&self, src: SwitchId, dst: SwitchId, rng: &mut SimRng) -> Plan {
        let g = &self.geometry;
        let n = g.dims();
        let (sc, dc) = (g.coords(src), g.coords(dst));
        let mut q = [0u32; 8];
        let (mut first, mut second) = (0u8, 0u8);
        for j in 0..n {
            let (k, a, b) = (g.radix()[j], sc[j], dc[j]);
            let (f, qj, s) = match self.law {
                Law::Rdor => (false, a, a != b && self.minimal(k, a, b, rng)),
                Law::Val => {
                    let qj = below(rng, k);
                    let f = qj != a && self.minimal(k, a, qj, rng);
                    let s = qj != b && self.minimal(k, qj, b, rng);
                    (f, qj, s)
                }
                Law::Romm { .. } => {
                    if a == b {
                        (false, a, false)
                    } else {
                        let plus = self.minimal(k, a, b, rng);
                        let qj = self.in_box(k, a, b, plus, rng);
                        (plus, qj, plus)
                    }
                }
                Law::Rlb | Law::RlbTh => {
                    let off = Geometry::plus_offset(k, a, b);
                    let delta = off.min(k - off);
                    if delta == 0 {
                        (false, a, false)
                    } else {
                        let short_plus = 2 * off <= k;
                        let short =
                            (self.law == Law::RlbTh && 4 * delta < k) || below(rng, k) < k - delta;
                        let plus = short == short_plus;
                        let qj = self.in_box(k, a, b, plus, rng);
                        (plus, qj, plus)
                    }
                }
            };
            q[j] = qj;
            first |= (f as u8) << j;
            second |= (s as u8) << j;
        }
        let order1 = if self.law.two_phase() {
            self.order(rng)
        } else {
            identity_order(n)
        };
        let order2 = self.order(rng);
        Plan {
            q: g.id_of(&q[..n]),
            first_plus: first,
            second_plus: second,
            order1,
            order2,
        }
    }

    /// q_j uniform over the coordinates from `a` to `b` inclusive, walking
    /// in direction `plus`.
    fn in_box(&self, k: u32, a: u32, b: u32, plus: bool, rng: &mut SimRng) -> u32 {
        let len = if plus {
            Geometry::plus_offset(k, a, b)
        } else {
            Geometry::plus_offset(k, b, a)
        };
        let i = below(rng, len + 1);
        if plus { (a + i) % k } else { (a + k - i) % k }
    }

    /// A dimension order: identity for `xy`, else uniform over the n!
    /// orders (Fisher-Yates).
    fn order(&self, rng: &mut SimRng) -> u32 {
        let n = self.geometry.dims();
        if !self.law.random_order() {
            return identity_order(n);
        }
        let mut dims: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        for i in (1..n).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            dims.swap(i, j);
        }
        dims[..n]
            .iter()
            .enumerate()
            .fold(0, |acc, (pos, &d)| acc | d << (3 * pos))
    }

    /// The route state of a plan (phase 0 for two-phase laws).
    pub fn state_for(&self, plan: Plan) -> RouteState {
        RouteState {
            phase: if self.law.two_phase() { 0 } else { 1 },
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
        let per_dim: Vec<Vec<(bool, u32, bool)>> = (0..n)
            .map(|j| {
                let (k, a, b) = (g.radix()[j], sc[j], dc[j]);
                let mins = |a: u32, b: u32| -> Vec<bool> {
                    if a == b {
                        vec![false]
                    } else if !g.wrap() {
                        vec![b > a]
                    } else {
                        let off = Geometry::plus_offset(k, a, b);
                        if 2 * off == k {
                            vec![true, false]
                        } else {
                            vec![2 * off < k]
                        }
                    }
                };
                let boxed = |plus: bool, out: &mut Vec<(bool, u32, bool)>| {
                    let len = if plus {
                        Geometry::plus_offset(k, a, b)
                    } else {
                        Geometry::plus_offset(k, b, a)
                    };
                    for i in 0..=len {
                        let qj = if plus { (a + i) % k } else { (a + k - i) % k };
                        out.push((plus, qj, plus));
                    }
                };
                let mut out = Vec::new();
                match self.law {
                    Law::Rdor => {
                        for s in mins(a, b) {
                            out.push((false, a, s));
                        }
                    }
                    Law::Val => {
                        for qj in 0..k {
                            for f in mins(a, qj) {
                                for s in mins(qj, b) {
                                    out.push((f, qj, s));
                                }
                            }
                        }
                    }
                    Law::Romm { .. } => {
                        if a == b {
                            out.push((false, a, false));
                        } else {
                            for plus in mins(a, b) {
                                boxed(plus, &mut out);
                            }
                        }
                    }
                    Law::Rlb | Law::RlbTh => {
                        let off = Geometry::plus_offset(k, a, b);
                        let delta = off.min(k - off);
                        if delta == 0 {
                            out.push((false, a, false));
                        } else {
                            let short_plus = 2 * off <= k;
                            boxed(short_plus, &mut out);
                            if !(self.law == Law::RlbTh && 4 * delta < k) {
                                boxed(!short_plus, &mut out);
                            }
                        }
                    }
                }
                out
            })
            .collect();
        let orders = |random: bool| -> Vec<u32> {
            if random {
                permutations(n)
            } else {
                vec![identity_order(n)]
            }
        };
        let orders1 = if self.law.two_phase() {
            orders(self.law.random_order())
        } else {
            vec![identity_order(n)]
        };
        let orders2 = orders(self.law.random_order());
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
    (0..n as u32).fold(0, |acc, d| acc | d << (3 * d))
}

/// Every order of the n dimensions, packed 3 bits a position.
fn permutations(n: usize) -> Vec<u32> {
    fn rec(rest: &mut Vec<u32>, cur: &mut Vec<u32>, out: &mut Vec<u32>) {
        if rest.is_empty() {
            out.push(
                cur.iter()
                    .enumerate()
                    .fold(0, |acc, (pos, &d)| acc | d << (3 * pos)),
            );
            return;
        }
        for i in 0..rest.len() {
            let x = rest.remove(i);
            cur.push(x);
            rec(rest, cur, out);
            cur.pop();
            rest.insert(i, x);
        }
    }
    let mut out = Vec::new();
    rec(&mut (0..n as u32).collect(), &mut Vec::new(), &mut out);
    out
}

impl Routing for Oblivious {
    fn name(&self) -> String {
        self.law.name().to_string()
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
            let phase_index = if self.law.two_phase() { phase } else { 0 };
            let (segments, segment) = if self.law.random_order() {
                (n, pos)
            } else {
                (1, 0)
            };
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
        self.law.two_phase()
    }
}
