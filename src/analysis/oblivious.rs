//! The six oblivious routings of Singh's thesis (§2 and §3) as exact
//! probability distributions over paths on a k-ary n-cube.
//!
//! Every routing here has the same shape, which the thesis calls a
//! two-phase route through an intermediate node q (§3.2, Fig. 3.3): in each
//! dimension j it draws, independently of the other dimensions, a direction
//! and a coordinate q_j ([`DimStep`]); then it routes s → q in a dimension
//! order drawn for phase 1 and q → d in a dimension order drawn for phase 2,
//! each phase moving only in the drawn directions. One-phase routings (DOR,
//! RDOR) are the case q = s. [`ObliviousRouting::dim_steps`] is the per-
//! dimension law, [`ObliviousRouting::paths`] the full distribution over
//! channel sequences (small networks: it enumerates), and
//! [`super::ChannelWeights`] the same law folded into expected channel
//! traversals through the product structure (any size).
//!
//! Ties (offset exactly k/2): VAL, RDOR, ROMM, RLB and RLBth take either
//! direction with probability 1/2 per packet and dimension; DOR follows its
//! [`TieRule`] (`plus` by default, as [`crate::routing`]'s DOR).

use super::AnalysisError;
use super::geometry::{Cube, Dir};
use crate::routing::TieRule;
use num_rational::Ratio;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// The accepted routing specs, quoted in every error.
pub const ACCEPTED: &str =
    "dor[:tie=plus|random|parity], rdor, val, romm[:order=xy|random], rlb, rlbth";

/// A distribution over paths: each distinct channel sequence (analysis
/// channel indices) with its probability.
pub type PathDistribution = Vec<(Ratio<i128>, Vec<u32>)>;

/// Most paths [`ObliviousRouting::paths`] enumerates for one pair.
pub const MAX_ENUMERATED_PATHS: usize = 1 << 20;

/// The order in which a phase corrects the dimensions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DimOrder {
    /// Dimension 0 first, then 1, 2, ... (the thesis's "xy" order).
    #[default]
    Xy,
    /// Uniform over the n! orders, drawn independently per phase (§3.2).
    Random,
}

impl DimOrder {
    /// The accepted values of `order=`.
    pub const ACCEPTED: &'static str = "xy, random";
    /// Parse `xy` or `random`.
    pub fn parse(s: &str) -> Option<DimOrder> {
        match s {
            "xy" => Some(DimOrder::Xy),
            "random" => Some(DimOrder::Random),
            _ => None,
        }
    }
    /// The spec word (`xy`, `random`).
    pub fn as_str(self) -> &'static str {
        match self {
            DimOrder::Xy => "xy",
            DimOrder::Random => "random",
        }
    }
}

/// An oblivious routing on a k-ary n-cube (Singh's thesis §2.3 and §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObliviousRouting {
    /// Dimension-order routing, "DOR" (§2.3; e-cube): minimal, dimensions
    /// 0, 1, ... in turn; an offset of exactly k/2 goes by `tie`
    /// (plus|random|parity, default plus, as [`crate::routing`]'s DOR).
    Dor { tie: TieRule },
    /// Randomised dimension order, the thesis's minimal baseline "MIN" in
    /// more than one dimension: one order uniform over the n! orders, tied
    /// directions uniform. On a ring it is MIN.
    Rdor,
    /// Valiant's algorithm, "VAL" (§2.3): q uniform over all N nodes, then
    /// minimal routing s → q and q → d, each phase in its own uniformly
    /// random dimension order (as RDOR), ties uniform.
    Val,
    /// "ROMM" (Nesson and Johnsson; §2.3): q uniform over the minimal box
    /// (the coordinates from s_j to d_j inclusive in the minimal direction),
    /// then s → q → d in those directions. `order`: xy (both phases in
    /// order 0, 1, ..) or random (independent uniform order per phase).
    Romm { order: DimOrder },
    /// Randomized Local Balance, "RLB" (§3.1, §3.2): per dimension the short
    /// direction with probability (k-Δ)/k, the long one with Δ/k; q
    /// uniform over the box the chosen directions span (Δ+1 coordinates in
    /// the short direction, k-Δ+1 in the long one); an independent random
    /// dimension order per phase; no backtracking.
    Rlb,
    /// "RLBth" (§3.1, §3.3): RLB, except that a dimension with 4Δ < k (less
    /// than k/4, the mean distance of a k-ring) always goes the short way.
    RlbTh,
}

