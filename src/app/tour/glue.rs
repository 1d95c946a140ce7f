//! A guided tour in the app: starting one (Help menu, `#tour=ID`), issuing
//! each step's actions through the app's own commands, moving on when the
//! step's wait is over, and the checks the UI tests make of each step.

use super::overlay::{self, TourButton};
use super::{Action, Expect, Observed, PairPick, Snapshot, TourRun};
use crate::app::drb_panel;
use crate::app::network_view::Metric;
use crate::app::playback::{PlaybackCommand, Speed};
use crate::app::{AppCommand, RoutelabApp};

impl RoutelabApp {
    /// Start the built-in tour `id`; an unknown id is refused with the
    /// accepted ones.
    pub fn start_tour(&mut self, id: &str) -> Result<(), String> {
        match self.guides.tours.iter().find(|t| t.id == id) {
            Some(t) => {
                self.guides.tour = Some(TourRun::new(t.clone()));
                Ok(())
            }
            None => Err(format!(
                "no tour `{id}`; accepted: {}",
                self.guides
                    .tours
                    .iter()
                    .map(|t| t.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// What a step's wait looks at: run A's cycle, routing and last
    /// measurement window.
    pub fn tour_observed(&self) -> Observed {
        let sim = &self.session.sim;
        let last = sim.stats().windows().last();
        Observed {
            cycle: sim.now(),
            latency: last.map_or(0.0, |w| w.avg_latency),
            accepted: last.map_or(0.0, |w| w.accepted),
            routing: sim.routing_name(),
            step_cycle: self.guides.tour.as_ref().map_or(0, |t| t.step_cycle),
            warmup: sim.measure().warmup,
        }
    }

    /// What a tour step may change, as it is now.
    fn tour_snapshot(&self) -> Snapshot {
        let panels = self
            .panels
            .list()
            .into_iter()
            .filter(|p| p.is_open())
            .map(|p| p.id().to_string())
            .collect();
        Snapshot {
            scenario: self.session.scenario.clone(),
            compare: self.session.compare_routing.clone(),
            metric: self.settings.metric.key().to_string(),
            view: match self.views.central_view {
                crate::app::CentralView::Surface => "surface",
                crate::app::CentralView::Network => "network",
            }
            .to_string(),
            panels,
            cycles_per_frame: match self.playback.speed {
                Speed::CyclesPerFrame(n) => Some(n),
                Speed::AsFastAsPossible => None,
            },
            playing: self.playback.playing,
        }
    }

    /// Put back what a step found (Back).
    fn restore_tour_snapshot(&mut self, snap: Snapshot, ctx: &egui::Context) {
        if snap.scenario != self.session.scenario || snap.compare != self.session.compare_routing {
            self.session.compare = None;
            self.session.compare_routing = None;
            self.apply_scenario(snap.scenario, "The tour's earlier scenario");
            if snap.compare.is_some() {
                self.apply_command(AppCommand::SetCompare(snap.compare), ctx);
            }
        }
        if let Some(m) = Metric::ALL.into_iter().find(|x| x.key() == snap.metric) {
            self.settings.metric = m;
        }
        self.views.central_view = if snap.view == "surface" {
            crate::app::CentralView::Surface
        } else {
            crate::app::CentralView::Network
        };
        for panel in self.panels.list_mut() {
            let open = snap.panels.iter().any(|p| p == panel.id());
            panel.set_open(open, &self.session);
        }
        self.playback.speed = match snap.cycles_per_frame {
            Some(n) => Speed::CyclesPerFrame(n),
            None => Speed::AsFastAsPossible,
        };
        self.playback.playing = snap.playing;
    }

    /// A tour button pressed (the callout, Enter, Escape, or a test).
    pub(in crate::app) fn tour_button(&mut self, b: TourButton, ctx: &egui::Context) {
        let Some(run) = &mut self.guides.tour else {
            return;
        };
        match b {
            TourButton::Back => {
                if run.step == 0 {
                    return;
                }
                run.back();
                if let Some(snap) = run.back_snapshot().cloned() {
                    self.restore_tour_snapshot(snap, ctx);
                }
            }
            TourButton::Next => {
                if run.is_last() {
                    self.guides.tour = None;
                } else {
                    // Refused while the step's wait is not over.
                    run.advance();
                }
            }
            TourButton::End => self.guides.tour = None,
        }
    }

    /// One frame of the tour: the step's actions once, its wait, the
    /// callout and its buttons.
    pub(in crate::app) fn tour_frame(&mut self, ctx: &egui::Context) {
        let snapshot = self.tour_snapshot();
        let Some(run) = &mut self.guides.tour else {
            return;
        };
        if let Some(start) = run.start_step() {
            let actions = start.actions.to_vec();
            let step = run.step;
            if let Some(slot) = run.snapshots.get_mut(step)
                && slot.is_none()
            {
                *slot = Some(snapshot);
            }
            for a in actions {
                self.tour_action(a, ctx);
            }
            let now = self.session.now();
            if let Some(run) = &mut self.guides.tour {
                run.step_cycle = now;
            }
        }
        let observed = self.tour_observed();
        if let Some(run) = &mut self.guides.tour {
            run.poll(&observed);
        }
        let Some(run) = &self.guides.tour else { return };
        let mut pressed = overlay::tour_ui(ctx, run, self.settings.theme);
        if !ctx.egui_wants_keyboard_input() {
            ctx.input_mut(|i| {
                if i.consume_key(egui::Modifiers::NONE, egui::Key::Enter) && run.can_advance() {
                    pressed = Some(if run.is_last() {
                        TourButton::End
                    } else {
                        TourButton::Next
                    });
                }
            });
        }
        if let Some(b) = pressed {
            self.push(AppCommand::Tour(b));
        }
        ctx.request_repaint();
    }

    /// Issue one action through the app's own commands, in order (a
    /// `set` after a `preset` changes the preset's scenario).
    pub(in crate::app) fn tour_action(&mut self, a: Action, ctx: &egui::Context) {
        let cmd = match a {
            Action::Preset(file) => match self.editor.presets.iter().position(|p| p.source == file)
            {
                Some(i) => AppCommand::LoadPreset(i),
                None => return self.error(format!("The tour's preset {file} is missing")),
            },
            Action::Set(fields) => {
                let mut s = self.session.scenario.clone();
                match super::apply_fields(&mut s, &fields) {
                    Ok(()) => AppCommand::Apply(Box::new(s)),
                    Err(e) => return self.error(format!("The tour's change was refused: {e}")),
                }
            }
            Action::SwapRouting(spec) => AppCommand::SwapRouting {
                spec,
                on_compare: false,
            },
            Action::Compare(r) => AppCommand::SetCompare(r),
            Action::Play(true) => AppCommand::Playback(PlaybackCommand::Play),
            Action::Play(false) => AppCommand::Playback(PlaybackCommand::Pause),
            Action::Reset(_) => AppCommand::Playback(PlaybackCommand::Reset),
            Action::Speed(n) => AppCommand::Playback(PlaybackCommand::SetSpeed(
                Speed::CyclesPerFrame(n.clamp(1, 10_000) as u32),
            )),
            Action::Metric(m) => {
                if let Some(m) = Metric::ALL.into_iter().find(|x| x.key() == m) {
                    self.settings.metric = m;
                }
                return;
            }
            Action::Panel(p) => {
                if let Some(panel) = self.panels.get_mut(&p) {
                    panel.reveal(&self.session);
                }
                return;
            }
            Action::Pair(pick) => return self.tour_pick_pair(pick),
            Action::Pod(pod) => return self.tour_unfold_pod(pod, ctx),
            Action::View(v) => {
                self.views.central_view = match v.as_str() {
                    "surface" => crate::app::CentralView::Surface,
                    _ => crate::app::CentralView::Network,
                };
                return;
            }
        };
        self.apply_command(cmd, ctx);
    }

    /// A tour's or demo's `pair` action: the pair picked in the DRB panel (shown), or a
    /// notice saying why none is (run A is not DRB, the switches are not
    /// on its network, no pair is widened yet).
    fn tour_pick_pair(&mut self, pick: PairPick) {
        let sim = &self.session.sim;
        let n = sim.network().num_switches() as u32;
        let pair = match (drb_panel::drb_of(sim), pick) {
            (None, _) => Err(format!(
                "Cannot pick a DRB pair: run A runs {}, not DRB",
                sim.routing_name()
            )),
            (Some(_), PairPick::Switches([a, b])) if a >= n || b >= n => Err(format!(
                "Cannot pick pair {a} to {b}: it is not on {} (switches 0 to {})",
                sim.network().spec(),
                n.saturating_sub(1)
            )),
            (Some(_), PairPick::Switches([a, b])) => Ok(Some((a, b))),
            (Some(drb), PairPick::Named(name)) if name == "widest" => {
                Ok(drb_panel::widened_pairs(drb).first().map(|r| r.pair))
            }
            (Some(_), PairPick::Named(name)) => Err(format!(
                "Cannot pick the pair `{name}`; accepted [SOURCE, DESTINATION] or {}",
                super::PAIR_NAMES.join(", ")
            )),
        };
        if pair.is_ok() {
            self.panels.drb.hidden = false;
        }
        match pair {
            Ok(Some((a, b))) => self.panels.drb.pick(a, b),
            Ok(None) => self.info(
                "No pair is widened yet: the DRB panel lists them as DRB widens them; click one to see its metapath",
            ),
            Err(e) => self.error(e),
        }
    }

    /// A tour's or demo's `pod` action: the pod unfolded (or every pod folded), or a
    /// notice saying why not (not a fat tree, no such pod, a tree small
    /// enough to draw every switch).
    fn tour_unfold_pod(&mut self, pod: Option<u32>, ctx: &egui::Context) {
        let net = self.session.sim.network();
        let spec = net.spec().to_string();
        let k = match net.shape() {
            crate::topology::Shape::FatTree { k } => *k,
            _ => return self.error(format!("Cannot unfold a pod: {spec} is not a fat tree")),
        };
        match pod {
            Some(p) if p >= k => self.error(format!(
                "Cannot unfold pod {p}: {spec} has pods 0 to {}",
                k - 1
            )),
            // Pods are drawn (and fold) in the time-slice model's fat-tree
            // view; the other switch models draw every switch and channel.
            _ if self.session.sim.time_slice().is_none() => self.info(format!(
                "Every switch of {spec} is drawn: pods fold only in the fat-tree view of the timeslice switch model, and this run is {}",
                self.session.sim.switch_model()
            )),
            _ if k < crate::app::fat_tree_view::POD_K => self.info(format!(
                "Every pod of {spec} is drawn unfolded (pods fold from k = {})",
                crate::app::fat_tree_view::POD_K
            )),
            _ => crate::app::fat_tree_view::unfold(ctx, &spec, pod),
        }
    }

    /// What differs from a step's `expect` (empty when all holds); the UI
    /// tests check every step with it.
    pub fn tour_expect_problems(&self, e: &Expect) -> Vec<String> {
        let s = &self.session.scenario;
        let mut p = Vec::new();
        let mut check = |what: &str, want: &Option<String>, got: String| {
            if let Some(w) = want
                && *w != got
            {
                p.push(format!("{what}: expected {w}, shown {got}"));
            }
        };
        check("topology", &e.topology, s.topology.clone());
        check("routing", &e.routing, self.session.sim.routing_name());
        check("traffic", &e.traffic, s.traffic.clone());
        check("metric", &e.metric, self.settings.metric.key().to_string());
        if let Some(panel) = &e.panel {
            let open = self
                .panels
                .list()
                .into_iter()
                .any(|p| p.id() == panel.as_str() && p.is_open());
            if !open {
                p.push(format!("panel {panel} is not open"));
            }
        }
        if let Some(v) = &e.view {
            let shown = match self.views.central_view {
                crate::app::CentralView::Surface => "surface",
                crate::app::CentralView::Network => "network",
            };
            if v != shown {
                p.push(format!("view: expected {v}, shown {shown}"));
            }
        }
        if let Some(m) = &e.switch_model
            && m != s.switch_model.as_str()
        {
            p.push(format!(
                "switch_model: expected {m}, shown {}",
                s.switch_model.as_str()
            ));
        }
        if let Some(w) = e.playing
            && w != self.playback.playing
        {
            p.push(format!("playing: expected {w}"));
        }
        if let Some(w) = e.comparing
            && w != self.session.compare.is_some()
        {
            p.push(format!("comparing: expected {w}"));
        }
        if let Some(w) = e.drb_pair
            && w != self.panels.drb.pair().is_some()
        {
            p.push(format!("drb_pair: expected {w}"));
        }
        p
    }
}

/// The app's clock for demos, in milliseconds.
fn now_ms(ctx: &egui::Context) -> u64 {
    (ctx.input(|i| i.time) * 1000.0).max(0.0) as u64
}

impl RoutelabApp {
    /// Note `cmd` in the demo being recorded, as the action that replays it.
    pub(in crate::app) fn record_demo_step(&mut self, cmd: &AppCommand, ctx: &egui::Context) {
        let Some(demo) = &mut self.guides.demo else {
            return;
        };
        let action = match cmd {
            AppCommand::LoadPreset(i) => match self.editor.presets.get(*i) {
                Some(p) => Action::Preset(p.source.clone()),
                None => return,
            },
            AppCommand::SwapRouting {
                spec,
                on_compare: false,
            } => Action::SwapRouting(spec.clone()),
            AppCommand::SetCompare(r) => Action::Compare(r.clone()),
            AppCommand::Playback(p) => match p {
                PlaybackCommand::Play => Action::Play(true),
                PlaybackCommand::Pause => Action::Play(false),
                PlaybackCommand::TogglePlay => Action::Play(!self.playback.playing),
                PlaybackCommand::Reset => Action::Reset(true),
                PlaybackCommand::SetSpeed(Speed::CyclesPerFrame(n)) => Action::Speed(u64::from(*n)),
                _ => return,
            },
            AppCommand::Apply(s) => match serde_json::to_value(&**s) {
                Ok(serde_json::Value::Object(fields)) => Action::Set(fields),
                _ => return,
            },
            _ => return,
        };
        demo.note(action, now_ms(ctx));
    }

    /// Start recording, or stop and save what was recorded.
    pub(in crate::app) fn toggle_demo_recording(&mut self, ctx: &egui::Context) {
        match self.guides.demo.take() {
            Some(super::demo::DemoState::Recording { demo, .. }) => {
                let text = demo.to_json();
                let steps = demo.steps.len();
                self.guides.last_demo = Some(demo);
                #[cfg(not(target_arch = "wasm32"))]
                let name = std::path::Path::new(&self.settings.file_path)
                    .with_file_name("demo.json")
                    .to_string_lossy()
                    .into_owned();
                #[cfg(target_arch = "wasm32")]
                let name = "demo.json".to_string();
                match crate::app::export::save(&name, "application/json", text.as_bytes()) {
                    Ok(m) => self.info(format!(
                        "Demo of {steps} steps: {m}; open it with File > Open to replay it"
                    )),
                    Err(e) => self.error(e),
                }
            }
            _ => {
                self.guides.demo = Some(super::demo::DemoState::record(now_ms(ctx)));
                self.info("Recording a demo: presets, swaps, comparisons, play and pause are noted with their timing");
            }
        }
    }

    /// Replay a demo from now.
    pub fn start_demo(&mut self, demo: super::demo::Demo) {
        let steps = demo.steps.len();
        self.guides.demo = Some(super::demo::DemoState::Replaying {
            start_ms: u64::MAX,
            demo,
            next: 0,
        });
        self.info(format!("Replaying a demo of {steps} steps"));
    }

    /// One frame of a demo being replayed.
    pub(in crate::app) fn demo_frame(&mut self, ctx: &egui::Context) {
        let now = now_ms(ctx);
        let Some(d) = &mut self.guides.demo else {
            return;
        };
        if let super::demo::DemoState::Replaying { start_ms, .. } = d
            && *start_ms == u64::MAX
        {
            // Its clock starts at the first frame after it was loaded.
            *start_ms = now;
        }
        let (actions, done) = d.due(now);
        let before = self.message.clone();
        for a in actions {
            self.tour_action(a, ctx);
        }
        if done {
            self.guides.demo = None;
            // A step the app refused stays on screen: "finished" would
            // hide why the demo did not show what it meant to; so does
            // what the last steps said (a pod action on a network drawn
            // switch by switch, say), with the end added.
            match &self.message {
                Some(m) if m.is_error => {}
                Some(m) if self.message != before => {
                    let text = format!("{}. The demo finished", m.text);
                    self.info(text);
                }
                _ => self.info("The demo finished"),
            }
        }
        if self.guides.demo.is_some() {
            ctx.request_repaint();
        }
    }
}
