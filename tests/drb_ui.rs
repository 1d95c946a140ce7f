//! DRB in the app (egui_kittest, no GPU): the latency surface exists for a
//! torus, has a legend, turns when dragged and zooms on a right-drag; the
//! DRB panel appears for a DRB run, picks a pair and shows its metapath.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::{AppCommand, CentralView, RoutelabApp, Settings};
use routelab::scenario::Scenario;

fn harness(routing: &str) -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.state_mut().push(AppCommand::Apply(Box::new(Scenario {
        topology: "torus:8x8".into(),
        routing: routing.into(),
        traffic: "hotspot:fraction=0.2:nodes=27".into(),
        vcs: 12,
        load: 0.3,
        warmup: 0,
        ..Scenario::default()
    })));
    h.run();
    h
}

#[test]
fn the_latency_surface_has_a_legend_and_turns_when_dragged() {
    let mut h = harness("dor");
    h.get_by_label("Compare").click();
    h.run();
    h.get_by_label("Latency surface").click();
    h.run();
    assert_eq!(h.state().central_view, CentralView::Surface);
    h.get_by_label("Step 100").click();
    h.run();
    h.get_by_label_contains("Legend: colour and height");
    let before = h.state().surface;
    h.get_by_label_contains(&format!("View: yaw {}°", before.angles_deg().0));
    // Drag across the surface: the view turns.
    let r = h.get_by_label("Latency surface drawing").rect();
    let c = r.center();
    h.hover_at(c);
    h.run();
    h.drag_at(c);
    h.run();
    h.hover_at(c + egui::vec2(80.0, 30.0));
    h.run();
    h.drop_at(c + egui::vec2(80.0, 30.0));
    h.run();
    let after = h.state().surface;
    assert_ne!(after.yaw, before.yaw, "dragging turns the surface");
    assert_ne!(after.pitch, before.pitch);
    h.get_by_label_contains(&format!("View: yaw {}°", after.angles_deg().0));
    h.get_by_label("Reset view").click();
    h.run();
    assert_eq!(h.state().surface.yaw, before.yaw);
}

#[test]
fn the_drb_panel_shows_expansion_and_a_picked_pair() {
    let mut h = harness("drb");
    h.get_by_label("DRB metapaths");
    h.get_by_label("Step 100").click();
    h.run();
    for _ in 0..10 {
        h.get_by_label("Step 100").click();
        h.run();
    }
    h.get_by_label_contains("pairs expanded");
    h.get_by_label("Pick on the network").click();
    h.run();
    h.get_by_label("Click the source switch");
    let app = h.state_mut();
    app.drb.source = Some(0);
    app.drb.destination = Some(27);
    app.drb.picking = false;
    for _ in 0..5 {
        h.get_by_label("Step 100").click();
        h.run();
    }
    h.get_by_label_contains("Pair 0 to 27");
    h.get_by_label("share");
}
