//! The exact channel-load analysis against the numbers of Singh's thesis
//! and numbers derived by hand (each derivation in the test's comment).
//! Every comparison is between exact rationals.

use num_rational::Ratio;
use routelab::analysis::{
    ChannelSet, ChannelWeights, Cube, DimOrder, Law, MatrixSpec, TrafficMatrix, channel_loads,
    channel_worst, quadrants, random_permutation_average, worst_case, worst_case_over,
};
use routelab::routing::{DorLaw, RommLaw, TieRule};

type Q = Ratio<i128>;

fn q(a: i128, b: i128) -> Q {
    Ratio::new(a, b)
}

fn r(spec: &str) -> Law {
    spec.parse().unwrap()
}

fn weights(topology: &str, routing: &str) -> ChannelWeights {
    ChannelWeights::new(&Cube::from_spec(topology).unwrap(), r(routing)).unwrap()
}

/// Ideal throughput (fraction of capacity) of `routing` on `traffic`.
fn theta(topology: &str, routing: &str, traffic: &str) -> Q {
    let w = weights(topology, routing);
    let spec: MatrixSpec = traffic.parse().unwrap();
    let m = TrafficMatrix::build(&spec, w.cube().network(), 1).unwrap();
    channel_loads(&w, &m).unwrap().ideal_throughput().unwrap()
}

fn worst(topology: &str, routing: &str) -> Q {
    worst_case(&weights(topology, routing))
        .unwrap()
        .ideal_throughput
}

const ALL: [&str; 9] = [
    "dor",
    "dor:tie=random",
    "dor:tie=parity",
    "rdor",
    "val",
    "romm",
    "romm:order=random",
    "rlb",
    "rlbth",
];

// ---------------------------------------------------------------- the thesis

/// §3.1: tornado on an 8-node ring (every node sends 3 hops clockwise).
/// MIN puts 3 flows on every clockwise channel: 1/3; VAL 1/2; RLB sends
/// 5/8 the short way (3 hops) and 3/8 the long way (5 hops), 15/8 on every
/// channel: 8/15. Capacity 8/k = 1.
#[test]
fn tornado_on_an_8_ring() {
    for min in ["rdor", "dor", "dor:tie=random", "dor:tie=parity"] {
        assert_eq!(theta("torus:8", min, "tornado"), q(1, 3), "{min}");
    }
    assert_eq!(theta("torus:8", "val", "tornado"), q(1, 2));
    assert_eq!(theta("torus:8", "rlb", "tornado"), q(8, 15));
    // RLBth keeps it: Δ = 3 is not below k/4 = 2.
    assert_eq!(theta("torus:8", "rlbth", "tornado"), q(8, 15));
    // Theorem 3's formula for MIN on tornado: (k/8)/(k/2 - 1) of capacity.
    for k in [8i128, 10, 12, 16] {
        let spec = format!("torus:{k}");
        assert_eq!(
            theta(&spec, "rdor", "tornado"),
            q(k, 8 * (k / 2 - 1)),
            "k={k}"
        );
    }
}

/// §3.1: nearest-neighbour traffic on an 8-ring. RLB: each channel carries
/// 1/2·7/8 (short) + 1/2·1/8·7 (long) = 7/8, so 8/7; RLBth routes Δ = 1
/// < k/4 minimally, like MIN: load 1/2, throughput 2.
#[test]
fn nearest_neighbour_on_an_8_ring() {
    assert_eq!(theta("torus:8", "rlb", "nn"), q(8, 7));
    assert_eq!(theta("torus:8", "rlbth", "nn"), q(2, 1));
    assert_eq!(theta("torus:8", "rdor", "nn"), q(2, 1));
    assert_eq!(theta("torus:8", "val", "nn"), q(1, 2));
    // 8x8 torus: a quarter of the traffic per neighbour; RLB's dimension
    // channel load 1/4·7/8 + 1/4·1/8·7 = 7/16, so 16/7; minimal 1/4, so 4.
    assert_eq!(theta("torus:8x8", "rlb", "nn"), q(16, 7));
    for minimal in ["rlbth", "rdor", "dor", "romm", "romm:order=random"] {
        assert_eq!(theta("torus:8x8", minimal, "nn"), q(4, 1), "{minimal}");
    }
}

