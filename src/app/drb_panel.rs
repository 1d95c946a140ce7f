//! DRB's panel (Franco, Garcés and Luque §2-3): how far the metapaths have
//! expanded over time (expanded pairs and mean metapath width, so the moment
//! DRB kicks in is visible as the load rises), and one source-destination
//! pair picked by clicking two switches: its metapath drawn on the network
//! with its supernodes outlined, each MSP's share of the traffic (eq. 11),
//! and the metapath latency L̄ over time against the ThL band. It says
//! which τ and Tol each run uses and where they come from (the knee of
//! DRB's static routing on the run's router, `sim::knee`).
//!
//! [`ThresholdWait`]: a command that builds a DRB routing whose knee is
//! not kept yet waits while the knee is measured in the background (a
//! thread natively, a frame budget on the web), with a notice and a way to
//! cancel, so the app never freezes for it.

use super::network_view::{Selected, ViewTransform};
use super::oblivious::{Background, Job};
use super::theme::Theme;
use crate::routing::Knee;
use crate::routing::drb::{Drb, Metapath, Params};
use crate::sim::Simulation;
use crate::sim::knee::{self, KneeJob, KneeProgress};
use crate::topology::{Network, SwitchId};
use egui::{Align2, Color32, FontId, Stroke, vec2};
use egui_plot::{HLine, Line, LineStyle, PlotPoints};
use std::collections::VecDeque;
use std::sync::Arc;
use web_time::Duration;

/// Cycles between two samples of the curves.
pub const SAMPLE_CYCLES: u64 = crate::app::panel::SAMPLE_CYCLES;
/// Most samples kept per curve (older ones dropped in halves).
const MAX_SAMPLES: usize = 4000;

/// The DRB routing of a run, if its current routing is DRB.
pub fn drb_of(sim: &Simulation) -> Option<&Drb> {
    sim.endpoints()
        .routings()
        .last()?
        .as_any()?
        .downcast_ref::<Drb>()
}

/// Cycles of a knee's measurement per background step (a few
/// milliseconds on torus:8x8 in the browser).
pub const KNEE_STEP_CYCLES: u64 = 1000;
/// Milliseconds a frame gives a knee's measurement on the web (natively it
/// runs on a thread of its own).
pub const KNEE_FRAME_BUDGET_MS: u64 = 12;

/// A [`KneeJob`] as a background job, [`KNEE_STEP_CYCLES`] a step.
struct KneeSteps(KneeJob);

impl Job for KneeSteps {
    type Snapshot = (KneeProgress, Option<Arc<Knee>>);
    fn step(&mut self) -> bool {
        self.0.step(KNEE_STEP_CYCLES).is_some()
    }
    fn snapshot(&self) -> Self::Snapshot {
        (self.0.progress(), self.0.result().cloned())
    }
}

/// A command waiting for the knees it needs (DRB's threshold on a router
/// whose knee is not kept): they are measured one after the other in the
/// background, the command applies once every one is kept, and the
/// commands that arrive meanwhile wait behind it, in order.
pub struct ThresholdWait<C> {
    /// The command that waits.
    pub command: C,
    /// What it does, for the notice ("the swap to drb").
    pub what: String,
    /// Commands that arrived meanwhile.
    pub queued: Vec<C>,
    pending: VecDeque<KneeJob>,
    running: Option<(Background<KneeSteps>, String)>,
    total: usize,
    started: usize,
    in_frames: bool,
}

impl<C> ThresholdWait<C> {
    /// `command` waiting for `jobs`; `in_frames` steps them in frames
    /// only (no thread: the web build does so anyway).
    pub fn new(command: C, what: String, jobs: Vec<KneeJob>, in_frames: bool) -> Self {
        ThresholdWait {
            command,
            what,
            queued: Vec::new(),
            total: jobs.len(),
            pending: jobs.into(),
            running: None,
            started: 0,
            in_frames,
        }
    }

    /// Advance the measurements by a frame's budget; true once every knee
    /// is kept (the command may apply).
    pub fn tick(&mut self) -> bool {
        loop {
            if let Some((job, _)) = &mut self.running {
                job.tick(Duration::from_millis(KNEE_FRAME_BUDGET_MS));
                if job.is_running() {
                    return false;
                }
                self.running = None;
            }
            // The next knee not kept yet (two runs may need the same one).
            let Some(next) = self.pending.pop_front() else {
                return true;
            };
            self.started += 1;
            if knee::cached(next.setup(), next.request()).is_some() {
                continue;
            }
            let name = next.request().static_routing.clone();
            let job = KneeSteps(next);
            let bg = if self.in_frames {
                Background::in_frames(job)
            } else {
                Background::start(job)
            };
            self.running = Some((bg, name));
        }
    }

