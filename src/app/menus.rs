//! The top of the window: the menu bar (file, presets, view, help) and the
//! playback toolbar.

use super::swap_order;
use super::*;

impl RoutelabApp {
    pub(super) fn top_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu_bar").show(ui, |ui| {
            tour::overlay::mark(ui, "menu");
            egui::MenuBar::new().ui(ui, |ui| {
                self.menus_ui(ui);
            });
        });
        egui::Panel::top("toolbar").show(ui, |ui| {
            tour::overlay::mark(ui, "toolbar");
            ui.add_space(2.0);
            ui.horizontal_wrapped(|ui| self.toolbar_ui(ui));
            if let Some(m) = self.message.clone() {
                ui.horizontal(|ui| {
                    let color = if m.is_error {
                        self.settings.theme.error()
                    } else {
                        self.settings.theme.info()
                    };
                    // Close first, so a long message cannot push it off
                    // the window; the text wraps.
                    if ui.small_button("Close").on_hover_text("Dismiss").clicked() {
                        self.message = None;
                    }
                    // The way out a refusal offers, before the text so
                    // that a long message cannot push it off the window.
                    if let Some((label, command)) = &m.action
                        && ui
                            .button(egui::RichText::new(label).strong())
                            .on_hover_text("Do what the message says, in one click")
                            .clicked()
                    {
                        self.message = None;
                        self.commands.push(command.clone());
                    }
                    ui.add(egui::Label::new(egui::RichText::new(&m.text).color(color)).wrap());
                });
            }
            ui.add_space(2.0);
        });
    }

    pub(super) fn menus_ui(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("File", |ui| {
            let save = if cfg!(target_arch = "wasm32") {
                "Download scenario JSON"
            } else {
                "Save or load scenario JSON..."
            };
            if ui.button(save).clicked() {
                if cfg!(target_arch = "wasm32") {
                    self.push(AppCommand::SaveScenario);
                } else {
                    self.windows.show_file_window = true;
                }
                ui.close();
            }
            if cfg!(target_arch = "wasm32") && ui.button("Upload scenario JSON...").clicked() {
                self.push(AppCommand::LoadScenario);
                ui.close();
            }
            if ui
                .button("Copy link to this experiment")
                .on_hover_text(
                    "The link carries the scenario: opening it shows the same experiment",
                )
                .clicked()
            {
                self.push(AppCommand::CopyLink);
                ui.close();
            }
            ui.separator();
            if ui.button("Export curves as CSV").clicked() {
                self.push(AppCommand::ExportCurvesCsv);
                ui.close();
            }
            #[cfg(not(target_arch = "wasm32"))]
            if self.windows.file_dialogs.button(
                ui,
                "Export curves as CSV to…",
                "Choose where to write the curves in the system file dialog",
                file_dialog::Purpose::ExportCurvesCsv,
                &mut self.commands,
            ) {
                ui.close();
            }
            if ui.button("Export sweep as CSV").clicked() {
                self.push(AppCommand::ExportSweepCsv);
                ui.close();
            }
            if ui.button("Export view as PNG").clicked() {
                self.push(AppCommand::ExportPng);
                ui.close();
            }
            #[cfg(not(target_arch = "wasm32"))]
            if self.windows.file_dialogs.button(
                ui,
                "Export view as PNG to…",
                "Choose where to write a picture of the network view in the system file dialog",
                file_dialog::Purpose::ExportPng,
                &mut self.commands,
            ) {
                ui.close();
            }
        });
        ui.menu_button("Presets", |ui| {
            for g in presets::GROUPS {
                let members: Vec<(usize, &Preset)> = self
                    .editor
                    .presets
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| presets::group_of(&p.source) == g)
                    .collect();
                if members.is_empty() {
                    continue;
                }
                ui.menu_button(g.title, |ui| {
                    ui.set_max_width(420.0);
                    ui.label(egui::RichText::new(g.about).weak());
                    ui.separator();
                    for (i, p) in members {
                        if ui
                            .button(&p.scenario.name)
                            .on_hover_text(format!("{}\n({})", p.scenario.description, p.source))
                            .clicked()
                        {
                            self.commands.push(AppCommand::LoadPreset(i));
                            ui.close();
                        }
                    }
                })
                .response
                .on_hover_text(g.about);
            }
        });
        ui.menu_button("View", |ui| {
            ui.label("Colour channels by");
            for m in Metric::ALL {
                let available = self.session.sims().any(|s| m.available(s));
                if ui
                    .add_enabled(
                        available,
                        egui::RadioButton::new(self.settings.metric == m, m.label()),
                    )
                    .on_hover_text(m.help())
                    .on_disabled_hover_text(format!(
                        "{}\nThe current routing ({}) provides none: use a paths:... routing, e.g. from the Path selection panel",
                        m.help(),
                        self.session.sim.routing_name()
                    ))
                    .clicked()
                {
                    self.settings.metric = m;
                }
            }
            ui.separator();
            ui.radio_value(&mut self.views.central_view, CentralView::Network, "Network");
            ui.radio_value(&mut self.views.central_view, CentralView::Surface, "Latency surface")
                .on_hover_text("DRB's Fig. 9: per-node link queueing delay in 3-D");
            let mut changed = false;
            for panel in self.panels.list_mut() {
                let mut open = panel.is_open();
                if ui
                    .checkbox(&mut open, panel.title())
                    .on_hover_text(panel.hover())
                    .changed()
                {
                    panel.set_open(open, &self.session);
                    changed = true;
                }
            }
            if changed {
                ui.close();
            }
            ui.separator();
            let recording = matches!(self.guides.demo, Some(tour::demo::DemoState::Recording { .. }));
            let label = if recording {
                "Stop recording and save the demo (F6)"
            } else {
                "Record a demo (F6)"
            };
            if ui
                .button(label)
                .on_hover_text("Note presets, swaps, comparisons, play and pause with their timing; File > Open replays the saved demo.json the same way every time")
                .clicked()
            {
                self.push(AppCommand::RecordDemo);
                ui.close();
            }
            ui.checkbox(&mut self.guides.presenter.on, "Presenter mode (F5)")
                .on_hover_text("Larger, high-contrast, the view and the curves only; keys: N/P presets, B balancer, C compare, Space play");
            ui.separator();
            ui.radio_value(&mut self.settings.theme, Theme::Dark, "Dark theme");
            ui.radio_value(&mut self.settings.theme, Theme::Light, "Light theme");
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard shortcuts (?)").clicked() {
                self.push(AppCommand::ToggleHelp);
                ui.close();
            }
            ui.separator();
            ui.label(egui::RichText::new("Guided tours").weak());
            let mut start = None;
            for t in &self.guides.tours {
                if ui
                    .button(&t.title)
                    .on_hover_text(format!("{}\n(link: #tour={})", t.summary, t.id))
                    .clicked()
                {
                    start = Some(t.id.clone());
                }
            }
            if let Some(id) = start {
                self.push(AppCommand::StartTour(id));
                ui.close();
            }
        });
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let (label, next) = match self.settings.theme {
                Theme::Dark => ("Light theme", Theme::Light),
                Theme::Light => ("Dark theme", Theme::Dark),
            };
            if ui.button(label).on_hover_text("Switch theme").clicked() {
                self.push(AppCommand::SetTheme(next));
            }
            ui.label(egui::RichText::new("routelab").strong());
        });
    }

    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        let pb = |c: PlaybackCommand| {
            let mut t = c.description();
            if let Some(k) = c.shortcut() {
                t.push_str(&format!(" ({k})"));
            }
            t
        };
        if self.playback.playing {
            if ui
                .button("Pause")
                .on_hover_text(pb(PlaybackCommand::Pause))
                .clicked()
            {
                self.push(AppCommand::Playback(PlaybackCommand::Pause));
            }
        } else if ui
            .button("Play")
            .on_hover_text(pb(PlaybackCommand::Play))
            .clicked()
        {
            self.push(AppCommand::Playback(PlaybackCommand::Play));
        }
        if ui
            .button("Step")
            .on_hover_text(pb(PlaybackCommand::Step(1)))
            .clicked()
        {
            self.push(AppCommand::Playback(PlaybackCommand::Step(1)));
        }
        let n = self.settings.step_n;
        if ui
            .button(format!("Step {n}"))
            .on_hover_text(pb(PlaybackCommand::Step(n)))
            .clicked()
        {
            self.push(AppCommand::Playback(PlaybackCommand::Step(n)));
        }
        ui.add(egui::DragValue::new(&mut self.settings.step_n).range(1..=1_000_000))
            .on_hover_text("Cycles per multi-step");
        ui.separator();
        let mut speed = self.playback.speed;
        egui::ComboBox::from_id_salt("speed")
            .selected_text(speed.label())
            .show_ui(ui, |ui| {
                for s in Speed::CHOICES {
                    ui.selectable_value(&mut speed, s, s.label());
                }
            })
            .response
            .on_hover_text("Speed while playing; \"as fast as it goes\" refreshes the view about 10 times a second");
        if speed != self.playback.speed {
            self.push(AppCommand::Playback(PlaybackCommand::SetSpeed(speed)));
        }
        ui.separator();
        let until = self.settings.run_until;
        if ui
            .button("Run until")
            .on_hover_text(pb(PlaybackCommand::RunUntil(until)))
            .clicked()
        {
            self.push(AppCommand::Playback(PlaybackCommand::RunUntil(until)));
        }
        ui.add(egui::DragValue::new(&mut self.settings.run_until).range(0..=u64::MAX / 2))
            .on_hover_text("Target cycle for \"Run until\"");
        if ui
            .button("Reset")
            .on_hover_text(pb(PlaybackCommand::Reset))
            .clicked()
        {
            self.push(AppCommand::Playback(PlaybackCommand::Reset));
        }
        ui.separator();
        ui.label("Balancer:");
        // Shows run A's routing; picking another swaps it live. The list
        // is B's order: each paper's contrast first, then the variants.
        let current = self.session.sim.routing_name();
        let order = self.swap_order();
        let mut picked = None;
        // A long spec (`paths:updown-dfs:sa:budget=20000`) is shortened,
        // whole in the hover text, so the toolbar keeps one row at 1280
        // pixels.
        egui::ComboBox::from_id_salt("swap_pick")
            .selected_text(egui::RichText::new(shortened(&current, 22)).monospace())
            .width(180.0)
            .show_ui(ui, |ui| {
                for c in &order {
                    if ui
                        .selectable_label(swap_order::canonical(&current) == *c, c)
                        .clicked()
                    {
                        picked = Some(c.clone());
                    }
                }
                ui.separator();
                ui.label("Another spec (Enter swaps):");
                let r = ui.text_edit_singleline(&mut self.settings.swap_routing);
                if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    picked = Some(self.settings.swap_routing.clone());
                }
            })
            .response
            .on_hover_text(format!(
                "Run A's balancer, {current}. Pick another to swap it now (B steps through them); \
                 packets already injected finish with their routing, and the curves mark the moment"
            ));
        let next = swap_order::next_after(&self.swap_order(), &current);
        if let Some(n) = &next
            && ui
                .button("Swap balancer")
                .on_hover_text(format!(
                    "Swap run A to the next routing, {n} (key B); the curves mark the moment"
                ))
                .clicked()
        {
            picked = Some(n.clone());
        }
        if let Some(spec) = picked
            && swap_order::canonical(&spec) != swap_order::canonical(&current)
        {
            self.push(AppCommand::SwapRouting {
                spec,
                on_compare: false,
            });
        }
        ui.separator();
        for panel in self.panels.list_mut() {
            let Some(label) = panel.toolbar_label() else {
                continue;
            };
            let mut open = panel.is_open();
            if ui
                .toggle_value(&mut open, label)
                .on_hover_text(panel.hover())
                .changed()
            {
                panel.set_open(open, &self.session);
            }
        }
    }
}

/// `text` cut to `max` characters, the last of them an ellipsis, if longer.
fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::shortened;

    #[test]
    fn long_balancer_names_are_shortened_with_an_ellipsis() {
        assert_eq!(shortened("dor", 22), "dor");
        assert_eq!(
            shortened("paths:updown-dfs:sa:budget=20000", 22)
                .chars()
                .count(),
            22
        );
        assert_eq!(
            shortened("paths:updown-dfs:sa:budget=20000", 22),
            "paths:updown-dfs:sa:b…"
        );
        assert_eq!(
            shortened("fattree-greedy:step=7", 22),
            "fattree-greedy:step=7"
        );
    }
}
