//! What a stuck input-queued network is waiting on, for the deadlock
//! report: the VC each blocked input VC waits for (room downstream, an
//! output VC another packet holds, or the rest of its own packet), the
//! cycle those waits close, and the blocked VCs in words.

use super::{ACTIVE, InputQueued, NONE, ROUTED};
use crate::sim::endpoints::Endpoints;

impl InputQueued {
    /// What input VC `x` (holding flits or an output VC) waits on, if it
    /// is blocked: the downstream VC it needs room in, the input VC whose
    /// packet holds the output VC it wants, or (holding an output VC with an
    /// empty buffer) the upstream VC with the rest of its packet.
    fn waits_on(&self, x: usize, upstream: &[u32]) -> Option<usize> {
        let v = self.set.v;
        let q = &self.ivc[x];
        if q.len == 0 {
            return (q.state == ACTIVE && upstream[x] != NONE).then(|| upstream[x] as usize);
        }
        match q.state {
            ACTIVE => {
                let o = q.out as usize;
                let blocked = (o / v) < self.num_in && self.ovc[o].credits <= 0;
                blocked.then_some(o)
            }
            ROUTED => {
                let s = self.inch[x / v].switch as usize;
                let outs = &self.sw_out[self.out_start[s] as usize..self.out_start[s + 1] as usize];
                let c = self.cands[x].as_slice().first()?;
                let oc = *outs.get(c.port as usize)?;
                if oc == NONE || oc as usize >= self.num_in {
                    return None;
                }
                let o = oc as usize * v + c.vc_lo as usize;
                let owner = self.ovc[o].owner;
                Some(if owner != NONE && owner as usize != x {
                    owner as usize
                } else {
                    o
                })
            }
            _ => None,
        }
    }

    /// Follow waits from every blocked input VC until one repeats.
    pub(super) fn find_wait_cycle(&self) -> Option<Vec<usize>> {
        let total = self.num_in * self.set.v;
        // upstream[o] = the input VC whose packet holds output VC o.
        let mut upstream = vec![NONE; total];
        for (x, q) in self.ivc.iter().enumerate() {
            if q.state == ACTIVE && (q.out as usize) < total {
                upstream[q.out as usize] = x as u32;
            }
        }
        // 0: unvisited, u32::MAX: leads nowhere, else the walk's number.
        let mut mark = vec![0u32; total];
        let mut walk = 0u32;
        for start in 0..total {
            if self.ivc[start].len == 0 || mark[start] != 0 {
                continue;
            }
            walk += 1;
            let mut path = Vec::new();
            let mut x = start;
            loop {
                if mark[x] == walk {
                    let at = path.iter().position(|&y| y == x)?;
                    return Some(path[at..].to_vec());
                }
                if mark[x] != 0 {
                    break; // an earlier walk: no cycle that way
                }
                mark[x] = walk;
                path.push(x);
                match self.waits_on(x, &upstream) {
                    Some(y) => x = y,
                    None => break,
                }
            }
            for &y in &path {
                mark[y] = u32::MAX;
            }
        }
        None
    }

    pub(super) fn blocked(&self, ep: &Endpoints) -> Vec<String> {
        let v = self.set.v;
        let mut out = Vec::new();
        let name = |x: usize| format!("{} vc{}", self.net.channel_name((x / v) as u32), x % v);
        match self.find_wait_cycle() {
            Some(cycle) => {
                let mut shown: Vec<String> = cycle.iter().take(12).map(|&x| name(x)).collect();
                if cycle.len() > 12 {
                    shown.push(format!("... ({} VCs in all)", cycle.len()));
                }
                shown.push(name(cycle[0]));
                out.push(format!("wait cycle: {}", shown.join(" -> ")));
            }
            None => out.push("no cycle of waits found".into()),
        }
        for ivc in 0..self.num_in * v {
            if self.ivc[ivc].len == 0 {
                continue;
            }
            let c = (ivc / v) as u32;
            let what = match self.ivc[ivc].state {
                ACTIVE => {
                    let o = self.ivc[ivc].out as usize;
                    format!(
                        "waiting for credits on {} vc{} ({} free)",
                        self.net.channel_name((o / v) as u32),
                        o % v,
                        self.ovc[o].credits
                    )
                }
                _ => {
                    let dst = ep.packet(self.front(ivc).packet).info.dst_switch;
                    format!("waiting for a free output VC towards switch {dst}")
                }
            };
            out.push(format!(
                "{} vc{} holds {} flits, {what}",
                self.net.channel_name(c),
                ivc % v,
                self.ivc[ivc].len
            ));
            if out.len() >= 12 {
                out.push("...".into());
                break;
            }
        }
        out
    }
}
