//! The k-ary n-cube as the analysis sees it: coordinates, analysis channel
//! indices, translations and the capacity Θ.
//!
//! Numbering is [`crate::topology::cube`]'s: node id = x0 + k0·x1 + ...,
//! dimension 0 least significant. An *analysis channel* is the directed
//! channel leaving node `y` through port `p` (`2d` = +d, `2d+1` = -d), with
//! index `y·2n + p`; [`Cube::network_channel`] maps it to the network's
//! stable channel id. On a mesh the boundary indices exist but carry nothing.

use super::AnalysisError;
use crate::topology::cube::Geometry;
use crate::topology::{ChannelId, Network, PortId, Shape};
use num_rational::Ratio;

/// Most nodes the exact analysis accepts (the per-pair tables grow as N²).
pub const MAX_NODES: usize = 1024;

/// Largest radix the exact analysis accepts: RLB's common denominator
/// contains lcm(1..k), which leaves 128 bits at about k = 80.
pub const MAX_RADIX: u32 = 64;

pub use crate::routing::Dir;

/// A k-ary n-cube (torus or mesh) with one host per switch, ready for the
/// analysis. Holds the [`Network`] it came from, so every result can be
/// mapped back to the network's channel ids.
#[derive(Clone, Debug)]
pub struct Cube {
    net: Network,
    /// Coordinates, translations (the crate's one torus geometry).
    geometry: Geometry,
    radix: Vec<u32>,
    wrap: bool,
    nodes: usize,
    /// `stride[j]` = k0·k1·..·k(j-1).
    stride: Vec<u32>,
}

impl Cube {
    /// The analysis view of a network: a torus or mesh with one host per
    /// switch and at most [`MAX_NODES`] switches.
    pub fn from_network(net: &Network) -> Result<Cube, AnalysisError> {
        let Shape::Cube { radix, wrap } = net.shape() else {
            return Err(AnalysisError::NotACube {
                spec: net.spec().to_string(),
            });
        };
        if net.num_hosts() != net.num_switches() || net.max_hosts_per_switch() != 1 {
            return Err(AnalysisError::HostsPerSwitch {
                spec: net.spec().to_string(),
                hosts: net.max_hosts_per_switch(),
            });
        }
        let nodes = net.num_switches();
        if nodes > MAX_NODES {
            return Err(AnalysisError::TooLarge {
                spec: net.spec().to_string(),
                what: format!("{nodes} switches"),
                limit: format!("at most {MAX_NODES} switches"),
            });
        }
        if let Some(k) = radix.iter().find(|&&k| k > MAX_RADIX) {
            return Err(AnalysisError::TooLarge {
                spec: net.spec().to_string(),
                what: format!("radix {k}"),
                limit: format!(
                    "a radix of at most {MAX_RADIX} (exact denominators grow as lcm(1..k))"
                ),
            });
        }
        let n = radix.len();
        let mut stride = Vec::with_capacity(n);
        let mut p = 1u32;
        for &k in radix {
            stride.push(p);
            p *= k;
        }
        Ok(Cube {
            net: net.clone(),
            geometry: Geometry::new(radix.clone(), *wrap),
            radix: radix.clone(),
            wrap: *wrap,
            nodes,
            stride,
        })
    }

    /// Build the network from a topology spec (`torus:8x8`) and view it.
    pub fn from_spec(spec: &str) -> Result<Cube, AnalysisError> {
        let net = Network::from_spec(spec).map_err(|e| AnalysisError::Topology(e.to_string()))?;
        Cube::from_network(&net)
    }

