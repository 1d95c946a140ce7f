//! Drawing coordinates: circles, grids, the midimew mesh and a
//! force-directed layout for irregular networks. Pure arithmetic (libm for
//! trig) so that the layout is identical on native and wasm.

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

/// A midimew on `n` nodes with jumps `b` and `b - 1` drawn as the
/// "minimal distance mesh with wrap-around links" it is (DRB §4 after
/// Beivide et al.), not as a ring of chords, where every link lies along
/// the rim and none can be told apart.
///
/// The plane lattice that covers the midimew puts a jump of `+b` one row
/// down and half a step right, a jump of `+(b - 1)` one row down and half a
/// step left, so node `i + 1` (`+b` then `-(b - 1)`) sits one whole step to
/// the right of `i`. Rows of consecutive nodes, `b` and `b - 1` long in
/// turn and offset by half a step like bricks, therefore tile it: inside
/// the drawing every link is a unit diagonal, and only the links that leave
/// it (the wrap-arounds) are long. Row `r` spans about `2b` half-steps, and
/// there are about `2n / (2b - 1)` rows: a near-square for `n` near
/// `2b^2`.
pub fn midimew(n: usize, b: usize) -> Vec<[f32; 2]> {
    let mut pos = Vec::with_capacity(n);
    let (mut row, mut start) = (0usize, 0usize);
    while start < n {
        let len = if row % 2 == 0 {
            b
        } else {
            b.saturating_sub(1).max(1)
        };
        let offset = (row % 2) as f32;
        for i in start..(start + len).min(n) {
            pos.push([offset + 2.0 * (i - start) as f32, row as f32]);
        }
        start += len;
        row += 1;
    }
    pos
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

/// Levels of a fabric read from a file, which has no coordinates: when some
/// switches have hosts, some have none and no cable joins two switches
/// with hosts (a fat tree), level 0 is the
/// host-facing switches and each other switch sits at its hop distance from
/// them, drawn upwards; otherwise (every switch has hosts, as in the
/// irregular networks of the up*/down* papers) the levels are the BFS
/// levels from switch 0 (the default up*/down* root), root at the top.
/// Unreachable switches get one level past the last.
pub fn levels(
    n: usize,
    links: &[(SwitchId, PortId, SwitchId, PortId)],
    has_hosts: &[bool],
) -> (Vec<u32>, bool) {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, _, b, _) in links {
        adj[a as usize].push(b as usize);
        adj[b as usize].push(a as usize);
    }
    // Host-facing levels when some switches have no hosts and no cable
    // joins two switches with hosts (leaves of a fat tree never meet).
    let host_facing = has_hosts.iter().any(|&h| h)
        && !has_hosts.iter().all(|&h| h)
        && links
            .iter()
            .all(|&(a, _, b, _)| !(has_hosts[a as usize] && has_hosts[b as usize]));
    let sources: Vec<usize> = if host_facing {
        (0..n).filter(|&s| has_hosts[s]).collect()
    } else {
        vec![0]
    };
    let mut level = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in sources.iter().filter(|&&s| s < n) {
        level[s] = 0;
        queue.push_back(s);
    }
    while let Some(s) = queue.pop_front() {
        for &t in &adj[s] {
            if level[t] == u32::MAX {
                level[t] = level[s] + 1;
                queue.push_back(t);
            }
        }
    }
    let last = level
        .iter()
        .copied()
        .filter(|&l| l != u32::MAX)
        .max()
        .unwrap_or(0);
    for l in &mut level {
        if *l == u32::MAX {
            *l = last + 1;
        }
    }
    (level, host_facing)
}

/// Coordinates by [`levels`]: one row per level (host-facing switches at
/// the bottom, or the up*/down* root at the top), 1.5 units between the
/// switches of the widest row, other rows spread over the same width; in
/// each row the switches are ordered by the mean position of their
/// neighbours in the rows already placed (ties by id), which untangles a
/// fat tree's spines. Parallel cables do not change the layout (the view
/// fans them out).
pub fn by_levels(
    n: usize,
    links: &[(SwitchId, PortId, SwitchId, PortId)],
    has_hosts: &[bool],
) -> Vec<[f32; 2]> {
    let (level, host_facing) = levels(n, links, has_hosts);
    let depth = level.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (s, &l) in level.iter().enumerate() {
        rows[l as usize].push(s);
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let width = widest as f32 * 1.5;
    let dy = 2.5f32;
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, _, b, _) in links {
        adj[a as usize].push(b as usize);
        adj[b as usize].push(a as usize);
    }
    let mut pos = vec![[0.0f32; 2]; n];
    let mut placed = vec![false; n];
    for (l, row) in rows.iter_mut().enumerate() {
        // Mean x of placed neighbours (f32 compared through its bits, which
        // orders finite values of one sign; NaN cannot occur).
        let key = |s: usize| {
            let xs: Vec<f32> = adj[s]
                .iter()
                .filter(|&&t| placed[t])
                .map(|&t| pos[t][0])
                .collect();
            if xs.is_empty() {
                0.0
            } else {
                xs.iter().sum::<f32>() / xs.len() as f32
            }
        };
        let mut keyed: Vec<(f32, usize)> = row.iter().map(|&s| (key(s), s)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *row = keyed.into_iter().map(|(_, s)| s).collect();
        let m = row.len().max(1) as f32;
        let y = if host_facing {
            (depth - 1 - l) as f32 * dy
        } else {
            l as f32 * dy
        };
        for (i, &s) in row.iter().enumerate() {
            pos[s] = [(i as f32 + 0.5) * width / m - width / 2.0, y];
            placed[s] = true;
        }
    }
    pos
}

/// Hosts of a fabric drawn as a row under their switch (1.2 units wide at
/// most), so that a leaf's 24 adapters read as one block.
pub fn hosts_in_rows(switch_pos: &[[f32; 2]], hosts: &[Host], n: usize) -> Vec<[f32; 2]> {
    let mut count = vec![0usize; n];
    for h in hosts {
        count[h.switch as usize] += 1;
    }
    let mut seen = vec![0usize; n];
    hosts
        .iter()
        .map(|h| {
            let s = h.switch as usize;
            let (c, i) = (count[s], seen[s]);
            seen[s] += 1;
            let [x, y] = switch_pos[s];
            let w = (0.25 * (c as f32 - 1.0)).min(1.2);
            let dx = if c > 1 {
                w * (i as f32 / (c as f32 - 1.0) - 0.5)
            } else {
                0.0
            };
            [x + dx, y + 0.7]
        })
        .collect()
}
