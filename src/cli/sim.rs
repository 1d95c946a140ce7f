//! `routelab sim`: one scenario, a readable summary or one JSON object.

use super::args::Planned;
use super::{CliError, ScenarioArgs, check_output, write_file};
use crate::scenario::Scenario;
use crate::sim::{Simulation, Summary, SwitchModelKind};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct SimArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Print one JSON object instead of the readable summary.
    #[arg(long)]
    pub json: bool,
    /// Write per-channel utilization and queueing delay as CSV (one
    /// routing only).
    #[arg(long, value_name = "FILE")]
    pub channels: Option<PathBuf>,
    /// Write DRB's latency surface (Fig. 9) as CSV: per switch, its
    /// coordinates on a torus or mesh and the mean queueing delay of its
    /// outgoing links (one routing only).
    #[arg(long, value_name = "FILE")]
    pub surface: Option<PathBuf>,
    /// Write per-pair statistics as CSV: source and destination host,
    /// packets, mean latency, out-of-order deliveries (one routing only;
    /// turns on --pair-stats).
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<PathBuf>,
    /// Run every routing of the given routing's family that applies to the
    /// topology (the topology's static routings; every path-selection
    /// algorithm on the same legal paths; the fat-tree balancer's seven
    /// steps and the baselines...) on the same traffic and seed.
    #[arg(long)]
    pub compare: bool,
    /// Time-slice model: write every switch's occupancy at the end of each
    /// window as CSV (slice, switch, level, occupancy, buffer; one routing
    /// only).
    #[arg(long, value_name = "FILE")]
    pub occupancy: Option<PathBuf>,
    /// Print the run's digest instead of the summary: one JSON object with
    /// a 64-bit FNV-1a hash of every counter and per-channel value (floats
    /// by their bits) and the fields themselves, to compare runs bit for
    /// bit (the web app computes the same for a `#scenario=...&digest`
    /// link). One routing only.
    #[arg(long, conflicts_with_all = ["json", "compare"])]
    pub digest: bool,
    /// Threads that allocate each cycle's switches: 1, or 2 for the
    /// input-queued model's default wormhole router with a routing that
    /// answers from a table (DOR), in cycles with at least about 1 500
    /// flits in the network (other runs and cycles use one). The results
    /// are the same, bit for bit; only the speed changes.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = parse_engine_threads)]
    pub engine_threads: u8,
}

/// `--engine-threads`: 1 or 2.
fn parse_engine_threads(s: &str) -> Result<u8, String> {
    super::args::parse_whole(s, 1, 2).map(|n| n as u8)
}

/// `sim --json` output for several routings.
#[derive(Debug, Serialize)]
pub struct SimRuns {
    pub runs: Vec<SimReport>,
    /// Runs that stopped (deadlock...), with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<FailedRun>,
}

/// A run of a comparison that stopped before the end.
#[derive(Debug, Serialize)]
pub struct FailedRun {
    pub routing: String,
    pub error: String,
}

/// `sim --json` output: the summary plus timing.
#[derive(Debug, Serialize)]
pub struct SimReport {
    #[serde(flatten)]
    pub summary: Summary,
    pub traffic: String,
    pub elapsed_ms: f64,
    pub cycles_per_second: f64,
    /// DRB runs only: how far the metapaths expanded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drb: Option<DrbReport>,
}

/// How far DRB expanded its metapaths by the end of a run.
#[derive(Debug, Serialize)]
pub struct DrbReport {
    /// Pairs with a metapath (heard at least once) and of those with more
    /// than one MSP.
    pub pairs: u64,
    pub expanded_pairs: u64,
    /// Mean metapath width over the pairs with a metapath.
    pub mean_width: f64,
    /// Share of all messages sent on the original (canonical) path.
    pub canonical_share: f64,
    /// Width changes over all pairs.
    pub changes: u64,
    pub acks: u64,
    /// The threshold τ and dead band Tol the run used, and where they come
    /// from.
    pub threshold: ThresholdReport,
}