    /// The network this cube was built from.
    pub fn network(&self) -> &Network {
        &self.net
    }
    /// Radix of every dimension.
    pub fn radix(&self) -> &[u32] {
        &self.radix
    }
    /// True for a torus, false for a mesh.
    pub fn is_torus(&self) -> bool {
        self.wrap
    }
    /// Number of dimensions n.
    pub fn dims(&self) -> usize {
        self.radix.len()
    }
    /// Number of nodes N.
    pub fn num_nodes(&self) -> usize {
        self.nodes
    }
    /// Size of the analysis channel index space, N·2n (mesh boundary
    /// indices included).
    pub fn num_channel_slots(&self) -> usize {
        self.nodes * 2 * self.dims()
    }
    /// Coordinates of node `s`.
    pub fn coords(&self, s: u32) -> &[u32] {
        self.geometry.coords(s)
    }
    /// Node id of coordinates.
    pub fn node(&self, coords: &[u32]) -> u32 {
        self.geometry.id_of(coords)
    }
    /// The torus geometry ([`Geometry`]).
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    /// k0·..·k(j-1): the id step of dimension j.
    pub fn stride(&self, j: usize) -> u32 {
        self.stride[j]
    }
    /// Analysis index of the channel leaving `node` in dimension `dim`,
    /// direction `dir`.
    pub fn channel(&self, node: u32, dim: usize, dir: Dir) -> u32 {
        node * 2 * self.dims() as u32 + 2 * dim as u32 + dir.index() as u32
    }
    /// (node, dimension, direction) of an analysis channel index.
    pub fn channel_parts(&self, ch: u32) -> (u32, usize, Dir) {
        let per = 2 * self.dims() as u32;
        let p = (ch % per) as usize;
        let dir = if p.is_multiple_of(2) {
            Dir::Plus
        } else {
            Dir::Minus
        };
        (ch / per, p / 2, dir)
    }
    /// True when the analysis channel exists in the network (always on a
    /// torus; not past a mesh boundary).
    pub fn channel_exists(&self, ch: u32) -> bool {
        let (y, j, dir) = self.channel_parts(ch);
        self.wrap
            || match dir {
                Dir::Plus => self.coords(y)[j] + 1 < self.radix[j],
                Dir::Minus => self.coords(y)[j] > 0,
            }
    }
    /// The network's channel id of an analysis channel (None past a mesh
    /// boundary).
    pub fn network_channel(&self, ch: u32) -> Option<ChannelId> {
        let (y, j, dir) = self.channel_parts(ch);
        let port = (2 * j + dir.index()) as PortId;
        self.net.ports(y).get(port as usize)?.out_channel
    }
    /// `(y, dim, dir)` written `(x0,x1,..)+d0` for humans.
    pub fn channel_label(&self, ch: u32) -> String {
        let (y, j, dir) = self.channel_parts(ch);
        let c: Vec<String> = self.coords(y).iter().map(|x| x.to_string()).collect();
        let sign = if dir == Dir::Plus { '+' } else { '-' };
        format!("({}){sign}d{j}", c.join(","))
    }
    /// Node `s + t` (coordinate-wise, modulo the radix): a translation of
    /// the torus ([`Geometry::translate`]).
    pub fn translate(&self, s: u32, t: u32) -> u32 {
        self.geometry.translate(s, t)
    }
    /// Node `t - s` (coordinate-wise, modulo the radix).
    pub fn offset(&self, s: u32, t: u32) -> u32 {
        self.geometry.offset(s, t)
    }

    /// The capacity Θ in flits per node per cycle: the ideal throughput of
    /// uniform random traffic (λ = 1/N, a node included), the inverse of the
    /// largest channel load it causes under perfect balance (Singh §2.2,
    /// "network capacity 2B/N"; Dally and Towles §3.3.1).
    /// - torus: 8/k for even k, 8k/(k²-1) for odd k;
    /// - mesh: 4/k for even k, 4k/(k²-1) for odd k;
    ///
    /// with k the largest radix ([`crate::topology::cube::capacity_fraction`]).
    /// Not capped at the host link (the simulator's
    /// [`capacity_per_host`](crate::topology::capacity_per_host) is).
    pub fn capacity(&self) -> Ratio<i128> {
        let (num, den) = crate::topology::cube::capacity_fraction(&self.radix, self.wrap);
        Ratio::new(num as i128, den as i128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_map_to_the_network_ports() {
        let c = Cube::from_spec("torus:4x3").unwrap();
        for ch in 0..c.num_channel_slots() as u32 {
            let (y, j, dir) = c.channel_parts(ch);
            assert_eq!(c.channel(y, j, dir), ch);
            let id = c.network_channel(ch).unwrap();
            let net = c.network().channel(id);
            let crate::topology::Endpoint::Switch { switch, port } = net.src else {
                panic!("not a switch channel")
            };
            assert_eq!((switch, port as usize), (y, 2 * j + dir.index()));
        }
        let m = Cube::from_spec("mesh:3x2").unwrap();
        let existing = (0..m.num_channel_slots() as u32)
            .filter(|&ch| m.channel_exists(ch))
            .count();
        assert_eq!(existing, m.network().num_network_channels());
        for ch in 0..m.num_channel_slots() as u32 {
            assert_eq!(m.channel_exists(ch), m.network_channel(ch).is_some());
        }
    }

    #[test]
    fn capacity_is_the_uniform_ideal() {
        let cap = |s: &str| Cube::from_spec(s).unwrap().capacity();
        assert_eq!(cap("torus:8x8"), Ratio::new(1, 1));
        assert_eq!(cap("torus:16x16"), Ratio::new(1, 2));
        assert_eq!(cap("torus:5x5"), Ratio::new(5, 3)); // 40/24, not capped
        assert_eq!(cap("torus:8x5"), Ratio::new(1, 1));
        assert_eq!(cap("mesh:8x8"), Ratio::new(1, 2));
        assert_eq!(cap("mesh:5"), Ratio::new(5, 6)); // 20/24
    }

    #[test]
    fn translations_compose() {
        let c = Cube::from_spec("torus:5x3x4").unwrap();
        for s in 0..c.num_nodes() as u32 {
            for t in (0..c.num_nodes() as u32).step_by(7) {
                assert_eq!(c.translate(s, c.offset(s, t)), t);
            }
        }
    }

    #[test]
    fn other_networks_are_refused() {
        for s in [
            "hypercube:4",
            "fattree:4",
            "torus:4x4:hosts=2",
            "torus:64x32",
        ] {
            let e = Cube::from_spec(s).unwrap_err().to_string();
            assert!(e.contains("accepted") || e.contains("at most"), "{s}: {e}");
        }
    }
}