/// Theorem 4: RLB's worst case on a ring is optimal, 1/2 of capacity.
#[test]
fn rlb_worst_case_on_rings_is_one_half() {
    for k in 4..=16 {
        let spec = format!("torus:{k}");
        assert_eq!(worst(&spec, "rlb"), q(1, 2), "k={k}");
    }
}

/// §3.2's worked example: 8x8 torus, (0,0) to (2,3).
#[test]
fn rlb_quadrants_of_the_worked_example() {
    let cube = Cube::from_spec("torus:8x8").unwrap();
    let (s, d) = (cube.node(&[0, 0]), cube.node(&[2, 3]));
    let got: Vec<Q> = quadrants(&cube, &r("rlb"), s, d)
        .unwrap()
        .iter()
        .map(|q| q.probability)
        .collect();
    assert_eq!(got, vec![q(15, 32), q(9, 32), q(5, 32), q(3, 32)]);
}

// ---------------------------------------------------------- derived by hand

/// VAL: phase 1 depends only on the row sums and phase 2 only on the column
/// sums, so on any doubly stochastic traffic every channel carries twice
/// the uniform load: 1/2 of capacity, worst case included.
#[test]
fn val_is_one_half_on_every_admissible_traffic() {
    for topology in ["torus:8x8", "torus:5x5", "torus:6x4", "torus:7"] {
        for traffic in [
            "uniform",
            "uniform-other",
            "nn",
            "neighbor",
            "tornado",
            "randperm",
        ] {
            assert_eq!(
                theta(topology, "val", traffic),
                q(1, 2),
                "{topology} {traffic}"
            );
        }
    }
    for traffic in ["bitcomp", "transpose", "bitrev", "shuffle", "butterfly"] {
        assert_eq!(theta("torus:8x8", "val", traffic), q(1, 2), "{traffic}");
    }
    assert_eq!(worst("torus:4x4", "val"), q(1, 2));
    assert_eq!(worst("torus:5", "val"), q(1, 2));
}

/// Uniform traffic (λ = 1/N, s = d included) on even k: with ties split
/// evenly every channel carries k/8, the capacity's definition: 1. DOR's
/// default tie rule `plus` sends every k/2 offset the + way: the + channel
/// carries Σ_{δ=1..k/2} δ/k = (k+2)/8, so k/(k+2) (4/5 on 8x8). With
/// `parity`, the tie packets crossing a + ring channel c come from the k/2
/// sources c-k/2+1..c, of which the even ones go +: exactly half when 4
/// divides k (so 1), but 2 of 3 for k = 6 at some c: load
/// (1+2)/6 + 2/6 = 5/6 against k/8 = 3/4, so 9/10.
#[test]
fn uniform_traffic_with_each_tie_rule() {
    for topology in ["torus:8x8", "torus:4x4", "torus:6"] {
        for routing in ["dor:tie=random", "rdor", "romm", "romm:order=random"] {
            assert_eq!(
                theta(topology, routing, "uniform"),
                q(1, 1),
                "{topology} {routing}"
            );
        }
    }
    assert_eq!(theta("torus:8x8", "dor:tie=parity", "uniform"), q(1, 1));
    assert_eq!(theta("torus:4x4", "dor:tie=parity", "uniform"), q(1, 1));
    assert_eq!(theta("torus:6", "dor:tie=parity", "uniform"), q(9, 10));
    assert_eq!(theta("torus:8x8", "dor", "uniform"), q(4, 5));
    assert_eq!(theta("torus:6", "dor:tie=plus", "uniform"), q(3, 4));
    // Odd k has no ties: every minimal routing reaches capacity.
    assert_eq!(theta("torus:5x5", "dor", "uniform"), q(1, 1));
    // RLB: E[hops per dimension] = Σ_δ 2Δ(k-Δ)/k / k = 21/8 for k = 8,
    // half per direction: 21/16, so 16/21. RLBth routes Δ ≤ 1 minimally:
    // 39/16 per dimension, 39/32 per channel, so 32/39.
    assert_eq!(theta("torus:8x8", "rlb", "uniform"), q(16, 21));
    assert_eq!(theta("torus:8", "rlb", "uniform"), q(16, 21));
    assert_eq!(theta("torus:8x8", "rlbth", "uniform"), q(32, 39));
}

