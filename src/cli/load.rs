//! `routelab load`: the exact channel-load analysis of an oblivious
//! routing on a torus or mesh ([`crate::analysis`]; issue 11). No
//! simulation: the IDEAL (ANALYTIC) throughput, as a fraction of the
//! capacity Θ, the largest expected channel load and the mean hop count.
//!
//! - `--traffic worst` is Towles and Dally's worst case (and prints the
//!   permutation that achieves it); `--traffic average` the mean over
//!   `--samples` seeded random permutations.
//! - `--compare` prints one table: every routing against nn, uniform,
//!   bitcomp, transpose, tornado, the worst case and the random-permutation
//!   average.
//! - `--channels FILE` writes every channel's expected utilization with the
//!   columns of `sim --channels`: utilization = L·γ_c flits per cycle at an
//!   offered load of L flits per host per cycle (`--load`, default the
//!   simulator's default offered load), the simulator's unit, valid below
//!   saturation (L ≤ the ideal throughput in flits/host/cycle). Injection
//!   and ejection channels carry L·Σ_d λ_sd and L·Σ_s λ_sd. The analysis
//!   has no queues, so `queueing_delay` is left empty.

use super::{CliError, write_file};
use crate::analysis::{
    AnalysisError, AverageCase, ChannelLoads, ChannelWeights, Cube, DEFAULT_SAMPLES, Law,
    MatrixSpec, TrafficMatrix, WorstCase, channel_loads, random_permutation_average, worst_case,
};
use crate::scenario::Scenario;
use crate::topology::{ChannelKind, Endpoint, Network, Shape};
use clap::Args;
use num_rational::Ratio;
use serde::Serialize;
use std::path::PathBuf;

/// The traffic columns of `--compare`.
const COMPARED_TRAFFIC: [&str; 5] = ["nn", "uniform", "bitcomp", "transpose", "tornado"];

/// `routelab load` arguments.
///
/// The field comments are the `--help` text, shown verbatim, so their
/// `[...]` are not rustdoc links.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Topology: a torus or mesh (`--help` lists which routings run on
    /// meshes, from the routing registry).
    #[arg(long, default_value = "torus:8x8", help = format!("Topology: {}", crate::analysis::accepted_topologies()))]
    pub topology: String,
    /// Routing: every routing whose registry entry declares an exact law
    /// (`--help` lists them with their options).
    #[arg(long, help = crate::analysis::routing_help())]
    pub routing: Option<String>,
    // The analysis' patterns (`analysis::traffic_help`: its uniform, the
    // registry's patterns, worst and average).
    #[arg(long, help = crate::analysis::traffic_help())]
    pub traffic: Option<String>,
    /// Print one table of every routing against nn, uniform, bitcomp,
    /// transpose, tornado, the worst case and the random-permutation average.
    #[arg(long, conflicts_with_all = ["routing", "traffic", "channels"])]
    pub compare: bool,
    /// Print one JSON object instead of the readable text.
    #[arg(long)]
    pub json: bool,
    /// Write each channel's expected utilization as CSV (the columns of
    /// `sim --channels`; queueing_delay left empty).
    #[arg(long, value_name = "FILE")]
    pub channels: Option<PathBuf>,
    /// Offered load L in flits per host per cycle that scales --channels
    /// (utilization = L x expected channel load); default: the simulator's
    /// default offered load.
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::parse_number)]
    pub load: Option<f64>,
    /// Seed of randperm and of the average's permutations.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = super::args::parse_seed)]
    pub seed: u64,
    /// Random permutations in the average (1..=100000).
    #[arg(long, default_value_t = DEFAULT_SAMPLES, allow_negative_numbers = true, value_parser = parse_samples)]
    pub samples: usize,
}

fn parse_samples(s: &str) -> Result<usize, String> {
    super::args::parse_whole(s, 1, 100_000).map(|v| v as usize)
}

fn input(e: AnalysisError) -> CliError {
    CliError::Input(e.to_string())
}

/// An exact number as text and as a float.
#[derive(Debug, Serialize, Clone, PartialEq)]
pub struct Exact {
    pub value: f64,
    pub exact: String,
}

