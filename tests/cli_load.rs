//! `routelab load`, run as a user would.

use crate::support;
use support::routelab;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = routelab(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn tornado_on_the_ring_reproduces_the_thesis() {
    for (routing, want) in [
        ("rdor", "1/3"),
        ("dor", "1/3"),
        ("val", "1/2"),
        ("rlb", "8/15"),
    ] {
        let v = json(&[
            "load",
            "--topology",
            "torus:8",
            "--routing",
            routing,
            "--traffic",
            "tornado",
            "--json",
        ]);
        assert_eq!(v["ideal_throughput"]["exact"], want, "{routing}");
        assert_eq!(v["capacity"]["exact"], "1");
        assert_eq!(v["kind"], "ideal (analytic)");
    }
    let (code, out, _) = routelab(&[
        "load",
        "--topology",
        "torus:8",
        "--routing",
        "rlb",
        "--traffic",
        "tornado",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("IDEAL (ANALYTIC) throughput  0.5333 (8/15) of capacity"),
        "{out}"
    );
    assert!(
        out.contains("max channel load             1.8750 (15/8)"),
        "{out}"
    );
    assert!(out.contains("avg hops"), "{out}");
}

#[test]
fn outputs_say_which_uniform_and_which_tie_rule() {
    let v = json(&["load", "--routing", "dor", "--traffic", "uniform", "--json"]);
    assert_eq!(v["routing"], "dor:tie=plus");
    assert_eq!(v["ideal_throughput"]["exact"], "4/5");
    assert!(v["uniform"].as_str().unwrap().contains("including s=d"));
    let v = json(&[
        "load",
        "--routing",
        "rdor",
        "--traffic",
        "uniform-other",
        "--json",
    ]);
    assert_eq!(v["ideal_throughput"]["exact"], "63/64");
    assert!(v["uniform"].as_str().unwrap().contains("simulator"));
}

#[test]
fn worst_case_prints_its_permutation() {
    let v = json(&[
        "load",
        "--topology",
        "torus:8",
        "--routing",
        "rlb",
        "--traffic",
        "worst",
        "--json",
    ]);
    assert_eq!(v["ideal_throughput"]["exact"], "1/2");
    let mut p: Vec<u64> = v["permutation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    p.sort_unstable();
    assert_eq!(p, (0..8).collect::<Vec<u64>>());
    let (code, out, _) = routelab(&[
        "load",
        "--topology",
        "torus:4x4",
        "--routing",
        "dor",
        "--traffic",
        "worst",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("worst-case permutation"), "{out}");
    assert!(out.contains("->"), "{out}");
}

#[test]
fn average_reports_its_samples_and_spread() {
    let v = json(&[
        "load",
        "--topology",
        "torus:4x4",
        "--routing",
        "rlb",
        "--traffic",
        "average",
        "--samples",
        "50",
        "--seed",
        "2",
        "--json",
    ]);
    let a = &v["average"];
    assert_eq!(a["samples"], 50);
    assert_eq!(a["seed"], 2);
    let mean = a["mean"].as_f64().unwrap();
    assert!(
        a["min"]["value"].as_f64().unwrap() <= mean && mean <= 1.0,
        "{a}"
    );
    assert!(a["std_error"].as_f64().unwrap() > 0.0);
}

#[test]
fn compare_prints_one_labelled_table() {
    let (code, out, err) = routelab(&[
        "load",
        "--topology",
        "torus:8",
        "--compare",
        "--samples",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "IDEAL (ANALYTIC) throughput, fraction of capacity",
        "λ=1/N including s=d",
        "tie rule plus",
        "worst",
        "avg",
        "dor:tie=plus",
        "rdor",
        "val",
        "romm:order=xy",
        "rlb",
        "rlbth",
        "transpose: needs an even power of two",
    ] {
        assert!(out.contains(needle), "missing {needle}:\n{out}");
    }
    let v = json(&[
        "load",
        "--topology",
        "torus:8",
        "--compare",
        "--samples",
        "100",
        "--json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let columns: Vec<&str> = v["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let tornado = columns.iter().position(|&c| c == "tornado").unwrap();
    let rlb = rows.iter().find(|r| r["routing"] == "rlb").unwrap();
    assert_eq!(rlb["traffic"][tornado]["exact"], "8/15");
    assert_eq!(rlb["worst"]["exact"], "1/2");
    let val = rows.iter().find(|r| r["routing"] == "val").unwrap();
    assert_eq!(val["average"]["mean"], 0.5);
}

#[test]
fn compare_on_a_mesh_marks_rlb_undefined() {
    let (code, out, _) = routelab(&[
        "load",
        "--topology",
        "mesh:4x4",
        "--compare",
        "--samples",
        "20",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("rlb            n/a"), "{out}");
}

/// `--channels` has `sim --channels`'s columns and rows, and utilization in
/// the simulator's unit: L·γ_c flits per cycle.
#[test]
fn channels_csv_matches_the_simulators_columns() {
    let dir = std::env::temp_dir().join(format!("routelab-cli-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ana, sim) = (dir.join("load.csv"), dir.join("sim.csv"));
    let (code, _, err) = routelab(&[
        "load",
        "--topology",
        "torus:8",
        "--routing",
        "rdor",
        "--traffic",
        "tornado",
        "--load",
        "0.25",
        "--channels",
        ana.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "torus:8",
        "--traffic",
        "tornado",
        "--load",
        "0.25",
        "--cycles",
        "500",
        "--warmup",
        "100",
        "--channels",
        sim.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let read = |p: &std::path::Path| -> Vec<Vec<String>> {
        let mut r = csv::Reader::from_path(p).unwrap();
        let mut rows = vec![r.headers().unwrap().iter().map(String::from).collect()];
        for rec in r.records() {
            rows.push(rec.unwrap().iter().map(String::from).collect());
        }
        rows
    };
    let (a, s) = (read(&ana), read(&sim));
    assert_eq!(a[0], s[0], "headers differ");
    assert_eq!(a.len(), s.len());
    for (x, y) in a.iter().zip(&s).skip(1) {
        assert_eq!(x[..5], y[..5], "channel columns differ");
        assert_eq!(x[6], "", "the analysis has no queueing delay");
    }
    // Tornado on the 8-ring: 3 flows of 0.25 on every + channel, none on -,
    // 0.25 on every injection and ejection channel.
    for row in &a[1..] {
        let u: f64 = row[5].parse().unwrap();
        let want = match (row[2].as_str(), row[3].ends_with(".p0")) {
            ("network", true) => 0.75,
            ("network", false) => 0.0,
            _ => 0.25,
        };
        assert!((u - want).abs() < 1e-9, "{row:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_naming_the_problem_and_the_accepted_values() {
    for (args, needles) in [
        (
            vec!["load", "--topology", "hypercube:4", "--compare"],
            vec!["k-ary n-cubes", "accepted", "torus:"],
        ),
        (
            vec!["load", "--routing", "foo", "--traffic", "uniform"],
            vec!["unknown routing `foo`", "rlbth"],
        ),
        (
            vec!["load", "--routing", "dor:tie=left", "--traffic", "uniform"],
            vec!["plus, random, parity"],
        ),
        (
            vec!["load", "--routing", "rlb", "--traffic", "zipf"],
            vec!["unknown pattern", "uniform-other", "worst"],
        ),
        (
            vec![
                "load",
                "--topology",
                "mesh:4x4",
                "--routing",
                "rlb",
                "--traffic",
                "nn",
            ],
            vec!["not defined", "torus"],
        ),
        (
            vec!["load", "--topology", "torus:64x64", "--compare"],
            vec!["too large", "1024"],
        ),
        (
            vec![
                "load",
                "--topology",
                "mesh:24x24",
                "--routing",
                "dor",
                "--traffic",
                "worst",
            ],
            vec!["too large", "meshes"],
        ),
        (
            vec!["load", "--topology", "torus:8x8:hosts=2", "--compare"],
            vec!["hosts per switch", "accepted"],
        ),
        (
            vec!["load", "--routing", "rlb"],
            vec!["--traffic is needed", "worst"],
        ),
        (
            vec!["load", "--traffic", "nn"],
            vec!["--routing is needed", "rdor"],
        ),
        (
            vec![
                "load",
                "--routing",
                "rlb",
                "--traffic",
                "uniform",
                "--load",
                "-1",
            ],
            vec!["--load", "accepted"],
        ),
        (
            vec![
                "load",
                "--topology",
                "torus:6",
                "--routing",
                "rlb",
                "--traffic",
                "bitcomp",
            ],
            vec!["power-of-two", "accepted"],
        ),
        (
            vec![
                "load",
                "--routing",
                "rlb",
                "--traffic",
                "average",
                "--channels",
                "x.csv",
            ],
            vec!["--channels needs one traffic matrix"],
        ),
        (
            vec!["load", "--compare", "--samples", "0"],
            vec!["--samples"],
        ),
        (
            vec!["load", "--topology", "torus:2x2", "--compare"],
            vec!["at least 3"],
        ),
    ] {
        let (code, _, err) = routelab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: missing {n} in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Below saturation the simulator's measured utilization of every network
/// channel is the analysis's L·γ_c (same unit): torus:4x4, DOR (tie plus,
/// the simulator's `minimal`), the simulator's uniform at L = 0.3, within
/// sampling noise. (The simulator counts flits leaving switches, so its
/// injection channels read 0; only network channels are compared.)
#[test]
fn the_analysis_predicts_the_simulators_channel_utilization() {
    let dir = std::env::temp_dir().join(format!("routelab-cli-load-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ana, sim) = (dir.join("load.csv"), dir.join("sim.csv"));
    let common = ["--topology", "torus:4x4", "--load", "0.3"];
    let (code, _, err) = routelab(
        &[
            &["load", "--routing", "dor", "--traffic", "uniform-other"][..],
            &common,
            &["--channels", ana.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = routelab(
        &[
            &[
                "sim",
                "--routing",
                "dor",
                "--traffic",
                "uniform",
                "--cycles",
                "5000",
            ][..],
            &common,
            &["--warmup", "500", "--channels", sim.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    let util = |p: &std::path::Path| -> Vec<(String, f64)> {
        csv::Reader::from_path(p)
            .unwrap()
            .records()
            .map(|r| r.unwrap())
            .filter(|r| &r[2] == "network")
            .map(|r| (r[1].to_string(), r[5].parse().unwrap()))
            .collect()
    };
    let (a, s) = (util(&ana), util(&sim));
    assert_eq!(a.len(), 64);
    for ((name, x), (_, y)) in a.iter().zip(&s) {
        assert!((x - y).abs() < 0.04, "{name}: analysis {x} simulation {y}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
