//! D-mod-k routing on the k-ary fat tree (Zahavi et al.; the static spreading
//! InfiniBand fat trees use): going up, an access switch takes uplink
//! `d mod (k/2)` and an aggregate switch takes uplink `(d / (k/2)) mod (k/2)`,
//! where d is the destination host id; going down is unique. Up then down
//! only, so it is deadlock-free on any number of virtual channels. On a fat
//! tree read from a fabric file, [`super::dmodk_fabric`] finds the levels
//! from the wiring.

use super::kind::{Family, RoutingBuild, RoutingKind, options};
use super::{Candidates, Hop, Routing};
use crate::topology::{Network, PortId, Shape};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "dmodk",
    aliases: &[],
    options: "",
    summary: "D-mod-k on fat trees: uplink chosen by the destination",
    families: &[Family::Static],
    parse: |parts| {
        options("dmodk", parts, &[])?;
        Ok(Box::new(DModKSpec))
    },
    examples: &["dmodk"],
};

/// The `dmodk` spec.
#[derive(Clone, Copy, Debug)]
struct DModKSpec;

impl RoutingBuild for DModKSpec {
    fn canonical(&self) -> String {
        "dmodk".into()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        match net.shape() {
            Shape::FatTree { .. } => Ok(()),
            _ if net.fabric().is_some() => {
                super::dmodk_fabric::FabricDModK::new(net, 1).map(|_| ())
            }
            _ => {
                Err("dmodk needs a fattree topology (or a fat tree read from a fabric file)".into())
            }
        }
    }
    /// Up then down only: acyclic on one virtual channel.
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        match net.shape() {
            Shape::FatTree { k } => Ok(Box::new(DModK::new(*k, vcs))),
            _ if net.fabric().is_some() => {
                Ok(Box::new(super::dmodk_fabric::FabricDModK::new(net, vcs)?))
            }
            _ => {
                Err("dmodk needs a fattree topology (or a fat tree read from a fabric file)".into())
            }
        }
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec![self.canonical()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// D-mod-k on `fattree:K`.
#[derive(Clone, Debug)]
pub struct DModK {
    k: u32,
    vcs: u8,
}

impl DModK {
    pub fn new(k: u32, vcs: u8) -> Self {
        DModK { k, vcs }
    }
}

impl Routing for DModK {
    fn source_states(&self, _pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        Some(vec![super::RouteState::default()])
    }

    fn name(&self) -> String {
        "dmodk".into()
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let (at, pkt) = (hop.at, hop.pkt);
        let h = self.k / 2;
        let access = self.k * h;
        let d = pkt.dst_host;
        let dst_access = pkt.dst_switch;
        let dst_pod = dst_access / h;
        let port = if at < access {
            d % h
        } else if at < 2 * access {
            let pod = (at - access) / h;
            if pod == dst_pod {
                dst_access % h
            } else {
                h + (d / h) % h
            }
        } else {
            dst_pod
        };
        out.push(port as PortId, 0, self.vcs - 1);
    }
}
