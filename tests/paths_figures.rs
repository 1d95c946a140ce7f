//! Path selection on networks small enough to work out by hand: the
//! five-switch examples of Koibuchi et al. Figures 1 and 2 and a UDWM ring.
//!
//! The paper's figures are drawings; the text fixes enough to rebuild them.
//! Figure 1: switches a..e, root a, links a-b, a-c, b-d, b-e, c-e. The
//! counter of a->c is 4 ((a,e), (a,c), (b,c), (d,c) cross it), (a,e) has
//! the candidates a->b->e and a->c->e, (e,a) has e->b->a and e->c->a, and
//! a<->b is the congested link: every counter-based algorithm picks the
//! paths through c. Figure 2: links a-b, a-c, b-e, c-e, c-d, d-e with e the
//! up end of d-e; now a<->c carries the highest counters and c<->e the
//! lowest, so MaxCp and hpcf remove the paths through c (keeping a->b->e),
//! while lvcf and lpcf fix the paths through c (a->c->e).

use routelab::paths::{
    Algorithm, LegalKind, Legality, Load, PathSet, SearchParams, hpcf, lowport, lpcf, lvcf, maxcp,
    pair_index,
};
use routelab::topology::{Network, NetworkBuilder, Shape, SwitchId};
use std::sync::Arc;

fn build(n: usize, links: &[(SwitchId, SwitchId)]) -> Network {
    let mut b = NetworkBuilder::new(n);
    for &(x, y) in links {
        b.link(x, y);
    }
    b.hosts_per_switch(1);
    b.finish(
        "hand".into(),
        Shape::Irregular,
        (0..n).map(|i| [i as f32, 0.0]).collect(),
    )
}

/// Candidate paths crossing each physical channel (every kept path counts).
fn counters(set: &PathSet) -> Vec<u32> {
    let mut c = vec![0; set.num_channels()];
    for id in 0..set.num_paths() as u32 {
        for &h in set.hops(id) {
            c[set.channel_of(h)] += 1;
        }
    }
    c
}

/// Switches of the chosen path of (s, t).
fn chosen(set: &PathSet, choice: &[u32], s: SwitchId, t: SwitchId) -> Vec<SwitchId> {
    let p = pair_index(set.num_switches(), s, t);
    set.switches(set.paths_of(p).start + choice[p])
}

const A: SwitchId = 0;
const B: SwitchId = 1;
const C: SwitchId = 2;

mod figure1 {
    use super::*;
    const D: SwitchId = 3;
    const E: SwitchId = 4;

    fn set() -> PathSet {
        // Channel ids: a->b 0, b->a 1, a->c 2, c->a 3, b->d 4, d->b 5,
        // b->e 6, e->b 7, c->e 8, e->c 9.
        let net = build(5, &[(A, B), (A, C), (B, D), (B, E), (C, E)]);
        PathSet::build(&net, LegalKind::UpDownBfs, A, 1, 0).unwrap()
    }

    #[test]
    fn counters_match_the_text() {
        let s = set();
        let c = counters(&s);
        assert_eq!(c[2], 4, "a->c: (a,e), (a,c), (b,c), (d,c)");
        assert_eq!(c[0], 5, "a->b: (a,b), (a,d), (a,e), (c,b), (c,d)");
        assert_eq!(c[1], 5, "b->a is congested too");
        assert_eq!(c[8], 2, "c->e: (c,e), (a,e)");
        // Only (a,e) and (e,a) have a choice.
        let multi: Vec<usize> = (0..s.num_pairs()).filter(|&p| s.kept(p) > 1).collect();
        assert_eq!(
            multi,
            vec![pair_index(5, A, E), pair_index(5, E, A)],
            "only (a,e) and (e,a) have two paths"
        );
        assert_eq!(s.num_paths(), 22);
    }

    #[test]
    fn every_counter_algorithm_avoids_the_congested_link() {
        let s = set();
        for (name, ch) in [
            ("maxcp", maxcp(&s)),
            ("hpcf", hpcf(&s)),
            ("lvcf", lvcf(&s)),
            ("lpcf", lpcf(&s)),
        ] {
            assert_eq!(chosen(&s, &ch, A, E), vec![A, C, E], "{name} (a,e)");
            assert_eq!(chosen(&s, &ch, E, A), vec![E, C, A], "{name} (e,a)");
        }
    }

    #[test]
    fn low_port_first_takes_the_congested_link() {
        // a's port 0 goes to b, e's port 0 goes to b.
        let s = set();
        let ch = lowport(&s);
        assert_eq!(chosen(&s, &ch, A, E), vec![A, B, E]);
        assert_eq!(chosen(&s, &ch, E, A), vec![E, B, A]);
        // ... and that is worse on every objective than MaxCp.
        let (l, m) = (Load::of(&s, &ch), Load::of(&s, &maxcp(&s)));
        assert!(l.max() > m.max() && l.sd() > m.sd());
    }
}

mod figure2 {
    use super::*;
    // e gets the lower id so that it is the up end of the level-2 link d-e.
    const E: SwitchId = 3;
    const D: SwitchId = 4;

    fn set() -> PathSet {
        // a->b 0, b->a 1, a->c 2, c->a 3, b->e 4, e->b 5, c->e 6, e->c 7,
        // c->d 8, d->c 9, d->e 10, e->d 11.
        let net = build(5, &[(A, B), (A, C), (B, E), (C, E), (C, D), (D, E)]);
        PathSet::build(&net, LegalKind::UpDownBfs, A, 1, 0).unwrap()
    }

