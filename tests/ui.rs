//! UI tests: drive the real app through its accessible labels with
//! egui_kittest (no GPU, no display).
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::{AppCommand, RoutelabApp, Settings};

fn harness() -> Harness<'static, RoutelabApp> {
    harness_sized(1400.0, 900.0)
}

/// The app in a window of `w` x `h` points (1280x800: a laptop or a
/// projector).
fn harness_sized(w: f32, h: f32) -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run();
    h
}

/// Load the built-in preset from `assets/scenarios/<source>` by command
/// (`load_preset` below goes through the Presets menu, by name).
fn load_preset_file(h: &mut Harness<'_, RoutelabApp>, source: &str) {
    let i = h
        .state()
        .editor
        .presets
        .iter()
        .position(|p| p.source == source)
        .unwrap_or_else(|| panic!("no preset {source}"));
    h.state_mut().push(AppCommand::LoadPreset(i));
    h.run_steps(2);
}

fn cycle(h: &Harness<'_, RoutelabApp>) -> u64 {
    h.state().session.now()
}

#[test]
fn step_buttons_advance_the_cycle_counter() {
    let mut h = harness();
    assert_eq!(cycle(&h), 0);
    h.get_by_label("Cycle 0");
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(cycle(&h), 1);
    h.get_by_label("Cycle 1");
    h.get_by_label("Step 100").click();
    h.run();
    assert_eq!(cycle(&h), 101);
    h.get_by_label("Cycle 101");
}

#[test]
fn play_runs_and_metrics_change_then_pause_stops() {
    let mut h = harness();
    // Paused, the status bar says so rather than "0 cycles/s".
    h.get_by_label("paused");
    assert!(h.query_by_label_contains("cycles/s").is_none());
    h.get_by_label("Play").click();
    h.run_steps(150);
    assert!(h.query_by_label_contains("cycles/s").is_some());
    assert!(h.query_by_label("paused").is_none());
    let c = cycle(&h);
    assert!(c >= 1000, "cycle {c}");
    assert!(!h.state().session.sim.stats().windows().is_empty());
    assert!(h.state().session.sim.summary().accepted > 0.0);
    h.get_by_label(&format!("Cycle {c}"));
    h.get_by_label("Pause").click();
    h.run_steps(2);
    h.get_by_label("paused");
    let stopped = cycle(&h);
    h.run_steps(5);
    assert_eq!(cycle(&h), stopped);
}

#[test]
fn presets_menu_loads_a_preset() {
    let mut h = harness();
    h.get_by_label("Presets").click();
    h.run();
    h.get_by_label("First steps: one network, one routing")
        .click();
    h.run();
    h.get_by_label("Torus 8x8, DOR, tornado (hot ring)").click();
    h.run();
    let s = &h.state().session.scenario;
    assert_eq!(s.traffic, "tornado");
    assert_eq!(s.name, "Torus 8x8, DOR, tornado (hot ring)");
    assert_eq!(cycle(&h), 0);
}

#[test]
fn swapping_the_balancer_marks_a_swap() {
    let mut h = harness();
    h.get_by_label("Step 100").click();
    h.run();
    h.get_by_label("Swap balancer").click();
    h.run();
    let swaps = h.state().session.sim.swaps().to_vec();
    assert_eq!(swaps.len(), 2, "{swaps:?}");
    assert_eq!(swaps[1].0, 100);
    h.get_by_label_contains("Swapped the balancer");
    // The curves still advance after the swap.
    h.get_by_label("Step 100").click();
    h.run();
    assert_eq!(cycle(&h), 200);
}

#[test]
fn keyboard_space_plays_and_right_arrow_steps() {
    let mut h = harness();
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(cycle(&h), 1);
    h.key_press(egui::Key::Space);
    h.run_steps(5);
    assert!(h.state().playback.playing);
    assert!(cycle(&h) > 1);
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(!h.state().playback.playing);
}

