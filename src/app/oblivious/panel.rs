//! Drawing the oblivious-routing panel: the expected load and its summary,
//! the picked pair (quadrants, boxes, sampled paths, per-channel load), the
//! VC minimum of every routing with live swaps, the compare table with its
//! grouped bar chart and the per-routing latency plot. The views the
//! central area shows beside the simulation are `central`'s
//! ([`CentralViews`]).

use super::*;
use crate::app::app_command::AppCommand;
use crate::app::theme::Theme;
use crate::topology::Shape;
use egui::Color32;
use egui_plot::{Bar, BarChart, Line, LineStyle, PlotPoints, Points, VLine};
use num_rational::Ratio;

/// Colour of routing `i` of [`Law::compared()`] (and of the
/// i-th sampled path), readable in both themes.
pub fn palette(theme: Theme, i: usize) -> Color32 {
    const DARK: [Color32; 8] = [
        Color32::from_rgb(255, 170, 60),
        Color32::from_rgb(110, 180, 255),
        Color32::from_rgb(150, 220, 120),
        Color32::from_rgb(240, 110, 200),
        Color32::from_rgb(255, 235, 90),
        Color32::from_rgb(90, 225, 220),
        Color32::from_rgb(255, 120, 110),
        Color32::from_rgb(190, 160, 255),
    ];
    const LIGHT: [Color32; 8] = [
        Color32::from_rgb(210, 110, 0),
        Color32::from_rgb(30, 100, 200),
        Color32::from_rgb(40, 140, 40),
        Color32::from_rgb(180, 40, 150),
        Color32::from_rgb(150, 120, 0),
        Color32::from_rgb(0, 140, 140),
        Color32::from_rgb(200, 40, 30),
        Color32::from_rgb(110, 70, 200),
    ];
    if theme.is_dark() {
        DARK[i % DARK.len()]
    } else {
        LIGHT[i % LIGHT.len()]
    }
}

/// A routing's place in [`Law::compared`] (DOR of any tie rule and ROMM
/// of any order share their row's colour; a routing outside the list gets
/// the next colour).
fn routing_index(r: &Law) -> usize {
    let compared = Law::compared();
    compared
        .iter()
        .position(|c| c.kind_name() == r.kind_name())
        .unwrap_or(compared.len())
}

/// The routings offered in the "routing analysed" list: every compared
/// routing followed by the other variants its registry entry's examples
/// name (DOR's tie rules, ROMM's random order).
fn routing_choices() -> Vec<Law> {
    let mut v: Vec<Law> = Vec::new();
    for law in Law::compared() {
        let examples = crate::routing::registry::kind(law.kind_name())
            .map(|k| k.examples)
            .unwrap_or_default();
        v.push(law);
        for e in examples {
            if let Ok(r) = e.parse::<Law>()
                && !v.contains(&r)
            {
                v.push(r);
            }
        }
    }
    v
}

/// A ratio as `0.469` with its exact value on hover.
fn ratio_label(ui: &mut egui::Ui, r: Ratio<i128>) {
    ui.label(format!("{:.3}", value(r)))
        .on_hover_text(format!("exactly {r}"));
}

/// Coordinates as `(x,y)`.
pub(super) fn coords_text(c: &[u32]) -> String {
    let v: Vec<String> = c.iter().map(|x| x.to_string()).collect();
    format!("({})", v.join(","))
}

