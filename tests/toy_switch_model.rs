//! A switch model defined here, as its trait and a registry entry and
//! nothing else, runs from a scenario: the scenario's checks (topology,
//! routing, load range and unit) and the engine's set-up follow the entry,
//! as they do for the registry's own models (`sim::MODELS`).
//!
//! The toy is a "teleporter": a host sends its packets back to back, one
//! flit per tick, and every flit appears at its destination host
//! `DELAY` ticks after it left. There are no switches, so latency at zero
//! load is exactly `DELAY + L - 1` and nothing ever blocks.

use routelab::routing::RoutingSpec;
use routelab::scenario::Scenario;
use routelab::sim::{
    Endpoints, RouterConfig, SimError, StepUnit, SwitchModel, SwitchModelEntry, SwitchModelKind,
};
use routelab::topology::Network;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// Ticks from a flit's departure to its arrival.
const DELAY: u64 = 7;

/// The toy's entry: tori only, its own step unit and a load cap of 0.5.
static TELEPORT: SwitchModelEntry = SwitchModelEntry {
    name: "teleport",
    aliases: &["tp"],
    summary: "every flit arrives DELAY ticks after it leaves",
    unit: StepUnit {
        step: "ticks",
        one: "Tick",
        load: "flits per host per tick",
        load_short: "flits/host/tick",
        max_load: 0.5,
    },
    accepts: tori_only,
    router: |r| r,
    deadlines: false,
    per_switch_params: false,
    router_params: false,
    build: |net, _router: &RouterConfig, _seed| Ok(Box::new(Teleport::new(net))),
};

fn tori_only(net: &Network, _routing: &RoutingSpec) -> Result<(), String> {
    if net.spec().starts_with("torus") {
        Ok(())
    } else {
        Err(format!(
            "switch_model = teleport takes tori (got {})",
            net.spec()
        ))
    }
}

struct Teleport {
    hosts: usize,
    /// Per host: the tick its injection channel is free again.
    free_at: Vec<u64>,
    /// (due tick, order, packet, tail).
    due: BinaryHeap<Reverse<(u64, u64, u32, bool)>>,
    order: u64,
}

impl Teleport {
    fn new(net: Arc<Network>) -> Teleport {
        Teleport {
            hosts: net.num_hosts(),
            free_at: vec![0; net.num_hosts()],
            due: BinaryHeap::new(),
            order: 0,
        }
    }
}

impl SwitchModel for Teleport {
    fn step(&mut self, now: u64, ep: &mut Endpoints) -> Result<(), SimError> {
        while let Some(&Reverse((t, _, id, tail))) = self.due.peek() {
            if t > now {
                break;
            }
            self.due.pop();
            ep.flit_delivered(now, id, tail);
        }
        for h in 0..self.hosts {
            if self.free_at[h] > now {
                continue;
            }
            let Some(next) = ep.next_at(h) else {
                continue;
            };
            let Some(id) = ep.start(h, now) else {
                continue;
            };
            let flits = next.flits as u64;
            for i in 0..flits {
                ep.flit_injected();
                self.order += 1;
                self.due
                    .push(Reverse((now + DELAY + i, self.order, id, i + 1 == flits)));
            }
            self.free_at[h] = now + flits;
            ep.progress(now);
        }
        Ok(())
    }
    fn flits_in_network(&self) -> u64 {
        self.due.len() as u64
    }
    fn channel_occupancy(&self) -> Vec<u32> {
        Vec::new()
    }
    fn switch_occupancy(&self) -> Vec<u32> {
        Vec::new()
    }
    fn switch_capacity(&self) -> Vec<u32> {
        Vec::new()
    }
    fn blocked_report(&self, _ep: &Endpoints) -> Vec<String> {
        Vec::new()
    }
    fn check_invariants(&self, _ep: &Endpoints) -> Result<(), String> {
        Ok(())
    }
}

fn scenario() -> Scenario {
    Scenario {
        topology: "torus:4x4".into(),
        routing: "dor".into(),
        switch_model: SwitchModelKind::new(&TELEPORT),
        packet_flits: 4,
        warmup: 0,
        load: 0.0,
        ..Scenario::default()
    }
}

#[test]
fn one_packet_takes_the_delay_plus_its_length() {
    let mut sim = scenario().build().unwrap();
    assert_eq!(sim.switch_model(), "teleport");
    assert_eq!(sim.latency_unit(), "ticks");
    sim.send(0, 9).unwrap();
    sim.run_for(50).unwrap();
    let s = sim.summary();
    assert_eq!(s.delivered_packets, 1);
    assert_eq!(s.avg_latency, (DELAY + 4 - 1) as f64);
    assert_eq!(s.latency_unit, "ticks");
}

#[test]
fn below_its_cap_it_accepts_what_is_offered() {
    let s = Scenario {
        load: 0.4,
        warmup: 500,
        cycles: 5000,
        ..scenario()
    };
    let mut sim = s.build().unwrap();
    sim.run_for(s.warmup + s.cycles).unwrap();
    let sum = sim.summary();
    assert!(
        (sum.accepted - 0.4).abs() < 0.02,
        "accepted {} at offered 0.4",
        sum.accepted
    );
}

#[test]
fn the_scenario_checks_follow_the_entry() {
    let p = Scenario {
        load: 0.8,
        ..scenario()
    }
    .problems();
    assert!(
        p.iter()
            .any(|m| m == "load = 0.8; accepted 0..=0.5 flits per host per tick"),
        "{p:?}"
    );
    let e = Scenario {
        topology: "mesh:4x4".into(),
        ..scenario()
    }
    .build()
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("switch_model = teleport takes tori (got mesh:4x4)"),
        "{e}"
    );
    // A routing swap is checked by the same entry.
    let mut sim = scenario().build().unwrap();
    let spec: RoutingSpec = "minimal".parse().unwrap();
    sim.swap_routing(&spec).unwrap();
    assert_eq!(sim.switch_model(), "teleport");
}
