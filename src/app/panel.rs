//! The app's side panels as its loops see them ([`Panel`]): the View
//! menu's toggles, docking (one right-hand panel at a time), drawing in
//! the side frame, background work a frame, and the guided tours' `panel`
//! action and snapshots all go through this trait over the list in
//! [`super::panels::Panels`], so a new panel costs its file and one line
//! there. What a panel adds to the network views goes through it too
//! ([`Panel::central`]: a view of its own left of the runs, the runs'
//! colourings; [`Panel::paint_over`]: marks drawn over each run's view),
//! so the central panel names no panel.

use super::app_command::AppCommand;
use super::colouring::Metric;
use super::network_view::{Colouring, Overlay, Selected};
use super::session::Session;
use super::side_panel::{self, Edge, Heading, Width};
use super::theme::Theme;
use crate::sim::Simulation;

/// Cycles between two samples of a panel that samples as the cycles run
/// ([`Panel::sample`]; DRB's metapath curves).
pub const SAMPLE_CYCLES: u64 = 100;

/// What a panel draws with: the running session, the channel colouring
/// (which a panel may change), the command queue, the theme.
pub struct PanelContext<'a> {
    pub session: &'a Session,
    pub metric: &'a mut Metric,
    pub commands: &'a mut Vec<AppCommand>,
    pub theme: Theme,
}

/// A view a panel draws left of the runs ([`Central::column`]): the
/// oblivious panel's expected load, drawn on run A's network.
pub struct CentralColumn {
    pub colouring: Colouring,
    pub title: String,
    pub overlay: Overlay,
}

/// What a panel adds to the central network views this frame
/// ([`Panel::central`]).
#[derive(Default)]
pub struct Central {
    /// A view of its own left of the runs.
    pub column: Option<CentralColumn>,
    /// Colourings of the runs, by run, in place of the View menu's metric
    /// (`None` for a run, or a run past the end: the metric). The
    /// oblivious panel colours both runs by simulated utilization on its
    /// analysis's scale; path selection colours run A by its crossing
    /// paths.
    pub runs: Vec<Option<Colouring>>,
    /// An overlay on every run's view (the analysis's colour scale);
    /// `None`: the runs share their own largest value.
    pub runs_overlay: Option<Overlay>,
}

/// One side panel.
pub trait Panel {
    /// Its id: the tours' `panel` action, their snapshots and `expect`
    /// name it by this (`path_selection`, `oblivious`, `drb`).
    fn id(&self) -> &'static str;
    /// Its heading, and the View menu's entry.
    fn title(&self) -> &'static str;
    /// The View menu's hover.
    fn hover(&self) -> &'static str;
    /// The toolbar's toggle for it, if it has one (a panel that shows by
    /// itself, as DRB's, has none).
    fn toolbar_label(&self) -> Option<&'static str> {
        None
    }
    /// The hide button's hover.
    fn hide_hint(&self) -> &'static str {
        "Hide the panel (the View menu brings it back)"
    }
    /// Its width in points, and whether that is a cap (the frame keeps the
    /// central view's room) or free.
    fn width(&self) -> (f32, Width) {
        (340.0, Width::Capped)
    }
    /// Whether it has something to show for this session (DRB's panel:
    /// a run routed by DRB). A panel that does not apply is not drawn and
    /// not docked, whatever its open state.
    fn applies(&self, _session: &Session) -> bool {
        true
    }
    /// Whether the user has it open.
    fn is_open(&self) -> bool;
    /// Open or close it (opening may start work: path selection computes
    /// its algorithm's result on the session's network).
    fn set_open(&mut self, open: bool, session: &Session);
    /// What a tour's `panel` action does: open it showing the session as
    /// it is now (path selection recomputes its algorithm's result on the
    /// session's network).
    fn reveal(&mut self, session: &Session) {
        self.set_open(true, session);
    }
    /// Draw its contents.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PanelContext<'_>);
    /// A sample of the runs every [`SAMPLE_CYCLES`] cycles as they run
    /// (DRB's metapath curves), whether or not the panel is shown.
    fn sample(&mut self, _sims: &[&Simulation]) {}
    /// The runs once a frame, after they ran (DRB's panel notices a reset
    /// and drops its curves).
    fn observe(&mut self, _sims: &[&Simulation]) {}
    /// The user's pick on the network this frame; a panel that is picking
    /// a pair takes it (DRB's) or consumes it (the oblivious panel's, which
    /// then leaves nothing for the others).
    fn take_selection(&mut self, _selected: &mut Option<Selected>) {}
    /// Background work a frame (a search, an analysis); true while there
    /// is more, so the app asks for another frame.
    fn tick(&mut self, _session: &Session) -> bool {
        false
    }
    /// What it adds to the central network views this frame, given the
    /// runs (run A first); the central panel takes, for each part, the
    /// first panel in the list that gives it (docking leaves one open).
    fn central(&self, _runs: &[&Simulation], _theme: Theme) -> Option<Central> {
        None
    }
    /// Marks over a run's view once it is drawn in `rect` (DRB's picked
    /// pair and its metapath), whether or not the panel is shown.
    fn paint_over(
        &self,
        _painter: &egui::Painter,
        _sim: &Simulation,
        _rect: egui::Rect,
        _theme: Theme,
    ) {
    }
}

/// Whether `panel` is shown: open and applying.
pub fn shown(panel: &dyn Panel, session: &Session) -> bool {
    panel.is_open() && panel.applies(session)
}

/// Draw `panel` docked on the right with its heading; its hide button
/// closes it.
pub fn show_docked(ui: &mut egui::Ui, panel: &mut dyn Panel, cx: &mut PanelContext<'_>) {
    let hide = side_panel::show(
        ui,
        Edge::Right,
        panel.id(),
        panel.width(),
        Some(Heading {
            title: panel.title(),
            hide_hint: panel.hide_hint(),
        }),
        |ui| panel.ui(ui, cx),
    );
    if hide {
        panel.set_open(false, cx.session);
    }
}
