//! `routelab load` on a network that is not a k-ary n-cube, for a routing
//! whose registry entry hands out an exact path law there (the dragonfly's
//! MIN and VAL: [`crate::analysis::network_loads`]). The throughput is in
//! flits per host per cycle (a fraction of the host link), the channel
//! loads per flit per host per cycle injected.

use super::{CliError, emit};
use crate::analysis::{MatrixSpec, TrafficMatrix, network_loads};
use crate::routing::RoutingSpec;
use crate::topology::Network;
use num_rational::Ratio;
use serde::Serialize;

/// What `load` on such a network is given.
pub struct NetworkLoadArgs<'a> {
    pub net: &'a Network,
    pub routing: &'a RoutingSpec,
    pub traffic: Option<&'a str>,
    pub json: bool,
    pub seed: u64,
    /// Options that only the cube analysis has, when given (`--compare`,
    /// `--channels`).
    pub cube_only: Option<&'static str>,
}

/// An exact number as text and as a float.
#[derive(Debug, Serialize)]
struct Exact {
    value: f64,
    exact: String,
}

fn exact(r: Ratio<i128>) -> Exact {
    Exact {
        value: *r.numer() as f64 / *r.denom() as f64,
        exact: r.to_string(),
    }
}

/// `load --json` on such a network.
#[derive(Debug, Serialize)]
struct NetworkLoadReport {
    topology: String,
    routing: String,
    traffic: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uniform: Option<String>,
    kind: String,
    /// Flits per host per cycle; null when nothing is sent.
    ideal_throughput: Option<Exact>,
    /// Largest switch-to-switch channel load per flit/host/cycle injected.
    max_channel_load: Exact,
    busiest_channel: String,
    avg_hops: Exact,
}

/// Run the analysis and print it.
pub fn run(a: NetworkLoadArgs<'_>) -> Result<(), CliError> {
    let input = |e: String| CliError::Input(e);
    if let Some(flag) = a.cube_only {
        return Err(input(format!(
            "{flag} is the torus and mesh analysis's; on {} accepted: --routing, --traffic, --json, --seed",
            a.net.spec()
        )));
    }
    let law = match a.routing.path_law(a.net) {
        Some(Ok(law)) => law,
        Some(Err(e)) => return Err(input(e)),
        None => {
            return Err(input(format!(
                "routing `{}` has no exact law on {}",
                a.routing,
                a.net.spec()
            )));
        }
    };
    let traffic = a.traffic.ok_or_else(|| {
        input(format!(
            "--traffic is needed; accepted: {}",
            crate::analysis::accepted_traffic()
        ))
    })?;
    if matches!(traffic.trim(), "worst" | "average") {
        return Err(input(format!(
            "--traffic {}: the worst case and the random-permutation average are the torus \
             analysis's; accepted: {}",
            traffic.trim(),
            crate::analysis::accepted_traffic()
        )));
    }
    let spec: MatrixSpec = traffic
        .parse()
        .map_err(|e: crate::analysis::AnalysisError| input(e.to_string()))?;
    let m = TrafficMatrix::build(&spec, a.net, a.seed).map_err(|e| input(e.to_string()))?;
    let l = network_loads(a.net, &*law, &m).map_err(|e| input(e.to_string()))?;
    let (max, busiest) = l.max_network_load();
    let report = NetworkLoadReport {
        topology: a.net.spec().to_string(),
        routing: law.name(),
        traffic: spec.to_string(),
        uniform: spec.uniform_note().map(String::from),
        kind: "ideal (analytic)".into(),
        ideal_throughput: l.ideal_throughput().map(exact),
        max_channel_load: exact(max),
        busiest_channel: a.net.channel_name(busiest),
        avg_hops: exact(l.avg_hops()),
    };
    if a.json {
        return emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"));
    }
    let num = |e: &Exact| {
        if e.exact.contains('/') {
            format!("{:.4} ({})", e.value, e.exact)
        } else {
            format!("{:.4}", e.value)
        }
    };
    let mut out = format!(
        "topology {}  routing {}  traffic {}\n",
        report.topology, report.routing, report.traffic
    );
    if let Some(u) = &report.uniform {
        out += &format!("({u})\n");
    }
    out += &match &report.ideal_throughput {
        Some(t) => format!(
            "IDEAL (ANALYTIC) throughput  {} flits/host/cycle (a fraction of the host link)\n",
            num(t)
        ),
        None => "IDEAL (ANALYTIC) throughput  unbounded: no packet crosses a channel\n".into(),
    };
    out += &format!(
        "max channel load             {} flits/cycle per flit/host/cycle injected, on {}\n",
        num(&report.max_channel_load),
        report.busiest_channel
    );
    out += &format!("avg hops                     {}\n", num(&report.avg_hops));
    emit(&out)
}