    #[test]
    fn counters_match_the_hand_count() {
        let s = set();
        let c = counters(&s);
        // a->c: (a,c), (a,d), (a,e) via c, (b,c).
        assert_eq!(c[2], 4);
        // c->a: (c,a), (c,b), (d,a), (e,a) via c.
        assert_eq!(c[3], 4);
        // c->e: (c,e), (a,e) via c; e->c: (e,c), (e,a) via c.
        assert_eq!((c[6], c[7]), (2, 2));
        assert_eq!((c[0], c[4]), (3, 3), "a->b and b->e");
        assert_eq!(c.iter().copied().max(), Some(4));
        // (b,d) goes b->e->d (down, down), shorter than b->a->c->d.
        let p = pair_index(5, B, D);
        assert_eq!(s.kept(p), 1);
        assert_eq!(s.switches(s.paths_of(p).start), vec![B, E, D]);
    }

    #[test]
    fn removal_algorithms_keep_the_former_fixing_ones_the_latter() {
        let s = set();
        for (name, ch) in [("maxcp", maxcp(&s)), ("hpcf", hpcf(&s))] {
            assert_eq!(chosen(&s, &ch, A, E), vec![A, B, E], "{name}");
            assert_eq!(chosen(&s, &ch, E, A), vec![E, B, A], "{name}");
        }
        for (name, ch) in [("lvcf", lvcf(&s)), ("lpcf", lpcf(&s))] {
            assert_eq!(chosen(&s, &ch, A, E), vec![A, C, E], "{name}");
            assert_eq!(chosen(&s, &ch, E, A), vec![E, C, A], "{name}");
        }
    }
}

/// A ring of six, root 0: levels 0 | 1, 5 | 2, 4 | 3. From 2 to 4 the only
/// up*/down* path climbs over the root (4 hops); UDWM with 2 VCs may go
/// 2 -> 3 down on VC 1 and turn up 3 -> 4 onto VC 0 (2 hops).
#[test]
fn udwm_turns_down_to_up_onto_a_lower_vc() {
    let net = build(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]);
    let p = pair_index(6, 2, 4);
    let ud = PathSet::build(&net, LegalKind::UpDownBfs, 0, 2, 0).unwrap();
    assert_eq!(ud.pair_len(p), 4);
    assert_eq!(ud.kept(p), 2, "one physical path, once per VC");
    for id in ud.paths_of(p) {
        let vcs: Vec<u8> = ud.hop_details(id).iter().map(|h| h.vc).collect();
        assert!(vcs.windows(2).all(|w| w[0] == w[1]), "one VC per path");
    }
    let u = PathSet::build(&net, LegalKind::Udwm, 0, 2, 0).unwrap();
    assert_eq!(u.pair_len(p), 2);
    assert_eq!(u.kept(p), 1);
    let id = u.paths_of(p).start;
    assert_eq!(u.switches(id), vec![2, 3, 4]);
    let vcs: Vec<u8> = u.hop_details(id).iter().map(|h| h.vc).collect();
    assert_eq!(vcs, vec![1, 0]);
    // With one VC UDWM is plain up*/down*.
    let u1 = PathSet::build(&net, LegalKind::Udwm, 0, 1, 0).unwrap();
    assert_eq!(u1.pair_len(p), 4);
    // The rule itself.
    let legal = Legality::new(&net, LegalKind::Udwm, 0, 2);
    assert!(legal.is_legal(&[2, 3, 4], &[1, 0]));
    assert!(!legal.is_legal(&[2, 3, 4], &[0, 0]), "turn on the same VC");
    assert!(!legal.is_legal(&[2, 3, 4], &[0, 1]), "VC rises");
}

/// With one virtual channel hpcf is MaxCp and lpcf is lvcf.
#[test]
fn one_vc_variants_coincide() {
    let net = Network::from_spec("irregular:16:seed=5").unwrap();
    let s = PathSet::build(&net, LegalKind::UpDownBfs, 0, 1, 0).unwrap();
    assert_eq!(maxcp(&s), hpcf(&s));
    assert_eq!(lvcf(&s), lpcf(&s));
}

/// DFS labels are a visiting order: distinct, root first.
#[test]
fn dfs_tree_labels_are_an_order() {
    let net = Network::from_spec("irregular:16:seed=2").unwrap();
    let l = Legality::new(&net, LegalKind::UpDownDfs, 3, 1);
    assert_eq!(l.labels()[3], 0);
    let mut sorted = l.labels().to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..16).collect::<Vec<u32>>());
}

/// A search on Figure 1 finds the balanced choice too.
#[test]
fn searches_find_the_hand_optimum() {
    let net = build(5, &[(A, B), (A, C), (B, 3), (B, 4), (C, 4)]);
    let s = Arc::new(PathSet::build(&net, LegalKind::UpDownBfs, A, 1, 0).unwrap());
    let m = Load::of(&s, &maxcp(&s)).sd();
    for alg in [Algorithm::Sa, Algorithm::Ga] {
        let params = SearchParams {
            budget: Some(2000),
            ..SearchParams::default()
        };
        let (c, _) = routelab::paths::run(&s, alg, &params).unwrap();
        assert!(Load::of(&s, &c).sd() <= m + 1e-12, "{alg}");
    }
}
