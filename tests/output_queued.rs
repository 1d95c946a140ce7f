//! The output-queued switch model: the input-queued router's zero-load
//! timing, and with the router out of the way the channels alone limit
//! throughput, so simulated saturation meets the channel-load analysis.

use routelab::scenario::Scenario;
use routelab::sim::SwitchModelKind;

fn oq(topology: &str, routing: &str, traffic: &str) -> Scenario {
    Scenario {
        topology: topology.into(),
        routing: routing.into(),
        traffic: traffic.into(),
        switch_model: SwitchModelKind::OUTPUT_QUEUED,
        vcs: 8,
        packet_flits: 1,
        warmup: 2000,
        cycles: 6000,
        ..Scenario::default()
    }
}

/// One packet at a time: the same latency as the input-queued router,
/// H·(link + switch) + link + L - 1 (mesh:3, hosts 0 -> 2: 3·2 + 1 + 3).
#[test]
fn zero_load_latency_is_the_input_queued_one() {
    // The cycle-level models (the time-slice model needs a fat tree and
    // counts in slices: tests/timeslice.rs has its zero-load latencies).
    let cycle_level = SwitchModelKind::ALL
        .iter()
        .filter(|m| **m != SwitchModelKind::TIME_SLICE);
    for model in cycle_level {
        let s = Scenario {
            topology: "mesh:3".into(),
            switch_model: *model,
            load: 0.0,
            packet_flits: 4,
            warmup: 0,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        sim.send(0, 2).unwrap();
        sim.run_for(30).unwrap();
        let sum = sim.summary();
        assert_eq!(sum.delivered_packets, 1, "{model:?}");
        assert_eq!(sum.max_latency, 10, "{model:?}");
        sim.check_invariants().unwrap();
    }
}

/// Tornado on an 8-node ring: every host's traffic crosses 3 channels in
/// one direction under minimal routing, so the ideal is 1/3 of capacity
/// (capacity 1 on an 8-ring); just below it every flit gets through, just
/// above it the network saturates.
#[test]
fn tornado_on_a_ring_saturates_at_the_ideal() {
    let run = |load: f64| {
        let s = Scenario {
            load,
            ..oq("torus:8", "dor", "tornado")
        };
        let mut sim = s.build().unwrap();
        sim.run_for(s.warmup + s.cycles).unwrap();
        sim.check_invariants().unwrap();
        sim.summary()
    };
    let below = run(0.32);
    assert!(below.accepted >= 0.99 * 0.32, "{below:?}");
    // Above it the channels are full but the FIFO queues keep growing, so
    // fewer than 1/3 of the flits get through: with arrivals a = 0.36 per
    // hop-1 queue and FIFO service split by arrival rate, the delivered rate
    // x3 solves s³ = a(s² + s + 1), x3 = a/s³ ≈ 0.320.
    let above = run(0.36);
    assert!(above.accepted < 0.99 * 0.36, "{above:?}");
    assert!((above.accepted - 0.3203).abs() < 0.003, "{above:?}");
}

/// Adaptive selection takes the shorter queue: on a fat tree it beats
/// the first candidate (up*/down* offers every minimal legal next hop).
#[test]
fn adaptive_selection_takes_the_shorter_queue() {
    let run = |selection: &str| {
        let s = Scenario {
            selection: routelab::routing::Selection::parse(selection).unwrap(),
            load: 0.9,
            ..oq("fattree:4", "updown", "uniform")
        };
        let mut sim = s.build().unwrap();
        sim.run_for(s.warmup + s.cycles).unwrap();
        sim.summary().accepted
    };
    let fixed = run("fixed");
    let adaptive = run("adaptive");
    assert!(adaptive > fixed * 1.1, "adaptive {adaptive} fixed {fixed}");
}
