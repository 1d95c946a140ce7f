//! Network models: switches with numbered ports, hosts attached to switches and
//! directed channels with stable ids.
//!
//! Every topology in the papers is built here: k-ary n-cube tori and meshes
//! (Singh's thesis, DRB §4), binary hypercubes and midimew (DRB §4), the k-ary
//! fat tree of the weighted-path paper, and the random irregular switch
//! networks of the up*/down* papers (Villalobos et al. §4, Koibuchi et al. §4),
//! and the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008).
//!
//! Channel numbering (stable, used by every per-channel view and file):
//! switch-to-switch channels come first, `0..num_network_channels()`, in the
//! order the builder linked them (each physical link gives two consecutive
//! ids, `a -> b` then `b -> a`); then one injection channel per host
//! (host -> switch), then one ejection channel per host (switch -> host).

mod builder;
pub mod cube;
pub mod dragonfly;
mod edge_list;
mod error;
mod fat_tree;
pub mod fat_tree_params;
mod hypercube;
pub mod import;
mod irregular;
pub mod kind;
mod layout;
mod metrics;
pub mod midimew;
pub mod registry;
mod spec;
pub mod spec_parts;

pub use builder::NetworkBuilder;
pub use edge_list::parse as parse_edge_list;
pub use error::TopologyError;
pub use kind::{TopologyBuild, TopologyKind, TopologyParam};
pub use metrics::{DistanceStats, all_pairs, bfs_distances, capacity_per_host, is_connected};
pub use spec::{TopologySpec, accepted};

use petgraph::graph::{DiGraph, NodeIndex};
use serde::Serialize;

/// Index of a switch (router), `0..num_switches()`.
pub type SwitchId = u32;
/// Index of a host (server, processing node), `0..num_hosts()`.
pub type HostId = u32;
/// Stable id of a directed channel.
pub type ChannelId = u32;
/// Port number on a switch.
pub type PortId = u16;

/// One end of a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    /// A switch port.
    Switch { switch: SwitchId, port: PortId },
    /// A host's network interface.
    Host { host: HostId },
}

/// What a channel connects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    /// Between two switches.
    Network,
    /// From a host into its switch.
    Injection,
    /// From a switch to one of its hosts.
    Ejection,
}

/// A directed channel (half of a physical link).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Channel {
    pub id: ChannelId,
    pub src: Endpoint,
    pub dst: Endpoint,
    pub kind: ChannelKind,
}

/// What a switch port is wired to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Peer {
    /// Another switch's port.
    Switch { switch: SwitchId, port: PortId },
    /// A host.
    Host { host: HostId },
    /// Nothing (for example a mesh boundary port).
    Unconnected,
}

/// A switch port: its peer and its two channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Port {
    pub peer: Peer,
    /// Channel leaving the switch through this port.
    pub out_channel: Option<ChannelId>,
    /// Channel entering the switch through this port.
    pub in_channel: Option<ChannelId>,
}

/// A host and where it is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Host {
    pub switch: SwitchId,
    pub port: PortId,
}

/// The shape of a network, with the parameters routing and traffic need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Shape {
    /// k-ary n-cube: `radix[d]` switches along dimension d (dimension 0 least
    /// significant in the switch id). `wrap` is true for a torus. Port `2d`
    /// goes to `+1` in dimension d, port `2d+1` to `-1`; host ports follow.
    Cube { radix: Vec<u32>, wrap: bool },
    /// Binary hypercube of dimension `n`: port `i` flips bit `i`.
    Hypercube { n: u32 },
    /// Midimew on `n` nodes with jumps `b` and `b-1`. Ports: 0 = `+b`,
    /// 1 = `-b`, 2 = `+(b-1)`, 3 = `-(b-1)`.
    Midimew { n: u32, b: u32 },
    /// k-ary fat tree (Al-Fares). Switch ids: access (edge) switches
    /// `0..k²/2` (pod p holds `p·k/2 ..`), aggregate switches `k²/2..k²`,
    /// core switches `k²..k²+k²/4`. Access ports: `0..k/2` up to the pod's
    /// aggregates, then `k/2` hosts. Aggregate ports: `0..k/2` down to the
    /// pod's access switches, `k/2..k` up to core. Core port p goes to pod p.
    FatTree { k: u32 },
    /// Random irregular switch network (or one read from a file).
    Irregular,
    /// Dragonfly (Kim et al., ISCA 2008): `g` groups of `a` routers with
    /// `p` hosts and `h` global channels each ([`dragonfly`]). Switch
    /// `i·a + r` is router `r` of group `i`; ports `0..a-1` local, then
    /// `h` global, then the hosts.
    Dragonfly { p: u32, a: u32, h: u32, g: u32 },
}

/// A network's switches in groups of consecutive ids (group `i` holds
/// switches `i·size .. (i+1)·size`): what group-level traffic (the
/// dragonfly's adversarial pattern) needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    pub count: u32,
    pub size: u32,
}

impl Shape {
    /// The switches' groups, for the shapes that have them (the
    /// dragonfly's groups); `None` for the others. A later hierarchical
    /// topology (HyperX's rows, Slim Fly's subgraphs) adds its arm here.
    pub fn groups(&self) -> Option<Groups> {
        match *self {
            Shape::Dragonfly { a, g, .. } => Some(Groups { count: g, size: a }),
            _ => None,
        }
    }
}

