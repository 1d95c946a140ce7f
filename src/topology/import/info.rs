//! What an imported fabric's file says beyond the wiring (names,
//! descriptions, GUIDs, LIDs, file port numbers, link widths and speeds),
//! kept on the network as [`FabricInfo`], and the wiring summary of any
//! network (parallel cables, hosts per switch) that `topo` prints.

use super::raw::NodeKind;
use crate::topology::{Endpoint, HostId, Network, PortId, SwitchId};
use serde::Serialize;
use std::collections::BTreeMap;

/// A switch of an imported fabric, as the file names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchInfo {
    /// The node id in the file (`S-0002c90300001234`, `Switch1`, `router 3`).
    pub name: String,
    pub kind: NodeKind,
    /// Node description (`SwitchIB Mellanox Technologies`), if given.
    pub description: Option<String>,
    /// Node GUID, `0x` and hex, if given.
    pub guid: Option<String>,
    /// LID (of port 0), if given.
    pub lid: Option<u32>,
    /// Ports the record declares (anynet: the ports used).
    pub ports: u16,
    /// Line of the record.
    pub line: usize,
}

/// A host of an imported fabric: one cabled port of an adapter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HostInfo {
    /// The adapter's node id in the file (`H-0002c9030000abcd`, `node 7`).
    pub adapter: String,
    /// Adapter description (`node018 HCA-1`), if given.
    pub description: Option<String>,
    /// Adapter (node) GUID, if given.
    pub guid: Option<String>,
    /// The adapter's port number in the file.
    pub adapter_port: u16,
    /// Port GUID, if given.
    pub port_guid: Option<String>,
    /// The port's LID, if given.
    pub lid: Option<u32>,
    /// Width and speed of its cable (`4xEDR`), if given.
    pub link: Option<String>,
}

/// One switch-to-switch cable: link `k` of the network, channels `2k`
/// (`a -> b`) and `2k+1` (`b -> a`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CableInfo {
    pub a: SwitchId,
    /// Port number of end `a` in the file.
    pub a_port: u16,
    pub b: SwitchId,
    pub b_port: u16,
    /// Width and speed as written (`4xEDR`), if given.
    pub link: Option<String>,
    /// Data rate in Gb/s (lanes × per-lane rate), if width and speed are known.
    pub gbps: Option<f64>,
    /// Bandwidth relative to the fastest switch-to-switch cable (1.0 when
    /// unknown). Shown only: the simulator gives every channel one flit per cycle.
    pub relative_bandwidth: f64,
    /// anynet's link latency in cycles, if given (shown only: the
    /// simulator uses one `--link-latency` for every link).
    pub latency: Option<u32>,
    /// Line of the (first) listing.
    pub line: usize,
}

/// Parallel cables between one pair of switches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParallelGroup {
    pub a: SwitchId,
    pub b: SwitchId,
    /// Links (indices into [`FabricInfo::cables`]) in port order.
    pub links: Vec<u32>,
}

/// What an imported fabric's file says beyond the wiring.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricInfo {
    pub format: &'static str,
    /// The file read.
    pub path: String,
    /// Switch port index `i` is file port `i + port_base`.
    pub port_base: u16,
    /// Per switch id.
    pub switches: Vec<SwitchInfo>,
    /// Per host id.
    pub hosts: Vec<HostInfo>,
    /// Per switch-to-switch link.
    pub cables: Vec<CableInfo>,
    /// Adapters in the file with no cable (not hosts of the network).
    pub uncabled_adapters: usize,
}

impl FabricInfo {
    /// The file's port number of a switch port index.
    pub fn file_port(&self, port: PortId) -> u32 {
        port as u32 + self.port_base as u32
    }

    /// A switch's name for people: its description, else its node id.
    pub fn switch_label(&self, s: SwitchId) -> String {
        let sw = &self.switches[s as usize];
        match &sw.description {
            Some(d) if !d.is_empty() => format!("{} ({})", sw.name, d),
            _ => sw.name.clone(),
        }
    }

    /// A host's name for people: adapter description (or id) and port.
    pub fn host_label(&self, h: HostId) -> String {
        let host = &self.hosts[h as usize];
        let name = host.description.as_deref().unwrap_or(&host.adapter);
        format!("{name} port {}", host.adapter_port)
    }
}

/// Summary of any network's wiring, for `topo`: cables, parallel groups
/// and the spread of hosts per switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WiringSummary {
    /// Switch-to-switch cables (links; two channels each).
    pub cables: usize,
    /// Switch pairs joined by more than one cable.
    pub parallel_groups: usize,
    /// Cables in those groups.
    pub parallel_cables: usize,
    /// Most cables between one pair of switches.
    pub max_parallel: usize,
    /// Fewest and most hosts on one switch.
    pub min_hosts_per_switch: usize,
    pub max_hosts_per_switch: usize,
    /// Switches with no host.
    pub switches_without_hosts: usize,
}

/// The parallel-cable groups of a network (switch pairs with more than one
/// link), links in network order.
pub fn parallel_groups(net: &Network) -> Vec<ParallelGroup> {
    let mut by_pair: BTreeMap<(SwitchId, SwitchId), Vec<u32>> = BTreeMap::new();
    for (k, pair) in net.channels()[..net.num_network_channels()]
        .chunks(2)
        .enumerate()
    {
        if let (Endpoint::Switch { switch: a, .. }, Endpoint::Switch { switch: b, .. }) =
            (pair[0].src, pair[0].dst)
        {
            by_pair
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(k as u32);
        }
    }
    by_pair
        .into_iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|((a, b), links)| ParallelGroup { a, b, links })
        .collect()
}

/// [`WiringSummary`] of any network.
pub fn wiring_summary(net: &Network) -> WiringSummary {
    let groups = parallel_groups(net);
    let per_switch: Vec<usize> = (0..net.num_switches() as SwitchId)
        .map(|s| net.hosts_of(s).count())
        .collect();
    WiringSummary {
        cables: net.num_network_channels() / 2,
        parallel_groups: groups.len(),
        parallel_cables: groups.iter().map(|g| g.links.len()).sum(),
        max_parallel: groups.iter().map(|g| g.links.len()).max().unwrap_or(1),
        min_hosts_per_switch: per_switch.iter().copied().min().unwrap_or(0),
        max_hosts_per_switch: per_switch.iter().copied().max().unwrap_or(0),
        switches_without_hosts: per_switch.iter().filter(|&&h| h == 0).count(),
    }
}