impl ObliviousAnalysis {
    /// The panel. Buttons push [`AppCommand`]s.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scenario: &Scenario,
        sim: &Simulation,
        commands: &mut Vec<AppCommand>,
        theme: Theme,
    ) {
        let Some(ctx) = self.context().cloned() else {
            ui.spinner();
            return;
        };
        if let Some(why) = &ctx.unavailable {
            ui.label(why);
            return;
        }
        ui.label("What Singh's thesis computes for an oblivious routing, beside the simulation of the same run: expected channel loads, the quadrants of a pair, and every routing's ideal throughput.");
        egui::CollapsingHeader::new(egui::RichText::new("Expected load").strong())
            .id_salt("obl_expected")
            .default_open(true)
            .show(ui, |ui| self.expected_ui(ui, &ctx, sim, commands, theme));
        egui::CollapsingHeader::new(egui::RichText::new("Source and destination").strong())
            .id_salt("obl_pair")
            .default_open(true)
            .show(ui, |ui| self.pair_ui(ui, sim.network(), theme));
        egui::CollapsingHeader::new(
            egui::RichText::new("Virtual channels and live swaps").strong(),
        )
        .id_salt("obl_vcs")
        .default_open(false)
        .show(ui, |ui| vcs_ui(ui, &ctx, scenario, sim, commands));
        egui::CollapsingHeader::new(egui::RichText::new("Compare routings").strong())
            .id_salt("obl_compare")
            .default_open(false)
            .show(ui, |ui| self.compare_ui(ui, scenario, sim.network(), theme));
        egui::CollapsingHeader::new(egui::RichText::new("Latency against offered load").strong())
            .id_salt("obl_sweep")
            .default_open(false)
            .show(ui, |ui| self.sweep_ui(ui, scenario, sim.network(), theme));
    }

    fn expected_ui(
        &mut self,
        ui: &mut egui::Ui,
        ctx: &Context,
        sim: &Simulation,
        commands: &mut Vec<AppCommand>,
        theme: Theme,
    ) {
        ui.horizontal(|ui| {
            ui.label("Routing analysed");
            let current = match (&self.routing, &ctx.routing) {
                (None, Some(r)) => format!("run A's ({r})"),
                (None, None) => "run A's (none)".into(),
                (Some(r), _) => r.to_string(),
            };
            egui::ComboBox::from_id_salt("obl_routing")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.routing, None, "run A's routing");
                    for r in routing_choices() {
                        let label = r.to_string();
                        ui.selectable_value(&mut self.routing, Some(r), label);
                    }
                })
                .response
                .on_hover_text("The routing whose expected load is shown; by default the one run A uses now (it follows live swaps)");
        });
        let Some(routing) = ctx.routing.clone() else {
            ui.colored_label(
                theme.error(),
                format!(
                    "Run A's routing ({}) is not one the analysis knows (dor, rdor, val, romm, rlb, rlbth): pick one above, or swap run A to one.",
                    ctx.run_routing
                ),
            );
            return;
        };
        if !ctx.same_as_run {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(
                    theme.error(),
                    format!(
                        "Run A uses {}: the views compare different routings.",
                        ctx.run_routing
                    ),
                );
                let hint = vc_hint(&spec_of(&routing), sim.network(), ctx.vcs);
                if ui
                    .add_enabled(
                        hint.is_none(),
                        egui::Button::new(format!("Swap run A to {routing}")),
                    )
                    .on_hover_text("Swap the running balancer now (packets in flight keep theirs)")
                    .on_disabled_hover_text(hint.unwrap_or_default())
                    .clicked()
                {
                    commands.push(AppCommand::SwapRouting {
                        spec: spec_of(&routing),
                        on_compare: false,
                    });
                }
            });
        }
        let e = match self.expected() {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Computing the expected load of {routing}…"));
                });
                return;
            }
            Some(Err(e)) => {
                ui.colored_label(theme.error(), e);
                return;
            }
            Some(Ok(e)) => e.clone(),
        };
        let uniform = if ctx.traffic.trim() == "uniform" {
            " (the simulator's uniform: every other node, λ = 1/(N-1))"
        } else {
            ""
        };
        egui::Grid::new("obl_summary").num_columns(2).show(ui, |ui| {
            ui.label("Traffic");
            ui.label(format!("{}{uniform}", ctx.traffic))
                .on_hover_text("The run's own pattern, as a matrix λ_sd (Singh §2.2)");
            ui.end_row();
            ui.label("Ideal throughput");
            match (e.ideal, e.ideal_load()) {
                (Some(t), Some(l)) => {
                    ui.label(format!("{:.3} of capacity = {l:.3} flits/host/cycle", value(t)))
                        .on_hover_text(format!(
                            "1/(Θ·max γ) = {t} of Θ (Singh §2.2): the offered load at which the busiest channel is full, with perfect flow control"
                        ));
                }
                _ => {
                    ui.label("unbounded: no packet crosses a channel");
                }
            }
            ui.end_row();
            ui.label("Capacity Θ");
            ratio_label(ui, e.capacity);
            ui.end_row();
            ui.label("Max channel load γ");
            ui.label(format!("{:.3} on {}", value(e.max_gamma), e.busiest))
                .on_hover_text("Flits per cycle on the busiest channel per flit/host/cycle offered");
            ui.end_row();
            ui.label("Mean hops");
            ratio_label(ui, e.avg_hops);
            ui.end_row();
        });
        match e.ideal_load() {
            Some(l) if ctx.load > l => {
                ui.colored_label(
                    theme.error(),
                    format!(
                        "The run offers {:.3} flits/host/cycle, above the ideal throughput {l:.3}: the network saturates and carries less than L·γ; expect the views to disagree.",
                        ctx.load
                    ),
                );
            }
            _ => {
                ui.label(format!(
                    "The run offers L = {:.3} flits/host/cycle, below saturation: the simulated utilization should approach L·γ_c as the run goes on.",
                    ctx.load
                ));
            }
        }
        ui.checkbox(
            &mut self.show_expected,
            "Show the expected load beside the simulation",
        )
        .on_hover_text("A network view of L·γ_c left of run A, both on one colour scale (the runs are then coloured by utilization, whatever the View menu says)");
        if self.show_expected
            && !self.show_pair_load
            && let Some(scale) = self.scale(&[sim])
        {
            ui.label(format!(
                "Shared colour scale: 0 to {scale:.3} flits/cycle (expected and simulated)"
            ))
            .on_hover_text("The top of the scale is the largest value of either view, so equal colours are equal loads");
        }
    }

    fn pair_ui(&mut self, ui: &mut egui::Ui, net: &Network, theme: Theme) {
        let Shape::Cube { radix, .. } = net.shape() else {
            return;
        };
        ui.checkbox(&mut self.picking, "Pick by clicking switches")
            .on_hover_text(
                "Click a switch in a network view for the source, another for the destination",
            );
        let coords = |s: Option<SwitchId>| {
            s.map(|s| crate::topology::cube::coords(radix, s))
                .unwrap_or_else(|| vec![0; radix.len()])
        };
        let (mut sc, mut dc) = (coords(self.source), coords(self.destination));
        let mut changed = false;
        egui::Grid::new("obl_pair_grid")
            .num_columns(2)
            .show(ui, |ui| {
                for (label, c) in [("Source", &mut sc), ("Destination", &mut dc)] {
                    ui.label(label);
                    ui.horizontal(|ui| {
                        for (j, x) in c.iter_mut().enumerate() {
                            changed |= ui
                                .add(egui::DragValue::new(x).range(0..=radix[j] - 1))
                                .on_hover_text(format!("Coordinate in dimension {j}"))
                                .changed();
                        }
                    });
                    ui.end_row();
                }
            });
        if changed {
            self.set_pair(
                crate::topology::cube::id_of(radix, &sc),
                crate::topology::cube::id_of(radix, &dc),
            );
        }
        let (Some(_), Some(_)) = (self.source, self.destination) else {
            ui.label(match self.source {
                None => "Click a source switch.",
                Some(_) => "Now click a destination switch.",
            });
            return;
        };
        let Some(p) = self.pair().cloned() else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Waiting for the routing's channel weights…");
            });
            return;
        };
        ui.label(
            egui::RichText::new(format!(
                "{} from {} to {}",
                p.routing,
                coords_text(&p.source_coords),
                coords_text(&p.destination_coords)
            ))
            .strong(),
        );
        match &p.quadrants {
            Ok(qs) => {
                ui.label("Quadrants (Singh §3.2): a direction per dimension, then q uniform in the box it spans. Click one to shade its box alone.");
                egui::Grid::new("obl_quadrants")
                    .num_columns(4)
                    .striped(true)
                    .show(ui, |ui| {
                        ui.label("quadrant");
                        ui.label("probability");
                        ui.label("");
                        ui.label("box of q");
                        ui.end_row();
                        for (i, q) in qs.iter().enumerate() {
                            let on = self.quadrant == Some(i);
                            if ui.selectable_label(on, &q.directions).clicked() {
                                self.quadrant = if on { None } else { Some(i) };
                            }
                            ui.label(q.probability.to_string());
                            ui.label(format!("{:.3}", value(q.probability)));
                            let dims: Vec<String> = q
                                .boxes
                                .iter()
                                .enumerate()
                                .map(|(j, b)| {
                                    let v: Vec<String> = b.iter().map(|x| x.to_string()).collect();
                                    format!("x{j} in {{{}}}", v.join(","))
                                })
                                .collect();
                            ui.label(dims.join("  "));
                            ui.end_row();
                        }
                    });
            }
            Err(why) => {
                ui.label(why);
            }
        }
        if !p.intermediate.is_empty() {
            ui.label(match self.quadrant {
                Some(_) => "Shaded: that quadrant's box.",
                None => "Shaded: where q may be, darker where it is likelier.",
            });
        }
        ui.horizontal(|ui| {
            ui.label("Sampled paths");
            ui.add(egui::DragValue::new(&mut self.samples).range(0..=MAX_SAMPLES))
                .on_hover_text("Paths drawn from the simulator's own routing for this pair");
            if ui
                .button("Sample again")
                .on_hover_text("Draw new paths")
                .clicked()
            {
                self.sample_seed = self.sample_seed.wrapping_add(1);
            }
        });
        if let Some(e) = &p.sample_error {
            ui.colored_label(theme.error(), e);
        }
        for (i, path) in p.samples.iter().enumerate() {
            ui.horizontal(|ui| {
                let (r, painter) =
                    ui.allocate_painter(egui::vec2(22.0, 12.0), egui::Sense::hover());
                let y = r.rect.center().y;
                painter.line_segment(
                    [egui::pos2(r.rect.left(), y), egui::pos2(r.rect.right(), y)],
                    egui::Stroke::new(3.0, palette(theme, i)),
                );
                let q = path
                    .intermediate
                    .map(|q| {
                        format!(
                            ", through q{} = {}",
                            i + 1,
                            coords_text(&crate::topology::cube::coords(radix, q))
                        )
                    })
                    .unwrap_or_default();
                ui.label(format!("{} hops{q}", path.channels.len()));
            });
        }
        ui.separator();
        ui.label(format!(
            "Expected hops {:.3} over {} channels",
            p.expected_hops,
            p.loaded_channels().len()
        ))
        .on_hover_text("Σ_c w_c(s,d): w_c(s,d) is the expected number of times one packet of the pair crosses channel c (Towles and Dally; Singh §2.2)");
        ui.checkbox(
            &mut self.show_pair_load,
            "Colour the analysis view by this pair's load w_c(s,d)",
        );
        let loaded = p.loaded_channels();
        egui::Grid::new("obl_pair_load")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (c, w) in loaded.iter().take(8) {
                    ui.monospace(net.channel_name(*c));
                    ui.label(format!("{w:.3}"));
                    ui.end_row();
                }
            });
        if loaded.len() > 8 {
            ui.label(format!("and {} more channels", loaded.len() - 8));
        }
    }

    fn compare_ui(&mut self, ui: &mut egui::Ui, scenario: &Scenario, net: &Network, theme: Theme) {
        self.ensure_compare(net, scenario.seed);
        let running = self.compare_running();
        let Some(t) = self.compare_table() else {
            return;
        };
        if let Some(e) = &t.error {
            ui.colored_label(theme.error(), e);
            return;
        }
        let cap = t
            .capacity
            .map(|c| format!("{:.3}", value(c)))
            .unwrap_or_else(|| "…".into());
        ui.label(format!(
            "IDEAL (analytic) throughput as a fraction of capacity Θ = {cap} flits/node/cycle (Singh §2.2). uniform = the thesis's (s = d included); worst = Towles-Dally worst case; avg = mean over {} random permutations (seed {}). Same as `routelab load --compare --topology {} --seed {}`.",
            t.samples, t.seed, t.topology, t.seed
        ));
        ui.horizontal(|ui| {
            if running {
                ui.spinner();
                ui.add(
                    egui::ProgressBar::new(t.done as f32 / t.total.max(1) as f32)
                        .text(format!("{} of {} steps", t.done, t.total))
                        .desired_width(160.0),
                );
                if ui.button("Cancel table").clicked() {
                    self.cancel_compare();
                }
            } else if ui
                .button("Compute again")
                .on_hover_text("Recompute the table on this network")
                .clicked()
            {
                self.restart_compare(net, scenario.seed);
            }
        });
        let columns: Vec<&str> = COLUMNS.iter().copied().chain(["worst", "avg"]).collect();
        egui::Grid::new("obl_compare_table")
            .striped(true)
            .num_columns(columns.len() + 1)
            .show(ui, |ui| {
                ui.label(egui::RichText::new("routing").strong());
                for c in &columns {
                    ui.label(egui::RichText::new(*c).strong());
                }
                ui.end_row();
                for row in &t.rows {
                    ui.colored_label(palette(theme, routing_index(&row.routing)), row.routing.to_string());
                    if let Some(why) = &row.undefined {
                        ui.label("n/a").on_hover_text(why);
                        ui.end_row();
                        continue;
                    }
                    for cell in row.traffic.iter().chain([&row.worst]) {
                        match cell {
                            Some(r) => ratio_label(ui, *r),
                            None => {
                                ui.label(if running { "…" } else { "-" });
                            }
                        }
                    }
                    match &row.average {
                        Some(a) => {
                            ui.label(format!("{:.3} ± {:.3}", a.mean, a.std_error))
                                .on_hover_text(format!(
                                    "mean ± standard error over {} permutations; minimum {:.3}, 5th percentile {:.3}",
                                    a.samples,
                                    value(a.min),
                                    value(a.p5)
                                ));
                        }
                        None => {
                            ui.label(if running { "…" } else { "-" });
                        }
                    }
                    ui.end_row();
                }
            });
        for n in &t.notes {
            ui.label(egui::RichText::new(format!("- {n}")).small());
        }
        compare_bars(ui, &t, &columns, theme);
    }

    fn sweep_ui(&mut self, ui: &mut egui::Ui, scenario: &Scenario, net: &Network, theme: Theme) {
        ui.label("Simulated latency against offered load for every routing, each with its analysed ideal throughput (ideal × Θ) as a vertical line.");
        self.sweep_settings.ui(ui);
        ui.checkbox(&mut self.sweep_output_queued, "Output-queued switches")
            .on_hover_text("Ideal output-queued switches with unbounded queues: only the channels limit throughput, as in the analysis (docs/results.md); off: the scenario's own switch model");
        let running = self.sweep.is_running();
        let mut error = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Run routing sweep"))
                .on_hover_text("Runs in the background; the app stays usable")
                .clicked()
                && let Err(e) = self.start_sweep(scenario, net)
            {
                error = Some(e);
            }
            if running && ui.button("Cancel routing sweep").clicked() {
                self.sweep.cancel();
            }
        });
        if let Some(e) = error {
            self.sweep_skipped = vec![e];
        }
        let p = self.sweep.progress();
        if p.total > 0 {
            ui.add(
                egui::ProgressBar::new(p.points.len() as f32 / p.total as f32).text(format!(
                    "{} of {} points",
                    p.points.len(),
                    p.total
                )),
            );
        }
        if let Some(e) = &p.error {
            ui.colored_label(theme.error(), e);
        }
        for s in &self.sweep_skipped {
            ui.label(egui::RichText::new(format!("Left out: {s}")).small());
        }
        if p.points.is_empty() {
            return;
        }
        if !self.sweep_matches(scenario) {
            ui.label(
                egui::RichText::new("The scenario changed since this sweep: no analysed marks.")
                    .small(),
            );
        }
        let mut routings: Vec<&str> = Vec::new();
        for pt in &p.points {
            if !routings.contains(&pt.routing.as_str()) {
                routings.push(&pt.routing);
            }
        }
        let marks: Vec<(String, f64, Color32)> = routings
            .iter()
            .filter_map(|r| {
                let a: Law = r.parse().ok()?;
                let l = self
                    .sweep_matches(scenario)
                    .then(|| self.expected_of(&a))
                    .flatten()?
                    .ideal_load()?;
                Some((r.to_string(), l, palette(theme, routing_index(&a))))
            })
            .collect();
        let entries: Vec<(String, Color32, bool)> = routings
            .iter()
            .map(|r| {
                let color = r
                    .parse::<Law>()
                    .map(|a| palette(theme, routing_index(&a)))
                    .unwrap_or(theme.selection());
                (r.to_string(), color, false)
            })
            .collect();
        crate::app::plots::legend_row(ui, &entries);
        crate::app::plot_axes::plot(
            "obl_sweep_latency",
            "offered load (flits/host/cycle)",
            "latency (cycles)",
            220.0,
        )
        .include_y(0.0)
        .include_x(0.0)
        .show(ui, |plot| {
            for r in &routings {
                let color = r
                    .parse::<Law>()
                    .map(|a| palette(theme, routing_index(&a)))
                    .unwrap_or(theme.selection());
                let pts: Vec<[f64; 2]> = p
                    .points
                    .iter()
                    .filter(|x| x.routing == *r && x.avg_latency.is_finite())
                    .map(|x| [x.offered, x.avg_latency])
                    .collect();
                plot.line(Line::new(r.to_string(), PlotPoints::from(pts.clone())).color(color));
                plot.points(
                    Points::new(r.to_string(), PlotPoints::from(pts))
                        .color(color)
                        .radius(2.0),
                );
            }
            for (r, l, color) in &marks {
                plot.vline(
                    VLine::new(r.clone(), *l)
                        .color(*color)
                        .style(LineStyle::dashed_loose()),
                );
            }
        });
        if !marks.is_empty() {
            let text: Vec<String> = marks
                .iter()
                .map(|(r, l, _)| format!("{r} {l:.3}"))
                .collect();
            ui.label(
                egui::RichText::new(format!("Analysed saturation (dashed): {}", text.join(", ")))
                    .small(),
            );
        }
    }
}

