//! DRB's threshold read on the router in use (issue 65): without `tau=`,
//! τ and the tolerance come from the knee of DRB's static routing under
//! uniform traffic on the scenario's network and router (`sim::knee`),
//! measured once and kept; `tau=` and `tolerance=` win; without a router
//! (or without a knee) DRB takes its constants; `sim --json` and the
//! readable summary say which.

use crate::support::routelab;
use routelab::routing::drb::{
    DEFAULT_TAU, DEFAULT_TOLERANCE, Drb, DrbSpec, Threshold, ThresholdSource,
};
use routelab::routing::{KneeLatency, KneeRequest, RoutingSpec, tolerance_of};
use routelab::scenario::Scenario;
use routelab::sim::knee::{self, KNEE_CYCLES, KneeJob, KneeSetup, PROBE_LENGTH, PROBES};
use routelab::sim::{Simulation, SwitchModelKind};
use routelab::topology::Network;
use routelab::traffic::Process;
use std::sync::Arc;

/// The default router (4-flit packets, 8-flit buffers, fixed selection)
/// on `topology` with `vcs` VCs, routed by `routing`.
fn default_router(topology: &str, routing: &str, vcs: u8) -> Scenario {
    Scenario {
        topology: topology.into(),
        routing: routing.into(),
        vcs,
        load: 0.1,
        warmup: 0,
        cycles: 100,
        ..Scenario::default()
    }
}

fn drb_of(sim: &Simulation) -> &Drb {
    sim.endpoints()
        .routings()
        .last()
        .and_then(|r| r.as_any())
        .and_then(|a| a.downcast_ref::<Drb>())
        .expect("a DRB run")
}

fn threshold(s: &Scenario) -> Threshold {
    drb_of(&s.build().unwrap()).spec().threshold()
}

/// The knee of DOR with ties to + (`drb:tie=plus`'s static routing) on
/// torus:8x8 with the default router at 8 VCs is the one docs/results.md
/// read from a sweep with `scripts/drb_knee.py --reading double`: knee
/// load 0.4275, τ = 0.927 (within 0.1). A second build of the scenario,
/// with another seed too, finds it kept: the same knee, nothing measured.
#[test]
fn the_knee_on_the_default_router_is_the_documented_one_and_is_kept() {
    let s = default_router("torus:8x8", "drb:tie=plus", 8);
    let built = s.prepare().unwrap();
    let net = built.network.clone();
    let request = KneeRequest {
        static_routing: "dor".into(),
        latency: KneeLatency::Network,
    };
    assert_eq!(
        "drb:tie=plus"
            .parse::<RoutingSpec>()
            .unwrap()
            .knee_request(&net),
        Some(request.clone())
    );
    let t = drb_of(&s.simulate(built).unwrap()).spec().threshold();
    let ThresholdSource::Knee(k) = &t.source else {
        panic!("{t:?}");
    };
    assert!((t.tau - 0.927).abs() <= 0.1, "{}", t.describe());
    assert_eq!(t.tolerance, tolerance_of(t.tau));
    let at = k.knee.unwrap();
    assert!((at.load - 0.4275).abs() <= 0.02, "{:?}", k);
    let low = k.low.unwrap();
    assert!((low.load - 0.02).abs() < 1e-12, "{low:?}");
    assert!((at.latency / low.latency - 2.0).abs() < 1e-9, "{k:?}");
    assert_eq!((k.probes, k.cycles), (PROBES, KNEE_CYCLES));
    // Kept: the same knee, for this seed and any other.
    let setup = s.knee_setup(&net);
    let kept = knee::cached(&setup, &request).expect("kept");
    assert!(Arc::ptr_eq(&kept, k));
    assert!(
        s.knee_job("drb:tie=plus").is_none(),
        "nothing left to measure"
    );
    for seed in [1, 7] {
        let again = threshold(&Scenario { seed, ..s.clone() });
        match again.source {
            ThresholdSource::Knee(k2) => assert!(Arc::ptr_eq(&k2, k), "seed {seed}"),
            other => panic!("{other:?}"),
        }
    }
    // Another router is another knee (8 VCs against 12).
    let other = Scenario { vcs: 12, ..s };
    assert!(other.knee_job("drb:tie=plus").is_some());
}

