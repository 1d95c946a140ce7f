//! Fabrics read from other tools' files: InfiniBand `ibnetdiscover` output
//! (`ibnetdiscover:PATH`), ibsim's network files (`ibsim:PATH`, the format
//! of its `net-examples`) and BookSim2's `anynet` files (`anynet:PATH`).
//!
//! Each format has its own parser ([`ibnetdiscover`], [`ibsim`],
//! [`anynet`]); every parser produces the same neutral description (nodes,
//! and cable listings that name their far end), and [`assemble`] turns it
//! into a [`Network`] through [`NetworkBuilder`], so the checks that matter
//! to an administrator live in one place:
//!
//! - a node referenced but never defined, a port listed twice, a cable whose
//!   two ends disagree, a cable on a port the node does not have, an adapter
//!   cabled to an adapter, and (ibnetdiscover, which lists every cable from
//!   both ends) a cable listed from one end only, each refused with the
//!   line and what was expected;
//! - a fabric whose switches are not connected is refused (line 0);
//! - the size limits of [`crate::limits`] apply: at most
//!   [`MAX_IRREGULAR_SWITCHES`] switches, [`MAX_PORTS`] ports per switch,
//!   [`MAX_FILE_LINKS`] cables, [`crate::limits::MAX_FILE_BYTES`] bytes of file, and the
//!   host and channel limits of every network.
//!
//! Nothing is half-built: the network exists only once every check passed.
//!
//! The network it builds:
//! - switches (and InfiniBand routers, `Rt`, treated as switches) in the
//!   file's order; switch port index `i` is the file's port `i + port_base`
//!   ([`FabricInfo::port_base`]: 1 for the InfiniBand formats, whose port 0
//!   is a switch's management port, 0 for anynet). A switch keeps every port
//!   its record declares; ports without a cable stay unconnected.
//! - one host per cabled adapter port (an adapter with two cabled ports is
//!   two hosts), numbered switch by switch in port order (anynet: by node
//!   id, as BookSim numbers them), so hosts per switch vary as in the file.
//! - one link per cable: parallel cables between the same two switches are
//!   distinct links, ports and channels. Links are numbered in the order of
//!   their lower end (switch, then port), whichever record listed them, so
//!   the same fabric written in two formats gives the same channel ids.
//! - [`Shape::Irregular`]: every routing for irregular networks applies
//!   (up*/down*, the `paths:` selections).
//! - drawing coordinates by levels (`topology::layout::by_levels`).
//!
//! What a user recognises (descriptions, GUIDs, LIDs, file port numbers,
//! link width and speed) is kept as [`FabricInfo`] on the network
//! ([`Network::fabric`]). The simulator's channels all have the same
//! bandwidth: a cable's width and speed are shown (and its bandwidth
//! relative to the fastest cable), not simulated.

pub mod anynet;
pub mod ibnetdiscover;
pub mod ibsim;

pub use super::layout::levels;
use super::{HostId, Network, NetworkBuilder, PortId, Shape, SwitchId, TopologyError, layout};
use crate::limits::{MAX_FILE_LINKS, MAX_IRREGULAR_SWITCHES, MAX_PORTS, NetworkSize};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The file formats a fabric can be read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FabricFormat {
    /// `ibnetdiscover` output (infiniband-diags).
    IbNetDiscover,
    /// ibsim's network file (ibnetdiscover's records plus ibsim's `Hca`
    /// nodes, `w=`/`s=`/`e=` port options and cables listed once).
    IbSim,
    /// BookSim2's `anynet` network file.
    AnyNet,
}

impl FabricFormat {
    /// Every format, in the order the spec parser tries them.
    pub const ALL: [FabricFormat; 3] = [
        FabricFormat::IbNetDiscover,
        FabricFormat::IbSim,
        FabricFormat::AnyNet,
    ];

