//! Traffic as a source-to-destination rate matrix Λ = (λ_sd), the input of
//! the channel-load analysis (Singh's thesis §2.2: "a traffic matrix Λ
//! whose entry λ_sd is the fraction of node s's traffic sent to d").
//!
//! Every pattern of [`crate::traffic::pattern`] is available under its
//! own name and built by that module ([`Pattern::build`]), so the matrix is
//! exactly the law the simulator draws destinations from, with one
//! deliberate exception:
//! - `uniform` here is the **analysis's** uniform matrix, λ_sd = 1/N for
//!   every d *including d = s* (the thesis's UR, whose ideal throughput
//!   defines the capacity Θ).
//! - `uniform-other` is the **simulator's** `uniform`: λ_sd = 1/(N-1) for
//!   d ≠ s, never itself.
//!
//! Entries are exact: integers over a common denominator. `hotspot`'s
//! fraction is taken at its shortest decimal form (0.1 is 1/10).
//! `randperm` draws its permutation from stream [`Stream::Pattern`] of the
//! seed, as `routelab sim` does, so the same seed gives the same
//! permutation in both.

use super::AnalysisError;
use crate::rng::{Stream, stream};
use crate::topology::Network;
use crate::traffic::{Pattern, PatternSpec};
use num_rational::Ratio;
use std::fmt;
use std::str::FromStr;

/// Patterns accepted by the analysis, quoted in errors: its own uniform,
/// the simulator's under another name, then every registered pattern but
/// `uniform` ([`crate::traffic::registry`]).
pub fn accepted() -> String {
    let rest: Vec<&str> = crate::traffic::registry::kinds()
        .iter()
        .filter(|k| k.name != "uniform")
        .map(|k| k.form)
        .collect();
    format!(
        "uniform (λ=1/N, a node included), uniform-other (the simulator's uniform: every other node), {}",
        rest.join(", ")
    )
}

/// `load --traffic`'s help: the analysis' own uniform, every registered
/// pattern ([`crate::traffic::registry`]), and the worst case and the
/// random-permutation average.
pub fn traffic_help() -> String {
    format!(
        "Traffic: {}; or worst (Towles-Dally worst case) or average (mean over random permutations)",
        accepted()
    )
}

/// A traffic matrix spec: the analysis's uniform or one of the simulator's
/// patterns.
#[derive(Clone, Debug, PartialEq)]
pub enum MatrixSpec {
    /// λ_sd = 1/N for every d, d = s included (`uniform`).
    Uniform,
    /// A simulator pattern; its `uniform` is written `uniform-other`.
    Pattern(PatternSpec),
}

impl FromStr for MatrixSpec {
    type Err = AnalysisError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "uniform" => Ok(MatrixSpec::Uniform),
            "uniform-other" => Ok(MatrixSpec::Pattern(PatternSpec::named("uniform"))),
            other => other
                .parse::<PatternSpec>()
                .map(MatrixSpec::Pattern)
                .map_err(|e| AnalysisError::Traffic {
                    spec: e.spec,
                    problem: e.problem,
                    accepted: accepted(),
                }),
        }
    }
}

impl fmt::Display for MatrixSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixSpec::Uniform => f.write_str("uniform"),
            MatrixSpec::Pattern(p) if p.is("uniform") => f.write_str("uniform-other"),
            MatrixSpec::Pattern(p) => p.fmt(f),
        }
    }
}

impl MatrixSpec {
    /// One line saying which uniform this is (or that it is not one), for
    /// outputs.
    pub fn uniform_note(&self) -> Option<&'static str> {
        match self {
            MatrixSpec::Uniform => Some("uniform = analysis form, λ=1/N including s=d"),
            MatrixSpec::Pattern(p) if p.is("uniform") => {
                Some("uniform-other = the simulator's uniform, λ=1/(N-1) to every other node")
            }
            _ => None,
        }
    }
}

/// An exact traffic matrix on N nodes: λ_sd = `num`/`den`, stored sparse
/// by source.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficMatrix {
    nodes: usize,
    den: i128,
    /// (s, d, numerator), sorted by s then d, no zero entries.
    entries: Vec<(u32, u32, i128)>,
}

impl TrafficMatrix {
    /// Build `spec` on `net` (switch = host: one host per switch). `seed`
    /// feeds `randperm`.
    pub fn build(spec: &MatrixSpec, net: &Network, seed: u64) -> Result<Self, AnalysisError> {
        match spec {
            MatrixSpec::Uniform => Ok(TrafficMatrix::uniform(net.num_hosts())),
            MatrixSpec::Pattern(p) => {
                let mut rng = stream(seed, Stream::Pattern);
                let pattern =
                    Pattern::build(p, net, &mut rng).map_err(|e| AnalysisError::Traffic {
                        spec: e.spec,
                        problem: e.problem,
                        accepted: accepted(),
                    })?;
                TrafficMatrix::from_pattern(&pattern, net.num_hosts())
            }
        }
    }