#[test]
fn compare_runs_two_balancers_in_step() {
    let mut h = harness();
    h.get_by_label("Compare").click();
    h.run();
    assert!(h.state().session.compare.is_some());
    h.get_by_label("Step 100").click();
    h.run();
    let b = h.state().session.compare.as_ref().unwrap();
    assert_eq!(b.now(), 100);
    assert_eq!(cycle(&h), 100);
    h.get_by_label("Stop comparing").click();
    h.run();
    assert!(h.state().session.compare.is_none());
}

#[test]
fn bad_input_shows_a_message_and_changes_nothing() {
    let mut h = harness();
    let before = h.state().session.scenario.clone();
    h.state_mut()
        .push(AppCommand::LoadScenarioText("{\"vcs\": \"two\"".into()));
    h.run();
    assert_eq!(h.state().session.scenario, before);
    h.get_by_label_contains("The file was not loaded");
    h.state_mut()
        .push(AppCommand::Apply(Box::new(routelab::scenario::Scenario {
            topology: "torus:2x2".into(),
            ..before.clone()
        })));
    h.run();
    assert_eq!(h.state().session.scenario, before);
    h.get_by_label_contains("was not applied");
    h.state_mut().push(AppCommand::SwapRouting {
        spec: "dmodk".into(),
        on_compare: false,
    });
    h.run();
    assert_eq!(h.state().session.sim.swaps().len(), 1);
    h.get_by_label_contains("Swap refused");
}

/// Reset after a live swap rebuilds the scenario as defined: run A runs
/// the scenario's balancer again, and the Balancer box and the notice say
/// so instead of still naming the balancer swapped in.
#[test]
fn reset_after_a_swap_names_the_balancer_that_runs() {
    use routelab::app::playback::PlaybackCommand;
    let mut h = harness();
    let before = h.state().session.sim.routing_name();
    // (`swaps` lists the routing the run started with, then each swap.)
    assert_eq!(h.state().session.sim.swaps().len(), 1);
    h.state_mut().push(AppCommand::SwapRouting {
        spec: "dor:tie=random".into(),
        on_compare: false,
    });
    h.run();
    assert_eq!(h.state().session.sim.swaps().len(), 2);
    let swapped = h.state().session.sim.routing_name();
    assert_ne!(swapped, before);
    assert_eq!(h.state().settings.swap_routing, swapped);
    h.get_by_label_contains(&format!("Swapped the balancer to {swapped}"));
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Reset));
    h.run();
    assert_eq!(h.state().session.now(), 0);
    assert_eq!(h.state().session.sim.swaps().len(), 1);
    assert_eq!(h.state().session.sim.routing_name(), before);
    assert_eq!(h.state().settings.swap_routing, before);
    h.get_by_label_contains("Reset to cycle 0 with the scenario's balancer");
    assert!(h.query_by_label_contains("Swapped the balancer").is_none());
}

#[test]
fn help_overlay_toggles_with_question_mark() {
    let mut h = harness();
    h.state_mut().push(AppCommand::ToggleHelp);
    h.run();
    h.get_by_label_contains("Show or hide this list");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().windows.show_help);
}

fn load_preset(h: &mut Harness<'_, RoutelabApp>, name: &str) {
    let source = h
        .state()
        .editor
        .presets
        .iter()
        .find(|p| p.scenario.name == name)
        .map(|p| p.source.clone())
        .expect("a preset of that name");
    h.get_by_label("Presets").click();
    h.run();
    h.get_by_label(routelab::app::presets::group_of(&source).title)
        .click();
    h.run();
    h.get_by_label(name).click();
    h.run();
    assert_eq!(h.state().session.scenario.name, name);
}

const IRREGULAR_16: &str = "Irregular 16 switches, up*/down* DFS + MaxCp";

#[test]
fn path_selection_panel_computes_maxcp_statistics() {
    let mut h = harness();
    load_preset(&mut h, IRREGULAR_16);
    h.get_by_label("Path selection").click();
    h.run();
    h.get_by_label("Static path selection");
    h.state_mut().panels.path_selection.algorithm = routelab::paths::Algorithm::MaxCp;
    h.run();
    h.get_by_label("Compute").click();
    h.run();
    let r = h
        .state()
        .panels
        .path_selection
        .result
        .clone()
        .expect("computed");
    assert_eq!(r.routing(), "paths:updown-dfs:maxcp");
    assert!(r.stats.max > 0 && r.stats.sd > 0.0, "{:?}", r.stats);
    h.get_by_label_contains("crossing.sd");
    h.get_by_label_contains(&format!("crossing.max {}", r.stats.max));
    // The scenario's own MaxCp tables give the same crossing paths.
    let (_, values) = h.state().session.sim.routing_channel_values().unwrap();
    for (c, &n) in r.crossing.iter().enumerate() {
        assert_eq!(values[c], n as f64, "channel {c}");
    }
}