/// The table as grouped bars: one group per traffic column, one bar per
/// routing.
fn compare_bars(ui: &mut egui::Ui, t: &CompareTable, columns: &[&str], theme: Theme) {
    let n = t.rows.len().max(1) as f64;
    let width = 0.8 / n;
    let names: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    // The legend above the bars, never over them.
    let entries: Vec<(String, Color32, bool)> = t
        .rows
        .iter()
        .filter(|r| r.undefined.is_none())
        .map(|r| {
            (
                r.routing.to_string(),
                palette(theme, routing_index(&r.routing)),
                false,
            )
        })
        .collect();
    crate::app::plots::legend_row(ui, &entries);
    // A column far above the rest (nearest neighbour's 4.0) would squash
    // them: the axis stops at CAP and taller bars are cut there, their
    // value written on top.
    const CAP: f64 = 1.25;
    // The shared axes and grid; the x axis names the routings, one per
    // whole number (egui_plot's own spacer marks each).
    crate::app::plot_axes::plot("obl_compare_bars", "", "ideal throughput / Θ", 200.0)
        .x_grid_spacer(egui_plot::log_grid_spacer(10))
        .include_y(0.0)
        .include_y(CAP * 1.12)
        .allow_drag(false)
        .allow_zoom(false)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (k, row) in t.rows.iter().enumerate() {
                if row.undefined.is_some() {
                    continue;
                }
                let values: Vec<Option<f64>> = row
                    .traffic
                    .iter()
                    .chain([&row.worst])
                    .map(|c| c.map(value))
                    .chain([row.average.as_ref().map(|a| a.mean)])
                    .collect();
                let bars: Vec<Bar> = values
                    .iter()
                    .enumerate()
                    .filter_map(|(g, v)| {
                        let x = g as f64 + (k as f64 - (n - 1.0) / 2.0) * width;
                        v.map(|v| {
                            Bar::new(x, v.min(CAP))
                                .width(width * 0.9)
                                .name(format!("{} · {} = {v:.3}", row.routing, columns[g]))
                        })
                    })
                    .collect();
                for (g, v) in values.iter().enumerate() {
                    if let Some(v) = v.filter(|v| *v > CAP) {
                        let x = g as f64 + (k as f64 - (n - 1.0) / 2.0) * width;
                        plot.text(
                            egui_plot::Text::new(
                                "cut",
                                egui_plot::PlotPoint::new(x, CAP),
                                egui::RichText::new(format!("{v:.1}")).small(),
                            )
                            .anchor(egui::Align2::CENTER_BOTTOM),
                        );
                    }
                }
                plot.bar_chart(
                    BarChart::new(row.routing.to_string(), bars)
                        .color(palette(theme, routing_index(&row.routing))),
                );
            }
        });
}

