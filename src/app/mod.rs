//! The routelab app: one egui program for the desktop and the browser that
//! steps the simulation in the same process.
//!
//! Layout of this module: one file per concept. [`playback`] (commands and
//! state, no egui), [`session`] (the running simulations, no egui),
//! [`scenario_panel`], [`network_view`], [`plots`], [`sweep`] (background
//! load sweeps), [`path_selection`] (static path selection, live GA/SA),
//! [`presets`], [`share`] (scenario in the URL), [`export`]
//! (CSV, PNG, JSON files), `file_dialog` (the system file dialog, native
//! only), [`theme`], and `web` (browser glue, wasm only).
//! UI functions draw and push [`AppCommand`]s; [`RoutelabApp`] applies them
//! after drawing.

pub mod export;
#[cfg(not(target_arch = "wasm32"))]
pub mod file_dialog;
pub mod network_view;
pub mod path_selection;
pub mod playback;
pub mod plots;
pub mod presets;
pub mod scenario_panel;
pub mod session;
pub mod share;
pub mod sweep;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;

use crate::scenario::Scenario;
use network_view::{Metric, Selected};
use playback::{Playback, PlaybackCommand, Speed};
use presets::Preset;
use serde::{Deserialize, Serialize};
use session::Session;
use std::sync::{Arc, Mutex};
use sweep::{SweepJob, SweepRunner, SweepSettings};
use theme::Theme;

/// Everything a person can ask of the app besides editing fields.
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    Playback(PlaybackCommand),
    /// Rebuild with this scenario (if it builds; otherwise nothing changes).
    Apply(Box<Scenario>),
    LoadPreset(usize),
    /// Swap the balancer live, on run A or on the comparison run B.
    SwapRouting {
        spec: String,
        on_compare: bool,
    },
    /// Compare against this routing (or stop comparing).
    SetCompare(Option<String>),
    StartSweep,
    CancelSweep,
    SaveScenario,
    LoadScenario,
    /// Load a scenario from JSON text (a file's contents).
    LoadScenarioText(String),
    CopyLink,
    ExportCurvesCsv,
    ExportSweepCsv,
    ExportPng,
    SetTheme(Theme),
    ToggleHelp,
    /// Open the system file dialog (native only; the answer is applied
    /// when it comes, see `file_dialog`).
    #[cfg(not(target_arch = "wasm32"))]
    OpenFileDialog(file_dialog::Purpose),
}

/// What the app remembers between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub scenario: Scenario,
    pub theme: Theme,
    pub metric: Metric,
    pub speed: Speed,
    pub compare_routing: Option<String>,
    pub swap_routing: String,
    pub sweep: SweepSettings,
    /// Native: where scenario files are saved and loaded.
    pub file_path: String,
    pub step_n: u64,
    pub run_until: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            scenario: Scenario {
                name: "Torus 8x8, DOR, uniform".into(),
                description: "Baseline: uniform traffic spreads evenly; watch latency rise as load nears capacity.".into(),
                ..Scenario::default()
            },
            theme: Theme::Dark,
            metric: Metric::Utilization,
            speed: Speed::default(),
            compare_routing: None,
            swap_routing: "dor:tie=random".into(),
            sweep: SweepSettings::default(),
            file_path: "scenario.json".into(),
            step_n: 100,
            run_until: 10_000,
        }
    }
}

/// A message shown under the toolbar until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub is_error: bool,
    pub text: String,
}

type ScreenshotSlot = Arc<Mutex<Option<Arc<egui::ColorImage>>>>;

/// The app.
pub struct RoutelabApp {
    pub settings: Settings,
    /// The scenario being edited (applied with "Apply scenario").
    pub draft: Scenario,
    pub session: Session,
    pub playback: Playback,
    pub selected: Option<Selected>,
    pub message: Option<Message>,
    pub show_help: bool,
    pub presets: Vec<Preset>,
    pub sweep: SweepRunner,
    /// The path-selection panel (its settings, result and running search).
    pub path_selection: path_selection::PathSelection,
    commands: Vec<AppCommand>,
    show_file_window: bool,
    compare_pick: String,
    view_rect: Option<egui::Rect>,
    screenshot: ScreenshotSlot,
    screenshot_pending: bool,
    show_sweep_plot: bool,
    theme_applied: Option<Theme>,
    #[cfg(target_arch = "wasm32")]
    upload: web::Upload,
    #[cfg(target_arch = "wasm32")]
    published_json: String,
    /// The system file dialog in flight (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub file_dialogs: file_dialog::FileDialogs,
    /// Where the pending screenshot goes when chosen in the file dialog
    /// (otherwise `routelab-view.png` in the working directory).
    #[cfg(not(target_arch = "wasm32"))]
    png_path: Option<std::path::PathBuf>,
    /// Milliseconds the last frame spent in the app (eframe's measure).
    pub frame_cpu_ms: Option<f32>,
}

