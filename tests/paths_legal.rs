//! Every chosen path is legal, one of the shortest legal ones, and every
//! pair is connected, for every algorithm and every legal routing, on the
//! preset-sized networks.

use routelab::paths::{
    Algorithm, LegalKind, Load, PathSet, SearchParams, pair_index, pair_of, run,
};
use routelab::routing::UpDownTables;
use routelab::topology::Network;
use std::sync::Arc;

fn check(net: &Network, kind: LegalKind, vcs: u8, cap: usize) {
    let set = Arc::new(PathSet::build(net, kind, 0, vcs, cap).unwrap());
    let n = net.num_switches();
    assert_eq!(set.num_pairs(), n * (n - 1));
    let legal = set.legality();
    let bfs = UpDownTables::bfs(net, 0);
    // Every kept path: legal, from s to t, of the pair's (shortest) length,
    // and all distinct.
    for p in 0..set.num_pairs() {
        let (s, t) = pair_of(n, p);
        assert_eq!(pair_index(n, s, t), p);
        assert!(set.kept(p) >= 1, "{s}->{t} not connected");
        assert!(set.total(p) >= set.kept(p) as u64);
        if cap > 0 {
            assert!(set.kept(p) as usize <= cap);
        }
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for id in set.paths_of(p) {
            let sw = set.switches(id);
            assert_eq!((sw[0], *sw.last().unwrap()), (s, t));
            let vc: Vec<u8> = set.hop_details(id).iter().map(|h| h.vc).collect();
            assert!(legal.is_legal(&sw, &vc), "{kind} {s}->{t}: {sw:?} {vc:?}");
            assert_eq!(sw.len() - 1, set.pair_len(p));
            seen.push(set.hops(id).to_vec());
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), set.kept(p) as usize, "duplicate paths");
        match kind {
            // Independent check of "shortest" against the routing's tables.
            LegalKind::UpDownBfs => {
                assert_eq!(
                    Some(set.pair_len(p) as u32),
                    bfs.distance(s, t, 0),
                    "{s}->{t}"
                );
            }
            // UDWM only adds paths: never longer than up*/down*.
            LegalKind::Udwm => {
                assert!(set.pair_len(p) as u32 <= bfs.distance(s, t, 0).unwrap());
            }
            LegalKind::UpDownDfs => {}
        }
    }
    // Every algorithm picks one of them (so legal and shortest) for every pair.
    let params = SearchParams {
        budget: Some(2_000),
        ..SearchParams::default()
    };
    for alg in Algorithm::ALL {
        let (choice, _) = run(&set, alg, &params).unwrap();
        assert_eq!(choice.len(), set.num_pairs(), "{alg}");
        for (p, &j) in choice.iter().enumerate() {
            assert!(j < set.kept(p), "{alg} pair {p}");
        }
        // The crossing sum is the same for every choice: sum of lengths.
        let total: u64 = (0..set.num_pairs()).map(|p| set.pair_len(p) as u64).sum();
        assert_eq!(Load::of(&set, &choice).sum(), total, "{alg}");
    }
}

#[test]
fn irregular_16_all_routings() {
    let net = Network::from_spec("irregular:16:seed=1").unwrap();
    for kind in LegalKind::ALL {
        check(&net, kind, 1, 0);
    }
    check(&net, LegalKind::Udwm, 3, 0);
    check(&net, LegalKind::UpDownBfs, 2, 0);
}

#[test]
fn irregular_32_all_routings() {
    let net = Network::from_spec("irregular:32:seed=1").unwrap();
    for kind in LegalKind::ALL {
        check(&net, kind, 1, 0);
    }
}

#[test]
fn torus_udwm_capped() {
    // Path counts explode on the torus under UDWM: the cap keeps 8 per pair.
    let net = Network::from_spec("torus:4x4").unwrap();
    check(&net, LegalKind::Udwm, 3, 8);
    let set = PathSet::build(&net, LegalKind::Udwm, 0, 3, 8).unwrap();
    assert!(set.capped_pairs() > 0);
    assert!(set.paths_total() > set.num_paths() as u128);
    // Rank 0 (low port first) is always kept: the capped set starts like the
    // uncapped one.
    let all = PathSet::build(&net, LegalKind::Udwm, 0, 3, 0).unwrap();
    for p in 0..set.num_pairs() {
        assert_eq!(set.pair_path(p, 0), all.pair_path(p, 0));
        assert_eq!(set.total(p), all.total(p));
    }
}

#[test]
fn dfs_tree_removes_fewer_shortest_paths_on_average() {
    // Sancho et al.'s claim (Villalobos et al. §2) is statistical; check that
    // on these networks DFS paths are not longer on average than BFS ones.
    let mut better = 0;
    for seed in 1..=4 {
        let net = Network::from_spec(&format!("irregular:32:seed={seed}")).unwrap();
        let len = |k| {
            let s = PathSet::build(&net, k, 0, 1, 1).unwrap();
            (0..s.num_pairs()).map(|p| s.pair_len(p)).sum::<usize>()
        };
        if len(LegalKind::UpDownDfs) <= len(LegalKind::UpDownBfs) {
            better += 1;
        }
    }
    assert!(better >= 2, "DFS shorter or equal on {better} of 4");
}

#[test]
fn disconnected_network_is_an_error() {
    use routelab::topology::{NetworkBuilder, Shape};
    let mut b = NetworkBuilder::new(4);
    b.link(0, 1);
    b.link(2, 3);
    b.hosts_per_switch(1);
    let net = b.finish("split".into(), Shape::Irregular, vec![[0.0, 0.0]; 4]);
    let e = PathSet::build(&net, LegalKind::UpDownBfs, 0, 1, 0).unwrap_err();
    assert!(e.to_string().contains("cannot reach"), "{e}");
    let net = Network::from_spec("irregular:8:seed=1").unwrap();
    let e = PathSet::build(&net, LegalKind::UpDownBfs, 9, 1, 0).unwrap_err();
    assert!(e.to_string().contains("root 9; accepted 0..7"), "{e}");
}
