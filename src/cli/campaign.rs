//! `routelab campaign run|slurm|merge|plot`: a campaign file
//! ([`crate::campaign`]) run on every core or as a Slurm job array,
//! resumed, merged into one table and plotted.

use super::CliError;
use super::sim::{DrbReport, SimReport};
use crate::campaign::merge::{self, Table};
use crate::campaign::plot::{self, By};
use crate::campaign::run::{self, Counts, Manifest, Outcome};
use crate::campaign::slurm::{JobArray, shell_quote};
use crate::campaign::{Campaign, CampaignError};
use crate::scenario::Scenario;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `routelab campaign ...`.
#[derive(Debug, Args)]
pub struct CampaignArgs {
    #[command(subcommand)]
    pub command: CampaignCommand,
}

/// The campaign subcommands.
#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Run every point not yet in --out on all cores (or task I's share of
    /// N); Ctrl-C stops, running it again computes only what is missing.
    Run(RunArgs),
    /// Write an sbatch script for a Slurm job array of --tasks tasks, each
    /// running its share, and print the command that submits it.
    Slurm(SlurmArgs),
    /// One table of every point (CSV, or --json): the mean and 95 %
    /// confidence interval over seeds, each curve's saturation throughput.
    Merge(MergeArgs),
    /// Latency and accepted against offered load, one panel per traffic and
    /// one curve per routing (--by), with confidence bands: SVG and PNG.
    Plot(PlotArgs),
}

/// `campaign run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The campaign file (JSON: base, set, axes, exclude).
    pub file: PathBuf,
    /// The output directory: one result file per point.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Set a scenario field for every point, over the file's `set`
    /// (`--set cycles=2000`); part of each point's identity. Repeatable.
    #[arg(long = "set", value_name = "FIELD=VALUE", action = clap::ArgAction::Append)]
    pub set: Vec<String>,
    /// This task's index, 0..tasks (a job array's `$SLURM_ARRAY_TASK_ID`).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = parse_index)]
    pub task: usize,
    /// Tasks sharing the campaign: task I runs every N-th point from I.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_tasks)]
    pub tasks: usize,
    /// Check the file and every point, print the count, run nothing.
    #[arg(long)]
    pub check: bool,
}

/// `campaign slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The campaign file.
    pub file: PathBuf,
    /// The output directory (on a file system every node sees).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Array tasks (1..=10000).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_tasks)]
    pub tasks: usize,
    /// Slurm partition (or several, separated by commas).
    #[arg(long, value_parser = crate::campaign::slurm::parse_partition)]
    pub partition: Option<String>,
    /// Time limit per task (Slurm's --time, e.g. 02:00:00).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::campaign::slurm::parse_time)]
    pub time: Option<String>,
    /// CPUs per task; the task runs its points on that many threads.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_tasks)]
    pub cpus_per_task: Option<usize>,
    /// More #SBATCH arguments, each a whole option (`--sbatch-args=--account=net`). Repeatable.
    #[arg(long, allow_hyphen_values = true, action = clap::ArgAction::Append, value_parser = crate::campaign::slurm::parse_sbatch_arg)]
    pub sbatch_args: Vec<String>,
    /// Fields set for every point, passed on to each task's `campaign run`.
    #[arg(long = "set", value_name = "FIELD=VALUE", action = clap::ArgAction::Append)]
    pub set: Vec<String>,
    /// Where to write the script (default DIR/campaign.sbatch).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
}

/// `campaign merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// A campaign's output directory.
    pub dir: PathBuf,
    /// One JSON array of rows instead of CSV.
    #[arg(long)]
    pub json: bool,
    /// Write the table to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `campaign plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A campaign's output directory.
    pub dir: PathBuf,
    /// The panel and curve inputs: PANEL,CURVE.
    #[arg(long, default_value = "traffic,routing")]
    pub by: String,
    /// Where to write the figures (default DIR/plots).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The figures' title (default the campaign's name).
    #[arg(long)]
    pub title: Option<String>,
}

