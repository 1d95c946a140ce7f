//! Fuzzing the spec strings: topology, routing and traffic specs near valid
//! ones (valid prefixes with mutations: awkward numbers, inserted, deleted
//! and repeated characters, extra options). Every one parses or fails with
//! a message naming the spec and what is accepted; every one that parses
//! builds (or fails the same way) on the networks it is meant for, without
//! a panic, a hang or a huge allocation. `scripts/fuzz.sh` runs them long.

use crate::fuzz_support;

use fuzz_support::{SMALL_NETWORKS, fuzz, near_miss, routing_examples, topologies, traffic};
use proptest::prelude::*;
use routelab::routing::RoutingSpec;
use routelab::sim::Simulation;
use routelab::topology::{Network, TopologySpec};
use routelab::traffic::{Pattern, PatternSpec};
use std::sync::{Arc, OnceLock};

fn small_networks() -> &'static Vec<Arc<Network>> {
    static NETS: OnceLock<Vec<Arc<Network>>> = OnceLock::new();
    NETS.get_or_init(|| {
        SMALL_NETWORKS
            .iter()
            .map(|s| Arc::new(Network::from_spec(s).unwrap()))
            .collect()
    })
}

/// Errors name the spec and what is accepted.
fn named(e: &str, prefix: &str) -> Result<(), String> {
    if e.starts_with(prefix) && e.contains("accepted") {
        Ok(())
    } else {
        Err(format!(
            "the message does not start with {prefix:?} and name what is accepted: {e}"
        ))
    }
}

#[test]
fn topology_specs() {
    fuzz("topology_specs", 600, near_miss(topologies()), |s| {
        let spec = match s.parse::<TopologySpec>() {
            Ok(spec) => spec,
            Err(e) => {
                let e = e.to_string();
                return named(&e, "topology `");
            }
        };
        // Within the limits every network builds in seconds; the short
        // pass builds the smaller ones.
        let small = spec.size().is_some_and(|z| z.switches <= 1 << 14);
        let long = std::env::var_os("ROUTELAB_FUZZ_SECONDS").is_some();
        if (small || long)
            && let Err(e) = spec.build()
            && !e.to_string().starts_with("topology")
        {
            return Err(format!("build error without the topology: {e}"));
        }
        Ok(())
    });
}

#[test]
fn routing_specs() {
    let examples: &'static [&'static str] = Box::leak(routing_examples().into_boxed_slice());
    let strategy = (near_miss(examples), 0usize..SMALL_NETWORKS.len(), 1u8..=16);
    fuzz("routing_specs", 600, strategy, |(s, net, vcs)| {
        let spec = match s.parse::<RoutingSpec>() {
            Ok(spec) => spec,
            Err(e) => return named(&e.to_string(), "routing `"),
        };
        // Path selection with a large budget is an explicit computation
        // (allowed up to the limit); the fuzz pass keeps it short.
        if s.contains("budget=") && !s.contains("budget=0") && s.len() > 30 {
            return Ok(());
        }
        let net = &small_networks()[*net];
        match Simulation::build_routing(&spec, net, *vcs) {
            Ok(_) => Ok(()),
            Err(e) => named(&e.to_string(), "routing `"),
        }
    });
}

#[test]
fn traffic_specs() {
    let strategy = (
        near_miss(traffic()),
        0usize..SMALL_NETWORKS.len(),
        any::<u64>(),
    );
    fuzz("traffic_specs", 600, strategy, |(s, net, seed)| {
        if s.trim().starts_with("worst") {
            // The scenario's own check (it needs the routing too).
            let sc = routelab::scenario::Scenario {
                traffic: s.clone(),
                topology: SMALL_NETWORKS[*net].into(),
                routing: "dor".into(),
                ..Default::default()
            };
            return match sc.prepare() {
                Ok(_) => Ok(()),
                Err(e) => {
                    let e = e.to_string();
                    if e.contains("traffic `") || e.contains("routing `") || e.contains("worst") {
                        Ok(())
                    } else {
                        Err(format!("a worst-case error that names no field: {e}"))
                    }
                }
            };
        }
        let spec = match s.parse::<PatternSpec>() {
            Ok(spec) => spec,
            Err(e) => return named(&e.to_string(), "traffic `"),
        };
        let net = &small_networks()[*net];
        let mut rng = routelab::rng::stream(*seed, routelab::rng::Stream::Pattern);
        match Pattern::build(&spec, net, &mut rng) {
            Ok(_) => Ok(()),
            Err(e) => named(&e.to_string(), "traffic `"),
        }
    });
}
