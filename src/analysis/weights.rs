//! Expected channel traversals w_c(s,d): how many times, on average, one
//! packet from s to d crosses channel c under an oblivious routing (Towles
//! and Dally's per-channel weights; Singh's thesis §2.2 builds channel
//! loads from them).
//!
//! ## The product form
//! A routing draws, independently per dimension j, a step (direction(s)
//! and intermediate coordinate q_j, [`crate::routing::ObliviousLaw::dim_steps`]) and,
//! independently of those, a dimension order per phase. Channel c =
//! (y, i, dir) is crossed in phase 1 when dimension i moves from s_i to q_i
//! through y_i in `dir` while every other dimension j sits at y_j: at q_j
//! if j was corrected before i in phase 1, at s_j otherwise. In phase 2 the
//! others sit at d_j (before i) or q_j (after i). With S the set of
//! dimensions before i,
//!
//! w_c = Σ_S P₁(S) · A_i(y_i) · Π_{j∈S} Q_j(y_j) · Π_{j∉S} [y_j = s_j]
//!     + Σ_S P₂(S) · B_i(y_i) · Π_{j∈S} [y_j = d_j] · Π_{j∉S} Q_j(y_j)
//!
//! where Q_j(y) = P(q_j = y), A_i(y) (B_i(y)) the probability that phase 1
//! (2) crosses the ring channel leaving y_i in `dir` (a phase crosses a ring
//! channel at most once), and P(S) = 1 for S = {j < i} in xy order, or
//! |S|!(n-1-|S|)!/n! for a uniformly random order. Both sums are a
//! polynomial in the per-dimension factors, evaluated in O(n²).
//!
//! ## Exact integers
//! Every per-dimension quantity is a rational; in dimension j they share
//! the common denominator den_j, the least common multiple of all their
//! reduced denominators over every (s_j, d_j) pair (for RLB on radix k it
//! divides k·lcm(1..k): the direction law has denominator k, the box 1/(Δ+1)
//! or 1/(k-Δ+1)). Order probabilities have denominator n!. So every w_c(s,d)
//! is an integer over the derived common denominator D = n!·Π_j den_j
//! ([`ChannelWeights::denominator`]); sums of them stay exact in i128
//! (construction fails with [`AnalysisError::Overflow`] when N·2·D could
//! overflow; RLB on a ring of about 80 would, hence
//! [`MAX_RADIX`](super::MAX_RADIX) = 64).
//!
//! ## Symmetry
//! On a torus the law of every routing but DOR with `tie=parity` is
//! invariant under translations, so w_(y,i,dir)(s,d) depends only on
//! (y - s, d - s): one row per offset δ = d - s serves every source
//! ([`ChannelWeights::row`]), and one channel per (dimension, direction)
//! stands for all ([`ChannelWeights::representatives`]). DOR with
//! `tie=parity` is invariant under the translations that keep the parity
//! of the source id; [`ChannelWeights::symmetry_strides`] gives them.

use super::AnalysisError;
use super::geometry::{Cube, Dir};
use crate::routing::{DimOrder, Law};
use num_rational::Ratio;

/// Per-dimension tables for one (tie side, s_j, d_j): numerators over the
/// dimension's den_j.
#[derive(Clone, Debug)]
struct DimTable {
    /// P(q_j = y).
    q: Vec<i128>,
    /// Phase-1 crossing probability of the ring channel leaving y, per dir.
    first: [Vec<i128>; 2],
    /// Phase-2 crossing probability.
    second: [Vec<i128>; 2],
    /// Coordinates where q, s_j or d_j may sit (the factor can be non-zero).
    support: Vec<u32>,
    /// Coordinates whose channel in `dir` may be crossed.
    moves: [Vec<u32>; 2],
}

/// w_c(s,d) for one routing on one cube, exact (module docs).
#[derive(Clone, Debug)]
pub struct ChannelWeights {
    cube: Cube,
    routing: Law,
    /// `tables[j][(side·k + a)·k + b]`.
    tables: Vec<Vec<DimTable>>,
    /// den_j.
    dim_den: Vec<i128>,
    /// D = n!·Π den_j.
    den: i128,
    /// m!(n-1-m)! for m = 0..n.
    order_weight: Vec<i128>,
    /// n!.
    n_fact: i128,
    orders: (DimOrder, DimOrder),
    /// Torus only: rows from node 0, `[side][δ]`, flattened.
    rows: Option<Rows>,
}

