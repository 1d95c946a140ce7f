//! Running a campaign's points: on every core (rayon), one result file per
//! point written whole or not at all, only the points not yet in the
//! output directory, a deterministic share per task of a job array, and a
//! clean stop on request.
//!
//! Layout of an output directory:
//! - `campaign.json`: the campaign's name, axes and point count
//!   ([`Manifest`], written by every run; the same text each time);
//! - `points/<id>.json`: one point ([`PointResult`]): its id, scenario and
//!   result, or the error that stopped its run.
//!
//! A result is written to `points/.<id>.<pid>.tmp` and renamed to
//! `points/<id>.json`, so a killed run leaves at worst a temporary file,
//! which the next run removes; a point is done exactly when its file
//! exists.

use super::file::{Campaign, Point};
use crate::scenario::Scenario;
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Cycles stepped between two looks at the stop request.
pub const CHUNK_CYCLES: u64 = 1024;

/// One point's result file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PointResult {
    /// [`super::file::point_id`] of the scenario.
    pub id: String,
    /// The scenario run.
    pub scenario: Scenario,
    /// The run's report (`routelab sim --json`'s object), absent when it
    /// failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the run stopped (a deadlock...), when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `campaign.json` in an output directory: what the merge and the plots
/// need to order rows and name figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// The campaign's title.
    pub name: String,
    /// Each axis and its values, in the file's expansion order.
    pub axes: Vec<(String, Vec<Value>)>,
    /// How many points the campaign has.
    pub points: usize,
}

impl Manifest {
    /// The manifest of `c`.
    pub fn of(c: &Campaign) -> Manifest {
        let axes = c
            .axes
            .iter()
            .map(|a| {
                let mut values: Vec<Value> = Vec::new();
                for p in &c.points {
                    let v =
                        serde_json::to_value(&p.scenario).unwrap_or_default()[a.as_str()].clone();
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                (a.clone(), values)
            })
            .collect();
        Manifest {
            name: c.name.clone(),
            axes,
            points: c.points.len(),
        }
    }

    /// The manifest in `dir`, if there is one.
    pub fn read(dir: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(dir.join("campaign.json")).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// How one point's run ended.
#[derive(Debug)]
pub enum Outcome {
    /// It ran: its report.
    Done(Value),
    /// It stopped with an error (deterministic: recorded, not retried).
    Failed(String),
    /// A stop was requested before it finished: nothing is written.
    Stopped,
}

/// The counts a progress display shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Points of this run (task) done, including those found done.
    pub done: usize,
    /// Points running now.
    pub running: usize,
    /// Points not started.
    pub left: usize,
    /// Points of this run that failed.
    pub failed: usize,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Points of this task.
    pub total: usize,
    /// Found done before the run.
    pub already: usize,
    /// Computed by this run.
    pub computed: usize,
    /// Of those, failed.
    pub failed: usize,
    /// Left when a stop was requested.
    pub stopped: usize,
}

/// Where point `id`'s result lives in `dir`.
pub fn result_path(dir: &Path, id: &str) -> PathBuf {
    dir.join("points").join(format!("{id}.json"))
}

/// Build `s` and run its warm-up and measured cycles, looking at `stop`
/// every [`CHUNK_CYCLES`]: `Ok(None)` when stopped.
pub fn simulate(s: &Scenario, stop: &AtomicBool) -> Result<Option<Simulation>, String> {
    let mut sim = s.build().map_err(|e| e.to_string())?;
    let mut left = s.warmup + s.cycles;
    while left > 0 {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let n = left.min(CHUNK_CYCLES);
        sim.run_for(n).map_err(|e| e.to_string())?;
        left -= n;
    }
    Ok(Some(sim))
}

/// Write `text` to `path` whole or not at all: a temporary file beside it,
/// synced, then renamed over it.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Prepare `dir` for `campaign`: create it, write the manifest, and
/// remove the temporary files a killed run left. A temporary file lives
/// only while its result is written (milliseconds), so one older than a
/// minute is left over, whichever task or machine wrote it.
pub fn prepare_dir(dir: &Path, campaign: &Campaign) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("points"))?;
    let manifest = serde_json::to_string_pretty(&Manifest::of(campaign)).unwrap_or_default() + "\n";
    let path = dir.join("campaign.json");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(manifest.as_str()) {
        write_atomically(&path, &manifest)?;
    }
    for entry in std::fs::read_dir(dir.join("points"))?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() >= 60);
        if is_temporary(&name) && stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(())
}

