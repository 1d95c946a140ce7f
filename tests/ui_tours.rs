//! Guided tours (issue 15): every built-in tour runs from start to end
//! through the app's own commands, each step's expected state holds after
//! its actions, the region it points at is on screen, and every step that
//! waits for an event sees it happen.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::tour::overlay::{TourButton, region};
use routelab::app::tour::{self, Wait};
use routelab::app::{AppCommand, RoutelabApp, Settings, presets};
use std::time::{Duration, Instant};

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

#[test]
fn every_tour_file_is_valid() {
    let (tours, problems) = tour::all();
    assert!(problems.is_empty(), "{problems:?}");
    assert!(tours.len() >= 4, "a tour per paper and the app's own");
    let (presets, _) = presets::all();
    let files: Vec<&str> = presets.iter().map(|p| p.source.as_str()).collect();
    for t in &tours {
        let p = tour::problems(t, &files, tour::PANELS, tour::METRICS);
        assert!(p.is_empty(), "{p:?}");
    }
}

#[test]
fn every_tour_runs_from_start_to_end() {
    let mut h = harness();
    let tours = h.state().tours.clone();
    for t in &tours {
        h.state_mut().push(AppCommand::StartTour(t.id.clone()));
        h.run_steps(1);
        for (i, step) in t.steps.iter().enumerate() {
            let at = format!("tour {} step {} ({})", t.id, i + 1, step.title);
            assert_eq!(h.state().tour.as_ref().map(|r| r.step), Some(i), "{at}");
            h.run_steps(3);
            let problems = h.state().tour_expect_problems(&step.expect);
            assert!(problems.is_empty(), "{at}: {problems:?}");
            assert!(
                h.state().message.as_ref().is_none_or(|m| !m.is_error),
                "{at}: {:?}",
                h.state().message
            );
            if let Some(target) = &step.target {
                assert!(
                    region(&h.ctx, target).is_some(),
                    "{at}: {target} is not on screen"
                );
            }
            match &step.wait {
                Wait::Next => {
                    h.state_mut().push(AppCommand::Tour(TourButton::Next));
                    h.run_steps(1);
                }
                w => {
                    let start = Instant::now();
                    while h.state().tour.as_ref().map(|r| r.step) == Some(i) {
                        h.run_steps(1);
                        assert!(
                            start.elapsed() < Duration::from_secs(120),
                            "{at}: {w:?} never happened ({:?})",
                            h.state().tour_observed()
                        );
                    }
                }
            }
        }
        assert!(
            h.state().tour.is_none(),
            "tour {} ends after its last step",
            t.id
        );
    }
}

#[test]
fn keys_move_through_a_tour_and_a_bad_id_names_the_tours() {
    let mut h = harness();
    h.state_mut().push(AppCommand::StartTour("singh".into()));
    h.run_steps(3);
    assert_eq!(h.state().tour.as_ref().map(|r| r.step), Some(0));
    // Step 1 waits for latency; Enter moves on anyway.
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().tour.as_ref().map(|r| r.step), Some(1));
    h.state_mut().push(AppCommand::Tour(TourButton::Back));
    h.run_steps(2);
    assert_eq!(h.state().tour.as_ref().map(|r| r.step), Some(0));
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.state().tour.is_none());
    let e = h.state_mut().start_tour("nope").unwrap_err();
    assert!(
        e.contains("singh") && e.contains("first-five-minutes"),
        "{e}"
    );
    assert_eq!(tour::requested("#tour=singh").as_deref(), Some("singh"));
    assert_eq!(
        tour::requested("#scenario=%7B%7D&tour=drb").as_deref(),
        Some("drb")
    );
    assert_eq!(tour::requested("#scenario=x"), None);
}

#[test]
fn tours_are_in_the_help_menu() {
    let mut h = harness();
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("The first five minutes").click();
    h.run_steps(3);
    assert_eq!(
        h.state().tour.as_ref().map(|r| r.tour.id.as_str()),
        Some("first-five-minutes")
    );
    assert!(h.query_all_by_label_contains("step 1 of").next().is_some());
}
