//! k-ary n-cube tori and meshes (Dally and Towles ch. 5; DRB §4; Singh's thesis).
//!
//! Switch id = x0 + k0·x1 + k0·k1·x2 ... (dimension 0 least significant).
//! Port `2d` leads to `+1` in dimension d, port `2d+1` to `-1`; a mesh keeps
//! those port numbers and leaves boundary ports unconnected, so the port of a
//! direction is the same on every switch. Hosts take the ports after `2n`.
//!
//! [`Geometry`] is the one place that knows coordinates, minimal directions
//! and distances, and the dateline rule; every torus routing and the
//! channel-load analysis use it.

use super::kind::{TopologyBuild, TopologyKind, TopologyParam, size_of};
use super::spec_parts::{cube_hosts, hosts_suffix, invalid, options_and_size, parse_u32};
use super::{Network, NetworkBuilder, PortId, Shape, SwitchId, TopologyError, layout};
use crate::limits::{self, NetworkSize};

/// Coordinates, directions and distances of a k-ary n-cube (torus or mesh).
///
/// Directions: `plus` is +1 in the dimension (port `2d`), `!plus` is -1
/// (port `2d+1`). On a torus the offset from coordinate c to t going +
/// is `(t - c) mod k`; its minimal distance is `Δ = min(offset, k - offset)`,
/// and when `2Δ = k` both directions are minimal (a *tie*).
///
/// **Dateline rule** (Dally and Seitz): on a torus a packet that still has to
/// cross the wrap-around link of a dimension (the link between coordinates
/// k-1 and 0) in its current move is in the *lower* virtual-channel class,
/// and in the *upper* class once it has crossed it; each class alone is then
/// acyclic in that dimension ([`Geometry::still_to_wrap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    radix: Vec<u32>,
    wrap: bool,
    /// `coords[s * n + d]`.
    coords: Vec<u32>,
    /// The coordinates packed one byte per dimension (dimension d in bits
    /// 8d..8d+8), when there are at most 8 dimensions of radix at most 256;
    /// empty otherwise. The next dimension in which two switches differ is
    /// then one XOR and a trailing-zeros count instead of a loop.
    packed: Vec<u64>,
}

impl Geometry {
    pub fn new(radix: Vec<u32>, wrap: bool) -> Geometry {
        let total: u32 = radix.iter().product();
        let n = radix.len();
        let coords: Vec<u32> = (0..total).flat_map(|s| coords(&radix, s)).collect();
        let packed = if n <= 8 && radix.iter().all(|&k| k <= 256) {
            coords
                .chunks(n.max(1))
                .map(|c| c.iter().rev().fold(0u64, |acc, &x| acc << 8 | x as u64))
                .collect()
        } else {
            Vec::new()
        };
        Geometry {
            radix,
            wrap,
            coords,
            packed,
        }
    }

    /// The geometry of a network's shape, if it is a k-ary n-cube.
    pub fn of(shape: &Shape) -> Option<Geometry> {
        match shape {
            Shape::Cube { radix, wrap } => Some(Geometry::new(radix.clone(), *wrap)),
            _ => None,
        }
    }

    /// Number of dimensions n.
    pub fn dims(&self) -> usize {
        self.radix.len()
    }
    pub fn radix(&self) -> &[u32] {
        &self.radix
    }
    /// True for a torus, false for a mesh.
    pub fn wrap(&self) -> bool {
        self.wrap
    }
    pub fn nodes(&self) -> u32 {
        self.radix.iter().product()
    }
    /// Coordinates of switch `s`.
    #[inline]
    pub fn coords(&self, s: SwitchId) -> &[u32] {
        let n = self.radix.len();
        &self.coords[s as usize * n..][..n]
    }
    /// Switch id of coordinates.
    pub fn id_of(&self, coords: &[u32]) -> SwitchId {
        id_of(&self.radix, coords)
    }
    /// The packed coordinates of every switch (empty when unavailable).
    #[inline]
    pub fn packed(&self) -> &[u64] {
        &self.packed
    }

