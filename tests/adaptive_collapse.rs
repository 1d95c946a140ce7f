//! Adaptive routing past saturation on the router of the BookSim2
//! `min_adapt` comparison (torus:8x8, 4 VCs of 8 flits, 1-flit packets,
//! switch delay 4, `first-free`, `wait_for_tail_credit`): why it collapses
//! and starves sources (issue 27, item 3; docs/results.md, "Adaptive
//! routing past saturation").
//!
//! The mechanism these tests pin down: with `wait_for_tail_credit` a VC is
//! handed out only when its downstream buffer is empty, so a VC carries one
//! packet at a time, and a blocked one-flit packet *parks* in a VC and
//! blocks all 8 slots of it. Past saturation, with port orders that ignore
//! age, injected packets win freed VCs as often as packets already in the
//! network, parked packets accumulate until a third or more of the network's
//! VCs each hold one waiting flit, and a packet moves only when a VC ahead
//! of it empties. It is congestion, not deadlock: stop the sources and
//! everything drains. Age-based arbitration (`--port-priority oldest`)
//! gives packets already in the network (older than any packet still at its
//! source) the freed VCs first, which throttles injection and keeps the
//! network out of that state.

use routelab::scenario::Scenario;
use routelab::sim::Simulation;

fn build(port_priority: &str, load: f64) -> Simulation {
    let json = format!(
        r#"{{"name":"collapse","topology":"torus:8x8","routing":"adaptive","traffic":"uniform",
            "load":{load},"vcs":4,"buffer_flits":8,"packet_flits":1,"switch_delay":4,
            "selection":"first-free","wait_for_tail_credit":true,
            "port_priority":"{port_priority}","warmup":2000,"cycles":2000,"seed":1}}"#
    );
    let sc: Scenario = serde_json::from_str(&json).expect("scenario");
    sc.build().expect("build")
}

/// Over the network input ports of every switch: (VCs, VCs holding flits,
/// flits held).
fn parked(sim: &Simulation) -> (usize, usize, usize) {
    let net = sim.network().clone();
    let (mut vcs, mut held, mut flits) = (0, 0, 0);
    for s in 0..net.num_switches() as u32 {
        for port in sim.port_occupancy(s).expect("input-queued ports") {
            if (port.channel as usize) < net.num_network_channels() {
                vcs += port.flits.len();
                held += port.flits.iter().filter(|&&f| f > 0).count();
                flits += port.flits.iter().map(|&f| f as usize).sum::<usize>();
            }
        }
    }
    (vcs, held, flits)
}

#[test]
fn past_saturation_one_flit_packets_park_in_a_third_of_the_vcs() {
    let mut sim = build("rotating", 0.4);
    sim.run_for(4000).unwrap();
    let s = sim.summary();
    let (vcs, held, flits) = parked(&sim);
    eprintln!(
        "rotating, offered 0.4, cycle 4000: accepted {:.4}, min_source_delivery {}, \
         {held} of {vcs} network VCs hold {flits} flits",
        s.accepted, s.min_source_delivery
    );
    // Collapsed: about a quarter of what the same router carries below
    // saturation (0.30 accepted at offered 0.30).
    assert!(s.accepted < 0.15, "accepted {}", s.accepted);
    // Some source delivered nothing in the measured window.
    assert_eq!(s.min_source_delivery, 0.0);
    // Parked: many VCs hold exactly one waiting flit each.
    assert!(held * 4 > vcs, "{held} of {vcs} VCs hold flits");
    assert_eq!(flits, held, "one flit per occupied VC");

    // Below saturation the same router keeps its VCs nearly empty.
    let mut below = build("rotating", 0.3);
    below.run_for(4000).unwrap();
    let (_, held_below, _) = parked(&below);
    eprintln!(
        "rotating, offered 0.3, cycle 4000: accepted {:.4}, {held_below} network VCs hold flits",
        below.summary().accepted
    );
    assert!(below.summary().accepted > 0.29);
    assert!(held_below * 5 < held, "{held_below} vs {held}");
}

#[test]
fn age_based_arbitration_keeps_the_network_out_of_the_parked_state() {
    let mut rotating = build("rotating", 0.4);
    let mut oldest = build("oldest", 0.4);
    rotating.run_for(4000).unwrap();
    oldest.run_for(4000).unwrap();
    let (_, held_rotating, _) = parked(&rotating);
    let (_, held_oldest, _) = parked(&oldest);
    eprintln!(
        "offered 0.4, cycle 4000: rotating accepted {:.4} with {held_rotating} VCs holding flits; \
         oldest accepted {:.4}, min_source_delivery {:.3}, {held_oldest} VCs holding flits",
        rotating.summary().accepted,
        oldest.summary().accepted,
        oldest.summary().min_source_delivery
    );
    assert!(
        oldest.summary().accepted > 2.5 * rotating.summary().accepted,
        "oldest {} vs rotating {}",
        oldest.summary().accepted,
        rotating.summary().accepted
    );
    assert!(oldest.summary().min_source_delivery > 0.5);
    assert!(
        held_oldest < held_rotating,
        "{held_oldest} vs {held_rotating}"
    );
}

#[test]
fn the_collapse_is_congestion_not_deadlock_stopped_sources_drain() {
    for priority in ["rotating", "random"] {
        let mut sim = build(priority, 0.4);
        sim.run_for(4000).unwrap();
        assert!(
            sim.queued_packets() > 10_000,
            "{priority}: a backlog built up"
        );
        eprintln!(
            "{priority}, offered 0.4, cycle 4000: {} packets queued at sources, {} flits in flight",
            sim.queued_packets(),
            sim.in_flight_flits()
        );
        sim.set_load(0.0);
        let mut cycles = 0;
        while (sim.queued_packets() > 0 || sim.in_flight_flits() > 0) && cycles < 30_000 {
            sim.run_for(500).unwrap();
            cycles += 500;
        }
        eprintln!("{priority}: drained {cycles} cycles after the sources stopped");
        assert_eq!(
            (sim.queued_packets(), sim.in_flight_flits()),
            (0, 0),
            "{priority}: everything delivered within {cycles} cycles of stopping the sources"
        );
    }
}
