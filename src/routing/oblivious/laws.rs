//! The oblivious laws (Singh's thesis §2.3 and §3): what RDOR, VAL, ROMM,
//! RLB and RLBth draw per dimension, exactly ([`ObliviousLaw::dim_steps`],
//! for the analysis) and as the simulator draws it
//! ([`ObliviousLaw::draw_dim`], [`ObliviousLaw::support`]). The [parent
//! module](super) says how a drawn plan is routed and on which VCs.

use crate::rng::{SimRng, below};
use crate::routing::law::{
    DimDraw, DimOrder, DimStep, Dir, ObliviousLaw, distance, in_box, minimal_dirs, one_phase, stay,
};
use crate::topology::cube::Geometry;
use num_rational::Ratio;

/// The simulator's minimal direction from `a` to `b` (radix `k`): + or
/// not; a tie by a coin.
fn minimal(k: u32, wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> bool {
    if !wrap {
        return b > a;
    }
    let off = Geometry::plus_offset(k, a, b);
    if 2 * off == k {
        below(rng, 2) == 0
    } else {
        2 * off < k
    }
}

/// Every minimal direction from `a` to `b` the simulator can draw.
fn minimal_support(k: u32, wrap: bool, a: u32, b: u32) -> Vec<bool> {
    if a == b {
        vec![false]
    } else if !wrap {
        vec![b > a]
    } else {
        let off = Geometry::plus_offset(k, a, b);
        if 2 * off == k {
            vec![true, false]
        } else {
            vec![2 * off < k]
        }
    }
}

/// q_j uniform over the coordinates from `a` to `b` inclusive, walking in
/// direction `plus`.
fn draw_in_box(k: u32, a: u32, b: u32, plus: bool, rng: &mut SimRng) -> u32 {
    let len = if plus {
        Geometry::plus_offset(k, a, b)
    } else {
        Geometry::plus_offset(k, b, a)
    };
    let i = below(rng, len + 1);
    if plus { (a + i) % k } else { (a + k - i) % k }
}

/// Every draw of [`draw_in_box`] with its direction, appended to `out`.
fn box_support(k: u32, a: u32, b: u32, plus: bool, out: &mut Vec<DimDraw>) {
    let len = if plus {
        Geometry::plus_offset(k, a, b)
    } else {
        Geometry::plus_offset(k, b, a)
    };
    for i in 0..=len {
        let qj = if plus { (a + i) % k } else { (a + k - i) % k };
        out.push((plus, qj, plus));
    }
}

/// Randomised dimension order, the thesis's minimal baseline "MIN" in more
/// than one dimension (§2.3): q = s; the minimal direction, a tie (offset
/// k/2) broken uniformly per packet and dimension; one order uniform over
/// the n! orders. On a ring it is MIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RdorLaw;

impl ObliviousLaw for RdorLaw {
    fn spec(&self) -> String {
        "rdor".into()
    }
    fn dim_steps(&self, k: u32, wrap: bool, _side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        if a == b {
            return stay(a);
        }
        one_phase(a, &minimal_dirs(k, wrap, a, b, None))
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (DimOrder::Random, DimOrder::Random)
    }
    fn two_phase(&self) -> bool {
        false
    }
    fn draw_dim(&self, k: u32, wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> DimDraw {
        (false, a, a != b && minimal(k, wrap, a, b, rng))
    }
    fn support(&self, k: u32, wrap: bool, a: u32, b: u32) -> Vec<DimDraw> {
        minimal_support(k, wrap, a, b)
            .into_iter()
            .map(|s| (false, a, s))
            .collect()
    }
}

/// Valiant's algorithm, "VAL" (§2.3): q_j uniform over the k coordinates,
/// then minimal routing s → q and q → d (ties uniform), each phase in its
/// own uniformly random dimension order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValLaw;

impl ObliviousLaw for ValLaw {
    fn spec(&self) -> String {
        "val".into()
    }
    fn dim_steps(&self, k: u32, wrap: bool, _side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        let mut out = Vec::new();
        let pq = Ratio::new(1, k as i128);
        for q in 0..k {
            for (d1, p1) in minimal_dirs(k, wrap, a, q, None) {
                for (d2, p2) in minimal_dirs(k, wrap, q, b, None) {
                    out.push(DimStep {
                        probability: pq * p1 * p2,
                        first: d1,
                        intermediate: q,
                        second: d2,
                    });
                }
            }
        }
        out
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (DimOrder::Random, DimOrder::Random)
    }
    fn draw_dim(&self, k: u32, wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> DimDraw {
        let qj = below(rng, k);
        let f = qj != a && minimal(k, wrap, a, qj, rng);
        let s = qj != b && minimal(k, wrap, qj, b, rng);
        (f, qj, s)
    }
    fn support(&self, k: u32, wrap: bool, a: u32, b: u32) -> Vec<DimDraw> {
        let mut out = Vec::new();
        for qj in 0..k {
            for f in minimal_support(k, wrap, a, qj) {
                for s in minimal_support(k, wrap, qj, b) {
                    out.push((f, qj, s));
                }
            }
        }
        out
    }
}

/// "ROMM" (Nesson and Johnsson; §2.3): the minimal direction (ties
/// uniform) and q_j uniform over the Δ+1 coordinates from s_j to d_j
/// inclusive, then s → q → d in that direction. `order`: xy (both phases
/// 0, 1, ..) or random (an independent uniform order per phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RommLaw {
    pub order: DimOrder,
}

impl ObliviousLaw for RommLaw {
    fn spec(&self) -> String {
        format!("romm:order={}", self.order.as_str())
    }
    fn name(&self) -> String {
        match self.order {
            DimOrder::Xy => "romm".into(),
            DimOrder::Random => "romm:order=random".into(),
        }
    }
    fn dim_steps(&self, k: u32, wrap: bool, _side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        if a == b {
            return stay(a);
        }
        let mut out = Vec::new();
        for (dir, p) in minimal_dirs(k, wrap, a, b, None) {
            if let Some(dir) = dir {
                in_box(&mut out, k, a, b, dir, p);
            }
        }
        out
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (self.order, self.order)
    }
    fn intermediate_in_box(&self) -> bool {
        true
    }
    fn draw_dim(&self, k: u32, wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> DimDraw {
        if a == b {
            return (false, a, false);
        }
        let plus = minimal(k, wrap, a, b, rng);
        let qj = draw_in_box(k, a, b, plus, rng);
        (plus, qj, plus)
    }
    fn support(&self, k: u32, wrap: bool, a: u32, b: u32) -> Vec<DimDraw> {
        if a == b {
            return vec![(false, a, false)];
        }
        let mut out = Vec::new();
        for plus in minimal_support(k, wrap, a, b) {
            box_support(k, a, b, plus, &mut out);
        }
        out
    }
}

/// Randomized Local Balance, "RLB" (§3.1, §3.2), and with `threshold`
/// "RLBth" (§3.3): per dimension the short direction with probability
/// (k-Δ)/k, the long one with Δ/k (RLBth: the short one always when
/// 4Δ < k); q_j uniform over the box the chosen direction spans (Δ+1
/// coordinates the short way, k-Δ+1 the long way); an independent random
/// dimension order per phase; no backtracking. Tori only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlbLaw {
    pub threshold: bool,
}

impl ObliviousLaw for RlbLaw {
    fn spec(&self) -> String {
        if self.threshold { "rlbth" } else { "rlb" }.into()
    }
    fn dim_steps(&self, k: u32, _wrap: bool, _side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        if a == b {
            return stay(a);
        }
        let mut out = Vec::new();
        for (dir, p) in rlb_directions(k, a, b, self.threshold) {
            in_box(&mut out, k, a, b, dir, p);
        }
        out
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (DimOrder::Random, DimOrder::Random)
    }
    fn torus_only(&self) -> Option<&'static str> {
        Some("chooses between the short and the long way round, which only a torus has")
    }
    fn intermediate_in_box(&self) -> bool {
        true
    }
    fn draw_dim(&self, k: u32, _wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> DimDraw {
        let off = Geometry::plus_offset(k, a, b);
        let delta = off.min(k - off);
        if delta == 0 {
            return (false, a, false);
        }
        let short_plus = 2 * off <= k;
        let short = (self.threshold && 4 * delta < k) || below(rng, k) < k - delta;
        let plus = short == short_plus;
        let qj = draw_in_box(k, a, b, plus, rng);
        (plus, qj, plus)
    }
    fn support(&self, k: u32, _wrap: bool, a: u32, b: u32) -> Vec<DimDraw> {
        let off = Geometry::plus_offset(k, a, b);
        let delta = off.min(k - off);
        if delta == 0 {
            return vec![(false, a, false)];
        }
        let short_plus = 2 * off <= k;
        let mut out = Vec::new();
        box_support(k, a, b, short_plus, &mut out);
        if !(self.threshold && 4 * delta < k) {
            box_support(k, a, b, !short_plus, &mut out);
        }
        out
    }
}

/// RLB's direction law in one torus dimension (§3.1): the short direction
/// with probability (k-Δ)/k, the long one with Δ/k, where Δ is the minimal
/// offset; with `threshold` (RLBth) the short one with probability 1 when
/// 4Δ < k. At Δ = k/2 both directions have probability 1/2 (a tie broken
/// uniformly). Δ = 0 gives no direction.
pub fn rlb_directions(k: u32, a: u32, b: u32, threshold: bool) -> Vec<(Dir, Ratio<i128>)> {
    let plus = distance(k, a, b, Dir::Plus);
    let delta = plus.min(k - plus);
    if delta == 0 {
        return Vec::new();
    }
    let short = if 2 * plus <= k { Dir::Plus } else { Dir::Minus };
    if threshold && 4 * delta < k {
        return vec![(short, Ratio::from_integer(1))];
    }
    let k = k as i128;
    let delta = delta as i128;
    vec![
        (short, Ratio::new(k - delta, k)),
        (short.reverse(), Ratio::new(delta, k)),
    ]
}
