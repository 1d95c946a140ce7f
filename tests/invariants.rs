//! Invariants on random scenarios: nothing lost or duplicated, credits never
//! negative, buffers never over capacity; a deadlock becomes an error that
//! names the blocked channels; runs are deterministic.

use rand::{Rng, SeedableRng};
use routelab::rng::SimRng;
use routelab::routing::{Candidates, Hop, Routing, Selection};
use routelab::scenario::Scenario;
use routelab::sim::{
    MeasureConfig, RouterConfig, SimError, Simulation, SwitchModelKind, Switching, TrafficConfig,
};
use routelab::topology::Network;
use routelab::traffic::{Pattern, PatternSpec, Process};
use std::sync::Arc;

fn random_scenario(rng: &mut SimRng) -> Scenario {
    let topologies = [
        ("torus:4x4", "minimal"),
        ("torus:5", "dor:tie=random"),
        ("torus:4x4", "dor:tie=parity"),
        ("mesh:3x4", "minimal"),
        ("hypercube:3", "minimal"),
        ("midimew:13", "minimal"),
        ("fattree:4", "minimal"),
        ("fattree:4", "updown"),
        ("irregular:8:seed=2", "updown"),
        ("irregular:12:ports=6:hosts=2:seed=5", "updown:root=3"),
        ("torus:4x4", "updown"),
        ("torus:4x4", "rlb"),
        ("torus:5", "rdor"),
        ("torus:3x3x3", "val"),
        ("mesh:4x4", "romm:order=random"),
        ("torus:4x4", "rlbth"),
    ];
    let patterns = [
        "uniform",
        "randperm",
        "hotspot:fraction=0.3:nodes=1,2",
        "nn",
        "tornado",
    ];
    let (topology, routing) = topologies[rng.random_range(0..topologies.len())];
    let switching = [
        Switching::Wormhole,
        Switching::VirtualCutThrough,
        Switching::StoreAndForward,
    ][rng.random_range(0..3)];
    let packet_flits = rng.random_range(1..=5u16);
    let buffer_flits = if switching == Switching::Wormhole {
        rng.random_range(1..=6u16)
    } else {
        packet_flits + rng.random_range(0..3u16)
    };
    // At least the routing's minimum of VCs.
    let net = Network::from_spec(topology).unwrap();
    let min = routing
        .parse::<routelab::routing::RoutingSpec>()
        .unwrap()
        .min_vcs(&net);
    let vcs = rng.random_range(2..=4u8).max(min);
    let switch_model = if rng.random_bool(0.25) {
        SwitchModelKind::OUTPUT_QUEUED
    } else {
        SwitchModelKind::INPUT_QUEUED
    };
    Scenario {
        topology: topology.into(),
        routing: routing.into(),
        switch_model,
        traffic: patterns[rng.random_range(0..patterns.len())].into(),
        process: if rng.random_bool(0.5) {
            Process::Bernoulli
        } else {
            Process::Exponential
        },
        load: rng.random_range(0.05..1.0),
        packet_flits,
        switching,
        vcs,
        buffer_flits,
        link_latency: rng.random_range(1..=3u16),
        switch_delay: rng.random_range(1..=2u16),
        selection: [Selection::Fixed, Selection::FirstFree, Selection::Adaptive]
            [rng.random_range(0..3)],
        warmup: 100,
        cycles: 1500,
        seed: rng.random(),
        ..Scenario::default()
    }
}

#[test]
fn random_scenarios_conserve_flits_and_credits() {
    let mut rng = SimRng::seed_from_u64(2026);
    for round in 0..40 {
        let s = random_scenario(&mut rng);
        let mut sim = s
            .build()
            .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
        for _ in 0..(s.warmup + s.cycles) / 50 {
            sim.run_for(50)
                .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
            sim.check_invariants()
                .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
        }
        sim.set_load(0.0);
        let drained = sim
            .run_until(
                |x| x.in_flight_packets() == 0 && x.queued_packets() == 0,
                500_000,
            )
            .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
        assert!(drained, "round {round}: {s:?} did not drain");
        sim.check_invariants().unwrap();
        assert_eq!(sim.in_flight_flits(), 0);
    }
}

