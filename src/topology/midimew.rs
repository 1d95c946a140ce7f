//! Midimew (minimal distance mesh with wrap-around links; DRB §4): the
//! circulant graph on N nodes with jumps b and b-1, b = ceil(sqrt(N/2)).
//! Node i links to i ± b and i ± (b-1) mod N. Ports: 0 = +b, 1 = -b,
//! 2 = +(b-1), 3 = -(b-1); hosts follow.

use super::cube::CUBE_CONTRASTS;
use super::kind::{TopologyBuild, TopologyKind, TopologyParam, size_of};
use super::spec_parts::{cube_hosts, hosts_suffix, invalid, options_and_size, parse_u32};
use super::{Network, NetworkBuilder, Shape, TopologyError, layout};
use crate::limits::{self, NetworkSize};

/// b = ceil(sqrt(N/2)) computed exactly in integers.
pub fn jump(n: u32) -> u32 {
    let mut b = 1u32;
    while 2 * b * b < n {
        b += 1;
    }
    b
}

pub(super) fn build(spec: String, n: u32, hosts: usize) -> Network {
    let b = jump(n);
    let mut nb = NetworkBuilder::new(n as usize);
    for s in 0..n {
        nb.reserve_ports(s, 4);
    }
    for s in 0..n {
        nb.link_ports(s, 0, (s + b) % n, 1);
        nb.link_ports(s, 2, (s + b - 1) % n, 3);
    }
    nb.hosts_per_switch(hosts);
    let pos = layout::midimew(n as usize, b as usize);
    nb.finish(spec, Shape::Midimew { n, b }, pos)
}

/// `midimew:N`: the midimew circulant on N nodes (DRB §4).
pub const KIND: TopologyKind = TopologyKind {
    name: "midimew",
    aliases: &[],
    form: "midimew:N (5..=262144)[:hosts=H]",
    summary: "minimum-distance mesh with wrap-around links: the circulant with jumps b and b-1 (DRB §4)",
    params: &[
        TopologyParam {
            key: "N",
            accepted: "5..=262144",
            default: "",
            meaning: "switches",
        },
        TopologyParam {
            key: "hosts",
            accepted: "1..=64",
            default: "1",
            meaning: "hosts per switch",
        },
    ],
    example: "midimew:64",
    from_file: false,
    contrasts: CUBE_CONTRASTS,
    parse: |spec| {
        let (opts, size) = options_and_size(spec, &["hosts"])?;
        let n = parse_u32(spec, "node count", size)?;
        if !(5..=limits::MAX_SWITCHES).contains(&(n as u64)) {
            return Err(invalid(
                spec,
                format!("{n} nodes; accepted 5..={}", limits::MAX_SWITCHES),
            ));
        }
        let hosts = cube_hosts(spec, &opts)?;
        Ok(Box::new(MidimewSpec { n, hosts }))
    },
};

/// A parsed `midimew:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MidimewSpec {
    n: u32,
    hosts: u32,
}

impl TopologyBuild for MidimewSpec {
    fn canonical(&self) -> String {
        format!("midimew:{}{}", self.n, hosts_suffix(self.hosts))
    }
    fn size(&self) -> Option<NetworkSize> {
        let n = self.n as u64;
        Some(size_of(n, self.hosts as u64, n.saturating_mul(4), 4))
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        Ok(build(spec, self.n, self.hosts as usize))
    }
}