/// The VC minimum of every routing against the run's, with live swaps.
fn vcs_ui(
    ui: &mut egui::Ui,
    ctx: &Context,
    scenario: &Scenario,
    sim: &Simulation,
    commands: &mut Vec<AppCommand>,
) {
    let net = sim.network();
    ui.label(format!(
        "Each routing needs one virtual channel per class it climbs through to stay deadlock-free (phase, dimension-order segment, dateline side). The run has {}.",
        ctx.vcs
    ));
    let needs = vc_needs(net);
    egui::Grid::new("obl_vcs_grid").num_columns(3).show(ui, |ui| {
        for (r, need) in &needs {
            ui.label(r.to_string());
            match need {
                Ok(n) => {
                    ui.label(format!("{n} VCs"));
                    let hint = vc_hint(&spec_of(r), net, ctx.vcs);
                    if ui
                        .add_enabled(hint.is_none(), egui::Button::new(format!("Swap to {r}")))
                        .on_hover_text(format!("Swap run A's balancer to {r} now; packets in flight finish with theirs"))
                        .on_disabled_hover_text(hint.unwrap_or_default())
                        .clicked()
                    {
                        commands.push(AppCommand::SwapRouting {
                            spec: spec_of(r),
                            on_compare: false,
                        });
                    }
                }
                Err(e) => {
                    ui.label("n/a").on_hover_text(e);
                }
            }
            ui.end_row();
        }
    });
    let most = needs
        .iter()
        .filter_map(|(_, n)| n.as_ref().ok().copied())
        .max()
        .unwrap_or(1);
    if most > ctx.vcs
        && ui
            .button(format!("Use {most} virtual channels"))
            .on_hover_text("Apply the scenario with enough virtual channels for every routing (the run restarts at cycle 0)")
            .clicked()
    {
        commands.push(AppCommand::Apply(Box::new(Scenario {
            vcs: most,
            ..scenario.clone()
        })));
    }
}

