//! Binary hypercube of dimension n (DRB §4): switch `s` links to `s ^ (1 << i)`
//! through port `i`; hosts take ports `n..`.

use super::cube::CUBE_CONTRASTS;
use super::kind::{TopologyBuild, TopologyKind, TopologyParam, size_of};
use super::spec_parts::{cube_hosts, hosts_suffix, invalid, options_and_size, parse_u32};
use super::{Network, NetworkBuilder, Shape, SwitchId, TopologyError};
use crate::limits::{self, NetworkSize};

pub(super) fn build(spec: String, n: u32, hosts: usize) -> Network {
    let count = 1u32 << n;
    let mut b = NetworkBuilder::new(count as usize);
    for s in 0..count {
        b.reserve_ports(s, n as usize);
    }
    for s in 0..count {
        for i in 0..n {
            let t = s ^ (1 << i);
            if s < t {
                b.link_ports(s, i as u16, t, i as u16);
            }
        }
    }
    b.hosts_per_switch(hosts);
    // Low half of the bits on x, high half on y, each in Gray-code order so
    // that neighbours along one bit sit next to each other.
    let lo = n.div_ceil(2);
    let pos = (0..count as SwitchId)
        .map(|s| {
            let x = gray_rank(s & ((1 << lo) - 1));
            let y = gray_rank(s >> lo);
            [x as f32, y as f32]
        })
        .collect();
    b.finish(spec, Shape::Hypercube { n }, pos)
}

/// Position of `g` in the reflected binary Gray code sequence.
fn gray_rank(g: u32) -> u32 {
    let mut b = g;
    let mut shift = 1;
    while shift < 32 {
        b ^= b >> shift;
        shift <<= 1;
    }
    b
}

/// `hypercube:N`: the binary hypercube of dimension N (DRB §4).
pub const KIND: TopologyKind = TopologyKind {
    name: "hypercube",
    aliases: &[],
    form: "hypercube:N (1..=16)[:hosts=H]",
    summary: "binary hypercube of dimension N (DRB §4)",
    params: &[
        TopologyParam {
            key: "N",
            accepted: "1..=16",
            default: "",
            meaning: "dimension: 2^N switches",
        },
        TopologyParam {
            key: "hosts",
            accepted: "1..=64",
            default: "1",
            meaning: "hosts per switch",
        },
    ],
    example: "hypercube:6",
    from_file: false,
    contrasts: CUBE_CONTRASTS,
    parse: |spec| {
        let (opts, size) = options_and_size(spec, &["hosts"])?;
        let n = parse_u32(spec, "dimension", size)?;
        if !limits::HYPERCUBE_DIMENSIONS.contains(&n) {
            return Err(invalid(
                spec,
                format!(
                    "dimension {n}; accepted {}..={}",
                    limits::HYPERCUBE_DIMENSIONS.start(),
                    limits::HYPERCUBE_DIMENSIONS.end()
                ),
            ));
        }
        let hosts = cube_hosts(spec, &opts)?;
        Ok(Box::new(HypercubeSpec { n, hosts }))
    },
};

/// A parsed `hypercube:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HypercubeSpec {
    n: u32,
    hosts: u32,
}

impl TopologyBuild for HypercubeSpec {
    fn canonical(&self) -> String {
        format!("hypercube:{}{}", self.n, hosts_suffix(self.hosts))
    }
    fn size(&self) -> Option<NetworkSize> {
        let switches = 1u64 << self.n.min(63);
        Some(size_of(
            switches,
            self.hosts as u64,
            switches.saturating_mul(self.n as u64),
            self.n as u64,
        ))
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        Ok(build(spec, self.n, self.hosts as usize))
    }
}
