//! `routelab sweep`: one scenario over offered loads, in parallel on all
//! cores, stopping once the network saturates.
//!
//! A load point is *saturated* when the accepted throughput falls below 95 %
//! of the flits generated in the measured cycles (source queues grow without
//! bound). Loads run in batches of one per core, lowest first; after the
//! first batch holding a saturated point no further batch starts (unless
//! `--no-stop`). The reported saturation throughput is the largest accepted
//! throughput over all points run (BookSim's convention).

use super::args::Planned;
use super::sim::{SimReport, run_point};
use super::{CliError, ScenarioArgs, write_file};
use crate::scenario::Scenario;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Offered loads: START:STOP:STEP (inclusive) or a comma list.
    #[arg(long, default_value = "0.05:0.95:0.05", allow_hyphen_values = true)]
    pub loads: String,
    /// Write one CSV row per load.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Run every load even after saturation.
    #[arg(long)]
    pub no_stop: bool,
    /// Run every routing of the given routing's family that applies to the
    /// topology, on the same traffic and seed.
    #[arg(long)]
    pub compare: bool,
}

/// `sweep --json` output for several routings.
#[derive(Debug, Serialize)]
pub struct SweepRuns {
    pub routings: Vec<RoutingSweep>,
}

/// One routing's sweep.
#[derive(Debug, Serialize)]
pub struct RoutingSweep {
    pub routing: String,
    #[serde(flatten)]
    pub report: SweepReport,
}

/// One load point.
#[derive(Debug, Serialize)]
pub struct SweepPoint {
    #[serde(flatten)]
    pub report: SimReport,
    pub saturated: bool,
}

/// `sweep --json` output.
#[derive(Debug, Serialize)]
pub struct SweepReport {
    pub points: Vec<SweepPoint>,
    /// Largest accepted throughput seen, flits per host per cycle.
    pub saturation_throughput: f64,
    /// The same as a fraction of capacity.
    pub saturation_fraction: f64,
    /// Lowest offered load found saturated, if any.
    pub saturated_at: Option<f64>,
}

/// Parse `START:STOP:STEP` or `a,b,c`.
pub fn parse_loads(s: &str) -> Result<Vec<f64>, CliError> {
    let bad = || {
        CliError::Input(format!(
            "--loads `{s}`; accepted START:STOP:STEP like 0.05:0.95:0.05 or a list like 0.1,0.2,0.3, every load in 0..=1"
        ))
    };
    let loads: Vec<f64> = if s.contains(':') {
        let p: Vec<f64> = s
            .split(':')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let [start, stop, step] = p[..] else {
            return Err(bad());
        };
        if step.is_nan() || step <= 0.0 || stop < start {
            return Err(bad());
        }
        let n = ((stop - start) / step + 1e-9).floor() as usize + 1;
        if n > 10_000 {
            return Err(bad());
        }
        (0..n).map(|i| start + i as f64 * step).collect()
    } else {
        s.split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?
    };
    if loads.is_empty() || loads.iter().any(|l| !(0.0..=1.0).contains(l)) {
        return Err(bad());
    }
    Ok(loads)
}

/// Run a sweep; `on_point` sees each finished point (progress).
pub fn sweep(
    plan: &Planned,
    loads: &[f64],
    stop_at_saturation: bool,
    on_point: &(dyn Fn() + Sync),
) -> Result<SweepReport, CliError> {
    // Checked once (exit 2) before spending cores; every point shares the
    // plan's network and parsed routing.
    let base = &plan.scenario;
    let (network, routing) = (&plan.built.network, &plan.built.routing);
    let batch = rayon::current_num_threads().max(1);
    let mut points: Vec<SweepPoint> = Vec::new();
    for chunk in loads.chunks(batch) {
        let results: Vec<Result<SweepPoint, CliError>> = chunk
            .par_iter()
            .map(|&load| {
                let s = Scenario {
                    load,
                    ..base.clone()
                };
                let (_, report) = run_point(&s, network, routing)?;
                on_point();
                let saturated = report.summary.is_saturated();
                Ok(SweepPoint { report, saturated })
            })
            .collect();
        let mut any_saturated = false;
        for r in results {
            let p = r?;
            any_saturated |= p.saturated;
            points.push(p);
        }
        if any_saturated && stop_at_saturation {
            break;
        }
    }
    let saturation_throughput = points
        .iter()
        .map(|p| p.report.summary.accepted)
        .fold(0.0, f64::max);
    let capacity = points
        .first()
        .map(|p| p.report.summary.capacity)
        .unwrap_or(1.0);
    Ok(SweepReport {
        saturated_at: points
            .iter()
            .find(|p| p.saturated)
            .map(|p| p.report.summary.offered),
        saturation_fraction: saturation_throughput / capacity,
        saturation_throughput,
        points,
    })
}

