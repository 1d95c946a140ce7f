//! `fattree-ecmp`: equal-cost multipath as datacenter switches run it, a
//! baseline for the weighted-path paper's balancer. Every request belongs
//! to a flow: its server pair and the window of `flow` slices in which its
//! access switch took it (its begin slice unless it had to wait). Every
//! switch hashes the flow onto one of its equal-cost next hops (the ports
//! one hop closer): all messages of a flow follow one path, whatever the
//! buffers hold. The hash also mixes in the switch, so that switches do not
//! all pick the same index (polarisation).

use super::table::{FatTreeTable, applies, nth_bit};
use crate::routing::kind::given_options;
use crate::routing::kind::{Family, RoutingBuild, RoutingKind};
use crate::routing::{Candidates, Hop, Routing, Source};
use crate::topology::Network;

pub(in crate::routing) const KIND: RoutingKind = RoutingKind {
    name: "fattree-ecmp",
    aliases: &["ecmp"],
    options: "[:flow=SLICES]",
    summary: "per-flow hash over the equal-cost next hops (datacenter ECMP); time-slice model",
    families: &[Family::FatTree],
    parse: |parts| Ok(Box::new(EcmpSpec::parse(parts)?)),
    examples: &["fattree-ecmp", "fattree-ecmp:flow=1"],
};

/// Default flow length in slices: a server pair's requests admitted within
/// one window of D = 20 slices (the deadline) form one flow, long enough
/// that a flow is many messages at the presets' loads, short enough that a
/// pair does not keep one path for the whole run.
pub const DEFAULT_FLOW_SLICES: u64 = 20;

/// The parsed `fattree-ecmp` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcmpSpec {
    pub flow_slices: u64,
}

impl EcmpSpec {
    pub fn parse(parts: &[&str]) -> Result<EcmpSpec, String> {
        let mut flow_slices = DEFAULT_FLOW_SLICES;
        let keys = ["flow"];
        for (k, v) in given_options("fattree-ecmp", parts, &keys)? {
            match k {
                "flow" => {
                    flow_slices = v
                        .parse::<u64>()
                        .ok()
                        .filter(|&f| f >= 1)
                        .ok_or_else(|| format!("flow `{v}`; accepted a whole number >= 1"))?
                }
                _ => {
                    return Err(format!(
                        "`fattree-ecmp` takes no option `{k}`; accepted flow"
                    ));
                }
            }
        }
        Ok(EcmpSpec { flow_slices })
    }
}

impl RoutingBuild for EcmpSpec {
    fn canonical(&self) -> String {
        if self.flow_slices == DEFAULT_FLOW_SLICES {
            "fattree-ecmp".into()
        } else {
            format!("fattree-ecmp:flow={}", self.flow_slices)
        }
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        applies(net, "fattree-ecmp").map(|_| ())
    }
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, _vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(Ecmp {
            name: self.canonical(),
            t: FatTreeTable::new(net, "fattree-ecmp")?,
            flow_slices: self.flow_slices,
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

/// SplitMix64's finaliser.
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// ECMP on one fat tree.
#[derive(Clone, Debug)]
pub struct Ecmp {
    name: String,
    t: FatTreeTable,
    flow_slices: u64,
}

impl Routing for Ecmp {
    fn name(&self) -> String {
        self.name.clone()
    }
    /// The flow id: server pair and flow window, hashed into the tag.
    fn at_source(&mut self, src: Source<'_>) {
        let flow = src.now / self.flow_slices;
        let key = ((src.pkt.src_host as u64) << 40) ^ ((src.pkt.dst_host as u64) << 20) ^ flow;
        src.state.tag = mix(key) as u32;
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let m = self.t.closer(hop.at, hop.pkt.dst_switch);
        let n = m.count_ones();
        if n == 0 {
            return;
        }
        let h = mix(((hop.state.tag as u64) << 32) | hop.at as u64);
        out.push(nth_bit(m, (h % n as u64) as u32) as u16, 0, 0);
    }
}