    /// The lowest dimension in which `at` and `target` differ, with the two
    /// coordinates there: `(d, at_d, target_d)`; `None` when they are equal.
    // Always inlined: DOR's `route` calls it on every hop, and once other
    // callers appeared LLVM stopped inlining it there (+2 % instructions
    // on the CAMINOS scenario, measured with callgrind).
    #[inline(always)]
    pub fn first_difference(&self, at: SwitchId, target: SwitchId) -> Option<(usize, u32, u32)> {
        if self.packed.is_empty() {
            let (here, there) = (self.coords(at), self.coords(target));
            let d = (0..self.radix.len()).find(|&d| here[d] != there[d])?;
            Some((d, here[d], there[d]))
        } else {
            // Branch-free: which dimension comes next is a coin toss under
            // random traffic.
            let (h, g) = (self.packed[at as usize], self.packed[target as usize]);
            let x = h ^ g;
            if x == 0 {
                return None;
            }
            let shift = x.trailing_zeros() & !7;
            Some((
                (shift / 8) as usize,
                (h >> shift) as u32 & 0xFF,
                (g >> shift) as u32 & 0xFF,
            ))
        }
    }

    /// Offset from `c` to `t` going + in a dimension of radix `k`
    /// (`(t - c) mod k`).
    #[inline]
    pub fn plus_offset(k: u32, c: u32, t: u32) -> u32 {
        if t >= c { t - c } else { t + k - c }
    }

    /// Minimal distance Δ from `c` to `t` in dimension `d`.
    #[inline]
    pub fn delta(&self, d: usize, c: u32, t: u32) -> u32 {
        if self.wrap {
            let k = self.radix[d];
            let o = Self::plus_offset(k, c, t);
            o.min(k - o)
        } else {
            c.abs_diff(t)
        }
    }

    /// True when going from `c` to `t` in dimension `d` has two minimal
    /// directions (a torus and `2Δ = k`).
    #[inline]
    pub fn is_tie(&self, d: usize, c: u32, t: u32) -> bool {
        self.wrap && 2 * Self::plus_offset(self.radix[d], c, t) == self.radix[d]
    }

    /// The minimal direction from `c` to `t` in a dimension of radix `k`
    /// (`true` = +); on a tie, `plus_on_tie`. On a mesh, + when `t > c`.
    /// Written without data-dependent branches (selects only): under
    /// random traffic every comparison here is a coin toss, and DOR calls
    /// it at the source and at every hop.
    #[inline]
    pub fn minimal_plus(&self, k: u32, c: u32, t: u32, plus_on_tie: bool) -> bool {
        if !self.wrap {
            return t > c;
        }
        let delta = Self::plus_offset(k, c, t);
        let tie = 2 * delta == k;
        (tie & plus_on_tie) | (!tie & (2 * delta < k))
    }

    /// True when moving from `c` to `t` (`c != t`) in direction `plus`
    /// still crosses the wrap-around link (between k-1 and 0): the dateline
    /// rule's lower class. Non-short-circuit operators: no branch.
    #[inline]
    pub fn still_to_wrap(c: u32, t: u32, plus: bool) -> bool {
        (c != t) & ((plus & (c > t)) | (!plus & (c < t)))
    }

    /// Minimal hops between two switches.
    pub fn distance(&self, a: SwitchId, b: SwitchId) -> u32 {
        let (x, y) = (self.coords(a), self.coords(b));
        (0..self.dims()).map(|d| self.delta(d, x[d], y[d])).sum()
    }

    /// Switch `s + t`, coordinate-wise modulo the radix: a translation of
    /// the torus (on a mesh it wraps too, so use it on tori only).
    pub fn translate(&self, s: SwitchId, t: SwitchId) -> SwitchId {
        let (a, b) = (self.coords(s), self.coords(t));
        let mut id = 0;
        for d in (0..self.dims()).rev() {
            id = id * self.radix[d] + (a[d] + b[d]) % self.radix[d];
        }
        id
    }