impl ObliviousRouting {
    /// The six routings `routelab load --compare` tabulates, DOR with its
    /// default tie rule `plus` and ROMM with its default order `xy`.
    pub const COMPARED: [ObliviousRouting; 6] = [
        ObliviousRouting::Dor { tie: TieRule::Plus },
        ObliviousRouting::Rdor,
        ObliviousRouting::Val,
        ObliviousRouting::Romm {
            order: DimOrder::Xy,
        },
        ObliviousRouting::Rlb,
        ObliviousRouting::RlbTh,
    ];

    /// Dimension orders of phase 1 (s → q) and phase 2 (q → d).
    pub fn phase_orders(&self) -> (DimOrder, DimOrder) {
        match self {
            ObliviousRouting::Dor { .. } => (DimOrder::Xy, DimOrder::Xy),
            ObliviousRouting::Romm { order } => (*order, *order),
            ObliviousRouting::Rdor
            | ObliviousRouting::Val
            | ObliviousRouting::Rlb
            | ObliviousRouting::RlbTh => (DimOrder::Random, DimOrder::Random),
        }
    }

    /// Whether the routing is defined on this cube: RLB and RLBth need a
    /// torus (their long direction wraps); the others also run on meshes.
    pub fn check(&self, cube: &Cube) -> Result<(), AnalysisError> {
        if !cube.is_torus() && matches!(self, ObliviousRouting::Rlb | ObliviousRouting::RlbTh) {
            return Err(AnalysisError::NotDefined {
                routing: self.to_string(),
                topology: cube.network().spec().to_string(),
                reason: "it chooses between the short and the long way round, which only a \
                         torus has; on a mesh use dor, rdor, val or romm"
                    .into(),
            });
        }
        Ok(())
    }

    /// True when the routing's law depends on the source (DOR with
    /// `tie=parity`): it is then not invariant under every translation.
    pub fn depends_on_source(&self) -> bool {
        matches!(
            self,
            ObliviousRouting::Dor {
                tie: TieRule::Parity
            }
        )
    }

    /// The direction DOR takes on a tie for a packet from node `s`
    /// (`tie=parity`: + from an even switch id, - from an odd one; `plus`:
    /// always +). Other routings and `tie=random` ignore it.
    pub fn tie_side(&self, s: u32) -> Dir {
        match self {
            ObliviousRouting::Dor {
                tie: TieRule::Parity,
            } if s % 2 == 1 => Dir::Minus,
            _ => Dir::Plus,
        }
    }

