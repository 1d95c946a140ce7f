//! Drawing coordinates: circles, grids and a force-directed layout for
//! irregular networks. Pure arithmetic (libm for trig) so that the layout is
//! identical on native and wasm.

use super::{Host, Peer, Port, PortId, SwitchId};

/// `n` points evenly on a circle of radius `r` (first point at the top).
pub fn circle(n: usize, r: f32) -> Vec<[f32; 2]> {
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n.max(1) as f64;
            [
                (r as f64 * libm::sin(a)) as f32,
                (-(r as f64) * libm::cos(a)) as f32,
            ]
        })
        .collect()
}

/// Fruchterman-Reingold spring layout, started from a circle and run a fixed
/// number of iterations (deterministic; `_seed` kept for future jitter).
pub fn force_directed(
    n: usize,
    links: &[(SwitchId, PortId, SwitchId, PortId)],
    _seed: u64,
) -> Vec<[f32; 2]> {
    let r = (n as f32).sqrt().max(1.0) * 1.5;
    let mut pos = circle(n, r);
    if n < 3 {
        return pos;
    }
    // Ideal edge length for an area of (2r)^2.
    let k = (4.0 * r * r / n as f32).sqrt();
    let iterations = if n > 400 { 60 } else { 200 };
    let mut disp = vec![[0.0f32; 2]; n];
    let mut temp = r / 4.0;
    for _ in 0..iterations {
        disp.iter_mut().for_each(|d| *d = [0.0, 0.0]);
        // Repulsion: all pairs for small nets, a bounded neighbourhood otherwise.
        for i in 0..n {
            for j in (i + 1)..n {
                let dx = pos[i][0] - pos[j][0];
                let dy = pos[i][1] - pos[j][1];
                let d2 = (dx * dx + dy * dy).max(1e-4);
                let f = k * k / d2;
                disp[i][0] += dx * f;
                disp[i][1] += dy * f;
                disp[j][0] -= dx * f;
                disp[j][1] -= dy * f;
            }
        }
        for &(a, _, b, _) in links {
            let (a, b) = (a as usize, b as usize);
            let dx = pos[a][0] - pos[b][0];
            let dy = pos[a][1] - pos[b][1];
            let d = (dx * dx + dy * dy).sqrt().max(1e-3);
            let f = d / k;
            disp[a][0] -= dx * f;
            disp[a][1] -= dy * f;
            disp[b][0] += dx * f;
            disp[b][1] += dy * f;
        }
        for i in 0..n {
            let d = (disp[i][0] * disp[i][0] + disp[i][1] * disp[i][1])
                .sqrt()
                .max(1e-6);
            let step = d.min(temp);
            pos[i][0] += disp[i][0] / d * step;
            pos[i][1] += disp[i][1] / d * step;
        }
        temp *= 0.97;
    }
    pos
}

/// Hosts drawn around their switch, spread on a small arc away from the
/// network's centre.
pub fn host_positions(
    switch_pos: &[[f32; 2]],
    hosts: &[Host],
    switches: &[Vec<Port>],
) -> Vec<[f32; 2]> {
    let n = switch_pos.len().max(1) as f32;
    let cx = switch_pos.iter().map(|p| p[0]).sum::<f32>() / n;
    let cy = switch_pos.iter().map(|p| p[1]).sum::<f32>() / n;
    hosts
        .iter()
        .map(|h| {
            let s = h.switch as usize;
            let [x, y] = switch_pos[s];
            let count = switches[s]
                .iter()
                .filter(|p| matches!(p.peer, Peer::Host { .. }))
                .count()
                .max(1);
            let idx = switches[s][..h.port as usize]
                .iter()
                .filter(|p| matches!(p.peer, Peer::Host { .. }))
                .count();
            let base = libm::atan2((y - cy) as f64, (x - cx) as f64);
            let spread = 0.5 * (idx as f64 - (count as f64 - 1.0) / 2.0);
            let a = base + spread;
            [x + 0.3 * libm::cos(a) as f32, y + 0.3 * libm::sin(a) as f32]
        })
        .collect()
}
