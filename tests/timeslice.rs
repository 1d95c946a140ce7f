//! The time-slice model (`switch_model = timeslice`, the weighted-path
//! paper's fat tree): latencies worked out by hand, invariants checked
//! every slice over random scenarios, determinism, and the combinations
//! that are refused.

use rand::{Rng, SeedableRng};
use routelab::rng::SimRng;
use routelab::routing::fattree::{GreedyParams, in_accept};
use routelab::routing::{Family, RoutingSpec};
use routelab::scenario::Scenario;
use routelab::sim::{Simulation, SwitchModelKind};
use routelab::traffic::Process;

/// Every routing of the fat-tree family, plus the static ones that apply.
fn routings() -> Vec<String> {
    let mut v: Vec<String> = (1..=7)
        .map(|s| format!("fattree-greedy:step={s}"))
        .collect();
    v.extend(
        [
            "fattree-greedy:step=6:score=size",
            "fattree-ecmp",
            "fattree-ecmp:flow=1",
            "dmodk",
            "fattree-drill",
            "fattree-drill:d=1:m=0",
            "minimal",
            "updown",
        ]
        .map(String::from),
    );
    v
}

fn idle(topology: &str, routing: &str) -> Simulation {
    Scenario {
        topology: topology.into(),
        routing: routing.into(),
        switch_model: SwitchModelKind::TIME_SLICE,
        load: 0.0,
        warmup: 0,
        ..Scenario::default()
    }
    .build()
    .unwrap_or_else(|e| panic!("{routing}: {e}"))
}

/// Latency of one request from host `src` to host `dst` on an idle network.
fn latency(topology: &str, routing: &str, src: u32, dst: u32) -> u64 {
    let mut sim = idle(topology, routing);
    sim.send(src, dst).unwrap();
    let done = sim
        .run_until(|s| s.stats().delivered_packets() == 1, 100)
        .unwrap();
    assert!(done, "{routing}: {src} -> {dst} not delivered");
    sim.check_invariants().unwrap();
    sim.stats().latency().max()
}

/// fattree:4, host h on access switch h/2, pods of two access switches.
/// A request that begins in slice t enters its access switch in slice t
/// (the server-to-access edge, not counted) and then moves one hop per
/// slice:
/// - host 0 to host 15 (another pod): access 0 → aggregate → core →
///   aggregate → access 7 → host in slices t+1..t+5: latency 5 slices;
/// - host 0 to host 2 (same pod, access 1): access 0 → aggregate → access 1
///   → host in t+1..t+3: latency 3;
/// - host 0 to host 1 (same access switch): access 0 → host in t+1:
///   latency 1.
///
/// The same for every balancer: an idle network has room everywhere.
#[test]
fn zero_load_latencies_by_hand() {
    for r in routings() {
        for topology in ["fattree:4", "fattree:4:hetero=paper:seed=3"] {
            assert_eq!(latency(topology, &r, 0, 15), 5, "{r} cross-pod");
            assert_eq!(latency(topology, &r, 0, 2), 3, "{r} same pod");
            assert_eq!(latency(topology, &r, 0, 1), 1, "{r} same access");
        }
    }
    // A larger tree: the same three distances.
    assert_eq!(latency("fattree:8", "fattree-greedy:step=7", 0, 127), 5);
    assert_eq!(latency("fattree:8", "fattree-greedy:step=7", 0, 4), 3);
    assert_eq!(latency("fattree:8", "fattree-greedy:step=7", 0, 3), 1);
}

/// The paper's Figure 3: deg 4, free space 100, 350, 500 and 200 give
/// in_accept 0, 50, 87 and 12, which is k_access_buff = 150, the default.
#[test]
fn papers_in_accept_example() {
    let q: Vec<u32> = [100, 350, 500, 200]
        .iter()
        .map(|&f| in_accept(f, 150, 4))
        .collect();
    assert_eq!(q, [0, 50, 87, 12]);
    assert_eq!(GreedyParams::DEFAULT.k_access_buff, 150);
}