    /// The notice while it waits: "Measuring DRB's threshold on this
    /// router: probe 4 of 8 (the knee of dor:tie=random under uniform
    /// traffic); the swap to drb follows".
    pub fn notice(&self) -> String {
        let (progress, routing) = match &self.running {
            Some((job, name)) => (job.snapshot().0, name.as_str()),
            None => (
                KneeProgress {
                    probe: 1,
                    probes: knee::PROBES,
                    cycles: 0,
                    total_cycles: knee::KNEE_CYCLES,
                },
                "DRB's static routing",
            ),
        };
        let of = if self.total > 1 {
            format!(", knee {} of {}", self.started.max(1), self.total)
        } else {
            String::new()
        };
        format!(
            "Measuring DRB's threshold on this router: probe {} of {} (the knee of {routing} under uniform traffic{of}); {} follows",
            progress.probe, progress.probes, self.what
        )
    }
}

/// One sample of a run's expansion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpansionSample {
    pub cycle: u64,
    pub expanded: u64,
    pub mean_width: f64,
}

/// One sample of the picked pair's metapath.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSample {
    pub cycle: u64,
    /// L̄ = w·Latency(P*).
    pub latency: f64,
    pub width: usize,
}

/// The panel's state (no drawing): the picked pair and the sampled curves.
#[derive(Clone, Debug, Default)]
pub struct DrbPanel {
    /// The user hid the panel (it shows whenever a run is routed by DRB).
    pub hidden: bool,
    /// The picked pair (source, destination switches).
    pub source: Option<SwitchId>,
    pub destination: Option<SwitchId>,
    /// Clicking a switch on the network picks the next end of the pair.
    pub picking: bool,
    /// Which run the pair is read from (0 = A, 1 = B).
    pub run: usize,
    /// Per run: its expansion curve.
    pub expansion: Vec<Vec<ExpansionSample>>,
    /// The picked pair's metapath latency over time (run `run`).
    pub pair: Vec<PairSample>,
    last_sample: Option<u64>,
    last_selected: Option<Selected>,
}

impl DrbPanel {
    /// Any run of `sims` routed by DRB?
    pub fn applies(sims: &[&Simulation]) -> bool {
        sims.iter().any(|s| drb_of(s).is_some())
    }

    /// Take a click on the network: in picking mode a switch becomes the
    /// source, then the destination.
    pub fn take_selection(&mut self, selected: Option<Selected>) {
        if selected == self.last_selected {
            return;
        }
        self.last_selected = selected;
        let (true, Some(Selected::Switch(s))) = (self.picking, selected) else {
            return;
        };
        if self.source.is_none() || self.destination.is_some() {
            self.source = Some(s);
            self.destination = None;
        } else if Some(s) != self.source {
            self.destination = Some(s);
            self.picking = false;
        }
        self.pair.clear();
    }

    /// The picked pair, when both ends are.
    pub fn pair(&self) -> Option<(SwitchId, SwitchId)> {
        Some((self.source?, self.destination?))
    }

    /// Pick the pair (`a`, `b`) as two clicks on the network would: its
    /// source and destination set, picking mode left, its curve started
    /// over.
    pub fn pick(&mut self, a: SwitchId, b: SwitchId) {
        self.source = Some(a);
        self.destination = Some(b);
        self.picking = false;
        self.pair.clear();
    }

    /// A run rebuilt (its clock went back) starts the curves over; the app
    /// asks once a frame, so a reset clears them before any cycle runs.
    pub fn notice_reset(&mut self, sims: &[&Simulation]) {
        let Some(now) = sims.first().map(|s| s.now()) else {
            return;
        };
        if self.last_sample.is_some_and(|t| now < t) {
            self.expansion.clear();
            self.pair.clear();
            self.last_sample = None;
        }
    }

    /// Sample the runs, at most once every [`SAMPLE_CYCLES`] (a reset
    /// starts over). The app calls it from its run loop at every multiple
    /// of [`SAMPLE_CYCLES`] ([`super::session::Session::run_sampled`]), so
    /// the curves do not depend on how many cycles a frame runs.
    pub fn sample(&mut self, sims: &[&Simulation]) {
        let Some(now) = sims.first().map(|s| s.now()) else {
            return;
        };
        self.notice_reset(sims);
        if self.last_sample.is_some_and(|t| now < t + SAMPLE_CYCLES) {
            return;
        }
        self.last_sample = Some(now);
        self.expansion.resize(sims.len(), Vec::new());
        for (i, sim) in sims.iter().enumerate() {
            if let Some(d) = drb_of(sim) {
                let c = d.counters();
                push_capped(
                    &mut self.expansion[i],
                    ExpansionSample {
                        cycle: now,
                        expanded: c.expanded,
                        mean_width: c.mean_width(),
                    },
                );
            }
        }
        if let (Some((a, b)), Some(sim)) = (self.pair(), sims.get(self.run))
            && let Some(m) = drb_of(sim).and_then(|d| d.metapath(a, b))
        {
            push_capped(
                &mut self.pair,
                PairSample {
                    cycle: now,
                    latency: m.mean_latency(),
                    width: m.width(),
                },
            );
        }
    }
}