    /// The law of one dimension of radix `k` for a packet going from
    /// coordinate `a` to `b`: a list of [`DimStep`]s whose probabilities sum
    /// to 1. `side` is the tie direction for DOR ([`Self::tie_side`]).
    pub fn dim_steps(&self, k: u32, wrap: bool, side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        let one = Ratio::from_integer(1);
        let stay = |q: u32, p: Ratio<i128>| DimStep {
            probability: p,
            first: None,
            intermediate: q,
            second: None,
        };
        if a == b && !matches!(self, ObliviousRouting::Val) {
            return vec![stay(a, one)];
        }
        match self {
            ObliviousRouting::Dor { tie } => {
                let dirs = match tie {
                    TieRule::Plus => minimal_dirs(k, wrap, a, b, Some(Dir::Plus)),
                    TieRule::Parity => minimal_dirs(k, wrap, a, b, Some(side)),
                    TieRule::Random => minimal_dirs(k, wrap, a, b, None),
                };
                one_phase(a, &dirs)
            }
            ObliviousRouting::Rdor => one_phase(a, &minimal_dirs(k, wrap, a, b, None)),
            ObliviousRouting::Val => {
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
            ObliviousRouting::Romm { .. } => {
                let mut out = Vec::new();
                for (dir, p) in minimal_dirs(k, wrap, a, b, None) {
                    if let Some(dir) = dir {
                        in_box(&mut out, k, a, b, dir, p);
                    }
                }
                out
            }
            ObliviousRouting::Rlb | ObliviousRouting::RlbTh => {
                let threshold = matches!(self, ObliviousRouting::RlbTh);
                let mut out = Vec::new();
                for (dir, p) in rlb_directions(k, a, b, threshold) {
                    in_box(&mut out, k, a, b, dir, p);
                }
                out
            }
        }
    }

    /// The exact distribution over paths of a packet from node `s` to node
    /// `d`: each distinct channel sequence (analysis channel indices, see
    /// [`Cube::channel`]) with its probability, in a fixed order. The
    /// probabilities sum to 1; s = d gives the empty path. It enumerates
    /// every per-dimension step and dimension order, so it is meant for
    /// checks on small networks (at most [`MAX_ENUMERATED_PATHS`] plans).
    pub fn paths(&self, cube: &Cube, s: u32, d: u32) -> Result<PathDistribution, AnalysisError> {
        self.check(cube)?;
        let n = cube.dims();
        let (sc, dc) = (cube.coords(s).to_vec(), cube.coords(d).to_vec());
        let side = self.tie_side(s);
        let steps: Vec<Vec<DimStep>> = (0..n)
            .map(|j| {
                let k = cube.radix()[j];
                self.dim_steps(k, cube.is_torus(), side, sc[j], dc[j])
            })
            .collect();
        let (o1, o2) = self.phase_orders();
        let n_orders = |o: DimOrder| match o {
            DimOrder::Xy => Some(1usize),
            DimOrder::Random => (1..=n).try_fold(1usize, |acc, x| acc.checked_mul(x)),
        };
        let plans = steps
            .iter()
            .map(|v| Some(v.len()))
            .chain([n_orders(o1), n_orders(o2)])
            .try_fold(1usize, |acc, x| acc.checked_mul(x?))
            .filter(|&p| p <= MAX_ENUMERATED_PATHS);
        if plans.is_none() {
            return Err(AnalysisError::TooLarge {
                spec: cube.network().spec().to_string(),
                what: format!("enumerating every path of {self} from {s} to {d}"),
                limit: format!("at most {MAX_ENUMERATED_PATHS} plans per pair"),
            });
        }
        let orders = |o: DimOrder| -> Vec<Vec<usize>> {
            match o {
                DimOrder::Xy => vec![(0..n).collect()],
                DimOrder::Random => permutations(n),
            }
        };
        let (orders1, orders2) = (orders(o1), orders(o2));
        let p_order1 = Ratio::new(1, orders1.len() as i128);
        let p_order2 = Ratio::new(1, orders2.len() as i128);
        let mut dist: BTreeMap<Vec<u32>, Ratio<i128>> = BTreeMap::new();
        let mut pick = vec![0usize; n];
        loop {
            let chosen: Vec<&DimStep> = (0..n).map(|j| &steps[j][pick[j]]).collect();
            let p: Ratio<i128> = chosen.iter().map(|st| st.probability).product();
            for ord1 in &orders1 {
                for ord2 in &orders2 {
                    let mut at = sc.clone();
                    let mut path = Vec::new();
                    for &j in ord1 {
                        walk(
                            cube,
                            &mut at,
                            j,
                            chosen[j].first,
                            chosen[j].intermediate,
                            &mut path,
                        );
                    }
                    for &j in ord2 {
                        walk(cube, &mut at, j, chosen[j].second, dc[j], &mut path);
                    }
                    debug_assert_eq!(at, dc);
                    *dist.entry(path).or_insert(Ratio::from_integer(0)) += p * p_order1 * p_order2;
                }
            }
            // Next combination of per-dimension steps (odometer).
            let mut j = 0;
            loop {
                if j == n {
                    return Ok(dist.into_iter().map(|(path, p)| (p, path)).collect());
                }
                pick[j] += 1;
                if pick[j] < steps[j].len() {
                    break;
                }
                pick[j] = 0;
                j += 1;
            }
        }
    }
}

/// One option of a routing in one dimension: with `probability`, phase 1
/// moves from s_j to `intermediate` in direction `first` and phase 2 from
/// `intermediate` to d_j in direction `second` (`None`: no move in that
/// phase).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimStep {
    pub probability: Ratio<i128>,
    pub first: Option<Dir>,
    pub intermediate: u32,
    pub second: Option<Dir>,
}

/// Hops from `a` to `b` walking in `dir` on a ring of `k` (a torus
/// dimension; on a mesh only the direction towards b is ever asked).
pub fn distance(k: u32, a: u32, b: u32, dir: Dir) -> u32 {
    use crate::topology::cube::Geometry;
    match dir {
        Dir::Plus => Geometry::plus_offset(k, a, b),
        Dir::Minus => Geometry::plus_offset(k, b, a),
    }
}

/// The coordinates from `a` to `b` inclusive walking in `dir`: the
/// per-dimension box of ROMM and RLB (§3.2), `distance + 1` values.
pub fn box_coords(k: u32, a: u32, b: u32, dir: Dir) -> Vec<u32> {
    let len = distance(k, a, b, dir);
    (0..=len)
        .map(|i| match dir {
            Dir::Plus => (a + i) % k,
            Dir::Minus => (a + k - i % k) % k,
        })
        .collect()
}

