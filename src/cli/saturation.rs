//! `routelab saturation`: the saturation throughput of a scenario, found by
//! bisection: the largest offered load on a grid of `--step` × capacity at
//! which accepted ≥ `--threshold` × offered on every one of `--seeds` seeds
//! (seed, seed+1, ...), and every source has had at least `--threshold` of
//! its measured packets delivered. The seeds of a grid point run in
//! parallel.
//!
//! Why the per-source test: throughput is the minimum over sources (Dally
//! and Towles §23.2). On a worst-case permutation a single channel is the
//! bottleneck and only a few per cent of the traffic crosses it, so the
//! network's total accepted traffic stays within 1 % of the offered load
//! well past the point where that channel saturates; the flows through it
//! do not (their share delivered falls by the channel's overload).
//!
//! What "delivered" forgives (`--settle`): a run ends with packets in
//! flight at any load, and with few packets per source (multi-flit packets,
//! short runs) those alone put some source below 99 % on a lightly loaded
//! network: DOR under tornado with the default 4-flit packets and 10 000
//! cycles failed at every load, 0.05 included, and the answer was 0. So a
//! packet not yet delivered at the end counts as delivered when it was
//! generated within the last `settle` × the run's mean latency cycles; one
//! older, or dropped, still counts against its source, so a flow starved or
//! overloaded for longer than that still fails the test. `--settle 0` is the
//! strict test.
//!
//! Bisection assumes that a load which fails has no passing load above it;
//! a router whose throughput falls past saturation can break that, so the
//! answer is a load that passes with the next grid point failing.

use super::args::Planned;
use super::sim::run_point;
use super::{CliError, ScenarioArgs};
use crate::scenario::Scenario;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct SaturationArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Grid step as a fraction of capacity (0 < step <= 0.5).
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true, value_parser = super::args::parse_number)]
    pub step: f64,
    /// Seeds per load: the scenario's seed and the next ones (1..=32).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = parse_seeds)]
    pub seeds: u64,
    /// A load passes when accepted >= threshold × offered on every seed
    /// (0.5..=1).
    #[arg(long, default_value_t = 0.99, allow_negative_numbers = true, value_parser = super::args::parse_number)]
    pub threshold: f64,
    /// Packets still in flight at the end count as delivered when younger
    /// than this many times the run's mean latency (0..=100; 0: the strict
    /// per-source test).
    #[arg(long, default_value_t = 4.0, allow_negative_numbers = true, value_parser = super::args::parse_number)]
    pub settle: f64,
    /// Run every routing of the given routing's family that applies.
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn parse_seeds(s: &str) -> Result<u64, String> {
    super::args::parse_whole(s, 1, 32)
}

/// One routing's saturation.
#[derive(Debug, Serialize)]
pub struct Saturation {
    pub routing: String,
    /// Saturation throughput as a fraction of capacity (a grid point).
    pub fraction: f64,
    /// The same offered load in flits per host per cycle.
    pub load: f64,
    /// Capacity in flits per host per cycle.
    pub capacity: f64,
    /// Simulations run.
    pub runs: u64,
}

/// `saturation --json` output.
#[derive(Debug, Serialize)]
pub struct SaturationReport {
    pub topology: String,
    pub traffic: String,
    pub switch_model: String,
    pub step: f64,
    pub seeds: u64,
    pub threshold: f64,
    pub settle: f64,
    pub routings: Vec<Saturation>,
}

/// What a grid point must meet.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// Accepted over offered, and each source's share delivered, at least.
    pub threshold: f64,
    /// Undelivered packets younger than this many mean latencies count as
    /// delivered (module docs).
    pub settle: f64,
}

/// Does `load` pass on every seed?
fn passes(plan: &Planned, load: f64, seeds: u64, test: Test) -> Result<bool, CliError> {
    let Test { threshold, settle } = test;
    let (base, network, routing) = (&plan.scenario, &plan.built.network, &plan.built.routing);
    let results: Vec<Result<bool, CliError>> = (0..seeds)
        .into_par_iter()
        .map(|i| {
            let s = Scenario {
                load,
                seed: base.seed.wrapping_add(i),
                ..base.clone()
            };
            let (sim, r) = run_point(&s, network, routing)?;
            let latency = r.summary.avg_latency;
            let young = if latency.is_finite() {
                (settle * latency).ceil() as u64
            } else {
                0
            };
            Ok(r.summary.accepted >= threshold * load
                && sim.min_source_delivery_settled(young) >= threshold)
        })
        .collect();
    let mut all = true;
    for r in results {
        all &= r?;
    }
    Ok(all)
}