fn push_capped<T>(v: &mut Vec<T>, x: T) {
    if v.len() >= MAX_SAMPLES {
        v.drain(..MAX_SAMPLES / 2);
    }
    v.push(x);
}

/// One pair of a DRB run with a metapath, as the panel lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairRow {
    /// Source and destination switches.
    pub pair: (SwitchId, SwitchId),
    /// MSPs in its metapath now.
    pub width: usize,
    /// Messages sent over its metapath since it last changed (every MSP).
    pub sent: u64,
    /// Acknowledgements heard for it in all.
    pub acks: u64,
}

/// The pairs of `drb` whose metapath is widened (more than one MSP), widest
/// first, then the busiest, then by pair.
pub fn widened_pairs(drb: &Drb) -> Vec<PairRow> {
    let mut rows: Vec<PairRow> = drb
        .metapaths()
        .filter(|(_, m)| m.width() > 1)
        .map(|(pair, m)| row(pair, m))
        .collect();
    sort_rows(&mut rows);
    rows
}

/// The pairs of `drb` that have been heard (an acknowledgement arrived, so
/// they have a metapath), busiest first: the ones worth picking when the
/// picked pair has not been heard yet.
pub fn heard_pairs(drb: &Drb) -> Vec<PairRow> {
    let mut rows: Vec<PairRow> = drb.metapaths().map(|(pair, m)| row(pair, m)).collect();
    rows.sort_by(|a, b| b.acks.cmp(&a.acks).then(a.pair.cmp(&b.pair)));
    rows
}

fn row(pair: (SwitchId, SwitchId), m: &Metapath) -> PairRow {
    PairRow {
        pair,
        width: m.width(),
        sent: m.msps.iter().map(|p| p.sent).sum(),
        acks: m.acks,
    }
}

fn sort_rows(rows: &mut [PairRow]) {
    rows.sort_by(|a, b| {
        b.width
            .cmp(&a.width)
            .then(b.sent.cmp(&a.sent))
            .then(a.pair.cmp(&b.pair))
    });
}

/// Most rows the widened-pair list shows (the rest are counted).
const MAX_ROWS: usize = 200;

