//! Campaigns as a user drives them: bad files refused before anything
//! runs, a run interrupted (files removed, or a real Ctrl-C) and resumed
//! computing only the missing points, and the merged table equal to an
//! uninterrupted run's, whichever task split made it.

use routelab::campaign::Campaign;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn routelab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::support::routelab_bin())
        .args(args)
        .env("ROUTELAB_PROGRESS_INTERVAL_MS", "200")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("routelab-campaign-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// 2 routings x 3 loads x 3 seeds on a 4x4 torus, short runs: 18 points.
const SMALL: &str = r#"{"name": "small", "base": {"topology": "torus:4x4", "vcs": 8},
  "set": {"cycles": 1500, "warmup": 300},
  "axes": {"routing": ["dor", "val"], "load": "0.1:0.3:0.1", "seed": [1, 2, 3]}}"#;

fn results(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("points"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn the_issue_s_form_expands_to_exact_loads_and_stable_ids() {
    let text = r#"{"base": "assets/scenarios/torus-dor-uniform.json", "set": {"cycles": 20000, "warmup": 2000},
       "axes": {"routing": ["dor:tie=plus", "dor:tie=random"], "load": "0.1:0.3:0.1", "seed": [1, 2]}}"#;
    let c = Campaign::from_json(text, None, &Default::default()).unwrap();
    assert_eq!(c.points.len(), 12);
    let mut loads: Vec<f64> = c.points.iter().map(|p| p.scenario.load).collect();
    loads.sort_by(f64::total_cmp);
    loads.dedup();
    assert_eq!(loads, vec![0.1, 0.2, 0.3]);
    assert!(c.points.iter().all(|p| p.scenario.cycles == 20000));
    // The same points written in another order have the same ids.
    let other = r#"{"axes": {"seed": [2, 1], "load": [0.3, 0.2, 0.1], "routing": ["dor:tie=random", "dor:tie=plus"]},
       "set": {"warmup": 2000, "cycles": 20000}, "base": "assets/scenarios/torus-dor-uniform.json"}"#;
    let d = Campaign::from_json(other, None, &Default::default()).unwrap();
    let mut a: Vec<&str> = c.points.iter().map(|p| p.id.as_str()).collect();
    let mut b: Vec<&str> = d.points.iter().map(|p| p.id.as_str()).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // Exclusions take points out.
    let ex = r#"{"base": "assets/scenarios/torus-dor-uniform.json",
       "axes": {"routing": ["dor:tie=plus", "dor:tie=random"], "load": "0.1:0.3:0.1", "seed": [1, 2]},
       "exclude": [{"routing": "dor:tie=random", "load": 0.3}]}"#;
    let e = Campaign::from_json(ex, None, &Default::default()).unwrap();
    assert_eq!(e.points.len(), 10);
}