    /// λ_sd = 1/N for every s and d (d = s included).
    pub fn uniform(nodes: usize) -> Self {
        let n = nodes as u32;
        TrafficMatrix {
            nodes,
            den: nodes as i128,
            entries: (0..n)
                .flat_map(|s| (0..n).map(move |d| (s, d, 1)))
                .collect(),
        }
    }

    /// λ_(s, perm(s)) = 1: node s sends everything to `perm[s]`.
    pub fn permutation(perm: &[u32]) -> Self {
        TrafficMatrix {
            nodes: perm.len(),
            den: 1,
            entries: perm
                .iter()
                .enumerate()
                .map(|(s, &d)| (s as u32, d, 1))
                .collect(),
        }
    }

    /// The law of [`Pattern::destination`] as a matrix on `nodes` hosts.
    pub fn from_pattern(p: &Pattern, nodes: usize) -> Result<Self, AnalysisError> {
        if nodes < 2 {
            return Err(AnalysisError::Traffic {
                spec: "matrix".into(),
                problem: format!("{nodes} nodes; a traffic matrix needs at least 2"),
                accepted: accepted(),
            });
        }
        let n = nodes as u32;
        let mut exact: Vec<(u32, u32, Ratio<i128>)> = Vec::new();
        let other = Ratio::new(1, nodes as i128 - 1);
        match p {
            Pattern::Uniform { .. } => {
                for s in 0..n {
                    for d in (0..n).filter(|&d| d != s) {
                        exact.push((s, d, other));
                    }
                }
            }
            Pattern::Permutation(perm) => {
                for (s, &d) in perm.iter().enumerate() {
                    exact.push((s as u32, d, Ratio::from_integer(1)));
                }
            }
            Pattern::Choice(lists) => {
                for (s, list) in lists.iter().enumerate() {
                    let each = Ratio::new(1, list.len() as i128);
                    let mut row = vec![Ratio::from_integer(0); nodes];
                    for &d in list {
                        row[d as usize] += each;
                    }
                    push_row(&mut exact, s as u32, &row);
                }
            }
            Pattern::HotSpot { fraction, hot, .. } => {
                let f = decimal(*fraction).ok_or_else(|| AnalysisError::Traffic {
                    spec: format!("hotspot:fraction={fraction}"),
                    problem: "the fraction has no exact short decimal form".into(),
                    accepted: accepted(),
                })?;
                let m = hot.len() as i128;
                for s in 0..n {
                    // Pattern::destination: with probability F a hot host
                    // (one list entry uniformly); drawing s itself redraws
                    // among the other entries if the list has more than one
                    // and some differ from s, else falls back to uniform
                    // over the others, as does the remaining 1 - F.
                    let c = hot.iter().filter(|&&h| h == s).count() as i128;
                    let others = m - c;
                    let redraw = m > 1 && others > 0;
                    let mut row = vec![Ratio::from_integer(0); nodes];
                    for &h in hot.iter().filter(|&&h| h != s) {
                        let mut p = f / m;
                        if redraw {
                            p += f * Ratio::new(c, m) / others;
                        }
                        row[h as usize] += p;
                    }
                    let mut rest = Ratio::from_integer(1) - f;
                    if !redraw {
                        rest += f * Ratio::new(c, m);
                    }
                    for d in (0..n).filter(|&d| d != s) {
                        row[d as usize] += rest * other;
                    }
                    push_row(&mut exact, s, &row);
                }
            }
        }
        let mut den: i128 = 1;
        for (_, _, r) in &exact {
            den = num_integer::Integer::lcm(&den, r.denom());
        }
        Ok(TrafficMatrix {
            nodes,
            den,
            entries: exact
                .into_iter()
                .map(|(s, d, r)| (s, d, r.numer() * (den / r.denom())))
                .collect(),
        })
    }

    /// Number of nodes N.
    pub fn nodes(&self) -> usize {
        self.nodes
    }
    /// The common denominator L of the entries.
    pub fn denominator(&self) -> i128 {
        self.den
    }
    /// The non-zero entries (s, d, λ_sd·L), by source.
    pub fn entries(&self) -> &[(u32, u32, i128)] {
        &self.entries
    }
    /// λ_sd.
    pub fn rate(&self, s: u32, d: u32) -> Ratio<i128> {
        self.entries
            .iter()
            .find(|e| e.0 == s && e.1 == d)
            .map_or(Ratio::from_integer(0), |e| Ratio::new(e.2, self.den))
    }
    /// Σ_d λ_sd for every s (1 for every pattern here).
    pub fn row_sums(&self) -> Vec<Ratio<i128>> {
        let mut v = vec![0i128; self.nodes];
        for &(s, _, x) in &self.entries {
            v[s as usize] += x;
        }
        v.into_iter().map(|x| Ratio::new(x, self.den)).collect()
    }
    /// Σ_s λ_sd for every d.
    pub fn column_sums(&self) -> Vec<Ratio<i128>> {
        let mut v = vec![0i128; self.nodes];
        for &(_, d, x) in &self.entries {
            v[d as usize] += x;
        }
        v.into_iter().map(|x| Ratio::new(x, self.den)).collect()
    }
    /// Σ_sd λ_sd·L.
    pub(crate) fn total_numerator(&self) -> i128 {
        self.entries.iter().map(|e| e.2).sum()
    }
}

