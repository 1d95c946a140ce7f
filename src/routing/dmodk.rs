//! D-mod-k routing on the k-ary fat tree (Zahavi et al.; the static spreading
//! InfiniBand fat trees use): going up, an access switch takes uplink
//! `d mod (k/2)` and an aggregate switch takes uplink `(d / (k/2)) mod (k/2)`,
//! where d is the destination host id; going down is unique. Up then down
//! only, so it is deadlock-free on any number of virtual channels.

use super::{BufferView, Candidates, PacketInfo, RouteState, Routing};
use crate::rng::SimRng;
use crate::topology::{PortId, SwitchId};

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
    fn name(&self) -> String {
        "dmodk".into()
    }
    fn route(
        &mut self,
        at: SwitchId,
        _in_port: PortId,
        pkt: &PacketInfo,
        _state: &mut RouteState,
        _view: &dyn BufferView,
        _rng: &mut SimRng,
        out: &mut Candidates,
    ) {
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
