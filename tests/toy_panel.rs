//! A side panel the app has never heard of (issue 66): defined here, added
//! to the app's panel list with one line, it is in the View menu, draws
//! docked on the right with its heading, samples the runs as they run,
//! closes the other right-hand panel when opened (and is closed by it), is
//! opened by a tour's `panel` action, counted by the tour's `expect`, and
//! put back by Back from the tour's snapshot; while open it adds a view of
//! its own left of the run, sets the run's colour scale and paints over
//! the run's view. Nothing in `src/` names it.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::network_view::{Colouring, Overlay};
use routelab::app::panel::{Central, CentralColumn, Panel, PanelContext};
use routelab::app::session::Session;
use routelab::app::theme::Theme;
use routelab::app::tour::overlay::{TourButton, region};
use routelab::app::tour::{Expect, Tour};
use routelab::app::{AppCommand, RoutelabApp, Settings};
use routelab::sim::Simulation;
use std::cell::Cell;
use std::rc::Rc;

/// The toy: it shows the run's cycle, counts its samples and the run
/// views it paints over, and while open draws every channel at 1 in a
/// view of its own, with the run's colour scale topped at 42.
struct Toy {
    open: bool,
    samples: Rc<Cell<u64>>,
    painted: Rc<Cell<u64>>,
}

impl Panel for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn title(&self) -> &'static str {
        "Toy cycle counter"
    }
    fn hover(&self) -> &'static str {
        "Shows the run's cycle"
    }
    fn is_open(&self) -> bool {
        self.open
    }
    fn set_open(&mut self, open: bool, _session: &Session) {
        self.open = open;
    }
    fn sample(&mut self, _sims: &[&Simulation]) {
        self.samples.set(self.samples.get() + 1);
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PanelContext<'_>) {
        ui.label(format!("toy sees cycle {}", cx.session.now()));
    }
    fn central(&self, runs: &[&Simulation], _theme: Theme) -> Option<Central> {
        if !self.open {
            return None;
        }
        let n = runs.first()?.network().num_channels();
        Some(Central {
            column: Some(CentralColumn {
                colouring: Colouring {
                    label: "toy ones".into(),
                    unit: "ones".into(),
                    values: vec![1.0; n],
                },
                title: "toy column".into(),
                overlay: Overlay::default(),
            }),
            runs: Vec::new(),
            runs_overlay: Some(Overlay {
                scale_max: Some(42.0),
                ..Overlay::default()
            }),
        })
    }
    fn paint_over(&self, _p: &egui::Painter, _sim: &Simulation, _r: egui::Rect, _t: Theme) {
        if self.open {
            self.painted.set(self.painted.get() + 1);
        }
    }
}

fn harness(samples: Rc<Cell<u64>>) -> Harness<'static, RoutelabApp> {
    harness_painting(samples, Rc::new(Cell::new(0)))
}

fn harness_painting(
    samples: Rc<Cell<u64>>,
    painted: Rc<Cell<u64>>,
) -> Harness<'static, RoutelabApp> {
    let mut app = RoutelabApp::new(Settings::default());
    // The one line a new panel costs.
    app.panels
        .add(Box::new(Toy {
            open: false,
            samples,
            painted,
        }))
        .unwrap();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut RoutelabApp| app.show(ui), app);
    h.run_steps(2);
    h
}

fn toy_open(h: &Harness<'static, RoutelabApp>) -> bool {
    h.state()
        .panels
        .list()
        .into_iter()
        .any(|p| p.id() == "toy" && p.is_open())
}

