//! k-ary fat tree (Al-Fares et al.; the weighted-path paper's Figure 1).
//!
//! k pods; per pod k/2 access (edge) and k/2 aggregate switches, fully
//! connected inside the pod; (k/2)² core switches; k/2 servers per access
//! switch. Numbering (see [`super::Shape::FatTree`]): access switches
//! `0..k²/2` (access a of pod p is `p·k/2 + a`), aggregate switches
//! `k²/2 + p·k/2 + a`, core switch j is `k² + j` and links to aggregate
//! `j / (k/2)` of every pod through its port p = pod. Hosts are numbered
//! access-switch-major, so host h sits on access switch `h / (k/2)`.

use super::{Network, NetworkBuilder, Shape};

pub(super) fn build(spec: String, k: u32) -> Network {
    let h = k / 2;
    let access = k * h;
    let core = h * h;
    let total = 2 * access + core;
    let mut b = NetworkBuilder::new(total as usize);
    for s in 0..access {
        b.reserve_ports(s, h as usize);
    }
    for s in access..2 * access {
        b.reserve_ports(s, k as usize);
    }
    for s in 2 * access..total {
        b.reserve_ports(s, k as usize);
    }
    for p in 0..k {
        for a in 0..h {
            let edge = p * h + a;
            for g in 0..h {
                let agg = access + p * h + g;
                // access port g (up) <-> aggregate port a (down)
                b.link_ports(edge, g as u16, agg, a as u16);
            }
        }
    }
    for j in 0..core {
        let c = 2 * access + j;
        let g = j / h;
        for p in 0..k {
            let agg = access + p * h + g;
            // aggregate up port h + (j mod h) <-> core port p
            b.link_ports(agg, (h + j % h) as u16, c, p as u16);
        }
    }
    for s in 0..access {
        for _ in 0..h {
            b.add_host(s);
        }
    }
    // Layers: core on top (y = 0), aggregate y = 2, access y = 4.
    let width = (k * h) as f32;
    let mut pos = Vec::with_capacity(total as usize);
    for s in 0..access {
        pos.push([s as f32 + 0.5, 4.0]);
    }
    for s in 0..access {
        pos.push([s as f32 + 0.5, 2.0]);
    }
    for j in 0..core {
        pos.push([(j as f32 + 0.5) * width / core as f32, 0.0]);
    }
    b.finish(spec, Shape::FatTree { k }, pos)
}