/// A ring routing that always goes + on every virtual channel: no dateline,
/// so wormhole packets can wait on each other in a cycle.
struct NoDateline;
impl Routing for NoDateline {
    fn name(&self) -> String {
        "no-dateline".into()
    }
    fn route(&mut self, _hop: Hop<'_>, out: &mut Candidates) {
        out.push(0, 0, 0);
    }
}

#[test]
fn watchdog_reports_a_deadlock_with_its_channels() {
    let net = Arc::new(Network::from_spec("torus:6").unwrap());
    let mut prng = routelab::rng::stream(1, routelab::rng::Stream::Pattern);
    let pattern = Pattern::build(&PatternSpec::named("tornado"), &net, &mut prng).unwrap();
    let router = RouterConfig {
        packet_flits: 8,
        buffer_flits: 2,
        vcs: 1,
        ..RouterConfig::default()
    };
    let measure = MeasureConfig {
        watchdog_cycles: 500,
        warmup: 0,
        ..MeasureConfig::default()
    };
    let mut sim = Simulation::new(
        net,
        SwitchModelKind::INPUT_QUEUED,
        Box::new(NoDateline),
        TrafficConfig {
            pattern,
            process: Process::Bernoulli,
            load: 1.0,
        },
        router,
        measure,
        3,
    )
    .unwrap();
    let err = sim.run_for(100_000).unwrap_err();
    match &err {
        SimError::Deadlock { blocked, idle, .. } => {
            assert!(*idle >= 500);
            assert!(!blocked.is_empty());
            assert!(blocked[0].contains("->"), "{blocked:?}");
        }
        other => panic!("expected a deadlock, got {other}"),
    }
    assert!(sim.now() < 100_000, "the watchdog must stop the run");
    // The simulation refuses to go on and keeps reporting the same error.
    assert_eq!(sim.step().unwrap_err(), err);
}

#[test]
fn same_scenario_and_seed_give_identical_results() {
    let s = Scenario {
        topology: "irregular:16:seed=3".into(),
        traffic: "uniform".into(),
        load: 0.4,
        cycles: 3000,
        ..Scenario::default()
    };
    let run = |s: &Scenario| {
        let mut sim = s.build().unwrap();
        sim.run_for(s.warmup + s.cycles).unwrap();
        (
            sim.summary(),
            sim.channel_utilization(),
            sim.stats().windows().to_vec(),
        )
    };
    assert_eq!(run(&s), run(&s));
    let other = run(&Scenario {
        seed: 2,
        ..s.clone()
    });
    assert_ne!(run(&s).0, other.0);
}

#[test]
fn two_routings_see_identical_traffic() {
    // Separate random streams: swapping the routing leaves the generated
    // traffic untouched.
    let base = Scenario {
        topology: "torus:6x6".into(),
        load: 0.3,
        cycles: 2000,
        ..Scenario::default()
    };
    let generated = |routing: &str| {
        let s = Scenario {
            routing: routing.into(),
            ..base.clone()
        };
        let mut sim = s.build().unwrap();
        sim.run_for(s.warmup + s.cycles).unwrap();
        sim.summary().generated
    };
    assert_eq!(generated("dor"), generated("updown"));
    assert_eq!(generated("dor"), generated("dor:tie=random"));
}

#[test]
fn routing_swaps_live_and_old_packets_finish() {
    let s = Scenario {
        topology: "torus:6x6".into(),
        load: 0.3,
        cycles: 4000,
        ..Scenario::default()
    };
    let mut sim = s.build().unwrap();
    sim.run_for(2000).unwrap();
    swap_to_updown(&mut sim, &s);
    sim.run_for(3000).unwrap();
    sim.check_invariants().unwrap();
    assert_eq!(sim.swaps().len(), 2);
    assert_eq!(sim.swaps()[1].0, 2000);
    assert!(sim.routing_name().starts_with("updown"));
}