#[test]
fn a_toy_panel_is_one_line_away() {
    let samples = Rc::new(Cell::new(0));
    let mut h = harness(samples.clone());
    assert!(h.state().panels.ids().contains(&"toy"));
    // A second panel under the same id is refused.
    let again = h.state_mut().panels.add(Box::new(Toy {
        open: false,
        samples: samples.clone(),
        painted: Rc::new(Cell::new(0)),
    }));
    assert!(again.is_err());
    assert!(h.query_by_label_contains("toy sees cycle").is_none());

    // The View menu lists it; ticking it opens it, docked with its heading.
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Toy cycle counter").click();
    h.run_steps(3);
    assert!(toy_open(&h));
    h.get_by_label_contains("toy sees cycle");
    assert!(
        region(&h.ctx, "toy").is_some(),
        "the panel is a tour region"
    );

    // It samples the runs as they run.
    let before = samples.get();
    h.state_mut().push(AppCommand::Playback(
        routelab::app::playback::PlaybackCommand::Play,
    ));
    h.run_steps(10);
    assert!(samples.get() > before, "no sample while running");
    h.state_mut().push(AppCommand::Playback(
        routelab::app::playback::PlaybackCommand::Pause,
    ));
    h.run();

    // One right-hand panel at a time: opening path selection closes it...
    h.get_by_label("Path selection").click();
    h.run_steps(3);
    assert!(!toy_open(&h));
    assert!(h.state().panels.path_selection.open);
    assert!(h.query_by_label_contains("toy sees cycle").is_none());
    // ... and opening it again closes path selection.
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Toy cycle counter").click();
    h.run_steps(3);
    assert!(toy_open(&h));
    assert!(!h.state().panels.path_selection.open);
}

#[test]
fn the_toy_panel_adds_to_the_network_views() {
    let painted = Rc::new(Cell::new(0));
    let mut h = harness_painting(Rc::new(Cell::new(0)), painted.clone());
    let closed = h.state().views.view_reports.clone();
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0].colour_max, None);
    assert_eq!(painted.get(), 0);
    let app = h.state_mut();
    let toy = app.panels.get_mut("toy").unwrap();
    toy.set_open(true, &app.session);
    h.run_steps(3);
    let open = h.state().views.view_reports.clone();
    assert_eq!(open.len(), 1, "the toy's column is not a run");
    // Its column takes the left of the central area (which the docked
    // panel narrows): the run's view moved right and narrowed.
    assert!(
        open[0].rect.left() > closed[0].rect.left() + 100.0,
        "{open:?} against {closed:?}"
    );
    assert!(open[0].rect.width() < 0.6 * closed[0].rect.width());
    // The run's scale is the toy's, and the toy painted over the run.
    assert_eq!(open[0].colour_max, Some(42.0));
    assert!(painted.get() >= 3, "painted {} times", painted.get());
}

#[test]
fn a_tour_opens_the_toy_panel_and_back_closes_it() {
    let mut h = harness(Rc::new(Cell::new(0)));
    let tour: Tour = serde_json::from_str(
        r#"{"id": "toy-tour", "title": "Toy", "summary": "The toy panel.",
            "steps": [
              {"title": "Before", "text": "Nothing open yet."},
              {"title": "The toy", "text": "The toy panel shows the cycle.",
               "target": "toy", "do": [{"panel": "toy"}], "expect": {"panel": "toy"}}
            ]}"#,
    )
    .unwrap();
    // The tour checks accept the toy's id once the app has it.
    let ids = h.state().panels.ids();
    assert!(routelab::app::tour::problems(&tour, &[], &ids, &[]).is_empty());
    assert!(
        !routelab::app::tour::problems(
            &tour,
            &[],
            &routelab::app::panels::Panels::default().ids(),
            &[]
        )
        .is_empty()
    );
    h.state_mut().guides.tours.push(tour);
    h.state_mut().push(AppCommand::StartTour("toy-tour".into()));
    h.run_steps(3);
    assert!(!toy_open(&h));
    h.state_mut().push(AppCommand::Tour(TourButton::Next));
    h.run_steps(3);
    assert!(toy_open(&h));
    let expect = Expect {
        panel: Some("toy".into()),
        ..Expect::default()
    };
    assert!(h.state().tour_expect_problems(&expect).is_empty());
    assert!(region(&h.ctx, "toy").is_some());
    // Back restores the first step's snapshot: no toy.
    h.state_mut().push(AppCommand::Tour(TourButton::Back));
    h.run_steps(3);
    assert!(!toy_open(&h));
    assert!(!h.state().tour_expect_problems(&expect).is_empty());
}