fn parse_index(s: &str) -> Result<usize, String> {
    super::args::parse_whole(s, 0, 9999).map(|v| v as usize)
}
fn parse_tasks(s: &str) -> Result<usize, String> {
    super::args::parse_whole(s, 1, 10000).map(|v| v as usize)
}

/// Run a campaign subcommand.
pub fn run(a: CampaignArgs) -> Result<(), CliError> {
    match a.command {
        CampaignCommand::Run(a) => run_points(a),
        CampaignCommand::Slurm(a) => slurm(a),
        CampaignCommand::Merge(a) => merge_dir(a),
        CampaignCommand::Plot(a) => plot_dir(a),
    }
}

/// `FIELD=VALUE` pairs: the value as JSON when it reads as JSON (numbers,
/// true/false), else as a string.
fn overrides(set: &[String]) -> Result<Map<String, Value>, CliError> {
    let mut m = Map::new();
    for s in set {
        let Some((k, v)) = s.split_once('=') else {
            return Err(CliError::Input(format!(
                "--set `{s}`; accepted FIELD=VALUE like cycles=2000 or routing=dor"
            )));
        };
        let value = serde_json::from_str::<Value>(v).unwrap_or_else(|_| Value::from(v));
        m.insert(k.trim().to_string(), value);
    }
    Ok(m)
}

fn campaign_error(file: &Path, e: CampaignError) -> CliError {
    CliError::Input(format!(
        "campaign `{}`: {}",
        file.display(),
        e.problems.join("\n  ")
    ))
}

/// Read, expand and check a campaign: every problem before any point runs.
fn load(file: &Path, set: &[String]) -> Result<Campaign, CliError> {
    let c = Campaign::load(file, &overrides(set)?).map_err(|e| campaign_error(file, e))?;
    c.check().map_err(|e| campaign_error(file, e))?;
    Ok(c)
}

/// Run one point: the `sim --json` report, timing included.
fn run_one(s: &Scenario, stop: &AtomicBool) -> Outcome {
    let t0 = Instant::now();
    match run::simulate(s, stop) {
        Ok(None) => Outcome::Stopped,
        Err(e) => Outcome::Failed(e),
        Ok(Some(sim)) => {
            let elapsed = t0.elapsed().as_secs_f64();
            let report = SimReport {
                summary: sim.summary(),
                traffic: s.traffic.clone(),
                elapsed_ms: elapsed * 1e3,
                cycles_per_second: (s.warmup + s.cycles) as f64 / elapsed.max(1e-9),
                drb: DrbReport::of(&sim),
            };
            match serde_json::to_value(&report) {
                Ok(v) => Outcome::Done(v),
                Err(e) => Outcome::Failed(e.to_string()),
            }
        }
    }
}

/// The stop flag Ctrl-C sets (a second Ctrl-C ends the process at once).
fn stop_flag() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    static PRESSES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let _ = ctrlc::set_handler(|| {
        if PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(130);
        }
        STOP.store(true, Ordering::SeqCst);
    });
    &STOP
}