#[test]
fn bad_campaigns_exit_2_before_any_point_runs() {
    let dir = scratch("bad");
    let cases = [
        (
            r#"{"axes": {"rooting": ["dor"], "load": [0.1]}}"#,
            &[
                "unknown axis `rooting`",
                "accepted: any scenario field",
                "routing",
            ][..],
        ),
        (
            r#"{"axes": {"routing": ["dor", "zigzag"]}}"#,
            &[
                "axis `routing` value \"zigzag\"",
                "unknown routing",
                "accepted",
            ][..],
        ),
        (
            r#"{"axes": {"load": [0.2, 1.5]}}"#,
            &["axis `load` value 1.5", "accepted 0..=1"][..],
        ),
        (
            r#"{"axes": {"load": "0:1:0.001", "seed": "1:1000:1"}}"#,
            &["1001000 points", "at most 100000"][..],
        ),
        (
            r#"{"axes": {"load": "0.5:0.1:0.1"}}"#,
            &["axis `load`", "FROM:TO:STEP"][..],
        ),
        (
            r#"{"base": "no/such/file.json"}"#,
            &["field `base`", "no scenario file"][..],
        ),
        (
            r#"{"axes": {"routing": ["rlb"]}, "set": {"vcs": 2}}"#,
            &["needs at least 8 virtual channels"][..],
        ),
        (r#"{"axes": [1, 2]}"#, &["field `axes`", "accepted"][..]),
        (r#"[1, 2]"#, &["a campaign is a JSON object"][..]),
    ];
    for (i, (text, needles)) in cases.iter().enumerate() {
        let file = write(&dir, &format!("bad{i}.json"), text);
        let out = dir.join(format!("out{i}"));
        let (code, _, err) = routelab(&["campaign", "run", &file, "--out", out.to_str().unwrap()]);
        assert_eq!(code, 2, "{text}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{text}: `{n}` not in {err}");
        }
        assert!(!out.exists(), "{text}: the output directory was made");
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_run_computes_only_the_missing_points_and_merges_the_same() {
    let dir = scratch("resume");
    let file = write(&dir, "small.json", SMALL);
    let whole = dir.join("whole");
    let (code, _, err) = routelab(&["campaign", "run", &file, "--out", whole.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("18 computed now, 0 found done"), "{err}");
    assert_eq!(results(&whole).len(), 18);
    let (code, table, err) = routelab(&["campaign", "merge", whole.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // 2 routings x 3 loads, 3 seeds each.
    assert_eq!(table.lines().count(), 7, "{table}");
    assert!(table.lines().all(|l| !l.contains("elapsed")));
    let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
    assert_eq!(
        &header[..5],
        &["routing", "load", "seeds", "failed", "saturated"]
    );
    assert!(header.contains(&"accepted_ci95"));
    assert!(header.contains(&"curve_saturation_throughput"));

    // Interrupted: two of three tasks ran, then one result was lost and a
    // killed writer left a temporary file.
    let part = dir.join("part");
    for task in ["0", "2"] {
        let (code, _, err) = routelab(&[
            "campaign",
            "run",
            &file,
            "--out",
            part.to_str().unwrap(),
            "--task",
            task,
            "--tasks",
            "3",
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let have = results(&part);
    assert_eq!(have.len(), 12);
    std::fs::remove_file(part.join("points").join(&have[0])).unwrap();
    std::fs::write(
        part.join("points").join(".deadbeef.json.1.tmp"),
        "{\"id\": ",
    )
    .unwrap();
    let (code, partial, err) = routelab(&["campaign", "merge", part.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("11 of 18 points have results"), "{err}");
    assert_ne!(partial, table);
    let (code, _, err) = routelab(&["campaign", "run", &file, "--out", part.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("7 computed now, 11 found done"), "{err}");
    let (code, resumed, err) = routelab(&["campaign", "merge", part.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(resumed, table, "a resumed run merges differently");
    // Same point files, result for result (timing apart).
    for name in results(&whole) {
        let strip = |d: &Path| {
            let mut v: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(d.join("points").join(&name)).unwrap(),
            )
            .unwrap();
            let r = v["result"].as_object_mut().unwrap();
            r.remove("elapsed_ms");
            r.remove("cycles_per_second");
            v
        };
        assert_eq!(strip(&whole), strip(&part), "{name}");
    }
    // JSON too.
    let (code, json, _) = routelab(&["campaign", "merge", whole.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0]["seeds"], 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_cleanly_and_the_rerun_finishes_the_same_table() {
    let dir = scratch("sigint");
    // Longer points so that Ctrl-C lands while some run.
    let text = r#"{"base": {"topology": "torus:8x8", "vcs": 8},
      "set": {"cycles": 20000, "warmup": 1000},
      "axes": {"routing": ["dor", "val"], "load": [0.1, 0.2, 0.3], "seed": [1, 2, 3, 4]}}"#;
    let file = write(&dir, "long.json", text);
    let out = dir.join("out");
    let child = Command::new(crate::support::routelab_bin())
        .args(["campaign", "run", &file, "--out", out.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first results, then interrupt.
    let t0 = std::time::Instant::now();
    while (!out.join("points").exists() || results(&out).len() < 2) && t0.elapsed().as_secs() < 120
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out_child = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out_child.stderr);
    let done = results(&out);
    if done.len() < 24 {
        assert_eq!(out_child.status.code(), Some(130), "{err}");
        assert!(err.contains("stopped on request"), "{err}");
        assert!(err.contains("the same command computes the"), "{err}");
    }
    assert!(done.iter().all(|n| !n.starts_with('.')), "{done:?}");
    let (code, _, err) = routelab(&["campaign", "run", &file, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "{} computed now, {} found done",
            24 - done.len(),
            done.len()
        )),
        "{err}"
    );
    let whole = dir.join("whole");
    let (code, _, err) = routelab(&["campaign", "run", &file, "--out", whole.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let a = routelab(&["campaign", "merge", out.to_str().unwrap()]).1;
    let b = routelab(&["campaign", "merge", whole.to_str().unwrap()]).1;
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unwritable_outputs_are_refused_before_anything_is_created() {
    let dir = scratch("slurm-script");
    let file = write(&dir, "small.json", SMALL);
    let out = dir.join("out");
    let script = dir.join("no-such-dir").join("job.sbatch");
    let (code, _, err) = routelab(&[
        "campaign",
        "slurm",
        &file,
        "--out",
        out.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--script") && err.contains("does not exist"),
        "{err}"
    );
    assert!(
        !out.exists(),
        "the refused invocation created {}",
        out.display()
    );
    // An output directory that names a file: refused by its flag, the file
    // left as it was.
    let file_out = write(&dir, "not-a-dir", "keep");
    for args in [
        vec!["campaign", "run", &file, "--out", &file_out],
        vec!["campaign", "slurm", &file, "--out", &file_out],
        vec![
            "campaign",
            "plot",
            &dir.display().to_string(),
            "--out",
            &file_out,
        ],
    ] {
        let (code, _, err) = routelab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("--out") && err.contains("is a file"),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&file_out).unwrap(), "keep");
    }
    // `campaign merge`: its table's file is checked before the results are
    // read (here there are none, so a later check would say so instead),
    // and a campaign directory that is missing or a file says which.
    let table = dir.join("no-such-dir").join("table.csv");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = routelab(&[
        "campaign",
        "merge",
        empty.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--out") && err.contains("does not exist") && !err.contains("points"),
        "{err}"
    );
    let missing = dir.join("no-campaign");
    for (d, what) in [
        (missing.to_str().unwrap(), "does not exist"),
        (file_out.as_str(), "is not a directory"),
    ] {
        let (code, _, err) = routelab(&["campaign", "merge", d]);
        assert_eq!(code, 2, "{d}: {err}");
        assert!(
            err.contains(what) && err.contains("accepted: a directory written by"),
            "{d}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slurm_writes_a_job_array_and_plot_draws_svg_and_png() {
    let dir = scratch("slurm-plot");
    let file = write(&dir, "small.json", SMALL);
    let out = dir.join("out");
    let (code, stdout, err) = routelab(&[
        "campaign",
        "slurm",
        &file,
        "--out",
        out.to_str().unwrap(),
        "--tasks",
        "3",
        "--partition",
        "short",
        "--time",
        "00:10:00",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("sbatch "), "{stdout}");
    let script = std::fs::read_to_string(out.join("campaign.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-2"), "{script}");
    assert!(
        script.contains("--task \"$SLURM_ARRAY_TASK_ID\" --tasks 3"),
        "{script}"
    );
    let (code, _, err) = routelab(&["campaign", "run", &file, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, stdout, err) = routelab(&[
        "campaign",
        "plot",
        out.to_str().unwrap(),
        "--by",
        "traffic,routing",
    ]);
    assert_eq!(code, 0, "{err}");
    for f in [
        "latency.svg",
        "latency.png",
        "throughput.svg",
        "throughput.png",
    ] {
        let p = out.join("plots").join(f);
        assert!(stdout.contains(f), "{stdout}");
        let bytes = std::fs::read(&p).unwrap();
        assert!(bytes.len() > 5000, "{f} is {} bytes", bytes.len());
    }
    let svg = std::fs::read_to_string(out.join("plots").join("latency.svg")).unwrap();
    assert!(svg.contains("Offered load (flits/host/cycle)"));
    assert!(svg.contains("Average latency (cycles)"));
    assert!(
        svg.lines().any(|l| l.trim() == "val"),
        "no legend entry for val"
    );
    let (code, _, err) = routelab(&[
        "campaign",
        "plot",
        out.to_str().unwrap(),
        "--by",
        "colour,routing",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a scenario field"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
