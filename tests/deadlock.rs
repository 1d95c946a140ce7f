//! Deadlock freedom, proven rather than hoped for: the channel-dependency
//! graph of every registered routing, over every source, destination and
//! random choice, with the virtual channels the routing really uses, is
//! acyclic, on the networks it applies to, with the fewest VCs it accepts
//! and with more. A routing joins this test by being registered
//! (`routing::registry::KINDS`) with example specs.

use routelab::analysis::dependency_graph;
use routelab::routing::registry::KINDS;
use routelab::routing::{Candidates, Hop, PacketInfo, RouteState, Routing, RoutingSpec};
use routelab::topology::Network;

const NETWORKS: &[&str] = &[
    "torus:4x4",
    "torus:3x3x3",
    "torus:5",
    "mesh:4x4",
    "mesh:3x3x2",
    "hypercube:4",
    "midimew:16",
    "fattree:4",
    "irregular:16:seed=1",
    // Dragonflies (issue 67): balanced, unbalanced, fewer groups (several
    // links between some pairs, an unconnected port), every arrangement.
    "dragonfly:p=2",
    "dragonfly:p=1:a=3:h=1",
    "dragonfly:p=1:a=2:h=2:g=3",
    "dragonfly:p=1:a=3:h=1:g=3",
    "dragonfly:p=2:a=4:h=2:g=6:arrangement=palmtree",
    "dragonfly:p=1:a=4:h=1:g=4:arrangement=random:seed=7",
    // Fabrics read from files (issue 26): parallel cables, uneven hosts.
    "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
    "ibnetdiscover:assets/fabrics/irregular-9-ibnetdiscover.txt",
];

#[test]
fn every_registered_routing_has_an_acyclic_dependency_graph() {
    let mut checked = 0;
    for kind in KINDS {
        for example in kind.examples {
            let spec: RoutingSpec = example.parse().unwrap();
            // The fat-tree balancers run only on the time-slice model, which
            // has no virtual channels or credits to wait on (and is refused
            // on the cycle-level switches this graph is about).
            if spec.time_slice_only() {
                continue;
            }
            for topo in NETWORKS {
                let net = Network::from_spec(topo).unwrap();
                if spec.applies_to(&net).is_err() {
                    continue;
                }
                let min = spec.min_vcs(&net);
                for vcs in [min, (min + 2).min(16)] {
                    if vcs < min {
                        continue;
                    }
                    let mut r = spec.build(&net, vcs).unwrap();
                    let g = dependency_graph(&net, r.as_mut())
                        .unwrap_or_else(|e| panic!("{example} on {topo}: {e}"));
                    if let Some(cycle) = g.find_cycle() {
                        let named: Vec<String> = cycle
                            .iter()
                            .map(|&(c, v)| format!("{} vc{v}", net.channel_name(c)))
                            .collect();
                        panic!(
                            "{example} on {topo} with {vcs} VCs can deadlock: {}",
                            named.join(" -> ")
                        );
                    }
                    assert!(g.routes > 0, "{example} on {topo}: nothing walked");
                    checked += 1;
                }
            }
        }
    }
    // Every oblivious routing on both tori, and every family somewhere.
    assert!(checked >= 40, "only {checked} cases");
}

/// The check can fail: a ring routing that goes + on one VC with no
/// dateline has a cyclic graph.
struct NoDateline;
impl Routing for NoDateline {
    fn name(&self) -> String {
        "no-dateline".into()
    }
    fn route(&mut self, _hop: Hop<'_>, out: &mut Candidates) {
        out.push(0, 0, 0);
    }
    fn source_states(&self, _pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(vec![RouteState::default()])
    }
}

#[test]
fn a_ring_without_a_dateline_is_caught() {
    let net = Network::from_spec("torus:5").unwrap();
    let g = dependency_graph(&net, &mut NoDateline).unwrap();
    let cycle = g.find_cycle().expect("a cycle");
    assert_eq!(cycle.len(), 5, "{cycle:?}");
}

/// Too few VCs for a routing is refused with the minimum named.
#[test]
fn too_few_vcs_name_the_minimum() {
    let net = Network::from_spec("torus:4x4").unwrap();
    for (spec, min) in [
        ("dor", 2),
        ("rdor", 4),
        ("romm", 4),
        ("romm:order=random", 8),
        ("val", 8),
        ("rlb", 8),
        ("rlbth", 8),
    ] {
        let s: RoutingSpec = spec.parse().unwrap();
        assert_eq!(s.min_vcs(&net), min, "{spec}");
        let e = s.build(&net, min - 1).err().unwrap().to_string();
        assert!(
            e.contains(&format!("at least {min} virtual channels")),
            "{e}"
        );
    }
    let net3 = Network::from_spec("torus:3x3x3").unwrap();
    assert_eq!("rlb".parse::<RoutingSpec>().unwrap().min_vcs(&net3), 12);
    let mesh = Network::from_spec("mesh:4x4").unwrap();
    assert_eq!("val".parse::<RoutingSpec>().unwrap().min_vcs(&mesh), 4);
    let e = "rlb"
        .parse::<RoutingSpec>()
        .unwrap()
        .build(&mesh, 8)
        .err()
        .unwrap();
    assert!(e.to_string().contains("torus"), "{e}");
}