/// A network: switches, hosts, channels, a petgraph view and drawing
/// coordinates.
#[derive(Clone, Debug)]
pub struct Network {
    spec: String,
    shape: Shape,
    switches: Vec<Vec<Port>>,
    hosts: Vec<Host>,
    channels: Vec<Channel>,
    num_network_channels: u32,
    switch_pos: Vec<[f32; 2]>,
    host_pos: Vec<[f32; 2]>,
    graph: DiGraph<SwitchId, ChannelId>,
    /// Per-switch time-slice parameters (fat trees; see [`fat_tree_params`]).
    switch_params: Option<Vec<fat_tree_params::SwitchParams>>,
    /// What an imported fabric's file says beyond the wiring ([`import`]).
    fabric: Option<std::sync::Arc<import::FabricInfo>>,
}

impl Network {
    /// The canonical spec string this network was built from.
    pub fn spec(&self) -> &str {
        &self.spec
    }
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    pub fn num_switches(&self) -> usize {
        self.switches.len()
    }
    pub fn num_hosts(&self) -> usize {
        self.hosts.len()
    }
    pub fn num_channels(&self) -> usize {
        self.channels.len()
    }
    /// Switch-to-switch channels are ids `0..num_network_channels()`.
    pub fn num_network_channels(&self) -> usize {
        self.num_network_channels as usize
    }
    pub fn ports(&self, switch: SwitchId) -> &[Port] {
        &self.switches[switch as usize]
    }
    pub fn port(&self, switch: SwitchId, port: PortId) -> &Port {
        &self.switches[switch as usize][port as usize]
    }
    pub fn host(&self, host: HostId) -> Host {
        self.hosts[host as usize]
    }
    pub fn hosts(&self) -> &[Host] {
        &self.hosts
    }
    pub fn channel(&self, id: ChannelId) -> &Channel {
        &self.channels[id as usize]
    }
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }
    /// Injection channel of a host.
    pub fn injection_channel(&self, host: HostId) -> ChannelId {
        self.num_network_channels + host
    }
    /// Ejection channel of a host.
    pub fn ejection_channel(&self, host: HostId) -> ChannelId {
        self.num_network_channels + self.hosts.len() as u32 + host
    }
    /// Hosts attached to a switch, in port order.
    pub fn hosts_of(&self, switch: SwitchId) -> impl Iterator<Item = HostId> + '_ {
        self.ports(switch).iter().filter_map(|p| match p.peer {
            Peer::Host { host } => Some(host),
            _ => None,
        })
    }
    /// Neighbouring switches with the local port leading to them.
    pub fn neighbours(&self, switch: SwitchId) -> impl Iterator<Item = (PortId, SwitchId)> + '_ {
        self.ports(switch)
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.peer {
                Peer::Switch { switch, .. } => Some((i as PortId, switch)),
                _ => None,
            })
    }
    /// Most hosts attached to one switch.
    pub fn max_hosts_per_switch(&self) -> usize {
        (0..self.num_switches() as SwitchId)
            .map(|s| self.hosts_of(s).count())
            .max()
            .unwrap_or(0)
    }
    /// Descriptions, GUIDs, LIDs, file port numbers and link speeds of a
    /// fabric read from a file ([`import`]); `None` for other topologies.
    pub fn fabric(&self) -> Option<&import::FabricInfo> {
        self.fabric.as_deref()
    }
    pub(crate) fn set_fabric(&mut self, info: import::FabricInfo) {
        self.fabric = Some(std::sync::Arc::new(info));
    }
    pub(crate) fn set_host_positions(&mut self, pos: Vec<[f32; 2]>) {
        debug_assert_eq!(pos.len(), self.hosts.len());
        self.host_pos = pos;
    }
    /// Drawing coordinates of switches (arbitrary units; views scale them).
    pub fn switch_positions(&self) -> &[[f32; 2]] {
        &self.switch_pos
    }
    /// Drawing coordinates of hosts.
    pub fn host_positions(&self) -> &[[f32; 2]] {
        &self.host_pos
    }
    /// The switch graph (nodes are switch ids, edges carry channel ids).
    pub fn graph(&self) -> &DiGraph<SwitchId, ChannelId> {
        &self.graph
    }
    /// Node index of a switch in [`Network::graph`] (identical numbering).
    pub fn node(&self, switch: SwitchId) -> NodeIndex {
        NodeIndex::new(switch as usize)
    }
    /// Human-readable name of a channel's end, e.g. `s3.p1` or `h7`.
    pub fn endpoint_name(e: Endpoint) -> String {
        match e {
            Endpoint::Switch { switch, port } => format!("s{switch}.p{port}"),
            Endpoint::Host { host } => format!("h{host}"),
        }
    }
    /// `s0.p0->s1.p1` style label of a channel.
    pub fn channel_name(&self, id: ChannelId) -> String {
        let c = self.channel(id);
        format!(
            "{}->{}",
            Self::endpoint_name(c.src),
            Self::endpoint_name(c.dst)
        )
    }
}
