//! The time-slice model from the command line, run as a user would: the
//! preset's readable summary (success rate, average and maximum latency in
//! slices), its JSON fields, several balancers on the same requests
//! (repeated `--routing`, `--compare` for the fat-tree family), the
//! occupancy CSV, and combinations that make no sense refused with exit
//! code 2.

use crate::support;
use support::routelab;

const PRESET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/scenarios/fattree-greedy.json"
);

/// The preset, shortened (the bars themselves: tests/fattree_preset.rs).
fn preset(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "sim",
        "--scenario",
        PRESET,
        "--warmup",
        "100",
        "--cycles",
        "400",
    ]
    .map(String::from)
    .to_vec();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run(args: &[String]) -> (i32, String, String) {
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    routelab(&a)
}

#[test]
fn the_preset_prints_success_rate_and_latencies_in_slices() {
    let (code, out, err) = run(&preset(&[]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("switch model timeslice"), "{out}");
    let success = out
        .lines()
        .find(|l| l.starts_with("success"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(success.contains("% of"), "{success}");
    let latency = out
        .lines()
        .find(|l| l.starts_with("latency"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        latency.contains("avg") && latency.contains("max") && latency.contains("slices"),
        "{latency}"
    );
}

#[test]
fn json_adds_success_rate_refusals_and_the_unit() {
    let (code, out, err) = run(&preset(&["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["latency_unit"], "slices");
    let rate = v["success_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&rate), "{rate}");
    assert!(v["refused_transmissions"].as_u64().is_some(), "{v}");
    // sim's own fields are still there.
    for f in [
        "delivered_packets",
        "injected_packets",
        "avg_latency",
        "max_latency",
    ] {
        assert!(v.get(f).is_some(), "{f} missing: {v}");
    }
    assert!(v["delivered_packets"].as_u64().unwrap() > 0);
    // A cycle-level run keeps its output as it was: no time-slice fields.
    let (code, out, err) = routelab(&[
        "sim",
        "--topology",
        "torus:4x4",
        "--routing",
        "dor",
        "--cycles",
        "300",
        "--warmup",
        "100",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("success_rate").is_none(), "{v}");
    assert!(v.get("refused_transmissions").is_none(), "{v}");
}

#[test]
fn repeated_routing_runs_balancers_on_the_same_requests() {
    let (code, out, err) = run(&preset(&[
        "--routing",
        "fattree-greedy:step=1",
        "--routing",
        "fattree-greedy:step=7",
        "--routing",
        "fattree-drill",
        "--json",
    ]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = v["runs"].as_array().unwrap();
    let names: Vec<&str> = runs
        .iter()
        .map(|r| r["routing"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "fattree-greedy:step=1",
            "fattree-greedy:step=7",
            "fattree-drill"
        ]
    );
    let generated: Vec<f64> = runs
        .iter()
        .map(|r| r["generated"].as_f64().unwrap())
        .collect();
    assert!(generated.windows(2).all(|w| w[0] == w[1]), "{generated:?}");
    // Side by side in the readable form, one row each.
    let (code, out, err) = run(&preset(&[
        "--routing",
        "fattree-greedy:step=1",
        "--routing",
        "fattree-greedy:step=7",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("success%"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("fattree-greedy:step="))
            .count(),
        2,
        "{out}"
    );
}

#[test]
fn compare_runs_the_seven_steps_and_the_baselines() {
    let (code, out, err) = run(&preset(&["--compare", "--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<String> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["routing"].as_str().unwrap().to_string())
        .collect();
    let mut want: Vec<String> = (1..=7)
        .map(|s| format!("fattree-greedy:step={s}"))
        .collect();
    want.extend(["fattree-ecmp", "dmodk", "fattree-drill"].map(String::from));
    assert_eq!(names, want);
}

#[test]
fn occupancy_csv_has_every_switch_per_window() {
    let path = std::env::temp_dir().join(format!("routelab-occ-{}.csv", std::process::id()));
    let p = path.to_string_lossy().into_owned();
    let (code, _, err) = run(&preset(&["--occupancy", &p]));
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("slice,switch,level,occupancy,buffer"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // 20 switches per window of 50 slices over 500 slices.
    assert_eq!(rows.len() % 20, 0, "{}", rows.len());
    assert!(rows.len() >= 20 * 9, "{}", rows.len());
    for r in &rows {
        let (occ, buf): (u32, u32) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert!(occ <= buf, "{r:?}");
    }
}

#[test]
fn combinations_that_make_no_sense_exit_with_code_2() {
    // A fat-tree balancer on input-queued switches.
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "fattree:4",
        "--routing",
        "fattree-greedy:step=7",
        "--cycles",
        "100",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("runs only on switch_model = timeslice"),
        "{err}"
    );
    // The time-slice model on a torus.
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "torus:4x4",
        "--routing",
        "dor",
        "--switch-model",
        "timeslice",
        "--cycles",
        "100",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs topology fattree:K"), "{err}");
    // An unknown step names the accepted ones.
    let (code, _, err) = run(&preset(&["--routing", "fattree-greedy:step=9"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("accepted 1..=7"), "{err}");
    // --occupancy on a cycle-level run.
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "torus:4x4",
        "--routing",
        "dor",
        "--cycles",
        "100",
        "--occupancy",
        "/dev/null",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--occupancy needs switch_model = timeslice"),
        "{err}"
    );
}

#[test]
fn cycle_level_runs_say_their_unit_too() {
    let out = std::process::Command::new(crate::support::routelab_bin())
        .args([
            "sim",
            "--topology",
            "torus:4x4",
            "--cycles",
            "200",
            "--warmup",
            "50",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["latency_unit"], "cycles");
}

/// `saturation` on the time-slice model searches in the model's own
/// units: its grid is a fraction of the model's capacity (the λ at which
/// ρ = 1, what `sim` reports as `capacity`), not of the channels' 1.0,
/// and it may go past a load of 1 request per server per slice.
#[test]
fn saturation_uses_the_time_slice_models_capacity() {
    let common = [
        "--topology",
        "fattree:4:hetero=paper:seed=1",
        "--switch-model",
        "timeslice",
        "--routing",
        "fattree-greedy:step=7",
        "--cycles",
        "200",
        "--warmup",
        "50",
        "--json",
    ];
    let (code, out, err) = routelab(&[&["sim"][..], &common[..]].concat());
    assert_eq!(code, 0, "{err}");
    let sim: serde_json::Value = serde_json::from_str(&out).unwrap();
    let capacity = sim["capacity"].as_f64().unwrap();
    assert!(capacity > 1.0, "the model's capacity: {capacity}");
    let (code, out, err) = routelab(
        &[
            &["saturation"][..],
            &common[..],
            &["--step", "0.5", "--seeds", "1"][..],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    let sat: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &sat["routings"][0];
    assert_eq!(r["capacity"].as_f64().unwrap(), capacity);
    let (fraction, load) = (r["fraction"].as_f64().unwrap(), r["load"].as_f64().unwrap());
    assert!((load - fraction * capacity).abs() < 1e-9, "{r}");
}
