//! Traffic patterns: who sends to whom (Dally and Towles §3.2; DRB §5;
//! Singh's thesis §2).
//!
//! Patterns act on host ids `0..N`. With b = log2 N bits and s_i the i-th
//! bit of the source:
//! - `uniform`: every *other* host equally likely (a host never picks
//!   itself, so every packet enters the network).
//! - `hotspot:fraction=F:nodes=A,B,..`: with probability F the destination is
//!   drawn uniformly from the hot hosts (other than the source), otherwise
//!   uniformly as above (default F = 0.1, nodes = 0).
//! - `bitrev`: d_i = s_(b-1-i). `bitcomp`: d_i = not s_i. `butterfly`: swap
//!   bits b-1 and 0. `shuffle`: rotate left by one bit. `transpose`:
//!   d_i = s_((i + b/2) mod b) (b even), i.e. (x, y) -> (y, x) on a square
//!   torus. These need N a power of two (transpose: an even power).
//! - `tornado`: on tori and meshes every radix-k digit of the switch moves by
//!   ceil(k/2) - 1 (every dimension shifts; 3 hops for k = 8); elsewhere the
//!   host id moves by ceil(N/2) - 1 mod N.
//! - `nn` (Singh's NN): uniform over the switch's 2n torus neighbours (on a
//!   mesh, the neighbours that exist; elsewhere, the neighbouring switches in
//!   the network graph), same host slot on that switch.
//! - `neighbor` (BookSim's): +1 in every dimension (mod k) on tori, meshes
//!   and hypercubes (a hypercube is a 2-ary n-cube, so this complements
//!   every bit); elsewhere the next switch id, same host slot.
//! - `randperm`: a random permutation of the hosts, drawn once from the
//!   traffic stream.
//!
//! Hosts on the same switch keep their slot: with H hosts per switch, host
//! `h` is slot `h mod H` of switch `h / H` for coordinate patterns.

use crate::rng::{SimRng, below, unit};
use crate::spec_options::{OptionError, Spec};
use crate::topology::{HostId, Network, Shape, SwitchId};
use std::fmt;
use std::str::FromStr;

/// The accepted forms, quoted in every error.
pub const ACCEPTED: &str = "uniform, hotspot[:fraction=F][:nodes=A,B,..], bitrev, bitcomp, \
butterfly, shuffle, transpose, tornado, nn, neighbor, randperm";

/// A traffic pattern that cannot be parsed or does not fit the network.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("traffic `{spec}`: {problem}; accepted: {accepted}")]
pub struct TrafficError {
    pub spec: String,
    pub problem: String,
    pub accepted: String,
}

fn err(spec: &str, problem: impl Into<String>) -> TrafficError {
    TrafficError {
        spec: spec.into(),
        problem: problem.into(),
        accepted: ACCEPTED.into(),
    }
}

/// A parsed traffic pattern spec.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternSpec {
    Uniform,
    HotSpot { fraction: f64, nodes: Vec<HostId> },
    BitReversal,
    BitComplement,
    Butterfly,
    Shuffle,
    Transpose,
    Tornado,
    Nn,
    Neighbor,
    RandPerm,
}

impl FromStr for PatternSpec {
    type Err = TrafficError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let parts = Spec::split(s);
        let name = parts.name();
        let keys: &[&str] = if name == "hotspot" {
            &["fraction", "nodes"]
        } else {
            &[]
        };
        let opts = parts.options(0, keys).map_err(|e| err(s, e.to_string()))?;
        Ok(match name {
            "uniform" => PatternSpec::Uniform,
            "bitrev" => PatternSpec::BitReversal,
            "bitcomp" => PatternSpec::BitComplement,
            "butterfly" => PatternSpec::Butterfly,
            "shuffle" => PatternSpec::Shuffle,
            "transpose" => PatternSpec::Transpose,
            "tornado" => PatternSpec::Tornado,
            "nn" => PatternSpec::Nn,
            "neighbor" | "neighbour" => PatternSpec::Neighbor,
            "randperm" => PatternSpec::RandPerm,
            "hotspot" => {
                let opt = |e: OptionError| err(s, e.to_string());
                let fraction = opts.f64("fraction", 0.0..=1.0).map_err(opt)?;
                let nodes = opts.list("nodes", "host ids like 0,5,9").map_err(opt)?;
                PatternSpec::HotSpot {
                    fraction: fraction.unwrap_or(0.1),
                    nodes: nodes.unwrap_or_else(|| vec![0]),
                }
            }
            _ => return Err(err(s, format!("unknown pattern `{name}`"))),
        })
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            PatternSpec::Uniform => "uniform",
            PatternSpec::HotSpot { fraction, nodes } => {
                let n: Vec<String> = nodes.iter().map(|n| n.to_string()).collect();
                return write!(f, "hotspot:fraction={fraction}:nodes={}", n.join(","));
            }
            PatternSpec::BitReversal => "bitrev",
            PatternSpec::BitComplement => "bitcomp",
            PatternSpec::Butterfly => "butterfly",
            PatternSpec::Shuffle => "shuffle",
            PatternSpec::Transpose => "transpose",
            PatternSpec::Tornado => "tornado",
            PatternSpec::Nn => "nn",
            PatternSpec::Neighbor => "neighbor",
            PatternSpec::RandPerm => "randperm",
        };
        f.write_str(s)
    }
}

