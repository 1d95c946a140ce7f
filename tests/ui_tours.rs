//! Guided tours (issue 15): every built-in tour runs from start to end
//! through the app's own commands, each step's expected state holds after
//! its actions, the region it points at is on screen, and every step that
//! waits for an event sees it happen.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::playback::PlaybackCommand;
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
        let p = tour::problems(
            t,
            &files,
            &routelab::app::panels::Panels::default().ids(),
            tour::METRICS,
        );
        assert!(p.is_empty(), "{p:?}");
    }
}

#[test]
fn every_tour_runs_from_start_to_end() {
    let mut h = harness();
    let tours = h.state().guides.tours.clone();
    for t in &tours {
        h.state_mut().push(AppCommand::StartTour(t.id.clone()));
        h.run_steps(1);
        for (i, step) in t.steps.iter().enumerate() {
            let at = format!("tour {} step {} ({})", t.id, i + 1, step.title);
            assert_eq!(
                h.state().guides.tour.as_ref().map(|r| r.step),
                Some(i),
                "{at}"
            );
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
                    // Next is refused until the wait holds, and the tour
                    // never moves on by itself. (A command is applied at
                    // the start of a frame, before the wait is looked at.)
                    if !h.state().guides.tour.as_ref().is_some_and(|r| r.ready) {
                        h.state_mut().push(AppCommand::Tour(TourButton::Next));
                        h.run_steps(1);
                        assert_eq!(
                            h.state().guides.tour.as_ref().map(|r| r.step),
                            Some(i),
                            "{at}: Next moved on before {w:?} held"
                        );
                    }
                    let start = Instant::now();
                    while !h.state().guides.tour.as_ref().is_some_and(|r| r.ready) {
                        assert_eq!(
                            h.state().guides.tour.as_ref().map(|r| r.step),
                            Some(i),
                            "{at}: moved on before {w:?} held"
                        );
                        h.run_steps(1);
                        assert!(
                            start.elapsed() < Duration::from_secs(120),
                            "{at}: {w:?} never happened ({:?})",
                            h.state().tour_observed()
                        );
                    }
                    h.run_steps(3);
                    assert_eq!(
                        h.state().guides.tour.as_ref().map(|r| r.step),
                        Some(i),
                        "{at}: the tour moved on by itself"
                    );
                    h.state_mut().push(AppCommand::Tour(TourButton::Next));
                    h.run_steps(1);
                }
            }
        }
        assert!(
            h.state().guides.tour.is_none(),
            "tour {} ends after its last step",
            t.id
        );
    }
}

#[test]
fn keys_move_through_a_tour_and_a_bad_id_names_the_tours() {
    let mut h = harness();
    h.state_mut().push(AppCommand::StartTour("singh".into()));
    // The step's actions (load, play) are issued at the end of this frame;
    // pause before any cycle runs, so its wait cannot hold yet.
    h.run_steps(1);
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Pause));
    h.run_steps(1);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(0));
    assert!(!h.state().guides.tour.as_ref().unwrap().ready);
    // Step 1 waits for latency: Enter does nothing until it has risen,
    // then moves on exactly one step.
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(0));
    h.state_mut()
        .push(AppCommand::Playback(PlaybackCommand::Play));
    let start = Instant::now();
    while !h.state().guides.tour.as_ref().is_some_and(|r| r.ready) {
        h.run_steps(1);
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "latency never rose"
        );
    }
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(1));
    h.state_mut().push(AppCommand::Tour(TourButton::Back));
    h.run_steps(2);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(0));
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.state().guides.tour.is_none());
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
        h.state().guides.tour.as_ref().map(|r| r.tour.id.as_str()),
        Some("first-five-minutes")
    );
    assert!(h.query_all_by_label_contains("step 1 of").next().is_some());
}

/// Run the tour's current step until its wait holds (Next enabled).
fn until_ready(h: &mut Harness<'_, RoutelabApp>) {
    let start = Instant::now();
    while !h
        .state()
        .guides
        .tour
        .as_ref()
        .is_some_and(|r| r.can_advance())
    {
        h.run_steps(1);
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the wait never held"
        );
    }
}

fn next(h: &mut Harness<'_, RoutelabApp>) {
    h.state_mut().push(AppCommand::Tour(TourButton::Next));
    h.run_steps(2);
}

/// The first tour tells the truth (the stage issue): step 4's hot spot is
/// measured before Next, step 5's swap lies after the warm-up with
/// measurements on both sides, and step 6 compares two different routings
/// whose accepted throughput differs; Back from step 4 restores step 3's
/// uniform traffic.
#[test]
fn the_first_tour_shows_what_it_says() {
    let mut h = harness();
    h.state_mut()
        .push(AppCommand::StartTour("first-five-minutes".into()));
    h.run_steps(3);
    next(&mut h); // to step 2
    until_ready(&mut h);
    next(&mut h); // to step 3
    next(&mut h); // to step 4: tornado
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(3));
    assert_eq!(h.state().session.scenario.traffic, "tornado");
    // Back restores step 3's state: uniform traffic.
    h.state_mut().push(AppCommand::Tour(TourButton::Back));
    h.run_steps(2);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(2));
    assert_eq!(h.state().session.scenario.traffic, "uniform");
    next(&mut h);
    assert_eq!(h.state().guides.tour.as_ref().map(|r| r.step), Some(3));
    until_ready(&mut h);
    let warmup = h.state().session.sim.measure().warmup;
    assert!(h.state().session.now() > warmup, "measured before Next");
    next(&mut h); // to step 5: the swap
    until_ready(&mut h);
    let sim = &h.state().session.sim;
    let swaps = sim.swaps();
    assert_eq!(swaps.len(), 2, "{swaps:?}");
    let (at, to) = swaps[1].clone();
    let at = &at;
    assert_eq!(to, "rlb");
    assert!(
        *at > warmup,
        "the swap at cycle {at} is inside the warm-up ({warmup})"
    );
    let windows = sim.stats().windows();
    assert!(windows.iter().any(|w| w.cycle < *at && w.cycle > warmup));
    assert!(windows.iter().any(|w| w.cycle > *at + 1000));
    let at = *at;
    let at = &at;
    // The marker is drawn on both plots at the swap's cycle.
    h.run_steps(2);
    let reports = h.state().views.plot_reports.clone();
    assert_eq!(reports.len(), 2);
    for r in &reports {
        assert!(
            r.markers.iter().any(|m| m.1 == *at && m.2 == "rlb"),
            "{r:?}"
        );
        // Something to see: the curves fill their plot (the swap's label
        // once stretched the y axis a margin a frame, and this step's
        // picture showed two lines flat on zero).
        assert!(
            r.drawn_max > 0.0 && r.y_range[1] <= 1.5 * r.drawn_max,
            "{}: y to {} for data up to {}",
            r.id,
            r.y_range[1],
            r.drawn_max
        );
    }
    next(&mut h); // to step 6: compare
    until_ready(&mut h);
    let a = &h.state().session.sim;
    let b = h.state().session.compare.as_ref().expect("comparing");
    assert_ne!(a.routing_name(), b.routing_name());
    let (ta, tb) = (a.summary().accepted, b.summary().accepted);
    assert!(
        ta > tb * 1.1,
        "RLB (A) accepts {ta}, DOR (B) {tb}: the comparison should show the difference"
    );
}