fn push_row(out: &mut Vec<(u32, u32, Ratio<i128>)>, s: u32, row: &[Ratio<i128>]) {
    for (d, r) in row.iter().enumerate() {
        if *r != Ratio::from_integer(0) {
            out.push((s, d as u32, *r));
        }
    }
}

/// The exact value of `x`'s shortest decimal form (`0.1` → 1/10); None for
/// non-finite values or more than 30 decimals.
fn decimal(x: f64) -> Option<Ratio<i128>> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{x}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.as_str()),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if frac.len() > 30 || int.len() > 30 {
        return None;
    }
    let num: i128 = format!("{int}{frac}").parse().ok()?;
    Some(Ratio::new(sign * num, 10i128.pow(frac.len() as u32)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SimRng;

    fn net(s: &str) -> Network {
        Network::from_spec(s).unwrap()
    }

    #[test]
    fn uniform_includes_the_source_and_uniform_other_does_not() {
        let n = net("torus:4x4");
        let u = TrafficMatrix::build(&"uniform".parse().unwrap(), &n, 1).unwrap();
        assert_eq!(u.rate(3, 3), Ratio::new(1, 16));
        assert_eq!(u.rate(3, 4), Ratio::new(1, 16));
        let o = TrafficMatrix::build(&"uniform-other".parse().unwrap(), &n, 1).unwrap();
        assert_eq!(o.rate(3, 3), Ratio::from_integer(0));
        assert_eq!(o.rate(3, 4), Ratio::new(1, 15));
        for m in [&u, &o] {
            assert!(m.row_sums().iter().all(|r| *r == Ratio::from_integer(1)));
            assert!(m.column_sums().iter().all(|r| *r == Ratio::from_integer(1)));
        }
    }

    #[test]
    fn every_pattern_builds_with_rows_summing_to_one() {
        let n = net("torus:4x4");
        for p in [
            "uniform",
            "uniform-other",
            "hotspot",
            "hotspot:fraction=0.25:nodes=0,5,5",
            "bitrev",
            "bitcomp",
            "butterfly",
            "shuffle",
            "transpose",
            "tornado",
            "nn",
            "neighbor",
            "randperm",
        ] {
            let spec: MatrixSpec = p.parse().unwrap();
            assert_eq!(spec.to_string().split(':').next(), p.split(':').next());
            let m = TrafficMatrix::build(&spec, &n, 7).unwrap();
            assert!(
                m.row_sums().iter().all(|r| *r == Ratio::from_integer(1)),
                "{p}"
            );
        }
        let e = "zipf".parse::<MatrixSpec>().unwrap_err().to_string();
        assert!(e.contains("uniform-other"), "{e}");
    }

    /// The matrix is the law the simulator samples: compare with 200 000
    /// draws of `Pattern::destination`.
    #[test]
    fn hotspot_matrix_matches_the_simulators_draws() {
        let n = net("torus:4x4");
        let spec: PatternSpec = "hotspot:fraction=0.3:nodes=2,5".parse().unwrap();
        let mut rng: SimRng = stream(1, Stream::Pattern);
        let p = Pattern::build(&spec, &n, &mut rng).unwrap();
        let m = TrafficMatrix::from_pattern(&p, 16).unwrap();
        assert_eq!(m.rate(0, 2), Ratio::new(3, 20) + Ratio::new(7, 150));
        for s in [0u32, 2, 5] {
            let draws = 200_000;
            let mut count = [0u32; 16];
            for _ in 0..draws {
                count[p.destination(s, &mut rng) as usize] += 1;
            }
            for d in 0..16u32 {
                let want = *m.rate(s, d).numer() as f64 / *m.rate(s, d).denom() as f64;
                let got = count[d as usize] as f64 / draws as f64;
                assert!((want - got).abs() < 0.005, "{s}->{d}: {want} vs {got}");
            }
        }
    }

    #[test]
    fn nn_on_a_torus_is_the_four_neighbours() {
        let m = TrafficMatrix::build(&"nn".parse().unwrap(), &net("torus:8x8"), 1).unwrap();
        assert_eq!(m.denominator(), 4);
        assert_eq!(m.rate(0, 1), Ratio::new(1, 4));
        assert_eq!(m.rate(0, 7), Ratio::new(1, 4));
        assert_eq!(m.rate(0, 8), Ratio::new(1, 4));
        assert_eq!(m.rate(0, 56), Ratio::new(1, 4));
        assert_eq!(m.entries().len(), 64 * 4);
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(decimal(0.1), Some(Ratio::new(1, 10)));
        assert_eq!(decimal(1.0), Some(Ratio::from_integer(1)));
        assert_eq!(decimal(0.0), Some(Ratio::from_integer(0)));
        assert_eq!(decimal(f64::NAN), None);
    }
}
