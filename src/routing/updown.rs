//! up*/down* routing (Autonet; Schroeder et al.), as used by both path
//! selection papers (Villalobos et al. §2; Koibuchi et al. §2).
//!
//! A BFS spanning tree from a root (default switch 0) gives every switch a
//! level; a link's "up" end is the end with the lower level, and between two
//! switches of the same level the lower switch id (the rule of OpenSM's
//! updn routing). A legal path takes zero or more up links, then zero or
//! more down links, never down then up, so one virtual channel suffices.
//! The directions and distances are [`UpDownTables`], which live in
//! [`crate::paths`] so that path selection and this routing agree link for
//! link.
//!
//! [`UpDown`] routes along shortest legal paths and offers every minimal
//! legal next hop in ascending port order, so the default `fixed` selection
//! takes the lowest port ("lowest port on ties").

use super::{BufferView, Candidates, PacketInfo, RouteState, Routing};
pub use crate::paths::UpDownTables;
use crate::rng::SimRng;
use crate::topology::{Network, Peer, PortId, SwitchId};

/// Routing along shortest legal up*/down* paths.
#[derive(Clone, Debug)]
pub struct UpDown {
    tables: UpDownTables,
    /// Per switch and port: the neighbour behind it, if a switch.
    peer: Vec<Vec<Option<SwitchId>>>,
    vcs: u8,
}

impl UpDown {
    pub fn new(net: &Network, root: SwitchId, vcs: u8) -> Self {
        let peer = (0..net.num_switches() as SwitchId)
            .map(|s| {
                net.ports(s)
                    .iter()
                    .map(|p| match p.peer {
                        Peer::Switch { switch, .. } => Some(switch),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        UpDown {
            tables: UpDownTables::bfs(net, root),
            peer,
            vcs,
        }
    }
    pub fn tables(&self) -> &UpDownTables {
        &self.tables
    }
}

impl Routing for UpDown {
    fn name(&self) -> String {
        format!("updown:root={}", self.tables.root)
    }
    fn route(
        &mut self,
        at: SwitchId,
        in_port: PortId,
        pkt: &PacketInfo,
        _state: &mut RouteState,
        _view: &dyn BufferView,
        _rng: &mut SimRng,
        out: &mut Candidates,
    ) {
        let from = self.peer[at as usize][in_port as usize];
        let phase = self.tables.phase_after(from, at);
        for (p, _, _) in self.tables.next_hops(at, pkt.dst_switch, phase) {
            out.push(p, 0, self.vcs - 1);
        }
    }
}