/// The simulator's uniform (never itself) is a different matrix: minimal
/// routing with random ties loads each channel k/8 · N/(N-1).
#[test]
fn uniform_other_is_not_the_analysis_uniform() {
    assert_eq!(theta("torus:8x8", "rdor", "uniform-other"), q(63, 64));
    assert_eq!(theta("torus:4", "rdor", "uniform-other"), q(3, 4));
}

/// Tornado on 8x8: every packet moves 3 hops in each dimension; by
/// translation symmetry every channel of a class has the same load, so the
/// ring numbers hold per dimension.
#[test]
fn tornado_on_the_8x8_torus() {
    assert_eq!(theta("torus:8x8", "dor", "tornado"), q(1, 3));
    assert_eq!(theta("torus:8x8", "romm", "tornado"), q(1, 3));
    assert_eq!(theta("torus:8x8", "rlb", "tornado"), q(8, 15));
    assert_eq!(theta("torus:8x8", "rlbth", "tornado"), q(8, 15));
}

/// Average hops of minimal routing under the analysis's uniform traffic:
/// k/4 per dimension for even k, (k²-1)/(4k) for odd k; RLB on a ring of
/// 8: 21/8; VAL twice the minimal mean.
#[test]
fn average_hops() {
    let hops = |topology: &str, routing: &str| {
        let w = weights(topology, routing);
        let m = TrafficMatrix::uniform(w.cube().num_nodes());
        channel_loads(&w, &m).unwrap().avg_hops()
    };
    assert_eq!(hops("torus:8", "rdor"), q(2, 1));
    assert_eq!(hops("torus:7", "dor"), q(48, 28));
    assert_eq!(hops("torus:8x8", "dor"), q(4, 1));
    assert_eq!(hops("torus:8x5", "romm"), q(2, 1) + q(24, 20));
    assert_eq!(hops("torus:8", "rlb"), q(21, 8));
    assert_eq!(hops("torus:8x8", "val"), q(8, 1));
    // Mesh: mean |x - y| over a line of k is (k²-1)/(3k).
    assert_eq!(hops("mesh:4x4", "dor"), q(2 * 15, 12));
}

/// DOR's worst case on a ring. A + channel c can only be crossed from the
/// sources c, c-1, .., whose destinations lie within half a ring: with
/// `plus` the k/2 sources nest onto k/2 destinations, γ* = k/2, so
/// (2/k)/(8/k) = 1/4 (Theorem 3's 25%). Odd k: γ* = (k-1)/2, so
/// (k+1)/(4k). Random ties: a k/2 offset counts 1/2, γ* = k/2 - 1, so
/// k/(4(k-2)).
#[test]
fn dor_worst_case_on_rings() {
    for k in [4i128, 6, 8, 12, 16] {
        let spec = format!("torus:{k}");
        assert_eq!(worst(&spec, "dor"), q(1, 4), "k={k}");
        assert_eq!(worst(&spec, "dor:tie=random"), q(k, 4 * (k - 2)), "k={k}");
        assert_eq!(worst(&spec, "rdor"), q(k, 4 * (k - 2)), "k={k}");
    }
    for k in [5i128, 7, 9, 15] {
        let spec = format!("torus:{k}");
        assert_eq!(worst(&spec, "dor"), q(k + 1, 4 * k), "k={k}");
    }
}

