//! `hotspot:fraction=F:nodes=A,B,..` (DRB §5, Fig. 9): with probability F
//! the destination is drawn uniformly from the hot hosts (other than the
//! source), otherwise uniformly over the other hosts (default F = 0.1,
//! nodes = 0).

use crate::rng::SimRng;
use crate::spec_options::{OptionError, Spec};
use crate::topology::{HostId, Network};
use crate::traffic::kind::{TrafficBuild, TrafficKind};
use crate::traffic::pattern::{Pattern, TrafficError, err};

/// `hotspot`.
pub const KIND: TrafficKind = TrafficKind {
    name: "hotspot",
    aliases: &[],
    form: "hotspot[:fraction=F][:nodes=A,B,..]",
    summary: "a share F of the packets to the hot hosts, the rest uniform (DRB §5, Fig. 9)",
    example: "hotspot:fraction=0.2:nodes=0",
    parse: |spec| {
        let opts = Spec::split(spec)
            .options(0, &["fraction", "nodes"])
            .map_err(|e| err(spec, e.to_string()))?;
        let opt = |e: OptionError| err(spec, e.to_string());
        let fraction = opts.f64("fraction", 0.0..=1.0).map_err(opt)?;
        let nodes = opts.list("nodes", "host ids like 0,5,9").map_err(opt)?;
        Ok(Box::new(HotSpot {
            fraction: fraction.unwrap_or(0.1),
            nodes: nodes.unwrap_or_else(|| vec![0]),
        }))
    },
};

/// A parsed `hotspot` spec.
#[derive(Clone, Debug, PartialEq)]
struct HotSpot {
    fraction: f64,
    nodes: Vec<HostId>,
}

impl TrafficBuild for HotSpot {
    fn canonical(&self) -> String {
        let n: Vec<String> = self.nodes.iter().map(|n| n.to_string()).collect();
        format!("hotspot:fraction={}:nodes={}", self.fraction, n.join(","))
    }
    fn build(&self, net: &Network, _rng: &mut SimRng) -> Result<Pattern, TrafficError> {
        let n = net.num_hosts() as u32;
        if let Some(bad) = self.nodes.iter().find(|&&h| h >= n) {
            return Err(err(
                &self.canonical(),
                format!("hot node {bad}; accepted 0..{n}"),
            ));
        }
        Ok(Pattern::HotSpot {
            hosts: n,
            fraction: self.fraction,
            hot: self.nodes.clone(),
        })
    }
}
