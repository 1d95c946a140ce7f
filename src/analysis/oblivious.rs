//! The oblivious routings the analysis knows, from the routing registry
//! (Singh's thesis §2 and §3): every registered routing whose entry hands
//! out an exact law ([`crate::routing::RoutingBuild::law`]; the laws live
//! with their routings, [`crate::routing::ObliviousLaw`]). Parsing a spec
//! into a [`Law`], the accepted specs quoted in errors, the routings
//! `--compare` tabulates ([`Law::compared`]), where a law is defined
//! ([`Law::check`]) and the full distribution over paths
//! ([`Law::paths`]) all follow the registry: a new oblivious routing joins
//! the analysis by its own file and its registry line.
//!
//! Every law has the same shape, which the thesis calls a two-phase route
//! through an intermediate node q (§3.2, Fig. 3.3): in each dimension j it
//! draws, independently of the other dimensions, a direction and a
//! coordinate q_j ([`DimStep`]); then it routes s → q in a dimension order
//! drawn for phase 1 and q → d in a dimension order drawn for phase 2, each
//! phase moving only in the drawn directions. One-phase routings (DOR,
//! RDOR) are the case q = s. [`crate::routing::ObliviousLaw::dim_steps`] is
//! the per-dimension law, [`Law::paths`] the full distribution over channel
//! sequences (small networks: it enumerates), and
//! [`super::ChannelWeights`] the same law folded into expected channel
//! traversals through the product structure (any size).
//!
//! Ties (offset exactly k/2): VAL, RDOR, ROMM, RLB and RLBth take either
//! direction with probability 1/2 per packet and dimension; DOR follows its
//! [`crate::routing::TieRule`] (`plus` by default, as [`crate::routing`]'s
//! DOR).

use super::AnalysisError;
use super::geometry::Cube;
use crate::routing::registry::{self, Family};
use crate::routing::{DimOrder, DimStep, Dir, Law, RoutingSpec, permutations};
use num_rational::Ratio;
use std::collections::BTreeMap;
use std::str::FromStr;

/// A distribution over paths: each distinct channel sequence (analysis
/// channel indices) with its probability.
pub type PathDistribution = Vec<(Ratio<i128>, Vec<u32>)>;

/// Most paths [`Law::paths`] enumerates for one pair.
pub const MAX_ENUMERATED_PATHS: usize = 1 << 20;

/// The law of a routing spec, if the analysis knows it (`None`: not an
/// oblivious routing with an exact law, e.g. `minimal` or `updown`).
pub fn law_of(spec: &RoutingSpec) -> Option<Law> {
    spec.law()
}

/// Every registered routing with a law, by its default spec, in registry
/// order, with whether it is in the Oblivious family.
fn registered() -> Vec<(&'static registry::RoutingKind, Law)> {
    registry::KINDS
        .iter()
        .filter_map(|k| {
            let b = (k.parse)(&[]).ok()?;
            Some((k, b.law()?))
        })
        .collect()
}

/// The accepted routing specs, quoted in every error: each registered
/// routing with a law, with its options.
pub fn accepted() -> String {
    registered()
        .iter()
        .map(|(k, _)| format!("{}{}", k.name, k.options))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The registered routings whose law also runs on meshes, by name.
pub(super) fn mesh_routings() -> Vec<&'static str> {
    registered()
        .iter()
        .filter(|(_, l)| l.torus_only().is_none())
        .map(|(k, _)| k.name)
        .collect()
}

/// `a, b, c or d`.
fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The registered laws (default specs) that satisfy `keep`, by name, as
/// `a, b or c`.
pub(super) fn names_where(keep: impl Fn(&Law) -> bool) -> String {
    let laws = registered();
    let names: Vec<&str> = laws
        .iter()
        .filter(|(_, l)| keep(l))
        .map(|(k, _)| k.name)
        .collect();
    or_list(&names)
}

impl FromStr for Law {
    type Err = AnalysisError;
    /// Parse a routing spec through the routing registry (the crate's one
    /// spec parser); the routing must hand out a law.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let bad = |problem: String| AnalysisError::Routing {
            spec: s.to_string(),
            problem,
            accepted: accepted(),
        };
        let spec: RoutingSpec = s
            .parse()
            .map_err(|e: crate::routing::RoutingError| bad(e.problem))?;
        law_of(&spec).ok_or_else(|| {
            bad(format!(
                "`{}` is not an oblivious routing with an exact law on tori and meshes",
                spec.name()
            ))
        })
    }
}

impl Law {
    /// The routings `routelab load --compare` tabulates: the default spec
    /// of every routing of the Oblivious family that has a law, in registry
    /// order (DOR with its default tie rule `plus`, RDOR, VAL, ROMM with
    /// its default order `xy`, RLB, RLBth).
    pub fn compared() -> Vec<Law> {
        registered()
            .into_iter()
            .filter(|(k, _)| k.families.contains(&Family::Oblivious))
            .map(|(_, l)| l)
            .collect()
    }

    /// Whether the law is defined on this cube: a law that needs a torus
    /// ([`crate::routing::ObliviousLaw::torus_only`], RLB and RLBth: their
    /// long direction wraps) is refused on a mesh, naming those that run
    /// there.
    pub fn check(&self, cube: &Cube) -> Result<(), AnalysisError> {
        if let (false, Some(reason)) = (cube.is_torus(), self.torus_only()) {
            return Err(AnalysisError::NotDefined {
                routing: self.to_string(),
                topology: cube.network().spec().to_string(),
                reason: format!("it {reason}; on a mesh use {}", or_list(&mesh_routings())),
            });
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::box_coords;

    fn law(s: &str) -> Law {
        s.parse().unwrap()
    }

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
            let r: Law = s.parse().unwrap();
            assert_eq!(r.to_string(), canon);
            assert_eq!(canon.parse::<Law>().unwrap(), r);
        }
        for (s, needle) in [
            ("minimal", "not an oblivious routing"),
            ("foo", "unknown routing"),
            ("dor:tie=left", "plus, random, parity"),
            ("romm:order=yx", "xy, random"),
            ("rlb:x=1", "takes no option"),
            ("rdor:3", "takes no options"),
            ("val:3", "key=value"),
            ("romm:3", "key=value"),
            ("dor:tie=plus:tie=random", "given twice"),
        ] {
            let e = s.parse::<Law>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains(&accepted()), "{s}: {e}");
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
        for r in Law::compared()
            .iter()
            .chain(&[law("dor:tie=random"), law("romm:order=random")])
        {
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
        for r in Law::compared() {
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
    fn compared_follows_the_registry_in_order() {
        let got: Vec<String> = Law::compared().iter().map(|l| l.to_string()).collect();
        assert_eq!(
            got,
            [
                "dor:tie=plus",
                "rdor",
                "val",
                "romm:order=xy",
                "rlb",
                "rlbth"
            ]
        );
    }

    #[test]
    fn rlb_on_a_mesh_is_refused() {
        let cube = Cube::from_spec("mesh:4x4").unwrap();
        let e = law("rlb").paths(&cube, 0, 5).unwrap_err();
        assert!(e.to_string().contains("torus"), "{e}");
        assert!(e.to_string().contains("dor, rdor, val or romm"), "{e}");
        assert!(law("val").paths(&cube, 0, 5).is_ok());
    }
}
