//! The order in which B (swap the balancer) and the Balancer box step
//! through the routings of a network: across families, each paper's
//! contrast first (no egui here).
//!
//! - tori and meshes: DOR, RDOR, VAL, ROMM, RLB, RLBth (Singh §2.3, §3),
//!   adaptive, DRB (Franco et al. §5);
//! - fat trees under the time-slice model: the greedy balancer's steps 1 to
//!   7 (the fat-tree paper, "Model building"), ECMP, D-mod-k, DRILL;
//! - irregular networks: up*/down*, then the path-selection algorithms
//!   (Villalobos §3; Koibuchi §3).
//!
//! Only routings that apply to the network, go with the switch model and fit
//! the scenario's virtual channels are offered, so a swap in a live demo is
//! never refused.

use crate::routing::RoutingSpec;
use crate::scenario::Scenario;
use crate::topology::Network;
use crate::topology::registry;

/// The routings B steps through on `scenario`'s network, as the names the
/// built routings go by: the contrasts of the network's kind (its topology
/// registry entry's: Singh's and DRB's routings on tori, meshes, hypercubes
/// and midimew, the fat-tree paper's steps on fat trees, up*/down* and the
/// path selections elsewhere), then the family of the scenario's own routing
/// when that is another (a path-selection preset on a torus), keeping
/// those that fit. `minimal` stands for one of them on every network, so
/// it is offered only where nothing else applies.
pub fn swap_order(scenario: &Scenario, net: &Network) -> Vec<String> {
    let fits = |spec: &RoutingSpec| {
        spec.applies_to(net).is_ok()
            && scenario.switch_model.check(net, spec).is_ok()
            && spec.min_vcs(net) <= scenario.vcs.max(1)
    };
    // The network's kind's contrasts (its registry entry's), then the
    // other kinds' lists that hold the scenario's own routing.
    let lists: Vec<&'static [&'static str]> =
        registry::kinds().iter().fold(Vec::new(), |mut v, k| {
            if !v.contains(&k.contrasts) {
                v.push(k.contrasts);
            }
            v
        });
    let own: &[&str] = registry::kind_of(net.spec())
        .map(|k| k.contrasts)
        .unwrap_or(&[]);
    let name_of = |r: &str| r.parse::<RoutingSpec>().map(|s| s.name()).ok();
    let routing_name = name_of(&scenario.routing);
    let mut groups = vec![own];
    for g in lists {
        if g != own && g.iter().any(|r| name_of(r) == routing_name) {
            groups.push(g);
        }
    }
    // Then the registry's other examples that fit (DOR's tie rules,
    // ROMM's random order, ...): on a torus of 2 VCs, where none of the
    // other families fits, B still has somewhere to go.
    let kinds: Vec<&str> = groups
        .iter()
        .flat_map(|g| g.iter())
        .filter_map(|r| name_of(r))
        .collect();
    let examples = crate::routing::registry::KINDS
        .iter()
        .filter(|k| kinds.contains(&k.name))
        .flat_map(|k| k.examples.iter().copied());
    let mut out: Vec<String> = Vec::new();
    for name in groups.into_iter().flatten().copied().chain(examples) {
        if let Ok(spec) = name.parse::<RoutingSpec>()
            && fits(&spec)
        {
            // Under the name of what it builds here, once: on a
            // hypercube `dor:tie=random` is `dor`, and B would swap to the
            // routing already running.
            let canonical = spec.canonical_on(net);
            if !out.contains(&canonical) {
                out.push(canonical);
            }
        }
    }
    if out.is_empty() {
        out.push(RoutingSpec::minimal().to_string());
    }
    out
}

/// The canonical spelling of `routing` (the name a built routing goes by),
/// or the text itself when it does not parse.
pub fn canonical(routing: &str) -> String {
    routing
        .parse::<RoutingSpec>()
        .map_or_else(|_| routing.to_string(), |s| s.to_string())
}

