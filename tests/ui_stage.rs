//! The stage issue's bars, checked on what the app draws: legends that never
//! hide data, swap markers on every plot, a presenter layout that gives the
//! room to the network and the curves, axes with numbers at any span and
//! height, presets that start clean, one colour scale when comparing, and
//! clicks that land on the switch under the pointer.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use routelab::app::network_view::{Selected, ViewTransform};
use routelab::app::playback::PlaybackCommand;
use routelab::app::{AppCommand, RoutelabApp, Settings};

fn harness_sized(w: f32, h: f32) -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run_steps(2);
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
}

/// Step the simulation `n` cycles (paused), then draw.
fn step(h: &mut Harness<'_, RoutelabApp>, n: u64) {
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Step(n)));
    h.run_steps(2);
}

/// After five swaps on the DRB hot-spot preset (the stage issue's first
/// finding), each plot's legend has one entry per run plus the offered
/// load, none of them covers the newest 10 % of the plot's data area (nor
/// any of it), and every swap is a marker on both plots at its cycle.
#[test]
fn legends_stay_off_the_data_and_swaps_are_marked_on_both_plots() {
    let mut h = harness_sized(1400.0, 900.0);
    load_preset_file(&mut h, "drb-torus8-hotspot.json");
    let warmup = h.state().session.sim.measure().warmup;
    step(&mut h, warmup + 2000);
    for _ in 0..5 {
        h.key_press(egui::Key::B);
        h.run_steps(1);
        // A DRB spec whose threshold is not measured on this router yet
        // swaps once it is (issue 65; on a thread of its own natively).
        while h.state().background.threshold_wait.is_some() {
            std::thread::sleep(std::time::Duration::from_millis(5));
            h.step();
        }
        step(&mut h, 1000);
    }
    let swaps = h.state().session.sim.swaps().to_vec();
    assert_eq!(swaps.len(), 6, "{swaps:?}");
    let reports = h.state().views.plot_reports.clone();
    assert_eq!(reports.len(), 2, "two live plots");
    for r in &reports {
        assert_eq!(
            r.legend.len(),
            2,
            "{}: one entry for run A and one for the offered load: {:?}",
            r.id,
            r.legend
        );
        let newest = egui::Rect::from_min_max(
            egui::pos2(
                r.data_rect.max.x - 0.1 * r.data_rect.width(),
                r.data_rect.min.y,
            ),
            r.data_rect.max,
        );
        for (label, rect) in &r.legend {
            assert!(
                !rect.intersects(newest),
                "{}: legend entry `{label}` at {rect:?} covers the newest data {newest:?}",
                r.id
            );
            assert!(
                !rect.intersects(r.data_rect),
                "{}: legend entry `{label}` covers the data area",
                r.id
            );
        }
        for (cycle, routing) in swaps.iter().skip(1) {
            assert!(
                r.markers.iter().any(|m| m.1 == *cycle && m.2 == *routing),
                "{}: no marker for the swap to {routing} at {cycle}: {:?}",
                r.id,
                r.markers
            );
        }
    }
    // One cycle at one x on both plots: the same span, and data areas
    // that start and end at the same place (the latency axis's labels,
    // `100`, are wider than the throughput axis's, `0.2`).
    crate::support::plots::assert_one_x(&reports[0], &reports[1]);
}

/// A load sweep's two plots (latency, accepted) share their loads' span
/// and their data areas' edges, though the latency plot leaves out the
/// saturated points and its axis is numbered wider.
#[test]
fn sweep_plots_put_one_load_at_one_x() {
    let mut h = harness_sized(1400.0, 900.0);
    load_preset_file(&mut h, "torus-dor-uniform.json");
    {
        let s = &mut h.state_mut().settings.sweep;
        s.load_from = 0.1;
        s.load_to = 0.9;
        s.load_step = 0.2;
        s.cycles = 500;
        s.stop_at_saturation = false;
    }
    h.state_mut().push(AppCommand::StartSweep);
    h.run_steps(1);
    for _ in 0..2000 {
        if !h.state().background.sweep.is_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(1);
    }
    assert!(
        !h.state().background.sweep.is_running(),
        "the sweep did not finish"
    );
    h.run();
    let reports = h.state().views.plot_reports.clone();
    let ids: Vec<&str> = reports.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["sweep_latency", "sweep_accepted"]);
    let points = h.state().background.sweep.progress().points;
    assert_eq!(points.len(), 5, "{points:?}");
    crate::support::plots::assert_one_x(&reports[0], &reports[1]);
    assert!(reports[0].x_range[1] >= 0.9, "{:?}", reports[0].x_range);
}