pub fn run(a: SweepArgs) -> Result<(), CliError> {
    let loads = parse_loads(&a.loads)?;
    if let Some(path) = &a.csv {
        super::check_output("--csv", path)?;
    }
    let scenarios = a.scenario.scenarios(a.compare)?;
    if scenarios.len() > 1 {
        return run_several(&a, scenarios, &loads);
    }
    let base = scenarios
        .into_iter()
        .next()
        .ok_or_else(|| CliError::Input("no routing".into()))?;
    let bar = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(loads.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} loads {elapsed}; Ctrl-C cancels")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The elapsed time moves even while one long load runs.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    if !a.json {
        super::emit(&header(std::slice::from_ref(&base.scenario), &loads))?;
    }
    let report = sweep(&base, &loads, !a.no_stop, &|| bar.inc(1))?;
    bar.finish_and_clear();
    if a.json {
        super::emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"))?;
    } else {
        super::emit(&table(&report))?;
        if report.points.len() < loads.len() {
            super::emit(&skipped(&loads[report.points.len()..]))?;
        }
        super::emit(&thresholds([&report]))?;
    }
    if let Some(path) = &a.csv {
        write_file(path, &csv_text(&report)?)?;
    }
    Ok(())
}

/// What a sweep runs, before its table: a newcomer's sweep printed rows
/// with no word of the topology, routings or traffic.
fn header(scenarios: &[Scenario], loads: &[f64]) -> String {
    let Some(s) = scenarios.first() else {
        return String::new();
    };
    let routings: Vec<&str> = scenarios.iter().map(|s| s.routing.as_str()).collect();
    let (lo, hi) = (short(loads[0]), short(loads[loads.len() - 1]));
    format!(
        "sweep: topology {}, traffic {}, routing{} {}; {} load{} from {lo} to {hi}; {} cycles after {} of warm-up; seed {}\n",
        s.topology,
        s.traffic,
        if routings.len() == 1 { "" } else { "s" },
        routings.join(", "),
        loads.len(),
        if loads.len() == 1 { "" } else { "s" },
        s.cycles,
        s.warmup,
        s.seed
    )
}

/// A load as typed (`0.85`, not the step's `0.8500000000000001`).
fn short(l: f64) -> String {
    format!("{}", (l * 1e9).round() / 1e9)
}

/// The loads a sweep stopped before, once saturated.
fn skipped(rest: &[f64]) -> String {
    format!(
        "stopped at saturation: {} higher load{} not run ({}{}); --no-stop runs them\n",
        rest.len(),
        if rest.len() == 1 { "" } else { "s" },
        rest.iter()
            .take(6)
            .map(|l| short(*l))
            .collect::<Vec<_>>()
            .join(", "),
        if rest.len() > 6 { ", ..." } else { "" }
    )
}