/// Whether a file name is a temporary result (`.<id>.json.<pid>.tmp`).
pub fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// The points of `share` with no result file in `dir`.
pub fn missing<'a>(dir: &Path, share: &[&'a Point]) -> Vec<&'a Point> {
    share
        .iter()
        .filter(|p| !result_path(dir, &p.id).is_file())
        .copied()
        .collect()
}

/// Run every point of `share` not yet in `dir`, on rayon's pool, each with
/// `runner`; a result file is written as each finishes. Once `stop` is
/// set no point starts and running points end at their next chunk,
/// leaving no file. `on_change` sees the counts at every start and end.
pub fn run(
    dir: &Path,
    share: &[&Point],
    runner: &(dyn Fn(&Scenario, &AtomicBool) -> Outcome + Sync),
    stop: &AtomicBool,
    on_change: &(dyn Fn(Counts) + Sync),
) -> std::io::Result<RunStats> {
    use rayon::prelude::*;
    let todo = missing(dir, share);
    let already = share.len() - todo.len();
    let done = AtomicUsize::new(already);
    let running = AtomicUsize::new(0);
    let started = AtomicUsize::new(0);
    let computed = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    let counts = || Counts {
        done: done.load(Ordering::SeqCst),
        running: running.load(Ordering::SeqCst),
        left: todo.len() - started.load(Ordering::SeqCst),
        failed: failed.load(Ordering::SeqCst),
    };
    on_change(counts());
    let errors: Vec<std::io::Error> = todo
        .par_iter()
        .with_max_len(1)
        .filter_map(|p| {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            started.fetch_add(1, Ordering::SeqCst);
            running.fetch_add(1, Ordering::SeqCst);
            on_change(counts());
            let outcome = runner(&p.scenario, stop);
            let (result, error) = match outcome {
                Outcome::Done(v) => (Some(v), None),
                Outcome::Failed(e) => (None, Some(e)),
                Outcome::Stopped => {
                    running.fetch_sub(1, Ordering::SeqCst);
                    started.fetch_sub(1, Ordering::SeqCst);
                    on_change(counts());
                    return None;
                }
            };
            let is_failure = error.is_some();
            let file = PointResult {
                id: p.id.clone(),
                scenario: p.scenario.clone(),
                result,
                error,
            };
            let text = serde_json::to_string_pretty(&file).unwrap_or_default() + "\n";
            let written = write_atomically(&result_path(dir, &p.id), &text);
            running.fetch_sub(1, Ordering::SeqCst);
            if written.is_ok() {
                done.fetch_add(1, Ordering::SeqCst);
                computed.fetch_add(1, Ordering::SeqCst);
                if is_failure {
                    failed.fetch_add(1, Ordering::SeqCst);
                }
            }
            on_change(counts());
            written.err()
        })
        .collect();
    if let Some(e) = errors.into_iter().next() {
        return Err(e);
    }
    let computed = computed.load(Ordering::SeqCst);
    Ok(RunStats {
        total: share.len(),
        already,
        computed,
        failed: failed.load(Ordering::SeqCst),
        stopped: todo.len() - computed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_written_whole_and_temporaries_are_recognised() {
        let dir = std::env::temp_dir().join(format!("routelab-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("00ab.json");
        write_atomically(&path, "{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["00ab.json".to_string()]);
        assert!(is_temporary(".00ab.json.1234.tmp"));
        assert!(!is_temporary("00ab.json"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