#[test]
fn path_selection_runs_a_live_search_then_traffic_over_its_tables() {
    let mut h = harness();
    load_preset(&mut h, IRREGULAR_16);
    h.get_by_label("Path selection").click();
    h.run();
    {
        let ps = &mut h.state_mut().panels.path_selection;
        ps.algorithm = routelab::paths::Algorithm::Sa;
        ps.sa_budget = 5_000;
    }
    h.run();
    h.get_by_label("Compute").click();
    h.run_steps(1);
    let mut frames = 0;
    while h.state().panels.path_selection.is_running() {
        h.run_steps(1);
        frames += 1;
        assert!(frames < 10_000, "the search never finished");
    }
    h.run_steps(1);
    let ps = &h.state().panels.path_selection;
    assert_eq!(ps.error, None);
    let r = ps.result.clone().expect("computed");
    assert_eq!(r.iterations, 5_000);
    assert!(!r.history.is_empty());
    h.get_by_label_contains("crossing.sd");
    h.get_by_label("Run traffic over these tables").click();
    h.run();
    let s = &h.state().session.scenario;
    assert_eq!(s.routing, "paths:updown-dfs:sa:budget=5000");
    assert_eq!(cycle(&h), 0);
    let (label, values) = h.state().session.sim.routing_channel_values().unwrap();
    assert_eq!(label, "crossing paths");
    for (c, &n) in r.crossing.iter().enumerate() {
        assert_eq!(values[c], n as f64, "channel {c}");
    }
    h.get_by_label("Step 100").click();
    h.run();
    assert_eq!(cycle(&h), 100);
    assert!(h.state().session.sim.failure().is_none());
    h.get_by_label("Cycle 100");
}

#[test]
fn path_selection_compares_two_algorithms_side_by_side() {
    let mut h = harness();
    load_preset(&mut h, IRREGULAR_16);
    h.get_by_label("Path selection").click();
    h.run();
    {
        let ps = &mut h.state_mut().panels.path_selection;
        ps.algorithm = routelab::paths::Algorithm::MaxCp;
        ps.compare_algorithm = routelab::paths::Algorithm::Random;
    }
    h.run();
    h.get_by_label("Compute").click();
    h.run();
    h.get_by_label("Compare with…").click();
    h.run();
    let app = h.state();
    assert_eq!(app.session.scenario.routing, "paths:updown-dfs:maxcp");
    assert_eq!(
        app.session.compare_routing.as_deref(),
        Some("paths:updown-dfs:random")
    );
    assert_eq!(
        app.settings.metric,
        routelab::app::network_view::Metric::CrossingPaths
    );
    let b = app.session.compare.as_ref().unwrap();
    assert!(b.routing_channel_values().is_some());
    h.get_by_label("Step 100").click();
    h.run();
    assert_eq!(h.state().session.compare.as_ref().unwrap().now(), 100);
}