/// Swap `sim` (built from `s`) live to up*/down*, a routing without a
/// table.
fn swap_to_updown(sim: &mut routelab::sim::Simulation, s: &Scenario) {
    let b = s.prepare().unwrap();
    sim.set_routing(
        "updown"
            .parse::<routelab::routing::RoutingSpec>()
            .unwrap()
            .build(&b.network, s.vcs)
            .unwrap(),
    )
    .unwrap();
}

/// Switches with more than 64 input ports (here 66 hosts plus up to 4
/// links) need more than one word of the simulator's busy-port bit set: every
/// flit still gets through and flow control still holds.
#[test]
fn switches_with_more_than_64_ports_deliver_everything() {
    for switching in [Switching::Wormhole, Switching::VirtualCutThrough] {
        let s = Scenario {
            topology: "irregular:6:ports=70:hosts=66:seed=1".into(),
            routing: "updown".into(),
            load: 0.04,
            packet_flits: 2,
            switching,
            warmup: 0,
            cycles: 600,
            seed: 11,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        for _ in 0..12 {
            sim.run_for(50).unwrap();
            sim.check_invariants().unwrap();
        }
        let injected = sim.summary().injected_packets;
        assert!(injected > 500, "only {injected} packets injected");
        sim.set_load(0.0);
        let drained = sim
            .run_until(
                |x| x.in_flight_packets() == 0 && x.queued_packets() == 0,
                200_000,
            )
            .unwrap();
        assert!(drained, "{switching:?}: did not drain");
        sim.check_invariants().unwrap();
        let sum = sim.summary();
        assert!(sum.injected_packets >= injected);
        assert_eq!(sum.delivered_packets, sum.injected_packets);
        // Ports 64 and up (the last hosts of each switch) were used too.
        let net = sim.network();
        let high_port_hosts = (0..net.num_hosts() as u32)
            .filter(|&h| net.host(h).port >= 64)
            .count();
        assert!(high_port_hosts > 0, "no host sits on a port >= 64");
    }
}

/// Lookahead routing (the deterministic router with table routes looks up
/// a head's answer at the next switch as it sends it there, and that
/// switch takes it) still counts each switch a head is routed at once,
/// also across a live swap to a routing without a table, whose router
/// drops the answers the heads in flight came with: once every packet is
/// delivered, the hops the packets counted are the flits the network's
/// channels carried (1-flit packets), on one engine thread and on two.
#[test]
fn lookahead_answers_count_each_switch_once_across_a_live_swap() {
    use routelab::topology::ChannelKind;
    for threads in [1, 2] {
        let s = Scenario {
            topology: "torus:6x6".into(),
            load: 0.3,
            packet_flits: 1,
            warmup: 0,
            cycles: 4000,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        if threads == 2 {
            sim.set_engine_threads(2).unwrap();
            sim.set_engine_split_from(0).unwrap();
        }
        sim.run_for(800).unwrap();
        swap_to_updown(&mut sim, &s);
        sim.run_for(400).unwrap();
        sim.set_load(0.0);
        let drained = sim
            .run_until(
                |sim| sim.in_flight_flits() == 0 && sim.queued_packets() == 0,
                5000,
            )
            .unwrap();
        assert!(drained, "{threads} thread(s): the network did not drain");
        sim.check_invariants().unwrap();
        let net = sim.network().clone();
        let carried: u64 = sim
            .stats()
            .channels()
            .iter()
            .enumerate()
            .filter(|&(c, _)| net.channel(c as u32).kind == ChannelKind::Network)
            .map(|(_, k)| k.flits)
            .sum();
        assert!(carried > 10_000, "{threads} thread(s): {carried} hops");
        assert_eq!(
            sim.stats().hops_sum(),
            carried,
            "{threads} thread(s): hops counted against flits carried"
        );
    }
}
