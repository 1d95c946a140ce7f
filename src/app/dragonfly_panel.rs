//! The adaptive-decisions panel: what UGAL-L, UGAL-G and PAR decide on a
//! dragonfly (Kim et al., ISCA 2008, §4.2; Jiang et al., ISCA 2009, §3),
//! live. Per run, the share of the packets of the last
//! [`WINDOW_CYCLES`] sent minimally, non-minimally from the source router
//! and turned non-minimal at the next router (PAR), as a curve over the
//! run and per source group; for a global channel the user clicks, which
//! source groups' packets cross it. It reads the routing's own counters
//! ([`DragonflyAdaptive::decisions`], [`DragonflyAdaptive::channel_groups`])
//! and shows itself when a run is routed by one of them.

use super::colouring::Selected;
use super::panel::{Panel, PanelContext, SAMPLE_CYCLES};
use super::session::Session;
use crate::routing::dragonfly::{Decisions, DragonflyAdaptive};
use crate::sim::Simulation;
use crate::topology::ChannelId;
use egui::{Color32, RichText};
use egui_plot::{Line, PlotPoints};
use std::collections::VecDeque;

/// Cycles the shares are taken over.
pub const WINDOW_CYCLES: u64 = 1000;
/// Samples in a window.
const WINDOW: usize = (WINDOW_CYCLES / SAMPLE_CYCLES) as usize;
/// Most points kept per curve.
const MAX_POINTS: usize = 4000;

/// The adaptive routing of a run, if its current routing is one.
pub fn adaptive_of(sim: &Simulation) -> Option<&DragonflyAdaptive> {
    sim.endpoints()
        .routings()
        .last()?
        .as_any()?
        .downcast_ref::<DragonflyAdaptive>()
}

/// Packets decided: minimal, non-minimal at the source, turned later.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shares {
    pub minimal: u64,
    pub at_source: u64,
    pub late: u64,
}

impl Shares {
    fn of(d: &Decisions, group: Option<usize>) -> Shares {
        let sum = |v: &[u64]| match group {
            Some(g) => v.get(g).copied().unwrap_or(0),
            None => v.iter().sum(),
        };
        Shares {
            minimal: sum(&d.minimal),
            at_source: sum(&d.at_source),
            late: sum(&d.late),
        }
    }
    fn since(self, old: Shares) -> Shares {
        Shares {
            minimal: self.minimal.saturating_sub(old.minimal),
            at_source: self.at_source.saturating_sub(old.at_source),
            late: self.late.saturating_sub(old.late),
        }
    }
    fn total(&self) -> u64 {
        self.minimal + self.at_source + self.late
    }
    /// The non-minimal share, 0 to 1 (none decided: 0).
    pub fn nonminimal(&self) -> f64 {
        (self.at_source + self.late) as f64 / self.total().max(1) as f64
    }
}

/// One run's record.
#[derive(Clone, Debug, Default)]
struct RunRecord {
    routing: String,
    /// The last window's samples (oldest first).
    window: VecDeque<Decisions>,
    /// (cycle, non-minimal share over the window ending there).
    curve: Vec<[f64; 2]>,
}

/// The panel's state.
#[derive(Default)]
pub struct AdaptiveDecisions {
    hidden: bool,
    runs: Vec<RunRecord>,
    last_sample: Option<u64>,
    /// The global channel picked on the network.
    channel: Option<ChannelId>,
}

impl AdaptiveDecisions {
    /// The shares of run `i` over the last window, for `group` or all
    /// groups (`None` before two samples).
    pub fn window_shares(&self, i: usize, group: Option<usize>) -> Option<Shares> {
        let w = &self.runs.get(i)?.window;
        let (old, new) = (w.front()?, w.back()?);
        (w.len() > 1).then(|| Shares::of(new, group).since(Shares::of(old, group)))
    }

    /// The non-minimal share curve of run `i`: (cycle, share).
    pub fn curve(&self, i: usize) -> &[[f64; 2]] {
        self.runs.get(i).map_or(&[], |r| &r.curve)
    }

    /// The picked global channel.
    pub fn picked_channel(&self) -> Option<ChannelId> {
        self.channel
    }

    fn notice_reset(&mut self, sims: &[&Simulation]) {
        let now = sims.first().map(|s| s.now());
        let swapped = sims.iter().zip(&self.runs).any(|(s, r)| {
            !r.routing.is_empty()
                && adaptive_of(s).is_some_and(|a| crate::routing::Routing::name(a) != r.routing)
        });
        if swapped || self.last_sample.zip(now).is_some_and(|(t, n)| n < t) {
            self.runs.clear();
            self.last_sample = None;
        }
    }

