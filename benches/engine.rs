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
//! A filter picks cases: `cargo bench --no-default-features --bench engine -- torus8x8`;
//! `-- flit_hops` runs only the flit-hops group (flit-hops per second on
//! tori from 8x8 to 64x64 at load 0.05); `-- swap` only the time of a live
//! routing swap on `torus:32x32x32`. The tori with DOR also run on two
//! engine threads (`_two_threads` after their names,
//! `Simulation::set_engine_threads`): `-- two_threads` runs only those.
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

/// A group of this file's settings: 10 samples, 0.5 s of warm-up, 2 s of
/// measurement per case.
fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group
}

/// `case`'s simulation, built, on `threads` engine threads
/// (`Simulation::set_engine_threads`).
fn build(case: &Case, threads: usize) -> routelab::sim::Simulation {
    let mut sim = match scenario(case).build() {
        Ok(sim) => sim,
        Err(e) => panic!("{}: {e}", case.name),
    };
    if let Err(e) = sim.set_engine_threads(threads) {
        panic!("{}: {e}", case.name);
    }
    sim
}

/// The cases run again on two engine threads (`_two_threads` after their
/// names): the tori with DOR, whose tables let both threads allocate.
const TWO_THREADS: &[&str] = &[
    "torus8x8_dor_uniform_load0.3",
    "torus32x32_dor_uniform_load0.1",
    "torus32x32_dor_uniform_load0.3",
];

fn engine(c: &mut Criterion) {
    let mut group = group(c, "engine");
    let runs = CASES.iter().map(|case| (case, 1)).chain(
        CASES
            .iter()
            .filter(|case| TWO_THREADS.contains(&case.name))
            .map(|case| (case, 2)),
    );
    for (case, threads) in runs {
        let name = match threads {
            1 => case.name.to_string(),
            _ => format!("{}_two_threads", case.name),
        };
        let mut sim = build(case, threads);
        if let Err(e) = sim.run_for(case.warmup) {
            panic!("{} warm-up: {e}", case.name);
        }
        group.throughput(Throughput::Elements(case.cycles));
        group.bench_function(&name, |b| {
            b.iter(|| {
                if let Err(e) = sim.run_for(black_box(case.cycles)) {
                    panic!("{}: {e}", case.name);
                }
            })
        });
        // Steady state check for the record: what the network was doing.
        let s = sim.summary();
        eprintln!(
            "  {name}: after {} cycles accepted {:.3} of offered {:.3} flits/host/cycle, \
             avg latency {:.1} cycles, {} packets queued at sources",
            s.cycles, s.accepted, s.offered, s.avg_latency, s.queued_packets
        );
    }
    group.finish();
}

/// Flit-hops: a flit leaving a switch on one of its channels (to the next
/// switch or to its host), the unit of work of the switch models. The
/// `flit_hops` group times the same runs as `engine` but on tori of growing
/// size at a light load (DOR, uniform, 0.05 flits/host/cycle), where the
/// cost per cycle should follow the flits in flight, not the network's size.
const HOP_CASES: &[(&str, &str, u64)] = &[
    ("torus8x8_dor_uniform_load0.05", "torus:8x8", 2_000),
    ("torus16x16_dor_uniform_load0.05", "torus:16x16", 500),
    ("torus32x32_dor_uniform_load0.05", "torus:32x32", 100),
    ("torus64x64_dor_uniform_load0.05", "torus:64x64", 25),
];

/// Flits sent on every channel so far (measured part of the run).
fn hops(sim: &routelab::sim::Simulation) -> u64 {
    sim.stats().channels().iter().map(|c| c.flits).sum()
}

/// Flit-hops per second. Criterion's throughput must be known before the
/// timing, so each case first steps one untimed iteration after its warm-up
/// and counts the flit-hops it moved; that count (steady state: the timed
/// iterations move the same within a few per cent, printed after the case)
/// is the throughput unit, so `thrpt` reads as flit-hops per second.
fn flit_hops(c: &mut Criterion) {
    let mut group = group(c, "flit_hops");
    let runs = HOP_CASES
        .iter()
        .map(|&c| (c, 1))
        .chain(HOP_CASES.iter().map(|&c| (c, 2)));
    for ((name, topology, cycles), threads) in runs {
        let case = Case {
            name,
            topology,
            routing: "dor",
            load: 0.05,
            warmup: 300,
            cycles,
        };
        let mut sim = build(&case, threads);
        let name = &match threads {
            1 => name.to_string(),
            _ => format!("{name}_two_threads"),
        };
        let run = |sim: &mut routelab::sim::Simulation, n: u64| {
            if let Err(e) = sim.run_for(n) {
                panic!("{name}: {e}");
            }
        };
        run(&mut sim, case.warmup);
        let before = hops(&sim);
        run(&mut sim, cycles);
        let per_iteration = hops(&sim) - before;
        assert!(per_iteration > 0, "{name}: no flit moved");
        group.throughput(Throughput::Elements(per_iteration));
        let (start_hops, start_cycle) = (hops(&sim), sim.now());
        group.bench_function(name, |b| b.iter(|| run(&mut sim, black_box(cycles))));
        let timed = (sim.now() - start_cycle) / cycles;
        let moved = (hops(&sim) - start_hops) as f64 / timed.max(1) as f64;
        eprintln!(
            "  {name}: {per_iteration} flit-hops per iteration of {cycles} cycles \
             (throughput unit); the timed iterations moved {moved:.0} on average \
             ({:.2} per host per cycle)",
            moved / cycles as f64 / sim.network().num_hosts() as f64
        );
    }
    group.finish();
}

/// A live swap of the routing (what the app's balancer picker does) on a
/// large torus: building the routing and checking its table for the
/// engine. Every timed iteration adds an epoch to the same run, so a swap
/// whose cost grows with the epochs before it shows here as a time that
/// grows with the iterations (criterion runs dozens).
fn swap(c: &mut Criterion) {
    let mut group = group(c, "swap");
    let case = Case {
        name: "torus32x32x32_dor",
        topology: "torus:32x32x32",
        routing: "dor",
        load: 0.05,
        warmup: 0,
        cycles: 0,
    };
    let mut sim = match scenario(&case).build() {
        Ok(sim) => sim,
        Err(e) => panic!("{}: {e}", case.name),
    };
    let spec: routelab::routing::RoutingSpec = match "dor".parse() {
        Ok(spec) => spec,
        Err(e) => panic!("dor: {e}"),
    };
    // The first swaps one by one, for the record: flat if a swap costs
    // the same whatever the epochs before it.
    let firsts: Vec<String> = (0..8)
        .map(|_| {
            let t = std::time::Instant::now();
            if let Err(e) = sim.swap_routing(&spec) {
                panic!("{}: {e}", case.name);
            }
            format!("{:.1}", t.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    eprintln!(
        "  {}: the first 8 swaps took {} ms",
        case.name,
        firsts.join(", ")
    );
    group.bench_function(case.name, |b| {
        b.iter(|| {
            if let Err(e) = sim.swap_routing(black_box(&spec)) {
                panic!("{}: {e}", case.name);
            }
        })
    });
    // `swaps()` lists the first routing too.
    eprintln!("  {}: {} swaps in all", case.name, sim.swaps().len() - 1);
    group.finish();
}

criterion_group!(benches, engine, flit_hops, swap);
criterion_main!(benches);