/// B steps across families from a DRB preset (to DOR, not another DRB),
/// C compares with the preset's own contrast, and the Balancer box shows
/// run A's routing after each swap.
#[test]
fn b_crosses_families_and_c_uses_the_presets_contrast() {
    let mut h = harness_sized(1400.0, 900.0);
    load_preset_file(&mut h, "drb-torus8-hotspot.json");
    h.key_press(egui::Key::B);
    h.run_steps(2);
    let now = h.state().session.sim.routing_name();
    assert!(now.starts_with("dor"), "B from DRB went to {now}");
    assert_eq!(h.state().settings.swap_routing, now);
    h.key_press(egui::Key::C);
    h.run_steps(2);
    let want = h.state().session.scenario.compare_with.clone();
    assert!(want.is_some(), "the DRB preset names its contrast");
    let b = h
        .state()
        .session
        .compare
        .as_ref()
        .map(|b| b.routing_name())
        .expect("C compares");
    let want = want.unwrap();
    assert!(
        b.starts_with(want.split(':').next().unwrap()),
        "run B is {b}, the preset's contrast {want}"
    );
}

/// Presenter mode at 1920x1080: the central view takes at least 60 % of
/// the width and each plot is at least 180 px tall; leaving it restores
/// the normal style exactly.
#[test]
fn presenter_mode_gives_the_room_to_the_network_and_the_curves() {
    for preset in ["torus-dor-tornado.json", "oblivious-c-torus8-tornado.json"] {
        presenter_layout(preset);
    }
}

fn presenter_layout(preset: &str) {
    use routelab::app::tour::overlay::region;
    let mut h = harness_sized(1920.0, 1080.0);
    load_preset_file(&mut h, preset);
    let style_before = h.ctx.style_of(egui::Theme::Dark);
    let warmup = h.state().session.sim.measure().warmup;
    // Presenter mode first, then the run plays in it (as a talk does).
    h.key_press(egui::Key::F5);
    h.run_steps(2);
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::RunUntil(
            warmup + 3000,
        )));
    for _ in 0..400 {
        h.run_steps(1);
        if h.state().session.now() >= warmup + 3000 {
            break;
        }
    }
    h.run_steps(3);
    assert!(h.state().guides.presenter.on);
    let ppp = h.ctx.pixels_per_point();
    let window_px = 1920.0;
    let view = region(&h.ctx, "network").expect("the network view");
    assert!(
        view.width() * ppp >= 0.6 * window_px,
        "the central view is {} px wide of {window_px}",
        view.width() * ppp
    );
    let reports = h.state().views.plot_reports.clone();
    assert_eq!(reports.len(), 2);
    let texts = painted_texts(h.output());
    for r in &reports {
        assert!(
            r.rect.height() * ppp >= 180.0,
            "{} is {} px tall",
            r.id,
            r.rect.height() * ppp
        );
        // Its y axis is numbered (three or more) at presenter mode's size.
        let y: Vec<&String> = texts
            .iter()
            .filter(|(t, t_rect)| {
                is_number(t)
                    && t_rect.max.x <= r.data_rect.min.x + 1.0
                    && t_rect.min.x >= r.data_rect.min.x - 90.0
                    && t_rect.center().y >= r.data_rect.min.y - 2.0
                    && t_rect.center().y <= r.data_rect.max.y + 2.0
            })
            .map(|(t, _)| t)
            .collect();
        assert!(y.len() >= 3, "{preset}, {}: y ticks {y:?}", r.id);
    }
    h.key_press(egui::Key::F5);
    h.run_steps(4);
    assert!(!h.state().guides.presenter.on);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    assert_eq!(*h.ctx.style_of(egui::Theme::Dark), *style_before);
}