    fn record(&mut self, sims: &[&Simulation]) {
        let Some(now) = sims.first().map(|s| s.now()) else {
            return;
        };
        self.notice_reset(sims);
        if self.last_sample.is_some_and(|t| now < t + SAMPLE_CYCLES) {
            return;
        }
        self.last_sample = Some(now);
        self.runs.resize(sims.len(), RunRecord::default());
        for (sim, run) in sims.iter().zip(self.runs.iter_mut()) {
            let Some(a) = adaptive_of(sim) else {
                *run = RunRecord::default();
                continue;
            };
            run.routing = crate::routing::Routing::name(a);
            run.window.push_back(a.decisions().clone());
            if run.window.len() > WINDOW + 1 {
                run.window.pop_front();
            }
            if let (Some(old), Some(new)) = (run.window.front(), run.window.back())
                && run.window.len() > 1
            {
                let s = Shares::of(new, None).since(Shares::of(old, None));
                if s.total() > 0 {
                    run.curve.push([now as f64, 100.0 * s.nonminimal()]);
                }
            }
            if run.curve.len() > MAX_POINTS {
                run.curve.drain(..MAX_POINTS / 2);
            }
        }
    }
}

/// The colours of the three outcomes: minimal, non-minimal from the
/// source, turned at the next router (legible on either theme).
const OUTCOMES: [Color32; 3] = [
    Color32::from_rgb(70, 160, 90),
    Color32::from_rgb(235, 140, 40),
    Color32::from_rgb(170, 90, 200),
];
/// A channel's bars.
const BAR: Color32 = Color32::from_rgb(90, 150, 220);

/// One bar split in the outcomes' proportions.
fn share_bar(ui: &mut egui::Ui, s: Shares, width: f32) -> egui::Response {
    let (rect, r) = ui.allocate_exact_size(egui::vec2(width, 12.0), egui::Sense::hover());
    let total = s.total().max(1) as f32;
    let mut x = rect.left();
    for (n, c) in [s.minimal, s.at_source, s.late].into_iter().zip(OUTCOMES) {
        let w = rect.width() * n as f32 / total;
        ui.painter().rect_filled(
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, rect.height())),
            0.0,
            c,
        );
        x += w;
    }
    if s.total() == 0 {
        ui.painter()
            .rect_stroke(rect, 0.0, (1.0, Color32::GRAY), egui::StrokeKind::Inside);
    }
    r.on_hover_text(format!(
        "{} minimal, {} non-minimal from the source, {} turned at the next router",
        s.minimal, s.at_source, s.late
    ))
}

fn percent(x: u64, total: u64) -> String {
    format!("{:.0} %", 100.0 * x as f64 / total.max(1) as f64)
}

fn panel_ui(ui: &mut egui::Ui, panel: &AdaptiveDecisions, cx: &PanelContext<'_>) {
    let theme = cx.theme;
    let runs = cx.session.labelled_runs();
    ui.label(
        "UGAL chooses per packet, at its source router, between the minimal route (local, \
         global, local) and a Valiant route through a random group, by the queues it sees; \
         PAR may choose again at the next router.",
    );
    ui.horizontal_wrapped(|ui| {
        for (name, c) in [
            "minimal",
            "non-minimal at the source",
            "turned at the next router",
        ]
        .into_iter()
        .zip(OUTCOMES)
        {
            let (r, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 0.0, c);
            ui.label(RichText::new(name).small());
        }
    });
    ui.separator();
    for (i, (label, sim)) in runs.iter().enumerate() {
        if adaptive_of(sim).is_none() {
            ui.label(format!("{label}: not an adaptive dragonfly routing"));
            continue;
        }
        ui.label(RichText::new(label).strong());
        match panel.window_shares(i, None) {
            Some(s) if s.total() > 0 => {
                ui.label(format!(
                    "Last {WINDOW_CYCLES} cycles: {} minimal, {} non-minimal from the source, \
                     {} turned at the next router ({} packets between groups)",
                    percent(s.minimal, s.total()),
                    percent(s.at_source, s.total()),
                    percent(s.late, s.total()),
                    s.total()
                ));
                share_bar(ui, s, ui.available_width());
            }
            _ => {
                ui.label("Run it: the shares appear after the first 100 cycles.");
            }
        }
    }
    ui.add_space(4.0);
    ui.label(
        RichText::new(super::plot_axes::plot_title(
            "Non-minimal packets",
            "cycle",
            "%",
            120.0,
        ))
        .small(),
    );
    super::plot_axes::plot("dragonfly_nonminimal", "cycle", "%", 120.0)
        .include_y(0.0)
        .include_y(100.0)
        .show(ui, |plot| {
            for (i, (label, _)) in runs.iter().enumerate() {
                let pts: PlotPoints = panel.curve(i).to_vec().into();
                plot.line(
                    Line::new(label.clone(), pts)
                        .color(theme.series(i))
                        .width(1.5),
                );
            }
        });
    ui.separator();
    if let Some((label, sim)) = runs.first()
        && let Some(a) = adaptive_of(sim)
    {
        ui.label(
            RichText::new(format!(
                "By source group, last {WINDOW_CYCLES} cycles ({label})"
            ))
            .strong(),
        );
        let groups = a.decisions().minimal.len();
        egui::Grid::new("dragonfly_groups")
            .num_columns(2)
            .show(ui, |ui| {
                for g in 0..groups.min(64) {
                    ui.label(format!("group {g}"));
                    let s = panel.window_shares(0, Some(g)).unwrap_or_default();
                    share_bar(ui, s, 180.0);
                    ui.end_row();
                }
            });
        ui.separator();
        channel_ui(ui, panel, sim, a);
    }
}