impl crate::app::panel::Panel for ObliviousAnalysis {
    /// The analysis view left of the runs, and the runs on its scale.
    fn central(&self, runs: &[&Simulation], theme: Theme) -> Option<crate::app::panel::Central> {
        let v = self.central_views(runs, theme)?;
        Some(crate::app::panel::Central {
            column: Some(crate::app::panel::CentralColumn {
                colouring: v.expected,
                title: v.title,
                overlay: v.expected_overlay,
            }),
            runs: v
                .runs
                .map_or_else(Vec::new, |r| r.into_iter().map(Some).collect()),
            runs_overlay: Some(v.runs_overlay),
        })
    }
    fn id(&self) -> &'static str {
        "oblivious"
    }
    fn title(&self) -> &'static str {
        "Oblivious routing analysis"
    }
    fn hover(&self) -> &'static str {
        "Show or hide the oblivious-routing panel: expected channel loads beside the simulation, a pair's quadrants and paths, every routing's ideal throughput (tori and meshes)"
    }
    fn hide_hint(&self) -> &'static str {
        "Hide the oblivious-routing panel"
    }
    fn toolbar_label(&self) -> Option<&'static str> {
        Some("Oblivious analysis")
    }
    fn width(&self) -> (f32, crate::app::side_panel::Width) {
        (400.0, crate::app::side_panel::Width::Free)
    }
    fn is_open(&self) -> bool {
        self.open
    }
    fn set_open(&mut self, open: bool, _session: &crate::app::session::Session) {
        self.open = open;
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut crate::app::panel::PanelContext<'_>) {
        ObliviousAnalysis::ui(
            self,
            ui,
            &cx.session.scenario,
            &cx.session.sim,
            cx.commands,
            cx.theme,
        );
    }
    fn tick(&mut self, session: &crate::app::session::Session) -> bool {
        ObliviousAnalysis::tick(self, &session.scenario, &session.sim)
    }
    fn take_selection(&mut self, selected: &mut Option<crate::app::network_view::Selected>) {
        self.take_pick(selected);
    }
}
