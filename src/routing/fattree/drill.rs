//! `fattree-drill`: DRILL (Ghorbani et al., SIGCOMM 2017), a per-message
//! local balancer and a baseline for the weighted-path paper's. For every
//! message a switch samples `d` random ports among the equal-cost next hops
//! (the ports one hop closer), adds the port it found best last time
//! (`m = 1`, its memory) and sends on the least loaded of them. DRILL's
//! load is a local output-queue length; a time-slice switch has no output
//! queues, so the load here is the next switch's occupancy as this switch
//! knows it (its fill at the start of the slice plus what this switch sent
//! it since). Unlike the paper's greedy rule it compares occupancies, not
//! free space, so it does not see that switches differ in size.

use super::table::{FatTreeTable, applies, nth_bit};
use crate::rng::below;
use crate::routing::kind::given_options;
use crate::routing::kind::{Family, RoutingBuild, RoutingKind};
use crate::routing::{Candidates, Hop, Routing};
use crate::topology::Network;

pub(in crate::routing) const KIND: RoutingKind = RoutingKind {
    name: "fattree-drill",
    aliases: &["drill"],
    options: "[:d=N][:m=0|1]",
    summary: "DRILL: least loaded of d random next hops and the last best one; time-slice model",
    families: &[Family::FatTree],
    parse: |parts| Ok(Box::new(DrillSpec::parse(parts)?)),
    examples: &["fattree-drill", "fattree-drill:d=1:m=0"],
};

/// The parsed `fattree-drill` spec: DRILL(d, m), by default the paper's
/// recommended DRILL(2, 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrillSpec {
    pub d: u32,
    pub m: u32,
}

impl DrillSpec {
    pub fn parse(parts: &[&str]) -> Result<DrillSpec, String> {
        let mut s = DrillSpec { d: 2, m: 1 };
        let keys = ["d", "m"];
        for (k, v) in given_options("fattree-drill", parts, &keys)? {
            match k {
                "d" => {
                    s.d = v
                        .parse::<u32>()
                        .ok()
                        .filter(|d| (1..=64).contains(d))
                        .ok_or_else(|| format!("d `{v}`; accepted 1..=64"))?
                }
                "m" => {
                    s.m = v
                        .parse::<u32>()
                        .ok()
                        .filter(|m| *m <= 1)
                        .ok_or_else(|| format!("m `{v}`; accepted 0, 1"))?
                }
                _ => {
                    return Err(format!(
                        "`fattree-drill` takes no option `{k}`; accepted d, m"
                    ));
                }
            }
        }
        Ok(s)
    }
}

impl RoutingBuild for DrillSpec {
    fn canonical(&self) -> String {
        let mut s = "fattree-drill".to_string();
        if self.d != 2 {
            s.push_str(&format!(":d={}", self.d));
        }
        if self.m != 1 {
            s.push_str(&format!(":m={}", self.m));
        }
        s
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        applies(net, "fattree-drill").map(|_| ())
    }
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, _vcs: u8) -> Result<Box<dyn Routing>, String> {
        let t = FatTreeTable::new(net, "fattree-drill")?;
        Ok(Box::new(Drill {
            name: self.canonical(),
            memory: vec![u16::MAX; t.num_switches as usize],
            t,
            d: self.d,
            m: self.m,
        }))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn time_slice_only(&self) -> bool {
        true
    }
}

/// DRILL on one fat tree.
#[derive(Clone, Debug)]
pub struct Drill {
    name: String,
    t: FatTreeTable,
    d: u32,
    m: u32,
    /// Per switch: the port it found least loaded last time (u16::MAX:
    /// none yet).
    memory: Vec<u16>,
}

impl Routing for Drill {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let s = hop.at;
        let mask = self.t.closer(s, hop.pkt.dst_switch);
        let n = mask.count_ones();
        if n == 0 {
            return;
        }
        let load = |port: u16| -> u32 {
            match hop.view.occupancy(port) {
                Some(o) => o,
                None => {
                    let cap = self
                        .t
                        .peer(s, port)
                        .map_or(0, |r| self.t.params[r as usize].buffer);
                    cap.saturating_sub(hop.view.free_slots(port, 0))
                }
            }
        };
        let mut best: Option<(u32, u16)> = None;
        let mut consider = |port: u16| {
            let l = load(port);
            if best.is_none_or(|(bl, _)| l < bl) {
                best = Some((l, port));
            }
        };
        if n == 1 {
            consider(mask.trailing_zeros() as u16);
        } else {
            // d distinct samples (all ports when d >= n).
            let mut left = mask;
            for i in 0..self.d.min(n) {
                let j = below(hop.rng, n - i);
                let port = nth_bit(left, j);
                left &= !(1u64 << port);
                consider(port as u16);
            }
            let mem = self.memory[s as usize];
            if self.m == 1 && mem != u16::MAX && mask & (1u64 << mem) != 0 {
                consider(mem);
            }
        }
        if let Some((_, port)) = best {
            if self.m == 1 {
                self.memory[s as usize] = port;
            }
            out.push(port, 0, 0);
        }
    }
}