/// Which source groups' packets cross the picked global channel.
fn channel_ui(
    ui: &mut egui::Ui,
    panel: &AdaptiveDecisions,
    sim: &Simulation,
    a: &DragonflyAdaptive,
) {
    let Some(ch) = panel.channel else {
        ui.label(
            "Click a global channel (a chord between two groups) to see whose packets cross it.",
        );
        return;
    };
    let net = sim.network();
    let Some(counts) = a.channel_groups(ch) else {
        ui.label(format!(
            "{} is not a global channel: click a chord between two groups.",
            net.channel_name(ch)
        ));
        return;
    };
    let total: u64 = counts.iter().map(|&c| c as u64).sum();
    ui.label(RichText::new(format!("{}: packets by source group", net.channel_name(ch))).strong());
    if total == 0 {
        ui.label("No packet has crossed it yet.");
        return;
    }
    let max = counts.iter().copied().max().unwrap_or(1).max(1) as f32;
    egui::Grid::new("dragonfly_channel")
        .num_columns(3)
        .show(ui, |ui| {
            for (g, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
                ui.label(format!("group {g}"));
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(140.0, 10.0), egui::Sense::hover());
                let w = rect.width() * n as f32 / max;
                ui.painter().rect_filled(
                    egui::Rect::from_min_size(rect.min, egui::vec2(w, rect.height())),
                    0.0,
                    BAR,
                );
                ui.label(percent(n as u64, total));
                ui.end_row();
            }
        });
}

impl Panel for AdaptiveDecisions {
    fn id(&self) -> &'static str {
        "dragonfly"
    }
    fn title(&self) -> &'static str {
        "Adaptive decisions"
    }
    fn hover(&self) -> &'static str {
        "What UGAL-L, UGAL-G and PAR decide on a dragonfly: minimal or Valiant, per window and source group, and whose packets cross a global channel"
    }
    fn applies(&self, session: &Session) -> bool {
        session.sims().any(|s| adaptive_of(s).is_some())
    }
    /// Open unless the user hid it: it shows by itself.
    fn is_open(&self) -> bool {
        !self.hidden
    }
    fn set_open(&mut self, open: bool, _session: &Session) {
        self.hidden = !open;
    }
    fn sample(&mut self, sims: &[&Simulation]) {
        self.record(sims);
    }
    fn observe(&mut self, sims: &[&Simulation]) {
        self.notice_reset(sims);
    }
    /// Notes a picked channel and leaves the pick to the others.
    fn take_selection(&mut self, selected: &mut Option<Selected>) {
        if let Some(Selected::Channel(c)) = *selected {
            self.channel = Some(c);
        }
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PanelContext<'_>) {
        panel_ui(ui, self, cx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn samples_follow_what_the_routing_decides() {
        let s = Scenario {
            topology: "dragonfly:p=2".into(),
            routing: "ugal-l".into(),
            traffic: "adversarial".into(),
            load: 0.3,
            vcs: 3,
            packet_flits: 1,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        let mut p = AdaptiveDecisions::default();
        for _ in 0..30 {
            sim.run_for(SAMPLE_CYCLES).unwrap();
            p.sample(&[&sim]);
        }
        let w = p.window_shares(0, None).unwrap();
        assert!(w.total() > 1000, "{w:?}");
        assert!(
            w.nonminimal() > 0.3,
            "worst case: mostly non-minimal, {w:?}"
        );
        assert_eq!(w.late, 0, "UGAL-L turns nothing late");
        assert!(p.curve(0).len() > 10);
        // A reset starts the record over.
        let mut fresh = s.build().unwrap();
        fresh.run_for(SAMPLE_CYCLES).unwrap();
        p.observe(&[&fresh]);
        assert!(p.curve(0).is_empty());
    }
}