impl Default for RoutelabApp {
    fn default() -> Self {
        Self::new(Settings::default())
    }
}

impl RoutelabApp {
    /// An app with these settings; a scenario that does not build is
    /// replaced by the default one, with a message.
    pub fn new(settings: Settings) -> Self {
        let mut message = None;
        let session = match Session::new(settings.scenario.clone()) {
            Ok(s) => s,
            Err(e) => {
                message = Some(Message {
                    is_error: true,
                    text: format!("The saved scenario does not build, using the default: {e}"),
                });
                Session::new(Settings::default().scenario).unwrap_or_else(|_| {
                    Session::new(Scenario::default()).expect("the default scenario builds")
                })
            }
        };
        let (presets, problems) = presets::all();
        if message.is_none() && !problems.is_empty() {
            message = Some(Message {
                is_error: true,
                text: format!("Some preset files were skipped: {}", problems.join("; ")),
            });
        }
        let playback = Playback {
            speed: settings.speed,
            ..Playback::default()
        };
        let mut path_selection = path_selection::PathSelection::default();
        path_selection.sync_from(&session.scenario);
        let mut app = RoutelabApp {
            path_selection,
            draft: session.scenario.clone(),
            compare_pick: settings
                .compare_routing
                .clone()
                .unwrap_or_else(|| "dor:tie=random".into()),
            session,
            playback,
            selected: None,
            message,
            show_help: false,
            presets,
            sweep: SweepRunner::Idle,
            commands: Vec::new(),
            show_file_window: false,
            view_rect: None,
            screenshot: Arc::default(),
            screenshot_pending: false,
            show_sweep_plot: false,
            theme_applied: None,
            #[cfg(target_arch = "wasm32")]
            upload: Default::default(),
            #[cfg(target_arch = "wasm32")]
            published_json: String::new(),
            #[cfg(not(target_arch = "wasm32"))]
            file_dialogs: Default::default(),
            #[cfg(not(target_arch = "wasm32"))]
            png_path: None,
            frame_cpu_ms: None,
            settings,
        };
        if let Some(r) = app.settings.compare_routing.clone()
            && app.session.set_compare(Some(r)).is_err()
        {
            app.settings.compare_routing = None;
        }
        app
    }

    /// The app eframe starts: remembered settings, then (on the web) the
    /// scenario in the URL, if any.
    pub fn from_creation_context(cc: &eframe::CreationContext<'_>) -> Self {
        let settings: Settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        #[allow(unused_mut)]
        let mut app = Self::new(settings);
        #[cfg(target_arch = "wasm32")]
        {
            let (hash, query) = web::location_parts();
            let from_url = share::decode_fragment(&hash).or_else(|| share::decode_fragment(&query));
            match from_url {
                Some(Ok(s)) => {
                    app.apply_scenario(s, "the link's scenario");
                }
                Some(Err(e)) => app.error(format!("{e} (kept the previous scenario)")),
                None => web::set_fragment(&share::encode_fragment(&app.session.scenario)),
            }
        }
        app
    }

