//! Walk every routing function over every source-destination pair: each
//! route reaches its destination in the number of hops the topology says.

use routelab::rng::{Stream, stream};
use routelab::routing::{RoutingSpec, walk as walk_route};
use routelab::topology::{Network, all_pairs};

/// Hop counts of the routes between switches with hosts (row-major),
/// following the first candidate; panics on loops or dead ends.
fn walk(net: &Network, routing: &RoutingSpec, vcs: u8) -> Vec<u32> {
    let mut r = routing.build(net, vcs).unwrap();
    let mut rng = stream(7, Stream::Routing);
    let n = net.num_switches() as u32;
    let mut hops = Vec::new();
    let with_hosts: Vec<u32> = (0..n)
        .filter(|&s| net.hosts_of(s).next().is_some())
        .collect();
    for &a in &with_hosts {
        for &b in &with_hosts {
            let src_host = net.hosts_of(a).next().unwrap();
            let dst_host = net.hosts_of(b).next().unwrap();
            let steps = walk_route(net, r.as_mut(), src_host, dst_host, 0, &mut rng)
                .unwrap_or_else(|e| panic!("{a}->{b}: {e}"));
            for s in &steps {
                assert!(s.taken.vc_hi < vcs && s.taken.vc_lo <= s.taken.vc_hi);
            }
            hops.push(steps.len() as u32);
        }
    }
    hops
}

/// BFS distances between switches with hosts, in the order `walk` uses.
fn host_distances(net: &Network) -> Vec<u32> {
    let n = net.num_switches();
    let d = all_pairs(net);
    let with_hosts: Vec<usize> = (0..n)
        .filter(|&s| net.hosts_of(s as u32).next().is_some())
        .collect();
    let mut out = Vec::new();
    for &a in &with_hosts {
        for &b in &with_hosts {
            out.push(d[a * n + b]);
        }
    }
    out
}

fn check_minimal(spec: &str, routing: &str, vcs: u8) {
    let net = Network::from_spec(spec).unwrap();
    let hops = walk(&net, &routing.parse().unwrap(), vcs);
    assert_eq!(
        hops,
        host_distances(&net),
        "{spec} {routing} is not minimal"
    );
}

#[test]
fn dor_is_minimal_on_tori_and_meshes() {
    check_minimal("torus:8x8", "dor", 2);
    check_minimal("torus:5x3", "dor", 2);
    check_minimal("torus:4x4x4", "dor:tie=parity", 2);
    check_minimal("torus:6x6", "dor:tie=random", 4);
    check_minimal("mesh:4x5", "dor", 1);
    check_minimal("mesh:3x3x3", "dor", 1);
}

#[test]
fn ecube_midimew_and_dmodk_are_minimal() {
    check_minimal("hypercube:6", "dor", 1);
    check_minimal("midimew:64", "dor", 2);
    check_minimal("midimew:37", "dor", 2);
    check_minimal("fattree:4", "dmodk", 1);
    check_minimal("fattree:6", "minimal", 2);
}

#[test]
fn updown_is_minimal_on_a_fat_tree_and_connected_elsewhere() {
    // On a fat tree every shortest path is up then down.
    check_minimal("fattree:4", "updown", 1);
    for spec in ["irregular:16:seed=3", "irregular:32:seed=1", "torus:4x4"] {
        let net = Network::from_spec(spec).unwrap();
        let hops = walk(&net, &"updown".parse().unwrap(), 1);
        let dist = host_distances(&net);
        assert!(hops.iter().zip(&dist).all(|(h, d)| h >= d));
    }
}

#[test]
fn dmodk_spreads_destinations_over_uplinks() {
    // On fattree:4 the two hosts of an access switch go up to different
    // aggregates: destination h takes uplink h mod 2.
    let net = Network::from_spec("fattree:4").unwrap();
    let spec: RoutingSpec = "dmodk".parse().unwrap();
    let mut r = spec.build(&net, 1).unwrap();
    let mut rng = stream(1, Stream::Routing);
    for dst in 4..8u32 {
        let steps = walk_route(&net, r.as_mut(), 0, dst, 0, &mut rng).unwrap();
        assert_eq!(steps[0].at, 0);
        assert_eq!(steps[0].taken.port as u32, dst % 2);
    }
}