/// Sparse rows w(·; 0, δ) for every offset δ and tie side.
#[derive(Clone, Debug)]
struct Rows {
    start: Vec<usize>,
    /// Node of the channel, relative to the source.
    node: Vec<u32>,
    /// Port of the channel (2·dim + dir).
    port: Vec<u32>,
    weight: Vec<i128>,
    /// `add[s·N + y]` = node s + y (the torus translation table).
    add: Vec<u32>,
}

fn gcd(a: i128, b: i128) -> i128 {
    num_integer::Integer::gcd(&a, &b)
}

fn lcm(a: i128, b: i128) -> Option<i128> {
    (a / gcd(a, b)).checked_mul(b)
}

impl ChannelWeights {
    /// Tabulate `routing` on `cube`.
    pub fn new(cube: &Cube, routing: Law) -> Result<ChannelWeights, AnalysisError> {
        routing.check(cube)?;
        let n = cube.dims();
        let sides: &[Dir] = if routing.depends_on_source() {
            &[Dir::Plus, Dir::Minus]
        } else {
            &[Dir::Plus]
        };
        let overflow = |what: &str| AnalysisError::Overflow {
            spec: cube.network().spec().to_string(),
            routing: routing.to_string(),
            what: what.to_string(),
        };
        let mut tables = Vec::with_capacity(n);
        let mut dim_den = Vec::with_capacity(n);
        for j in 0..n {
            let k = cube.radix()[j];
            let ku = k as usize;
            // Exact tables first, then their common denominator.
            let mut exact = Vec::with_capacity(sides.len() * ku * ku);
            let mut den: i128 = 1;
            for &side in sides {
                for a in 0..k {
                    for b in 0..k {
                        let zero = Ratio::from_integer(0);
                        let mut q = vec![zero; ku];
                        let mut first = [vec![zero; ku], vec![zero; ku]];
                        let mut second = [vec![zero; ku], vec![zero; ku]];
                        for st in routing.dim_steps(k, cube.is_torus(), side, a, b) {
                            q[st.intermediate as usize] += st.probability;
                            mark(&mut first, k, a, st.intermediate, st.first, st.probability);
                            mark(
                                &mut second,
                                k,
                                st.intermediate,
                                b,
                                st.second,
                                st.probability,
                            );
                        }
                        for r in q
                            .iter()
                            .chain(first.iter().flatten())
                            .chain(second.iter().flatten())
                        {
                            den = lcm(den, *r.denom())
                                .ok_or_else(|| overflow("a dimension's denominator"))?;
                        }
                        exact.push((a, b, q, first, second));
                    }
                }
            }
            let scale = |r: &Ratio<i128>| r.numer() * (den / r.denom());
            let table: Vec<DimTable> = exact
                .into_iter()
                .map(|(a, b, q, first, second)| {
                    let q: Vec<i128> = q.iter().map(scale).collect();
                    let first = [
                        first[0].iter().map(scale).collect::<Vec<_>>(),
                        first[1].iter().map(scale).collect::<Vec<_>>(),
                    ];
                    let second = [
                        second[0].iter().map(scale).collect::<Vec<_>>(),
                        second[1].iter().map(scale).collect::<Vec<_>>(),
                    ];
                    let support = (0..k)
                        .filter(|&y| y == a || y == b || q[y as usize] != 0)
                        .collect();
                    let moves = [0, 1].map(|dx| {
                        (0..k)
                            .filter(|&y| first[dx][y as usize] != 0 || second[dx][y as usize] != 0)
                            .collect()
                    });
                    DimTable {
                        q,
                        first,
                        second,
                        support,
                        moves,
                    }
                })
                .collect();
            tables.push(table);
            dim_den.push(den);
        }
        let fact = |m: usize| -> i128 { (1..=m as i128).product() };
        let n_fact = fact(n);
        let den = dim_den
            .iter()
            .try_fold(n_fact, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| overflow("the common denominator D"))?;
        // Loads add up to N·(at most 2 crossings)·D per unit of traffic
        // weight; keep a margin of 2^8 for the traffic's own numerators.
        (cube.num_nodes() as i128)
            .checked_mul(2 * den)
            .and_then(|x| x.checked_mul(256))
            .ok_or_else(|| overflow("N·2·D"))?;
        let order_weight = (0..n).map(|m| fact(m) * fact(n - 1 - m)).collect();
        let orders = routing.phase_orders();
        let mut w = ChannelWeights {
            cube: cube.clone(),
            routing,
            tables,
            dim_den,
            den,
            order_weight,
            n_fact,
            orders,
            rows: None,
        };
        if cube.is_torus() {
            w.rows = Some(w.relative_rows(sides.len()));
        }
        Ok(w)
    }

