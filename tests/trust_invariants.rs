//! The invariants on every switch model and every registered routing.
//!
//! Random scenarios are drawn: topology kind and size, a routing (every
//! example spec of every routing in the registry, on the topologies it
//! applies to, so a routing added later joins by being registered), every
//! switch model (`SwitchModelKind::ALL`, so a model added later joins too),
//! switching, VCs (at least the routing's minimum, plus its
//! acknowledgement class), buffers, traffic, arrivals and load. Each runs
//! with the invariants checked every cycle: every flit injected is delivered
//! or still in the network, nothing is duplicated, credits are never
//! negative and buffers never over capacity; then the load stops and the
//! network must drain. The watchdog either stays quiet or names a real
//! cycle of blocked channels.
//!
//! `ROUTELAB_SOAK_SECONDS=N cargo test --release --test all --
//! --ignored --exact trust_invariants::soak --nocapture` runs random scenarios for N seconds
//! (`scripts/soak.sh`).

use rand::{Rng, SeedableRng};
use routelab::rng::SimRng;
use routelab::routing::registry::KINDS;
use routelab::routing::{Candidates, Hop, Routing, RoutingSpec, Selection};
use routelab::scenario::Scenario;
use routelab::sim::{
    MeasureConfig, PortPriority, RouterConfig, SimError, Simulation, SwitchModelKind, Switching,
    TrafficConfig,
};
use routelab::topology::{Endpoint, Network};
use routelab::traffic::{Pattern, PatternSpec, Process};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Networks a scenario is drawn on; every registered routing must apply to
/// at least one (the test says so when one does not).
const TOPOLOGIES: &[&str] = &[
    "torus:4x4",
    "torus:5",
    "torus:3x3x3",
    "torus:4x4:hosts=2",
    "torus:6x4",
    "mesh:3x4",
    "mesh:4x4",
    "hypercube:3",
    "hypercube:4",
    "midimew:13",
    "fattree:4",
    "irregular:8:seed=2",
    "irregular:12:ports=6:hosts=2:seed=5",
    "dragonfly:p=1",
];

const TRAFFIC: &[&str] = &[
    "uniform",
    "randperm",
    "hotspot:fraction=0.3:nodes=1,2",
    "nn",
    "tornado",
    "neighbor",
    "bitcomp",
];

/// A random scenario for `routing` on a topology it applies to, with the
/// switch model `model`; `None` when no pool topology takes the routing.
fn scenario_for(
    rng: &mut SimRng,
    routing: &str,
    model: SwitchModelKind,
    cycles: u64,
) -> Option<Scenario> {
    let spec: RoutingSpec = routing
        .parse()
        .unwrap_or_else(|e| panic!("registered example `{routing}` does not parse: {e}"));
    let fits: Vec<(&str, Arc<Network>)> = TOPOLOGIES
        .iter()
        .map(|t| (*t, Arc::new(Network::from_spec(t).unwrap())))
        .filter(|(_, n)| spec.applies_to(n).is_ok())
        // Switch model and topology must go together (the time-slice model
        // takes fat trees only, the fat-tree balancers the time-slice model
        // only): the pairs that do not are refused, which
        // `combinations_that_make_no_sense_are_refused` in tests/timeslice.rs
        // checks.
        .filter(|(_, n)| model.check(n, &spec).is_ok())
        .collect();
    if fits.is_empty() {
        return None;
    }
    let (topology, net) = &fits[rng.random_range(0..fits.len())];
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
    // At least what the routing needs, its acknowledgement class included.
    let mut vcs = spec.min_vcs(net).max(1);
    while vcs < 16 && Simulation::build_routing(&spec, net, vcs).is_err() {
        vcs += 1;
    }
    let vcs = (vcs + rng.random_range(0..=2u8)).min(16);
    Some(Scenario {
        name: format!("{routing} on {topology}"),
        topology: topology.to_string(),
        routing: routing.to_string(),
        switch_model: model,
        traffic: TRAFFIC[rng.random_range(0..TRAFFIC.len())].into(),
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
        port_priority: PortPriority::ALL[rng.random_range(0..PortPriority::ALL.len())],
        warmup: cycles / 5,
        cycles,
        seed: rng.random(),
        ..Scenario::default()
    })
}

