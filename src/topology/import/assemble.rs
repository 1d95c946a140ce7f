//! The checks across records and the network they build (the list is in
//! the [module's documentation](super)): nothing is built until every check
//! has passed.

use super::format::FabricFormat;
use super::info::{CableInfo, FabricInfo, HostInfo, SwitchInfo};
use super::raw::{NodeKind, RawFabric};
use crate::limits::{MAX_FILE_LINKS, MAX_IRREGULAR_SWITCHES, MAX_PORTS, NetworkSize};
use crate::topology::{
    Network, NetworkBuilder, PortId, Shape, SwitchId, TopologyError, layout, metrics,
};
use std::collections::HashMap;

/// `0x` and 16 hex digits.
fn guid_text(g: u64) -> String {
    format!("0x{g:016x}")
}

/// A node (index into [`RawFabric::nodes`]) and one of its port indices.
type NodePort = (usize, u16);

/// A host: (rank key, switch, switch port, adapter node, adapter port,
/// listing).
type HostEnd = ((u64, u64), SwitchId, PortId, usize, u16, usize);

/// A cable in listing order: its two ends and its first listing.
type Cable = (NodePort, NodePort, usize);

/// A link between two switches: (switch, port, switch, port, listing),
/// its lower end first.
type Link = (SwitchId, PortId, SwitchId, PortId, usize);

/// What every check reads: the file's path, its nodes and listings, its
/// port numbering, the nodes by name.
struct Records<'a> {
    path: &'a str,
    nodes: &'a [super::raw::RawNode],
    listings: &'a [super::raw::Listing],
    port_base: u16,
    by_name: HashMap<&'a str, usize>,
}

