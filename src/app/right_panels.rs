//! The side panels docked on the right: static path selection (Villalobos
//! §3-4, Koibuchi §3) and DRB's metapaths (DRB §2-3). Their contents are
//! drawn by `path_selection::panel` and `drb_panel`; this file docks them
//! and hands them the runs.

use super::side_panel::{self, Edge, Heading, Width};
use super::*;

impl RoutelabApp {
    pub(super) fn path_selection_ui(&mut self, ui: &mut egui::Ui) {
        let hide = side_panel::show(
            ui,
            Edge::Right,
            "path_selection",
            (340.0, Width::Capped),
            Some(Heading {
                title: "Static path selection",
                hide_hint: "Hide the path-selection panel",
            }),
            |ui| {
                let net = self.session.sim.network();
                let compare = self.session.compare.as_ref().and_then(|b| {
                    let (_, v) = b.routing_channel_values()?;
                    Some((
                        b.routing_name(),
                        v.iter()
                            .take(net.num_network_channels())
                            .map(|x| *x as u32)
                            .collect(),
                    ))
                });
                self.path_selection.compare_crossing = compare;
                self.path_selection.ui(
                    ui,
                    &self.session.scenario,
                    self.session.sim.network(),
                    &mut self.settings.metric,
                    &mut self.commands,
                    self.settings.theme,
                );
            },
        );
        if hide {
            self.path_selection.open = false;
        }
    }

    pub(super) fn drb_ui(&mut self, ui: &mut egui::Ui) {
        let hide = side_panel::show(
            ui,
            Edge::Right,
            "drb",
            (360.0, Width::Capped),
            Some(Heading {
                title: "DRB metapaths",
                hide_hint: "Hide the DRB panel (View menu brings it back)",
            }),
            |ui| {
                let runs = self.session.labelled_runs();
                drb_panel::drb_panel_ui(ui, &mut self.drb, &runs, self.settings.theme);
            },
        );
        if hide {
            self.drb.hidden = true;
        }
    }
}