fn run_points(a: RunArgs) -> Result<(), CliError> {
    if a.task >= a.tasks {
        return Err(CliError::Input(format!(
            "--task {}; accepted 0..={} with --tasks {}",
            a.task,
            a.tasks - 1,
            a.tasks
        )));
    }
    let c = load(&a.file, &a.set)?;
    let share = c.share(a.task, a.tasks);
    if a.check {
        let missing = run::missing(&a.out, &share).len();
        return super::emit(&format!(
            "campaign `{}`: {} points ({} for task {} of {}), {} not yet in `{}`\n",
            a.file.display(),
            c.points.len(),
            share.len(),
            a.task,
            a.tasks,
            missing,
            a.out.display()
        ));
    }
    super::check_out_dir("--out", &a.out)?;
    run::prepare_dir(&a.out, &c)
        .map_err(|e| CliError::Run(format!("cannot prepare `{}`: {e}", a.out.display())))?;
    let stop = stop_flag();
    let display = Display::new(share.len());
    let stats = std::thread::scope(|scope| {
        let ticker = scope.spawn(|| display.tick_until_done());
        let stats = run::run(&a.out, &share, &run_one, stop, &|c| display.update(c));
        display.finish();
        let _ = ticker.join();
        stats
    })
    .map_err(|e| CliError::Run(format!("cannot write to `{}`: {e}", a.out.display())))?;
    let task = if a.tasks > 1 {
        format!(" (task {} of {})", a.task, a.tasks)
    } else {
        String::new()
    };
    if stats.stopped > 0 {
        return Err(CliError::Stopped(format!(
            "stopped on request: {} of {} points{task} done ({} this run); the same command computes the {} missing",
            stats.already + stats.computed,
            stats.total,
            stats.computed,
            stats.stopped
        )));
    }
    eprintln!(
        "routelab: {} points{task} done: {} computed now, {} found done{}; results in `{}`",
        stats.total,
        stats.computed,
        stats.already,
        if stats.failed > 0 {
            format!(", {} failed (their files say why)", stats.failed)
        } else {
            String::new()
        },
        a.out.display()
    );
    Ok(())
}

/// The progress of a run: a bar on a terminal, else a line every 10 s
/// (`ROUTELAB_PROGRESS_INTERVAL_MS` sets the interval).
struct Display {
    total: usize,
    start: Instant,
    counts: Mutex<(Counts, usize)>,
    bar: Option<ProgressBar>,
    interval: Duration,
    done: AtomicBool,
}

impl Display {
    fn new(total: usize) -> Display {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(total as u64);
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} points, {msg} {elapsed}, about {eta} left; Ctrl-C stops (run again to resume)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        let interval = super::progress::interval();
        Display {
            total,
            start: Instant::now(),
            counts: Mutex::new((Counts::default(), usize::MAX)),
            bar,
            interval,
            done: AtomicBool::new(false),
        }
    }

    fn update(&self, c: Counts) {
        let mut first = false;
        if let Ok(mut g) = self.counts.lock() {
            if g.1 == usize::MAX {
                g.1 = c.done; // found done before this run
                first = true;
            }
            g.0 = c;
        }
        if let Some(b) = &self.bar {
            b.set_position(c.done as u64);
            if first {
                // The time left counts only this run's pace.
                b.reset_eta();
                b.enable_steady_tick(Duration::from_secs(1));
            }
            b.set_message(format!("{} running, {} left", c.running, c.left));
        }
    }

    fn tick_until_done(&self) {
        let mut last = Instant::now();
        while !self.done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
            if self.bar.is_none() && last.elapsed() >= self.interval {
                last = Instant::now();
                eprintln!("{}", self.line());
            }
        }
    }

    fn line(&self) -> String {
        let (c, first) = self.counts.lock().map(|g| *g).unwrap_or_default();
        let first = if first == usize::MAX { 0 } else { first };
        let elapsed = self.start.elapsed();
        let now = c.done.saturating_sub(first);
        let left = if now == 0 {
            "time left unknown".to_string()
        } else {
            let rest = (c.left + c.running) as f64 / now as f64;
            format!(
                "about {} left",
                readable(Duration::from_secs_f64(elapsed.as_secs_f64() * rest))
            )
        };
        format!(
            "routelab: {} of {} points done, {} running, {} left, in {}, {left}; Ctrl-C stops (run again to resume)",
            c.done,
            self.total,
            c.running,
            c.left,
            readable(elapsed)
        )
    }

    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// `42 s`, `12 min`, `3 h 5 min`.
fn readable(d: Duration) -> String {
    let s = d.as_secs();
    if s < 90 {
        format!("{s} s")
    } else if s < 90 * 60 {
        format!("{} min", (s + 30) / 60)
    } else {
        let m = (s + 30) / 60;
        format!("{} h {} min", m / 60, m % 60)
    }
}

fn absolute(p: &Path) -> Result<PathBuf, CliError> {
    std::path::absolute(p)
        .map_err(|e| CliError::Input(format!("cannot resolve `{}`: {e}", p.display())))
}