/// `tau=` wins (the tolerance then goes with it), `tolerance=` wins over
/// the knee's, and neither asks for a knee; the random limit reads none.
#[test]
fn explicit_tau_and_tolerance_win() {
    let net = Network::from_spec("torus:4x4").unwrap();
    for (spec, tau, tolerance) in [
        ("drb:tau=0.5", Some(0.5), tolerance_of(0.5)),
        ("drb:tau=0.5:tolerance=0.1", Some(0.5), 0.1),
        ("drb:tau=0.023:tolerance=0.011:tie=plus", Some(0.023), 0.011),
    ] {
        let parsed: RoutingSpec = spec.parse().unwrap();
        assert_eq!(parsed.knee_request(&net), None, "{spec}");
        assert_eq!(parsed.to_string(), spec, "its name keeps what it gives");
        let t = threshold(&default_router("torus:4x4", spec, 8));
        assert_eq!(t.source, ThresholdSource::Spec, "{spec}");
        assert_eq!((Some(t.tau), t.tolerance), (tau, tolerance), "{spec}");
    }
    // The tolerance alone: τ from the knee, the tolerance as given.
    let t = threshold(&default_router("torus:4x4", "drb:tolerance=0.1", 8));
    assert!(matches!(t.source, ThresholdSource::Knee(_)), "{t:?}");
    assert!(t.tolerance_given && t.tolerance == 0.1, "{t:?}");
    let knee_tau = threshold(&default_router("torus:4x4", "drb", 8)).tau;
    assert_eq!(t.tau, knee_tau);
    assert_ne!(knee_tau, DEFAULT_TAU);
    let random: RoutingSpec = "drb:limit=random".parse().unwrap();
    assert_eq!(random.knee_request(&net), None);
    let t = threshold(&default_router("torus:4x4", "drb:limit=random", 8));
    assert_eq!(t.source, ThresholdSource::Unused);
}

/// Built without a router (the analysis, the deadlock tests), DRB takes
/// its constants and says so; a knee looked for and not found (here: the
/// static routing cannot run on a one-VC torus) gives the constants too,
/// with the reason.
#[test]
fn without_a_router_or_a_knee_drb_takes_its_constants() {
    let net = Network::from_spec("torus:4x4").unwrap();
    let routing = "drb"
        .parse::<RoutingSpec>()
        .unwrap()
        .build(&net, 8)
        .unwrap();
    let d = routing.as_any().unwrap().downcast_ref::<Drb>().unwrap();
    let t = d.spec().threshold();
    assert_eq!(t.source, ThresholdSource::NoRouter);
    assert_eq!((t.tau, t.tolerance), (DEFAULT_TAU, DEFAULT_TOLERANCE));
    assert!(
        t.describe().contains("without a router"),
        "{}",
        t.describe()
    );

    let one_vc = Scenario {
        vcs: 1,
        ..default_router("torus:4x4", "dor", 1)
    };
    let setup = one_vc.knee_setup(&Arc::new(net));
    let request = KneeRequest {
        static_routing: "dor:tie=random".into(),
        latency: KneeLatency::Network,
    };
    let mut job = KneeJob::new(setup, request);
    let k = job.step(1000).expect("done at once: nothing to simulate");
    assert_eq!((k.probes, k.cycles), (0, 0));
    let why = k.not_found.clone().expect("no knee");
    assert!(why.contains("virtual channel"), "{why}");
    let spec: RoutingSpec = "drb".parse().unwrap();
    let applied = spec.with_knee(&k);
    assert_eq!(applied.to_string(), "drb", "the canonical spelling stays");
    let t = applied.downcast::<DrbSpec>().unwrap().threshold();
    assert!(matches!(t.source, ThresholdSource::NoKnee(_)), "{t:?}");
    assert_eq!((t.tau, t.tolerance), (DEFAULT_TAU, DEFAULT_TOLERANCE));
    assert!(t.describe().contains("no knee found"), "{}", t.describe());
}