/// Every text painted legibly in the last frame (at least half opaque:
/// egui_plot fades tick labels in as their spacing grows, and a faded one
/// is painted but not seen), with its position.
fn painted_texts(out: &egui::FullOutput) -> Vec<(String, egui::Rect)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, egui::Rect)>) {
        match shape {
            egui::Shape::Text(t)
                if t.opacity_factor >= 0.5
                    && t.override_text_color.unwrap_or(t.fallback_color).a() >= 128 =>
            {
                out.push((t.galley.text().to_string(), t.visual_bounding_rect()))
            }
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut v = Vec::new();
    for c in &out.shapes {
        walk(&c.shape, &mut v);
    }
    v
}

fn is_number(t: &str) -> bool {
    let t = t.trim().trim_end_matches('k');
    !t.is_empty() && t.parse::<f64>().is_ok()
}

/// At x spans of 3 380, 19 000 and 100 000 cycles and plot heights of 60,
/// 200 and 330 px, every axis shows at least three numbered ticks (the stage
/// issue: none on x near 3 380 or 19 000 cycles, only 0 on y).
#[test]
fn axes_show_three_numbers_at_any_span_and_height() {
    // Latencies near 50 cycles, and an accepted throughput near 0.4
    // flits/host/cycle (what the live plots show).
    for (span, height, low, high) in [3380.0, 19_000.0, 100_000.0]
        .into_iter()
        .flat_map(|span| [60.0f32, 200.0, 330.0].map(move |h| (span, h)))
        .flat_map(|(span, h)| [(40.0, 55.0), (0.23, 0.42)].map(move |(l, hi)| (span, h, l, hi)))
    {
        {
            let data_rect = std::cell::Cell::new(egui::Rect::NOTHING);
            let mut h = Harness::builder()
                // Room for the plot at presenter mode's zoom.
                .with_size(egui::vec2(1000.0, height * 1.4 + 60.0))
                .build_ui(|ui| {
                    let r = routelab::app::plot_axes::plot(
                        "ticks",
                        "cycle",
                        "latency (cycles)",
                        height,
                    )
                    .include_y(0.0)
                    .show(ui, |p| {
                        let pts: Vec<[f64; 2]> = (0..=100)
                            .map(|i| {
                                let x = span * i as f64 / 100.0;
                                [x, low + (high - low) * (x / span)]
                            })
                            .collect();
                        p.line(egui_plot::Line::new("A", pts));
                    });
                    data_rect.set(*r.transform.frame());
                });
            h.ctx.set_zoom_factor(1.4);
            h.run_steps(3);
            let frame = data_rect.get();
            let texts = painted_texts(h.output());
            let below: Vec<&String> = texts
                .iter()
                .filter(|(t, r)| is_number(t) && r.min.y >= frame.max.y - 1.0)
                .map(|(t, _)| t)
                .collect();
            let left: Vec<&String> = texts
                .iter()
                .filter(|(t, r)| is_number(t) && r.max.x <= frame.min.x + 1.0)
                .map(|(t, _)| t)
                .collect();
            assert!(
                below.len() >= 3,
                "span {span}, height {height}: x ticks {below:?}, data {frame:?}, texts {texts:?}"
            );
            assert!(
                left.len() >= 3,
                "span {span}, height {height}: y ticks {left:?}, data {frame:?}, texts {texts:?}"
            );
        }
    }
}

/// Loading any preset after any other leaves no comparison, no notice of
/// the last one, no colouring that does not apply, and a Balancer box
/// showing run A's routing: every preset in sequence, each after the
/// last one was made as dirty as a demo makes it.
#[test]
fn every_preset_starts_clean_after_any_other() {
    use routelab::app::network_view::Metric;
    let mut h = harness_sized(1280.0, 800.0);
    let n = h.state().editor.presets.len();
    for i in 0..n {
        // Dirty: a comparison, a notice, the crossing-paths colouring, a
        // swap.
        h.key_press(egui::Key::C);
        h.run_steps(1);
        h.key_press(egui::Key::B);
        h.run_steps(1);
        h.state_mut().settings.metric = Metric::CrossingPaths;
        h.state_mut().push(AppCommand::LoadPreset(i));
        h.run_steps(2);
        let app = h.state();
        let source = &app.editor.presets[i].source;
        assert!(app.session.compare.is_none(), "{source}: still comparing");
        assert!(app.message.is_none(), "{source}: {:?}", app.message);
        assert!(
            app.settings.metric.available(&app.session.sim),
            "{source}: greyed colouring {:?}",
            app.settings.metric
        );
        assert_eq!(
            app.settings.swap_routing,
            app.session.sim.routing_name(),
            "{source}: the Balancer box"
        );
        assert_eq!(
            app.session.scenario, app.editor.presets[i].scenario,
            "{source}"
        );
    }
}

/// Comparing, the two runs' network views share one colour range.
#[test]
fn comparing_heatmaps_share_one_colour_range() {
    let mut h = harness_sized(1400.0, 900.0);
    load_preset_file(&mut h, "oblivious-c-torus8-tornado.json");
    // The analysis beside the runs has its own shared scale: close it, so
    // the runs' own colourings are what is compared.
    h.state_mut().panels.oblivious.open = false;
    h.key_press(egui::Key::C);
    h.run_steps(2);
    assert!(
        h.state().session.compare.is_some(),
        "{:?}",
        h.state().message
    );
    let warmup = h.state().session.sim.measure().warmup;
    step(&mut h, warmup + 2000);
    let views = h.state().views.view_reports.clone();
    assert_eq!(views.len(), 2, "{views:?}");
    assert!(views[0].colour_max.is_some(), "{views:?}");
    assert_eq!(views[0].colour_max, views[1].colour_max);
}

/// A click at a switch's centre selects that switch, before and after the
/// selection's details open (the stage issue: the details panel moved
/// the view, and 0 → 27 became 0 → 30).
#[test]
fn a_click_lands_on_the_switch_under_the_pointer() {
    let mut h = harness_sized(1400.0, 900.0);
    load_preset_file(&mut h, "torus-dor-uniform.json");
    for target in [0u32, 27, 45] {
        let view = h.state().views.view_reports[0].rect;
        let net = h.state().session.sim.network().clone();
        let xf = ViewTransform::new(&net, view).expect("a drawn network");
        let p = xf.switch(&net, target);
        h.hover_at(p);
        h.run_steps(1);
        h.drag_at(p);
        h.run_steps(1);
        h.drop_at(p);
        h.run_steps(2);
        assert_eq!(
            h.state().views.selected,
            Some(Selected::Switch(target)),
            "clicked switch {target} at {p:?}"
        );
        assert_eq!(h.state().views.view_reports[0].rect, view, "the view moved");
    }
}
