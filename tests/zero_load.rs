//! Latency and hop counts that can be worked out by hand.

use routelab::scenario::Scenario;

fn scenario(topology: &str, traffic: &str, flits: u16) -> Scenario {
    Scenario {
        topology: topology.into(),
        traffic: traffic.into(),
        load: 0.001,
        packet_flits: flits,
        warmup: 0,
        cycles: 20_000,
        ..Scenario::default()
    }
}

#[test]
fn neighbour_latency_on_a_torus() {
    // `neighbor` on torus:8x8 sends to (x+1, y+1): 2 hops, 3 switches.
    // Zero load, wormhole: H(link + switch) + link + L - 1 with H = 3
    // switches, link = switch = 1: 3·2 + 1 + 0 = 7 cycles for 1 flit.
    let mut sim = scenario("torus:8x8", "neighbor", 1).build().unwrap();
    sim.run_for(20_000).unwrap();
    let s = sim.summary();
    assert!(s.delivered_packets > 50, "{s:?}");
    assert_eq!(s.avg_hops, 2.0);
    assert_eq!(s.max_latency, 7, "{s:?}");
    assert_eq!(s.p50_latency, 7);
}
