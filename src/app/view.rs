//! The central network views as the app sees them ([`NetworkView`]): each
//! kind of run has its own picture (a switch graph from the topology's
//! coordinates; a fat tree in levels under the time-slice model, Franco
//! et al.'s §3; an imported fabric with its names and parallel cables),
//! chosen once per run by [`super::views::for_run`] over the list in
//! `views.rs`, so a new view costs its file and one line there. What is
//! drawn is always the run's own state: a view reads the simulation and
//! never changes it.

use super::colouring::{Colouring, Overlay, Selected};
use super::theme::Theme;
use crate::sim::Simulation;

/// What a view draws with: the channel colouring, the theme, the
/// selection (which a click changes), the title, what is drawn over it.
pub struct ViewContext<'a> {
    pub colouring: &'a Colouring,
    pub theme: Theme,
    pub selected: &'a mut Option<Selected>,
    pub title: &'a str,
    pub overlay: &'a Overlay,
}

/// The clock a run's curves are drawn against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Cycles: latency in cycles, accepted throughput per host per cycle.
    Cycles,
    /// Time slices of the fat-tree model (Franco et al. §3): latency in
    /// slices, and the deadline success rate beside the throughput.
    Slices,
}

/// One kind of central network view.
pub trait NetworkView: Sync {
    /// Its id (`graph`, `fat_tree`, `fabric`).
    fn id(&self) -> &'static str;
    /// Whether it draws this run (the list's first that does is used).
    fn applies(&self, sim: &Simulation) -> bool;
    /// Draw the run filling the available space; the view's rectangle on
    /// screen (for PNG export and the tours).
    fn draw(&self, ui: &mut egui::Ui, sim: &Simulation, cx: &mut ViewContext<'_>) -> egui::Rect;
    /// The details panel of the selection (a switch's buffers, a
    /// channel's values).
    fn details(&self, ui: &mut egui::Ui, sim: &Simulation, selected: Selected, theme: Theme);
    /// The clock its curves are drawn against.
    fn clock(&self) -> Clock {
        Clock::Cycles
    }
}