impl Records<'_> {
    /// The error at `line` of the file.
    fn bad(&self, line: usize, problem: String) -> TopologyError {
        TopologyError::File {
            path: self.path.to_string(),
            line,
            problem,
        }
    }

    /// A port as the file numbers it: `"name"[port]`.
    fn show(&self, (node, port): NodePort) -> String {
        format!(
            "\"{}\"[{}]",
            self.nodes[node].name,
            port as u32 + self.port_base as u32
        )
    }

    /// Line `line` says `here - there`, line `first` said `a - b`.
    fn disagree(
        &self,
        line: usize,
        (here, there): (NodePort, NodePort),
        first: usize,
        (a, b): (NodePort, NodePort),
    ) -> TopologyError {
        self.bad(
            line,
            format!(
                "the two ends of a cable disagree: this line says {} - {}, line {first} says {} - {}",
                self.show(here),
                self.show(there),
                self.show(a),
                self.show(b)
            ),
        )
    }

    /// The listings paired into cables: every port cabled once, both ends
    /// agreeing, no port to itself or out of its record's range, no
    /// adapter to adapter, and (ibnetdiscover, `both_ends`) every cable
    /// listed from both ends.
    fn cables(&self, both_ends: bool) -> Result<Vec<Cable>, TopologyError> {
        let (nodes, listings) = (self.nodes, self.listings);
        let port_base = self.port_base;
        // Each listed port: (far end, listing index, listed from this end?).
        struct End {
            peer: (usize, u16),
            listing: usize,
            from_here: bool,
        }
        let mut ends: HashMap<(usize, u16), End> = HashMap::new();
        let mut cables: Vec<Cable> = Vec::new();
        let mut confirmed: Vec<bool> = Vec::new();
        let mut cable_of: HashMap<(usize, u16), usize> = HashMap::new();
        for (li, l) in listings.iter().enumerate() {
            let Some(&to) = self.by_name.get(l.to.as_str()) else {
                return Err(self.bad(
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
                return Err(self.bad(l.line, format!("{} is cabled to itself", self.show(here))));
            }
            if l.to_port >= nodes[to].ports {
                return Err(self.bad(
                    l.line,
                    format!(
                        "{} names port {} of \"{}\", whose record (line {}) declares ports {}..={}",
                        self.show(here),
                        l.to_port as u32 + port_base as u32,
                        nodes[to].name,
                        nodes[to].line,
                        port_base,
                        nodes[to].ports as u32 + port_base as u32 - 1
                    ),
                ));
            }
            if nodes[l.from].kind == NodeKind::Adapter && nodes[to].kind == NodeKind::Adapter {
                return Err(self.bad(
                    l.line,
                    format!(
                        "adapter {} is cabled to adapter {}; routelab attaches hosts to switches \
                         (expected a switch at one end)",
                        self.show(here),
                        self.show(there)
                    ),
                ));
            }
            if let Some(e) = ends.get(&here) {
                if e.from_here {
                    return Err(self.bad(
                        l.line,
                        format!(
                            "port {} is listed twice (first at line {}); expected each port once per record",
                            self.show(here),
                            listings[e.listing].line
                        ),
                    ));
                }
                if e.peer != there {
                    return Err(self.disagree(
                        l.line,
                        (here, there),
                        listings[e.listing].line,
                        (e.peer, here),
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
                return Err(self.disagree(
                    l.line,
                    (here, there),
                    listings[e.listing].line,
                    (there, e.peer),
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
                return Err(self.bad(
                    l.line,
                    format!("more than {MAX_FILE_LINKS} cables; at most that"),
                ));
            }
        }
        if both_ends && let Some(c) = confirmed.iter().position(|&c| !c) {
            let (here, there, li) = cables[c];
            return Err(self.bad(
                listings[li].line,
                format!(
                    "cable {} - {} is listed only from this end; ibnetdiscover lists every cable \
                     from both ends, so the record of \"{}\" (line {}) should have port {} — \
                     is the file truncated?",
                    self.show(here),
                    self.show(there),
                    nodes[there.0].name,
                    nodes[there.0].line,
                    there.1 as u32 + port_base as u32
                ),
            ));
        }
        Ok(cables)
    }

    /// The switches in file order: each node's switch (none for an
    /// adapter) and each switch's node; at least one, within the size and
    /// port limits. `lines`: the file's length, for "no switch".
    fn switches(&self, lines: usize) -> Result<(Vec<Option<SwitchId>>, Vec<usize>), TopologyError> {
        let nodes = self.nodes;
        let mut switch_of: Vec<Option<SwitchId>> = vec![None; nodes.len()];
        let mut switch_nodes: Vec<usize> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            if n.kind != NodeKind::Adapter {
                switch_of[i] = Some(switch_nodes.len() as SwitchId);
                switch_nodes.push(i);
            }
        }
        if switch_nodes.is_empty() {
            return Err(self.bad(
                lines,
                "no switch record; expected at least one `Switch` (anynet: `router`)".into(),
            ));
        }
        if switch_nodes.len() as u64 > MAX_IRREGULAR_SWITCHES {
            return Err(self.bad(
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
            return Err(self.bad(
                nodes[i].line,
                format!(
                    "switch \"{}\" has {} ports; at most {MAX_PORTS} ports per switch",
                    nodes[i].name, nodes[i].ports
                ),
            ));
        }
        Ok((switch_of, switch_nodes))
    }

    /// The cables as links (switch to switch, sorted by their lower end)
    /// and hosts (adapter port to switch port, by explicit rank when every
    /// adapter has one, else by switch and port); a node attached twice is
    /// refused.
    fn links_and_hosts(
        &self,
        cables: &[Cable],
        switch_of: &[Option<SwitchId>],
    ) -> Result<(Vec<Link>, Vec<HostEnd>), TopologyError> {
        let nodes = self.nodes;
        let mut links: Vec<Link> = Vec::new();
        let mut host_ends: Vec<HostEnd> = Vec::new();
        for &(x, y, li) in cables {
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
            return Err(self.bad(
                self.listings[w[1].5].line,
                format!(
                    "node {} is attached twice; expected one router per node",
                    w[1].0.0
                ),
            ));
        }
        Ok((links, host_ends))
    }

    /// The network of those switches, links and hosts, laid out by levels;
    /// refused when over the size limits or not connected.
    fn network(
        &self,
        spec: String,
        switch_nodes: &[usize],
        links: &[Link],
        host_ends: &[HostEnd],
    ) -> Result<Network, TopologyError> {
        let nodes = self.nodes;
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
            return Err(self.bad(0, problems.join("; ")));
        }
        let n = switch_nodes.len();
        let mut b = NetworkBuilder::new(n);
        for (s, &i) in switch_nodes.iter().enumerate() {
            b.reserve_ports(s as SwitchId, nodes[i].ports as usize);
        }
        for &(a, pa, c, pc, _) in links {
            b.link_ports(a, pa, c, pc);
        }
        for h in host_ends {
            b.add_host_at(h.1, h.2);
        }
        let has_hosts: Vec<bool> = {
            let mut v = vec![false; n];
            for h in host_ends {
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
        if net.num_switches() > 1 && !metrics::is_connected(&net) {
            let d = metrics::bfs_distances(&net, 0);
            let far = d.iter().position(|&x| x == u32::MAX).unwrap_or(0);
            return Err(self.bad(
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
        Ok(net)
    }

    /// What the file says of the switches, hosts and cables (names, GUIDs,
    /// LIDs, link widths and speeds, each cable's bandwidth relative to the
    /// fastest), kept with the network for the app and `topo`.
    fn fabric_info(
        &self,
        format: FabricFormat,
        switch_nodes: &[usize],
        links: &[Link],
        host_ends: &[HostEnd],
    ) -> FabricInfo {
        let (nodes, listings, port_base) = (self.nodes, self.listings, self.port_base);
        let mut port_meta: HashMap<(usize, u16), (Option<u64>, Option<u32>)> = HashMap::new();
        for l in listings {
            let e = port_meta.entry((l.from, l.from_port)).or_default();
            e.0 = e.0.or(l.local_guid);
            e.1 = e.1.or(l.local_lid);
            if let Some(&to) = self.by_name.get(l.to.as_str()) {
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
        FabricInfo {
            format: format.name(),
            path: self.path.to_string(),
            port_base,
            switches,
            hosts,
            cables,
            uncabled_adapters,
        }
    }
}

/// Check the description across records and build the network: the
/// cables paired from their listings, the switches numbered in file
/// order, links and hosts, the network, then what the file says of it.
pub fn assemble(
    spec: String,
    path: &str,
    format: FabricFormat,
    raw: RawFabric,
) -> Result<Network, TopologyError> {
    let RawFabric {
        nodes,
        listings,
        both_ends,
        port_base,
        lines,
    } = raw;
    let records = Records {
        path,
        nodes: &nodes,
        listings: &listings,
        port_base,
        by_name: nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect(),
    };
    let cables = records.cables(both_ends)?;
    let (switch_of, switch_nodes) = records.switches(lines)?;
    let (links, host_ends) = records.links_and_hosts(&cables, &switch_of)?;
    let mut net = records.network(spec, &switch_nodes, &links, &host_ends)?;
    net.set_fabric(records.fabric_info(format, &switch_nodes, &links, &host_ends));
    Ok(net)
}