/// The file-dialog plumbing without a real dialog: answers delivered on the
/// channel (as the dialog thread would) are applied on the next frame.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn file_dialog_answers_are_applied_and_no_dialog_shows_the_fallback() {
    use routelab::app::file_dialog::{Outcome, Purpose};
    let answer = |h: &mut Harness<'_, RoutelabApp>, purpose: Purpose, outcome: Outcome| {
        let tx = h.state_mut().windows.file_dialogs.open_with(purpose);
        h.run();
        assert!(h.state().windows.file_dialogs.is_open());
        tx.send(outcome).unwrap();
        h.run();
        assert!(!h.state().windows.file_dialogs.is_open());
    };
    let mut h = harness();
    // The buttons are there (never clicked: that would open a real dialog).
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export curves as CSV to…");
    h.get_by_label("Export view as PNG to…");
    h.get_by_label("Save or load scenario JSON...").click();
    h.run();
    h.get_by_label("Save as…");
    h.get_by_label("Open…");

    // A dialog that never answers: "Stop waiting" in the status bar frees
    // the buttons, and a late answer is ignored.
    let late = h
        .state_mut()
        .windows
        .file_dialogs
        .open_with(Purpose::LoadScenario);
    h.run();
    assert!(h.state().windows.file_dialogs.is_open());
    h.get_by_label("Stop waiting").click();
    h.run();
    assert!(!h.state().windows.file_dialogs.is_open());
    assert!(late.send(Outcome::Cancelled).is_err());
    h.run();
    assert!(h.query_by_label("Stop waiting").is_none());

    let dir = std::env::temp_dir().join(format!("routelab-ui-dialog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let before = h.state().session.scenario.clone();
    let typed = h.state().settings.file_path.clone();

    // No dialog on this system: say so, change nothing.
    answer(
        &mut h,
        Purpose::LoadScenario,
        Outcome::Unavailable("xdg-desktop-portal not running".into()),
    );
    h.get_by_label(
        "no file dialog available on this system (xdg-desktop-portal not running); type a path instead",
    );
    assert_eq!(h.state().session.scenario, before);
    assert_eq!(h.state().settings.file_path, typed);
    answer(&mut h, Purpose::SaveScenario, Outcome::Cancelled);
    h.get_by_label_contains("no file chosen");
    assert_eq!(h.state().settings.file_path, typed);

    // Save as: the file is written and becomes the typed path.
    let saved = dir.join("saved.json");
    answer(
        &mut h,
        Purpose::SaveScenario,
        Outcome::Picked(saved.clone()),
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(
        routelab::scenario::Scenario::from_json(&text).unwrap(),
        before
    );
    assert_eq!(h.state().settings.file_path, saved.display().to_string());

    // Open a bad file: the typed path's error, nothing changes.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"vcs\": \"two\"").unwrap();
    answer(&mut h, Purpose::LoadScenario, Outcome::Picked(bad));
    h.get_by_label_contains("The file was not loaded");
    assert_eq!(h.state().session.scenario, before);
    assert_eq!(h.state().settings.file_path, saved.display().to_string());
    answer(
        &mut h,
        Purpose::LoadScenario,
        Outcome::Picked(dir.join("missing.json")),
    );
    h.get_by_label_contains("could not read");
    assert_eq!(h.state().session.scenario, before);

    // Open a good file: applied, and it becomes the typed path.
    let other = h
        .state()
        .editor
        .presets
        .iter()
        .map(|p| p.scenario.clone())
        .find(|s| *s != before)
        .unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, other.to_json()).unwrap();
    answer(&mut h, Purpose::LoadScenario, Outcome::Picked(good.clone()));
    assert_eq!(h.state().session.scenario, other);
    assert_eq!(h.state().settings.file_path, good.display().to_string());

    // Export the curves to the chosen file.
    h.get_by_label("Step 100").click();
    h.run();
    let csv = dir.join("curves.csv");
    answer(
        &mut h,
        Purpose::ExportCurvesCsv,
        Outcome::Picked(csv.clone()),
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("run,routing,window_start,window_end,"),
        "{text}"
    );
    let windows = h.state().session.sim.stats().windows().len();
    assert_eq!(text.lines().count(), 1 + windows);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fat-tree preset (time-slice model): one accessible buffer bar per
/// switch, "Switch N buffer: X of Y messages" with X as its value, empty
/// at slice 0, filling and draining within capacity as slices run; in
/// compare mode both runs draw their bars.
#[test]
fn fat_tree_preset_shows_live_buffer_bars() {
    use egui_kittest::kittest::NodeT;
    let mut h = harness();
    h.get_by_label("Presets").click();
    h.run();
    h.get_by_label("Fat-tree multipath balancing").click();
    h.run();
    h.get_by_label("Fat tree k=4, unlike switches, weighted-path balancer (step 7)")
        .click();
    h.run();
    assert_eq!(h.state().session.sim.switch_model(), "timeslice");
    h.get_by_label("Slice 0");
    let bars = |h: &Harness<'_, RoutelabApp>| -> Vec<(String, f64, u32)> {
        h.query_all_by_label_contains("buffer:")
            .map(|n| {
                let node = n.accesskit_node();
                let label = node.label().unwrap_or_default();
                let cap: u32 = label
                    .split(" of ")
                    .nth(1)
                    .and_then(|x| x.split(' ').next())
                    .and_then(|x| x.parse().ok())
                    .unwrap();
                (label, node.numeric_value().unwrap_or(-1.0), cap)
            })
            .collect()
    };
    let at0 = bars(&h);
    assert_eq!(at0.len(), 20, "{at0:?}");
    assert!(
        at0.iter()
            .all(|(l, v, _)| *v == 0.0 && l.contains(": 0 of")),
        "{at0:?}"
    );
    assert!(
        at0.iter()
            .any(|(l, _, _)| l == "Switch 0 buffer: 0 of 445 messages")
    );
    h.get_by_label("Step 100").click();
    h.run();
    let later = bars(&h);
    assert_eq!(later.len(), 20);
    let held: f64 = later.iter().map(|(_, v, _)| v).sum();
    assert!(held > 0.0, "{later:?}");
    assert!(
        later.iter().all(|(_, v, cap)| *v <= *cap as f64),
        "{later:?}"
    );
    h.get_by_label_contains("slices ·");
    h.state_mut()
        .push(AppCommand::SetCompare(Some("fattree-greedy:step=1".into())));
    h.run();
    h.get_by_label("Step 100").click();
    h.run();
    assert_eq!(h.state().session.compare.as_ref().unwrap().now(), 100);
    assert_eq!(bars(&h).len(), 40);
}

#[test]
fn balancer_and_compare_picks_follow_the_network() {
    let mut h = harness();
    let (i, _) = h
        .state()
        .editor
        .presets
        .iter()
        .enumerate()
        .find(|(_, p)| p.scenario.topology.starts_with("irregular"))
        .expect("an irregular preset");
    h.state_mut().push(AppCommand::LoadPreset(i));
    h.run_steps(2);
    let topology = h.state().session.scenario.topology.clone();
    let net = h.state().session.sim.network().clone();
    let order = routelab::app::swap_order::swap_order(&h.state().session.scenario, &net);
    assert!(!order.iter().any(|c| c.starts_with("dor")), "{order:?}");
    // The Balancer box shows run A's routing.
    assert_eq!(
        h.state().settings.swap_routing,
        h.state().session.sim.routing_name(),
        "on {topology}"
    );
    // Swapping to it works on this network.
    h.get_by_label("Swap balancer").click();
    h.run_steps(2);
    assert!(
        h.state().message.as_ref().is_none_or(|m| !m.is_error),
        "{:?}",
        h.state().message
    );
}

/// The Compare box offers a real contrast after every preset: the
/// preset's own (what the C key compares with) when it names one, else a
/// routing that is not run A's under another name (`minimal` is up*/down*
/// on an irregular network, DOR on a torus).
#[test]
fn the_compare_box_never_offers_run_a_again() {
    let mut h = harness();
    let presets: Vec<(usize, Option<String>)> = h
        .state()
        .editor
        .presets
        .iter()
        .enumerate()
        .map(|(i, p)| (i, p.scenario.compare_with.clone()))
        .collect();
    assert!(
        presets.iter().any(|(_, c)| c.is_none()),
        "every preset names its contrast"
    );
    for (i, compare_with) in presets {
        // A pick left over from another network first.
        h.state_mut().editor.compare_pick = "dor:tie=random".into();
        h.state_mut().push(AppCommand::LoadPreset(i));
        h.run_steps(2);
        let app = h.state();
        let name = &app.editor.presets[i].scenario.name;
        let pick = app.editor.compare_pick.clone();
        if let Some(c) = compare_with {
            assert_eq!(pick, c, "{name}");
            continue;
        }
        let spec: routelab::routing::RoutingSpec = pick
            .parse()
            .unwrap_or_else(|e| panic!("{name}: {pick}: {e}"));
        let built = spec
            .build(app.session.sim.network(), app.session.scenario.vcs)
            .unwrap_or_else(|e| panic!("{name}: {pick}: {e}"));
        assert_ne!(
            built.name(),
            app.session.sim.routing_name(),
            "{name}: {pick}"
        );
    }
    // On the irregular preset without a contrast of its own, `minimal`
    // (up*/down* there) is not offered; Compare runs what is.
    let (i, _) = h
        .state()
        .editor
        .presets
        .iter()
        .enumerate()
        .find(|(_, p)| {
            p.scenario.topology.starts_with("irregular")
                || p.scenario.topology.starts_with("ibnetdiscover")
        })
        .expect("an irregular preset");
    h.state_mut().editor.compare_pick = "minimal".into();
    h.state_mut().push(AppCommand::LoadPreset(i));
    h.run_steps(2);
    assert_ne!(h.state().editor.compare_pick, "minimal");
    h.get_by_label("Compare").click();
    h.run_steps(2);
    let b = h.state().session.compare.as_ref().expect("run B");
    assert_ne!(b.routing_name(), h.state().session.sim.routing_name());
}

#[test]
fn up_down_roots_are_found_in_routing_names() {
    use routelab::app::network_view::updown_root;
    assert_eq!(updown_root("updown", "irregular:16"), Some(0));
    assert_eq!(updown_root("updown:root=5", "torus:4x4"), Some(5));
    assert_eq!(
        updown_root("paths:updown-dfs:maxcp:root=3", "irregular:16"),
        Some(3)
    );
    assert_eq!(updown_root("paths:udwm:hpcf", "torus:8x8"), Some(0));
    assert_eq!(updown_root("minimal", "irregular:8"), Some(0));
    assert_eq!(updown_root("minimal", "torus:8x8"), None);
    assert_eq!(updown_root("dor:tie=plus", "torus:8x8"), None);
}

/// A routing has one name everywhere (the classroom issue): on a fresh
/// start and after applying an alias (`minimal`), the Routing field, the
/// saved scenario and the status bar all say the name the built routing
/// goes by.
#[test]
fn a_routing_has_one_name_in_the_form_the_scenario_and_the_status_bar() {
    let mut h = harness();
    h.run_steps(2);
    let check = |h: &Harness<'_, RoutelabApp>, expect: &str| {
        let app = h.state();
        assert_eq!(app.session.sim.routing_name(), expect);
        assert_eq!(app.editor.draft.routing, expect, "the Routing field");
        assert_eq!(app.session.scenario.routing, expect, "the scenario saved");
        let status = format!("Routing {expect}");
        assert!(
            h.query_by_label_contains(&status).is_some(),
            "the status bar says {status}"
        );
    };
    check(&h, "dor:tie=plus");
    h.state_mut()
        .push(AppCommand::Apply(Box::new(routelab::scenario::Scenario {
            topology: "irregular:8:seed=2".into(),
            routing: "minimal".into(),
            ..Default::default()
        })));
    h.run_steps(2);
    check(&h, "updown:root=0");
}

