//! The routelab app: one egui program for the desktop and the browser that
//! steps the simulation in the same process.
//!
//! Layout of this module: one file per concept. This file holds the app's
//! state and [`Settings`]; [`app_command`] the commands ([`AppCommand`]) and
//! the notice; `commands` applies the commands,
//! `menus`, `panels` and `windows` draw the menu bar and toolbar, the
//! panels and the floating windows. [`playback`] (commands and
//! state, no egui), [`session`] (the running simulations, no egui),
//! [`scenario_panel`], [`network_view`] ([`fat_tree_view`] for the
//! time-slice model's fat tree), [`plots`], [`sweep`] (background
//! load sweeps), [`path_selection`] (static path selection, live GA/SA),
//! [`oblivious`] (oblivious routing on tori: analysis beside simulation),
//! [`latency_surface`] (DRB's Fig. 9 surface), [`drb_panel`] (DRB's
//! metapaths and expansion), [`presets`], [`share`] (scenario in the URL),
//! [`export`]
//! (CSV, PNG, JSON files), `file_dialog` (the system file dialog, native
//! only), [`theme`], and `web` (browser glue, wasm only).
//! UI functions draw and push [`AppCommand`]s; [`RoutelabApp`] applies them
//! after drawing.

pub mod app_command;
pub mod app_state;
mod central_panel;
pub mod colour_scale;
pub mod colouring;
mod commands;
pub mod digest_run;
pub mod dragonfly_panel;
pub mod drb_panel;
pub mod export;
pub mod fabric_view;
pub mod fat_tree_view;
#[cfg(not(target_arch = "wasm32"))]
pub mod file_dialog;
#[cfg(not(target_arch = "wasm32"))]
pub mod file_purpose;
pub mod fitted_text;
pub mod latency_surface;
mod left_panel;
pub mod live_series;
mod menus;
pub mod network_view;
pub mod oblivious;
pub mod panel;
pub mod panels;
pub mod path_selection;
pub mod playback;
pub mod plot_axes;
pub mod plots;
pub mod presenter;
pub mod presets;
pub mod scenario_panel;
pub mod session;
pub mod share;
pub mod side_panel;
#[cfg(not(target_arch = "wasm32"))]
pub mod startup;
mod status_bar;
pub mod swap_cure;
pub mod swap_order;
pub mod sweep;
pub mod sweep_runner;
#[cfg(not(target_arch = "wasm32"))]
mod sweep_threads;
pub mod theme;
pub mod tour;
pub mod view;
pub mod views;
#[cfg(target_arch = "wasm32")]
pub mod web;
mod windows;

use crate::scenario::Scenario;
pub use app_command::{AppCommand, Message};
use network_view::Metric;
use playback::{Playback, PlaybackCommand, Speed};
use presets::Preset;
use serde::{Deserialize, Serialize};
use session::Session;
use sweep::{SweepJob, SweepSettings};
use sweep_runner::SweepRunner;
use theme::Theme;

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

/// The app.
pub struct RoutelabApp {
    pub settings: Settings,
    pub session: Session,
    pub playback: Playback,
    pub message: Option<Message>,
    /// The side panels: path selection, the oblivious analysis, DRB's
    /// metapaths, and any added ([`panels::Panels`]).
    pub panels: panels::Panels,
    commands: Vec<AppCommand>,
    /// The scenario editor's state: the draft being edited, the Compare box's pick and the presets it offers.
    pub editor: app_state::Editor,
    /// What the central views show and what they drew last frame: the selection, the network or the latency surface, the surface's camera, the sweep plot's tab, and the reports tests read.
    pub views: app_state::Views,
    /// Pictures on their way out: the view's rectangle, the screenshot in flight and where it goes.
    pub exports: app_state::Exports,
    /// The windows and dialogs over the app: help, the file window, the system file dialogs, the web's upload and published link.
    pub windows: app_state::Windows,
    /// Work the app does across frames besides the run: the load sweep, a digest run, a command waiting for DRB's threshold.
    pub background: app_state::Background,
    /// Talks and tours: the built-in tours, the tour being taken, presenter mode, the demo being recorded or replayed and the last one recorded.
    pub guides: app_state::Guides,
    /// What the app remembers of the frames themselves: the theme applied last, the time the last frame took.
    pub frame: app_state::FrameState,
}

