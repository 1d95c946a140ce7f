//! The app's stepping ([`Session::run`], what "as fast as it goes" and the
//! warm-up run between frames): the `torus-dor-uniform` preset (DOR,
//! uniform, 4-flit packets) on `torus:8x8` at load 0.3 and on
//! `torus:32x32` at load 0.1, alone and compared with `dor:tie=random`
//! (the Compare balancers panel's default), and DRB's 8x8 transpose preset
//! against DOR. Throughput is simulated cycles; a compared cycle steps both
//! runs. docs/performance.md, "Comparing two runs on two cores", has the
//! numbers.
//!
//!     cargo bench --bench app_session

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use routelab::app::playback::FramePlan;
use routelab::app::session::Session;
use routelab::scenario::Scenario;
use std::time::Duration;

/// A preset from `assets/scenarios`, with its topology and load changed
/// when given.
fn preset(name: &str, topology: Option<&str>, load: Option<f64>) -> Scenario {
    let path = format!(
        "{}/assets/scenarios/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("preset file");
    let mut sc: Scenario = serde_json::from_str(&text).expect("preset scenario");
    if let Some(t) = topology {
        sc.topology = t.into();
    }
    if let Some(l) = load {
        sc.load = l;
    }
    sc
}

fn bench(c: &mut Criterion) {
    let cases: [(&str, Scenario, Option<&str>, u64); 5] = [
        (
            "torus8x8_alone",
            preset("torus-dor-uniform", None, None),
            None,
            2_000,
        ),
        (
            "torus8x8_compared",
            preset("torus-dor-uniform", None, None),
            Some("dor:tie=random"),
            2_000,
        ),
        (
            "torus32x32_alone",
            preset("torus-dor-uniform", Some("torus:32x32"), Some(0.1)),
            None,
            200,
        ),
        (
            "torus32x32_compared",
            preset("torus-dor-uniform", Some("torus:32x32"), Some(0.1)),
            Some("dor:tie=random"),
            200,
        ),
        (
            "drb8x8_transpose_compared",
            preset("drb-torus8-transpose", None, None),
            Some("dor"),
            2_000,
        ),
    ];
    let mut group = c.benchmark_group("app_session");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    for (name, sc, compare, cycles) in cases {
        let mut s = Session::new(sc).expect("preset builds");
        if let Some(r) = compare {
            s.set_compare(Some(r.into())).expect("comparison builds");
        }
        // Past the first cycles' empty network.
        s.run(FramePlan {
            cycles: 1_000,
            budget_ms: u32::MAX,
        });
        group.throughput(Throughput::Elements(cycles));
        group.bench_function(name, |b| {
            b.iter(|| {
                let done = s.run(FramePlan {
                    cycles,
                    budget_ms: u32::MAX,
                });
                assert_eq!(done, cycles, "no run failed");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
