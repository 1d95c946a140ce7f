//! The bars of the fat-tree preset (`assets/scenarios/fattree-greedy.json`,
//! the weighted-path paper's balancer), unchanged, on every seed 1-5 of the requests crossed with
//! every seed 1-5 of the switches: step 1 succeeds on at most 95% of the
//! requests; step 7 on at least 98%, with average latency at most 9.5
//! slices and maximum under 20.
//!
//! 50 runs of 3200 slices: about 15 s in the test profile (which optimises,
//! `Cargo.toml`), a few seconds in release.

use routelab::scenario::Scenario;

const PRESET: &str = include_str!("../assets/scenarios/fattree-greedy.json");

fn run(switch_seed: u64, request_seed: u64, routing: &str) -> (f64, f64, u64) {
    let base = Scenario::from_json(PRESET).unwrap();
    assert!(base.topology.ends_with(":seed=1"), "{}", base.topology);
    let topology = format!(
        "{}:seed={switch_seed}",
        base.topology.trim_end_matches(":seed=1")
    );
    let s = Scenario {
        topology,
        routing: routing.into(),
        seed: request_seed,
        ..base
    };
    let mut sim = s.build().unwrap();
    sim.run_for(s.warmup + s.cycles).unwrap_or_else(|e| {
        panic!("{routing} switches {switch_seed} requests {request_seed}: {e}")
    });
    let r = sim.summary();
    (r.success_rate.unwrap(), r.avg_latency, r.max_latency)
}

#[test]
fn preset_bars_hold_on_every_seed() {
    for t in 1..=5 {
        for q in 1..=5 {
            let (s1, _, _) = run(t, q, "fattree-greedy:step=1");
            assert!(
                s1 <= 0.95,
                "step 1, switches {t} requests {q}: success {s1}"
            );
            let (s7, avg, max) = run(t, q, "fattree-greedy:step=7");
            assert!(
                s7 >= 0.98,
                "step 7, switches {t} requests {q}: success {s7}"
            );
            assert!(
                avg <= 9.5,
                "step 7, switches {t} requests {q}: avg latency {avg}"
            );
            assert!(
                max < 20,
                "step 7, switches {t} requests {q}: max latency {max}"
            );
        }
    }
}