/// On the time-slice model the scenario panel offers only what changes a
/// time-slice run (no packet size, switching, VCs, buffers, selection or
/// port priority), and run B's status speaks of success and slices.
#[test]
fn the_time_slice_model_shows_its_own_fields_and_status() {
    let mut h = harness();
    h.run_steps(2);
    assert!(h.query_by_label("Virtual channels").is_some());
    load_preset_file(&mut h, "fattree-greedy.json");
    assert!(h.query_by_label("Virtual channels").is_none());
    assert!(h.query_by_label("Switching").is_none());
    assert!(h.query_by_label("Packet size").is_none());
    assert!(h.query_by_label("Router").is_some());
    h.state_mut()
        .push(AppCommand::SetCompare(Some("ecmp".into())));
    h.run_steps(2);
    assert!(h.state().session.compare.is_some(), "comparing with ecmp");
    assert!(h.query_by_label_contains("B: success").is_some());
    assert!(h.query_by_label_contains("B: latency").is_none());
}

/// During the warm-up the status bar says so instead of showing zero
/// latency and zero throughput; after it, the measurements.
#[test]
fn the_status_bar_says_warming_up_before_statistics_start() {
    use routelab::app::playback::PlaybackCommand;
    let mut h = harness();
    h.state_mut()
        .push(AppCommand::Apply(Box::new(routelab::scenario::Scenario {
            topology: "torus:4x4".into(),
            warmup: 300,
            ..Default::default()
        })));
    h.run_steps(2);
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Step(100)));
    h.run_steps(3);
    assert_eq!(h.state().session.now(), 100);
    assert!(
        h.query_by_label_contains("Warming up: cycle 100 of 300")
            .is_some()
    );
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Step(400)));
    h.run_steps(3);
    assert!(h.query_by_label_contains("Warming up").is_none());
    assert!(h.query_by_label_contains(" · Accepted ").is_some());
}

