//! k-ary n-cube tori and meshes (Dally and Towles ch. 5; DRB §4; Singh's thesis).
//!
//! Switch id = x0 + k0·x1 + k0·k1·x2 ... (dimension 0 least significant).
//! Port `2d` leads to `+1` in dimension d, port `2d+1` to `-1`; a mesh keeps
//! those port numbers and leaves boundary ports unconnected, so the port of a
//! direction is the same on every switch. Hosts take the ports after `2n`.

use super::{Network, NetworkBuilder, Shape, SwitchId, layout};

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