impl From<Ratio<i128>> for Exact {
    fn from(r: Ratio<i128>) -> Self {
        Exact {
            value: *r.numer() as f64 / *r.denom() as f64,
            exact: r.to_string(),
        }
    }
}

/// `load --json` output (one routing, one traffic).
#[derive(Debug, Serialize)]
pub struct LoadReport {
    pub topology: String,
    pub routing: String,
    pub traffic: String,
    /// Which uniform the traffic is, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uniform: Option<String>,
    /// Always "ideal (analytic)": no simulation is involved.
    pub kind: String,
    /// Θ in flits per node per cycle.
    pub capacity: Exact,
    /// Fraction of capacity; null when no packet crosses a channel.
    pub ideal_throughput: Option<Exact>,
    /// Largest expected channel load per flit/node/cycle injected
    /// (worst: γ*; average: omitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_channel_load: Option<Exact>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub busiest_channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hops: Option<Exact>,
    /// Worst case: destination of every source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permutation: Option<Vec<u32>>,
    /// Average case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average: Option<AverageReport>,
}

/// The average case in `--json`.
#[derive(Debug, Serialize, Clone)]
pub struct AverageReport {
    pub samples: usize,
    pub idle_samples: usize,
    pub seed: u64,
    pub mean: f64,
    pub std_error: f64,
    pub min: Exact,
    pub p5: Exact,
}

impl From<&AverageCase> for AverageReport {
    fn from(a: &AverageCase) -> Self {
        AverageReport {
            samples: a.samples,
            idle_samples: a.idle_samples,
            seed: a.seed,
            mean: a.mean,
            std_error: a.std_error,
            min: a.min.into(),
            p5: a.p5.into(),
        }
    }
}

/// What `--traffic` asks for.
enum Traffic {
    Matrix(MatrixSpec),
    Worst,
    Average,
}

fn parse_traffic(s: &str) -> Result<Traffic, CliError> {
    match s.trim() {
        "worst" => Ok(Traffic::Worst),
        "average" => Ok(Traffic::Average),
        other => other
            .parse::<MatrixSpec>()
            .map(Traffic::Matrix)
            .map_err(|e| CliError::Input(format!("{e}, worst, average"))),
    }
}

fn capacity_rule(cube: &Cube) -> &'static str {
    let k = cube.radix().iter().max().copied().unwrap_or(2);
    match (cube.is_torus(), k % 2 == 0) {
        (true, true) => "8/k",
        (true, false) => "8k/(k^2-1)",
        (false, true) => "4/k",
        (false, false) => "4k/(k^2-1)",
    }
}

fn check_load(a: &LoadArgs) -> Result<f64, CliError> {
    let l = a.load.unwrap_or(Scenario::default().load);
    if !l.is_finite() || l < 0.0 {
        return Err(CliError::Input(format!(
            "--load {l}; accepted a finite number >= 0 (flits per host per cycle)"
        )));
    }
    Ok(l)
}