/// The list of widened pairs of the run the pair is read from: one
/// selectable row per pair ("3 to 27: 4 MSPs"), a click picks it.
fn widened_list_ui(ui: &mut egui::Ui, panel: &mut DrbPanel, drb: &Drb) {
    let rows = widened_pairs(drb);
    ui.label(egui::RichText::new(format!("Widened pairs ({})", rows.len())).strong())
        .on_hover_text(
            "Pairs whose metapath has more than one MSP now, widest first; click one to pick it",
        );
    if rows.is_empty() {
        ui.label("None yet: every pair heard so far still uses its original path alone.");
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("drb_widened")
        .max_height(120.0)
        .show(ui, |ui| {
            for r in rows.iter().take(MAX_ROWS) {
                let (a, b) = r.pair;
                let picked = panel.pair() == Some(r.pair);
                if ui
                    .selectable_label(picked, pair_row_text(r))
                    .on_hover_text(format!(
                        "Pick pair {a} to {b} ({} messages sent on its metapath since it last changed, {} acknowledgements)",
                        r.sent, r.acks
                    ))
                    .clicked()
                {
                    panel.pick(a, b);
                }
            }
            if rows.len() > MAX_ROWS {
                ui.label(format!("and {} more", rows.len() - MAX_ROWS));
            }
        });
}

/// A row of the widened-pair list, e.g. "3 to 27: 4 MSPs".
pub fn pair_row_text(r: &PairRow) -> String {
    let (a, b) = r.pair;
    format!("{a} to {b}: {} MSPs", r.width)
}

/// Each MSP's share of the pair's messages: the selection probabilities of
/// eq. 11 (bandwidth over the metapath's bandwidth).
pub fn shares(m: &Metapath) -> Vec<f64> {
    let total = m.bandwidth();
    m.msps
        .iter()
        .map(|p| {
            if total > 0.0 {
                p.bandwidth() / total
            } else {
                0.0
            }
        })
        .collect()
}

/// The panel: expansion curves, the pair picker, the MSP table and the
/// metapath latency against the ThL band.
pub fn drb_panel_ui(
    ui: &mut egui::Ui,
    panel: &mut DrbPanel,
    runs: &[(String, &Simulation)],
    theme: Theme,
) {
    summary_ui(ui, runs);
    expansion_plots_ui(ui, panel, runs, theme);
    ui.separator();
    ui.label(egui::RichText::new("One pair's metapath").strong());
    pair_picker_ui(ui, panel, runs);
    pair_ui(ui, panel, runs, theme);
}

/// Each DRB run's threshold and how far its metapaths have expanded.
fn summary_ui(ui: &mut egui::Ui, runs: &[(String, &Simulation)]) {
    ui.label(egui::RichText::new("Threshold").strong());
    for (label, sim) in runs {
        if let Some(d) = drb_of(sim) {
            let t = d.spec().threshold();
            ui.label(format!("{label}: {}", t.describe()))
                .on_hover_text(
                    "ThL = L_c(1 + τ): a pair's metapath widens when its latency passes ThL(1 + Tol) and narrows below ThL(1 - Tol) (§3). Without tau= in the spec, τ is read on this router: the knee of DRB's static routing under uniform traffic, where its mean latency doubles",
                );
        }
    }
    ui.label(egui::RichText::new("Expansion").strong());
    for (label, sim) in runs {
        if let Some(d) = drb_of(sim) {
            let c = d.counters();
            ui.label(format!(
                "{label}: {} of {} pairs expanded · mean width {:.2} · {:.1}% on the original path",
                c.expanded,
                c.pairs,
                c.mean_width(),
                100.0 * c.canonical_share()
            ))
            .on_hover_text(format!(
                "Pairs with a metapath wider than one MSP, out of the pairs heard so far; {} width changes, {} acknowledgements",
                c.changes, c.acks
            ));
        }
    }
}

/// The expanded pairs and the mean metapath width over the cycles, one
/// plot above the other, every run's curve.
fn expansion_plots_ui(
    ui: &mut egui::Ui,
    panel: &DrbPanel,
    runs: &[(String, &Simulation)],
    theme: Theme,
) {
    let h = 110.0;
    // One legend row for both plots, above them and outside their data
    // (the stage issue: egui_plot's corner legend covered the newest
    // points), and only when there is more than one run to tell apart.
    let named: Vec<(String, Color32, bool)> = panel
        .expansion
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .map(|(i, _)| {
            let name = runs.get(i).map(|r| r.0.clone()).unwrap_or_default();
            (name, theme.series(i), false)
        })
        .collect();
    if named.len() > 1 {
        super::plots::legend_row(ui, &named);
    }
    // The two plots one above the other with one y-axis width, so a cycle
    // sits at one x on both.
    let mut axes = super::plot_axes::AlignedYAxes::load(ui, "drb_expansion");
    for (title, id, unit, f) in [
        (
            "Expanded pairs",
            "drb_expanded",
            "number",
            (|s: &ExpansionSample| s.expanded as f64) as fn(&ExpansionSample) -> f64,
        ),
        (
            "Mean metapath width",
            "drb_width",
            "MSPs",
            |s: &ExpansionSample| s.mean_width,
        ),
    ] {
        ui.label(
            egui::RichText::new(super::plot_axes::plot_title(title, "cycle", unit, h)).small(),
        );
        let left = ui.cursor().left();
        let r = axes
            .apply(super::plot_axes::plot(id, "cycle", unit, h))
            .include_y(0.0)
            .show(ui, |plot| {
                for (i, series) in panel.expansion.iter().enumerate() {
                    if series.is_empty() {
                        continue;
                    }
                    let name = runs.get(i).map(|r| r.0.clone()).unwrap_or_default();
                    let pts: PlotPoints = series.iter().map(|s| [s.cycle as f64, f(s)]).collect();
                    plot.line(Line::new(name, pts).color(theme.series(i)).width(1.5));
                }
            });
        axes.record(left, *r.transform.frame());
    }
    axes.store(ui);
}

/// Which run's pair (when both are DRB), the widened pairs' list, and the
/// pair's source and destination: typed, or picked on the network.
fn pair_picker_ui(ui: &mut egui::Ui, panel: &mut DrbPanel, runs: &[(String, &Simulation)]) {
    let drb_runs: Vec<usize> = runs
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| drb_of(s).is_some())
        .map(|(i, _)| i)
        .collect();
    if !drb_runs.contains(&panel.run) {
        panel.run = drb_runs.first().copied().unwrap_or(0);
    }
    if drb_runs.len() > 1 {
        ui.horizontal(|ui| {
            ui.label("Run");
            for &i in &drb_runs {
                ui.selectable_value(&mut panel.run, i, if i == 0 { "A" } else { "B" });
            }
        });
    }
    if let Some(d) = runs.get(panel.run).and_then(|r| drb_of(r.1)) {
        widened_list_ui(ui, panel, d);
    }
    let n = runs
        .first()
        .map(|(_, s)| s.network().num_switches())
        .unwrap_or(1) as SwitchId;
    ui.horizontal(|ui| {
        let mut a = panel.source.unwrap_or(0);
        let mut b = panel.destination.unwrap_or(n.saturating_sub(1));
        let la = ui.label("From");
        let ra = ui
            .add(egui::DragValue::new(&mut a).range(0..=n.saturating_sub(1)))
            .labelled_by(la.id);
        let lb = ui.label("to");
        let rb = ui
            .add(egui::DragValue::new(&mut b).range(0..=n.saturating_sub(1)))
            .labelled_by(lb.id);
        if ra.changed() || rb.changed() {
            panel.pick(a, b);
        }
        if ui
            .selectable_label(panel.picking, "Pick on the network")
            .on_hover_text("Then click the source switch and the destination switch")
            .clicked()
        {
            panel.picking = !panel.picking;
            if panel.picking {
                panel.source = None;
                panel.destination = None;
            }
        }
    });
    if panel.picking {
        ui.label(if panel.source.is_none() {
            "Click the source switch"
        } else {
            "Click the destination switch"
        });
    }
}

