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

use super::kind::{Family, RoutingBuild, RoutingKind, options};
use super::{Candidates, Hop, Routing};
pub use crate::paths::UpDownTables;
use crate::topology::{Network, Peer, SwitchId};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "updown",
    aliases: &[],
    options: "[:root=N]",
    summary: "up*/down* on a BFS spanning tree from switch N (default 0)",
    families: &[Family::Static],
    parse: |parts| {
        let o = options("updown", parts, &["root"])?;
        let root = o.u32("root", 0..=u32::MAX).map_err(|e| e.to_string())?;
        Ok(Box::new(UpDownSpec {
            root: root.unwrap_or(0),
        }))
    },
    examples: &["updown", "updown:root=1"],
};

/// The `updown` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpDownSpec {
    pub root: SwitchId,
}

impl RoutingBuild for UpDownSpec {
    fn canonical(&self) -> String {
        if self.root == 0 {
            "updown".into()
        } else {
            format!("updown:root={}", self.root)
        }
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        if self.root as usize >= net.num_switches() {
            return Err(format!(
                "root {}; accepted 0..{}",
                self.root,
                net.num_switches()
            ));
        }
        if net.num_switches() > UpDownTables::MAX_SWITCHES {
            return Err(format!(
                "{} switches; up*/down* tables are built for at most {}",
                net.num_switches(),
                UpDownTables::MAX_SWITCHES
            ));
        }
        Ok(())
    }
    /// No down-to-up turn anywhere: acyclic on one virtual channel.
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(UpDown::new(net, self.root, vcs)))
    }
    fn variants(&self, _net: &Network) -> Vec<String> {
        vec!["updown".into()]
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

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
    fn source_states(&self, _pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        Some(vec![super::RouteState::default()])
    }
    fn name(&self) -> String {
        format!("updown:root={}", self.tables.root())
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let at = hop.at;
        let from = self.peer[at as usize][hop.in_port as usize];
        let phase = self.tables.phase_after(from, at);
        for (p, _, _) in self.tables.next_hops(at, hop.pkt.dst_switch, phase) {
            out.push(p, 0, self.vcs - 1);
        }
    }
}