pub fn run(a: LoadArgs) -> Result<(), CliError> {
    if let Some(done) = on_other_network(&a) {
        return done;
    }
    let cube = Cube::from_spec(&a.topology).map_err(input)?;
    if let Some(path) = &a.channels {
        super::check_output("--channels", path)?;
    }
    if a.samples == 0 {
        return Err(CliError::Input(
            "--samples 0; accepted a whole number >= 1".into(),
        ));
    }
    if a.compare {
        return compare(&a, &cube);
    }
    let routing_spec = a.routing.as_deref().ok_or_else(|| {
        CliError::Input(format!(
            "--routing is needed (or --compare); accepted: {}",
            crate::analysis::accepted_routings()
        ))
    })?;
    let traffic_spec = a.traffic.as_deref().ok_or_else(|| {
        CliError::Input(format!(
            "--traffic is needed (or --compare); accepted: {}, worst, average",
            crate::analysis::accepted_traffic()
        ))
    })?;
    let load = check_load(&a)?;
    let routing: Law = routing_spec.parse().map_err(input)?;
    let traffic = parse_traffic(traffic_spec)?;
    let w = ChannelWeights::new(&cube, routing.clone()).map_err(input)?;
    let mut report = LoadReport {
        topology: cube.network().spec().to_string(),
        routing: routing.to_string(),
        traffic: traffic_spec.trim().to_string(),
        uniform: None,
        kind: "ideal (analytic)".into(),
        capacity: cube.capacity().into(),
        ideal_throughput: None,
        max_channel_load: None,
        busiest_channel: None,
        avg_hops: None,
        permutation: None,
        average: None,
    };
    // The matrix whose loads --channels writes, if there is one.
    let mut for_csv: Option<(TrafficMatrix, ChannelLoads)> = None;
    match traffic {
        Traffic::Matrix(spec) => {
            report.traffic = spec.to_string();
            report.uniform = spec.uniform_note().map(String::from);
            let m = TrafficMatrix::build(&spec, cube.network(), a.seed).map_err(input)?;
            let l = channel_loads(&w, &m).map_err(input)?;
            fill(&mut report, &cube, &l);
            for_csv = Some((m, l));
        }
        Traffic::Worst => {
            let wc: WorstCase = worst_case(&w).map_err(input)?;
            let m = TrafficMatrix::permutation(&wc.permutation);
            let l = channel_loads(&w, &m).map_err(input)?;
            fill(&mut report, &cube, &l);
            report.ideal_throughput = Some(wc.ideal_throughput.into());
            report.max_channel_load = Some(wc.max_channel_load.into());
            report.busiest_channel = Some(cube.channel_label(wc.channel));
            report.permutation = Some(wc.permutation.clone());
            for_csv = Some((m, l));
        }
        Traffic::Average => {
            if a.channels.is_some() {
                return Err(CliError::Input(
                    "--channels needs one traffic matrix; `average` is a mean over permutations \
                     (accepted with --channels: a pattern or worst)"
                        .into(),
                ));
            }
            let avg = random_permutation_average(&w, a.samples, a.seed).map_err(input)?;
            report.ideal_throughput = Some(Exact {
                value: avg.mean,
                exact: format!("mean of {} samples", avg.samples - avg.idle_samples),
            });
            report.average = Some((&avg).into());
        }
    }
    if let (Some(path), Some((m, l))) = (&a.channels, &for_csv) {
        write_file(path, &channels_csv(&cube, m, l, load)?)?;
    }
    if a.json {
        super::emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"))
    } else {
        super::emit(&readable(&report, &cube))
    }
}

/// The analysis on a network that is not a k-ary n-cube, when the routing
/// has an exact path law there (the dragonfly's MIN and VAL:
/// `load_network.rs`); `None` leaves the topology to the cube analysis
/// (and its errors).
fn on_other_network(a: &LoadArgs) -> Option<Result<(), CliError>> {
    let net = Network::from_spec(&a.topology).ok()?;
    if matches!(net.shape(), Shape::Cube { .. }) {
        return None;
    }
    let routing: crate::routing::RoutingSpec = a.routing.as_deref()?.parse().ok()?;
    let _has_law = routing.path_law(&net)?;
    let cube_only = if a.compare {
        Some("--compare")
    } else if a.channels.is_some() {
        Some("--channels")
    } else {
        None
    };
    Some(super::load_network::run(
        super::load_network::NetworkLoadArgs {
            net: &net,
            routing: &routing,
            traffic: a.traffic.as_deref(),
            json: a.json,
            seed: a.seed,
            cube_only,
        },
    ))
}

fn fill(report: &mut LoadReport, cube: &Cube, l: &ChannelLoads) {
    report.ideal_throughput = l.ideal_throughput().map(Exact::from);
    report.max_channel_load = Some(l.max_channel_load().into());
    report.busiest_channel = Some(cube.channel_label(l.busiest_channel()));
    report.avg_hops = Some(l.avg_hops().into());
}

fn num(e: &Exact) -> String {
    if e.exact.contains('/') {
        format!("{:.4} ({})", e.value, e.exact)
    } else {
        format!("{:.4}", e.value)
    }
}