/// Several routings over the same loads, traffic and seed.
fn run_several(a: &SweepArgs, scenarios: Vec<Planned>, loads: &[f64]) -> Result<(), CliError> {
    if !a.json {
        let plain: Vec<Scenario> = scenarios.iter().map(|p| p.scenario.clone()).collect();
        super::emit(&header(&plain, loads))?;
    }
    let bar = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new((loads.len() * scenarios.len()) as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs {elapsed}; Ctrl-C cancels")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The elapsed time moves even while one long load runs.
    bar.enable_steady_tick(std::time::Duration::from_secs(1));
    // The routings' sweeps run at the same time (each runs its loads a
    // batch at a time on the same pool), so a core left idle by one
    // routing's last batch or by its stop at saturation takes another's
    // point; each sweep is what it would be alone, reported in the order
    // given.
    let names: Vec<String> = scenarios
        .iter()
        .map(|p| p.scenario.routing.clone())
        .collect();
    let reports: Vec<Result<SweepReport, CliError>> = scenarios
        .into_par_iter()
        .map(|s| sweep(&s, loads, !a.no_stop, &|| bar.inc(1)))
        .collect();
    let mut routings = Vec::with_capacity(names.len());
    for (name, report) in names.into_iter().zip(reports) {
        let report = report?;
        routings.push(RoutingSweep {
            routing: report
                .points
                .first()
                .map(|p| p.report.summary.routing.clone())
                .unwrap_or(name),
            report,
        });
    }
    bar.finish_and_clear();
    let runs = SweepRuns { routings };
    if a.json {
        super::emit(&(serde_json::to_string(&runs).unwrap_or_default() + "\n"))?;
    } else {
        super::emit(&side_by_side(&runs))?;
        super::emit(&thresholds(runs.routings.iter().map(|r| &r.report)))?;
    }
    if let Some(path) = &a.csv {
        let mut text = String::new();
        for (i, r) in runs.routings.iter().enumerate() {
            let part = csv_text(&r.report)?;
            for (j, line) in part.lines().enumerate() {
                if j == 0 && i > 0 {
                    continue;
                }
                let first = if j == 0 {
                    "routing"
                } else {
                    r.routing.as_str()
                };
                text.push_str(&format!("{},{line}\n", csv_field(first)));
            }
        }
        write_file(path, &text)?;
    }
    Ok(())
}

/// For each DRB sweep, the τ and tolerance its runs used and where they
/// come from (one line each; the same at every load: the knee does not
/// depend on the load).
fn thresholds<'a>(reports: impl IntoIterator<Item = &'a SweepReport>) -> String {
    let mut out = String::new();
    for r in reports {
        if let Some(p) = r.points.first()
            && let Some(d) = &p.report.drb
        {
            out.push_str(&format!(
                "{}: {}\n",
                p.report.summary.routing, d.threshold.summary
            ));
        }
    }
    out
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains(',') || s.contains('"') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per load, accepted throughput and mean latency per routing.
fn side_by_side(runs: &SweepRuns) -> String {
    let mut loads: Vec<f64> = Vec::new();
    for r in &runs.routings {
        for p in &r.report.points {
            if !loads
                .iter()
                .any(|&l| (l - p.report.summary.offered).abs() < 1e-12)
            {
                loads.push(p.report.summary.offered);
            }
        }
    }
    loads.sort_by(f64::total_cmp);
    // Each routing's column is as wide as its whole spec (before, names
    // were cut at 22 characters and the header was two wider than the
    // rows, so columns drifted apart).
    let widths: Vec<usize> = runs
        .routings
        .iter()
        .map(|r| r.routing.chars().count().max(20))
        .collect();
    let mut out = String::from("offered");
    for (r, w) in runs.routings.iter().zip(&widths) {
        out.push_str(&format!(" | {:^w$}", r.routing));
    }
    out.push('\n');
    out.push_str("       ");
    for w in &widths {
        out.push_str(&format!(" | {:<w$}", "accepted   avg_lat"));
    }
    out.push('\n');
    for &l in &loads {
        out.push_str(&format!("{l:7.3}"));
        for (r, w) in runs.routings.iter().zip(&widths) {
            match r
                .report
                .points
                .iter()
                .find(|p| (p.report.summary.offered - l).abs() < 1e-12)
            {
                Some(p) => out.push_str(&format!(
                    " | {:<w$}",
                    format!(
                        "{:8.4}  {:8.2}{}",
                        p.report.summary.accepted,
                        p.report.summary.avg_latency,
                        if p.saturated { " s" } else { "" }
                    )
                )),
                None => out.push_str(&format!(" | {:^w$}", "-")),
            }
        }
        out.push('\n');
    }
    if runs.routings.iter().any(|r| {
        r.report
            .points
            .iter()
            .any(|p| p.report.summary.paper.is_some())
    }) {
        out.push_str(&paper_side_by_side(runs, &loads));
    }
    out.push_str("saturation throughput (fraction of capacity):");
    for r in &runs.routings {
        out.push_str(&format!(
            "  {} {:.4} ({:.1}%)",
            r.routing,
            r.report.saturation_throughput,
            100.0 * r.report.saturation_fraction
        ));
    }
    out.push_str(
        "\n`s` marks a saturated point; - a load not run after saturation (--no-stop runs them)\n",
    );
    out
}

/// The DRB paper's metrics per load and routing: latency as waiting time
/// only, throughput as accepted over applied load, the coefficient of
/// variation of per-pair mean latency (uniformity, DRB's stated goal) and
/// the measured packets delivered out of order.
fn paper_side_by_side(runs: &SweepRuns, loads: &[f64]) -> String {
    let mut out = String::from(
        "\nthe paper's metrics: waiting cycles, accepted/applied, cv of per-pair latency, out-of-order deliveries\n",
    );
    let widths: Vec<usize> = runs
        .routings
        .iter()
        .map(|r| r.routing.chars().count().max(31))
        .collect();
    out.push_str("offered");
    for (r, w) in runs.routings.iter().zip(&widths) {
        out.push_str(&format!(" | {:^w$}", r.routing));
    }
    out.push('\n');
    out.push_str("       ");
    for w in &widths {
        out.push_str(&format!(" | {:<w$}", " waiting acc/app    cv      ooo"));
    }
    out.push('\n');
    for &l in loads {
        out.push_str(&format!("{l:7.3}"));
        for (r, w) in runs.routings.iter().zip(&widths) {
            match r
                .report
                .points
                .iter()
                .find(|p| (p.report.summary.offered - l).abs() < 1e-12)
                .and_then(|p| p.report.summary.paper.as_ref())
            {
                Some(m) => out.push_str(&format!(
                    " | {:<w$}",
                    format!(
                        "{:8.2} {:7.3} {:6.3} {:8}",
                        m.wait_latency, m.accepted_over_applied, m.pair_latency_cv, m.out_of_order
                    )
                )),
                None => out.push_str(&format!(" | {:^w$}", "-")),
            }
        }
        out.push('\n');
    }
    out
}

fn csv_text(r: &SweepReport) -> Result<String, CliError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| CliError::Run(e.to_string());
    let header = [
        "offered",
        "generated",
        "accepted",
        "accepted_fraction",
        "avg_latency",
        "p50_latency",
        "p99_latency",
        "max_latency",
        "injected_packets",
        "delivered_packets",
        "in_flight_packets",
        "cycles",
        "elapsed_ms",
        "saturated",
    ];
    let paper = r.points.iter().any(|p| p.report.summary.paper.is_some());
    let mut header: Vec<&str> = header.to_vec();
    if paper {
        header.extend([
            "wait_latency",
            "accepted_over_applied",
            "pair_latency_cv",
            "out_of_order",
            "surface_peak",
            "surface_mean",
        ]);
    }
    w.write_record(&header).map_err(err)?;
    for p in &r.points {
        let s = &p.report.summary;
        let row = [
            format!("{:.4}", s.offered),
            format!("{:.6}", s.generated),
            format!("{:.6}", s.accepted),
            format!("{:.6}", s.accepted_fraction),
            format!("{:.3}", s.avg_latency),
            s.p50_latency.to_string(),
            s.p99_latency.to_string(),
            s.max_latency.to_string(),
            s.injected_packets.to_string(),
            s.delivered_packets.to_string(),
            s.in_flight_packets.to_string(),
            s.cycles.to_string(),
            format!("{:.1}", p.report.elapsed_ms),
            p.saturated.to_string(),
        ];
        let mut row: Vec<String> = row.to_vec();
        if paper {
            match &s.paper {
                Some(m) => row.extend([
                    format!("{:.3}", m.wait_latency),
                    format!("{:.4}", m.accepted_over_applied),
                    format!("{:.4}", m.pair_latency_cv),
                    m.out_of_order.to_string(),
                    format!("{:.3}", m.surface_peak),
                    format!("{:.3}", m.surface_mean),
                ]),
                None => row.extend(std::iter::repeat_n(String::new(), 6)),
            }
        }
        w.write_record(&row).map_err(err)?;
    }
    let bytes = w.into_inner().map_err(|e| CliError::Run(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn table(r: &SweepReport) -> String {
    let mut out = String::from("offered  accepted  %capacity  avg_lat  p99_lat  saturated\n");
    for p in &r.points {
        let s = &p.report.summary;
        out.push_str(&format!(
            "{:7.3}  {:8.4}  {:8.1}%  {:7.2}  {:7}  {}\n",
            s.offered,
            s.accepted,
            100.0 * s.accepted_fraction,
            s.avg_latency,
            s.p99_latency,
            if p.saturated { "yes" } else { "" }
        ));
    }
    out.push_str(&format!(
        "saturation throughput {:.4} flits/host/cycle ({:.1}% of capacity)\n",
        r.saturation_throughput,
        100.0 * r.saturation_fraction
    ));
    out
}
