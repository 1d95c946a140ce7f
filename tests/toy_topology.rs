//! A topology defined here, as its registry entry and builder and nothing
//! else, runs from a scenario: the spec parser, the size limits, the
//! accepted forms in errors, `--topology`'s help and the app's list follow
//! the entry, as they do for the registry's own kinds
//! (`topology::registry::KINDS`).
//!
//! The toy is the complete graph `clique:N`: N switches, every pair linked
//! once, one host each. Every pair is one hop apart, so any minimal routing
//! (here up*/down*, `minimal` on a network without structure) gives a mean
//! of exactly 1 hop, and at low load the latency of a one-flit packet is
//! the zero-load latency of a packet crossing two switches.

use routelab::limits::NetworkSize;
use routelab::scenario::Scenario;
use routelab::spec_options::Spec;
use routelab::topology::{
    Network, NetworkBuilder, Shape, TopologyBuild, TopologyError, TopologyKind, TopologyParam,
    TopologySpec, registry,
};

static CLIQUE: TopologyKind = TopologyKind {
    name: "clique",
    aliases: &["complete"],
    form: "clique:N (3..=64)",
    summary: "the complete graph: every pair of N switches linked once (a test's toy)",
    params: &[TopologyParam {
        key: "N",
        accepted: "3..=64",
        default: "",
        meaning: "switches, one host each",
    }],
    example: "clique:5",
    from_file: false,
    contrasts: &["updown"],
    parse: parse_clique,
};

#[derive(Debug)]
struct Clique {
    n: u32,
}

fn parse_clique(spec: &str) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    // The parser adds every kind's accepted forms to the error.
    let bad = |problem: String| routelab::topology::spec_parts::invalid(spec, problem);
    let opts = Spec::split(spec)
        .options(1, &[])
        .map_err(|e| bad(e.to_string()))?;
    let n: u32 = opts
        .positional(0)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("`clique` needs a switch count after `:`".into()))?;
    if !(3..=64).contains(&n) {
        return Err(bad(format!("{n} switches; accepted 3..=64")));
    }
    Ok(Box::new(Clique { n }))
}

impl TopologyBuild for Clique {
    fn canonical(&self) -> String {
        format!("clique:{}", self.n)
    }
    fn size(&self) -> Option<NetworkSize> {
        let n = self.n as u64;
        Some(NetworkSize {
            switches: n,
            hosts: n,
            network_channels: n * (n - 1),
            max_ports: n,
        })
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        let mut b = NetworkBuilder::new(self.n as usize);
        for a in 0..self.n {
            for c in a + 1..self.n {
                b.link(a, c);
            }
        }
        b.hosts_per_switch(1);
        Ok(b.finish(spec, Shape::Irregular, Vec::new()))
    }
}

fn registered() {
    registry::register(&CLIQUE).unwrap();
}

/// The spec parses by its name and its alias, spells itself canonically,
/// and its size is the built network's.
#[test]
fn the_toy_parses_sizes_and_builds() {
    registered();
    let spec: TopologySpec = "complete:6".parse().unwrap();
    assert_eq!(spec.to_string(), "clique:6");
    assert_eq!(spec.kind().name, "clique");
    let net = spec.build().unwrap();
    assert_eq!(net.num_switches(), 6);
    assert_eq!(net.num_hosts(), 6);
    assert_eq!(net.num_network_channels(), 30);
    assert_eq!(spec.size().unwrap().network_channels, 30);
    assert_eq!(spec.size().unwrap().switches, 6);
}

/// A bad toy spec is refused with its own message and every kind's forms,
/// its own among them; the help and the lists name it.
#[test]
fn the_toy_is_in_the_errors_help_and_lists() {
    registered();
    let e = "clique:2".parse::<TopologySpec>().unwrap_err().to_string();
    assert!(e.contains("2 switches; accepted 3..=64"), "{e}");
    assert!(e.contains("clique:N (3..=64)"), "{e}");
    assert!(e.contains("torus:KxK"), "{e}");
    let e = "torus:2x2".parse::<TopologySpec>().unwrap_err().to_string();
    assert!(
        e.contains("clique:N"),
        "the accepted forms list the toy: {e}"
    );
    assert!(registry::help().contains("clique:N (3..=64)"));
    assert!(registry::kinds().iter().any(|k| k.name == "clique"));
    assert_eq!(
        registry::kind_of("clique:9").map(|k| k.name),
        Some("clique")
    );
    assert!(
        registry::register(&CLIQUE).is_ok(),
        "registering twice is a no-op"
    );
}

/// A scenario on the toy runs: every packet one hop, the zero-load latency
/// of a one-flit packet crossing two switches (`2·(1 + 1) + 1 = 5` cycles),
/// and every packet delivered.
#[test]
fn a_scenario_runs_on_the_toy() {
    registered();
    let s = Scenario {
        topology: "clique:8".into(),
        routing: "minimal".into(),
        traffic: "uniform".into(),
        load: 0.01,
        packet_flits: 1,
        warmup: 500,
        cycles: 20_000,
        ..Scenario::default()
    };
    assert!(s.problems().is_empty(), "{:?}", s.problems());
    let mut sim = s.build().unwrap();
    sim.run_for(s.warmup + s.cycles).unwrap();
    let sum = sim.summary();
    assert!(sum.delivered_packets > 500, "{sum:?}");
    assert_eq!(sum.avg_hops, 1.0);
    assert_eq!(sum.p50_latency, sim.timing().zero_load(2));
    assert_eq!(sim.timing().zero_load(2), 5);
}
