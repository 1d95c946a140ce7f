//! The left-hand panel of controls: the selection's details at its top (so
//! a click never moves the view), the scenario editor, the comparison of a
//! second balancer and the load sweep.

use super::side_panel::{self, Edge, Width};
use super::swap_order;
use super::*;

impl RoutelabApp {
    pub(super) fn left_ui(&mut self, ui: &mut egui::Ui) {
        side_panel::show(
            ui,
            Edge::Left,
            "controls",
            (330.0, Width::Capped),
            None,
            |ui| {
                self.details_ui(ui);
                // The scenario's name goes inside, wrapped: a long
                // name in the header would not wrap and would push the
                // panel's content past its right edge.
                egui::CollapsingHeader::new(egui::RichText::new("Scenario").strong())
                    .id_salt("scenario_section")
                    .default_open(true)
                    .show(ui, |ui| {
                        // The Routing field is what Apply and Reset
                        // build; say what run A runs after a live swap.
                        let swaps = self.session.sim.swaps();
                        if swaps.len() > 1 {
                            let (at, now) = &swaps[swaps.len() - 1];
                            ui.label(
                                egui::RichText::new(format!(
                                    "Run A runs {now} now (swapped live at cycle {at}); \
                                 the Routing field below is what Apply and Reset build"
                                ))
                                .color(self.settings.theme.info()),
                            );
                        }
                        scenario_panel::scenario_ui(
                            ui,
                            &mut self.editor.draft,
                            &self.session.scenario,
                            self.session.replaced.as_ref(),
                            &mut self.commands,
                            self.settings.theme.error(),
                        );
                    });
                ui.separator();
                egui::CollapsingHeader::new(egui::RichText::new("Compare balancers").strong())
                    .default_open(true)
                    .show(ui, |ui| self.compare_ui(ui));
                ui.separator();
                egui::CollapsingHeader::new(egui::RichText::new("Load sweep").strong())
                    .default_open(false)
                    .show(ui, |ui| self.sweep_ui(ui));
            },
        );
    }

    pub(super) fn compare_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("Run a second balancer on the same network, traffic and seed, in step.");
        let choices = scenario_panel::routing_choices(
            &self.session.scenario.topology,
            self.session.scenario.switch_model,
        );
        scenario_panel::spec_field(
            ui,
            "compare_pick",
            &mut self.editor.compare_pick,
            &choices,
            "Routing of run B",
        );
        ui.horizontal(|ui| {
            let comparing = self.session.compare.is_some();
            if ui
                .button(if comparing {
                    "Restart comparison"
                } else {
                    "Compare"
                })
                .on_hover_text(
                    "Restart both runs at cycle 0: A with the scenario's routing, B with this one",
                )
                .clicked()
            {
                self.push(AppCommand::SetCompare(Some(
                    self.editor.compare_pick.clone(),
                )));
            }
            if comparing
                && ui
                    .button("Stop comparing")
                    .on_hover_text("Keep only run A")
                    .clicked()
            {
                self.push(AppCommand::SetCompare(None));
            }
        });
        if let Some(b) = &self.session.compare {
            let next = swap_order::next_after(&self.swap_order(), &b.routing_name());
            if let Some(spec) = next
                && ui
                    .button(format!("Swap B to {spec}"))
                    .on_hover_text("Swap run B live to the next routing in B's order; its curves mark the moment")
                    .clicked()
            {
                self.push(AppCommand::SwapRouting {
                    spec,
                    on_compare: true,
                });
            }
        }
    }

    pub(super) fn sweep_ui(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.settings.sweep;
        ui.label("Latency and throughput against offered load, for run A (and B when comparing).");
        st.ui(ui);
        ui.checkbox(&mut st.stop_at_saturation, "Stop at saturation")
            .on_hover_text("Stop a routing's loads at its first saturated point (accepted below 95% of generated), as `routelab sweep` does; off: every load, as `routelab sweep --no-stop`");
        let running = self.background.sweep.is_running();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Run sweep"))
                .on_hover_text("Runs in the background; the app stays usable")
                .clicked()
            {
                self.commands.push(AppCommand::StartSweep);
            }
            if running && ui.button("Cancel sweep").clicked() {
                self.commands.push(AppCommand::CancelSweep);
            }
        });
        let p = self.background.sweep.progress();
        if p.total > 0 {
            let frac = p.points.len() as f32 / p.total as f32;
            ui.add(egui::ProgressBar::new(frac).text(format!(
                "{} of {} points",
                p.points.len(),
                p.total
            )));
        }
        if let Some(e) = p.error {
            ui.colored_label(self.settings.theme.error(), e);
        }
    }

    /// The selected switch's or channel's details, at the top of the
    /// left panel: the panel's width does not change, so selecting never
    /// moves the network under the pointer (the stage issue: a right-hand
    /// panel that opened on the first click shifted the view, and the
    /// second click landed on another switch).
    pub(super) fn details_ui(&mut self, ui: &mut egui::Ui) {
        let Some(sel) = self.views.selected else {
            return;
        };
        let r = ui.scope(|ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new("Selection").strong());
                if ui
                    .small_button("Close")
                    .on_hover_text("Clear the selection")
                    .clicked()
                {
                    self.views.selected = None;
                }
            });
            // Wide details (a row of VC buffers) scroll sideways rather
            // than widen the panel.
            egui::ScrollArea::horizontal()
                .id_salt("details_scroll")
                .show(ui, |ui| {
                    for (label, sim) in self.session.labelled_runs() {
                        if self.session.compare.is_some() {
                            ui.label(egui::RichText::new(label).strong());
                        }
                        super::views::for_run(sim).details(ui, sim, sel, self.settings.theme);
                    }
                });
        });
        tour::overlay::mark_rect(ui.ctx(), "details", r.response.rect);
        ui.separator();
    }
}