/// A knee measured in steps of any size is the same knee (no step runs
/// more cycles than it is given), and a step size that divides nothing
/// evenly gives what whole probes give. With `latency=total` τ is 1 by
/// construction (the latency doubled at the knee).
#[test]
fn a_knee_measured_in_steps_is_the_same_whatever_the_steps() {
    let s = Scenario {
        process: Process::Exponential,
        ..default_router("torus:4x4", "drb", 8)
    };
    let net = Arc::new(Network::from_spec("torus:4x4").unwrap());
    let request = KneeRequest {
        static_routing: "dor:tie=random".into(),
        latency: KneeLatency::Network,
    };
    let measure = |chunk: u64| {
        let mut job = KneeJob::new(s.knee_setup(&net), request.clone());
        let mut last = job.progress();
        let mut probes = vec![last.probe];
        loop {
            let done = job.step(chunk);
            let p = job.progress();
            assert!(p.cycles - last.cycles <= chunk, "{p:?} after {last:?}");
            assert!(p.probe >= last.probe && p.probe <= PROBES);
            probes.push(p.probe);
            last = p;
            if let Some(k) = done {
                return (k, probes);
            }
        }
    };
    let (whole, _) = measure(PROBE_LENGTH);
    let (small, probes) = measure(777);
    assert_eq!(*whole, *small);
    assert!(whole.knee.is_some(), "{whole:?}");
    assert_eq!(whole.cycles, KNEE_CYCLES);
    assert_eq!(probes.last(), Some(&PROBES));
    assert!(probes.windows(2).all(|w| w[0] <= w[1]));
    assert!(whole.tau().unwrap() > 0.0);
    // The exponential process is another knee than Bernoulli's.
    let bernoulli = default_router("torus:4x4", "drb", 8);
    let setup_b = bernoulli.knee_setup(&net);
    let setup_e = s.knee_setup(&net);
    assert_ne!(
        knee::knee_for(&setup_b, &request).knee,
        knee::knee_for(&setup_e, &request).knee
    );
    // latency=total: τ = 1, the tolerance 0.25.
    let t = threshold(&default_router("torus:4x4", "drb:latency=total", 8));
    assert!(matches!(t.source, ThresholdSource::Knee(_)), "{t:?}");
    assert_eq!((t.tau, t.tolerance), (1.0, 0.25), "{}", t.describe());
}

/// The switch model is part of what the knee is read on: the ideal
/// output-queued switches have their own. A live swap to `drb` reads the
/// run's knee (kept after the first) and builds the same routing as a
/// scenario with `drb` from the start.
#[test]
fn a_live_swap_reads_the_runs_knee() {
    let s = default_router("torus:4x4", "dor:tie=random", 8);
    let mut sim = s.build().unwrap();
    let spec: RoutingSpec = "drb".parse().unwrap();
    sim.swap_routing(&spec).unwrap();
    let swapped = drb_of(&sim).spec().threshold();
    let built = threshold(&Scenario {
        routing: "drb".into(),
        ..s.clone()
    });
    assert_eq!(swapped, built);
    assert!(matches!(swapped.source, ThresholdSource::Knee(_)));
    assert!(sim.swap_knee_job(&spec).is_none(), "kept");
    // A swap the run refuses measures nothing (DRB needs 8 VCs here).
    let mut four = default_router("torus:4x4", "dor:tie=random", 4)
        .build()
        .unwrap();
    assert!(four.swap_knee_job(&spec).is_none());
    assert!(four.swap_routing(&spec).is_err());
    let oq = Scenario {
        switch_model: SwitchModelKind::OUTPUT_QUEUED,
        ..s
    };
    let t = threshold(&Scenario {
        routing: "drb".into(),
        ..oq
    });
    assert_ne!(t.knee(), swapped.knee(), "another model, another knee");
    let setup = KneeSetup::of_run(&sim);
    assert_eq!(setup.router.vcs, 8);
}

/// `routelab sim --json` prints the threshold beside DRB's counters, and
/// the readable summary says it in a line.
#[test]
fn sim_prints_the_threshold_and_where_it_comes_from() {
    let args = [
        "sim",
        "--topology",
        "torus:4x4",
        "--vcs",
        "8",
        "--routing",
        "drb",
        "--load",
        "0.1",
        "--warmup",
        "0",
        "--cycles",
        "200",
    ];
    let (code, out, err) = routelab(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let t = &v["drb"]["threshold"];
    assert_eq!(t["source"], "knee", "{t}");
    assert_eq!(t["tolerance_source"], "tau", "{t}");
    assert_eq!(t["knee"]["request"]["static_routing"], "dor:tie=random");
    assert_eq!(t["knee"]["probes"], PROBES);
    let tau = t["tau"].as_f64().unwrap();
    assert!(tau > 0.0 && tau != DEFAULT_TAU, "{t}");
    assert_eq!(v["routing"], "drb", "the name stays the default's");
    let (code, out, err) = routelab(&args);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("drb τ")).unwrap_or("");
    assert!(
        line.contains(&format!("τ = {tau}")) && line.contains("the knee of dor:tie=random"),
        "{out}"
    );
    // Given in the spec.
    let (code, out, _) = routelab(&[
        "sim",
        "--topology",
        "torus:4x4",
        "--vcs",
        "8",
        "--routing",
        "drb:tau=0.3",
        "--cycles",
        "100",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["drb"]["threshold"]["source"], "spec");
    assert_eq!(v["drb"]["threshold"]["tolerance"], tolerance_of(0.3));
    assert!(v["drb"]["threshold"].get("knee").is_none());
}
