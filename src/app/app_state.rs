//! The app's state in groups ([`super::RoutelabApp`] holds one of each),
//! so that the app is a handful of fields a reader can name: the editor,
//! the central views, exports, windows, background work, guides and the
//! frame. Each group is plain data; the app's methods act on them.

use super::app_command::AppCommand;
use super::network_view::Selected;
use super::presets::Preset;
use super::sweep_runner::SweepRunner;
use super::theme::Theme;
use super::{CentralView, ViewReport, drb_panel, latency_surface, plots, presenter, tour};
use crate::scenario::Scenario;
use std::sync::{Arc, Mutex};

/// A screenshot taken by eframe, waiting to be saved.
pub type ScreenshotSlot = Arc<Mutex<Option<Arc<egui::ColorImage>>>>;

/// The scenario editor's state: the draft being edited, the Compare box's pick and the presets it offers.
#[derive(Default)]
pub struct Editor {
    /// The scenario being edited (applied with "Apply scenario").
    pub draft: Scenario,
    pub presets: Vec<Preset>,
    /// What the Compare box holds: the routing run B would get.
    pub compare_pick: String,
}

/// What the central views show and what they drew last frame: the selection, the network or the latency surface, the surface's camera, the sweep plot's tab, and the reports tests read.
#[derive(Default)]
pub struct Views {
    pub selected: Option<Selected>,
    pub show_sweep_plot: bool,
    /// The latency surface's camera.
    pub surface: latency_surface::SurfaceView,
    /// What the central view shows.
    pub central_view: CentralView,
    /// What the curves drew in the last frame (tests check the screen).
    pub plot_reports: Vec<plots::PlotReport>,
    /// Where each run's network view was drawn in the last frame, and the
    /// top of its colour range.
    pub view_reports: Vec<ViewReport>,
}

/// Pictures on their way out: the view's rectangle, the screenshot in flight and where it goes.
#[derive(Default)]
pub struct Exports {
    pub view_rect: Option<egui::Rect>,
    pub screenshot: ScreenshotSlot,
    pub screenshot_pending: bool,
    /// Where the pending screenshot goes when chosen in the file dialog
    /// (otherwise `routelab-view.png` in the working directory).
    #[cfg(not(target_arch = "wasm32"))]
    pub png_path: Option<std::path::PathBuf>,
    /// `routelab app --screenshot`: the PNG to save of the whole window,
    /// the cycles to measure first, and whether it was asked for.
    #[cfg(not(target_arch = "wasm32"))]
    pub auto_screenshot: Option<super::startup::AutoScreenshot>,
    /// The next PNG export takes the whole window, not the view.
    pub whole_window_png: bool,
}

/// The windows and dialogs over the app: help, the file window, the system file dialogs, the web's upload and published link.
#[derive(Default)]
pub struct Windows {
    pub show_help: bool,
    pub show_file_window: bool,
    #[cfg(target_arch = "wasm32")]
    pub upload: super::web::Upload,
    #[cfg(target_arch = "wasm32")]
    pub published_json: String,
    /// The system file dialog in flight (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub file_dialogs: super::file_dialog::FileDialogs,
}

/// Work the app does across frames besides the run: the load sweep, a digest run, a command waiting for DRB's threshold.
#[derive(Default)]
pub struct Background {
    pub sweep: SweepRunner,
    /// A run towards a digest a link asked for (`&digest`).
    pub digest_run: Option<super::digest_run::DigestRun>,
    /// A command waiting for DRB's threshold to be measured on its router
    /// (`commands.rs` defers it; [`super::RoutelabApp::show`] advances it).
    pub threshold_wait: Option<drb_panel::ThresholdWait<AppCommand>>,
    /// Measure such thresholds in frames only, never on a thread (tests
    /// that count frames; the web build always does).
    pub threshold_in_frames: bool,
}

/// Talks and tours: the built-in tours, the tour being taken, presenter mode, the demo being recorded or replayed and the last one recorded.
#[derive(Default)]
pub struct Guides {
    /// The built-in guided tours ([`tour`]).
    pub tours: Vec<tour::Tour>,
    /// The tour being taken, if any.
    pub tour: Option<tour::TourRun>,
    /// Presenter mode (F5).
    pub presenter: presenter::Presenter,
    /// A demo being recorded or replayed ([`tour::demo`]).
    pub demo: Option<tour::demo::DemoState>,
    /// The last demo recorded (what was saved).
    pub last_demo: Option<tour::demo::Demo>,
}

/// What the app remembers of the frames themselves: the theme applied last, the time the last frame took.
#[derive(Default)]
pub struct FrameState {
    pub theme_applied: Option<Theme>,
    /// Milliseconds the last frame spent in the app (eframe's measure).
    pub frame_cpu_ms: Option<f32>,
}