/// The saturation of one scenario (module docs).
pub fn saturation(
    plan: &Planned,
    step: f64,
    seeds: u64,
    test: Test,
) -> Result<Saturation, CliError> {
    // The switch model's own capacity and largest load: the channels'
    // capacity and 1 flit per cycle for the cycle-level models; for the
    // time-slice model the λ at which ρ = 1 and the fastest access
    // switch's rate, in requests per server per slice (it used the
    // channels' capacity, 1.0, and stopped at a load of 1).
    let probe = plan
        .scenario
        .build_on(plan.built.network.clone(), &plan.built.routing)?;
    let (capacity, max_load) = (probe.capacity(), probe.max_load());
    drop(probe);
    let grid = |g: u64| (g as f64 * step * capacity).min(max_load);
    // Highest grid point whose load a host can offer.
    let top = ((max_load / (step * capacity)) + 1e-9).floor() as u64;
    let mut runs = 0;
    let (mut lo, mut hi) = (0u64, top);
    runs += seeds;
    if passes(plan, grid(hi), seeds, test)? {
        lo = hi;
    } else {
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            runs += seeds;
            if passes(plan, grid(mid), seeds, test)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }
    let name = plan.built.tables.name();
    Ok(Saturation {
        routing: name,
        // Rounded to the grid (no 0.9500000000000001).
        fraction: (lo as f64 * step * 1e9).round() / 1e9,
        load: grid(lo),
        capacity,
        runs,
    })
}

pub fn run(a: SaturationArgs) -> Result<(), CliError> {
    if !(a.step > 0.0 && a.step <= 0.5) {
        return Err(CliError::Input(format!(
            "--step {}; accepted a fraction of capacity in (0, 0.5]",
            a.step
        )));
    }
    if !(1..=32).contains(&a.seeds) {
        return Err(CliError::Input(format!(
            "--seeds {}; accepted 1..=32",
            a.seeds
        )));
    }
    if !(0.5..=1.0).contains(&a.threshold) {
        return Err(CliError::Input(format!(
            "--threshold {}; accepted 0.5..=1",
            a.threshold
        )));
    }
    if !(0.0..=100.0).contains(&a.settle) {
        return Err(CliError::Input(format!(
            "--settle {}; accepted 0..=100 (mean latencies)",
            a.settle
        )));
    }
    let test = Test {
        threshold: a.threshold,
        settle: a.settle,
    };
    let scenarios = a.scenario.scenarios(a.compare)?;
    let mut routings = Vec::new();
    for s in &scenarios {
        routings.push(saturation(s, a.step, a.seeds, test)?);
    }
    let first = &scenarios[0].scenario;
    let report = SaturationReport {
        topology: first.topology.clone(),
        traffic: first.traffic.clone(),
        switch_model: first.switch_model.as_str().to_string(),
        step: a.step,
        seeds: a.seeds,
        threshold: a.threshold,
        settle: a.settle,
        routings,
    };
    if a.json {
        super::emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"))?;
    } else {
        let mut out = format!(
            "saturation: largest load on a {:.3}·capacity grid with accepted >= {} x offered on {} seeds\n\
             and every source's packets delivered as much (those younger than {} mean latencies at the end excepted)\n\
             topology {}  traffic {}  switch model {}\n",
            report.step,
            report.threshold,
            report.seeds,
            report.settle,
            report.topology,
            report.traffic,
            report.switch_model
        );
        let w = report
            .routings
            .iter()
            .map(|r| r.routing.len())
            .max()
            .unwrap_or(7)
            .max(7);
        let unit = scenarios[0].scenario.switch_model.unit().load_short;
        let u = unit.len().max(8);
        out.push_str(&format!("{:w$}  fraction  {unit:>u$}  runs\n", "routing"));
        for r in &report.routings {
            out.push_str(&format!(
                "{:w$}  {:8.2}  {:u$.4}  {:4}\n",
                r.routing, r.fraction, r.load, r.runs
            ));
        }
        super::emit(&out)?;
    }
    Ok(())
}
