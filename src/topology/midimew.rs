//! Midimew (minimal distance mesh with wrap-around links; DRB §4): the
//! circulant graph on N nodes with jumps b and b-1, b = ceil(sqrt(N/2)).
//! Node i links to i ± b and i ± (b-1) mod N. Ports: 0 = +b, 1 = -b,
//! 2 = +(b-1), 3 = -(b-1); hosts follow.

use super::{Network, NetworkBuilder, Shape, layout};

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