/// Check that `cycle` is a real cycle of waits on `sim`'s network: every
/// step goes from an input VC to one at the same switch (waiting for the
/// packet that holds an output VC), downstream (waiting for room) or
/// upstream (waiting for the rest of its packet), it closes, and the VCs
/// on it hold flits or a packet.
fn check_wait_cycle(sim: &Simulation, cycle: &[(u32, u8)]) -> Result<(), String> {
    let net = sim.network();
    if cycle.is_empty() {
        return Err("an empty wait cycle".into());
    }
    let ends = |c: u32| {
        let ch = net.channel(c);
        let sw = |e: Endpoint| match e {
            Endpoint::Switch { switch, .. } => Some(switch),
            Endpoint::Host { .. } => None,
        };
        (sw(ch.src), sw(ch.dst))
    };
    for i in 0..cycle.len() {
        let (a, b) = (cycle[i].0, cycle[(i + 1) % cycle.len()].0);
        let ((a_src, a_dst), (b_src, b_dst)) = (ends(a), ends(b));
        let linked = a_dst.is_some() && (a_dst == b_dst || a_dst == b_src || a_src == b_dst);
        if !linked {
            return Err(format!(
                "{} waits on {}, which is not next to it",
                net.channel_name(a),
                net.channel_name(b)
            ));
        }
    }
    let holding = cycle.iter().any(|&(c, vc)| {
        let Endpoint::Switch { switch, .. } = net.channel(c).dst else {
            return false;
        };
        sim.port_occupancy(switch).is_some_and(|ports| {
            ports
                .iter()
                .any(|p| p.channel == c && p.flits.get(vc as usize).is_some_and(|&f| f > 0))
        })
    });
    if holding {
        Ok(())
    } else {
        Err("no VC on the wait cycle holds a flit".into())
    }
}

/// Run `s` with the invariants checked every cycle, then drain. Returns the
/// cycles run, or why the scenario broke an invariant.
fn run_checked(s: &Scenario) -> Result<u64, String> {
    let mut sim = s.build().map_err(|e| format!("does not build: {e}"))?;
    let on_error = |sim: &Simulation, e: SimError| -> Result<u64, String> {
        match e {
            SimError::Deadlock { .. } => {
                let cycle = sim
                    .wait_cycle()
                    .ok_or_else(|| format!("the watchdog fired without a wait cycle: {e}"))?;
                check_wait_cycle(sim, &cycle)?;
                Ok(sim.now())
            }
            e => Err(format!("the run failed at cycle {}: {e}", sim.now())),
        }
    };
    for _ in 0..s.warmup + s.cycles {
        if let Err(e) = sim.step() {
            return on_error(&sim, e);
        }
        sim.check_invariants()
            .map_err(|e| format!("cycle {}: {e}", sim.now()))?;
    }
    sim.set_load(0.0);
    let mut drained = false;
    for _ in 0..20_000 {
        if sim.in_flight_packets() == 0 && sim.queued_packets() == 0 {
            drained = true;
            break;
        }
        if let Err(e) = sim.run_for(25) {
            return on_error(&sim, e);
        }
        sim.check_invariants()
            .map_err(|e| format!("draining, cycle {}: {e}", sim.now()))?;
    }
    if !drained {
        return Err(format!("did not drain by cycle {}", sim.now()));
    }
    let life = sim.stats().lifetime();
    if life.injected_flits != life.delivered_flits
        || life.injected_packets != life.delivered_packets
    {
        return Err(format!("drained but {life:?}"));
    }
    Ok(sim.now())
}

/// Every (routing example, switch model) pair that can run on some pool
/// topology, in registry order; every routing example is in at least one.
fn every_routing_and_model() -> Vec<(&'static str, SwitchModelKind)> {
    let nets: Vec<Network> = TOPOLOGIES
        .iter()
        .map(|t| Network::from_spec(t).unwrap())
        .collect();
    let runs = |r: &str, m: SwitchModelKind| {
        let spec: RoutingSpec = r.parse().unwrap();
        nets.iter()
            .any(|n| spec.applies_to(n).is_ok() && m.check(n, &spec).is_ok())
    };
    let mut pairs = Vec::new();
    for r in KINDS.iter().flat_map(|k| k.examples.iter().copied()) {
        let models: Vec<SwitchModelKind> = SwitchModelKind::ALL
            .iter()
            .copied()
            .filter(|&m| runs(r, m))
            .collect();
        assert!(
            !models.is_empty(),
            "routing `{r}` runs on no switch model and topology of the test's pool; add one"
        );
        pairs.extend(models.into_iter().map(|m| (r, m)));
    }
    pairs
}