/// A pattern instantiated for one network.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Uniform over the other hosts.
    Uniform { hosts: u32 },
    /// Hot spot mix.
    HotSpot {
        hosts: u32,
        fraction: f64,
        hot: Vec<HostId>,
    },
    /// A fixed destination per source.
    Permutation(Vec<HostId>),
    /// Uniform over a per-source list of destinations.
    Choice(Vec<Vec<HostId>>),
}

impl Pattern {
    /// Instantiate for a network; `rng` is the traffic stream (randperm).
    pub fn build(
        spec: &PatternSpec,
        net: &Network,
        rng: &mut SimRng,
    ) -> Result<Pattern, TrafficError> {
        let name = spec.to_string();
        let n = net.num_hosts() as u32;
        if n < 2 {
            return Err(err(&name, "needs at least two hosts"));
        }
        let bits = || -> Result<u32, TrafficError> {
            if n.is_power_of_two() {
                Ok(n.trailing_zeros())
            } else {
                Err(err(
                    &name,
                    format!("needs a power-of-two number of hosts, this network has {n}"),
                ))
            }
        };
        let perm = |f: &dyn Fn(u32) -> u32| Pattern::Permutation((0..n).map(f).collect());
        Ok(match spec {
            PatternSpec::Uniform => Pattern::Uniform { hosts: n },
            PatternSpec::HotSpot { fraction, nodes } => {
                if let Some(bad) = nodes.iter().find(|&&h| h >= n) {
                    return Err(err(&name, format!("hot node {bad}; accepted 0..{n}")));
                }
                Pattern::HotSpot {
                    hosts: n,
                    fraction: *fraction,
                    hot: nodes.clone(),
                }
            }
            PatternSpec::BitReversal => {
                let b = bits()?;
                perm(&|s| s.reverse_bits() >> (32 - b))
            }
            PatternSpec::BitComplement => {
                bits()?;
                perm(&|s| !s & (n - 1))
            }
            PatternSpec::Butterfly => {
                let b = bits()?;
                perm(&|s| {
                    let hi = (s >> (b - 1)) & 1;
                    let lo = s & 1;
                    (s & !(1 | (1 << (b - 1)))) | (lo << (b - 1)) | hi
                })
            }
            PatternSpec::Shuffle => {
                let b = bits()?;
                perm(&|s| ((s << 1) | (s >> (b - 1))) & (n - 1))
            }
            PatternSpec::Transpose => {
                let b = bits()?;
                if b % 2 != 0 {
                    return Err(err(
                        &name,
                        format!(
                            "needs an even power of two hosts (4, 16, 64..), this network has {n}"
                        ),
                    ));
                }
                let h = b / 2;
                let lo = (1 << h) - 1;
                perm(&|s| ((s & lo) << h) | (s >> h))
            }
            PatternSpec::Tornado => match net.shape() {
                Shape::Cube { radix, .. } => per_switch(net, |s| {
                    vec![map_digits(radix, s, |k, x| (x + k.div_ceil(2) - 1) % k)]
                }),
                _ => perm(&|s| (s + n.div_ceil(2) - 1) % n),
            },
            PatternSpec::Neighbor => match net.shape() {
                Shape::Cube { radix, .. } => {
                    per_switch(net, |s| vec![map_digits(radix, s, |k, x| (x + 1) % k)])
                }
                Shape::Hypercube { n: dims } => {
                    per_switch(net, |s| vec![!s & ((1u32 << dims) - 1)])
                }
                _ => {
                    let sw = net.num_switches() as u32;
                    per_switch(net, |s| vec![(s + 1) % sw])
                }
            },
            PatternSpec::Nn => match net.shape() {
                Shape::Cube { radix, wrap } => per_switch(net, |s| {
                    let mut out = Vec::new();
                    let mut stride = 1;
                    for &k in radix {
                        let x = (s / stride) % k;
                        if *wrap || x + 1 < k {
                            out.push(s - x * stride + ((x + 1) % k) * stride);
                        }
                        if *wrap || x > 0 {
                            out.push(s - x * stride + ((x + k - 1) % k) * stride);
                        }
                        stride *= k;
                    }
                    out
                }),
                _ => per_switch(net, |s| net.neighbours(s).map(|(_, t)| t).collect()),
            },
            PatternSpec::RandPerm => {
                let mut p: Vec<HostId> = (0..n).collect();
                for i in (1..n as usize).rev() {
                    let j = below(rng, i as u32 + 1) as usize;
                    p.swap(i, j);
                }
                Pattern::Permutation(p)
            }
        })
    }