    /// The cube.
    pub fn cube(&self) -> &Cube {
        &self.cube
    }
    /// The routing's law.
    pub fn routing(&self) -> &Law {
        &self.routing
    }
    /// The common denominator D: every weight is an integer over D.
    pub fn denominator(&self) -> i128 {
        self.den
    }
    /// den_j of every dimension (D = n!·Π den_j).
    pub fn dimension_denominators(&self) -> &[i128] {
        &self.dim_den
    }

    fn table(&self, j: usize, side: usize, a: u32, b: u32) -> &DimTable {
        let k = self.cube.radix()[j] as usize;
        &self.tables[j][(side * k + a as usize) * k + b as usize]
    }

    fn side_of(&self, s: u32) -> usize {
        if self.routing.depends_on_source() {
            self.routing.tie_side(s).index()
        } else {
            0
        }
    }

    /// w_c(s,d)·D: expected crossings of analysis channel `ch` by one packet
    /// from node `s` to node `d`, as a numerator over [`Self::denominator`].
    pub fn weight(&self, s: u32, d: u32, ch: u32) -> i128 {
        let (y, i, dir) = self.cube.channel_parts(ch);
        self.weight_at(
            self.side_of(s),
            self.cube.coords(s),
            self.cube.coords(d),
            self.cube.coords(y),
            i,
            dir.index(),
        )
    }

    /// The product formula of the module docs.
    fn weight_at(
        &self,
        side: usize,
        sc: &[u32],
        dc: &[u32],
        yc: &[u32],
        i: usize,
        dx: usize,
    ) -> i128 {
        let ti = self.table(i, side, sc[i], dc[i]);
        let (a, b) = (ti.first[dx][yc[i] as usize], ti.second[dx][yc[i] as usize]);
        let mut total = 0;
        if a != 0 {
            // Phase 1: before i at q_j, after i at s_j.
            total += a * self.order_sum(
                self.orders.0,
                i,
                |j, t| {
                    let den = self.dim_den[j];
                    (t.q[yc[j] as usize], if yc[j] == sc[j] { den } else { 0 })
                },
                side,
                sc,
                dc,
            );
        }
        if b != 0 {
            // Phase 2: before i at d_j, after i at q_j.
            total += b * self.order_sum(
                self.orders.1,
                i,
                |j, t| {
                    let den = self.dim_den[j];
                    (if yc[j] == dc[j] { den } else { 0 }, t.q[yc[j] as usize])
                },
                side,
                sc,
                dc,
            );
        }
        total
    }

    /// Σ_S P(S)·n!·Π_{j∈S} before_j·Π_{j∉S} after_j over the dimensions
    /// j ≠ i, where `factors(j)` = (before_j, after_j).
    #[allow(clippy::too_many_arguments)]
    fn order_sum(
        &self,
        order: DimOrder,
        i: usize,
        factors: impl Fn(usize, &DimTable) -> (i128, i128),
        side: usize,
        sc: &[u32],
        dc: &[u32],
    ) -> i128 {
        let n = self.cube.dims();
        match order {
            DimOrder::Xy => {
                let mut p = self.n_fact;
                for j in 0..n {
                    if j == i {
                        continue;
                    }
                    let (before, after) = factors(j, self.table(j, side, sc[j], dc[j]));
                    p *= if j < i { before } else { after };
                    if p == 0 {
                        return 0;
                    }
                }
                p
            }
            DimOrder::Random => {
                // coef[m] = Σ over |S| = m of the products (elementary
                // symmetric polynomial in the two factor kinds).
                let mut coef = [0i128; 16];
                coef[0] = 1;
                let mut m_max = 0;
                for j in 0..n {
                    if j == i {
                        continue;
                    }
                    let (before, after) = factors(j, self.table(j, side, sc[j], dc[j]));
                    m_max += 1;
                    for m in (0..=m_max).rev() {
                        let keep = coef[m] * after;
                        let add = if m > 0 { coef[m - 1] * before } else { 0 };
                        coef[m] = keep + add;
                    }
                }
                (0..n).map(|m| coef[m] * self.order_weight[m]).sum()
            }
        }
    }