    /// Switch `t - s`, coordinate-wise modulo the radix (the translation
    /// taking `s` to `t`).
    pub fn offset(&self, s: SwitchId, t: SwitchId) -> SwitchId {
        let (a, b) = (self.coords(s), self.coords(t));
        let mut id = 0;
        for d in (0..self.dims()).rev() {
            let k = self.radix[d];
            id = id * k + (b[d] + k - a[d]) % k;
        }
        id
    }

    /// The port leading one step in direction `plus` of dimension `d`.
    #[inline]
    pub fn port(d: usize, plus: bool) -> PortId {
        (2 * d + usize::from(!plus)) as PortId
    }

    /// The coordinate one step from `c` in direction `plus` (wrapping on a
    /// torus; on a mesh the caller must not step off the edge).
    #[inline]
    pub fn step(&self, d: usize, c: u32, plus: bool) -> u32 {
        let k = self.radix[d];
        if plus {
            if c + 1 == k { 0 } else { c + 1 }
        } else if c == 0 {
            k - 1
        } else {
            c - 1
        }
    }

    /// Capacity Θ of this k-ary n-cube ([`capacity`]).
    pub fn capacity(&self) -> f64 {
        capacity(&self.radix, self.wrap)
    }
}

/// Capacity Θ of a k-ary n-cube in flits per node per cycle, with
/// unit-bandwidth channels: the ideal throughput of uniform traffic (every
/// node equally likely, the source included), the inverse of the largest
/// channel load it causes per unit of injection (Dally and Towles §3.3.1;
/// Singh §2.2). With k the largest radix:
/// - torus: `8/k` for even k, `8k/(k²-1)` for odd k;
/// - mesh: `4/k` for even k, `4k/(k²-1)` for odd k (the middle channel of
///   an odd row carries `(k²-1)/4k`).
///
/// Not capped at the host link. As an exact fraction `(numerator,
/// denominator)`.
pub fn capacity_fraction(radix: &[u32], wrap: bool) -> (u64, u64) {
    let k = radix.iter().copied().max().unwrap_or(2) as u64;
    let scale = if wrap { 8 } else { 4 };
    if k.is_multiple_of(2) {
        (scale, k)
    } else {
        (scale * k, k * k - 1)
    }
}

/// [`capacity_fraction`] as a number.
pub fn capacity(radix: &[u32], wrap: bool) -> f64 {
    let (num, den) = capacity_fraction(radix, wrap);
    num as f64 / den as f64
}

/// Coordinates of a switch in a k-ary n-cube.
pub fn coords(radix: &[u32], mut id: u32) -> Vec<u32> {
    radix
        .iter()
        .map(|&k| {
            let c = id % k;
            id /= k;
            c
        })
        .collect()
}

/// Switch id of coordinates.
pub fn id_of(radix: &[u32], coords: &[u32]) -> u32 {
    let mut id = 0;
    for d in (0..radix.len()).rev() {
        id = id * radix[d] + coords[d];
    }
    id
}

pub(super) fn build(spec: String, radix: Vec<u32>, wrap: bool, hosts: usize) -> Network {
    let n: u32 = radix.iter().product();
    let dims = radix.len();
    let mut b = NetworkBuilder::new(n as usize);
    for s in 0..n {
        b.reserve_ports(s, 2 * dims);
    }
    for s in 0..n {
        let c = coords(&radix, s);
        for d in 0..dims {
            let k = radix[d];
            if c[d] + 1 < k || (wrap && k > 2) {
                let mut nc = c.clone();
                nc[d] = (c[d] + 1) % k;
                let t = id_of(&radix, &nc);
                b.link_ports(s, (2 * d) as u16, t, (2 * d + 1) as u16);
            }
        }
    }
    b.hosts_per_switch(hosts);
    let pos = positions(&radix, wrap);
    b.finish(spec, Shape::Cube { radix, wrap }, pos)
}

