//! A toy oblivious routing defined once, here, and nowhere in the crate:
//! its law ([`ObliviousLaw`]) and a registry entry ([`RoutingKind`]) built
//! from the crate's generic [`ObliviousSpec`]. Through the same generic
//! path the registry uses (`parse`, then [`RoutingBuild::law`] and
//! [`RoutingBuild::build`]), the exact analysis computes its channel loads
//! and worst case, and the simulator runs it, drawing from the same law.
//!
//! The toy, "plus way": in every dimension the packet goes the + way round
//! (one phase, dimensions in order 0, 1, ..), whatever the distance. On a
//! ring of k nodes (Singh's thesis §3.1's setting) the loads follow by
//! hand:
//! - uniform (the analysis's, λ = 1/k including s = d): a source sends
//!   1/k to each offset δ = 0..k-1, δ hops each, so it injects
//!   Σδ/k = (k-1)/2 channel crossings per cycle; all of them are + channels
//!   and by symmetry each + channel carries (k-1)/2 (7/2 on k = 8), each
//!   - channel 0. Capacity Θ = 8/k = 1, so the ideal throughput is 2/7.
//! - tornado (δ = ⌈k/2⌉ - 1 = 3 on k = 8): 3 hops each, every + channel
//!   carries 3: ideal 1/3.
//! - worst case: channel (0 → 1) is crossed by s → d exactly when the +
//!   walk from s passes node 0 before d; the permutation s → s - 1
//!   (s = 2..7) and 0 → 7 makes all 8 sources but s = 1 cross it, and no
//!   permutation can make s = 1 cross it (it would have to come back to
//!   itself): max load 7, ideal 1/7.

use num_rational::Ratio;
use routelab::analysis::{
    ChannelWeights, Cube, Law, MatrixSpec, TrafficMatrix, channel_loads, worst_case,
};
use routelab::rng::{Stream, stream};
use routelab::routing::registry::{Family, RoutingKind};
use routelab::routing::{DimOrder, DimStep, Dir, ObliviousLaw, ObliviousSpec, one_phase};
use routelab::sim::{MeasureConfig, RouterConfig, Simulation, SwitchModelKind, TrafficConfig};
use routelab::topology::Network;
use routelab::traffic::{Pattern, PatternSpec, Process};
use std::sync::Arc;

/// The toy's law: the + direction in every dimension that moves.
#[derive(Debug)]
struct PlusWay;

impl ObliviousLaw for PlusWay {
    fn spec(&self) -> String {
        "plusway".into()
    }
    fn dim_steps(&self, _k: u32, _wrap: bool, _side: Dir, a: u32, b: u32) -> Vec<DimStep> {
        let dir = (a != b).then_some(Dir::Plus);
        one_phase(a, &[(dir, Ratio::from_integer(1))])
    }
    fn phase_orders(&self) -> (DimOrder, DimOrder) {
        (DimOrder::Xy, DimOrder::Xy)
    }
    fn two_phase(&self) -> bool {
        false
    }
    fn torus_only(&self) -> Option<&'static str> {
        Some("always goes the + way round, which only a torus has")
    }
}

/// What the toy's line in the registry would be.
const TOY: RoutingKind = RoutingKind {
    name: "plusway",
    aliases: &[],
    options: "",
    summary: "toy: always the + way round",
    families: &[Family::Oblivious],
    parse: |_| {
        Ok(Box::new(ObliviousSpec {
            law: Law::new(PlusWay),
        }))
    },
    examples: &["plusway"],
};

/// The toy's law, the way the analysis gets a registered routing's.
fn toy_law() -> Law {
    (TOY.parse)(&[])
        .unwrap()
        .law()
        .expect("the entry hands out its law")
}

fn q(a: i128, b: i128) -> Ratio<i128> {
    Ratio::new(a, b)
}

fn loads(cube: &Cube, traffic: &str) -> routelab::analysis::ChannelLoads {
    let w = ChannelWeights::new(cube, toy_law()).unwrap();
    let spec: MatrixSpec = traffic.parse().unwrap();
    let m = TrafficMatrix::build(&spec, cube.network(), 1).unwrap();
    channel_loads(&w, &m).unwrap()
}

