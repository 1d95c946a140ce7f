//! Path-selection speed against the targets it was built to: MaxCp on a
//! 64-switch irregular network well under a second, the whole family on a
//! 1024-switch irregular network in seconds, and simulated-annealing moves
//! per second.
//!
//! Run: `cargo bench --no-default-features --bench paths`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use routelab::paths::{Algorithm, Annealer, LegalKind, PathSet, Search, SearchParams, maxcp, run};
use routelab::topology::Network;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn set(spec: &str, kind: LegalKind, vcs: u8) -> Arc<PathSet> {
    let net = Network::from_spec(spec).unwrap();
    Arc::new(PathSet::build(&net, kind, 0, vcs, 64).unwrap())
}

fn maxcp_64(c: &mut Criterion) {
    let mut g = c.benchmark_group("maxcp_64");
    for (name, kind, vcs) in [
        ("updown-dfs", LegalKind::UpDownDfs, 1),
        ("updown-bfs", LegalKind::UpDownBfs, 1),
        ("udwm-5vc", LegalKind::Udwm, 5),
    ] {
        let s = set("irregular:64:seed=1", kind, vcs);
        g.bench_function(name, |b| b.iter(|| black_box(maxcp(&s))));
    }
    let net = Network::from_spec("irregular:64:seed=1").unwrap();
    g.bench_function("build-pathset-udwm-5vc", |b| {
        b.iter(|| black_box(PathSet::build(&net, LegalKind::Udwm, 0, 5, 64).unwrap()))
    });
    g.finish();
}

fn sa_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("sa_moves");
    let s = set("irregular:64:seed=1", LegalKind::UpDownDfs, 1);
    let moves = 1_000_000u64;
    g.throughput(Throughput::Elements(moves));
    g.bench_function("irregular64-dfs", |b| {
        b.iter(|| {
            let mut a = Annealer::new(
                s.clone(),
                &SearchParams {
                    budget: Some(moves),
                    ..SearchParams::default()
                },
            )
            .unwrap();
            a.step(moves);
            black_box(a.objective())
        })
    });
    g.finish();
}

fn family_1024(c: &mut Criterion) {
    let mut g = c.benchmark_group("family_1024");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(1));
    g.warm_up_time(Duration::from_millis(1));
    let net = Network::from_spec("irregular:1024:seed=1").unwrap();
    g.bench_function("build-pathset-bfs", |b| {
        b.iter(|| black_box(PathSet::build(&net, LegalKind::UpDownBfs, 0, 1, 64).unwrap()))
    });
    let s = Arc::new(PathSet::build(&net, LegalKind::UpDownBfs, 0, 1, 64).unwrap());
    let params = SearchParams {
        budget: Some(1_000_000),
        ..SearchParams::default()
    };
    for alg in Algorithm::ALL {
        let p = if alg == Algorithm::Ga {
            SearchParams {
                budget: Some(200),
                population: 10,
                ..params
            }
        } else {
            params
        };
        g.bench_with_input(BenchmarkId::from_parameter(alg), &alg, |b, &alg| {
            b.iter(|| black_box(run(&s, alg, &p).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, maxcp_64, sa_moves, family_1024);
criterion_main!(benches);