/// Minimal directions from `a` to `b` with their probabilities. On a tie
/// (torus offset k/2) `tie` picks one, `None` takes both with 1/2.
fn minimal_dirs(
    k: u32,
    wrap: bool,
    a: u32,
    b: u32,
    tie: Option<Dir>,
) -> Vec<(Option<Dir>, Ratio<i128>)> {
    let one = Ratio::from_integer(1);
    if a == b {
        return vec![(None, one)];
    }
    if !wrap {
        return vec![(Some(if b > a { Dir::Plus } else { Dir::Minus }), one)];
    }
    let plus = distance(k, a, b, Dir::Plus);
    if 2 * plus < k {
        vec![(Some(Dir::Plus), one)]
    } else if 2 * plus > k {
        vec![(Some(Dir::Minus), one)]
    } else if let Some(t) = tie {
        vec![(Some(t), one)]
    } else {
        let half = Ratio::new(1, 2);
        vec![(Some(Dir::Plus), half), (Some(Dir::Minus), half)]
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

fn one_phase(a: u32, dirs: &[(Option<Dir>, Ratio<i128>)]) -> Vec<DimStep> {
    dirs.iter()
        .map(|&(dir, p)| DimStep {
            probability: p,
            first: None,
            intermediate: a,
            second: dir,
        })
        .collect()
}

/// q uniform over the box from a to b in `dir`, given that direction
/// (probability `p`).
fn in_box(out: &mut Vec<DimStep>, k: u32, a: u32, b: u32, dir: Dir, p: Ratio<i128>) {
    let coords = box_coords(k, a, b, dir);
    let pq = p / coords.len() as i128;
    for q in coords {
        out.push(DimStep {
            probability: pq,
            first: (q != a).then_some(dir),
            intermediate: q,
            second: (q != b).then_some(dir),
        });
    }
}

/// Move `at` along dimension `j` to coordinate `to` in `dir`, appending the
/// channels crossed.
fn walk(cube: &Cube, at: &mut [u32], j: usize, dir: Option<Dir>, to: u32, path: &mut Vec<u32>) {
    let Some(dir) = dir else {
        debug_assert_eq!(at[j], to);
        return;
    };
    let k = cube.radix()[j];
    while at[j] != to {
        path.push(cube.channel(cube.node(at), j, dir));
        at[j] = match dir {
            Dir::Plus => (at[j] + 1) % k,
            Dir::Minus => (at[j] + k - 1) % k,
        };
    }
}

/// All n! orders of 0..n, lexicographic.
pub(crate) fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn rec(rest: &mut Vec<usize>, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if rest.is_empty() {
            out.push(cur.clone());
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
    rec(&mut (0..n).collect(), &mut Vec::new(), &mut out);
    out
}

impl FromStr for ObliviousRouting {
    type Err = AnalysisError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let bad = |problem: String| AnalysisError::Routing {
            spec: s.to_string(),
            problem,
            accepted: ACCEPTED.to_string(),
        };
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or("");
        let mut opts = Vec::new();
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| bad(format!("option `{p}` is not key=value")))?;
            opts.push((k, v));
        }
        let no_opts = |r: ObliviousRouting| match opts.first() {
            Some((k, _)) => Err(bad(format!("`{name}` takes no option `{k}`"))),
            None => Ok(r),
        };
        match name {
            "dor" => {
                let mut tie = TieRule::Plus;
                for (k, v) in &opts {
                    match *k {
                        "tie" => {
                            tie = TieRule::parse(v).ok_or_else(|| {
                                bad(format!("tie `{v}`; accepted {}", TieRule::ACCEPTED))
                            })?
                        }
                        _ => return Err(bad(format!("`dor` takes no option `{k}`"))),
                    }
                }
                Ok(ObliviousRouting::Dor { tie })
            }
            "romm" => {
                let mut order = DimOrder::Xy;
                for (k, v) in &opts {
                    match *k {
                        "order" => {
                            order = DimOrder::parse(v).ok_or_else(|| {
                                bad(format!("order `{v}`; accepted {}", DimOrder::ACCEPTED))
                            })?
                        }
                        _ => return Err(bad(format!("`romm` takes no option `{k}`"))),
                    }
                }
                Ok(ObliviousRouting::Romm { order })
            }
            "rdor" => no_opts(ObliviousRouting::Rdor),
            "val" => no_opts(ObliviousRouting::Val),
            "rlb" => no_opts(ObliviousRouting::Rlb),
            "rlbth" => no_opts(ObliviousRouting::RlbTh),
            _ => Err(bad(format!("unknown routing `{name}`"))),
        }
    }
}