/// DRB's τ and Tol in a run (`DrbSpec::threshold`): given in the spec,
/// read on the knee of its static routing on the run's router, or its
/// constants (no knee found, no router known, or the random limit).
#[derive(Debug, Serialize)]
pub struct ThresholdReport {
    pub tau: f64,
    pub tolerance: f64,
    /// Where τ comes from: `spec`, `knee`, `no_knee` (looked for, not
    /// found: the constants), `no_router` (built without one: the
    /// constants) or `unused` (`limit=random`).
    pub source: &'static str,
    /// `spec` when `tolerance=` was given, else `tau` (τ/(2(1 + τ)) of
    /// this τ, or the constant beside the constant τ).
    pub tolerance_source: &'static str,
    /// The same in words (the readable summary's line).
    pub summary: String,
    /// The knee looked for: the static routing and latency, the low-load
    /// probe (L0), the knee (load, latency, network latency), or why there
    /// is none; probes and cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knee: Option<crate::routing::Knee>,
}

impl ThresholdReport {
    fn of(t: &crate::routing::drb::Threshold) -> ThresholdReport {
        ThresholdReport {
            tau: t.tau,
            tolerance: t.tolerance,
            source: t.source_name(),
            tolerance_source: if t.tolerance_given { "spec" } else { "tau" },
            summary: t.describe(),
            knee: t.knee().map(|k| (**k).clone()),
        }
    }
}

impl DrbReport {
    /// The report of the simulation's current routing, if it is DRB.
    pub fn of(sim: &Simulation) -> Option<DrbReport> {
        let r = sim.endpoints().routings().last()?;
        let drb = r.as_any()?.downcast_ref::<crate::routing::drb::Drb>()?;
        let c = drb.counters();
        Some(DrbReport {
            pairs: c.pairs,
            expanded_pairs: c.expanded,
            mean_width: c.mean_width(),
            canonical_share: c.canonical_share(),
            changes: c.changes,
            acks: c.acks,
            threshold: ThresholdReport::of(&drb.spec().threshold()),
        })
    }
}

/// Run a planned scenario (checked and built once) to completion.
pub fn run_planned(p: Planned, engine_threads: u8) -> Result<(Simulation, SimReport), CliError> {
    let s = p.scenario.clone();
    super::progress::phase(format!(
        "the simulation's buffers and channels ({})",
        s.topology
    ));
    let mut sim = p.simulation()?;
    sim.set_engine_threads(engine_threads.into())
        .map_err(CliError::Input)?;
    run_simulation(&s, sim)
}

/// Run a point of a sweep: `s` on the network and routing spec its plan
/// built and parsed (the routing's tables are built for this run).
pub fn run_point(
    s: &Scenario,
    network: &std::sync::Arc<crate::topology::Network>,
    routing: &crate::routing::RoutingSpec,
) -> Result<(Simulation, SimReport), CliError> {
    run_simulation(s, s.build_on(network.clone(), routing)?)
}

/// Run `sim`, built from `s`, for its warm-up and cycles, and time it.
fn run_simulation(s: &Scenario, mut sim: Simulation) -> Result<(Simulation, SimReport), CliError> {
    let t0 = Instant::now();
    let total = s.warmup + s.cycles;
    super::progress::run_cycles(&mut sim, total).map_err(|e| CliError::Run(e.to_string()))?;
    let elapsed = t0.elapsed().as_secs_f64();
    let report = SimReport {
        summary: sim.summary(),
        traffic: s.traffic.clone(),
        elapsed_ms: elapsed * 1e3,
        cycles_per_second: total as f64 / elapsed.max(1e-9),
        drb: DrbReport::of(&sim),
    };
    Ok((sim, report))
}