/// The readable report.
fn readable(r: &LoadReport, cube: &Cube) -> String {
    let mut out = format!(
        "topology {}  routing {}  traffic {}\n",
        r.topology, r.routing, r.traffic
    );
    if let Some(u) = &r.uniform {
        out += &format!("({u})\n");
    }
    match (&r.ideal_throughput, &r.average) {
        (_, Some(avg)) => {
            out += &format!(
                "IDEAL (ANALYTIC) throughput, mean over {} random permutations (seed {}): \
                 {:.4} +- {:.4} (standard error) of capacity\n  minimum {}  5th percentile {}\n",
                avg.samples,
                avg.seed,
                avg.mean,
                avg.std_error,
                num(&avg.min),
                num(&avg.p5)
            );
            if avg.idle_samples > 0 {
                out += &format!(
                    "  ({} identity permutations loaded no channel and are left out)\n",
                    avg.idle_samples
                );
            }
        }
        (Some(t), None) => out += &format!("IDEAL (ANALYTIC) throughput  {} of capacity\n", num(t)),
        (None, None) => {
            out += "IDEAL (ANALYTIC) throughput  unbounded: no packet crosses a channel\n"
        }
    }
    out += &format!(
        "capacity                     {} flits/node/cycle (ideal uniform throughput, {})\n",
        num(&r.capacity),
        capacity_rule(cube)
    );
    if let Some(m) = &r.max_channel_load {
        out += &format!(
            "max channel load             {} flits/cycle per flit/node/cycle injected{}\n",
            num(m),
            r.busiest_channel
                .as_ref()
                .map(|c| format!(", on {c}"))
                .unwrap_or_default()
        );
    }
    if let Some(h) = &r.avg_hops {
        out += &format!("avg hops                     {}\n", num(h));
    }
    if let Some(p) = &r.permutation {
        let pairs: Vec<String> = p
            .iter()
            .enumerate()
            .filter(|&(s, &d)| s as u32 != d)
            .map(|(s, d)| format!("{s}->{d}"))
            .collect();
        out += &format!(
            "worst-case permutation (source->destination; {} fixed points s->s omitted):\n",
            p.len() - pairs.len()
        );
        for chunk in pairs.chunks(16) {
            out += &format!("  {}\n", chunk.join(" "));
        }
    }
    out
}

/// One row of `--compare`.
#[derive(Debug, Serialize)]
pub struct CompareRow {
    pub routing: String,
    /// Why the routing has no numbers here (RLB on a mesh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undefined: Option<String>,
    /// Per traffic column, null where the pattern does not fit the network.
    pub traffic: Vec<Option<Exact>>,
    /// Null where the worst case is beyond the matching limit.
    pub worst: Option<Exact>,
    pub average: Option<AverageReport>,
}

/// `load --compare --json` output.
#[derive(Debug, Serialize)]
pub struct CompareReport {
    pub topology: String,
    pub kind: String,
    pub capacity: Exact,
    pub uniform: String,
    pub columns: Vec<String>,
    pub rows: Vec<CompareRow>,
}

