//! The exact channel-load analysis's speed bar (issue 11): the worst case
//! (Towles and Dally's matchings) plus the average over 1000 random
//! permutations, for all six routings on torus:16x16, in at most 30 s on
//! one thread.
//!
//! Run: `cargo bench --no-default-features --bench analysis`.

use criterion::{Criterion, criterion_group, criterion_main};
use routelab::analysis::{
    ChannelWeights, Cube, DEFAULT_SAMPLES, Law, random_permutation_average, worst_case,
};
use std::hint::black_box;
use std::time::Duration;

/// Worst case + average for the six routings, from the cube (the tables
/// of every routing are built inside the measured time).
fn six_routings(cube: &Cube) -> f64 {
    let mut acc = 0.0;
    for routing in Law::compared() {
        let w = ChannelWeights::new(cube, routing).unwrap();
        let wc = worst_case(&w).unwrap();
        let avg = random_permutation_average(&w, DEFAULT_SAMPLES, 1).unwrap();
        acc += *wc.ideal_throughput.numer() as f64 / *wc.ideal_throughput.denom() as f64;
        acc += avg.mean;
    }
    acc
}

fn worst_and_average_16x16(c: &mut Criterion) {
    let mut g = c.benchmark_group("analysis_16x16");
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(25));
    let cube = Cube::from_spec("torus:16x16").unwrap();
    g.bench_function("worst+average-six-routings", |b| {
        b.iter(|| black_box(six_routings(&cube)))
    });
    g.finish();
    // The parts, per routing, to see where the time goes.
    let mut g = c.benchmark_group("analysis_16x16_parts");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(8));
    for routing in Law::compared() {
        let w = ChannelWeights::new(&cube, routing.clone()).unwrap();
        g.bench_function(format!("worst/{routing}"), |b| {
            b.iter(|| black_box(worst_case(&w).unwrap().max_channel_load))
        });
        g.bench_function(format!("average/{routing}"), |b| {
            b.iter(|| {
                black_box(
                    random_permutation_average(&w, DEFAULT_SAMPLES, 1)
                        .unwrap()
                        .mean,
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, worst_and_average_16x16);
criterion_main!(benches);