/// Conservation: Σ_c γ_c = Σ_sd λ_sd·E[hops(s,d)], with E[hops] written
/// from each routing's definition (per dimension: minimal Δ; RLB
/// 2Δ(k-Δ)/k; RLBth Δ when 4Δ < k; VAL twice the ring's mean distance).
#[test]
fn conservation_of_channel_crossings() {
    let cube = Cube::from_spec("torus:5x4").unwrap();
    let ring_mean = |k: u32| -> Q { (0..k).map(|x| q(x.min(k - x) as i128, k as i128)).sum() };
    let expected_hops = |routing: &str, s: u32, d: u32| -> Q {
        let (sc, dc) = (cube.coords(s), cube.coords(d));
        (0..cube.dims())
            .map(|j| {
                let k = cube.radix()[j];
                let plus = (dc[j] + k - sc[j]) % k;
                let delta = plus.min(k - plus) as i128;
                let kk = k as i128;
                match routing {
                    "val" => ring_mean(k) * 2,
                    "rlb" => q(2 * delta * (kk - delta), kk),
                    "rlbth" if 4 * delta < kk => q(delta, 1),
                    "rlbth" => q(2 * delta * (kk - delta), kk),
                    _ => q(delta, 1),
                }
            })
            .sum()
    };
    for traffic in [
        "uniform",
        "hotspot:fraction=0.3:nodes=1,7",
        "randperm",
        "tornado",
        "nn",
    ] {
        let spec: MatrixSpec = traffic.parse().unwrap();
        let m = TrafficMatrix::build(&spec, cube.network(), 5).unwrap();
        for routing in ALL {
            let w = ChannelWeights::new(&cube, r(routing)).unwrap();
            let loads = channel_loads(&w, &m).unwrap();
            let want: Q = m
                .entries()
                .iter()
                .map(|&(s, d, x)| q(x, m.denominator()) * expected_hops(routing, s, d))
                .sum();
            assert_eq!(loads.total_load(), want, "{routing} {traffic}");
        }
    }
}

// ------------------------------------------------------------ the worst case

/// The symmetry shortcut (one matching per channel class) gives the same
/// worst case as a matching on every channel, and every channel's γ*
/// equals its representative's, for every routing on torus:4x4.
#[test]
fn symmetry_shortcut_equals_all_channels_on_4x4() {
    let cube = Cube::from_spec("torus:4x4").unwrap();
    for routing in ALL {
        let w = ChannelWeights::new(&cube, r(routing)).unwrap();
        let short = worst_case_over(&w, ChannelSet::Representatives).unwrap();
        let all = worst_case_over(&w, ChannelSet::All).unwrap();
        assert_eq!(short.max_channel_load, all.max_channel_load, "{routing}");
        assert_eq!(short.ideal_throughput, all.ideal_throughput, "{routing}");
        assert!(short.per_channel.len() < all.per_channel.len());
        let reps: std::collections::HashMap<u32, Q> = short.per_channel.iter().copied().collect();
        for &(ch, g) in &all.per_channel {
            let (rep, _) = w.class_of(ch);
            assert_eq!(reps[&rep], g, "{routing}: channel {ch} vs its class {rep}");
        }
    }
}

