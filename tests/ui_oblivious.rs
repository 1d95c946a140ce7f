//! UI tests of the oblivious-routing panel (issue 11), driving the real app
//! through its accessible labels with egui_kittest (no GPU, no display).
//!
//! The panel computes in the background (a thread natively), so these tests
//! step frames until it is idle instead of `Harness::run`, which would stop
//! at its step limit while work is under way.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::network_view::Selected;
use routelab::app::oblivious::{COLUMNS, value};
use routelab::app::{AppCommand, RoutelabApp, Settings};
use std::time::{Duration, Instant};

const GROUP: &str = "Oblivious routing (ring and torus)";
const RING_TORNADO: &str = "Ring of 8, tornado: minimal routing collapses to 1/3";
const TORUS_TORNADO: &str = "Torus 8x8, tornado: RLB reaches 0.53 of capacity, minimal routing 1/3";

fn harness() -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run();
    h
}

/// Step frames until the panel's background work is done.
fn settle(h: &mut Harness<'_, RoutelabApp>) {
    let start = Instant::now();
    loop {
        h.run_steps(1);
        if !h.state().panels.oblivious.is_busy() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the analysis never finished"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

fn load_preset(h: &mut Harness<'_, RoutelabApp>, name: &str) {
    h.get_by_label("Presets").click();
    h.run_steps(2);
    h.get_by_label(GROUP).click();
    h.run_steps(2);
    h.get_by_label(name).click();
    h.run_steps(2);
    assert_eq!(h.state().session.scenario.name, name);
}

/// Click switch `s` in a network view (what the view's click writes).
fn click_switch(h: &mut Harness<'_, RoutelabApp>, s: u32) {
    h.state_mut().views.selected = Some(Selected::Switch(s));
    h.run_steps(2);
}

#[test]
fn a_torus_preset_opens_the_panel_and_a_clicked_pair_shows_its_quadrants() {
    let mut h = harness();
    load_preset(&mut h, TORUS_TORNADO);
    assert!(
        h.state().panels.oblivious.open,
        "an oblivious preset opens the panel"
    );
    h.get_by_label("Oblivious routing analysis");
    settle(&mut h);
    h.get_by_label("Ideal throughput");
    // Singh §3.2: RLB from (0,0) to (2,3) on the 8x8 torus.
    click_switch(&mut h, 0);
    h.get_by_label("Now click a destination switch.");
    assert_eq!(
        h.state().views.selected,
        None,
        "the click picked, it selected nothing"
    );
    click_switch(&mut h, 2 + 8 * 3);
    settle(&mut h);
    h.get_by_label("rlb from (0,0) to (2,3)");
    for (dirs, p, x) in [
        ("(+,+)", "15/32", "0.469"),
        ("(+,-)", "9/32", "0.281"),
        ("(-,+)", "5/32", "0.156"),
        ("(-,-)", "3/32", "0.094"),
    ] {
        h.get_by_label(dirs);
        h.get_by_label(p);
        assert!(h.query_all_by_label(x).count() >= 1, "{x} is not shown");
    }
    h.get_by_label("x0 in {0,1,2}  x1 in {0,1,2,3}");
    h.get_by_label("x0 in {0,7,6,5,4,3,2}  x1 in {0,7,6,5,4,3}");
    // Shading one quadrant's box, then the pair's own load on the view.
    h.get_by_label("(-,-)").click();
    h.run_steps(2);
    assert_eq!(h.state().panels.oblivious.quadrant, Some(3));
    let pair = h.state().panels.oblivious.pair().unwrap().clone();
    assert_eq!(pair.samples.len(), 4);
    assert!(pair.expected_hops >= 5.0);
    h.get_by_label("Colour the analysis view by this pair's load w_c(s,d)")
        .click();
    h.run_steps(2);
    let app = h.state();
    let sims = [&app.session.sim];
    let views = app
        .panels
        .oblivious
        .central_views(&sims, app.settings.theme)
        .unwrap();
    assert_eq!(views.expected.values, pair.load);
    assert_eq!(views.expected_overlay.shaded.len(), 7 * 6);
    assert_eq!(views.expected_overlay.paths.len(), 4);
    assert!(views.runs.is_none(), "the pair's load has its own scale");
}

#[test]
fn expected_load_and_simulated_utilization_share_one_scale() {
    let mut h = harness();
    load_preset(&mut h, RING_TORNADO);
    for _ in 0..20 {
        h.get_by_label("Step 100").click();
        h.run_steps(1);
    }
    let mut frames = 0;
    while h.state().session.now() < 2000 {
        h.run_steps(1);
        frames += 1;
        assert!(frames < 1000);
    }
    settle(&mut h);
    assert_eq!(h.state().session.now(), 2000);
    let app = h.state();
    let load = app.session.scenario.load;
    let expected = app
        .panels
        .oblivious
        .expected()
        .unwrap()
        .as_ref()
        .unwrap()
        .clone();
    let n = app.session.sim.network().num_network_channels();
    let top = |v: &[f64]| v[..n].iter().copied().fold(0.0, f64::max);
    let simulated = app.session.sim.channel_utilization();
    let scale = top(&expected.utilization(load)).max(top(&simulated));
    assert!(scale > 0.0);
    h.get_by_label(&format!(
        "Shared colour scale: 0 to {scale:.3} flits/cycle (expected and simulated)"
    ));
    // The central area draws the analysis beside the run, both on it.
    let sims = [&app.session.sim];
    let views = app
        .panels
        .oblivious
        .central_views(&sims, app.settings.theme)
        .unwrap();
    assert_eq!(views.expected_overlay.scale_max, Some(scale));
    assert_eq!(views.runs_overlay.scale_max, Some(scale));
    assert_eq!(views.expected.unit, views.runs.as_ref().unwrap()[0].unit);
    assert_eq!(views.expected.values, expected.utilization(load));
    assert_eq!(views.runs.as_ref().unwrap()[0].values, simulated);
    assert!(views.expected.label.contains("Expected load"));
    assert!(
        views.runs.unwrap()[0]
            .label
            .contains("Simulated utilization")
    );
    // Minimal routing on the ring: the clockwise channels carry 3 hops of
    // every packet, the others nothing (1/3 of capacity, Singh §3.1).
    assert_eq!(value(expected.ideal.unwrap()), 1.0 / 3.0);
}

#[test]
fn the_compare_table_lists_the_six_routings_with_the_clis_numbers() {
    let mut h = harness();
    load_preset(&mut h, TORUS_TORNADO);
    settle(&mut h);
    h.get_by_label("Compare routings").click();
    h.run_steps(2);
    settle(&mut h);
    let t = h.state().panels.oblivious.compare_table().unwrap();
    assert!(t.finished() && t.error.is_none(), "{t:?}");
    let names: Vec<String> = t.rows.iter().map(|r| r.routing.to_string()).collect();
    assert_eq!(
        names,
        [
            "dor:tie=plus",
            "rdor",
            "val",
            "romm:order=xy",
            "rlb",
            "rlbth"
        ]
    );
    for n in &names {
        assert!(h.query_all_by_label(n).count() >= 1, "{n} is not shown");
    }
    // VAL: two uniform phases halve every pattern, worst case included.
    let val = &t.rows[2];
    assert_eq!(val.routing.to_string(), "val");
    for cell in val.traffic.iter().chain([&val.worst]) {
        assert_eq!(cell.map(value), Some(0.5));
    }
    assert!(h.query_all_by_label("0.500").count() >= 6);
    h.get_by_label("0.500 ± 0.000");
    // Every cell is what `routelab load --compare` prints.
    let out = std::process::Command::new(crate::support::routelab_bin())
        .args(["load", "--compare", "--json", "--topology", "torus:8x8"])
        .args(["--seed", &t.seed.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let columns: Vec<&str> = cli["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(&columns[..COLUMNS.len()], &COLUMNS[..]);
    for (row, want) in t.rows.iter().zip(cli["rows"].as_array().unwrap()) {
        assert_eq!(want["routing"], row.routing.to_string());
        for (cell, w) in row.traffic.iter().chain([&row.worst]).zip(
            want["traffic"]
                .as_array()
                .unwrap()
                .iter()
                .chain([&want["worst"]]),
        ) {
            let got = cell.map(value).unwrap();
            assert!((got - w["value"].as_f64().unwrap()).abs() < 1e-12);
            assert!(h.query_all_by_label(&format!("{got:.3}")).count() >= 1);
        }
        let avg = row.average.as_ref().unwrap();
        assert!((avg.mean - want["average"]["mean"].as_f64().unwrap()).abs() < 1e-12);
    }
}

#[test]
fn the_panel_explains_itself_on_a_network_that_is_no_torus() {
    let mut h = harness();
    h.get_by_label("Presets").click();
    h.run();
    h.get_by_label("Fat-tree multipath balancing").click();
    h.run();
    h.get_by_label("Fat tree k=4, D-mod-k, uniform").click();
    h.run();
    h.get_by_label("Oblivious analysis").click();
    settle(&mut h);
    h.get_by_label("Oblivious routing analysis");
    h.get_by_label_contains("covers k-ary n-cubes: tori and meshes with one host per switch");
    assert!(h.query_by_label("Compare routings").is_none());
    // A click on a switch still selects it there.
    click_switch(&mut h, 3);
    assert_eq!(h.state().views.selected, Some(Selected::Switch(3)));
}

#[test]
fn every_oblivious_routing_swaps_live_and_too_few_vcs_are_explained() {
    let choices = routelab::app::scenario_panel::routing_choices(
        "torus:8x8",
        routelab::sim::SwitchModelKind::INPUT_QUEUED,
    );
    for r in ["rdor", "val", "romm", "rlb", "rlbth"] {
        assert!(
            choices.iter().any(|c| c == r),
            "{r} missing from {choices:?}"
        );
    }
    let mut h = harness();
    load_preset(&mut h, TORUS_TORNADO);
    settle(&mut h);
    h.get_by_label("Virtual channels and live swaps").click();
    h.run_steps(2);
    for (i, r) in ["rdor", "val", "romm:order=xy", "rlbth", "dor:tie=plus"]
        .iter()
        .enumerate()
    {
        h.get_by_label(&format!("Swap to {r}")).click();
        h.run_steps(1);
        h.get_by_label("Step 100").click();
        settle(&mut h);
        let sim = &h.state().session.sim;
        assert!(sim.failure().is_none(), "{r}: {:?}", sim.failure());
        assert_eq!(sim.swaps().len(), i + 2);
        // The analysis follows the running routing.
        let ctx = h.state().panels.oblivious.context().unwrap().clone();
        assert_eq!(ctx.routing.map(|x| x.to_string()).as_deref(), Some(*r));
    }
    // Two VCs are too few for RLB on a 2-D torus: the swap says why.
    let two = routelab::scenario::Scenario {
        routing: "dor".into(),
        vcs: 2,
        ..h.state().session.scenario.clone()
    };
    h.state_mut().push(AppCommand::Apply(Box::new(two)));
    settle(&mut h);
    assert_eq!(h.state().session.scenario.vcs, 2);
    h.state_mut().push(AppCommand::SwapRouting {
        spec: "rlb".into(),
        on_compare: false,
    });
    settle(&mut h);
    h.get_by_label_contains("Swap refused: rlb needs 8 virtual channels on torus:8x8");
    h.get_by_label_contains("Set Virtual channels to 8");
    h.get_by_label("Use 8 virtual channels").click();
    settle(&mut h);
    assert_eq!(h.state().session.scenario.vcs, 8);
}

#[test]
fn the_latency_sweep_runs_every_routing_with_its_analysed_mark() {
    let mut h = harness();
    load_preset(&mut h, RING_TORNADO);
    settle(&mut h);
    {
        let st = &mut h.state_mut().panels.oblivious.sweep_settings;
        st.load_from = 0.1;
        st.load_to = 0.2;
        st.load_step = 0.1;
        st.cycles = 300;
    }
    h.get_by_label("Latency against offered load").click();
    h.run_steps(2);
    h.get_by_label("Run routing sweep").click();
    h.run_steps(1);
    settle(&mut h);
    let p = h.state().panels.oblivious.sweep.progress();
    assert!(p.finished && p.error.is_none(), "{:?}", p.error);
    // Every routing runs on the ring with the preset's 4 VCs.
    assert_eq!(p.points.len(), 6 * 2);
    assert!(p.points.iter().all(|x| x.avg_latency.is_finite()));
    h.get_by_label_contains(
        "Analysed saturation (dashed): dor:tie=plus 0.333, rdor 0.333, val 0.500",
    );
    h.get_by_label_contains("rlb 0.533");
}

/// What the presets are for: below saturation the simulated utilization
/// of every channel is the expected load L·γ_c (output-queued switches,
/// 30 000 cycles; Bernoulli noise stays within a few hundredths).
#[test]
fn every_oblivious_preset_agrees_with_the_analysis() {
    use routelab::analysis::{Cube, TrafficMatrix};
    use routelab::app::oblivious::{Expected, analysed_routing};
    let (presets, problems) = routelab::app::presets::all();
    assert!(problems.is_empty(), "{problems:?}");
    let group: Vec<_> = presets
        .iter()
        .filter(|p| {
            p.source
                .starts_with(routelab::app::presets::OBLIVIOUS_PREFIX)
        })
        .collect();
    assert_eq!(group.len(), 10);
    for p in group {
        let s = &p.scenario;
        let mut sim = s.build().unwrap();
        sim.run_for(30_000).unwrap();
        let net = sim.network().clone();
        let cube = Cube::from_network(&net).unwrap();
        let pattern = s.pattern_on(&net).unwrap();
        let m = TrafficMatrix::from_pattern(&pattern, net.num_hosts()).unwrap();
        let routing = analysed_routing(&s.routing).unwrap();
        let e = Expected::compute(&cube, &m, routing).unwrap();
        assert!(s.load < e.ideal_load().unwrap(), "{}: saturated", s.name);
        let want = e.utilization(s.load);
        let got = sim.channel_utilization();
        for c in 0..net.num_network_channels() {
            assert!(
                (want[c] - got[c]).abs() < 0.06,
                "{}: channel {c} expected {} simulated {}",
                s.name,
                want[c],
                got[c]
            );
        }
        let accepted = sim.summary().accepted;
        assert!((accepted - s.load).abs() < 0.01, "{}: {accepted}", s.name);
    }
}