fn random_scenario(rng: &mut SimRng) -> Scenario {
    let topologies = [
        "fattree:2",
        "fattree:4",
        "fattree:4:hetero=paper:seed=1",
        "fattree:4:hetero=paper:seed=7:access_buffer=20-60:core_bw_in=1-5",
        "fattree:6:hetero=paper:seed=2",
        "fattree:8:hetero=paper:seed=3:aggregate_buffer=10-40:weak_aggregates=4",
    ];
    let patterns = ["uniform", "randperm", "hotspot:fraction=0.3:nodes=0,1"];
    let all = routings();
    let topology = topologies[rng.random_range(0..topologies.len())];
    let routing = all[rng.random_range(0..all.len())].clone();
    let base = Scenario {
        topology: topology.into(),
        routing,
        switch_model: SwitchModelKind::TIME_SLICE,
        traffic: patterns[rng.random_range(0..patterns.len())].into(),
        process: [Process::Bernoulli, Process::Exponential, Process::OnOff][rng.random_range(0..3)],
        load: 1.0,
        admit_slices: rng.random_range(0..3),
        deadline_slices: rng.random_range(5..30),
        warmup: 50,
        cycles: 400,
        seed: rng.random(),
        watchdog_cycles: 300,
        ..Scenario::default()
    };
    // Up to 1.3 times the load at which ρ = 1: some runs are overloaded.
    let capacity = base.build().unwrap().capacity();
    Scenario {
        load: capacity * rng.random_range(0.05..1.3),
        ..base
    }
}

/// Every slice: no buffer over its capacity, no switch taking more than
/// bw_in or sending more than bw_out, every message held once, every
/// request accounted for (begun = taken + dropped + waiting) and every
/// packet taken either delivered or held. Then the load stops and what is
/// left drains: nothing is lost.
#[test]
fn random_scenarios_keep_every_limit_and_lose_nothing() {
    let mut rng = SimRng::seed_from_u64(13);
    let mut drained_rounds = 0;
    for round in 0..30 {
        let s = random_scenario(&mut rng);
        let mut sim = s
            .build()
            .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
        let mut jammed = false;
        for _ in 0..s.warmup + s.cycles {
            if let Err(e) = sim.step() {
                // Overloaded shared buffers can jam; the watchdog says so.
                assert!(e.to_string().contains("deadlock"), "round {round}: {e}");
                jammed = true;
                break;
            }
            sim.check_invariants()
                .unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
        }
        if jammed {
            continue;
        }
        sim.set_load(0.0);
        let drained = match sim.run_until(
            |x| x.in_flight_packets() == 0 && x.queued_packets() == 0,
            100_000,
        ) {
            Ok(d) => d,
            // A jam that formed under load stays one.
            Err(e) if e.to_string().contains("deadlock") => continue,
            Err(e) => panic!("round {round}: {s:?}: {e}"),
        };
        assert!(drained, "round {round}: {s:?} did not drain");
        sim.check_invariants().unwrap();
        let life = sim.stats().lifetime();
        assert_eq!(life.injected_packets, life.delivered_packets, "{s:?}");
        drained_rounds += 1;
    }
    assert!(
        drained_rounds >= 20,
        "only {drained_rounds} of 30 rounds drained"
    );
}

fn summary_json(s: &Scenario) -> String {
    let mut sim = s.build().unwrap();
    sim.run_for(s.warmup + s.cycles).unwrap();
    serde_json::to_string(&sim.summary()).unwrap()
}

/// The same seeds give the same results; the scenario's seed changes the
/// requests and the topology's seed the switches.
#[test]
fn same_seeds_same_results() {
    let s = Scenario {
        topology: "fattree:4:hetero=paper:seed=1".into(),
        routing: "fattree-greedy:step=7".into(),
        switch_model: SwitchModelKind::TIME_SLICE,
        load: 8.0,
        warmup: 100,
        cycles: 400,
        ..Scenario::default()
    };
    let a = summary_json(&s);
    assert_eq!(a, summary_json(&s));
    assert!(a.contains("\"latency_unit\":\"slices\""), "{a}");
    assert!(a.contains("\"success_rate\""), "{a}");
    let other_requests = Scenario {
        seed: 2,
        ..s.clone()
    };
    assert_ne!(a, summary_json(&other_requests));
    let other_switches = Scenario {
        topology: "fattree:4:hetero=paper:seed=2".into(),
        ..s.clone()
    };
    assert_ne!(a, summary_json(&other_switches));
    let sa = s.build().unwrap();
    let sb = other_switches.build().unwrap();
    assert_ne!(sa.switch_capacity(), sb.switch_capacity());
}

