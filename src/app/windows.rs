//! Floating windows: the keyboard-shortcut overlay and the file window
//! (save, open, export).

use super::*;

impl RoutelabApp {
    pub(super) fn help_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.windows.show_help;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
                    for (k, what) in [
                        ("Space", PlaybackCommand::TogglePlay.description()),
                        ("Right arrow", PlaybackCommand::Step(1).description()),
                        ("?", "Show or hide this list".to_string()),
                        ("Esc", "Close this list".to_string()),
                    ] {
                        ui.monospace(k);
                        ui.label(what);
                        ui.end_row();
                    }
                    for (k, what) in super::presenter::KEYS.iter().chain(&[
                        ("Enter", "Next step of a guided tour"),
                        ("Esc", "Leave a guided tour"),
                    ]) {
                        ui.monospace(*k);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
                ui.separator();
                ui.label("Hover a channel or switch for its values; click to select it.");
                ui.label("Hover any control for what it does.");
            });
        self.windows.show_help = open && self.windows.show_help;
    }

    pub(super) fn file_window_ui(&mut self, ctx: &egui::Context) {
        if !self.windows.show_file_window {
            return;
        }
        let mut open = true;
        egui::Window::new("Scenario file")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Path");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.settings.file_path)
                            .desired_width(280.0),
                    )
                    .on_hover_text(
                        "A JSON scenario file, relative to the working directory or absolute",
                    );
                });
                ui.horizontal(|ui| {
                    if ui
                        .button("Save")
                        .on_hover_text("Write the running scenario")
                        .clicked()
                    {
                        self.commands.push(AppCommand::SaveScenario);
                    }
                    if ui
                        .button("Load")
                        .on_hover_text("Read and apply a scenario; a bad file changes nothing")
                        .clicked()
                    {
                        self.commands.push(AppCommand::LoadScenario);
                    }
                    #[cfg(not(target_arch = "wasm32"))]
                    {
                        self.windows.file_dialogs.button(
                            ui,
                            "Save as…",
                            "Choose where to save the running scenario in the system file dialog; the Path field then shows that file",
                            file_dialog::Purpose::SaveScenario,
                            &mut self.commands,
                        );
                        self.windows.file_dialogs.button(
                            ui,
                            "Open…",
                            "Choose a scenario file in the system file dialog and apply it; a bad file changes nothing",
                            file_dialog::Purpose::LoadScenario,
                            &mut self.commands,
                        );
                    }
                });
            });
        self.windows.show_file_window = open;
    }
}