/// Grid layout: a ring is a circle; otherwise dimension 0 is x, dimension 1
/// is y and higher dimensions tile copies of that grid side by side
/// (dimension 2) and downwards (dimension 3), and so on alternately.
fn positions(radix: &[u32], wrap: bool) -> Vec<[f32; 2]> {
    let n: u32 = radix.iter().product();
    if radix.len() == 1 && wrap {
        return layout::circle(n as usize, radix[0] as f32 / 2.0);
    }
    (0..n as SwitchId)
        .map(|s| {
            let c = coords(radix, s);
            let (mut x, mut y) = (0.0f32, 0.0f32);
            let (mut sx, mut sy) = (1.0f32, 1.0f32);
            for (d, &k) in radix.iter().enumerate() {
                if d % 2 == 0 {
                    x += c[d] as f32 * sx;
                    sx *= k as f32 + 1.0;
                } else {
                    y += c[d] as f32 * sy;
                    sy *= k as f32 + 1.0;
                }
            }
            [x, y]
        })
        .collect()
}

// --- The registry's entries: `torus:` and `mesh:` ----------------------

const CUBE_PARAMS: &[TopologyParam] = &[
    TopologyParam {
        key: "KxK[xK..]",
        accepted: "a radix per dimension, every one at least 3 on a torus, 2 on a mesh; at most 262144 switches",
        default: "",
        meaning: "switches along each dimension",
    },
    TopologyParam {
        key: "hosts",
        accepted: "1..=64",
        default: "1",
        meaning: "hosts per switch",
    },
];

/// The contrast order of tori, meshes, hypercubes and midimew: the
/// oblivious routings of Singh's thesis (§2.3, §3), then adaptive routing
/// and DRB (Franco et al. §5).
pub const CUBE_CONTRASTS: &[&str] = &[
    "dor", "rdor", "val", "romm", "rlb", "rlbth", "adaptive", "drb",
];

/// `torus:KxK[xK..]`: the k-ary n-cube with wrap links.
pub const TORUS: TopologyKind = TopologyKind {
    name: "torus",
    aliases: &[],
    form: "torus:KxK[xK..] (k >= 3)[:hosts=H]",
    summary: "k-ary n-cube with wrap links (Singh's thesis; DRB §4)",
    params: CUBE_PARAMS,
    example: "torus:8x8",
    from_file: false,
    contrasts: CUBE_CONTRASTS,
    parse: |spec| parse_cube(spec, true),
};

/// `mesh:KxK[xK..]`: the k-ary n-mesh.
pub const MESH: TopologyKind = TopologyKind {
    name: "mesh",
    aliases: &[],
    form: "mesh:KxK[xK..] (k >= 2)[:hosts=H]",
    summary: "k-ary n-mesh, no wrap links",
    params: CUBE_PARAMS,
    example: "mesh:8x8",
    from_file: false,
    contrasts: CUBE_CONTRASTS,
    parse: |spec| parse_cube(spec, false),
};

/// A parsed `torus:` or `mesh:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CubeSpec {
    radix: Vec<u32>,
    wrap: bool,
    hosts: u32,
}

fn parse_cube(spec: &str, wrap: bool) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    let (opts, size) = options_and_size(spec, &["hosts"])?;
    let min = if wrap { 3 } else { 2 };
    let radix: Vec<u32> = size
        .split('x')
        .map(|d| parse_u32(spec, "radix", d))
        .collect::<Result<_, _>>()?;
    if radix.iter().any(|&k| k < min) {
        return Err(invalid(spec, format!("every radix must be at least {min}")));
    }
    let total = radix
        .iter()
        .try_fold(1u64, |acc, &k| acc.checked_mul(k as u64))
        .filter(|&t| t <= limits::MAX_SWITCHES);
    if total.is_none() {
        return Err(invalid(
            spec,
            format!(
                "{} switches; at most {}",
                product_text(&radix),
                limits::MAX_SWITCHES
            ),
        ));
    }
    let hosts = cube_hosts(spec, &opts)?;
    Ok(Box::new(CubeSpec { radix, wrap, hosts }))
}

/// `1000 x 1000 = 1000000` (saturating at a huge product).
fn product_text(r: &[u32]) -> String {
    let product = r
        .iter()
        .try_fold(1u128, |acc, &k| acc.checked_mul(k as u128))
        .map_or_else(|| "more than 2^128".to_string(), |p| p.to_string());
    if r.len() == 1 {
        product
    } else {
        format!("{} = {product}", dims(r).replace('x', " x "))
    }
}