/// One run's network view as drawn (tests check the screen with it).
#[derive(Clone, Debug, PartialEq)]
pub struct ViewReport {
    /// 0 for run A, 1 for run B.
    pub run: usize,
    /// The view's rectangle on screen.
    pub rect: egui::Rect,
    /// The top of the colour range: shared by the runs when comparing
    /// (None: the view's own largest value).
    pub colour_max: Option<f64>,
}

/// What the central view shows above the curves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CentralView {
    /// The network, channels coloured by a metric.
    #[default]
    Network,
    /// DRB's latency surface (Fig. 9): per-node queueing delay in 3-D.
    Surface,
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
        // A saved scenario whose DRB threshold is not measured on its
        // router yet opens after the default one, once it is (the window
        // opens at once; [`drb_panel::ThresholdWait`]).
        let wait = settings
            .scenario
            .knee_job(&settings.scenario.routing)
            .is_some();
        let first = if wait {
            Settings::default().scenario
        } else {
            settings.scenario.clone()
        };
        let session = match Session::new(first) {
            Ok(s) => s,
            Err(e) => {
                message = Some(Message {
                    is_error: true,
                    text: format!("The saved scenario does not build, using the default: {e}"),
                    action: None,
                });
                Session::new(Settings::default().scenario).unwrap_or_else(|_| {
                    Session::new(Scenario::default()).expect("the default scenario builds")
                })
            }
        };
        let (presets, mut problems) = presets::all();
        let (tours, tour_problems) = tour::all();
        problems.extend(tour_problems);
        if message.is_none() && !problems.is_empty() {
            message = Some(Message {
                is_error: true,
                text: format!("Some preset files were skipped: {}", problems.join("; ")),
                action: None,
            });
        }
        let playback = Playback {
            speed: settings.speed,
            ..Playback::default()
        };
        let mut panels = panels::Panels::default();
        panels.path_selection.sync_from(&session.scenario);
        let mut app = RoutelabApp {
            panels,
            editor: app_state::Editor {
                draft: session.scenario.clone(),
                compare_pick: settings
                    .compare_routing
                    .clone()
                    .unwrap_or_else(|| "dor:tie=random".into()),
                presets,
            },
            session,
            playback,
            message,
            commands: Vec::new(),
            views: app_state::Views::default(),
            exports: app_state::Exports::default(),
            windows: app_state::Windows::default(),
            background: app_state::Background {
                threshold_in_frames: cfg!(target_arch = "wasm32"),
                ..Default::default()
            },
            guides: app_state::Guides {
                tours,
                ..Default::default()
            },
            frame: app_state::FrameState::default(),
            settings,
        };
        if wait {
            let saved = app.settings.scenario.clone();
            app.push(AppCommand::Apply(Box::new(saved)));
        }
        if let Some(r) = app.settings.compare_routing.clone() {
            if app.session.scenario.knee_job(&r).is_some() || wait {
                app.push(AppCommand::SetCompare(Some(r)));
            } else if app.session.set_compare(Some(r)).is_err() {
                app.settings.compare_routing = None;
            }
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
                    if app.apply_scenario(s, "the link's scenario")
                        && let Some(cycles) =
                            digest_run::requested(&hash).or_else(|| digest_run::requested(&query))
                    {
                        app.start_digest_run(cycles);
                    }
                }
                Some(Err(e)) => app.error(format!("{e} (kept the previous scenario)")),
                None => web::set_fragment(&share::encode_fragment(&app.session.scenario)),
            }
            if presenter::requested(&hash) || presenter::requested(&query) {
                app.guides.presenter.on = true;
            }
            if let Some(id) = tour::requested(&hash).or_else(|| tour::requested(&query))
                && let Err(e) = app.start_tour(&id)
            {
                app.error(format!("The link's tour did not start: {e}"));
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
            action: None,
        });
    }

    /// An error with a button that offers the way out.
    fn error_with(&mut self, text: impl Into<String>, label: String, action: AppCommand) {
        self.message = Some(Message {
            is_error: true,
            text: text.into(),
            action: Some((label, action)),
        });
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            is_error: false,
            text: text.into(),
            action: None,
        });
    }

    /// Draw the whole app into `ui` and advance the simulation. eframe calls
    /// this every frame; tests call it through egui_kittest.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.frame.theme_applied != Some(self.settings.theme) {
            self.settings.theme.apply(&ctx);
            self.frame.theme_applied = Some(self.settings.theme);
        }
        #[cfg(target_arch = "wasm32")]
        {
            let uploaded = self.windows.upload.borrow_mut().take();
            match uploaded {
                Some(Ok(text)) => self.push(AppCommand::LoadScenarioText(text)),
                Some(Err(e)) => self.error(e),
                None => {}
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(reply) = self.windows.file_dialogs.poll() {
            self.apply_dialog_reply(reply, &ctx);
        }
        self.keyboard(&ctx);
        self.presenter_keys(&ctx);
        self.apply_commands(&ctx);
        let measuring = self.tick_threshold_wait(&ctx);
        self.presenter_look(&ctx);
        self.finish_screenshot(&ctx);

        // Advance the simulation and the sweep.
        let warmup = self.session.sim.measure().warmup;
        let plan = self.playback.plan(self.session.now(), warmup);
        // Panels sample as the cycles run, not once a frame (DRB's curves).
        let panels = &mut self.panels;
        self.session
            .run_sampled(plan, panel::SAMPLE_CYCLES, |sims| panels.sample(sims));
        if self.session.failure().is_some() {
            self.playback.playing = false;
            self.playback.run_until = None;
        }
        self.background.sweep.tick();
        let sims: Vec<&crate::sim::Simulation> = self.session.sims().collect();
        self.panels.observe(&sims);
        let digesting = self.tick_digest_run();
        // Every panel's background work (a search, an analysis).
        let panels_busy = self.panels.tick(&self.session);

        self.top_ui(ui);
        self.status_ui(ui);
        // One right-hand panel at a time: the one opened last stays, the
        // others close, so the central view never collapses between them
        // (the stage issue: with three open, titles overprinted and
        // colour-bar numbers overlapped).
        self.panels.dock(&self.session);
        // Presenter mode gives the side panels' room to the views.
        if !self.guides.presenter.on {
            self.left_ui(ui);
            let mut cx = panel::PanelContext {
                session: &self.session,
                metric: &mut self.settings.metric,
                commands: &mut self.commands,
                theme: self.settings.theme,
            };
            for p in self.panels.list_mut() {
                if panel::shown(p, cx.session) {
                    panel::show_docked(ui, p, &mut cx);
                }
            }
        }
        self.central_ui(ui);
        self.panels.take_selection(&mut self.views.selected);
        self.help_ui(&ctx);
        self.file_window_ui(&ctx);
        self.tour_frame(&ctx);
        self.demo_frame(&ctx);

        #[cfg(not(target_arch = "wasm32"))]
        self.auto_screenshot_frame(&ctx);
        self.apply_commands(&ctx);
        #[cfg(target_arch = "wasm32")]
        self.publish();
        if self.playback.playing
            || self.playback.pending_steps > 0
            || self.background.sweep.is_running()
            || panels_busy
            || self.exports.screenshot_pending
            || digesting
            || measuring
            || self.guides.tour.is_some()
        {
            ctx.request_repaint();
        }
    }

    /// Start a run of the applied scenario towards its digest
    /// ([`digest_run`]); `cycles` overrides its length.
    pub fn start_digest_run(&mut self, cycles: Option<u64>) {
        match digest_run::DigestRun::new(&self.session.scenario, cycles) {
            Ok(run) => self.background.digest_run = Some(run),
            Err(e) => self.error(format!("The digest run did not start: {e}")),
        }
    }

    /// Advance the digest run a frame's slice; true while it runs.
    fn tick_digest_run(&mut self) -> bool {
        let Some(run) = &mut self.background.digest_run else {
            return false;
        };
        let done = run.tick(30);
        #[cfg(target_arch = "wasm32")]
        {
            let (state, text) = run.page_state();
            web::publish_digest(state, &text, run.progress());
        }
        !done
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
        if self.windows.published_json.is_empty()
            || !self.windows.published_json.contains(&s.topology)
        {
            self.windows.published_json = serde_json::to_string(s).unwrap_or_default();
        }
        // The first window measured after the warm-up (windows are
        // sampled during it too, for the curves): what the browser test's
        // warm-up bar waits for.
        let warmup = self.session.sim.measure().warmup;
        let first_latency = self
            .session
            .sim
            .stats()
            .windows()
            .iter()
            .find(|w| w.cycle > warmup)
            .map(|w| w.avg_latency);
        web::publish(
            &title,
            &self.windows.published_json,
            self.session.now(),
            self.frame.frame_cpu_ms,
            first_latency,
        );
    }
}

impl eframe::App for RoutelabApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.frame.frame_cpu_ms = frame.info().cpu_usage.map(|s| s * 1000.0);
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
