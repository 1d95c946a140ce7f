//! A traffic pattern defined here, as its registry entry and nothing else,
//! runs from a scenario and through the channel-load analysis: the spec
//! parser, the accepted forms in errors, `--traffic`'s help and the app's
//! list follow the entry, as they do for the registry's own patterns
//! (`traffic::registry::KINDS`).
//!
//! The toy is `opposite[:shift=S]`: host h sends to host (h + S) mod N,
//! S = N/2 by default. On a ring of 8 under DOR every packet crosses 4
//! hops, and the analysis gives each + channel a load of 4 packets per
//! host per unit of injection (the ring's 8 flows of 4 hops over its 8
//! + channels), so its ideal throughput is 1/4.

use num_rational::Ratio;
use routelab::analysis::{ChannelWeights, Cube, MatrixSpec, TrafficMatrix, channel_loads};
use routelab::rng::SimRng;
use routelab::scenario::Scenario;
use routelab::spec_options::Spec;
use routelab::topology::Network;
use routelab::traffic::{Pattern, PatternSpec, TrafficBuild, TrafficError, TrafficKind, registry};

static OPPOSITE: TrafficKind = TrafficKind {
    name: "opposite",
    aliases: &[],
    form: "opposite[:shift=S]",
    summary: "host h to host h + S mod N, S = N/2 by default (a test's toy)",
    example: "opposite",
    parse: parse_opposite,
};

#[derive(Debug)]
struct Opposite {
    shift: Option<u32>,
}

fn parse_opposite(spec: &str) -> Result<Box<dyn TrafficBuild>, TrafficError> {
    // The parser adds every pattern's accepted forms to the error.
    let bad = |problem: String| routelab::traffic::pattern::err(spec, problem);
    let opts = Spec::split(spec)
        .options(0, &["shift"])
        .map_err(|e| bad(e.to_string()))?;
    let shift = opts
        .u32("shift", 1..=u32::MAX)
        .map_err(|e| bad(e.to_string()))?;
    Ok(Box::new(Opposite { shift }))
}

impl TrafficBuild for Opposite {
    fn canonical(&self) -> String {
        match self.shift {
            None => "opposite".into(),
            Some(s) => format!("opposite:shift={s}"),
        }
    }
    fn build(&self, net: &Network, _rng: &mut SimRng) -> Result<Pattern, TrafficError> {
        let n = net.num_hosts() as u32;
        let s = self.shift.unwrap_or(n / 2) % n;
        Ok(Pattern::Permutation((0..n).map(|h| (h + s) % n).collect()))
    }
}

fn registered() {
    registry::register(&OPPOSITE).unwrap();
}

/// Parsed, spelt back, refused with the accepted forms, in the help and
/// the app's list.
#[test]
fn the_toy_parses_and_is_in_the_errors_help_and_lists() {
    registered();
    let p: PatternSpec = "opposite:shift=3".parse().unwrap();
    assert_eq!(p.to_string(), "opposite:shift=3");
    assert!(p.is("opposite"));
    let e = "opposite:shift=0"
        .parse::<PatternSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("shift `0`"), "{e}");
    assert!(
        e.contains("opposite[:shift=S]") && e.contains("uniform"),
        "{e}"
    );
    let e = "zigzag".parse::<PatternSpec>().unwrap_err().to_string();
    assert!(e.contains("opposite[:shift=S]"), "{e}");
    assert!(registry::help().contains("opposite[:shift=S]"));
    assert!(registry::examples().contains(&"opposite"));
}

/// A scenario with the toy runs: on a ring of 8 under DOR every packet
/// crosses exactly 4 hops.
#[test]
fn a_scenario_runs_with_the_toy() {
    registered();
    let s = Scenario {
        topology: "torus:8".into(),
        routing: "dor".into(),
        traffic: "opposite".into(),
        load: 0.05,
        warmup: 500,
        cycles: 5_000,
        ..Scenario::default()
    };
    assert!(s.problems().is_empty(), "{:?}", s.problems());
    let mut sim = s.build().unwrap();
    sim.run_for(s.warmup + s.cycles).unwrap();
    let sum = sim.summary();
    assert!(sum.delivered_packets > 100, "{sum:?}");
    assert_eq!(sum.avg_hops, 4.0);
}

/// The analysis takes the toy as a traffic matrix (one flow out of every
/// node, to the node 4 on) and gives DOR on the ring the ideal throughput
/// worked out above, 1/4.
#[test]
fn the_analysis_reads_the_toy() {
    registered();
    let w =
        ChannelWeights::new(&Cube::from_spec("torus:8").unwrap(), "dor".parse().unwrap()).unwrap();
    let spec: MatrixSpec = "opposite".parse().unwrap();
    let m = TrafficMatrix::build(&spec, w.cube().network(), 1).unwrap();
    for s in 0..8u32 {
        for d in 0..8u32 {
            let want = if d == (s + 4) % 8 { 1 } else { 0 };
            assert_eq!(m.rate(s, d), Ratio::from_integer(want), "{s} -> {d}");
        }
    }
    let loads = channel_loads(&w, &m).unwrap();
    assert_eq!(loads.ideal_throughput(), Some(Ratio::new(1, 4)));
}
