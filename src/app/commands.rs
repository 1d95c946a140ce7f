//! Applying [`AppCommand`]s: scenario changes, playback, runs and
//! exports requested by the UI, and the keyboard shortcuts. The UI draws
//! and pushes commands; [`RoutelabApp`] applies them here after drawing.

use super::*;

impl RoutelabApp {
    /// Rebuild with `s`; on failure show why and change nothing. Returns
    /// whether it was applied.
    pub(super) fn apply_scenario(&mut self, s: Scenario, what: &str) -> bool {
        let s = presets::retitle(s, &self.editor.presets);
        match Session::new(s.clone()) {
            Ok(mut session) => {
                if let Some(r) = self.session.compare_routing.clone()
                    && let Err(e) = session.set_compare(Some(r))
                {
                    self.info(format!("Stopped comparing: {e}"));
                    self.settings.compare_routing = None;
                }
                if session.sim.network().spec() != self.session.sim.network().spec() {
                    self.panels.path_selection.stop();
                }
                self.panels.path_selection.sync_from(&session.scenario);
                self.session = session;
                // The balancer and compare boxes offer only routings that
                // apply to this network: keep their picks among them.
                // A preset's own contrast comes first (what the C key
                // compares with); else a pick that no longer fits, or that
                // is run A's routing under another name (`minimal` is
                // up*/down* on an irregular network; `dor:tie=random` is
                // `dor` on a hypercube), becomes the next routing in the
                // swap order.
                let choices = scenario_panel::routing_choices(&s.topology, s.switch_model);
                let a_name = self.session.sim.routing_name();
                let net = self.session.sim.network().clone();
                let on_net = |r: &str| {
                    r.parse::<crate::routing::RoutingSpec>()
                        .ok()
                        .map(|spec| spec.canonical_on(&net))
                };
                let a_spec = on_net(&a_name);
                let names_a = |r: &str| a_spec.is_some() && on_net(r) == a_spec;
                if let Some(c) = &self.session.scenario.compare_with {
                    self.editor.compare_pick = c.clone();
                } else if !choices.contains(&self.editor.compare_pick)
                    || names_a(&self.editor.compare_pick)
                {
                    let next = self.next_routing(&a_name).filter(|r| !names_a(r));
                    let other = choices.iter().find(|c| !names_a(c)).cloned();
                    if let Some(o) = next.or(other) {
                        self.editor.compare_pick = o;
                    }
                }
                // The Balancer box shows run A's routing.
                self.settings.swap_routing = self.session.sim.routing_name();
                // The scenario as built: its routing under its one name.
                self.editor.draft = self.session.scenario.clone();
                self.settings.scenario = self.session.scenario.clone();
                self.views.selected = None;
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

    /// After a preset (or a tour step's preset) is loaded: no comparison,
    /// no notice of the last scenario, no colouring that does not apply,
    /// only the panels of the preset's paper, the network in view and no
    /// sweep of another scenario.
    pub(super) fn start_clean(&mut self, source: &str) {
        self.message = None;
        self.settings.compare_routing = None;
        if !self.settings.metric.available(&self.session.sim) {
            self.settings.metric = Metric::Utilization;
        }
        self.panels.oblivious.open = source.starts_with(presets::OBLIVIOUS_PREFIX);
        if !source.starts_with("paths-") {
            self.panels.path_selection.open = false;
        }
        self.views.central_view = CentralView::Network;
        self.background.sweep.cancel();
        self.background.sweep = SweepRunner::Idle;
        self.views.show_sweep_plot = false;
        self.playback.run_until = None;
    }

    /// Apply a scenario file's contents; a bad file shows why and changes
    /// nothing. Returns whether it was applied.
    pub(super) fn load_scenario_text(&mut self, text: &str) -> bool {
        // A demo file replays; anything else is read as a scenario.
        match tour::demo::Demo::from_json(text) {
            Some(Ok(demo)) => {
                self.start_demo(demo);
                return true;
            }
            Some(Err(e)) => {
                self.error(format!("The file was not loaded: {e}"));
                return false;
            }
            None => {}
        }
        match Scenario::from_json(text) {
            // A DRB threshold to measure first (a file the file dialog
            // read; commands were deferred before they got here): it
            // applies as a command, once measured, and counts as taken.
            Ok(s)
                if self.background.threshold_wait.is_some() || s.knee_job(&s.routing).is_some() =>
            {
                self.push(AppCommand::Apply(Box::new(s)));
                true
            }
            Ok(s) => self.apply_scenario(s, "The loaded scenario"),
            Err(e) => {
                self.error(format!("The file was not loaded: {e}"));
                false
            }
        }
    }

    /// The live curves of run A (and B) as CSV.
    pub(super) fn curves_csv(&self) -> String {
        let mut runs = vec![("A", &self.session.sim)];
        if let Some(b) = &self.session.compare {
            runs.push(("B", b));
        }
        export::curves_csv(&runs)
    }

    pub(super) fn apply_commands(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.commands);
        for cmd in commands {
            self.apply_command(cmd, ctx);
        }
    }

    pub(super) fn apply_command(&mut self, cmd: AppCommand, ctx: &egui::Context) {
        self.record_demo_step(&cmd, ctx);
        self.dispatch(cmd, ctx);
    }

    /// Apply `cmd` now, or, when it would build a DRB routing whose
    /// threshold is not measured on its router yet (the knee of its static
    /// routing, `sim::knee`), once it is: the one place commands wait
    /// ([`drb_panel::ThresholdWait`]). While one waits, the commands that
    /// follow wait behind it, in order; Cancel drops the waiting one, and
    /// so does a preset, which starts clean (nothing of the run before it
    /// stays, so neither does what waited to change that run).
    fn dispatch(&mut self, cmd: AppCommand, ctx: &egui::Context) {
        if matches!(cmd, AppCommand::LoadPreset(_)) {
            self.background.threshold_wait = None;
        }
        if cmd == AppCommand::CancelThresholdWait {
            if let Some(wait) = self.background.threshold_wait.take() {
                self.info(format!(
                    "Cancelled: {} was not applied (DRB's threshold on this router is not measured)",
                    wait.what
                ));
                for q in wait.queued {
                    self.dispatch(q, ctx);
                }
            }
            return;
        }
        if let Some(wait) = &mut self.background.threshold_wait {
            wait.queued.push(cmd);
            return;
        }
        if let Some((what, jobs)) = self.knee_jobs(&cmd) {
            let wait =
                drb_panel::ThresholdWait::new(cmd, what, jobs, self.background.threshold_in_frames);
            self.message = Some(Message {
                is_error: false,
                text: wait.notice(),
                action: Some(("Cancel".into(), AppCommand::CancelThresholdWait)),
            });
            self.background.threshold_wait = Some(wait);
            return;
        }
        self.apply_now(cmd, ctx);
    }

    /// Advance the command waiting for DRB's threshold, if any, and apply
    /// it (and those queued behind it) once the threshold is measured;
    /// true while it waits (the app asks for another frame).
    pub(super) fn tick_threshold_wait(&mut self, ctx: &egui::Context) -> bool {
        let Some(wait) = &mut self.background.threshold_wait else {
            return false;
        };
        if !wait.tick() {
            let text = wait.notice();
            self.message = Some(Message {
                is_error: false,
                text,
                action: Some(("Cancel".into(), AppCommand::CancelThresholdWait)),
            });
            return true;
        }
        let Some(wait) = self.background.threshold_wait.take() else {
            return false;
        };
        // The notice goes; what the command says replaces it.
        self.message = None;
        self.apply_now(wait.command, ctx);
        for q in wait.queued {
            self.dispatch(q, ctx);
        }
        self.background.threshold_wait.is_some()
    }

    /// The knees `cmd` would measure before it applies, and what it does
    /// (for the notice); `None` when it needs none or they are all kept.
    fn knee_jobs(&self, cmd: &AppCommand) -> Option<(String, Vec<crate::sim::KneeJob>)> {
        let s = &self.session.scenario;
        let compare = self.session.compare_routing.as_deref();
        let both = |sc: &Scenario, with_compare: bool| {
            let mut jobs = vec![sc.knee_job(&sc.routing)];
            if with_compare {
                jobs.extend(compare.map(|r| sc.knee_job(r)));
            }
            jobs
        };
        let (what, jobs): (String, Vec<Option<crate::sim::KneeJob>>) = match cmd {
            AppCommand::Apply(new) => ("the scenario".into(), both(new, true)),
            AppCommand::LoadPreset(i) => {
                let p = self.editor.presets.get(*i)?;
                (
                    format!("preset \"{}\"", p.scenario.name),
                    both(&p.scenario, false),
                )
            }
            AppCommand::LoadScenarioText(text) => {
                let new = Scenario::from_json(text).ok()?;
                ("the loaded scenario".into(), both(&new, true))
            }
            AppCommand::SwapRouting { spec, on_compare } => {
                let run = if *on_compare {
                    self.session.compare.as_ref()?
                } else {
                    &self.session.sim
                };
                let parsed: crate::routing::RoutingSpec = spec.parse().ok()?;
                (
                    format!("the swap to {spec}"),
                    vec![run.swap_knee_job(&parsed)],
                )
            }
            AppCommand::SetCompare(Some(r)) => (format!("comparing with {r}"), vec![s.knee_job(r)]),
            AppCommand::StartSweep => ("the sweep".into(), both(s, true)),
            AppCommand::Playback(PlaybackCommand::Reset) => ("the reset".into(), both(s, true)),
            AppCommand::RestartAndSwap { cure, on_compare } => {
                let c = &cure.scenario;
                let mut jobs = both(c, *on_compare);
                jobs.push(c.knee_job(&cure.spec));
                ("the restart".into(), jobs)
            }
            _ => return None,
        };
        let jobs: Vec<crate::sim::KneeJob> = jobs.into_iter().flatten().collect();
        (!jobs.is_empty()).then_some((what, jobs))
    }

    /// Apply `cmd` now.
    fn apply_now(&mut self, cmd: AppCommand, ctx: &egui::Context) {
        match cmd {
            AppCommand::Playback(p) => self.playback_now(p),
            AppCommand::Apply(s) => {
                self.apply_scenario(*s, "The scenario");
            }
            AppCommand::LoadPreset(i) => self.load_preset(i),
            AppCommand::SwapRouting { spec, on_compare } => self.swap_now(&spec, on_compare),
            AppCommand::RestartAndSwap { cure, on_compare } => {
                self.restart_and_swap(&cure, on_compare)
            }
            AppCommand::SetCompare(r) => match self.session.set_compare(r.clone()) {
                Ok(()) => {
                    // Under the name run B's routing goes by.
                    self.settings.compare_routing = self.session.compare_routing.clone();
                    self.views.selected = None;
                }
                Err(e) => self.error(format!("Cannot compare: {e}")),
            },
            AppCommand::StartSweep => self.start_sweep(),
            AppCommand::CancelSweep => self.background.sweep.cancel(),
            AppCommand::StartTour(id) => {
                if let Err(e) = self.start_tour(&id) {
                    self.error(format!("The tour did not start: {e}"));
                }
            }
            AppCommand::Tour(b) => self.tour_button(b, ctx),
            AppCommand::RecordDemo => self.toggle_demo_recording(ctx),
            AppCommand::SaveScenario => self.save_scenario(),
            AppCommand::LoadScenario => self.load_scenario(ctx),
            AppCommand::LoadScenarioText(text) => {
                self.load_scenario_text(&text);
            }
            AppCommand::CopyLink => self.copy_link(ctx),
            AppCommand::ExportCurvesCsv => {
                let csv = self.curves_csv();
                match export::save("routelab-curves.csv", "text/csv", csv.as_bytes()) {
                    Ok(m) => self.info(m),
                    Err(e) => self.error(e),
                }
            }
            AppCommand::ExportSweepCsv => self.export_sweep_csv(),
            AppCommand::ExportPng => self.export_png(ctx),
            AppCommand::SetTheme(t) => self.settings.theme = t,
            AppCommand::ToggleHelp => self.windows.show_help = !self.windows.show_help,
            #[cfg(not(target_arch = "wasm32"))]
            AppCommand::OpenFileDialog(purpose) => self.open_file_dialog(purpose, ctx),
            // Handled by `dispatch`.
            AppCommand::CancelThresholdWait => {}
        }
    }

    /// Play, pause, step, speed or reset; a reset rebuilds the scenario as
    /// defined and says so when it undoes a live swap.
    fn playback_now(&mut self, p: PlaybackCommand) {
        self.playback.apply(p);
        if let PlaybackCommand::SetSpeed(s) = p {
            self.settings.speed = s;
        }
        if self.playback.reset_requested {
            self.playback.reset_requested = false;
            // Reset rebuilds the scenario as defined: a balancer
            // swapped in live is undone, and the Balancer box and
            // the notice must say so (they named the swapped one).
            // (`swaps` lists the routing a run started with too.)
            let swapped = self.session.sims().any(|r| r.swaps().len() > 1);
            match self.session.reset() {
                Ok(()) => {
                    self.settings.swap_routing = self.session.sim.routing_name();
                    if swapped {
                        self.info(format!(
                            "Reset to cycle 0 with the scenario's balancer, {}: the live swap is undone",
                            self.settings.swap_routing
                        ));
                    }
                }
                Err(e) => self.error(e),
            }
        }
    }

    /// Load preset `i`: it starts clean, nothing of the last one's
    /// comparison, notices, colouring or panels staying; a preset that does
    /// not apply leaves the comparison as it was.
    fn load_preset(&mut self, i: usize) {
        if let Some(p) = self.editor.presets.get(i) {
            let s = p.scenario.clone();
            let source = p.source.clone();
            let name = s.name.clone();
            // A preset starts clean: nothing of the last one's
            // comparison, notices, colouring or panels stays.
            let compare = self.session.compare_routing.take();
            self.session.compare = None;
            if self.apply_scenario(s, &format!("Preset \"{name}\"")) {
                self.start_clean(&source);
            } else if let Some(r) = compare {
                let _ = self.session.set_compare(Some(r));
            }
        }
    }

    /// Swap run A's (or run B's) balancer live; a refusal offers its cure.
    fn swap_now(&mut self, spec: &str, on_compare: bool) {
        match self.session.swap_routing(spec, on_compare) {
            Ok(()) if !on_compare => {
                // The Balancer box shows what run A runs now.
                self.settings.swap_routing = self.session.sim.routing_name();
                self.info(format!(
                    "Swapped the balancer to {} at cycle {}",
                    self.settings.swap_routing,
                    self.session.now()
                ))
            }
            Ok(()) => self.info(format!(
                "Swapped {} to {spec} at cycle {}",
                if on_compare { "run B" } else { "the balancer" },
                self.session.now()
            )),
            Err(e) => self.refuse_swap(spec, on_compare, e),
        }
    }

    /// A refused swap's notice: the VC hint when that is the reason, and the
    /// way out ("Restart with ... and swap") when a scenario change is one.
    fn refuse_swap(&mut self, spec: &str, on_compare: bool, e: impl std::fmt::Display) {
        let vcs = self.session.scenario.vcs;
        let net = self.session.sim.network().clone();
        let text = match oblivious::vc_hint(spec, &net, vcs) {
            Some(hint) => format!("Swap refused: {hint}"),
            None => format!("Swap refused: {e}"),
        };
        // The way out, when a scenario change is one.
        let run_routing = if on_compare {
            self.session.compare_routing.clone()
        } else {
            Some(self.session.scenario.routing.clone())
        };
        let cure =
            run_routing.and_then(|r| swap_cure::cure(&self.session.scenario, &net, spec, &r));
        match cure {
            Some(c) => self.error_with(
                text,
                c.label(),
                AppCommand::RestartAndSwap {
                    cure: Box::new(c),
                    on_compare,
                },
            ),
            None => self.error(text),
        }
    }

    /// Restart with a refused swap's cure and swap; Revert puts the scenario
    /// before back.
    fn restart_and_swap(&mut self, cure: &swap_cure::Cure, on_compare: bool) {
        let before = self.session.scenario.clone();
        let what = format!("The scenario with {}", cure.changes.join(" and "));
        if self.apply_scenario(cure.scenario.clone(), &what) {
            self.session.replaced = Some(before);
            match self.session.swap_routing(&cure.spec, on_compare) {
                Ok(()) => {
                    if !on_compare {
                        self.settings.swap_routing = self.session.sim.routing_name();
                    }
                    self.info(format!(
                        "Restarted at cycle 0 with {} and swapped {} to {}; \
                         Revert in the Scenario panel puts the scenario before back",
                        cure.changes.join(" and "),
                        if on_compare { "run B" } else { "the balancer" },
                        cure.spec
                    ));
                }
                Err(e) => self.error(format!("Restarted, but the swap was refused: {e}")),
            }
        }
    }

    /// Sweep the loads for run A's routing (and run B's).
    fn start_sweep(&mut self) {
        let mut routings = vec![self.session.scenario.routing.clone()];
        routings.extend(self.session.compare_routing.clone());
        match SweepJob::new(
            self.session.scenario.clone(),
            &routings,
            &self.settings.sweep,
        ) {
            Ok(job) => {
                self.background.sweep = SweepRunner::start(job);
                self.views.show_sweep_plot = true;
            }
            Err(e) => self.error(format!("Sweep not started: {e}")),
        }
    }

    /// Save the running scenario (the file path's field; the browser downloads it).
    fn save_scenario(&mut self) {
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

    /// Open a scenario file (the browser asks for one).
    fn load_scenario(&mut self, ctx: &egui::Context) {
        #[cfg(not(target_arch = "wasm32"))]
        match export::load_text(&self.settings.file_path) {
            Ok(text) => self.apply_command(AppCommand::LoadScenarioText(text), ctx),
            Err(e) => self.error(e),
        }
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = web::pick_text_file(self.windows.upload.clone(), ctx.clone()) {
            self.error(e);
        }
    }

    /// Copy the link that opens this experiment (on the desktop, its fragment).
    fn copy_link(&mut self, ctx: &egui::Context) {
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
            self.info(
                "Copied the link fragment (#scenario=...); append it to the web app's address",
            );
        }
    }

    /// Export the sweep's points as CSV.
    fn export_sweep_csv(&mut self) {
        let points = self.background.sweep.progress().points;
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

    /// Ask for a picture of the window ([`Self::finish_screenshot`] saves it).
    fn export_png(&mut self, ctx: &egui::Context) {
        let slot = self.exports.screenshot.clone();
        let ctx2 = ctx.clone();
        ctx.request_screenshot(move |img| {
            if let Ok(mut s) = slot.lock() {
                *s = Some(img);
            }
            ctx2.request_repaint();
        });
        self.exports.screenshot_pending = true;
    }

    pub(super) fn finish_screenshot(&mut self, ctx: &egui::Context) {
        if !self.exports.screenshot_pending {
            return;
        }
        let img = self
            .exports
            .screenshot
            .lock()
            .ok()
            .and_then(|mut s| s.take());
        let Some(img) = img else {
            return;
        };
        self.exports.screenshot_pending = false;
        let img = match self.exports.view_rect {
            Some(r) if !self.exports.whole_window_png => {
                img.region(&r, Some(ctx.pixels_per_point()))
            }
            _ => (*img).clone(),
        };
        let closing = std::mem::take(&mut self.exports.whole_window_png);
        #[cfg(not(target_arch = "wasm32"))]
        let chosen = self.exports.png_path.take();
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
        // `routelab app --screenshot`: done, close the window.
        #[cfg(target_arch = "wasm32")]
        let _ = closing;
        #[cfg(not(target_arch = "wasm32"))]
        if closing && self.exports.auto_screenshot.is_some() {
            if let Some(Message {
                is_error: true,
                text,
                ..
            }) = &self.message
            {
                eprintln!("error: {text}");
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// `routelab app --screenshot`: once the warm-up and the cycles asked
    /// for have run, take a PNG of the whole window.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn auto_screenshot_frame(&mut self, ctx: &egui::Context) {
        let Some(shot) = &mut self.exports.auto_screenshot else {
            return;
        };
        let due = self.session.sim.measure().warmup.saturating_add(shot.after);
        // Stop exactly there (playing flat out would overshoot by frames).
        if self.playback.playing && self.playback.run_until.is_none() && self.session.now() < due {
            self.playback.run_until = Some(due);
        }
        // Done: the cycles ran, the run failed, or (a tour's paused first
        // step) nothing plays and the window has settled.
        let ready = self.session.now() >= due
            || self.session.failure().is_some()
            || (!self.playback.playing && ctx.cumulative_pass_nr() > 60);
        // And not while windows still fade in (a tour's card is drawn half
        // transparent for its first tenth of a second): a second after the
        // start, whatever the frame rate.
        let settled = ctx.input(|i| i.time) >= 1.0;
        if ready && !settled {
            // Paused, nothing else asks for a frame: ask for the next.
            ctx.request_repaint();
        }
        let ready = ready && settled;
        if shot.asked || !ready {
            return;
        }
        shot.asked = true;
        let png = shot.png.clone();
        // The curves as this frame drew them: nothing runs between the
        // drawing and the screenshot it takes.
        if let Some(csv_path) = shot.curves_csv.clone() {
            match export::save_to(&csv_path, self.curves_csv().as_bytes()) {
                Ok(_) => {}
                Err(e) => eprintln!("error: {e}"),
            }
        }
        self.exports.png_path = Some(png);
        self.exports.whole_window_png = true;
        self.push(AppCommand::ExportPng);
    }

    pub(super) fn keyboard(&mut self, ctx: &egui::Context) {
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
            if self.windows.show_help {
                self.windows.show_help = false;
            } else if self.guides.tour.is_some() {
                self.push(AppCommand::Tour(tour::overlay::TourButton::End));
            }
        }
    }
}