pub fn run(mut a: SimArgs) -> Result<(), CliError> {
    if a.pairs.is_some() {
        a.scenario.pair_stats = true;
    }
    let scenarios = a.scenario.scenarios(a.compare)?;
    if scenarios.len() > 1 {
        if a.digest {
            return Err(CliError::Input(format!(
                "--digest digests one routing's run; this command runs {} routings (give one --routing)",
                scenarios.len()
            )));
        }
        if a.channels.is_some() || a.surface.is_some() || a.pairs.is_some() {
            return Err(CliError::Input(format!(
                "--channels, --surface and --pairs write one routing's results; this command runs {} routings (give one --routing)",
                scenarios.len()
            )));
        }
        if a.occupancy.is_some() {
            return Err(CliError::Input(format!(
                "--occupancy writes one routing's occupancy; this command runs {} routings (give one --routing)",
                scenarios.len()
            )));
        }
        // The routings run side by side on every core (each its own
        // simulation with the scenario's seed, so the results are those of
        // running them one after another), and are reported in the order
        // given. A run that stops (deadlock) is reported in its row; the
        // others still run, and the command then exits 1.
        let done: Vec<(String, Result<SimReport, CliError>)> = scenarios
            .into_par_iter()
            .map(|p| {
                let routing = p.scenario.routing.clone();
                (routing, run_planned(p, a.engine_threads).map(|(_, r)| r))
            })
            .collect();
        let mut runs = Vec::with_capacity(done.len());
        let mut failed = Vec::new();
        for (routing, result) in done {
            match result {
                Ok(r) => runs.push(r),
                Err(CliError::Run(error)) => failed.push(FailedRun { routing, error }),
                Err(e) => return Err(e),
            }
        }
        let first_failure = failed
            .first()
            .map(|f| format!("routing {}: {}", f.routing, f.error));
        if a.json {
            super::emit(
                &(serde_json::to_string(&SimRuns { runs, failed }).unwrap_or_default() + "\n"),
            )?;
        } else {
            super::emit(&side_by_side(&runs, &failed))?;
        }
        return match first_failure {
            Some(m) => Err(CliError::Run(m)),
            None => Ok(()),
        };
    }
    let Some(p) = scenarios.into_iter().next() else {
        return Err(CliError::Input("no routing".into()));
    };
    // What the files need, before the run: nothing runs, and no file is
    // written, for an invocation one of whose files cannot be.
    for (flag, path) in [
        ("--channels", &a.channels),
        ("--surface", &a.surface),
        ("--pairs", &a.pairs),
        ("--occupancy", &a.occupancy),
    ] {
        if let Some(path) = path {
            check_output(flag, path)?;
        }
    }
    if a.occupancy.is_some() && p.scenario.switch_model != SwitchModelKind::TIME_SLICE {
        return Err(not_time_slice(p.scenario.switch_model.as_str()));
    }
    let (sim, r) = run_planned(p, a.engine_threads)?;
    if a.digest {
        if let Some(path) = &a.channels {
            write_file(path, &channels_csv(&sim)?)?;
        }
        return super::emit(&(sim.digest().to_json() + "\n"));
    }
    if let Some(path) = &a.channels {
        write_file(path, &channels_csv(&sim)?)?;
    }
    if let Some(path) = &a.surface {
        write_file(path, &surface_csv(&sim))?;
    }
    if let Some(path) = &a.pairs {
        write_file(path, &pairs_csv(&sim))?;
    }
    if let Some(path) = &a.occupancy {
        write_file(path, &occupancy_csv(&sim)?)?;
    }
    if a.json {
        super::emit(&(serde_json::to_string(&r).unwrap_or_default() + "\n"))?;
    } else {
        super::emit(&readable(&r))?;
    }
    Ok(())
}

/// The readable summary.
pub fn readable(r: &SimReport) -> String {
    let s = &r.summary;
    if s.success_rate.is_some() {
        return readable_slices(r);
    }
    let mut out = base_readable(r, s);
    if let Some(p) = &s.paper {
        out.push_str(&format!(
            "paper     waiting {:.2} cycles (blocked {:.2}); accepted/applied {:.3}\n\
             pairs     {} measured; latency cv {:.3}; out of order {} in {} pairs (max {} per pair)\n\
             surface   peak {:.2}  mean {:.2} cycles (mean queueing delay of each switch's outgoing links)\n",
            p.wait_latency,
            p.blocked_latency,
            p.accepted_over_applied,
            p.pairs,
            p.pair_latency_cv,
            p.out_of_order,
            p.pairs_out_of_order,
            p.max_out_of_order_per_pair,
            p.surface_peak,
            p.surface_mean
        ));
        if let (Some(a), Some(p99)) = (p.background_accepted, p.background_p99_latency) {
            out.push_str(&format!(
                "hot spot  background (to other hosts): accepted {a:.4}  p99 {p99} cycles\n"
            ));
        }
    }
    if let Some(d) = &r.drb {
        out.push_str(&format!(
            "drb       {} pairs, {} expanded, mean width {:.3}, {:.1}% on the original path, {} width changes, {} acknowledgements\n",
            d.pairs,
            d.expanded_pairs,
            d.mean_width,
            100.0 * d.canonical_share,
            d.changes,
            d.acks
        ));
        out.push_str(&format!("drb τ     {}\n", d.threshold.summary));
    }
    out
}