fn compare(a: &LoadArgs, cube: &Cube) -> Result<(), CliError> {
    let mut rows = Vec::new();
    let mut unfit: Vec<(String, String)> = Vec::new();
    let matrices: Vec<Option<TrafficMatrix>> = COMPARED_TRAFFIC
        .iter()
        .map(|t| {
            let spec: MatrixSpec = t.parse().map_err(input)?;
            match TrafficMatrix::build(&spec, cube.network(), a.seed) {
                Ok(m) => Ok(Some(m)),
                Err(AnalysisError::Traffic { problem, .. }) => {
                    unfit.push((t.to_string(), problem));
                    Ok(None)
                }
                Err(e) => Err(input(e)),
            }
        })
        .collect::<Result<_, CliError>>()?;
    for routing in Law::compared() {
        let w = match ChannelWeights::new(cube, routing.clone()) {
            Ok(w) => w,
            Err(AnalysisError::NotDefined { reason, .. }) => {
                rows.push(CompareRow {
                    routing: routing.to_string(),
                    undefined: Some(reason),
                    traffic: vec![None; COMPARED_TRAFFIC.len()],
                    worst: None,
                    average: None,
                });
                continue;
            }
            Err(e) => return Err(input(e)),
        };
        let mut traffic = Vec::new();
        for m in &matrices {
            traffic.push(match m {
                Some(m) => channel_loads(&w, m)
                    .map_err(input)?
                    .ideal_throughput()
                    .map(Exact::from),
                None => None,
            });
        }
        let worst = match worst_case(&w) {
            Ok(wc) => Some(wc.ideal_throughput.into()),
            Err(e @ AnalysisError::TooLarge { .. }) => {
                let note = ("worst".to_string(), e.to_string());
                if !unfit.contains(&note) {
                    unfit.push(note);
                }
                None
            }
            Err(e) => return Err(input(e)),
        };
        let avg = random_permutation_average(&w, a.samples, a.seed).map_err(input)?;
        rows.push(CompareRow {
            routing: routing.to_string(),
            undefined: None,
            traffic,
            worst,
            average: Some((&avg).into()),
        });
    }
    let report = CompareReport {
        topology: cube.network().spec().to_string(),
        kind: "ideal (analytic)".into(),
        capacity: cube.capacity().into(),
        uniform: "analysis form, λ=1/N including s=d".into(),
        columns: COMPARED_TRAFFIC
            .iter()
            .map(|s| s.to_string())
            .chain(["worst".into(), "average".into()])
            .collect(),
        rows,
    };
    if a.json {
        return super::emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"));
    }
    let mut out = format!(
        "IDEAL (ANALYTIC) throughput, fraction of capacity: {}\n\
         capacity {} flits/node/cycle (ideal uniform throughput, {}); exact channel-load \
         analysis, no simulation\n\
         uniform = analysis form, λ=1/N including s=d; nn = the 2n torus neighbours (Singh's NN)\n\
         worst = Towles-Dally worst case over all admissible traffic; \
         avg = mean over {} random permutations (seed {}) +- standard error\n\
         dor uses its default tie rule plus, romm its default order xy\n\n",
        report.topology,
        num(&report.capacity),
        capacity_rule(cube),
        a.samples,
        a.seed
    );
    let mut header = format!("{:<14}", "routing");
    for c in COMPARED_TRAFFIC.iter().chain(&["worst"]) {
        header += &format!(" {c:>9}");
    }
    header += &format!(" {:>16}", "avg");
    out += &header;
    out.push('\n');
    for row in &report.rows {
        let mut line = format!("{:<14}", row.routing);
        if let Some(why) = &row.undefined {
            line += &format!(" n/a: {why}");
        } else {
            for cell in row.traffic.iter().chain([&row.worst]) {
                line += &match cell {
                    Some(e) => format!(" {:>9.3}", e.value),
                    None => format!(" {:>9}", "-"),
                };
            }
            if let Some(avg) = &row.average {
                line += &format!(
                    " {:>16}",
                    format!("{:.3} +- {:.3}", avg.mean, avg.std_error)
                );
            }
        }
        out += &line;
        out.push('\n');
    }
    for (t, problem) in unfit {
        out += &format!("- {t}: {problem}\n");
    }
    super::emit(&out)
}

/// Per-channel CSV with the columns of `sim --channels` (module docs).
fn channels_csv(
    cube: &Cube,
    m: &TrafficMatrix,
    l: &ChannelLoads,
    load: f64,
) -> Result<String, CliError> {
    let net: &Network = cube.network();
    let f = |r: Ratio<i128>| *r.numer() as f64 / *r.denom() as f64;
    let rows = m.row_sums();
    let cols = m.column_sums();
    let per = 2 * cube.dims() as u32;
    super::output::channels_csv(net, |c| {
        let gamma = match (c.kind, c.src, c.dst) {
            (ChannelKind::Network, Endpoint::Switch { switch, port }, _) => {
                f(l.load(switch * per + port as u32))
            }
            (ChannelKind::Injection, Endpoint::Host { host }, _) => f(rows[host as usize]),
            (ChannelKind::Ejection, _, Endpoint::Host { host }) => f(cols[host as usize]),
            _ => 0.0,
        };
        (format!("{:.6}", load * gamma), String::new())
    })
}
