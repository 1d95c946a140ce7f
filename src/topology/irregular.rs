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

use super::{Network, NetworkBuilder, Shape, TopologyError};
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