fn base_readable(r: &SimReport, s: &Summary) -> String {
    format!(
        "topology {}  routing {}  traffic {}\n\
         offered   {:.4} flits/host/cycle (generated {:.4})\n\
         accepted  {:.4} flits/host/cycle = {:.1}% of capacity {:.4}\n\
         latency   avg {:.2}  p50 {}  p99 {}  max {} cycles; avg hops {:.2}\n\
         packets   injected {}  delivered {}  in flight {}  queued {}\n\
         cycles    {} ({} measured) in {:.0} ms = {:.0} cycles/s\n",
        s.topology,
        s.routing,
        r.traffic,
        s.offered,
        s.generated,
        s.accepted,
        100.0 * s.accepted_fraction,
        s.capacity,
        s.avg_latency,
        s.p50_latency,
        s.p99_latency,
        s.max_latency,
        s.avg_hops,
        s.injected_packets,
        s.delivered_packets,
        s.in_flight_packets,
        s.queued_packets,
        s.cycles,
        s.measured_cycles,
        r.elapsed_ms,
        r.cycles_per_second
    )
}

/// The readable summary of a time-slice run: the paper's metrics first.
fn readable_slices(r: &SimReport) -> String {
    let s = &r.summary;
    format!(
        "topology {}  routing {}  traffic {}  switch model timeslice\n\
         load      {:.4} requests/server/slice (generated {:.4}); rho {:.2}\n\
         success   {:.2}% of {} requests ({} dropped at their server, {} late)\n\
         latency   avg {:.2}  p50 {}  p99 {}  max {} slices (begin to delivery, server-to-access edge not counted); avg hops {:.2}\n\
         refused   {} transmissions between switches\n\
         requests  taken {}  delivered {}  in flight {}  waiting at servers {}\n\
         slices    {} ({} measured) in {:.0} ms = {:.0} slices/s\n",
        s.topology,
        s.routing,
        r.traffic,
        s.offered,
        s.generated,
        rho(s),
        100.0 * s.success_rate.unwrap_or(f64::NAN),
        s.measured_requests.unwrap_or(0),
        s.rejected_requests.unwrap_or(0),
        s.late_requests.unwrap_or(0),
        s.avg_latency,
        s.p50_latency,
        s.p99_latency,
        s.max_latency,
        s.avg_hops,
        s.refused_transmissions.unwrap_or(0),
        s.injected_packets,
        s.delivered_packets,
        s.in_flight_packets,
        s.queued_packets,
        s.cycles,
        s.measured_cycles,
        r.elapsed_ms,
        r.cycles_per_second
    )
}

/// ρ of a time-slice run: offered load over the λ at which ρ = 1.
fn rho(s: &Summary) -> f64 {
    if s.capacity > 0.0 {
        s.offered / s.capacity
    } else {
        f64::NAN
    }
}

/// Several routings' summaries on the same traffic and seed, one row each;
/// runs that stopped are named after the table.
pub fn side_by_side(runs: &[SimReport], failed: &[FailedRun]) -> String {
    let mut out = if runs.iter().any(|r| r.summary.success_rate.is_some()) {
        side_by_side_slices(runs)
    } else {
        side_by_side_cycles(runs)
    };
    for f in failed {
        out.push_str(&format!("{}: stopped: {}\n", f.routing, f.error));
    }
    out
}

/// Time-slice runs side by side: the paper's metrics.
fn side_by_side_slices(runs: &[SimReport]) -> String {
    let mut out = String::new();
    if let Some(r) = runs.first() {
        let s = &r.summary;
        out.push_str(&format!(
            "topology {}  traffic {}  load {:.4} requests/server/slice  rho {:.2}\n",
            s.topology,
            r.traffic,
            s.offered,
            rho(s)
        ));
    }
    let width = routing_width(runs);
    out.push_str(&format!(
        "{:width$}  success%  avg_lat  p99  max  refused  dropped     late\n",
        "routing"
    ));
    for r in runs {
        let s = &r.summary;
        out.push_str(&format!(
            "{:width$}  {:8.2}  {:7.2}  {:3}  {:3}  {:7}  {:7}  {:7}\n",
            s.routing,
            100.0 * s.success_rate.unwrap_or(f64::NAN),
            s.avg_latency,
            s.p99_latency,
            s.max_latency,
            s.refused_transmissions.unwrap_or(0),
            s.rejected_requests.unwrap_or(0),
            s.late_requests.unwrap_or(0)
        ));
    }
    out.push_str(
        "latency in slices; dropped: not taken by the access switch within R slices; late: delivered after D\n",
    );
    out
}

