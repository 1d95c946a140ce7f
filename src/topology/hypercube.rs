//! Binary hypercube of dimension n (DRB §4): switch `s` links to `s ^ (1 << i)`
//! through port `i`; hosts take ports `n..`.

use super::{Network, NetworkBuilder, Shape, SwitchId};

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
