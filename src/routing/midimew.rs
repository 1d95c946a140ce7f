//! Minimal routing on midimew (DRB §4), the circulant graph on N nodes with
//! jumps b and b-1, b = ceil(sqrt(N/2)) (node i links to i ± b and
//! i ± (b-1) mod N): write the offset `dst - src (mod N)` as
//! `x·b + y·(b-1)` with minimal `|x| + |y|` (ties: smaller `|x|`, then
//! positive x), computed once at the source; take the `b` jumps first, then
//! the `b-1` jumps.
//!
//! Deadlock freedom: each jump type is a set of rings, so a dateline rule per
//! jump type applies: a packet that will still wrap past node 0 in its
//! current jump type uses virtual channels `0..V/2`, otherwise `V/2..V`.
//! A minimal route never wraps twice in one jump type (|x|·b < N).

use super::{Candidates, Hop, Routing, Source};
use crate::topology::PortId;

/// Minimal midimew routing with dateline virtual channels.
#[derive(Clone, Debug)]
pub struct MidimewMinimal {
    n: u32,
    b: u32,
    vcs: u8,
    /// Minimal (x, y) for every offset.
    table: Vec<(i32, i32)>,
}

impl MidimewMinimal {
    pub fn new(n: u32, b: u32, vcs: u8) -> Self {
        let bi = b as i64;
        let ni = n as i64;
        let mut table = vec![(0i32, 0i32); n as usize];
        let mut best = vec![u32::MAX; n as usize];
        // Enumerate in tie-break order: smaller |x| first, positive x first.
        let mut xs: Vec<i64> = (-bi..=bi).collect();
        xs.sort_by_key(|&x| (x.abs(), x < 0));
        let mut ys: Vec<i64> = (-bi..=bi).collect();
        ys.sort_by_key(|&y| (y.abs(), y < 0));
        for &x in &xs {
            for &y in &ys {
                let off = ((x * bi + y * (bi - 1)) % ni + ni) % ni;
                let cost = (x.abs() + y.abs()) as u32;
                if cost < best[off as usize] {
                    best[off as usize] = cost;
                    table[off as usize] = (x as i32, y as i32);
                }
            }
        }
        MidimewMinimal { n, b, vcs, table }
    }

    /// Minimal hop count for an offset.
    pub fn hops(&self, offset: u32) -> u32 {
        let (x, y) = self.table[(offset % self.n) as usize];
        x.unsigned_abs() + y.unsigned_abs()
    }
}

fn pack(x: i32, y: i32) -> u32 {
    ((x as i16 as u16 as u32) << 16) | (y as i16 as u16 as u32)
}
fn unpack(t: u32) -> (i32, i32) {
    ((t >> 16) as u16 as i16 as i32, t as u16 as i16 as i32)
}

impl Routing for MidimewMinimal {
    fn source_states(&self, pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        let off = (pkt.dst_switch + self.n - pkt.src_switch) % self.n;
        let (x, y) = self.table[off as usize];
        Some(vec![super::RouteState {
            tag: pack(x, y),
            ..super::RouteState::default()
        }])
    }

    fn name(&self) -> String {
        "dor".into()
    }
    fn at_source(&mut self, src: Source<'_>) {
        let pkt = src.pkt;
        let off = (pkt.dst_switch + self.n - pkt.src_switch) % self.n;
        let (x, y) = self.table[off as usize];
        src.state.tag = pack(x, y);
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let (at, state) = (hop.at, hop.state);
        let (mut x, mut y) = unpack(state.tag);
        let (port, jump, remaining, plus) = if x != 0 {
            let r = (0, self.b, x.unsigned_abs(), x > 0);
            x -= x.signum();
            r
        } else if y != 0 {
            let r = (2, self.b - 1, y.unsigned_abs(), y > 0);
            y -= y.signum();
            r
        } else {
            return;
        };
        state.tag = pack(x, y);
        let travel = remaining as u64 * jump as u64;
        let will_wrap = if plus {
            at as u64 + travel >= self.n as u64
        } else {
            (at as u64) < travel
        };
        let port = (port + u32::from(!plus)) as PortId;
        let half = self.vcs / 2;
        if will_wrap {
            out.push(port, 0, half - 1);
        } else {
            out.push(port, half, self.vcs - 1);
        }
    }
}