fn dims(r: &[u32]) -> String {
    r.iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

impl TopologyBuild for CubeSpec {
    fn canonical(&self) -> String {
        let kind = if self.wrap { "torus" } else { "mesh" };
        format!("{kind}:{}{}", dims(&self.radix), hosts_suffix(self.hosts))
    }
    fn size(&self) -> Option<NetworkSize> {
        let switches = self
            .radix
            .iter()
            .fold(1u64, |acc, &k| acc.saturating_mul(k as u64));
        // Links along dimension d: switches on a torus, switches · (k-1)/k
        // on a mesh; two channels each.
        let channels = self.radix.iter().fold(0u64, |acc, &k| {
            let k = (k as u64).max(1);
            let links = if self.wrap {
                switches
            } else {
                (switches / k).saturating_mul(k - 1)
            };
            acc.saturating_add(links.saturating_mul(2))
        });
        Some(size_of(
            switches,
            self.hosts as u64,
            channels,
            2 * self.radix.len() as u64,
        ))
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        Ok(build(
            spec,
            self.radix.clone(),
            self.wrap,
            self.hosts as usize,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed-coordinate fast path and the general loop find the same
    /// first difference for every switch pair.
    #[test]
    fn packed_coordinates_agree_with_the_general_loop() {
        for (radix, wrap) in [
            (vec![8, 8], true),
            (vec![5, 3, 4], true),
            (vec![6, 5], false),
            (vec![256, 2], true),
            (vec![2, 2, 2, 2, 2, 2, 2, 3], true),
        ] {
            let fast = Geometry::new(radix.clone(), wrap);
            assert!(!fast.packed.is_empty());
            let mut slow = fast.clone();
            slow.packed.clear();
            let total = fast.nodes();
            for a in 0..total {
                for b in (0..total).step_by(3) {
                    assert_eq!(
                        fast.first_difference(a, b),
                        slow.first_difference(a, b),
                        "{radix:?} {a}->{b}"
                    );
                }
            }
        }
    }

    #[test]
    fn directions_distances_and_the_dateline() {
        let g = Geometry::new(vec![8, 5], true);
        // k = 8: 1 -> 6 is 3 hops going -, 5 going +.
        assert!(!g.minimal_plus(8, 1, 6, true));
        assert_eq!(g.delta(0, 1, 6), 3);
        // A tie at 2Δ = k follows the tie rule.
        assert!(g.is_tie(0, 1, 5));
        assert!(g.minimal_plus(8, 1, 5, true));
        assert!(!g.minimal_plus(8, 1, 5, false));
        // Odd radix: no ties.
        assert!(!g.is_tie(1, 0, 2) && !g.is_tie(1, 0, 3));
        assert_eq!(g.distance(g.id_of(&[1, 0]), g.id_of(&[6, 3])), 3 + 2);
        // 6 -> 1 going + crosses the wrap link; 1 -> 6 going + does not.
        assert!(Geometry::still_to_wrap(6, 1, true));
        assert!(!Geometry::still_to_wrap(1, 6, true));
        assert!(Geometry::still_to_wrap(1, 6, false));
        assert!(!Geometry::still_to_wrap(3, 3, false));
        assert_eq!(g.step(0, 7, true), 0);
        assert_eq!(g.step(0, 0, false), 7);
        let m = Geometry::new(vec![4, 4], false);
        assert!(m.minimal_plus(4, 0, 3, false));
        assert_eq!(m.delta(0, 0, 3), 3);
        assert!(!m.is_tie(0, 0, 2));
        assert_eq!(capacity(&[8, 8], true), 1.0);
        assert_eq!(capacity(&[4, 4], false), 1.0);
        assert!((capacity(&[3], true) - 3.0).abs() < 1e-12);
        assert_eq!(capacity_fraction(&[5, 5], false), (20, 24));
    }
}