    /// Visit the non-zero weights of one pair: `f(channel, w·D)`, in
    /// increasing channel order per (dimension, direction).
    fn scan(&self, side: usize, s: u32, d: u32, mut f: impl FnMut(u32, i128)) {
        let n = self.cube.dims();
        let (sc, dc) = (self.cube.coords(s), self.cube.coords(d));
        let lists: Vec<&[u32]> = (0..n)
            .map(|j| self.table(j, side, sc[j], dc[j]).support.as_slice())
            .collect();
        let mut yc = vec![0u32; n];
        let mut pick = vec![0usize; n];
        for i in 0..n {
            for dir in [Dir::Plus, Dir::Minus] {
                let moves = &self.table(i, side, sc[i], dc[i]).moves[dir.index()];
                if moves.is_empty() {
                    continue;
                }
                // Odometer over the other dimensions' supports and i's moves.
                pick.iter_mut().for_each(|p| *p = 0);
                'outer: loop {
                    for j in 0..n {
                        yc[j] = if j == i {
                            moves[pick[j]]
                        } else {
                            lists[j][pick[j]]
                        };
                    }
                    let w = self.weight_at(side, sc, dc, &yc, i, dir.index());
                    if w != 0 {
                        f(self.cube.channel(self.cube.node(&yc), i, dir), w);
                    }
                    let mut j = 0;
                    loop {
                        if j == n {
                            break 'outer;
                        }
                        pick[j] += 1;
                        let len = if j == i { moves.len() } else { lists[j].len() };
                        if pick[j] < len {
                            break;
                        }
                        pick[j] = 0;
                        j += 1;
                    }
                }
            }
        }
    }

    fn relative_rows(&self, sides: usize) -> Rows {
        let nodes = self.cube.num_nodes() as u32;
        let per = 2 * self.cube.dims() as u32;
        let mut rows = Rows {
            start: vec![0],
            node: Vec::new(),
            port: Vec::new(),
            weight: Vec::new(),
            add: Vec::with_capacity((nodes * nodes) as usize),
        };
        for side in 0..sides {
            for delta in 0..nodes {
                self.scan(side, 0, delta, |ch, w| {
                    rows.node.push(ch / per);
                    rows.port.push(ch % per);
                    rows.weight.push(w);
                });
                rows.start.push(rows.node.len());
            }
        }
        for s in 0..nodes {
            for y in 0..nodes {
                rows.add.push(self.cube.translate(s, y));
            }
        }
        rows
    }

    /// Call `f(channel, w·D)` for every channel a packet from `s` to `d`
    /// may cross (the non-zero weights of the pair). On a torus it reads a
    /// precomputed row for the offset d - s and translates it by s.
    pub fn row(&self, s: u32, d: u32, mut f: impl FnMut(u32, i128)) {
        match &self.rows {
            Some(rows) => {
                let nodes = self.cube.num_nodes();
                let r = self.side_of(s) * nodes + self.cube.offset(s, d) as usize;
                let per = 2 * self.cube.dims() as u32;
                let add = &rows.add[s as usize * nodes..][..nodes];
                let span = rows.start[r]..rows.start[r + 1];
                for ((&y, &p), &w) in rows.node[span.clone()]
                    .iter()
                    .zip(&rows.port[span.clone()])
                    .zip(&rows.weight[span])
                {
                    f(add[y as usize] * per + p, w);
                }
            }
            None => self.scan(self.side_of(s), s, d, f),
        }
    }

    /// Translations that map the routing to itself, per dimension: the
    /// routing is invariant under moving every node by `strides[j]` in
    /// dimension j (torus; 1 everywhere unless DOR with `tie=parity`). A
    /// mesh has none (every stride is the radix).
    pub fn symmetry_strides(&self) -> Vec<u32> {
        let radix = self.cube.radix();
        if !self.cube.is_torus() {
            return radix.to_vec();
        }
        let ties = radix.iter().any(|k| k % 2 == 0);
        if !self.routing.depends_on_source() || !ties {
            return vec![1; radix.len()];
        }
        // Source parity: id = Σ x_j·P_j. A step of m in dimension j changes
        // the id by m·P_j, or (m - k_j)·P_j across the wrap: both even for
        // m = 1 if P_j is even, for m = 2 if k_j is even, else only m = k_j.
        (0..radix.len())
            .map(|j| {
                let p = self.cube.stride(j);
                if p.is_multiple_of(2) {
                    1
                } else if radix[j].is_multiple_of(2) {
                    2
                } else {
                    radix[j]
                }
            })
            .collect()
    }

    /// One channel per symmetry class: the channels leaving the nodes with
    /// x_j < stride_j ([`Self::symmetry_strides`]), every dimension and
    /// direction (on a mesh: every existing channel).
    pub fn representatives(&self) -> Vec<u32> {
        let strides = self.symmetry_strides();
        (0..self.cube.num_channel_slots() as u32)
            .filter(|&ch| {
                let (y, _, _) = self.cube.channel_parts(ch);
                self.cube.channel_exists(ch)
                    && self.cube.coords(y).iter().zip(&strides).all(|(x, s)| x < s)
            })
            .collect()
    }

    /// The representative of channel `ch`'s class and the translation t
    /// (a node) with ch = rep + t.
    pub fn class_of(&self, ch: u32) -> (u32, u32) {
        let strides = self.symmetry_strides();
        let (y, i, dir) = self.cube.channel_parts(ch);
        let yc = self.cube.coords(y);
        let rc: Vec<u32> = yc.iter().zip(&strides).map(|(x, s)| x % s).collect();
        let tc: Vec<u32> = yc.iter().zip(&rc).map(|(x, r)| x - r).collect();
        (
            self.cube.channel(self.cube.node(&rc), i, dir),
            self.cube.node(&tc),
        )
    }
}