    /// The spec prefix (`ibnetdiscover`, `ibsim`, `anynet`).
    pub fn name(self) -> &'static str {
        match self {
            FabricFormat::IbNetDiscover => "ibnetdiscover",
            FabricFormat::IbSim => "ibsim",
            FabricFormat::AnyNet => "anynet",
        }
    }

    /// The format of a spec prefix.
    pub fn from_name(name: &str) -> Option<FabricFormat> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for FabricFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a node of the file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A switch (`Switch`, anynet `router`).
    Switch,
    /// An InfiniBand router (`Rt`), treated as a switch.
    Router,
    /// A host adapter (`Ca`, ibsim `Hca`, anynet `node`).
    Adapter,
}

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
        if let (
            super::Endpoint::Switch { switch: a, .. },
            super::Endpoint::Switch { switch: b, .. },
        ) = (pair[0].src, pair[0].dst)
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

/// The example fabrics shipped in `assets/fabrics/`, compiled in so that
/// presets open them in the browser and from any working directory.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        include_str!("../../../assets/fabrics/fattree-4x2-ibnetdiscover.txt"),
    ),
    (
        "assets/fabrics/fattree-4x2.ibsim",
        include_str!("../../../assets/fabrics/fattree-4x2.ibsim"),
    ),
    (
        "assets/fabrics/fattree-4x2.anynet",
        include_str!("../../../assets/fabrics/fattree-4x2.anynet"),
    ),
    (
        "assets/fabrics/irregular-9-ibnetdiscover.txt",
        include_str!("../../../assets/fabrics/irregular-9-ibnetdiscover.txt"),
    ),
];

/// The text of a bundled example, by its path under the crate
/// (`assets/fabrics/NAME`, with or without a leading `./`).
pub fn bundled(path: &str) -> Option<&'static str> {
    let path = path.strip_prefix("./").unwrap_or(path);
    BUNDLED.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// Read a fabric file (at most [`crate::limits::MAX_FILE_BYTES`]); a bundled example's
/// path that cannot be read (the browser, another working directory) gives
/// the compiled-in copy.
pub fn read(path: &str) -> Result<String, TopologyError> {
    let file_error = |problem: String| TopologyError::File {
        path: path.to_string(),
        line: 0,
        problem,
    };
    #[cfg(target_arch = "wasm32")]
    {
        bundled(path).map(str::to_string).ok_or_else(|| {
            file_error("the browser cannot read files; only the bundled examples open".into())
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use crate::limits::MAX_FILE_BYTES;
        use std::io::Read;
        let mut text = String::new();
        match std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
        {
            Ok(_) => {}
            Err(e) => {
                return bundled(path)
                    .map(str::to_string)
                    .ok_or_else(|| file_error(e.to_string()));
            }
        }
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(file_error(format!(
                "larger than {MAX_FILE_BYTES} bytes ({}); at most that",
                crate::limits::human_bytes(MAX_FILE_BYTES)
            )));
        }
        Ok(text)
    }
}

/// Parse `text` in `format`; `spec` is the network's spec string and `path`
/// names the file in errors.
pub fn parse(
    format: FabricFormat,
    spec: String,
    path: &str,
    text: &str,
) -> Result<Network, TopologyError> {
    let raw = match format {
        FabricFormat::IbNetDiscover => ibnetdiscover::parse(path, text)?,
        FabricFormat::IbSim => ibsim::parse(path, text)?,
        FabricFormat::AnyNet => anynet::parse(path, text)?,
    };
    assemble(spec, path, format, raw)
}

// ---------------------------------------------------------------------------
// The neutral description the parsers produce.

/// A node record.
#[derive(Clone, Debug)]
pub struct RawNode {
    /// Node id as written (unique).
    pub name: String,
    pub kind: NodeKind,
    pub description: Option<String>,
    pub guid: Option<u64>,
    pub lid: Option<u32>,
    /// Declared ports: indices `0..ports` (file ports `port_base..`).
    pub ports: u16,
    /// Explicit host number (anynet node id); hosts are numbered by it when
    /// every adapter has one.
    pub host_rank: Option<u64>,
    pub line: usize,
}

/// One port line: a cable as seen from one of its ends.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Index of the node whose record holds the line.
    pub from: usize,
    /// Port index (file port minus `port_base`).
    pub from_port: u16,
    /// Far end's node id as written.
    pub to: String,
    /// Far end's port index.
    pub to_port: u16,
    /// Width and speed as written (`4xEDR`).
    pub link: Option<String>,
    pub gbps: Option<f64>,
    pub latency: Option<u32>,
    /// GUID and LID of the local port, if the line gives them (adapters).
    pub local_guid: Option<u64>,
    pub local_lid: Option<u32>,
    /// GUID and LID of the far port, if the line gives them.
    pub remote_guid: Option<u64>,
    pub remote_lid: Option<u32>,
    pub line: usize,
}