/// The picked pair's metapath: its numbers, its MSPs and its latency
/// against the threshold's band over the cycles.
fn pair_ui(ui: &mut egui::Ui, panel: &mut DrbPanel, runs: &[(String, &Simulation)], theme: Theme) {
    let Some((a, b)) = panel.pair() else {
        return;
    };
    let Some(sim) = runs.get(panel.run).map(|r| r.1) else {
        return;
    };
    let Some(d) = drb_of(sim) else {
        ui.label("This run's routing is not DRB.");
        return;
    };
    let Some(m) = d.metapath(a, b) else {
        ui.label(format!(
            "Pair {a} to {b}: no acknowledgement heard yet, so its metapath is the original path alone."
        ));
        not_heard_hint_ui(ui, panel, d);
        return;
    };
    let p = d.params();
    ui.label(format!(
        "Pair {a} to {b}: width {} (supernodes of size {}), L_c {:.1}, ThL {:.1} (tau {}, Tol {})",
        m.width(),
        m.size,
        m.canonical,
        m.threshold(p),
        p.tau,
        p.tolerance
    ));
    // In a horizontal scroll area: a panel's content wider than the panel
    // pushed the central view's curves under it, and on big networks the
    // node numbers and counts can outgrow even the short columns.
    egui::ScrollArea::horizontal()
        .id_salt("drb_msps_scroll")
        .show(ui, |ui| msp_grid(ui, m, theme));
    pair_latency_plot(ui, panel, m, p, theme);
}

/// The pair's mean MSP latency and width x L_c over the cycles, with ThL
/// and its band ThL(1 ± Tol).
fn pair_latency_plot(ui: &mut egui::Ui, panel: &DrbPanel, m: &Metapath, p: &Params, theme: Theme) {
    let thl = m.threshold(p);
    let band = theme.heat(0.75);
    super::plots::legend_row(
        ui,
        &[
            (
                "mean MSP latency w·Latency(P*)".to_string(),
                theme.series(panel.run),
                false,
            ),
            (
                "width x L_c".to_string(),
                theme.series(panel.run).gamma_multiply(0.5),
                true,
            ),
            ("ThL".to_string(), band, false),
            ("ThL·(1 ± Tol)".to_string(), band.gamma_multiply(0.6), true),
        ],
    );
    super::plot_axes::plot("drb_pair_latency", "cycle", "cycles", 140.0)
        .include_y(0.0)
        .include_y(thl * (1.0 + p.tolerance) * 1.1)
        .show(ui, |plot| {
            let pts: PlotPoints = panel
                .pair
                .iter()
                .map(|s| [s.cycle as f64, s.latency])
                .collect();
            plot.line(
                Line::new("mean MSP latency w·Latency(P*)", pts)
                    .color(theme.series(panel.run))
                    .width(1.5),
            );
            let widths: PlotPoints = panel
                .pair
                .iter()
                .map(|s| [s.cycle as f64, s.width as f64 * m.canonical])
                .collect();
            plot.line(
                Line::new("width x L_c", widths)
                    .color(theme.series(panel.run).gamma_multiply(0.5))
                    .style(LineStyle::dashed_dense()),
            );
            plot.hline(HLine::new("ThL", thl).color(band));
            plot.hline(
                HLine::new("ThL·(1 + Tol)", thl * (1.0 + p.tolerance))
                    .color(band.gamma_multiply(0.6))
                    .style(LineStyle::dotted_dense()),
            );
            plot.hline(
                HLine::new("ThL·(1 - Tol)", thl * (1.0 - p.tolerance))
                    .color(band.gamma_multiply(0.6))
                    .style(LineStyle::dotted_dense()),
            );
        });
}

