//! The imported fabric's view (`ibnetdiscover` and edge-list files): the
//! switch graph's drawing, whose parallel cables fan out and whose
//! tooltips carry the file's names, with the details panel adding what
//! the file says of a switch or a cable (`fabric_view.rs`).

use super::{Selected, details_ui};
use crate::app::fabric_view;
use crate::app::theme::Theme;
use crate::app::view::{NetworkView, ViewContext};
use crate::sim::Simulation;

/// An imported fabric, drawn as a switch graph with its own details.
pub struct FabricView;

/// The one [`FabricView`] (`views::VIEWS`).
pub static FABRIC: FabricView = FabricView;

impl NetworkView for FabricView {
    fn id(&self) -> &'static str {
        "fabric"
    }
    fn applies(&self, sim: &Simulation) -> bool {
        sim.time_slice().is_none() && sim.network().fabric().is_some()
    }
    /// The switch graph's drawing: its fans and names come from the
    /// network's fabric record.
    fn draw(&self, ui: &mut egui::Ui, sim: &Simulation, cx: &mut ViewContext<'_>) -> egui::Rect {
        super::GRAPH.draw(ui, sim, cx)
    }
    fn details(&self, ui: &mut egui::Ui, sim: &Simulation, selected: Selected, theme: Theme) {
        details_ui(ui, sim, selected, theme, &|ui, net, sel| match sel {
            Selected::Switch(s) => fabric_view::switch_details_ui(ui, net, s),
            Selected::Channel(c) => fabric_view::channel_details_ui(ui, net, c),
        });
    }
}