impl Listing {
    /// A listing with no metadata.
    pub fn new(from: usize, from_port: u16, to: String, to_port: u16, line: usize) -> Listing {
        Listing {
            from,
            from_port,
            to,
            to_port,
            link: None,
            gbps: None,
            latency: None,
            local_guid: None,
            local_lid: None,
            remote_guid: None,
            remote_lid: None,
            line,
        }
    }
}

/// A parsed file, before any check across records.
#[derive(Clone, Debug, Default)]
pub struct RawFabric {
    pub nodes: Vec<RawNode>,
    pub listings: Vec<Listing>,
    /// Every cable must be listed from both ends (ibnetdiscover).
    pub both_ends: bool,
    pub port_base: u16,
    /// Lines in the file (for "truncated" messages).
    pub lines: usize,
}

/// `0x` and 16 hex digits.
fn guid_text(g: u64) -> String {
    format!("0x{g:016x}")
}

/// Per-lane data rate in Gb/s of an InfiniBand speed name.
pub fn lane_gbps(speed: &str) -> Option<f64> {
    Some(match speed.to_ascii_uppercase().as_str() {
        "SDR" => 2.5,
        "DDR" => 5.0,
        "QDR" | "FDR10" => 10.0,
        "FDR" => 14.0,
        "EDR" => 25.0,
        "HDR" => 50.0,
        "NDR" => 100.0,
        "XDR" => 200.0,
        _ => return None,
    })
}

/// `4xEDR` → (`4xEDR`, 100 Gb/s); `None` for anything else.
pub fn parse_width_speed(word: &str) -> Option<(String, f64)> {
    let (lanes, speed) = word.split_once(['x', 'X'])?;
    let lanes: u32 = lanes.parse().ok()?;
    if !matches!(lanes, 1 | 2 | 4 | 8 | 12) {
        return None;
    }
    let rate = lane_gbps(speed)?;
    Some((word.to_string(), lanes as f64 * rate))
}

/// A node (index into [`RawFabric::nodes`]) and one of its port indices.
type NodePort = (usize, u16);

/// A host: (rank key, switch, switch port, adapter node, adapter port,
/// listing).
type HostEnd = ((u64, u64), SwitchId, PortId, usize, u16, usize);