/// The metapath's MSPs, one row each: via nodes, length, latency, share of
/// the pair's messages and messages sent.
fn msp_grid(ui: &mut egui::Ui, m: &Metapath, theme: Theme) {
    // Short headers, each explained on hover, and narrow gaps: the seven
    // columns fit the panel at 1280 points wide (the scroll area around
    // the grid is for wider numbers on big networks).
    const HEADERS: [(&str, &str); 7] = [
        (
            "MSP",
            "The multi-step path's number, in its colour on the network",
        ),
        ("X", "Intermediate node X, in the source's supernode"),
        ("Y", "Intermediate node Y in the destination's supernode"),
        ("hops", "Length: hops over the three steps A→X→Y→B (eq. 2)"),
        (
            "lat.",
            "Latency(MSP), eq. 3: the last acknowledged latency, in cycles",
        ),
        ("share", "Share of the pair's messages sent on this MSP"),
        ("sent", "Messages sent on this MSP"),
    ];
    egui::Grid::new("drb_msps")
        .striped(true)
        .spacing([10.0, 4.0])
        // (The default minimum, a button's width, made seven columns
        // wider than their numbers.)
        .min_col_width(12.0)
        .show(ui, |ui| {
            for (name, hover) in HEADERS {
                ui.strong(name).on_hover_text(hover);
            }
            ui.end_row();
            for (k, (msp, share)) in m.msps.iter().zip(shares(m)).enumerate() {
                ui.colored_label(msp_colour(k, theme), format!("{k}"));
                ui.label(msp.x.to_string());
                ui.label(msp.y.to_string());
                ui.label(msp.length.to_string());
                ui.label(format!("{:.1}", msp.latency));
                ui.label(format!("{:.0}%", 100.0 * share));
                ui.label(msp.sent.to_string());
                ui.end_row();
            }
        });
}

/// Under a pair not heard yet: which pairs are active (heard, busiest
/// first), a few of them to pick with one click.
fn not_heard_hint_ui(ui: &mut egui::Ui, panel: &mut DrbPanel, d: &Drb) {
    let heard = heard_pairs(d);
    if heard.is_empty() {
        ui.label(
            "No pair has been heard yet: run the simulation until acknowledgements come back.",
        );
        return;
    }
    let widened = heard.iter().filter(|r| r.width > 1).count();
    ui.label(format!(
        "Active pairs: {} heard so far, {widened} of them widened. The traffic pattern decides which pairs send; try one of the busiest:",
        heard.len()
    ));
    ui.horizontal_wrapped(|ui| {
        for r in heard.iter().take(6) {
            let (a, b) = r.pair;
            if ui
                .small_button(format!("{a} to {b}"))
                .on_hover_text(format!(
                    "Pick pair {a} to {b}: {} acknowledgements, {} MSPs",
                    r.acks, r.width
                ))
                .clicked()
            {
                panel.pick(a, b);
            }
        }
    });
}

/// The colour of MSP `k` on the network and in the table.
pub fn msp_colour(k: usize, theme: Theme) -> Color32 {
    const DARK: [Color32; 6] = [
        Color32::from_rgb(255, 255, 255),
        Color32::from_rgb(90, 200, 255),
        Color32::from_rgb(255, 120, 220),
        Color32::from_rgb(140, 255, 120),
        Color32::from_rgb(255, 200, 80),
        Color32::from_rgb(180, 150, 255),
    ];
    const LIGHT: [Color32; 6] = [
        Color32::from_rgb(20, 20, 20),
        Color32::from_rgb(0, 100, 200),
        Color32::from_rgb(190, 0, 140),
        Color32::from_rgb(20, 140, 20),
        Color32::from_rgb(190, 110, 0),
        Color32::from_rgb(100, 60, 200),
    ];
    if theme.is_dark() {
        DARK[k % 6]
    } else {
        LIGHT[k % 6]
    }
}

