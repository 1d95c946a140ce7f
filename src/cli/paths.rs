//! `routelab paths`: build the shortest legal path set of a topology, select
//! one path per switch pair, and print crossing-path statistics (Koibuchi
//! et al. Tables 2-4; Villalobos et al. §4). `--compare` runs every
//! algorithm on the same path set and prints one table.

use super::{CliError, check_output, write_file};
use crate::paths::{
    Algorithm, CrossingStats, Init, LegalKind, Load, Objective, PathSet, RouteTables, SearchParams,
    run as run_select,
};
use crate::topology::{Network, TopologySpec};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct PathsArgs {
    /// Topology spec, e.g. irregular:16:seed=1 or torus:8x8.
    #[arg(long)]
    pub topology: String,
    /// Legal paths: updown-bfs, updown-dfs, udwm.
    #[arg(long, default_value = "updown-bfs")]
    pub routing: String,
    /// Root switch of the spanning tree.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = parse_root)]
    pub root: u32,
    /// Virtual channels of the path model (1..=16).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_vcs)]
    pub vcs: u8,
    /// Path selection: random, lowport, maxcp, hpcf, lvcf, lpcf, ga, sa.
    #[arg(long)]
    pub select: Option<String>,
    /// Objective of ga and sa: sd, max, sumsq.
    #[arg(long, default_value = "sd")]
    pub objective: String,
    /// Seed of random, ga and sa.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = super::args::parse_seed)]
    pub seed: u64,
    /// SA moves or GA generations (default: SA 2000000, GA 100000).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_budget)]
    pub budget: Option<u64>,
    /// Start of ga and sa: random (the paper) or maxcp.
    #[arg(long, default_value = "random")]
    pub init: String,
    /// GA population size.
    #[arg(long, default_value_t = 50, allow_negative_numbers = true, value_parser = parse_population)]
    pub population: usize,
    /// GA per-position mutation probability.
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true, value_parser = super::args::parse_number)]
    pub mutation: f64,
    /// Most paths kept per pair (0: all).
    #[arg(long, default_value_t = crate::paths::DEFAULT_CAP, allow_negative_numbers = true, value_parser = parse_cap)]
    pub cap: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the chosen routing tables (source routes and forwarding tables) as JSON.
    #[arg(long, value_name = "FILE")]
    pub tables: Option<PathBuf>,
    /// Run every algorithm on the same path set and print one table.
    #[arg(long)]
    pub compare: bool,
}

fn parse_root(s: &str) -> Result<u32, String> {
    super::args::parse_whole(s, 0, crate::limits::MAX_PATH_SWITCHES - 1).map(|v| v as u32)
}
fn parse_vcs(s: &str) -> Result<u8, String> {
    super::args::parse_whole(s, 1, 16).map(|v| v as u8)
}
fn parse_budget(s: &str) -> Result<u64, String> {
    super::args::parse_whole(s, 0, crate::limits::MAX_SEARCH_BUDGET)
}
fn parse_population(s: &str) -> Result<usize, String> {
    let r = crate::limits::GA_POPULATION;
    super::args::parse_whole(s, *r.start(), *r.end()).map(|v| v as usize)
}
fn parse_cap(s: &str) -> Result<usize, String> {
    super::args::parse_whole(s, 0, u32::MAX as u64).map(|v| v as usize)
}

/// One algorithm's result.
#[derive(Debug, Serialize)]
pub struct SelectReport {
    pub select: Algorithm,
    pub crossing: CrossingStats,
    /// Value of the objective (`objective`) for this choice.
    pub objective_value: f64,
    /// SA moves or GA generations made (0 for the others).
    pub iterations: u64,
    pub elapsed_ms: f64,
}

/// `paths --json` output.
#[derive(Debug, Serialize)]
pub struct PathsReport {
    pub topology: String,
    pub routing: LegalKind,
    pub root: u32,
    pub vcs: u8,
    pub objective: Objective,
    pub seed: u64,
    pub init: Init,
    pub switches: usize,
    pub channels: usize,
    pub pairs: usize,
    /// Candidate paths kept before selection.
    pub paths_before: usize,
    /// Exact number of shortest legal paths (before the cap).
    pub paths_total: u128,
    pub cap: usize,
    pub capped_pairs: usize,
    pub build_ms: f64,
    #[serde(flatten)]
    pub result: Option<SelectReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<SelectReport>,
}

fn input(msg: String) -> CliError {
    CliError::Input(msg)
}

