//! Simulated cycles per second of the stepped engine (criterion).
//!
//! Each case builds its scenario once, runs a warm-up outside the timing so
//! the network is in steady state, then times `run_for(cycles)` on the same
//! simulation again and again: the network keeps stepping from where the last
//! iteration stopped, so every timed cycle is a loaded, warmed-up cycle.
//! Throughput is reported in elements = simulated cycles, so criterion's
//! "thrpt" column reads directly as cycles per second.
//!
//!     CARGO_TARGET_DIR=/work/target-bench cargo bench --no-default-features --bench engine
//!
//! A filter picks cases: `cargo bench --no-default-features --bench engine -- torus8x8`.
//! See `docs/performance.md` for the numbers and the CAMINOS comparison.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use routelab::scenario::Scenario;
use std::hint::black_box;
use std::time::Duration;

/// One benchmarked scenario: uniform traffic, 1-flit packets, default switch
/// (wormhole, 2 VCs, 8-flit buffers, link latency 1, switch delay 1).
struct Case {
    name: &'static str,
    topology: &'static str,
    routing: &'static str,
    load: f64,
    /// Untimed cycles before the first measurement.
    warmup: u64,
    /// Cycles per timed iteration (the throughput unit count).
    cycles: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "torus8x8_dor_uniform_load0.3",
        topology: "torus:8x8",
        routing: "dor",
        load: 0.3,
        warmup: 2_000,
        cycles: 1_000,
    },
    Case {
        name: "torus8x8_dor_uniform_load0.5",
        topology: "torus:8x8",
        routing: "dor",
        load: 0.5,
        warmup: 2_000,
        cycles: 1_000,
    },
    Case {
        name: "torus32x32_dor_uniform_load0.1",
        topology: "torus:32x32",
        routing: "dor",
        load: 0.1,
        warmup: 1_000,
        cycles: 50,
    },
    // Above the 32-ary 2-cube's capacity (8/k = 0.25): a saturated network.
    Case {
        name: "torus32x32_dor_uniform_load0.3",
        topology: "torus:32x32",
        routing: "dor",
        load: 0.3,
        warmup: 1_000,
        cycles: 50,
    },
    Case {
        name: "fattree8_dmodk_uniform_load0.3",
        topology: "fattree:8",
        routing: "dmodk",
        load: 0.3,
        warmup: 2_000,
        cycles: 500,
    },
    // up*/down* on this network saturates near 0.02 flits/host/cycle.
    Case {
        name: "irregular64_updown_uniform_load0.015",
        topology: "irregular:64:seed=1",
        routing: "updown",
        load: 0.015,
        warmup: 2_000,
        cycles: 1_000,
    },
];

fn scenario(case: &Case) -> Scenario {
    Scenario {
        name: case.name.into(),
        topology: case.topology.into(),
        routing: case.routing.into(),
        traffic: "uniform".into(),
        load: case.load,
        packet_flits: 1,
        warmup: case.warmup,
        ..Scenario::default()
    }
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for case in CASES {
        let mut sim = match scenario(case).build() {
            Ok(sim) => sim,
            Err(e) => panic!("{}: {e}", case.name),
        };
        if let Err(e) = sim.run_for(case.warmup) {
            panic!("{} warm-up: {e}", case.name);
        }
        group.throughput(Throughput::Elements(case.cycles));
        group.bench_function(case.name, |b| {
            b.iter(|| {
                if let Err(e) = sim.run_for(black_box(case.cycles)) {
                    panic!("{}: {e}", case.name);
                }
            })
        });
        // Steady state check for the record: what the network was doing.
        let s = sim.summary();
        eprintln!(
            "  {}: after {} cycles accepted {:.3} of offered {:.3} flits/host/cycle, \
             avg latency {:.1} cycles, {} packets queued at sources",
            case.name, s.cycles, s.accepted, s.offered, s.avg_latency, s.queued_packets
        );
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