/// The permutation returned achieves the worst load, and no pattern does
/// worse than the worst case.
#[test]
fn the_worst_permutation_achieves_it_and_bounds_every_pattern() {
    let cube = Cube::from_spec("torus:4x4").unwrap();
    for routing in ALL {
        let w = ChannelWeights::new(&cube, r(routing)).unwrap();
        let wc = worst_case(&w).unwrap();
        let mut seen = wc.permutation.clone();
        seen.sort_unstable();
        assert_eq!(
            seen,
            (0..16).collect::<Vec<u32>>(),
            "{routing}: not a permutation"
        );
        let loads = channel_loads(&w, &TrafficMatrix::permutation(&wc.permutation)).unwrap();
        assert_eq!(loads.load(wc.channel), wc.max_channel_load, "{routing}");
        assert_eq!(loads.max_channel_load(), wc.max_channel_load, "{routing}");
        assert_eq!(channel_worst(&w, wc.channel).0, wc.max_channel_load);
        for traffic in [
            "uniform",
            "nn",
            "bitcomp",
            "transpose",
            "tornado",
            "bitrev",
            "hotspot",
        ] {
            let m = TrafficMatrix::build(&traffic.parse().unwrap(), cube.network(), 1).unwrap();
            let l = channel_loads(&w, &m).unwrap();
            assert!(
                l.max_channel_load() <= wc.max_channel_load || traffic == "hotspot",
                "{routing} {traffic}"
            );
        }
    }
}

/// Minimal routing cannot balance tornado-like traffic: RLB's worst case
/// beats DOR's on 8x8, and VAL's 1/2 beats both.
#[test]
fn worst_case_ordering_on_8x8() {
    let dor = worst("torus:8x8", "dor");
    let rlb = worst("torus:8x8", "rlb");
    assert_eq!(dor, q(1, 4));
    assert!(rlb > dor, "rlb {rlb} dor {dor}");
    assert!(rlb < q(1, 2), "rlb {rlb}");
    assert_eq!(worst("torus:8x8", "val"), q(1, 2));
}

// ---------------------------------------------------------- the average case

#[test]
fn random_permutation_average_is_seeded_and_consistent() {
    let w = weights("torus:4x4", "rlb");
    let a = random_permutation_average(&w, 200, 3).unwrap();
    let b = random_permutation_average(&w, 200, 3).unwrap();
    assert_eq!(a, b);
    let wc = worst_case(&w).unwrap().ideal_throughput;
    let f = |x: Q| *x.numer() as f64 / *x.denom() as f64;
    assert!(wc <= a.min);
    assert!(a.min <= a.p5);
    assert!(f(a.p5) <= a.mean);
    assert!(a.std_error > 0.0);
    // One sample is the simulator's randperm with the same seed.
    let one = random_permutation_average(&w, 1, 9).unwrap();
    let m = TrafficMatrix::build(&"randperm".parse().unwrap(), w.cube().network(), 9).unwrap();
    assert_eq!(
        one.min,
        channel_loads(&w, &m).unwrap().ideal_throughput().unwrap()
    );
    // VAL is 1/2 on every permutation.
    let v = random_permutation_average(&weights("torus:4x4", "val"), 50, 1).unwrap();
    assert_eq!(
        (v.min, v.p5, v.mean, v.std_error),
        (q(1, 2), q(1, 2), 0.5, 0.0)
    );
}

// --------------------------------------------------------------- meshes etc.

#[test]
fn meshes_take_the_minimal_family_and_refuse_rlb() {
    // Uniform on a mesh with DOR: the centre channel carries k/4, the
    // capacity's definition.
    assert_eq!(theta("mesh:8x8", "dor", "uniform"), q(1, 1));
    assert_eq!(theta("mesh:5", "dor", "uniform"), q(1, 1));
    assert!(ChannelWeights::new(&Cube::from_spec("mesh:4x4").unwrap(), r("rlb")).is_err());
    let w = weights("mesh:4x4", "val");
    let m = TrafficMatrix::uniform(16);
    assert!(channel_loads(&w, &m).unwrap().ideal_throughput().unwrap() < q(1, 1));
    // Symmetry: a mesh has none, so every channel is its own class.
    let wc = worst_case(&weights("mesh:3x3", "dor")).unwrap();
    assert_eq!(wc.per_channel.len(), 24);
}

#[test]
fn tie_rule_and_order_are_parameters() {
    assert_eq!(r("dor"), Law::new(DorLaw { tie: TieRule::Plus }));
    assert_eq!(
        r("romm:order=random"),
        Law::new(RommLaw {
            order: DimOrder::Random
        })
    );
}