#[test]
fn the_analysis_gives_the_hand_derived_ring_loads() {
    let cube = Cube::from_spec("torus:8").unwrap();
    assert_eq!(toy_law().to_string(), "plusway");
    let uniform = loads(&cube, "uniform");
    for node in 0..8 {
        assert_eq!(uniform.load(cube.channel(node, 0, Dir::Plus)), q(7, 2));
        assert_eq!(uniform.load(cube.channel(node, 0, Dir::Minus)), q(0, 1));
    }
    assert_eq!(uniform.ideal_throughput(), Some(q(2, 7)));
    assert_eq!(uniform.avg_hops(), q(7, 2));
    let tornado = loads(&cube, "tornado");
    assert_eq!(tornado.max_channel_load(), q(3, 1));
    assert_eq!(tornado.ideal_throughput(), Some(q(1, 3)));
    let w = ChannelWeights::new(&cube, toy_law()).unwrap();
    let wc = worst_case(&w).unwrap();
    assert_eq!(wc.max_channel_load, q(7, 1));
    assert_eq!(wc.ideal_throughput, q(1, 7));
}

#[test]
fn on_two_dimensions_each_ring_carries_its_own_share() {
    // torus:4x4, uniform: in each dimension a packet moves δ_j = 0..3 with
    // probability 1/4 each, Σδ/4 = 3/2 crossings per source and dimension,
    // spread evenly over the 16 + channels of that dimension: 3/2 each.
    let cube = Cube::from_spec("torus:4x4").unwrap();
    let l = loads(&cube, "uniform");
    for node in 0..16 {
        for dim in 0..2 {
            assert_eq!(l.load(cube.channel(node, dim, Dir::Plus)), q(3, 2));
            assert_eq!(l.load(cube.channel(node, dim, Dir::Minus)), q(0, 1));
        }
    }
}

#[test]
fn a_mesh_is_refused_with_the_laws_reason() {
    let mesh = Cube::from_spec("mesh:4x4").unwrap();
    let e = ChannelWeights::new(&mesh, toy_law())
        .unwrap_err()
        .to_string();
    assert!(e.contains("plusway") && e.contains("+ way round"), "{e}");
    // The registry entry says the same to the simulator.
    let net = Network::from_spec("mesh:4x4").unwrap();
    let e = (TOY.parse)(&[]).unwrap().applies_to(&net).unwrap_err();
    assert!(e.contains("+ way round"), "{e}");
}

/// The simulator runs the same law (drawn by the generic
/// `ObliviousLaw::draw_dim`), and its channel utilization approaches
/// L·γ_c: every + channel busy, no - channel ever used.
#[test]
fn the_simulator_runs_the_toy_with_the_analysed_loads() {
    let net = Arc::new(Network::from_spec("torus:8").unwrap());
    let build = (TOY.parse)(&[]).unwrap();
    build.applies_to(&net).unwrap();
    let vcs = build.min_vcs(&net).max(1);
    assert_eq!(vcs, 2, "one dateline class pair on a ring");
    let routing = build.build(&net, vcs).unwrap();
    let mut rng = stream(1, Stream::Pattern);
    let pattern = Pattern::build(&PatternSpec::named("tornado"), &net, &mut rng).unwrap();
    let load = 0.2;
    let mut sim = Simulation::new(
        net.clone(),
        SwitchModelKind::INPUT_QUEUED,
        routing,
        TrafficConfig {
            pattern,
            process: Process::Bernoulli,
            load,
        },
        RouterConfig {
            vcs,
            ..RouterConfig::default()
        },
        MeasureConfig::default(),
        3,
    )
    .unwrap();
    sim.run_for(20_000).unwrap();
    let got = sim.channel_utilization();
    let cube = Cube::from_network(&net).unwrap();
    let want = loads(&cube, "tornado");
    for ch in 0..cube.num_channel_slots() as u32 {
        let id = cube.network_channel(ch).unwrap() as usize;
        let exact = want.load(ch);
        let expected = load * *exact.numer() as f64 / *exact.denom() as f64;
        if expected == 0.0 {
            assert_eq!(got[id], 0.0, "channel {ch} is a - channel");
        } else {
            assert!(
                (got[id] - expected).abs() < 0.05,
                "channel {ch}: expected {expected}, simulated {}",
                got[id]
            );
        }
    }
}
