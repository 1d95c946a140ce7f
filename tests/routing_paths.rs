//! Walk every routing function over every source-destination pair: each
//! route reaches its destination in the number of hops the topology says.

use routelab::rng::{Stream, stream};
use routelab::routing::{BufferView, Candidates, PacketInfo, RouteState, RoutingSpec};
use routelab::topology::{Network, Peer, PortId, all_pairs};

struct Empty;
impl BufferView for Empty {
    fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
        1
    }
}

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
            let info = PacketInfo {
                src_host,
                dst_host,
                src_switch: a,
                dst_switch: b,
                flits: 1,
            };
            let mut st = RouteState::default();
            r.at_source(&info, &mut st, &mut rng);
            let (mut at, mut in_port) = (a, net.host(src_host).port);
            let mut h = 0;
            while at != b {
                let mut c = Candidates::default();
                r.route(at, in_port, &info, &mut st, &Empty, &mut rng, &mut c);
                let first = c.as_slice().first().copied().expect("no candidate");
                assert!(first.vc_hi < vcs && first.vc_lo <= first.vc_hi);
                match net.port(at, first.port).peer {
                    Peer::Switch { switch, port } => {
                        at = switch;
                        in_port = port;
                    }
                    other => panic!("{a}->{b}: port {} leads to {other:?}", first.port),
                }
                h += 1;
                assert!(h <= 4 * n, "{a}->{b} loops");
            }
            hops.push(h);
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
    let mut r = RoutingSpec::DModK.build(&net, 1).unwrap();
    let mut rng = stream(1, Stream::Routing);
    for dst in 4..8u32 {
        let info = PacketInfo {
            src_host: 0,
            dst_host: dst,
            src_switch: 0,
            dst_switch: net.host(dst).switch,
            flits: 1,
        };
        let mut c = Candidates::default();
        r.route(
            0,
            2,
            &info,
            &mut RouteState::default(),
            &Empty,
            &mut rng,
            &mut c,
        );
        assert_eq!(c.as_slice()[0].port as u32, dst % 2);
    }
}