impl fmt::Display for ObliviousRouting {
    /// The canonical spec: options are always written (`dor:tie=plus`,
    /// `romm:order=xy`), so every output states DOR's tie rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObliviousRouting::Dor { tie } => write!(f, "dor:tie={}", tie.as_str()),
            ObliviousRouting::Rdor => f.write_str("rdor"),
            ObliviousRouting::Val => f.write_str("val"),
            ObliviousRouting::Romm { order } => write!(f, "romm:order={}", order.as_str()),
            ObliviousRouting::Rlb => f.write_str("rlb"),
            ObliviousRouting::RlbTh => f.write_str("rlbth"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_and_bad_ones_name_the_problem() {
        for (s, canon) in [
            ("dor", "dor:tie=plus"),
            ("dor:tie=parity", "dor:tie=parity"),
            ("rdor", "rdor"),
            ("val", "val"),
            ("romm", "romm:order=xy"),
            ("romm:order=random", "romm:order=random"),
            ("rlb", "rlb"),
            ("rlbth", "rlbth"),
        ] {
            let r: ObliviousRouting = s.parse().unwrap();
            assert_eq!(r.to_string(), canon);
            assert_eq!(canon.parse::<ObliviousRouting>().unwrap(), r);
        }
        for (s, needle) in [
            ("minimal", "unknown routing"),
            ("dor:tie=left", "plus, random, parity"),
            ("romm:order=yx", "xy, random"),
            ("rlb:x=1", "takes no option"),
            ("val:3", "key=value"),
        ] {
            let e = s.parse::<ObliviousRouting>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains(ACCEPTED), "{s}: {e}");
        }
    }

    #[test]
    fn boxes_include_both_ends() {
        // §3.2's example, 8x8 torus from (0,0) to (2,3), quadrant (-1,+1).
        assert_eq!(box_coords(8, 0, 2, Dir::Minus), vec![0, 7, 6, 5, 4, 3, 2]);
        assert_eq!(box_coords(8, 0, 3, Dir::Plus), vec![0, 1, 2, 3]);
        assert_eq!(box_coords(8, 5, 5, Dir::Plus), vec![5]);
    }

    #[test]
    fn every_dimension_law_sums_to_one() {
        for r in ObliviousRouting::COMPARED.iter().chain(&[
            ObliviousRouting::Dor {
                tie: TieRule::Random,
            },
            ObliviousRouting::Romm {
                order: DimOrder::Random,
            },
        ]) {
            for k in [3u32, 4, 5, 8] {
                for a in 0..k {
                    for b in 0..k {
                        let total: Ratio<i128> = r
                            .dim_steps(k, true, Dir::Plus, a, b)
                            .iter()
                            .map(|s| s.probability)
                            .sum();
                        assert_eq!(total, Ratio::from_integer(1), "{r} k={k} {a}->{b}");
                    }
                }
            }
        }
    }

    #[test]
    fn path_distributions_sum_to_one_and_end_at_the_destination() {
        let cube = Cube::from_spec("torus:4x3").unwrap();
        for r in ObliviousRouting::COMPARED {
            for (s, d) in [(0, 11), (5, 2), (3, 3), (1, 7)] {
                let paths = r.paths(&cube, s, d).unwrap();
                let total: Ratio<i128> = paths.iter().map(|p| p.0).sum();
                assert_eq!(total, Ratio::from_integer(1), "{r} {s}->{d}");
                for (_, path) in &paths {
                    let mut at = s;
                    for &ch in path {
                        let (y, j, dir) = cube.channel_parts(ch);
                        assert_eq!(y, at, "{r} {s}->{d}: path is not contiguous");
                        let mut c = cube.coords(y).to_vec();
                        let k = cube.radix()[j];
                        c[j] = (c[j] as i32 + dir.sign()).rem_euclid(k as i32) as u32;
                        at = cube.node(&c);
                    }
                    assert_eq!(at, d, "{r} {s}->{d}");
                }
            }
        }
    }

    #[test]
    fn rlb_on_a_mesh_is_refused() {
        let cube = Cube::from_spec("mesh:4x4").unwrap();
        let e = ObliviousRouting::Rlb.paths(&cube, 0, 5).unwrap_err();
        assert!(e.to_string().contains("torus"), "{e}");
        assert!(ObliviousRouting::Val.paths(&cube, 0, 5).is_ok());
    }
}
