//! The simulator's oblivious routings draw exactly what the analysis says:
//! the same set of paths for every pair, and (statistically) the same
//! channel loads under the simulator's uniform traffic.

use routelab::analysis::{ChannelWeights, Cube, Law, MatrixSpec, TrafficMatrix, channel_loads};
use routelab::rng::{Stream, stream};
use routelab::routing::{
    BufferView, Candidates, Hop, Oblivious, PacketInfo, RouteState, Routing, RoutingSpec, classes,
    walk,
};
use routelab::topology::cube::Geometry;
use routelab::topology::{Network, Peer, PortId};
use std::collections::BTreeSet;

/// The simulated oblivious routings, each drawing from its registry
/// law ([`routelab::routing::ObliviousLaw::draw_dim`]) and checked against
/// the analysis's exact law of the same spec.
const LAWS: &[&str] = &["rdor", "val", "romm", "romm:order=random", "rlb", "rlbth"];

struct Idle;
impl BufferView for Idle {
    fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
        1
    }
}

/// The network channels a route state takes from `s` to `d`.
fn follow(net: &Network, r: &mut Oblivious, s: u32, d: u32, mut st: RouteState) -> Vec<u32> {
    let pkt = PacketInfo {
        src_host: s,
        dst_host: d,
        src_switch: s,
        dst_switch: d,
        flits: 1,
    };
    let mut rng = stream(0, Stream::Routing);
    let (mut at, mut in_port) = (s, net.host(s).port);
    let mut path = Vec::new();
    while !(at == d && r.may_eject(at, &st)) {
        let mut out = Candidates::default();
        r.route(
            Hop {
                at,
                in_port,
                in_vc: 0,
                now: 0,
                pkt: &pkt,
                state: &mut st,
                view: &Idle,
                rng: &mut rng,
            },
            &mut out,
        );
        let c = out.as_slice()[0];
        let p = net.port(at, c.port);
        path.push(p.out_channel.unwrap());
        let Peer::Switch { switch, port } = p.peer else {
            panic!("dead end")
        };
        at = switch;
        in_port = port;
        assert!(path.len() < 64, "loop");
    }
    path
}

/// Every plan the routing can draw walks a path of the analysis's support,
/// and every path of the support is walked by some plan.
#[test]
fn the_routings_paths_are_the_analysis_paths() {
    for topo in ["torus:4x3", "torus:5", "mesh:3x4"] {
        let net = Network::from_spec(topo).unwrap();
        let cube = Cube::from_network(&net).unwrap();
        let Some(g) = Geometry::of(net.shape()) else {
            unreachable!()
        };
        for &name in LAWS {
            let law: Law = name.parse().unwrap();
            if !g.wrap() && law.torus_only().is_some() {
                continue;
            }
            let vcs = classes(&*law, g.dims(), g.wrap()) as u8;
            let mut r = Oblivious::new(law.clone(), g.clone(), vcs);
            let analysis = law;
            for s in 0..net.num_switches() as u32 {
                for d in 0..net.num_switches() as u32 {
                    if s == d {
                        continue;
                    }
                    let expected: BTreeSet<Vec<u32>> = analysis
                        .paths(&cube, s, d)
                        .unwrap()
                        .into_iter()
                        .map(|(_, p)| {
                            p.iter()
                                .map(|&c| cube.network_channel(c).unwrap())
                                .collect()
                        })
                        .collect();
                    let walked: BTreeSet<Vec<u32>> = r
                        .plans(s, d)
                        .into_iter()
                        .map(|p| {
                            let st = r.state_for(p);
                            follow(&net, &mut r, s, d, st)
                        })
                        .collect();
                    assert_eq!(walked, expected, "{name} on {topo}: {s} -> {d}");
                }
            }
        }
    }
}

/// The routings' random draws load the channels as the analysis says
/// (the simulator's uniform traffic; 400 routes per pair).
#[test]
fn sampled_channel_loads_match_the_analysis() {
    for topo in ["torus:4x4", "torus:5x3"] {
        let net = Network::from_spec(topo).unwrap();
        let cube = Cube::from_network(&net).unwrap();
        let matrix =
            TrafficMatrix::build(&"uniform-other".parse::<MatrixSpec>().unwrap(), &net, 1).unwrap();
        let n = net.num_switches() as u32;
        for &name in LAWS {
            let analysis: Law = name.parse().unwrap();
            let weights = ChannelWeights::new(&cube, analysis).unwrap();
            let loads = channel_loads(&weights, &matrix).unwrap();
            let spec: RoutingSpec = name.parse().unwrap();
            let mut r = spec.build(&net, spec.min_vcs(&net)).unwrap();
            let mut rng = stream(11, Stream::Routing);
            let samples = 400u32;
            let mut count = vec![0u64; net.num_channels()];
            for s in 0..n {
                for d in 0..n {
                    if s == d {
                        continue;
                    }
                    for _ in 0..samples {
                        for step in walk(&net, r.as_mut(), s, d, 0, &mut rng).unwrap() {
                            let ch = net.port(step.at, step.taken.port).out_channel.unwrap();
                            count[ch as usize] += 1;
                        }
                    }
                }
            }
            let scale = 1.0 / ((n - 1) as f64 * samples as f64);
            let mut worst = 0.0f64;
            for ch in 0..cube.num_channel_slots() as u32 {
                let Some(id) = cube.network_channel(ch) else {
                    continue;
                };
                let exact = loads.load(ch);
                let exact = *exact.numer() as f64 / *exact.denom() as f64;
                let sampled = count[id as usize] as f64 * scale;
                worst = worst.max((sampled - exact).abs() / exact.max(0.05));
            }
            assert!(
                worst < 0.05,
                "{name} on {topo}: worst relative error {worst:.4}"
            );
        }
    }
}
