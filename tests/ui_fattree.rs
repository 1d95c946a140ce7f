//! The time-slice model's fat tree in the app (egui_kittest, no GPU): its
//! arrows have a colour scale with the metric's unit in slices and
//! messages, the details and the status bar count slices and messages, and
//! k = 16 is drawn with its pods folded, one unfolding on a click.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use routelab::app::{AppCommand, RoutelabApp, Settings};

fn harness() -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run();
    h
}

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
    h.run();
}

fn count(h: &Harness<'_, RoutelabApp>, part: &str) -> usize {
    h.query_all_by_label_contains(part).count()
}

/// What a node says: its label, or its value (plain labels carry their
/// text there).
fn text_of(n: &egui_kittest::Node<'_>) -> String {
    let node = n.accesskit_node();
    node.label()
        .filter(|l| !l.is_empty())
        .or_else(|| node.value())
        .unwrap_or_default()
}

/// The arrows' colour scale is in the key under the drawing, with the
/// metric and its unit in the model's words, and its top follows the run.
#[test]
fn the_arrows_have_a_colour_scale_with_its_unit() {
    let mut h = harness();
    load_preset_file(&mut h, "fattree-greedy.json");
    assert_eq!(h.state().session.sim.switch_model(), "timeslice");
    // During the warm-up the utilization is not measured yet: the scale
    // says from which slice, and its top is 0.
    h.get_by_label_contains("Arrow colour scale: Utilization (from slice 200");
    for _ in 0..3 {
        h.get_by_label("Step 100").click();
        h.run();
    }
    let scale = h.get_by_label_contains("Arrow colour scale: Utilization, 0 to ");
    let label = text_of(&scale);
    assert!(label.ends_with(" messages/slice"), "{label}");
    let top: f64 = label
        .trim_end_matches(" messages/slice")
        .rsplit(' ')
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{label}"));
    assert!(top > 0.0, "{label}");
    h.get_by_label_contains("Bar fill scale");
    h.get_by_label_contains("Arrow width: messages moved in slice");
    // Nothing on the screen counts flits.
    let flits: Vec<String> = h
        .query_all_by_label_contains("flits")
        .map(|n| text_of(&n))
        .collect();
    assert!(flits.is_empty(), "{flits:?}");
}

/// The details of a switch and the status bar count slices and messages.
#[test]
fn details_and_status_speak_of_slices_and_messages() {
    let mut h = harness();
    load_preset_file(&mut h, "fattree-greedy.json");
    h.get_by_label("Step 100").click();
    h.run();
    h.get_by_label_contains("Switch 5 buffer:").click();
    h.run();
    let details = h.get_by_label_contains("Mean latency of messages to it:");
    let text = text_of(&details);
    assert!(text.ends_with("slices"), "{text}");
    assert!(h.query_by_label_contains("Mean head wait in it").is_none());
    assert!(h.query_by_label_contains("messages in flight").is_some());
    assert!(h.query_by_label_contains("packets in flight").is_none());
    // The rate is in slices too (shown while it runs; paused, "paused").
    h.get_by_label("paused");
    h.get_by_label("Play").click();
    h.run_steps(3);
    assert!(h.query_by_label_contains("slices/s").is_some());
    assert!(h.query_by_label_contains("cycles/s").is_none());
}

/// k = 16: the pods are folded (only the 64 core switches drawn as bars,
/// one button per pod); a click unfolds one pod (its 16 switches drawn),
/// a click on its header folds it again. k = 8 still draws every switch.
#[test]
fn k16_folds_its_pods_and_unfolds_one_on_a_click() {
    let mut h = harness();
    load_preset_file(&mut h, "fattree8-greedy.json");
    assert_eq!(count(&h, "buffer:"), 80, "k = 8 draws every switch");
    assert_eq!(count(&h, ", folded:"), 0);

    load_preset_file(&mut h, "fattree16-greedy.json");
    assert_eq!(h.state().session.sim.network().num_switches(), 320);
    assert_eq!(count(&h, "buffer:"), 64, "only the core switches");
    assert_eq!(count(&h, ", folded:"), 16, "one block per pod");
    h.get_by_label_contains("Pod 3, folded:").click();
    h.run();
    assert_eq!(count(&h, "buffer:"), 64 + 16);
    assert_eq!(count(&h, ", folded:"), 15);
    // Pod 3: access switches 24-31, aggregate switches 152-159.
    h.get_by_label_contains("Switch 24 buffer:");
    h.get_by_label_contains("Switch 159 buffer:");
    assert!(h.query_by_label_contains("Switch 32 buffer:").is_none());
    // Its switches select like any other.
    h.get_by_label_contains("Switch 152 buffer:").click();
    h.run();
    assert_eq!(
        h.state().views.selected,
        Some(routelab::app::network_view::Selected::Switch(152))
    );
    h.get_by_label("Fold pod 3").click();
    h.run();
    assert_eq!(count(&h, ", folded:"), 16);
    assert!(h.query_by_label_contains("Switch 24 buffer:").is_none());
    // The details panel still shows the selected switch's buffer.
    assert_eq!(count(&h, "buffer:"), 64 + 1);
}