/// A switch set one by one in the scenario file wins over the draw.
#[test]
fn scenario_switches_override_the_draw() {
    let s = Scenario::from_json(
        r#"{"topology": "fattree:4:hetero=paper:seed=1", "switch_model": "timeslice",
            "routing": "fattree-greedy:step=3", "load": 2,
            "switches": [{"switch": 9, "buffer": 1000, "bw_out": 20}]}"#,
    )
    .unwrap();
    let sim = s.build().unwrap();
    let p = sim.time_slice().unwrap().params()[9];
    assert_eq!((p.buffer, p.bw_out), (1000, 20));
    assert_eq!(sim.switch_capacity()[9], 1000);
    for (json, needle) in [
        (
            r#"{"switches": [{"switch": 1}]}"#,
            "switch_model = timeslice",
        ),
        (
            r#"{"topology": "fattree:4", "switch_model": "timeslice", "routing": "dmodk", "switches": [{"switch": 99}]}"#,
            "switches[0]: switch 99; accepted 0..20",
        ),
        (
            r#"{"topology": "fattree:4", "switch_model": "timeslice", "routing": "dmodk", "switches": [{"switch": 1, "bw_in": 0}]}"#,
            "switches[0].bw_in = 0",
        ),
        (
            r#"{"switches": [{"switch": 1, "speed": 3}]}"#,
            "field `switches`",
        ),
    ] {
        let e = match Scenario::from_json(json) {
            Ok(s) => s.build().err().unwrap().to_string(),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(needle), "{json}: {e}");
    }
}

/// A fat-tree balancer on input-queued switches, the time-slice model on
/// a torus, or a swap to such a balancer: refused, naming what is accepted.
#[test]
fn combinations_that_make_no_sense_are_refused() {
    let iq = Scenario {
        topology: "fattree:4".into(),
        routing: "fattree-greedy:step=7".into(),
        ..Scenario::default()
    };
    let e = iq.build().err().unwrap().to_string();
    assert!(e.contains("runs only on switch_model = timeslice"), "{e}");
    let torus = Scenario {
        topology: "torus:4x4".into(),
        routing: "dor".into(),
        switch_model: SwitchModelKind::TIME_SLICE,
        ..Scenario::default()
    };
    let e = torus.build().err().unwrap().to_string();
    assert!(e.contains("needs topology fattree:K"), "{e}");
    let mut sim = Scenario {
        topology: "fattree:4".into(),
        routing: "dmodk".into(),
        ..Scenario::default()
    }
    .build()
    .unwrap();
    let spec: RoutingSpec = "fattree-drill".parse().unwrap();
    assert!(sim.swap_routing(&spec).is_err());
    assert_eq!(sim.swaps().len(), 1);
}

/// A balancer swapped live on the time-slice model: the held messages are
/// reordered for the new one and the run goes on within every limit.
#[test]
fn balancers_swap_live() {
    let mut sim = Scenario {
        topology: "fattree:4:hetero=paper:seed=1".into(),
        routing: "fattree-greedy:step=1".into(),
        switch_model: SwitchModelKind::TIME_SLICE,
        load: 8.0,
        warmup: 0,
        ..Scenario::default()
    }
    .build()
    .unwrap();
    sim.run_for(200).unwrap();
    for r in [
        "fattree-greedy:step=7",
        "fattree-ecmp",
        "fattree-greedy:step=3",
    ] {
        sim.swap_routing(&r.parse().unwrap()).unwrap();
        for _ in 0..100 {
            sim.step().unwrap();
            sim.check_invariants().unwrap();
        }
    }
    assert_eq!(sim.swaps().len(), 4);
    assert!(sim.deadlines().unwrap().success_rate().is_some());
}

/// `--compare` on the time-slice model runs the family: the seven steps
/// and the three baselines.
#[test]
fn the_family_is_seven_steps_and_three_baselines() {
    let net = routelab::topology::Network::from_spec("fattree:4").unwrap();
    let spec: RoutingSpec = "fattree-greedy:step=7".parse().unwrap();
    assert_eq!(spec.family(), Family::FatTree);
    let members = spec.family_members(&net);
    let mut want: Vec<String> = (1..=7)
        .map(|s| format!("fattree-greedy:step={s}"))
        .collect();
    want.extend(["fattree-ecmp", "dmodk", "fattree-drill"].map(String::from));
    assert_eq!(members, want);
    for m in &members {
        let spec: RoutingSpec = m.parse().unwrap();
        assert_eq!(spec.to_string(), *m);
    }
}