#[test]
fn every_routing_on_every_switch_model_keeps_the_invariants() {
    let mut rng = SimRng::seed_from_u64(14);
    let extra: usize = std::env::var("ROUTELAB_INVARIANT_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut runs = 0;
    let mut refused = Vec::new();
    for round in 0..extra {
        for (routing, model) in every_routing_and_model() {
            let s = scenario_for(&mut rng, routing, model, 400).unwrap_or_else(|| {
                panic!("routing `{routing}` applies to no topology of the test's pool; add one")
            });
            // A combination the scenario refuses must be refused cleanly.
            if let Err(e) = s.prepare() {
                assert!(!e.problems.is_empty());
                refused.push(format!("{}: {e}", s.name));
                continue;
            }
            run_checked(&s).unwrap_or_else(|e| panic!("round {round}: {s:?}: {e}"));
            runs += 1;
        }
    }
    assert!(runs > 0);
    assert!(
        refused.len() * 4 < runs,
        "most scenarios were refused: {refused:?}"
    );
}

/// A ring routing that always goes + on VC 0: no dateline, so wormhole
/// packets wait on each other around the ring.
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
fn the_watchdog_names_a_real_cycle_of_blocked_channels() {
    for (ring, packet_flits) in [("torus:6", 8), ("torus:5", 3), ("torus:8", 16)] {
        let net = Arc::new(Network::from_spec(ring).unwrap());
        let mut prng = routelab::rng::stream(1, routelab::rng::Stream::Pattern);
        let pattern = Pattern::build(&PatternSpec::named("tornado"), &net, &mut prng).unwrap();
        let router = RouterConfig {
            packet_flits,
            buffer_flits: 2,
            vcs: 1,
            ..RouterConfig::default()
        };
        let measure = MeasureConfig {
            watchdog_cycles: 300,
            warmup: 0,
            ..MeasureConfig::default()
        };
        let mut sim = Simulation::new(
            net.clone(),
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
        let SimError::Deadlock { blocked, .. } = &err else {
            panic!("{ring}: expected a deadlock, got {err}");
        };
        assert!(blocked[0].starts_with("wait cycle: "), "{blocked:?}");
        let cycle = sim.wait_cycle().expect("a wait cycle");
        check_wait_cycle(&sim, &cycle).unwrap_or_else(|e| panic!("{ring}: {e}: {cycle:?}"));
        // Around a ring: every + channel is on it (injection channels may
        // be too, where a host's packet holds the next channel).
        let mut ring_channels: Vec<u32> = cycle
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| (c as usize) < net.num_network_channels())
            .collect();
        ring_channels.sort();
        ring_channels.dedup();
        assert_eq!(
            ring_channels.len(),
            net.num_network_channels() / 2,
            "{ring}: {cycle:?}"
        );
        for &(c, _) in cycle.iter().take(12) {
            assert!(blocked[0].contains(&net.channel_name(c)), "{blocked:?}");
        }
    }
}

/// Random scenarios for `ROUTELAB_SOAK_SECONDS` (default 600) with the
/// invariants on; prints the scenarios and cycles covered.
#[test]
#[ignore = "long: scripts/soak.sh"]
fn soak() {
    let seconds: u64 = std::env::var("ROUTELAB_SOAK_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("ROUTELAB_SOAK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut rng = SimRng::seed_from_u64(seed);
    let pairs = every_routing_and_model();
    let start = Instant::now();
    let (mut scenarios, mut cycles, mut refused) = (0u64, 0u64, 0u64);
    let mut per_model = std::collections::BTreeMap::<&str, u64>::new();
    while start.elapsed() < Duration::from_secs(seconds) {
        let (routing, model) = pairs[rng.random_range(0..pairs.len())];
        let len = rng.random_range(500..5000u64);
        let Some(s) = scenario_for(&mut rng, routing, model, len) else {
            continue;
        };
        if s.prepare().is_err() {
            refused += 1;
            continue;
        }
        match run_checked(&s) {
            Ok(n) => {
                cycles += n;
                scenarios += 1;
                *per_model.entry(model.as_str()).or_default() += 1;
            }
            Err(e) => panic!("soak: scenario {scenarios}: {s:?}: {e}"),
        }
    }
    println!(
        "soak: {scenarios} scenarios, {cycles} cycles with invariants checked every cycle, in {:.0} s (seed {seed}; {refused} refused combinations; per switch model {per_model:?}); 0 failures",
        start.elapsed().as_secs_f64()
    );
}