fn slurm(a: SlurmArgs) -> Result<(), CliError> {
    let c = load(&a.file, &a.set)?;
    let binary = std::env::current_exe()
        .map_err(|e| CliError::Run(format!("cannot find the routelab binary: {e}")))?;
    let (file, out) = (absolute(&a.file)?, absolute(&a.out)?);
    let workdir = std::env::current_dir()
        .map_err(|e| CliError::Run(format!("cannot read the current directory: {e}")))?;
    // A script path given outside DIR is checked before DIR is created or
    // prepared, so a refused invocation leaves nothing behind.
    super::check_out_dir("--out", &out)?;
    if let Some(script) = &a.script {
        super::check_output("--script", script)?;
    }
    std::fs::create_dir_all(out.join("slurm"))
        .map_err(|e| CliError::Run(format!("cannot create `{}`: {e}", out.display())))?;
    run::prepare_dir(&out, &c)
        .map_err(|e| CliError::Run(format!("cannot prepare `{}`: {e}", out.display())))?;
    let run_args: Vec<String> = a
        .set
        .iter()
        .map(|s| format!("--set {}", shell_quote(s)))
        .collect();
    let name = file
        .file_stem()
        .map(|s| format!("routelab-{}", s.to_string_lossy()))
        .unwrap_or_else(|| "routelab-campaign".into());
    let job = JobArray {
        binary: &binary,
        file: &file,
        out: &out,
        workdir: &workdir,
        tasks: a.tasks,
        partition: a.partition.as_deref(),
        time: a.time.as_deref(),
        cpus_per_task: a.cpus_per_task,
        run_args: &run_args,
        sbatch_args: &a.sbatch_args,
        name: &name,
    };
    let script = a
        .script
        .clone()
        .unwrap_or_else(|| out.join("campaign.sbatch"));
    super::write_file(&script, &job.script())?;
    let missing = run::missing(&out, &c.share(0, 1)).len();
    super::emit(&format!(
        "{} points ({} not yet in `{}`) in {} array tasks; submit with:\n  sbatch {}\n",
        c.points.len(),
        missing,
        out.display(),
        a.tasks,
        shell_quote(&script.display().to_string())
    ))
}

fn merged(dir: &Path) -> Result<Table, CliError> {
    let t = merge::merge(dir).map_err(CliError::Input)?;
    if let Some(n) = t.expected
        && t.points < n
    {
        eprintln!(
            "routelab: {} of {} points have results in `{}`; the table has only those",
            t.points,
            n,
            dir.display()
        );
    }
    if t.failed > 0 {
        eprintln!(
            "routelab: {} points failed (their result files say why); the table leaves them out of the means",
            t.failed
        );
    }
    Ok(t)
}

fn merge_dir(a: MergeArgs) -> Result<(), CliError> {
    // The table's file is checked before the results are read: a refused
    // `--out` reads and writes nothing.
    if let Some(p) = &a.out {
        super::check_output("--out", p)?;
    }
    let t = merged(&a.dir)?;
    let text = if a.json {
        t.to_json()
    } else {
        t.to_csv().map_err(CliError::Run)?
    };
    match &a.out {
        Some(p) => super::write_file(p, &text),
        None => super::emit(&text),
    }
}

fn plot_dir(a: PlotArgs) -> Result<(), CliError> {
    let by = By::parse(&a.by).map_err(CliError::Input)?;
    let out = a.out.clone().unwrap_or_else(|| a.dir.join("plots"));
    super::check_out_dir(
        if a.out.is_some() {
            "--out"
        } else {
            "plots directory"
        },
        &out,
    )?;
    let t = merged(&a.dir)?;
    let title = a
        .title
        .clone()
        .or_else(|| Manifest::read(&a.dir).map(|m| m.name))
        .unwrap_or_default();
    let files = plot::plot(&t, &title, &by, &out).map_err(CliError::Input)?;
    let list: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    super::emit(&(list.join("\n") + "\n"))
}