    /// Destination of a packet from `src`.
    #[inline]
    pub fn destination(&self, src: HostId, rng: &mut SimRng) -> HostId {
        match self {
            Pattern::Uniform { hosts } => uniform_other(*hosts, src, rng),
            Pattern::HotSpot {
                hosts,
                fraction,
                hot,
            } => {
                if unit(rng) < *fraction {
                    let d = hot[below(rng, hot.len() as u32) as usize];
                    if d != src {
                        return d;
                    }
                    if hot.len() > 1 {
                        // Redraw among the other hot hosts.
                        let others: Vec<HostId> =
                            hot.iter().copied().filter(|&h| h != src).collect();
                        if !others.is_empty() {
                            return others[below(rng, others.len() as u32) as usize];
                        }
                    }
                }
                uniform_other(*hosts, src, rng)
            }
            Pattern::Permutation(p) => p[src as usize],
            Pattern::Choice(c) => {
                let list = &c[src as usize];
                list[below(rng, list.len() as u32) as usize]
            }
        }
    }
}

#[inline]
fn uniform_other(n: u32, src: HostId, rng: &mut SimRng) -> HostId {
    let d = below(rng, n - 1);
    if d >= src { d + 1 } else { d }
}

/// Apply `f(k, digit)` to every radix digit of switch `s`.
fn map_digits(radix: &[u32], s: SwitchId, f: impl Fn(u32, u32) -> u32) -> SwitchId {
    let mut out = 0;
    let mut stride = 1;
    let mut rest = s;
    for &k in radix {
        let x = rest % k;
        rest /= k;
        out += f(k, x) * stride;
        stride *= k;
    }
    out
}

/// Build a pattern from a switch-level map, keeping each host's slot.
fn per_switch(net: &Network, f: impl Fn(SwitchId) -> Vec<SwitchId>) -> Pattern {
    let slots: Vec<Vec<HostId>> = (0..net.num_switches() as SwitchId)
        .map(|s| net.hosts_of(s).collect())
        .collect();
    let mut choices: Vec<Vec<HostId>> = Vec::with_capacity(net.num_hosts());
    for h in 0..net.num_hosts() as HostId {
        let host = net.host(h);
        let slot = slots[host.switch as usize]
            .iter()
            .position(|&x| x == h)
            .unwrap_or(0);
        let dests: Vec<HostId> = f(host.switch)
            .into_iter()
            .filter_map(|t| {
                let l = &slots[t as usize];
                (!l.is_empty()).then(|| l[slot % l.len()])
            })
            .collect();
        choices.push(if dests.is_empty() { vec![h] } else { dests });
    }
    if choices.iter().all(|c| c.len() == 1) {
        Pattern::Permutation(choices.into_iter().map(|c| c[0]).collect())
    } else {
        Pattern::Choice(choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        for s in [
            "uniform",
            "hotspot:fraction=0.2:nodes=0,21",
            "tornado",
            "randperm",
        ] {
            assert_eq!(s.parse::<PatternSpec>().unwrap().to_string(), s);
        }
        for (s, canonical) in [
            ("hotspot", "hotspot:fraction=0.1:nodes=0"),
            ("hotspot:nodes=3, 4", "hotspot:fraction=0.1:nodes=3,4"),
            ("neighbour", "neighbor"),
        ] {
            assert_eq!(s.parse::<PatternSpec>().unwrap().to_string(), canonical);
        }
    }

    #[test]
    fn bad_specs_name_the_option() {
        for (s, needle) in [
            ("uniform:x", "`uniform` takes no options; got `x`"),
            (
                "hotspot:fraction=2",
                "fraction `2`; accepted a number in [0, 1]",
            ),
            (
                "hotspot:nodes=1,a",
                "nodes `1,a`; accepted host ids like 0,5,9",
            ),
            ("hotspot:nodes=1:nodes=2", "option `nodes` is given twice"),
            ("hotspot:0.5", "option `0.5` is not key=value"),
            (
                "hotspot:hot=1",
                "unknown option `hot` for `hotspot`; accepted fraction, nodes",
            ),
            ("zigzag", "unknown pattern `zigzag`"),
        ] {
            let e = s.parse::<PatternSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted: uniform"), "{s}: {e}");
        }
    }
}