/// The routing after `current` in `order`: the next entry after the one it
/// equals, or after the first of its kind (a preset's `drb:tau=0.02` steps
/// on from `drb`), or the first entry when its kind is not in the order.
pub fn next_after(order: &[String], current: &str) -> Option<String> {
    let now = canonical(current);
    let kind = |c: &str| c.parse::<RoutingSpec>().map(|s| s.name()).ok();
    let at = order.iter().position(|c| *c == now).or_else(|| {
        order
            .iter()
            .position(|c| kind(c).is_some() && kind(c) == kind(&now))
    });
    let n = order.len();
    let start = at.map_or(0, |i| i + 1);
    (0..n)
        .map(|k| &order[(start + k) % n])
        .find(|c| **c != now)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order_of(topology: &str, vcs: u8) -> Vec<String> {
        let s = Scenario {
            topology: topology.into(),
            vcs,
            ..Scenario::default()
        };
        let net = Network::from_spec(topology).unwrap();
        swap_order(&s, &net)
    }

    /// On a torus with room for every routing, B starts with the oblivious
    /// contrast and reaches adaptive routing and DRB, then DOR again.
    #[test]
    fn a_torus_steps_across_families() {
        let o = order_of("torus:8x8", 8);
        let names: Vec<&str> = o.iter().map(|c| c.split(':').next().unwrap()).collect();
        assert_eq!(
            names[..8],
            [
                "dor", "rdor", "val", "romm", "rlb", "rlbth", "adaptive", "drb"
            ]
        );
        // Then the variants (DOR's tie rules), no other family.
        assert!(
            names[8..]
                .iter()
                .all(|n| ["dor", "romm", "drb"].contains(n)),
            "{o:?}"
        );
        // A DRB preset's spec steps on to DOR, not to another DRB.
        let next = next_after(&o, "drb:tau=0.02:tolerance=0.01").unwrap();
        assert!(next.starts_with("dor"), "{next}");
        assert!(next_after(&o, &o[0]).unwrap().starts_with("rdor"));
    }

    /// No two entries build the same routing: on a hypercube and a
    /// midimew DOR's tie rules mean nothing, so `dor` comes once and B never
    /// swaps to the routing already running; on a torus the tie rules stay.
    #[test]
    fn no_entry_is_another_under_a_new_name() {
        for topology in ["hypercube:6", "midimew:64"] {
            let o = order_of(topology, 12);
            let dors: Vec<&String> = o.iter().filter(|c| c.starts_with("dor")).collect();
            assert_eq!(dors, ["dor"], "{topology}: {o:?}");
            // DRB's tie rules mean nothing here either.
            assert!(o.iter().any(|c| c == "drb"), "{topology}: {o:?}");
            assert!(!o.iter().any(|c| c.contains("tie=")), "{topology}: {o:?}");
            let net = Network::from_spec(topology).unwrap();
            let mut built: Vec<String> = o
                .iter()
                .map(|c| {
                    c.parse::<RoutingSpec>()
                        .unwrap()
                        .build(&net, 12)
                        .unwrap()
                        .name()
                })
                .collect();
            let n = built.len();
            built.sort();
            built.dedup();
            assert_eq!(built.len(), n, "{topology}: {o:?}");
        }
        let o = order_of("torus:8x8", 8);
        assert!(o.iter().any(|c| c == "dor:tie=random"), "{o:?}");
        let o = order_of("torus:8x8", 12);
        // DRB draws its ties per message by default (since 2026-12-01):
        // ties to + are the other rule.
        assert!(o.iter().any(|c| c == "drb:tie=plus"), "{o:?}");
    }

    /// Routings that need more VCs than the scenario has are left out.
    #[test]
    fn only_routings_that_fit_the_vcs() {
        let o = order_of("torus:8x8", 2);
        assert!(o.iter().any(|c| c.starts_with("dor")));
        assert!(!o.iter().any(|c| c.starts_with("rlb")), "{o:?}");
    }

    /// On a torus of 2 VCs, where no other family fits, B steps through
    /// DOR's variants.
    #[test]
    fn a_two_vc_torus_still_has_a_next_routing() {
        let o = order_of("torus:8x8", 2);
        let next = next_after(&o, &o[0]).unwrap();
        assert!(next.starts_with("dor:"), "{o:?}");
        assert_ne!(next, o[0]);
    }

    #[test]
    fn irregular_networks_offer_updown_and_path_selection() {
        let o = order_of("irregular:16:seed=1", 3);
        assert!(o[0].starts_with("updown"), "{o:?}");
        assert!(o.iter().any(|c| c.contains("maxcp")));
        assert!(!o.iter().any(|c| c.starts_with("dor")));
    }
}