/// The width of the routing column of a side-by-side table.
fn routing_width(runs: &[SimReport]) -> usize {
    runs.iter()
        .map(|r| r.summary.routing.len())
        .max()
        .unwrap_or(0)
        .max("routing".len())
}

fn side_by_side_cycles(runs: &[SimReport]) -> String {
    let mut out = String::new();
    if let Some(r) = runs.first() {
        out.push_str(&format!(
            "topology {}  traffic {}  offered {:.4} flits/host/cycle  capacity {:.4}\n",
            r.summary.topology, r.traffic, r.summary.offered, r.summary.capacity
        ));
    }
    let width = routing_width(runs);
    out.push_str(&format!(
        "{:width$}  accepted  %capacity  avg_lat  p50  p99    max  avg_hops\n",
        "routing"
    ));
    for r in runs {
        let s = &r.summary;
        out.push_str(&format!(
            "{:width$}  {:8.4}  {:8.1}%  {:7.2}  {:3}  {:3}  {:5}  {:8.2}\n",
            s.routing,
            s.accepted,
            100.0 * s.accepted_fraction,
            s.avg_latency,
            s.p50_latency,
            s.p99_latency,
            s.max_latency,
            s.avg_hops
        ));
    }
    out.push_str("latency in cycles, accepted in flits/host/cycle\n");
    out
}

/// `--occupancy` on a run of another model than the time-slice one.
fn not_time_slice(model: &str) -> CliError {
    CliError::Input(format!(
        "--occupancy needs switch_model = timeslice (this run is {model})"
    ))
}

/// Time-slice model: every switch's occupancy at the end of each window.
pub fn occupancy_csv(sim: &Simulation) -> Result<String, CliError> {
    let Some(ts) = sim.time_slice() else {
        return Err(not_time_slice(sim.switch_model()));
    };
    let k = match sim.network().shape() {
        crate::topology::Shape::FatTree { k } => *k,
        _ => 0,
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| CliError::Run(e.to_string());
    w.write_record(["slice", "switch", "level", "occupancy", "buffer"])
        .map_err(err)?;
    for (slice, occ) in ts.history() {
        for (s, &o) in occ.iter().enumerate() {
            let level = crate::topology::fat_tree_params::Level::of(k, s as u32);
            w.write_record([
                slice.to_string(),
                s.to_string(),
                level.name().to_string(),
                o.to_string(),
                ts.params()[s].buffer.to_string(),
            ])
            .map_err(err)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| CliError::Run(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Per-channel CSV: id, name, kind, ends, utilization, queueing delay.
pub fn channels_csv(sim: &Simulation) -> Result<String, CliError> {
    let util = sim.channel_utilization();
    let delay = sim.channel_queueing_delay();
    super::output::channels_csv(sim.network(), |c| {
        (
            format!("{:.6}", util[c.id as usize]),
            format!("{:.4}", delay[c.id as usize]),
        )
    })
}

/// Per-switch latency surface CSV (Fig. 9): switch, coordinates (x, y on a
/// torus or mesh, empty elsewhere), mean queueing delay of its outgoing
/// switch-to-switch links.
pub fn surface_csv(sim: &Simulation) -> String {
    let net = sim.network();
    let geometry = crate::topology::cube::Geometry::of(net.shape());
    let mut out = String::from("switch,x,y,delay\n");
    for (s, v) in sim.node_link_delay().iter().enumerate() {
        let (x, y) = match &geometry {
            Some(g) => {
                let c = g.coords(s as u32);
                (
                    c.first().map(|v| v.to_string()).unwrap_or_default(),
                    c.get(1).map(|v| v.to_string()).unwrap_or_default(),
                )
            }
            None => (String::new(), String::new()),
        };
        out.push_str(&format!("{s},{x},{y},{v:.4}\n"));
    }
    out
}

/// Per-pair CSV: source host, destination host, packets, mean latency,
/// out-of-order deliveries.
pub fn pairs_csv(sim: &Simulation) -> String {
    let mut out = String::from("src,dst,packets,avg_latency,out_of_order\n");
    if let Some(p) = sim.stats().pairs() {
        for (s, d, c) in p.pairs() {
            out.push_str(&format!(
                "{s},{d},{},{:.3},{}\n",
                c.packets,
                c.latency_sum as f64 / c.packets.max(1) as f64,
                c.out_of_order
            ));
        }
    }
    out
}