pub fn run(a: PathsArgs) -> Result<(), CliError> {
    let legal = LegalKind::parse(&a.routing).ok_or_else(|| {
        input(format!(
            "--routing `{}`; accepted {}",
            a.routing,
            LegalKind::ACCEPTED
        ))
    })?;
    let objective = Objective::parse(&a.objective).ok_or_else(|| {
        input(format!(
            "--objective `{}`; accepted {}",
            a.objective,
            Objective::ACCEPTED
        ))
    })?;
    let init = Init::parse(&a.init)
        .ok_or_else(|| input(format!("--init `{}`; accepted {}", a.init, Init::ACCEPTED)))?;
    let select =
        match &a.select {
            Some(s) => Some(Algorithm::parse(s).ok_or_else(|| {
                input(format!("--select `{s}`; accepted {}", Algorithm::ACCEPTED))
            })?),
            None => None,
        };
    if select.is_none() && !a.compare {
        return Err(input(format!(
            "--select is missing; accepted {} (or --compare)",
            Algorithm::ACCEPTED
        )));
    }
    if a.compare && a.tables.is_some() && select.is_none() {
        return Err(input(
            "--tables needs --select (which algorithm's tables to write)".into(),
        ));
    }
    // Before the search (which may take minutes): a path the tables could
    // not be written to is refused now, not after it.
    if let Some(path) = &a.tables {
        check_output("--tables", path)?;
    }
    if !(1..=16).contains(&a.vcs) {
        return Err(input(format!("--vcs {}; accepted 1..=16", a.vcs)));
    }
    if a.population < 2 {
        return Err(input(format!(
            "--population {}; accepted 2 or more",
            a.population
        )));
    }
    if !(a.mutation > 0.0 && a.mutation < 1.0) {
        return Err(input(format!(
            "--mutation {}; accepted a probability in (0, 1) (the paper: 0.01-0.02)",
            a.mutation
        )));
    }
    let spec: TopologySpec = a
        .topology
        .parse()
        .map_err(|e: crate::topology::TopologyError| input(e.to_string()))?;
    let net: Network = spec.build().map_err(|e| input(e.to_string()))?;
    if a.root as usize >= net.num_switches() {
        return Err(input(format!(
            "--root {}; accepted 0..{}",
            a.root,
            net.num_switches().saturating_sub(1)
        )));
    }
    let t0 = Instant::now();
    let set = Arc::new(
        PathSet::build(&net, legal, a.root, a.vcs, a.cap).map_err(|e| input(e.to_string()))?,
    );
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let genes = (a.population as u64).saturating_mul(set.variable_pairs().len() as u64);
    let ga = select == Some(Algorithm::Ga) || a.compare;
    if ga && genes > crate::limits::MAX_GA_GENES {
        return Err(input(format!(
            "--population {} x {} pairs with a choice = {genes} genes; at most {} (a smaller population)",
            a.population,
            set.variable_pairs().len(),
            crate::limits::MAX_GA_GENES
        )));
    }
    let params = SearchParams {
        objective,
        seed: a.seed,
        budget: a.budget,
        init,
        population: a.population,
        mutation: a.mutation,
    };
    let one = |alg: Algorithm| -> Result<(SelectReport, crate::paths::Choice), CliError> {
        let t = Instant::now();
        let (choice, iterations) =
            run_select(&set, alg, &params).map_err(|e| input(e.to_string()))?;
        let elapsed_ms = t.elapsed().as_secs_f64() * 1e3;
        let load = Load::of(&set, &choice);
        Ok((
            SelectReport {
                select: alg,
                crossing: load.stats(),
                objective_value: load.value(objective),
                iterations,
                elapsed_ms,
            },
            choice,
        ))
    };
    let mut report = PathsReport {
        topology: net.spec().to_string(),
        routing: legal,
        root: a.root,
        vcs: a.vcs,
        objective,
        seed: a.seed,
        init,
        switches: net.num_switches(),
        channels: set.num_channels(),
        pairs: set.num_pairs(),
        paths_before: set.num_paths(),
        paths_total: set.paths_total(),
        cap: a.cap,
        capped_pairs: set.capped_pairs(),
        build_ms,
        result: None,
        results: Vec::new(),
    };
    if let Some(alg) = select {
        let (r, choice) = one(alg)?;
        if let Some(path) = &a.tables {
            let tables = RouteTables::new(&set, &choice);
            let file = tables.file(&set, alg.as_str(), objective.as_str());
            let text = serde_json::to_string(&file)
                .map_err(|e| CliError::Run(format!("cannot serialise tables: {e}")))?;
            write_file(path, &text)?;
        }
        if !a.compare {
            report.result = Some(r);
        }
    }
    if a.compare {
        for alg in Algorithm::ALL {
            report.results.push(one(alg)?.0);
        }
    }
    if a.json {
        super::emit(&(serde_json::to_string(&report).unwrap_or_default() + "\n"))?;
    } else {
        super::emit(&readable(&report))?;
    }
    Ok(())
}

/// The human-readable report.
pub fn readable(r: &PathsReport) -> String {
    let mut s = format!(
        "{}: {} switches, {} switch-to-switch channels\n\
         {} root {}, {} VC(s): {} pairs, {} shortest legal paths, {} kept (cap {}, {} pairs capped); built in {:.1} ms\n",
        r.topology,
        r.switches,
        r.channels,
        r.routing,
        r.root,
        r.vcs,
        r.pairs,
        r.paths_total,
        r.paths_before,
        r.cap,
        r.capped_pairs,
        r.build_ms
    );
    let row = |x: &SelectReport| {
        format!(
            "{:<8} {:>9.3} {:>6} {:>9.3} {:>6} {:>12} {:>10} {:>10.1}\n",
            x.select.as_str(),
            x.crossing.sd,
            x.crossing.max,
            x.crossing.mean,
            x.crossing.min,
            x.crossing.sumsq,
            x.iterations,
            x.elapsed_ms
        )
    };
    let header = format!(
        "crossing paths per physical channel (objective of ga/sa: {}, init {})\n{:<8} {:>9} {:>6} {:>9} {:>6} {:>12} {:>10} {:>10}\n",
        r.objective.as_str(),
        r.init.as_str(),
        "select",
        "sd",
        "max",
        "mean",
        "min",
        "sumsq",
        "iters",
        "ms"
    );
    s.push_str(&header);
    if let Some(x) = &r.result {
        s.push_str(&row(x));
    }
    for x in &r.results {
        s.push_str(&row(x));
    }
    s
}
