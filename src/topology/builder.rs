//! Assembles a [`Network`] from links and hosts, numbering channels stably.

use super::{
    Channel, ChannelKind, Endpoint, Host, HostId, Network, Peer, Port, PortId, Shape, SwitchId,
    layout,
};
use petgraph::graph::DiGraph;

/// Collects switches, links and hosts; [`NetworkBuilder::finish`] numbers the
/// channels (network channels in link order, then injection, then ejection).
#[derive(Debug)]
pub struct NetworkBuilder {
    ports: Vec<Vec<Peer>>,
    links: Vec<(SwitchId, PortId, SwitchId, PortId)>,
    hosts: Vec<Host>,
}

impl NetworkBuilder {
    /// `switches` switches with no ports yet.
    pub fn new(switches: usize) -> Self {
        NetworkBuilder {
            ports: vec![Vec::new(); switches],
            links: Vec::new(),
            hosts: Vec::new(),
        }
    }

    fn set_port(&mut self, s: SwitchId, p: PortId, peer: Peer) {
        let v = &mut self.ports[s as usize];
        if v.len() <= p as usize {
            v.resize(p as usize + 1, Peer::Unconnected);
        }
        debug_assert_eq!(v[p as usize], Peer::Unconnected, "port wired twice");
        v[p as usize] = peer;
    }

    /// Reserve ports `0..n` of a switch (left unconnected until wired).
    pub fn reserve_ports(&mut self, s: SwitchId, n: usize) {
        let v = &mut self.ports[s as usize];
        if v.len() < n {
            v.resize(n, Peer::Unconnected);
        }
    }

    /// Link switch `a` port `pa` with switch `b` port `pb` (two channels).
    pub fn link_ports(&mut self, a: SwitchId, pa: PortId, b: SwitchId, pb: PortId) {
        self.set_port(
            a,
            pa,
            Peer::Switch {
                switch: b,
                port: pb,
            },
        );
        self.set_port(
            b,
            pb,
            Peer::Switch {
                switch: a,
                port: pa,
            },
        );
        self.links.push((a, pa, b, pb));
    }

    /// Next free port of a switch (first unconnected, else a new one).
    pub fn next_port(&self, s: SwitchId) -> PortId {
        let v = &self.ports[s as usize];
        v.iter()
            .position(|p| *p == Peer::Unconnected)
            .unwrap_or(v.len()) as PortId
    }

    /// Link two switches on their next free ports.
    pub fn link(&mut self, a: SwitchId, b: SwitchId) {
        debug_assert_ne!(a, b, "self-link");
        let pa = self.next_port(a);
        let pb = self.next_port(b);
        self.link_ports(a, pa, b, pb);
    }

    /// Attach a new host on a new port after all of the switch's existing
    /// ports (reserved or wired); returns its id.
    pub fn add_host(&mut self, s: SwitchId) -> HostId {
        let id = self.hosts.len() as HostId;
        let p = self.ports[s as usize].len() as PortId;
        self.set_port(s, p, Peer::Host { host: id });
        self.hosts.push(Host { switch: s, port: p });
        id
    }

    /// Attach a new host on a given port (reserved or new, not yet wired);
    /// returns its id. Imported fabrics keep the file's port numbers.
    pub fn add_host_at(&mut self, s: SwitchId, p: PortId) -> HostId {
        let id = self.hosts.len() as HostId;
        self.set_port(s, p, Peer::Host { host: id });
        self.hosts.push(Host { switch: s, port: p });
        id
    }

    /// Attach `n` hosts to every switch, switch-major (host `s·n + i`).
    pub fn hosts_per_switch(&mut self, n: usize) {
        for s in 0..self.ports.len() as SwitchId {
            for _ in 0..n {
                self.add_host(s);
            }
        }
    }

    /// Number the channels and produce the network. `switch_pos` may be empty,
    /// in which case a force-directed layout is computed.
    pub fn finish(self, spec: String, shape: Shape, switch_pos: Vec<[f32; 2]>) -> Network {
        let n = self.ports.len();
        let mut switches: Vec<Vec<Port>> = self
            .ports
            .iter()
            .map(|v| {
                v.iter()
                    .map(|&peer| Port {
                        peer,
                        out_channel: None,
                        in_channel: None,
                    })
                    .collect()
            })
            .collect();
        let mut channels = Vec::with_capacity(2 * self.links.len() + 2 * self.hosts.len());
        let mut graph = DiGraph::with_capacity(n, 2 * self.links.len());
        for s in 0..n {
            graph.add_node(s as SwitchId);
        }
        for &(a, pa, b, pb) in &self.links {
            for (x, px, y, py) in [(a, pa, b, pb), (b, pb, a, pa)] {
                let id = channels.len() as u32;
                channels.push(Channel {
                    id,
                    src: Endpoint::Switch {
                        switch: x,
                        port: px,
                    },
                    dst: Endpoint::Switch {
                        switch: y,
                        port: py,
                    },
                    kind: ChannelKind::Network,
                });
                switches[x as usize][px as usize].out_channel = Some(id);
                switches[y as usize][py as usize].in_channel = Some(id);
                graph.add_edge(
                    petgraph::graph::NodeIndex::new(x as usize),
                    petgraph::graph::NodeIndex::new(y as usize),
                    id,
                );
            }
        }
        let num_network_channels = channels.len() as u32;
        for (h, host) in self.hosts.iter().enumerate() {
            let id = channels.len() as u32;
            channels.push(Channel {
                id,
                src: Endpoint::Host { host: h as HostId },
                dst: Endpoint::Switch {
                    switch: host.switch,
                    port: host.port,
                },
                kind: ChannelKind::Injection,
            });
            switches[host.switch as usize][host.port as usize].in_channel = Some(id);
        }
        for (h, host) in self.hosts.iter().enumerate() {
            let id = channels.len() as u32;
            channels.push(Channel {
                id,
                src: Endpoint::Switch {
                    switch: host.switch,
                    port: host.port,
                },
                dst: Endpoint::Host { host: h as HostId },
                kind: ChannelKind::Ejection,
            });
            switches[host.switch as usize][host.port as usize].out_channel = Some(id);
        }
        let switch_pos = if switch_pos.len() == n {
            switch_pos
        } else {
            layout::force_directed(n, &self.links, 0x5eed)
        };
        let host_pos = layout::host_positions(&switch_pos, &self.hosts, &switches);
        Network {
            spec,
            shape,
            switches,
            hosts: self.hosts,
            channels,
            num_network_channels,
            switch_pos,
            host_pos,
            graph,
            switch_params: None,
            fabric: None,
        }
    }
}
