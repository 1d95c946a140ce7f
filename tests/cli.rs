//! The command line, run as a user would.

use crate::support;
use std::process::Command;
use support::routelab;

#[test]
fn sim_json_has_the_documented_fields() {
    let (code, out, err) = routelab(&[
        "sim",
        "--topology",
        "torus:4x4",
        "--load",
        "0.2",
        "--cycles",
        "2000",
        "--warmup",
        "200",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for f in [
        "offered",
        "accepted",
        "accepted_fraction",
        "avg_latency",
        "p99_latency",
        "max_latency",
        "injected_packets",
        "delivered_packets",
        "in_flight_packets",
        "cycles",
        "elapsed_ms",
    ] {
        assert!(v.get(f).is_some(), "missing {f} in {out}");
    }
    assert_eq!(v["cycles"], 2200);
    assert_eq!(v["offered"], 0.2);
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_problem() {
    for (args, needle) in [
        (vec!["sim", "--topology", "torus:2x2"], "at least 3"),
        (vec!["sim", "--vcs", "1"], "2 virtual channels"),
        (vec!["sim", "--load", "1.5"], "load"),
        (
            vec!["sim", "--traffic", "bitrev", "--topology", "torus:3x3"],
            "power-of-two",
        ),
        (vec!["sim", "--switching", "cut"], "saf, vct, wormhole"),
        (vec!["sim", "--scenario", "/no/such.json"], "cannot read"),
        (vec!["sweep", "--loads", "0.5:0.1:0.1"], "--loads"),
        (vec!["topo", "--topology", "fattree:3"], "even"),
    ] {
        let (code, _, err) = routelab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn scenario_files_report_every_bad_field() {
    let dir = std::env::temp_dir().join(format!("routelab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.json");
    std::fs::write(
        &f,
        r#"{"topology": "torus:8x8", "vcs": -1, "switching": "teleport", "port_priority": "fair"}"#,
    )
    .unwrap();
    let (code, _, err) = routelab(&["sim", "--scenario", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`vcs`")
            && err.contains("`switching`")
            && err.contains("`port_priority`")
            && err.contains("\"rotating\" or \"random\""),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn sweep_finds_saturation_and_writes_csv() {
    let dir = std::env::temp_dir().join(format!("routelab-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("s.csv");
    let (code, out, err) = routelab(&[
        "sweep",
        "--topology",
        "torus:4x4",
        "--packet-flits",
        "1",
        "--loads",
        "0.2:1.0:0.2",
        "--cycles",
        "3000",
        "--warmup",
        "500",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let points = v["points"].as_array().unwrap();
    assert!(!points.is_empty());
    let sat = v["saturation_throughput"].as_f64().unwrap();
    assert!(sat > 0.2 && sat <= 1.0, "{sat}");
    // torus:4x4 capacity is 8/4 = 2 per node, capped at 1 by the host link.
    assert_eq!(points[0]["capacity"], 1.0);
    assert!(points[0]["accepted"].as_f64().unwrap() > 0.19);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), points.len() + 1);
    assert!(text.starts_with("offered,"));
}

#[test]
fn topo_json_and_channel_csv() {
    let (code, out, _) = routelab(&["topo", "--topology", "torus:8x8", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["switches"], 64);
    assert_eq!(v["hosts"], 64);
    assert_eq!(v["diameter"], 8);
    assert_eq!(v["capacity"], 1.0);
    assert_eq!(v["channels"].as_array().unwrap().len(), 256 + 128);
    let dir = std::env::temp_dir().join(format!("routelab-ch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("ch.csv");
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "mesh:3x3",
        "--cycles",
        "1000",
        "--channels",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.starts_with("channel,name,kind,src,dst,utilization,queueing_delay"));
    assert_eq!(text.lines().count(), 1 + 24 + 18);
}

/// A reader that goes away (`routelab sim --json | head -c 0`) ends the
/// command quietly: exit 0, no panic message.
#[test]
fn closed_stdout_is_not_a_panic() {
    use std::process::Stdio;
    for cmd in [
        &[
            "sim",
            "--topology",
            "torus:8x8",
            "--cycles",
            "3000",
            "--json",
        ][..],
        &["topo", "--topology", "torus:8x8"][..],
    ] {
        let mut child = Command::new(crate::support::routelab_bin())
            .args(cmd)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the command writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{cmd:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{cmd:?}: {err}");
    }
}

#[test]
fn an_empty_stray_argument_is_named_with_what_it_follows() {
    let out = std::process::Command::new(crate::support::routelab_bin())
        .args(["sweep", "--wait-for-tail-credit", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("argument 3 is empty") && err.contains("'--wait-for-tail-credit'"),
        "{err}"
    );
}

/// The environment's measuring knobs (`src/env_knobs.rs`) refuse what they
/// do not accept, by name and with the accepted values, before anything
/// runs; unset or empty, they take their defaults.
#[test]
fn mistyped_measuring_knobs_are_refused_by_name() {
    let run = |var: &str, value: &str| {
        let out = Command::new(support::routelab_bin())
            .args([
                "sim",
                "--topology",
                "torus:4x4",
                "--cycles",
                "50",
                "--warmup",
                "10",
            ])
            .env(var, value)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for (var, value, accepted) in [
        ("ROUTELAB_PREFETCH", "2", "1 (always prefetch) or 0 (never)"),
        (
            "ROUTELAB_PREFETCH",
            "yes",
            "1 (always prefetch) or 0 (never)",
        ),
        ("ROUTELAB_ARRIVAL_BLOCK", "3", "a power of two"),
        ("ROUTELAB_ARRIVAL_BLOCK", "-4", "a power of two"),
        (
            "ROUTELAB_PROGRESS_INTERVAL_MS",
            "0",
            "whole number of milliseconds",
        ),
        (
            "ROUTELAB_PROGRESS_INTERVAL_MS",
            "1s",
            "whole number of milliseconds",
        ),
    ] {
        let (code, err) = run(var, value);
        assert_eq!(code, Some(2), "{var}={value}: {err}");
        assert!(
            err.contains(&format!("{var}=\"{value}\"")) && err.contains(accepted),
            "{var}={value}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    for (var, value) in [
        ("ROUTELAB_PREFETCH", ""),
        ("ROUTELAB_PREFETCH", "1"),
        ("ROUTELAB_ARRIVAL_BLOCK", "4"),
        ("ROUTELAB_ARRIVAL_BLOCK", "0"),
        ("ROUTELAB_PROGRESS_INTERVAL_MS", "500"),
    ] {
        let (code, err) = run(var, value);
        assert_eq!(code, Some(0), "{var}={value}: {err}");
    }
}

/// Prefetching (large networks, `sim/prefetch.rs`) changes no result: the
/// digest of a run is the same with it forced on and forced off
/// (`ROUTELAB_PREFETCH`), on the deterministic wormhole router's own
/// allocation and on the general one (adaptive selection, acknowledgement
/// packets, age-based arbitration, virtual cut-through, long packets).
#[test]
fn prefetching_changes_no_result() {
    let cases: &[&[&str]] = &[
        &[
            "--topology",
            "torus:6x6",
            "--routing",
            "dor",
            "--load",
            "0.5",
        ],
        &[
            "--topology",
            "torus:6x6",
            "--routing",
            "dor:tie=random",
            "--load",
            "0.3",
            "--packet-flits",
            "4",
            "--switching",
            "vct",
            "--port-priority",
            "oldest",
        ],
        &[
            "--topology",
            "mesh:5x5",
            "--routing",
            "drb:ack=packet",
            "--vcs",
            "4",
            "--load",
            "0.3",
        ],
        &[
            "--topology",
            "torus:4x4",
            "--routing",
            "adaptive",
            "--vcs",
            "3",
            "--selection",
            "adaptive",
            "--wait-for-tail-credit",
            "--load",
            "0.6",
        ],
    ];
    for case in cases {
        let digest = |on: &str| {
            let out = Command::new(support::routelab_bin())
                .args([
                    "sim", "--cycles", "1500", "--warmup", "300", "--seed", "3", "--digest",
                ])
                .args(*case)
                .env("ROUTELAB_PREFETCH", on)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(
                out.status.success(),
                "{case:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            stdout
        };
        let (on, off) = (digest("1"), digest("0"));
        assert!(on.contains("\"digest\""), "{case:?}: {on}");
        assert_eq!(on, off, "{case:?}");
    }
}

/// An invocation one of whose output files cannot be written is refused
/// before anything runs, and writes none of its files: found by
/// `fuzz_cli` (seed 20261129), where `sim --occupancy X --channels Y` on
/// the input-queued model ran, wrote Y, and only then refused `--occupancy`.
#[test]
fn unwritable_outputs_are_refused_before_the_run_and_write_nothing() {
    let dir = std::env::temp_dir().join(format!("routelab-cli-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let channels = dir.join("channels.csv");
    let occupancy = dir.join("occupancy.csv");
    let missing = dir.join("no-such-dir").join("x.csv");
    let s = |p: &std::path::Path| p.display().to_string();
    // Long enough that a run before the refusal would be felt.
    let long = ["--cycles", "100000", "--warmup", "0"];
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            [
                "sim",
                "--occupancy",
                &s(&occupancy),
                "--channels",
                &s(&channels),
            ]
            .iter()
            .chain(&long)
            .map(|x| x.to_string())
            .collect(),
            "--occupancy needs switch_model = timeslice",
        ),
        (
            [
                "sim",
                "--channels",
                &s(&channels),
                "--surface",
                &s(&missing),
            ]
            .iter()
            .chain(&long)
            .map(|x| x.to_string())
            .collect(),
            "--surface",
        ),
        (
            ["sim", "--channels", &s(&dir)]
                .iter()
                .chain(&long)
                .map(|x| x.to_string())
                .collect(),
            "is a directory",
        ),
        (
            ["sweep", "--loads", "0.1,0.2", "--csv", &s(&missing)]
                .iter()
                .chain(&long)
                .map(|x| x.to_string())
                .collect(),
            "--csv",
        ),
        (
            [
                "load",
                "--topology",
                "torus:8x8",
                "--routing",
                "dor",
                "--channels",
                &s(&missing),
            ]
            .iter()
            .map(|x| x.to_string())
            .collect(),
            "--channels",
        ),
        (
            [
                "paths",
                "--topology",
                "irregular:16:seed=3",
                "--select",
                "sa",
                "--tables",
                &s(&missing),
            ]
            .iter()
            .map(|x| x.to_string())
            .collect(),
            "--tables",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = routelab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("wrote"), "{args:?} wrote a file: {err}");
        assert!(!channels.exists(), "{args:?} wrote {}", channels.display());
        assert!(
            !occupancy.exists(),
            "{args:?} wrote {}",
            occupancy.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