    /// Queue a command (tests and shortcuts use the same path as buttons).
    pub fn push(&mut self, cmd: AppCommand) {
        self.commands.push(cmd);
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            is_error: true,
            text: text.into(),
        });
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            is_error: false,
            text: text.into(),
        });
    }

    /// Rebuild with `s`; on failure show why and change nothing. Returns
    /// whether it was applied.
    fn apply_scenario(&mut self, s: Scenario, what: &str) -> bool {
        match Session::new(s.clone()) {
            Ok(mut session) => {
                if let Some(r) = self.session.compare_routing.clone()
                    && let Err(e) = session.set_compare(Some(r))
                {
                    self.info(format!("Stopped comparing: {e}"));
                    self.settings.compare_routing = None;
                }
                if session.sim.network().spec() != self.session.sim.network().spec() {
                    self.path_selection.stop();
                }
                self.path_selection.sync_from(&session.scenario);
                self.session = session;
                self.draft = s.clone();
                self.settings.scenario = s;
                self.selected = None;
                self.playback.apply(PlaybackCommand::Pause);
                if matches!(&self.message, Some(m) if m.is_error) {
                    self.message = None;
                }
                #[cfg(target_arch = "wasm32")]
                web::set_fragment(&share::encode_fragment(&self.session.scenario));
                true
            }
            Err(e) => {
                self.error(format!("{what} was not applied: {e}"));
                false
            }
        }
    }

    /// Apply a scenario file's contents; a bad file shows why and changes
    /// nothing. Returns whether it was applied.
    fn load_scenario_text(&mut self, text: &str) -> bool {
        match Scenario::from_json(text) {
            Ok(s) => self.apply_scenario(s, "The loaded scenario"),
            Err(e) => {
                self.error(format!("The file was not loaded: {e}"));
                false
            }
        }
    }

    /// The live curves of run A (and B) as CSV.
    fn curves_csv(&self) -> String {
        let mut runs = vec![("A", &self.session.sim)];
        if let Some(b) = &self.session.compare {
            runs.push(("B", b));
        }
        export::curves_csv(&runs)
    }

    fn apply_commands(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.commands);
        for cmd in commands {
            self.apply_command(cmd, ctx);
        }
    }

    fn apply_command(&mut self, cmd: AppCommand, ctx: &egui::Context) {
        match cmd {
            AppCommand::Playback(p) => {
                self.playback.apply(p);
                if let PlaybackCommand::SetSpeed(s) = p {
                    self.settings.speed = s;
                }
                if self.playback.reset_requested {
                    self.playback.reset_requested = false;
                    if let Err(e) = self.session.reset() {
                        self.error(e);
                    }
                }
            }
            AppCommand::Apply(s) => {
                self.apply_scenario(*s, "The scenario");
            }
            AppCommand::LoadPreset(i) => {
                if let Some(p) = self.presets.get(i) {
                    let s = p.scenario.clone();
                    let name = s.name.clone();
                    self.apply_scenario(s, &format!("Preset \"{name}\""));
                }
            }
            AppCommand::SwapRouting { spec, on_compare } => {
                match self.session.swap_routing(&spec, on_compare) {
                    Ok(()) => self.info(format!(
                        "Swapped {} to {spec} at cycle {}",
                        if on_compare { "run B" } else { "the balancer" },
                        self.session.now()
                    )),
                    Err(e) => self.error(format!("Swap refused: {e}")),
                }
            }
            AppCommand::SetCompare(r) => match self.session.set_compare(r.clone()) {
                Ok(()) => {
                    self.settings.compare_routing = r;
                    self.selected = None;
                }
                Err(e) => self.error(format!("Cannot compare: {e}")),
            },
            AppCommand::StartSweep => {
                let mut routings = vec![self.session.scenario.routing.clone()];
                routings.extend(self.session.compare_routing.clone());
                match SweepJob::new(
                    self.session.scenario.clone(),
                    &routings,
                    &self.settings.sweep,
                ) {
                    Ok(job) => {
                        self.sweep = SweepRunner::start(job);
                        self.show_sweep_plot = true;
                    }
                    Err(e) => self.error(format!("Sweep not started: {e}")),
                }
            }
            AppCommand::CancelSweep => self.sweep.cancel(),
            AppCommand::SaveScenario => {
                let json = self.session.scenario.to_json();
                #[cfg(not(target_arch = "wasm32"))]
                let name = self.settings.file_path.clone();
                #[cfg(target_arch = "wasm32")]
                let name = "scenario.json".to_string();
                match export::save(&name, "application/json", json.as_bytes()) {
                    Ok(m) => self.info(m),
                    Err(e) => self.error(e),
                }
            }
            AppCommand::LoadScenario => {
                #[cfg(not(target_arch = "wasm32"))]
                match export::load_text(&self.settings.file_path) {
                    Ok(text) => self.apply_command(AppCommand::LoadScenarioText(text), ctx),
                    Err(e) => self.error(e),
                }
                #[cfg(target_arch = "wasm32")]
                if let Err(e) = web::pick_text_file(self.upload.clone(), ctx.clone()) {
                    self.error(e);
                }
            }
            AppCommand::LoadScenarioText(text) => {
                self.load_scenario_text(&text);
            }
            AppCommand::CopyLink => {
                let fragment = share::encode_fragment(&self.session.scenario);
                #[cfg(target_arch = "wasm32")]
                {
                    web::set_fragment(&fragment);
                    let href = web::href();
                    ctx.copy_text(href);
                    self.info("Link copied: it opens this experiment");
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    ctx.copy_text(format!("#{fragment}"));
                    self.info("Copied the link fragment (#scenario=...); append it to the web app's address");
                }
            }
            AppCommand::ExportCurvesCsv => {
                let csv = self.curves_csv();
                match export::save("routelab-curves.csv", "text/csv", csv.as_bytes()) {
                    Ok(m) => self.info(m),
                    Err(e) => self.error(e),
                }
            }
            AppCommand::ExportSweepCsv => {
                let points = self.sweep.progress().points;
                if points.is_empty() {
                    self.error("No sweep results yet: run a sweep first");
                } else {
                    let csv = sweep::sweep_csv(&points);
                    match export::save("routelab-sweep.csv", "text/csv", csv.as_bytes()) {
                        Ok(m) => self.info(m),
                        Err(e) => self.error(e),
                    }
                }
            }
            AppCommand::ExportPng => {
                let slot = self.screenshot.clone();
                let ctx2 = ctx.clone();
                ctx.request_screenshot(move |img| {
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(img);
                    }
                    ctx2.request_repaint();
                });
                self.screenshot_pending = true;
            }
            AppCommand::SetTheme(t) => self.settings.theme = t,
            AppCommand::ToggleHelp => self.show_help = !self.show_help,
            #[cfg(not(target_arch = "wasm32"))]
            AppCommand::OpenFileDialog(purpose) => self.open_file_dialog(purpose, ctx),
        }
    }

    fn finish_screenshot(&mut self, ctx: &egui::Context) {
        if !self.screenshot_pending {
            return;
        }
        let img = self.screenshot.lock().ok().and_then(|mut s| s.take());
        let Some(img) = img else {
            return;
        };
        self.screenshot_pending = false;
        let img = match self.view_rect {
            Some(r) => img.region(&r, Some(ctx.pixels_per_point())),
            None => (*img).clone(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        let chosen = self.png_path.take();
        let result = export::png_bytes(img.size[0] as u32, img.size[1] as u32, img.as_raw())
            .and_then(|png| {
                #[cfg(not(target_arch = "wasm32"))]
                if let Some(path) = chosen {
                    return export::save_to(&path, &png);
                }
                export::save("routelab-view.png", "image/png", &png)
            });
        match result {
            Ok(m) => self.info(m),
            Err(e) => self.error(format!("PNG export failed: {e}")),
        }
    }

    fn keyboard(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        use egui::{Key, Modifiers};
        let (space, right, help, esc) = ctx.input_mut(|i| {
            let help = i.consume_key(Modifiers::SHIFT, Key::Questionmark)
                || i.consume_key(Modifiers::NONE, Key::Questionmark)
                || i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::Text(t) if t == "?"));
            (
                i.consume_key(Modifiers::NONE, Key::Space),
                i.consume_key(Modifiers::NONE, Key::ArrowRight),
                help,
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        if space {
            self.push(AppCommand::Playback(PlaybackCommand::TogglePlay));
        }
        if right {
            self.push(AppCommand::Playback(PlaybackCommand::Step(1)));
        }
        if help {
            self.push(AppCommand::ToggleHelp);
        }
        if esc {
            self.show_help = false;
        }
    }

    /// Draw the whole app into `ui` and advance the simulation. eframe calls
    /// this every frame; tests call it through egui_kittest.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.theme_applied != Some(self.settings.theme) {
            self.settings.theme.apply(&ctx);
            self.theme_applied = Some(self.settings.theme);
        }
        #[cfg(target_arch = "wasm32")]
        {
            let uploaded = self.upload.borrow_mut().take();
            match uploaded {
                Some(Ok(text)) => self.push(AppCommand::LoadScenarioText(text)),
                Some(Err(e)) => self.error(e),
                None => {}
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(reply) = self.file_dialogs.poll() {
            self.apply_dialog_reply(reply, &ctx);
        }
        self.keyboard(&ctx);
        self.apply_commands(&ctx);
        self.finish_screenshot(&ctx);

        // Advance the simulation and the sweep.
        let plan = self.playback.plan(self.session.now());
        self.session.run(plan);
        if self.session.failure().is_some() {
            self.playback.playing = false;
            self.playback.run_until = None;
        }
        self.sweep.tick();
        let searching = self.path_selection.tick(path_selection::FRAME_BUDGET_MS);

        self.top_ui(ui);
        self.status_ui(ui);
        self.left_ui(ui);
        if self.selected.is_some() {
            self.details_panel_ui(ui);
        }
        if self.path_selection.open {
            self.path_selection_ui(ui);
        }
        self.central_ui(ui);
        self.help_ui(&ctx);
        self.file_window_ui(&ctx);

        self.apply_commands(&ctx);
        #[cfg(target_arch = "wasm32")]
        self.publish();
        if self.playback.playing
            || self.playback.pending_steps > 0
            || self.sweep.is_running()
            || searching
            || self.path_selection.is_running()
            || self.screenshot_pending
        {
            ctx.request_repaint();
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn publish(&mut self) {
        let s = &self.session.scenario;
        let what = if s.name.is_empty() {
            &s.topology
        } else {
            &s.name
        };
        let title = format!("routelab · {what} · {}", self.session.sim.routing_name());
        if self.published_json.is_empty() || !self.published_json.contains(&s.topology) {
            self.published_json = serde_json::to_string(s).unwrap_or_default();
        }
        web::publish(
            &title,
            &self.published_json,
            self.session.now(),
            self.frame_cpu_ms,
        );
    }

    fn top_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu_bar").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                self.menus_ui(ui);
            });
        });
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.add_space(2.0);
            ui.horizontal_wrapped(|ui| self.toolbar_ui(ui));
            if let Some(m) = self.message.clone() {
                ui.horizontal(|ui| {
                    let color = if m.is_error {
                        self.settings.theme.error()
                    } else {
                        self.settings.theme.info()
                    };
                    ui.colored_label(color, &m.text);
                    if ui.small_button("Close").on_hover_text("Dismiss").clicked() {
                        self.message = None;
                    }
                });
            }
            ui.add_space(2.0);
        });
    }

    fn menus_ui(&mut self, ui: &mut egui::Ui) {
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
                    self.show_file_window = true;
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
            if self.file_dialogs.button(
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
            if self.file_dialogs.button(
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
            for (i, p) in self.presets.iter().enumerate() {
                if ui
                    .button(&p.scenario.name)
                    .on_hover_text(format!("{}\n({})", p.scenario.description, p.source))
                    .clicked()
                {
                    self.commands.push(AppCommand::LoadPreset(i));
                    ui.close();
                }
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
            ui.radio_value(&mut self.settings.theme, Theme::Dark, "Dark theme");
            ui.radio_value(&mut self.settings.theme, Theme::Light, "Light theme");
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard shortcuts (?)").clicked() {
                self.push(AppCommand::ToggleHelp);
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

    fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
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
        let choices = scenario_panel::routing_choices(&self.session.scenario.topology);
        scenario_panel::spec_field(
            ui,
            "swap_pick",
            &mut self.settings.swap_routing,
            choices,
            "Routing to swap to while running; packets already injected finish with their routing",
        );
        if ui
            .button("Swap balancer")
            .on_hover_text("Swap the running balancer now; the curves mark the moment")
            .clicked()
        {
            self.push(AppCommand::SwapRouting {
                spec: self.settings.swap_routing.clone(),
                on_compare: false,
            });
        }
        ui.separator();
        ui.toggle_value(&mut self.path_selection.open, "Path selection")
            .on_hover_text("Show or hide the static path-selection panel: legal paths, MaxCp, GA, SA and their crossing paths");
    }

    fn path_selection_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("path_selection")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("path_selection_scroll")
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            ui.label(egui::RichText::new("Static path selection").strong());
                            if ui
                                .small_button("Hide")
                                .on_hover_text("Hide the path-selection panel")
                                .clicked()
                            {
                                self.path_selection.open = false;
                            }
                        });
                        ui.separator();
                        self.path_selection.ui(
                            ui,
                            &self.session.scenario,
                            self.session.sim.network(),
                            &mut self.settings.metric,
                            &mut self.commands,
                            self.settings.theme,
                        );
                    });
            });
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let s = &self.session;
                ui.monospace(format!("Cycle {}", s.now()));
                ui.separator();
                ui.monospace(format!("{:.0} cycles/s", s.cycles_per_second()))
                    .on_hover_text("Simulated cycles per wall-clock second");
                ui.separator();
                ui.monospace(format!("{} packets in flight", s.sim.in_flight_packets()))
                    .on_hover_text("Packets inside the network (not counting source queues)");
                ui.separator();
                ui.monospace(format!("{} queued", s.sim.queued_packets()))
                    .on_hover_text("Packets waiting in source queues");
                ui.separator();
                let sum = s.sim.summary();
                ui.monospace(format!(
                    "Latency {:.1} cycles · Accepted {:.3} of {:.3}",
                    sum.avg_latency, sum.accepted, sum.offered
                ))
                .on_hover_text("Measured since the warm-up ended: mean latency and accepted / offered flits per host per cycle");
                ui.separator();
                ui.monospace(format!("Routing {}", s.sim.routing_name()));
                if self.playback.playing {
                    ui.separator();
                    ui.monospace("playing");
                }
                if let Some(f) = s.failure() {
                    ui.separator();
                    ui.colored_label(self.settings.theme.error(), format!("Stopped: {f}"));
                }
            });
        });
    }

    fn left_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::left("controls")
            .resizable(true)
            .default_size(330.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.add_space(4.0);
                    let title = if self.draft.name.is_empty() {
                        "Scenario".to_string()
                    } else {
                        format!("Scenario: {}", self.draft.name)
                    };
                    egui::CollapsingHeader::new(egui::RichText::new(title).strong())
                        .id_salt("scenario_section")
                        .default_open(true)
                        .show(ui, |ui| {
                            scenario_panel::scenario_ui(
                                ui,
                                &mut self.draft,
                                &self.session.scenario,
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
                });
            });
    }

    fn compare_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("Run a second balancer on the same network, traffic and seed, in step.");
        let choices = scenario_panel::routing_choices(&self.session.scenario.topology);
        scenario_panel::spec_field(
            ui,
            "compare_pick",
            &mut self.compare_pick,
            choices,
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
                self.push(AppCommand::SetCompare(Some(self.compare_pick.clone())));
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
        if self.session.compare.is_some()
            && ui
                .button("Swap B's balancer")
                .on_hover_text("Swap run B to the routing in the toolbar's balancer field")
                .clicked()
        {
            self.push(AppCommand::SwapRouting {
                spec: self.settings.swap_routing.clone(),
                on_compare: true,
            });
        }
    }

    fn sweep_ui(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.settings.sweep;
        ui.label("Latency and throughput against offered load, for run A (and B when comparing).");
        ui.horizontal(|ui| {
            ui.label("Loads");
            ui.add(
                egui::DragValue::new(&mut st.load_from)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("First offered load");
            ui.label("to");
            ui.add(
                egui::DragValue::new(&mut st.load_to)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("Last offered load");
            ui.label("step");
            ui.add(
                egui::DragValue::new(&mut st.load_step)
                    .range(0.005..=1.0)
                    .speed(0.005),
            )
            .on_hover_text("Load increment");
        });
        ui.horizontal(|ui| {
            ui.label("Cycles per point");
            ui.add(egui::DragValue::new(&mut st.cycles).range(100..=10_000_000))
                .on_hover_text("Measured cycles per load, after the scenario's warm-up");
        });
        let running = self.sweep.is_running();
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
        let p = self.sweep.progress();
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

    fn details_panel_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("details")
            .resizable(true)
            .default_size(260.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("Selection").strong());
                    if ui
                        .small_button("Close")
                        .on_hover_text("Clear the selection")
                        .clicked()
                    {
                        self.selected = None;
                    }
                });
                ui.separator();
                if let Some(sel) = self.selected {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        for (label, sim) in self.runs() {
                            if self.session.compare.is_some() {
                                ui.label(egui::RichText::new(label).strong());
                            }
                            network_view::details_ui(ui, sim, sel, self.settings.theme);
                            ui.separator();
                        }
                    });
                }
            });
    }

    fn runs(&self) -> Vec<(String, &crate::sim::Simulation)> {
        let mut v = vec![(
            format!("A: {}", self.session.sim.routing_name()),
            &self.session.sim,
        )];
        if let Some(b) = &self.session.compare {
            v.push((format!("B: {}", b.routing_name()), b));
        }
        v
    }

    fn central_ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let total = ui.available_height();
            let view_h = (total * 0.58).max(160.0);
            let theme = self.settings.theme;
            let metric = self.settings.metric;
            let mut selected = self.selected;
            let runs: Vec<(String, &crate::sim::Simulation)> = {
                let mut v = vec![(
                    format!("A: {}", self.session.sim.routing_name()),
                    &self.session.sim,
                )];
                if let Some(b) = &self.session.compare {
                    v.push((format!("B: {}", b.routing_name()), b));
                }
                v
            };
            let mut view_rect = None;
            let heatmap = self.path_selection.heatmap(self.session.sim.network());
            ui.allocate_ui(egui::vec2(ui.available_width(), view_h), |ui| {
                ui.columns(runs.len(), |cols| {
                    for (i, (col, (label, sim))) in cols.iter_mut().zip(&runs).enumerate() {
                        let title = format!("{} · {}", sim.network().spec(), label);
                        let colouring = match (&heatmap, i) {
                            (Some((what, values)), 0) => network_view::Colouring {
                                label: what.clone(),
                                unit: "paths".into(),
                                values: values.clone(),
                            },
                            _ => network_view::Colouring::of(metric, sim),
                        };
                        let r = network_view::network_ui_coloured(
                            col,
                            sim,
                            &colouring,
                            theme,
                            &mut selected,
                            &title,
                        );
                        view_rect = Some(view_rect.map_or(r, |v: egui::Rect| v.union(r)));
                    }
                });
            });
            ui.separator();
            let has_sweep = !self.sweep.progress().points.is_empty() || self.sweep.is_running();
            if has_sweep {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.show_sweep_plot, false, "Live curves");
                    ui.selectable_value(&mut self.show_sweep_plot, true, "Sweep curves");
                });
            }
            if has_sweep && self.show_sweep_plot {
                plots::sweep_curves_ui(ui, &self.sweep.progress().points, theme);
            } else {
                let named: Vec<(&str, &crate::sim::Simulation)> =
                    runs.iter().map(|(l, s)| (l.as_str(), *s)).collect();
                plots::live_curves_ui(ui, &named, theme);
            }
            self.view_rect = view_rect;
            self.selected = selected;
        });
    }

    fn help_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.show_help;
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
                });
                ui.separator();
                ui.label("Hover a channel or switch for its values; click to select it.");
                ui.label("Hover any control for what it does.");
            });
        self.show_help = open && self.show_help;
    }

    fn file_window_ui(&mut self, ctx: &egui::Context) {
        if !self.show_file_window {
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
                        self.file_dialogs.button(
                            ui,
                            "Save as…",
                            "Choose where to save the running scenario in the system file dialog; the Path field then shows that file",
                            file_dialog::Purpose::SaveScenario,
                            &mut self.commands,
                        );
                        self.file_dialogs.button(
                            ui,
                            "Open…",
                            "Choose a scenario file in the system file dialog and apply it; a bad file changes nothing",
                            file_dialog::Purpose::LoadScenario,
                            &mut self.commands,
                        );
                    }
                });
            });
        self.show_file_window = open;
    }
}

impl eframe::App for RoutelabApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.frame_cpu_ms = frame.info().cpu_usage.map(|s| s * 1000.0);
        self.show(ui);
    }

    /// The background of every panel and of the network view (their own
    /// fills are off; see [`Theme::apply`]).
    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        self.settings
            .theme
            .view_background()
            .to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.scenario = self.session.scenario.clone();
        self.settings.speed = self.playback.speed;
        eframe::set_value(storage, eframe::APP_KEY, &self.settings);
    }
}