/// A demo's (or tour's) `pod` action unfolds a pod as a click does, and
/// `null` folds it again; a pod the tree does not have, or a network that
/// is not a fat tree, is refused with a message naming the pods there are.
#[test]
fn a_demo_unfolds_and_folds_a_pod() {
    let mut h = harness();
    let demo = |actions: &str| {
        AppCommand::LoadScenarioText(format!(r#"{{"demo": "routelab", "steps": [{actions}]}}"#))
    };
    h.state_mut().push(demo(
        r#"{"at_ms": 0, "action": {"preset": "fattree16-greedy.json"}},
           {"at_ms": 0, "action": {"pod": 9}}"#,
    ));
    for _ in 0..5 {
        h.run_steps(2);
        h.run();
    }
    assert_eq!(h.state().session.sim.network().num_switches(), 320);
    h.get_by_label("Fold pod 9");
    assert_eq!(count(&h, ", folded:"), 15);
    h.get_by_label_contains("Switch 72 buffer:");
    let spec = h.state().session.sim.network().spec().to_string();
    assert_eq!(
        routelab::app::fat_tree_view::unfolded(&h.ctx, &spec),
        Some(9)
    );

    h.state_mut()
        .push(demo(r#"{"at_ms": 0, "action": {"pod": null}}"#));
    for _ in 0..3 {
        h.run_steps(2);
        h.run();
    }
    assert_eq!(count(&h, ", folded:"), 16);

    h.state_mut()
        .push(demo(r#"{"at_ms": 0, "action": {"pod": 16}}"#));
    for _ in 0..3 {
        h.run_steps(2);
        h.run();
    }
    let m = h.state().message.clone().expect("a message");
    assert!(m.is_error && m.text.contains("pods 0 to 15"), "{m:?}");
    assert_eq!(count(&h, ", folded:"), 16);

    h.state_mut().push(demo(
        r#"{"at_ms": 0, "action": {"preset": "torus-dor-uniform.json"}},
           {"at_ms": 0, "action": {"pod": 1}}"#,
    ));
    for _ in 0..5 {
        h.run_steps(2);
        h.run();
    }
    let m = h.state().message.clone().expect("a message");
    assert!(m.is_error && m.text.contains("is not a fat tree"), "{m:?}");

    // A fat tree on the input-queued model is drawn switch by switch (no
    // pods to unfold): the action says so instead of doing nothing.
    h.state_mut().push(demo(
        r#"{"at_ms": 0, "action": {"preset": "fattree-dmodk-uniform.json"}},
           {"at_ms": 0, "action": {"set": {"topology": "fattree:16"}}},
           {"at_ms": 0, "action": {"pod": 3}}"#,
    ));
    for _ in 0..5 {
        h.run_steps(2);
        h.run();
    }
    assert_eq!(h.state().session.sim.network().spec(), "fattree:16");
    assert_eq!(h.state().session.sim.switch_model(), "input-queued");
    let m = h.state().message.clone().expect("a message");
    assert!(
        !m.is_error && m.text.contains("pods fold only") && m.text.contains("input-queued"),
        "{m:?}"
    );
}

/// The time-slice plots (latency, and the success rate of the requests
/// begun in each window) share one x span: the success plot's last
/// windows are still being judged, and its axis used to end a window or
/// two before the latency plot's, so one slice sat at two places on the
/// screen.
#[test]
fn the_latency_and_success_plots_span_the_same_slices() {
    let mut h = harness();
    load_preset_file(&mut h, "fattree-greedy.json");
    for _ in 0..6 {
        h.get_by_label("Step 100").click();
        h.run();
    }
    let reports = h.state().views.plot_reports.clone();
    let ids: Vec<&str> = reports.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["slice_latency", "slice_success"]);
    let sim = &h.state().session.sim;
    let last_latency = sim.stats().windows().last().expect("windows").cycle as f64;
    let last_success = sim
        .deadlines()
        .and_then(|d| {
            d.windows()
                .iter()
                .filter(|w| w.rate.is_finite())
                .map(|w| w.end as f64)
                .reduce(f64::max)
        })
        .expect("judged success windows");
    // The case the shared span is for: the success data ends earlier.
    assert!(last_success < last_latency, "{last_success} {last_latency}");
    // One span and one data area's edges, though the latency axis is
    // numbered `5` and the success axis `100`.
    crate::support::plots::assert_one_x(&reports[0], &reports[1]);
    let a = reports[0].x_range;
    assert!(
        a[1] >= last_latency,
        "{a:?} ends before slice {last_latency}"
    );
}