/// With the scenario panel, the DRB panel and a selected switch's details
/// all open (a row of 12 VC buffers in the details), the network view
/// keeps room at 1280x800.
#[test]
fn side_panels_leave_room_for_the_network_view() {
    use routelab::app::network_view::Selected;
    use routelab::app::tour::overlay::region;
    let mut h = harness_sized(1280.0, 800.0);
    load_preset_file(&mut h, "drb-torus8-hotspot.json");
    h.state_mut().views.selected = Some(Selected::Switch(60));
    h.run_steps(4);
    let view = region(&h.ctx, "network").expect("the network view is drawn");
    assert!(
        view.width() >= 250.0,
        "the network view is {} points wide",
        view.width()
    );
}

/// A long scenario name and description wrap inside the scenario panel
/// instead of running past its right edge (the ring tornado preset at
/// 1280x800).
#[test]
fn a_long_description_wraps_inside_the_scenario_panel() {
    use routelab::app::tour::overlay::region;
    let mut h = harness_sized(1280.0, 800.0);
    load_preset_file(&mut h, "oblivious-a-ring8-tornado.json");
    let panel = region(&h.ctx, "controls").expect("the scenario panel");
    for text in ["Every node sends 3 hops", "Ring of 8, tornado"] {
        let label = h.get_by_label_contains(text).rect();
        assert!(
            label.max.x <= panel.max.x + 1.0,
            "`{text}` ends at x = {}, past the panel's edge at {}",
            label.max.x,
            panel.max.x
        );
    }
}

