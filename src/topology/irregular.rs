//! Random irregular switch networks as in the up*/down* papers (Villalobos et
//! al. §4; Koibuchi et al. §4): N switches with P ports each, H of them to
//! hosts and P-H to other switches; no self-links, no parallel links,
//! connected.
//!
//! Generator (documented because it fixes which network a seed means): a
//! `Pcg64Mcg` seeded with the spec's seed draws a random stub matching. Each
//! switch owns P-H stubs; repeatedly the lowest-numbered switch with a free
//! stub is paired with a switch drawn uniformly among those with a free stub
//! that are neither itself nor already linked to it. If no partner is left the
//! whole matching is redrawn (up to 1000 times), and so is a matching whose
//! graph is not connected. Every switch therefore uses all P-H network ports
//! (N·(P-H) must be even and P-H < N).

use super::kind::{TopologyBuild, TopologyKind, TopologyParam};
use super::spec_parts::{invalid, option_error, options_and_size, parse_u32};
use super::{Network, NetworkBuilder, Shape, TopologyError};
use crate::limits::{self, NetworkSize};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

pub(super) fn build(
    spec: String,
    n: u32,
    ports: u32,
    hosts: u32,
    seed: u64,
) -> Result<Network, TopologyError> {
    let d = (ports - hosts) as usize;
    let n = n as usize;
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _attempt in 0..1000 {
        if let Some(links) = draw(n, d, &mut rng)
            && connected(n, &links)
        {
            let mut b = NetworkBuilder::new(n);
            for &(a, c) in &links {
                b.link(a as u32, c as u32);
            }
            b.hosts_per_switch(hosts as usize);
            return Ok(b.finish(spec, Shape::Irregular, Vec::new()));
        }
    }
    Err(TopologyError::Invalid {
        spec,
        problem: "could not draw a connected simple network in 1000 tries".into(),
        accepted: "a larger switch count or more network ports per switch".into(),
    })
}

fn draw(n: usize, d: usize, rng: &mut Pcg64Mcg) -> Option<Vec<(usize, usize)>> {
    let mut free = vec![d; n];
    let mut adj = vec![vec![false; n]; n];
    let mut links = Vec::with_capacity(n * d / 2);
    let mut candidates = Vec::with_capacity(n);
    for a in 0..n {
        while free[a] > 0 {
            candidates.clear();
            candidates.extend((0..n).filter(|&b| b != a && free[b] > 0 && !adj[a][b]));
            if candidates.is_empty() {
                return None;
            }
            let b = candidates[rng.random_range(0..candidates.len() as u32) as usize];
            free[a] -= 1;
            free[b] -= 1;
            adj[a][b] = true;
            adj[b][a] = true;
            links.push((a.min(b), a.max(b)));
        }
    }
    Some(links)
}

fn connected(n: usize, links: &[(usize, usize)]) -> bool {
    let mut g = petgraph::graph::UnGraph::<(), ()>::new_undirected();
    for _ in 0..n {
        g.add_node(());
    }
    for &(a, b) in links {
        g.add_edge(
            petgraph::graph::NodeIndex::new(a),
            petgraph::graph::NodeIndex::new(b),
            (),
        );
    }
    petgraph::algo::connected_components(&g) == 1
}

/// up*/down*, then the path-selection algorithms on its legal paths
/// (Villalobos §3; Koibuchi §3): the contrasts of every network without a
/// regular structure (irregular, read from a file or a fabric).
pub const IRREGULAR_CONTRASTS: &[&str] = &[
    "updown",
    "paths:updown-bfs:lowport",
    "paths:updown-dfs:maxcp",
    "paths:udwm:lvcf",
    "paths:updown-bfs:sa:budget=2000",
    "paths:updown-dfs:ga:budget=5",
];

/// `irregular:N`: a seeded random irregular switch network (Villalobos
/// §4; Koibuchi §4).
pub const KIND: TopologyKind = TopologyKind {
    name: "irregular",
    aliases: &[],
    form: "irregular:N[:ports=P][:hosts=H][:seed=S] (N 2..=2048, P<=255)",
    summary: "seeded random irregular switch network (Villalobos §4; Koibuchi §4)",
    params: &[
        TopologyParam {
            key: "N",
            accepted: "2..=2048",
            default: "",
            meaning: "switches",
        },
        TopologyParam {
            key: "ports",
            accepted: "1..=255, more than hosts",
            default: "8",
            meaning: "ports per switch",
        },
        TopologyParam {
            key: "hosts",
            accepted: "fewer than ports",
            default: "4",
            meaning: "hosts per switch",
        },
        TopologyParam {
            key: "seed",
            accepted: "a whole number",
            default: "1",
            meaning: "which random network",
        },
    ],
    example: "irregular:16:seed=3",
    from_file: false,
    contrasts: IRREGULAR_CONTRASTS,
    parse: parse_irregular,
};

fn parse_irregular(spec: &str) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    let (opts, size) = options_and_size(spec, &["ports", "hosts", "seed"])?;
    let opt = option_error(spec);
    let n = parse_u32(spec, "switch count", size)?;
    let ports = opts
        .u32("ports", 1..=limits::MAX_PORTS as u32)
        .map_err(&opt)?
        .unwrap_or(8);
    let hosts = opts.u32("hosts", 0..=u32::MAX).map_err(&opt)?.unwrap_or(4);
    if !(2..=limits::MAX_IRREGULAR_SWITCHES).contains(&(n as u64)) {
        return Err(invalid(
            spec,
            format!(
                "{n} switches; accepted 2..={}",
                limits::MAX_IRREGULAR_SWITCHES
            ),
        ));
    }
    if hosts >= ports {
        return Err(invalid(
            spec,
            format!("ports={ports} hosts={hosts}; need hosts < ports <= 255"),
        ));
    }
    let d = ports - hosts;
    if d >= n {
        return Err(invalid(
            spec,
            format!("{d} switch ports per switch need more than {n} switches"),
        ));
    }
    if (n as u64 * d as u64) % 2 == 1 {
        return Err(invalid(
            spec,
            format!("switches x (ports - hosts) = {n} x {d} must be even"),
        ));
    }
    let seed = opts.u64("seed", 0..=u64::MAX).map_err(&opt)?.unwrap_or(1);
    Ok(Box::new(IrregularSpec {
        n,
        ports,
        hosts,
        seed,
    }))
}

/// A parsed `irregular:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct IrregularSpec {
    n: u32,
    ports: u32,
    hosts: u32,
    seed: u64,
}

impl TopologyBuild for IrregularSpec {
    fn canonical(&self) -> String {
        format!(
            "irregular:{}:ports={}:hosts={}:seed={}",
            self.n, self.ports, self.hosts, self.seed
        )
    }
    fn size(&self) -> Option<NetworkSize> {
        let n = self.n as u64;
        let links_per = (self.ports as u64).saturating_sub(self.hosts as u64);
        Some(NetworkSize {
            switches: n,
            hosts: n.saturating_mul(self.hosts as u64),
            network_channels: n.saturating_mul(links_per),
            max_ports: self.ports as u64,
        })
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        build(spec, self.n, self.ports, self.hosts, self.seed)
    }
}