/// Add `p` to every ring channel crossed walking from `from` to `to` in
/// `dir` (nothing when `dir` is None).
fn mark(
    t: &mut [Vec<Ratio<i128>>; 2],
    k: u32,
    from: u32,
    to: u32,
    dir: Option<Dir>,
    p: Ratio<i128>,
) {
    let Some(dir) = dir else { return };
    let mut y = from;
    while y != to {
        t[dir.index()][y as usize] += p;
        y = match dir {
            Dir::Plus => (y + 1) % k,
            Dir::Minus => (y + k - 1) % k,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(s: &str) -> Law {
        s.parse().unwrap()
    }

    fn all_routings() -> Vec<Law> {
        let mut v = Law::compared();
        v.push(law("dor:tie=random"));
        v.push(law("dor:tie=parity"));
        v.push(law("romm:order=random"));
        v
    }

    /// The product formula gives exactly the expected crossings of the
    /// enumerated path distribution, for every pair and channel.
    #[test]
    fn product_form_equals_path_enumeration() {
        for spec in [
            "torus:4x3",
            "torus:3x3x4",
            "torus:6",
            "mesh:4x3",
            "torus:5x4",
        ] {
            let cube = Cube::from_spec(spec).unwrap();
            for r in all_routings() {
                if r.check(&cube).is_err() {
                    continue;
                }
                let w = ChannelWeights::new(&cube, r.clone()).unwrap();
                let den = w.denominator();
                let n = cube.num_nodes() as u32;
                let step = if n > 16 { 5 } else { 1 };
                for s in (0..n).step_by(step) {
                    for d in 0..n {
                        let mut expect = vec![Ratio::from_integer(0); cube.num_channel_slots()];
                        for (p, path) in r.paths(&cube, s, d).unwrap() {
                            for ch in path {
                                expect[ch as usize] += p;
                            }
                        }
                        let mut got = vec![Ratio::from_integer(0); cube.num_channel_slots()];
                        w.row(s, d, |ch, x| got[ch as usize] += Ratio::new(x, den));
                        assert_eq!(got, expect, "{spec} {r} {s}->{d} (row)");
                        for (ch, e) in expect.iter().enumerate() {
                            assert_eq!(Ratio::new(w.weight(s, d, ch as u32), den), *e);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn denominators_are_the_derived_ones() {
        let cube = Cube::from_spec("torus:8x8").unwrap();
        let w = ChannelWeights::new(&cube, law("rlb")).unwrap();
        // den_j divides k·lcm(1..k) = 8·840.
        for &d in w.dimension_denominators() {
            assert_eq!(8 * 840 % d, 0, "{d}");
        }
        assert_eq!(w.denominator(), 2 * w.dimension_denominators()[0].pow(2));
        let w = ChannelWeights::new(&cube, law("dor")).unwrap();
        assert_eq!(w.denominator(), 2); // n! and no fractions
    }

    #[test]
    fn parity_dor_symmetry() {
        let cube = Cube::from_spec("torus:4x4").unwrap();
        let parity = law("dor:tie=parity");
        let w = ChannelWeights::new(&cube, parity.clone()).unwrap();
        assert_eq!(w.symmetry_strides(), vec![2, 1]);
        assert_eq!(w.representatives().len(), 2 * 4);
        let cube = Cube::from_spec("torus:3x4").unwrap();
        let w = ChannelWeights::new(&cube, parity).unwrap();
        assert_eq!(w.symmetry_strides(), vec![3, 2]);
        let w = ChannelWeights::new(&cube, law("rlb")).unwrap();
        assert_eq!(w.symmetry_strides(), vec![1, 1]);
        assert_eq!(w.representatives().len(), 4);
    }
}