/// The names of the picked pair's ends on the network: source and
/// destination.
pub const ENDPOINT_LABELS: [&str; 2] = ["src", "dst"];

/// Draw the pair's metapath over the network view of `sim` (in `rect`, the
/// view's rectangle): the supernodes outlined, each MSP's route as a line
/// as thick as its share, X and Y marked, the ends named "src" and "dst".
/// Returns the ends as marked (switch and name).
pub fn overlay(
    painter: &egui::Painter,
    net: &Network,
    rect: egui::Rect,
    drb: &Drb,
    (a, b): (SwitchId, SwitchId),
    theme: Theme,
) -> Vec<(SwitchId, &'static str)> {
    let Some(xf) = ViewTransform::new(net, rect) else {
        return Vec::new();
    };
    let (sa, sb) = drb.supernodes(a, b);
    let ring = xf.radius + 4.0;
    for (members, centre) in [(&sa, a), (&sb, b)] {
        for &s in members.iter() {
            painter.circle_stroke(
                xf.switch(net, s),
                ring,
                Stroke::new(1.5, theme.selection().gamma_multiply(0.8)),
            );
        }
        painter.circle_stroke(
            xf.switch(net, centre),
            ring + 3.0,
            Stroke::new(2.5, theme.selection()),
        );
    }
    let msps: Vec<(SwitchId, SwitchId, f64)> = match drb.metapath(a, b) {
        Some(m) => m
            .msps
            .iter()
            .zip(shares(m))
            .map(|(p, s)| (p.x, p.y, s))
            .collect(),
        None => vec![(a, b, 1.0)],
    };
    for (k, &(x, y, share)) in msps.iter().enumerate() {
        let colour = msp_colour(k, theme);
        let width = 1.5 + 5.0 * share as f32;
        // Offset each MSP a little so overlapping routes stay visible.
        let shift = vec2(1.0, 1.0) * (k as f32 - msps.len() as f32 / 2.0) * 2.0;
        for (s, p) in drb.steps().route_hops(a, x, y, b) {
            let Some(t) = drb.steps().neighbour(s, p) else {
                continue;
            };
            let (ps, pt) = (xf.switch(net, s) + shift, xf.switch(net, t) + shift);
            if (pt - ps).length() > 1.5 * xf.spacing_px {
                // A wrap link: a short stub out of each end.
                let dir = (ps - pt).normalized() * xf.spacing_px * 0.5;
                painter.line_segment([ps, ps + dir], Stroke::new(width, colour));
                painter.line_segment([pt - dir, pt], Stroke::new(width, colour));
            } else {
                painter.line_segment([ps, pt], Stroke::new(width, colour));
            }
        }
        for (w, label) in [(x, "X"), (y, "Y")] {
            if w != a && w != b {
                painter.text(
                    xf.switch(net, w) + vec2(0.0, -ring - 2.0),
                    Align2::CENTER_BOTTOM,
                    format!("{label}{k}"),
                    FontId::proportional(11.0),
                    colour,
                );
            }
        }
    }
    // "src" and "dst", not "A" and "B": those name the compared runs.
    let ends = vec![(a, ENDPOINT_LABELS[0]), (b, ENDPOINT_LABELS[1])];
    for &(s, label) in &ends {
        // On a patch of the background, so the routes under it do not
        // cross the name out.
        let galley =
            painter.layout_no_wrap(label.into(), FontId::proportional(13.0), theme.selection());
        let at = xf.switch(net, s) + vec2(0.0, ring + 3.0);
        let rect = Align2::CENTER_TOP.anchor_size(at, galley.size());
        painter.rect_filled(rect.expand(1.5), 3.0, theme.view_background());
        painter.galley(rect.min, galley, theme.selection());
    }
    ends
}

