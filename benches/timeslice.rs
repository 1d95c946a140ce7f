//! Simulated time slices per second of the time-slice model (criterion):
//! the weighted-path paper's fat tree under its full balancer (step 7).
//!
//! Each case builds its scenario at ρ (the largest expected switch load over
//! its min(bw_in, bw_out) under uniform next-hop spreading, see
//! `topology::fat_tree_params::rho`) by reading the run's capacity, warms it
//! up outside the timing, then times `run_for(slices)` again and again on
//! the same simulation. Throughput is in elements = slices, so criterion's
//! "thrpt" reads as slices per second on one core.
//!
//!     cargo bench --no-default-features --bench timeslice
//!
//! The bar: `fattree16_step7_rho0.8` at least 1000 slices/s.
//! See `docs/performance.md`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use routelab::scenario::Scenario;
use routelab::sim::SwitchModelKind;
use std::hint::black_box;
use std::time::Duration;

struct Case {
    name: &'static str,
    topology: &'static str,
    routing: &'static str,
    rho: f64,
    warmup: u64,
    slices: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "fattree4_step7_rho1.39_preset",
        topology: "fattree:4:hetero=paper:seed=1",
        routing: "fattree-greedy:step=7",
        rho: 1.39,
        warmup: 500,
        slices: 500,
    },
    Case {
        name: "fattree16_step7_rho0.8",
        topology: "fattree:16:hetero=paper:seed=1",
        routing: "fattree-greedy:step=7",
        rho: 0.8,
        warmup: 300,
        slices: 100,
    },
    Case {
        name: "fattree16_ecmp_rho0.8",
        topology: "fattree:16:hetero=paper:seed=1",
        routing: "fattree-ecmp",
        rho: 0.8,
        warmup: 300,
        slices: 100,
    },
];

/// The case's scenario at load ρ: λ = ρ × the λ at which ρ = 1.
fn scenario(case: &Case) -> Scenario {
    let base = Scenario {
        name: case.name.into(),
        topology: case.topology.into(),
        routing: case.routing.into(),
        switch_model: SwitchModelKind::TIME_SLICE,
        load: 1.0,
        warmup: case.warmup,
        ..Scenario::default()
    };
    let capacity = match base.build() {
        Ok(sim) => sim.capacity(),
        Err(e) => panic!("{}: {e}", case.name),
    };
    Scenario {
        load: case.rho * capacity,
        ..base
    }
}

fn timeslice(c: &mut Criterion) {
    let mut group = c.benchmark_group("timeslice");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for case in CASES {
        let s = scenario(case);
        let mut sim = match s.build() {
            Ok(sim) => sim,
            Err(e) => panic!("{}: {e}", case.name),
        };
        if let Err(e) = sim.run_for(case.warmup) {
            panic!("{} warm-up: {e}", case.name);
        }
        group.throughput(Throughput::Elements(case.slices));
        group.bench_function(case.name, |b| {
            b.iter(|| {
                if let Err(e) = sim.run_for(black_box(case.slices)) {
                    panic!("{}: {e}", case.name);
                }
            })
        });
        let r = sim.summary();
        eprintln!(
            "  {}: λ {:.3} requests/server/slice (ρ {}), after {} slices success {:.4}, \
             avg latency {:.2} slices, max {}",
            case.name,
            s.load,
            case.rho,
            r.cycles,
            r.success_rate.unwrap_or(f64::NAN),
            r.avg_latency,
            r.max_latency
        );
    }
    group.finish();
}

criterion_group!(benches, timeslice);
criterion_main!(benches);
