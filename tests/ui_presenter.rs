//! Presenter mode and the keys a live demo needs (issue 15): F5 scales the
//! UI up and gives the side panels' room to the views; N / P load presets,
//! B swaps the balancer, C starts and stops a comparison, all from the
//! keyboard.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use routelab::app::tour::overlay::region;
use routelab::app::{RoutelabApp, Settings};

fn harness() -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run_steps(2);
    h
}

fn press(h: &mut Harness<'_, RoutelabApp>, k: egui::Key) {
    h.key_press(k);
    h.run_steps(3);
}

#[test]
fn a_link_asks_for_presenter_mode() {
    use routelab::app::presenter::requested;
    assert!(requested("#presenter"));
    assert!(requested("#scenario=%7B%7D&presenter"));
    assert!(requested("?tour=singh&presenter=1"));
    assert!(!requested("#scenario=presenter"));
    assert!(!requested(""));
}

#[test]
fn f5_toggles_presenter_mode_and_keys_drive_a_demo() {
    let mut h = harness();
    assert!(region(&h.ctx, "controls").is_some());
    press(&mut h, egui::Key::F5);
    assert!(h.state().guides.presenter.on);
    assert_eq!(h.ctx.zoom_factor(), routelab::app::presenter::ZOOM);
    assert!(region(&h.ctx, "controls").is_none(), "side panel hidden");
    assert!(region(&h.ctx, "network").is_some());
    assert!(region(&h.ctx, "curves").is_some());

    // N: the preset after the current one (the default scenario is the
    // torus:8x8 DOR preset; the first preset if it were none), then the
    // next; P goes back.
    let n = h.state().editor.presets.len();
    let at = |h: &Harness<'_, RoutelabApp>| {
        h.state()
            .editor
            .presets
            .iter()
            .position(|p| p.scenario == h.state().session.scenario)
    };
    let next = at(&h).map_or(0, |i| (i + 1) % n);
    press(&mut h, egui::Key::N);
    assert_eq!(at(&h), Some(next));
    let first = h.state().session.scenario.clone();
    press(&mut h, egui::Key::N);
    assert_eq!(at(&h), Some((next + 1) % n));
    press(&mut h, egui::Key::P);
    assert_eq!(h.state().session.scenario, first);

    // B: the balancer changes, to a routing that applies.
    let before = h.state().session.sim.routing_name();
    press(&mut h, egui::Key::B);
    let after = h.state().session.sim.routing_name();
    assert_ne!(before, after);
    assert_eq!(h.state().session.sim.swaps().len(), 2);

    // C: compare, then stop.
    press(&mut h, egui::Key::C);
    assert!(h.state().session.compare.is_some());
    press(&mut h, egui::Key::C);
    assert!(h.state().session.compare.is_none());

    press(&mut h, egui::Key::F5);
    assert!(!h.state().guides.presenter.on);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    assert!(region(&h.ctx, "controls").is_some());
}

#[test]
fn a_recorded_demo_replays_the_same_way() {
    use routelab::app::AppCommand;
    let dir = std::env::temp_dir().join(format!("routelab-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut h = harness();
    h.state_mut().settings.file_path = dir.join("scenario.json").to_string_lossy().into_owned();
    press(&mut h, egui::Key::F6);
    let ring = h
        .state()
        .editor
        .presets
        .iter()
        .position(|p| p.source == "oblivious-a-ring8-tornado.json")
        .unwrap();
    h.state_mut().push(AppCommand::LoadPreset(ring));
    h.run_steps(5);
    press(&mut h, egui::Key::Space);
    h.run_steps(20);
    h.state_mut().push(AppCommand::SwapRouting {
        spec: "rlb".into(),
        on_compare: false,
    });
    h.run_steps(5);
    press(&mut h, egui::Key::F6);
    let demo = h.state().guides.last_demo.clone().expect("a demo");
    assert_eq!(demo.steps.len(), 3, "{demo:?}");
    assert!(demo.steps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    let text = std::fs::read_to_string(dir.join("demo.json")).unwrap();

    // Replay in a fresh app from the file: the same preset, playing, then
    // the swap at its time.
    let mut h = harness();
    h.state_mut().push(AppCommand::LoadScenarioText(text));
    h.run_steps(2);
    assert!(h.state().guides.demo.is_some());
    let start = std::time::Instant::now();
    while h.state().guides.demo.is_some() {
        h.run_steps(1);
        assert!(start.elapsed() < std::time::Duration::from_secs(60));
    }
    let app = h.state();
    assert_eq!(
        app.session.scenario.name,
        app.editor.presets[ring].scenario.name
    );
    assert!(app.playback.playing);
    assert_eq!(app.session.sim.routing_name(), "rlb");
    assert_eq!(app.session.sim.swaps().len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}