impl crate::app::panel::Panel for DrbPanel {
    /// The picked pair and its metapath over every run routed by DRB.
    fn paint_over(
        &self,
        painter: &egui::Painter,
        sim: &Simulation,
        rect: egui::Rect,
        theme: Theme,
    ) {
        if let (Some(pair), Some(d)) = (self.pair(), drb_of(sim)) {
            overlay(painter, sim.network(), rect, d, pair, theme);
        }
    }
    fn id(&self) -> &'static str {
        "drb"
    }
    fn title(&self) -> &'static str {
        "DRB metapaths"
    }
    fn hover(&self) -> &'static str {
        "DRB's metapaths: how far they have expanded, and one pair's MSPs on the network (shows by itself when a run is routed by DRB)"
    }
    fn hide_hint(&self) -> &'static str {
        "Hide the DRB panel (View menu brings it back)"
    }
    fn width(&self) -> (f32, crate::app::side_panel::Width) {
        (360.0, crate::app::side_panel::Width::Capped)
    }
    /// Only beside a run routed by DRB.
    fn applies(&self, session: &crate::app::session::Session) -> bool {
        let sims: Vec<&Simulation> = session.sims().collect();
        DrbPanel::applies(&sims)
    }
    /// Open unless the user hid it: it shows by itself.
    fn is_open(&self) -> bool {
        !self.hidden
    }
    fn set_open(&mut self, open: bool, _session: &crate::app::session::Session) {
        self.hidden = !open;
    }
    fn sample(&mut self, sims: &[&Simulation]) {
        DrbPanel::sample(self, sims);
    }
    fn observe(&mut self, sims: &[&Simulation]) {
        self.notice_reset(sims);
    }
    fn take_selection(&mut self, selected: &mut Option<Selected>) {
        DrbPanel::take_selection(self, *selected);
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut crate::app::panel::PanelContext<'_>) {
        let runs = cx.session.labelled_runs();
        drb_panel_ui(ui, self, &runs, cx.theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn clicks_pick_a_pair_and_samples_follow_the_run() {
        let s = Scenario {
            topology: "torus:4x4".into(),
            routing: "drb".into(),
            vcs: 8,
            load: 0.4,
            warmup: 0,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        let mut p = DrbPanel {
            picking: true,
            ..DrbPanel::default()
        };
        p.take_selection(Some(Selected::Switch(1)));
        p.take_selection(Some(Selected::Switch(14)));
        assert_eq!(p.pair(), Some((1, 14)));
        assert!(!p.picking);
        for _ in 0..20 {
            sim.run_for(SAMPLE_CYCLES).unwrap();
            p.sample(&[&sim]);
        }
        assert_eq!(p.expansion[0].len(), 20);
        assert!(!p.pair.is_empty());
        let m = drb_of(&sim).unwrap().metapath(1, 14).unwrap();
        let total: f64 = shares(m).iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    /// A hot spot widens some metapaths: the list holds exactly the pairs
    /// with more than one MSP, widest first; picking one from it sets the
    /// pair as two clicks on the network do.
    #[test]
    fn widened_pairs_are_listed_and_picked_like_clicks() {
        let s = Scenario {
            topology: "torus:8x8".into(),
            routing: "drb".into(),
            traffic: "hotspot:fraction=0.2:nodes=27".into(),
            vcs: 12,
            load: 0.3,
            warmup: 0,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        sim.run_for(3000).unwrap();
        let d = drb_of(&sim).unwrap();
        let rows = widened_pairs(d);
        assert!(!rows.is_empty(), "the hot spot widens some metapaths");
        assert_eq!(rows.len() as u64, d.counters().expanded);
        for r in &rows {
            assert!(r.width > 1);
            assert_eq!(d.metapath(r.pair.0, r.pair.1).unwrap().width(), r.width);
        }
        assert!(rows.windows(2).all(|w| w[0].width >= w[1].width));
        assert!(heard_pairs(d).len() >= rows.len());
        let (a, b) = rows[0].pair;
        let mut listed = DrbPanel {
            picking: true,
            ..DrbPanel::default()
        };
        listed.pick(a, b);
        let mut clicked = DrbPanel {
            picking: true,
            ..DrbPanel::default()
        };
        clicked.take_selection(Some(Selected::Switch(a)));
        clicked.take_selection(Some(Selected::Switch(b)));
        assert_eq!(listed.pair(), clicked.pair());
        assert_eq!(listed.picking, clicked.picking);
        assert_eq!(
            pair_row_text(&rows[0]),
            format!("{a} to {b}: {} MSPs", rows[0].width)
        );
    }

    /// The picked pair's ends are named "src" and "dst" on the network, not
    /// "A" and "B" (the compared runs' names).
    #[test]
    fn the_overlay_names_the_ends_src_and_dst() {
        let s = Scenario {
            topology: "torus:4x4".into(),
            routing: "drb".into(),
            vcs: 8,
            load: 0.4,
            warmup: 0,
            ..Scenario::default()
        };
        let mut sim = s.build().unwrap();
        sim.run_for(500).unwrap();
        let ctx = egui::Context::default();
        let mut ends = Vec::new();
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), vec2(400.0, 400.0));
            ends = overlay(
                ui.painter(),
                sim.network(),
                rect,
                drb_of(&sim).unwrap(),
                (1, 14),
                Theme::Dark,
            );
        });
        // Nothing is rendered: drop the font texture's upload.
        out.textures_delta.clear();
        assert_eq!(ends, vec![(1, "src"), (14, "dst")]);
    }
}