/// During the warm-up the colour legend says when the measurement starts
/// (the channels stay grey until then); after it, just the metric.
#[test]
fn the_legend_says_when_measurement_starts() {
    use routelab::app::network_view::{Colouring, Metric};
    let s = routelab::scenario::Scenario {
        topology: "torus:4x4".into(),
        warmup: 200,
        ..Default::default()
    };
    let mut sim = s.build().unwrap();
    sim.run_for(50).unwrap();
    let c = Colouring::of(Metric::Utilization, &sim);
    assert_eq!(c.label, "Utilization (from cycle 200, after the warm-up)");
    assert_eq!(
        Colouring::of(Metric::Occupancy, &sim).label,
        "Buffer occupancy"
    );
    sim.run_for(200).unwrap();
    assert_eq!(
        Colouring::of(Metric::Utilization, &sim).label,
        "Utilization"
    );
}

/// A preset's load off the slider's hundredths (the DRB hot-spot preset's
/// 0.135, Fig. 9's setting) stays as it is in the scenario panel: the
/// slider once rounded it to 0.14 on every frame, so the panel showed an
/// edit nobody made and "Apply scenario" would have applied it.
#[test]
fn a_load_off_the_sliders_hundredths_is_kept() {
    let mut h = harness_sized(1280.0, 800.0);
    load_preset_file(&mut h, "drb-torus8-hotspot.json");
    h.run_steps(3);
    assert_eq!(h.state().session.scenario.load, 0.135);
    assert_eq!(
        h.state().editor.draft.load,
        0.135,
        "the panel changed the load"
    );
    assert!(
        h.state().editor.draft == h.state().session.scenario,
        "the panel shows an edit nobody made"
    );
}