/// Check the description across records and build the network.
pub fn assemble(
    spec: String,
    path: &str,
    format: FabricFormat,
    raw: RawFabric,
) -> Result<Network, TopologyError> {
    let bad = |line: usize, problem: String| TopologyError::File {
        path: path.to_string(),
        line,
        problem,
    };
    let RawFabric {
        nodes,
        listings,
        both_ends,
        port_base,
        lines,
    } = raw;
    let by_name: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    let show = |node: usize, port: u16| {
        format!(
            "\"{}\"[{}]",
            nodes[node].name,
            port as u32 + port_base as u32
        )
    };

    // Each listed port: (far end, listing index, listed from this end?).
    struct End {
        peer: (usize, u16),
        listing: usize,
        from_here: bool,
    }
    let mut ends: HashMap<(usize, u16), End> = HashMap::new();
    // Cables in listing order: (a end, b end, first listing).
    let mut cables: Vec<(NodePort, NodePort, usize)> = Vec::new();
    let mut confirmed: Vec<bool> = Vec::new();
    let mut cable_of: HashMap<(usize, u16), usize> = HashMap::new();
    for (li, l) in listings.iter().enumerate() {
        let Some(&to) = by_name.get(l.to.as_str()) else {
            return Err(bad(
                l.line,
                format!(
                    "node \"{}\" is referenced but never defined; expected a record for it \
                     (a `Switch`/`Ca` header, or an anynet line) — is the file truncated?",
                    l.to
                ),
            ));
        };
        let here = (l.from, l.from_port);
        let there = (to, l.to_port);
        if here == there {
            return Err(bad(
                l.line,
                format!("{} is cabled to itself", show(here.0, here.1)),
            ));
        }
        if l.to_port >= nodes[to].ports {
            return Err(bad(
                l.line,
                format!(
                    "{} names port {} of \"{}\", whose record (line {}) declares ports {}..={}",
                    show(here.0, here.1),
                    l.to_port as u32 + port_base as u32,
                    nodes[to].name,
                    nodes[to].line,
                    port_base,
                    nodes[to].ports as u32 + port_base as u32 - 1
                ),
            ));
        }
        if nodes[l.from].kind == NodeKind::Adapter && nodes[to].kind == NodeKind::Adapter {
            return Err(bad(
                l.line,
                format!(
                    "adapter {} is cabled to adapter {}; routelab attaches hosts to switches \
                     (expected a switch at one end)",
                    show(here.0, here.1),
                    show(there.0, there.1)
                ),
            ));
        }
        if let Some(e) = ends.get(&here) {
            if e.from_here {
                return Err(bad(
                    l.line,
                    format!(
                        "port {} is listed twice (first at line {}); expected each port once per record",
                        show(here.0, here.1),
                        listings[e.listing].line
                    ),
                ));
            }
            if e.peer != there {
                let first = &listings[e.listing];
                return Err(bad(
                    l.line,
                    format!(
                        "the two ends of a cable disagree: this line says {} - {}, line {} says {} - {}",
                        show(here.0, here.1),
                        show(there.0, there.1),
                        first.line,
                        show(e.peer.0, e.peer.1),
                        show(here.0, here.1)
                    ),
                ));
            }
            // The far end listed this cable first: now confirmed.
            let c = cable_of[&here];
            confirmed[c] = true;
            if let Some(e) = ends.get_mut(&here) {
                e.from_here = true;
            }
            continue;
        }
        if let Some(e) = ends.get(&there) {
            // The far port is already cabled, but not to this port (else
            // `here` would be known).
            let first = &listings[e.listing];
            return Err(bad(
                l.line,
                format!(
                    "the two ends of a cable disagree: this line says {} - {}, line {} says {} - {}",
                    show(here.0, here.1),
                    show(there.0, there.1),
                    first.line,
                    show(there.0, there.1),
                    show(e.peer.0, e.peer.1)
                ),
            ));
        }
        ends.insert(
            here,
            End {
                peer: there,
                listing: li,
                from_here: true,
            },
        );
        ends.insert(
            there,
            End {
                peer: here,
                listing: li,
                from_here: false,
            },
        );
        cable_of.insert(here, cables.len());
        cable_of.insert(there, cables.len());
        cables.push((here, there, li));
        confirmed.push(false);
        if cables.len() as u64 > MAX_FILE_LINKS {
            return Err(bad(
                l.line,
                format!("more than {MAX_FILE_LINKS} cables; at most that"),
            ));
        }
    }
    if both_ends && let Some(c) = confirmed.iter().position(|&c| !c) {
        let (here, there, li) = cables[c];
        return Err(bad(
            listings[li].line,
            format!(
                "cable {} - {} is listed only from this end; ibnetdiscover lists every cable \
                 from both ends, so the record of \"{}\" (line {}) should have port {} — \
                 is the file truncated?",
                show(here.0, here.1),
                show(there.0, there.1),
                nodes[there.0].name,
                nodes[there.0].line,
                there.1 as u32 + port_base as u32
            ),
        ));
    }

    // Switches in file order.
    let mut switch_of: Vec<Option<SwitchId>> = vec![None; nodes.len()];
    let mut switch_nodes: Vec<usize> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if n.kind != NodeKind::Adapter {
            switch_of[i] = Some(switch_nodes.len() as SwitchId);
            switch_nodes.push(i);
        }
    }
    if switch_nodes.is_empty() {
        return Err(bad(
            lines,
            "no switch record; expected at least one `Switch` (anynet: `router`)".into(),
        ));
    }
    if switch_nodes.len() as u64 > MAX_IRREGULAR_SWITCHES {
        return Err(bad(
            nodes[switch_nodes[MAX_IRREGULAR_SWITCHES as usize]].line,
            format!(
                "more than {MAX_IRREGULAR_SWITCHES} switches; at most {MAX_IRREGULAR_SWITCHES} \
                 (the size limit of irregular networks)"
            ),
        ));
    }
    if let Some(&i) = switch_nodes
        .iter()
        .find(|&&i| nodes[i].ports as u64 > MAX_PORTS)
    {
        return Err(bad(
            nodes[i].line,
            format!(
                "switch \"{}\" has {} ports; at most {MAX_PORTS} ports per switch",
                nodes[i].name, nodes[i].ports
            ),
        ));
    }

    // Links (switch to switch) and hosts (adapter port to switch port).
    let mut links: Vec<(SwitchId, PortId, SwitchId, PortId, usize)> = Vec::new();
    let mut host_ends: Vec<HostEnd> = Vec::new();
    for &(x, y, li) in &cables {
        match (switch_of[x.0], switch_of[y.0]) {
            (Some(a), Some(b)) => {
                let (a, pa, b, pb) = if (a, x.1) <= (b, y.1) {
                    (a, x.1, b, y.1)
                } else {
                    (b, y.1, a, x.1)
                };
                links.push((a, pa, b, pb, li));
            }
            (Some(s), None) | (None, Some(s)) => {
                let (sw_end, ad_end) = if switch_of[x.0].is_some() {
                    (x, y)
                } else {
                    (y, x)
                };
                let key = match nodes[ad_end.0].host_rank {
                    Some(r) => (r, 0),
                    None => ((s as u64) << 16 | sw_end.1 as u64, 0),
                };
                host_ends.push((key, s, sw_end.1, ad_end.0, ad_end.1, li));
            }
            (None, None) => unreachable!("adapter-to-adapter cables are refused above"),
        }
    }
    links.sort_by_key(|&(a, pa, _, _, _)| (a, pa));
    // Explicit ranks only when every adapter has one.
    if host_ends.iter().any(|h| nodes[h.3].host_rank.is_none()) {
        for h in &mut host_ends {
            h.0 = ((h.1 as u64) << 16 | h.2 as u64, 0);
        }
    }
    host_ends.sort_by_key(|h| h.0);
    if let Some(w) = host_ends.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(bad(
            listings[w[1].5].line,
            format!(
                "node {} is attached twice; expected one router per node",
                w[1].0.0
            ),
        ));
    }

    let size = NetworkSize {
        switches: switch_nodes.len() as u64,
        hosts: host_ends.len() as u64,
        network_channels: 2 * links.len() as u64,
        max_ports: switch_nodes
            .iter()
            .map(|&i| nodes[i].ports as u64)
            .max()
            .unwrap_or(0),
    };
    let problems = size.problems();
    if !problems.is_empty() {
        return Err(bad(0, problems.join("; ")));
    }

    let n = switch_nodes.len();
    let mut b = NetworkBuilder::new(n);
    for (s, &i) in switch_nodes.iter().enumerate() {
        b.reserve_ports(s as SwitchId, nodes[i].ports as usize);
    }
    for &(a, pa, c, pc, _) in &links {
        b.link_ports(a, pa, c, pc);
    }
    for h in &host_ends {
        b.add_host_at(h.1, h.2);
    }
    let has_hosts: Vec<bool> = {
        let mut v = vec![false; n];
        for h in &host_ends {
            v[h.1 as usize] = true;
        }
        v
    };
    let plain_links: Vec<(SwitchId, PortId, SwitchId, PortId)> = links
        .iter()
        .map(|&(a, pa, c, pc, _)| (a, pa, c, pc))
        .collect();
    let switch_pos = layout::by_levels(n, &plain_links, &has_hosts);
    let mut net = b.finish(spec, Shape::Irregular, switch_pos);
    if net.num_switches() > 1 && !super::metrics::is_connected(&net) {
        let d = super::metrics::bfs_distances(&net, 0);
        let far = d.iter().position(|&x| x == u32::MAX).unwrap_or(0);
        return Err(bad(
            0,
            format!(
                "the fabric is not connected: switch \"{}\" (line {}) cannot reach switch \"{}\" \
                 (line {}); expected every switch to reach every other",
                nodes[switch_nodes[0]].name,
                nodes[switch_nodes[0]].line,
                nodes[switch_nodes[far]].name,
                nodes[switch_nodes[far]].line
            ),
        ));
    }
    net.set_host_positions(layout::hosts_in_rows(
        net.switch_positions(),
        net.hosts(),
        n,
    ));

    // Metadata.
    let mut port_meta: HashMap<(usize, u16), (Option<u64>, Option<u32>)> = HashMap::new();
    for l in &listings {
        let e = port_meta.entry((l.from, l.from_port)).or_default();
        e.0 = e.0.or(l.local_guid);
        e.1 = e.1.or(l.local_lid);
        if let Some(&to) = by_name.get(l.to.as_str()) {
            let e = port_meta.entry((to, l.to_port)).or_default();
            e.0 = e.0.or(l.remote_guid);
            e.1 = e.1.or(l.remote_lid);
        }
    }
    let fastest = links
        .iter()
        .filter_map(|l| listings[l.4].gbps)
        .fold(0.0f64, f64::max);
    let switches = switch_nodes
        .iter()
        .map(|&i| {
            let nd = &nodes[i];
            SwitchInfo {
                name: nd.name.clone(),
                kind: nd.kind,
                description: nd.description.clone(),
                guid: nd.guid.map(guid_text),
                lid: nd.lid,
                ports: nd.ports,
                line: nd.line,
            }
        })
        .collect();
    let hosts = host_ends
        .iter()
        .map(|&(_, _, _, ad, ap, li)| {
            let nd = &nodes[ad];
            let (pg, lid) = port_meta.get(&(ad, ap)).copied().unwrap_or_default();
            HostInfo {
                adapter: nd.name.clone(),
                description: nd.description.clone(),
                guid: nd.guid.map(guid_text),
                adapter_port: (ap as u32 + port_base as u32) as u16,
                port_guid: pg.map(guid_text),
                lid: lid.or(nd.lid),
                link: listings[li].link.clone(),
            }
        })
        .collect();
    let cables = links
        .iter()
        .map(|&(a, pa, c, pc, li)| {
            let l = &listings[li];
            CableInfo {
                a,
                a_port: (pa as u32 + port_base as u32) as u16,
                b: c,
                b_port: (pc as u32 + port_base as u32) as u16,
                link: l.link.clone(),
                gbps: l.gbps,
                relative_bandwidth: match l.gbps {
                    Some(g) if fastest > 0.0 => g / fastest,
                    _ => 1.0,
                },
                latency: l.latency,
                line: l.line,
            }
        })
        .collect();
    let cabled: std::collections::HashSet<usize> = host_ends.iter().map(|h| h.3).collect();
    let uncabled_adapters = nodes
        .iter()
        .enumerate()
        .filter(|(i, nd)| nd.kind == NodeKind::Adapter && !cabled.contains(i))
        .count();
    net.set_fabric(FabricInfo {
        format: format.name(),
        path: path.to_string(),
        port_base,
        switches,
        hosts,
        cables,
        uncabled_adapters,
    });
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_and_speed() {
        assert_eq!(parse_width_speed("4xEDR"), Some(("4xEDR".into(), 100.0)));
        assert_eq!(parse_width_speed("1xSDR"), Some(("1xSDR".into(), 2.5)));
        assert_eq!(parse_width_speed("12xQDR"), Some(("12xQDR".into(), 120.0)));
        assert_eq!(parse_width_speed("3xEDR"), None);
        assert_eq!(parse_width_speed("4xFOO"), None);
        assert_eq!(parse_width_speed("lid"), None);
    }

    #[test]
    fn bundled_examples_are_found() {
        for (p, _) in BUNDLED {
            assert!(bundled(p).is_some());
            assert!(bundled(&format!("./{p}")).is_some());
        }
        assert!(bundled("assets/fabrics/none").is_none());
    }
}
