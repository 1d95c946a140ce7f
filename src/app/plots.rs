//! Live curves (latency and accepted throughput over time, swaps marked) and
//! sweep curves (against offered load).

use super::live_series::{self, CurveRow};
use super::plot_axes::{AlignedYAxes, plot, plot_title};
use super::sweep::SweepPoint;
use super::theme::Theme;
use crate::sim::Simulation;
use egui_plot::{HoverPosition, Line, LineStyle, MarkerShape, PlotPoints, Points, VLine};

/// What a plot drew, for the tests that check the screen tells the story
/// (where the data is, where the legend is, where the swaps are marked).
#[derive(Clone, Debug, PartialEq)]
pub struct PlotReport {
    pub id: String,
    /// The data area on screen.
    pub data_rect: egui::Rect,
    /// The plot's response rectangle: egui_plot's, the area inside the
    /// axes (not the axes' labels).
    pub rect: egui::Rect,
    /// The x range shown.
    pub x_range: [f64; 2],
    /// The y range shown.
    pub y_range: [f64; 2],
    /// The largest value the plot draws (0 with none): the y range is set
    /// by it.
    pub drawn_max: f64,
    /// The legend's entries and where they are on screen.
    pub legend: Vec<(String, egui::Rect)>,
    /// Swap markers: run index, cycle, routing swapped to.
    pub markers: Vec<(usize, u64, String)>,
}

/// A run's legend entry: its name and the routing it ran, first to last
/// (one entry, however many swaps).
pub fn run_label(run: &str, sim: &Simulation) -> String {
    let seg = sim.swaps();
    match seg {
        [] => format!("{run}: {}", sim.routing_name()),
        [(_, only)] => format!("{run}: {only}"),
        [(_, first), (_, last)] => format!("{run}: {first}, now {last}"),
        // A short history in full (`rlb, val, now rlb` rather than `rlb,
        // now rlb`), a long one by its ends.
        [(_, first), middle @ .., (_, last)] if middle.len() <= 2 => {
            let middle: Vec<&str> = middle.iter().map(|(_, r)| r.as_str()).collect();
            format!("{run}: {first}, {}, now {last}", middle.join(", "))
        }
        [(_, first), .., (_, last)] => {
            format!("{run}: {first}, now {last} ({} swaps)", seg.len() - 1)
        }
    }
}

/// Draw a row of legend entries (a line sample and a label each) above a
/// plot, outside its data; returns each entry's rectangle.
pub fn legend_row(
    ui: &mut egui::Ui,
    entries: &[(String, egui::Color32, bool)],
) -> Vec<(String, egui::Rect)> {
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let font = egui::TextStyle::Small.resolve(ui.style());
        let row_width = ui.available_size_before_wrap().x;
        for (label, color, dashed) in entries {
            // An entry is a swatch and a label laid out together, which the
            // wrapping layout cannot break: start a new row when it does not
            // fit on this one (else a long legend, such as the DRB pair
            // plot's, widened its side panel over the central view).
            let text_width = ui
                .painter()
                .layout_no_wrap(label.clone(), font.clone(), *color)
                .size()
                .x;
            let need = 22.0 + ui.spacing().item_spacing.x + text_width;
            let left = ui.available_size_before_wrap().x;
            if need > left && left < row_width - 1.0 {
                ui.end_row();
            }
            let r = ui
                .horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(22.0, 12.0), egui::Sense::hover());
                    let y = rect.center().y;
                    let stroke = egui::Stroke::new(2.5, *color);
                    if *dashed {
                        for k in 0..3 {
                            let x = rect.left() + k as f32 * 8.0;
                            ui.painter()
                                .line_segment([egui::pos2(x, y), egui::pos2(x + 5.0, y)], stroke);
                        }
                    } else {
                        ui.painter().line_segment(
                            [egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
                            stroke,
                        );
                    }
                    ui.label(egui::RichText::new(label.as_str()).small());
                })
                .response
                .rect;
            out.push((label.clone(), r));
            ui.add_space(10.0);
        }
    });
    out
}

/// Latency and throughput over time for each run (`(name, sim)`, name
/// `A` or `B`); for time-slice runs, latency and success rate.
///
/// The points are the rows of [`live_series::rows`], one per measurement
/// window, at the window's end; a window a swap cut short is drawn with a
/// ring on its point, and a window in which nothing was delivered has no
/// latency point. Each run is one series per plot whatever was swapped; a
/// swap is a vertical marker on every plot at its cycle, labelled with the
/// routing swapped to, and hovering a curve names the routing that ran
/// then. The legend names runs (and the offered load) in a row above the
/// plots, so it never covers data and never grows with swaps. Each plot's
/// y range is set by the values it draws (and 0; 0 to 100 % for success):
/// the swap labels are painted on the screen, not placed in the plot, so
/// they never stretch its bounds.
pub fn live_curves_ui(
    ui: &mut egui::Ui,
    runs: &[(&str, &Simulation)],
    theme: Theme,
) -> Vec<PlotReport> {
    let rows = live_series::rows(runs);
    if rows.is_empty() {
        nothing_yet_ui(ui, runs);
        return Vec::new();
    }
    let slices = super::views::in_slices(runs.iter().map(|(_, s)| *s));
    let mut entries: Vec<(String, egui::Color32, bool)> = runs
        .iter()
        .enumerate()
        .map(|(i, (name, sim))| (run_label(name, sim), theme.series(i), i > 0))
        .collect();
    if !slices {
        entries.push((
            "offered load (A)".to_string(),
            theme.series(0).gamma_multiply(0.45),
            true,
        ));
    }
    let legend = legend_row(ui, &entries);
    let plots = plot_kinds(slices);
    let h = ((ui.available_height() - 8.0) / 2.0).max(60.0);
    let plot_h = (h - 18.0).max(60.0);
    // Both plots over the same span of time, one above the other, so a
    // moment reads at one x on both. (The time-slice success plot's last
    // windows are still being judged, and would otherwise end its axis
    // earlier than the latency plot's.)
    let span = shared_x_span(&rows);
    let mut axes = AlignedYAxes::load(ui, "live");
    let mut reports = Vec::new();
    for (title, id, x_unit, y_unit, value) in plots {
        ui.label(
            egui::RichText::new(plot_title(title, x_unit, y_unit, plot_h))
                .small()
                .strong(),
        );
        let mut markers = Vec::new();
        let success = id == "slice_success";
        let mut p = plot(id, x_unit, y_unit, plot_h)
            .include_y(0.0)
            .label_formatter(|pos| hover_label(pos, runs, x_unit, y_unit));
        if success {
            p = p.include_y(100.0);
        }
        if let Some([lo, hi]) = span {
            p = p.include_x(lo).include_x(hi);
        }
        p = axes.apply(p);
        let left = ui.cursor().left();
        // The largest value drawn, before drawing: it sets the top of the
        // y range, with room above it for the swap labels when there are
        // swaps (a label's height on top of the data's, so no label sits
        // on a curve).
        let drawn_max = rows
            .iter()
            .filter_map(value)
            .chain(
                rows.iter()
                    .filter(|r| id == "accepted" && r.run == runs[0].0)
                    .map(|r| r.offered),
            )
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        let swapped = runs.iter().any(|(_, s)| s.swaps().len() > 1);
        if swapped && drawn_max > 0.0 && !success {
            let label = ui.text_style_height(&egui::TextStyle::Body) as f64 + 6.0;
            let room = (label / (f64::from(plot_h) - label).max(label)).min(0.35);
            p = p.include_y(drawn_max * (1.0 + room));
        }
        let r = p.show(ui, |plot| {
            draw_series(plot, &rows, runs, id, value, theme, &mut markers);
        });
        let frame = *r.transform.frame();
        paint_swap_labels(ui, &r.transform, &markers, theme);
        axes.record(left, frame);
        let b = r.transform.bounds();
        reports.push(PlotReport {
            id: id.to_string(),
            data_rect: frame,
            rect: r.response.rect,
            x_range: [b.min()[0], b.max()[0]],
            y_range: [b.min()[1], b.max()[1]],
            drawn_max,
            legend: legend.clone(),
            markers,
        });
    }
    axes.store(ui);
    reports
}

/// What a run's plot shows of a row: a value, or none (no point).
type Value = fn(&CurveRow) -> Option<f64>;

/// Nothing measured yet: say what to do rather than draw empty axes.
fn nothing_yet_ui(ui: &mut egui::Ui, runs: &[(&str, &Simulation)]) {
    AlignedYAxes::forget(ui, "live");
    ui.add_space(24.0);
    ui.vertical_centered(|ui| {
        let warming = runs
            .first()
            .is_some_and(|(_, s)| s.now() > 0 && s.now() < s.measure().warmup);
        ui.label(
            egui::RichText::new(if warming {
                "Warming up: no measurements yet"
            } else {
                "No measurements yet"
            })
            .strong()
            .size(16.0),
        );
        ui.label(if super::views::in_slices(runs.iter().map(|(_, s)| *s)) {
            "Press Play (Space) or Step: latency and success rate are drawn here \
             for every window of slices the simulation completes."
        } else {
            "Press Play (Space) or Step: latency and accepted throughput are drawn here \
             for every window of cycles the simulation completes after the warm-up."
        });
    });
}

/// The two live plots, as (title, id, x unit, y unit, value): latency and
/// accepted throughput over cycles, or for time-slice runs latency and
/// success rate over slices.
fn plot_kinds(
    slices: bool,
) -> [(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Value,
); 2] {
    if slices {
        [
            ("Average latency", "slice_latency", "slice", "slices", |r| {
                r.latency
            }),
            (
                "Success rate of the requests begun in each window",
                "slice_success",
                "begin slice",
                "%",
                |r| r.success_rate.map(|s| 100.0 * s),
            ),
        ]
    } else {
        [
            ("Average latency", "latency", "cycle", "cycles", |r| {
                r.latency
            }),
            (
                "Accepted throughput",
                "accepted",
                "cycle",
                "flits/host/cycle",
                |r| Some(r.accepted),
            ),
        ]
    }
}

/// Every run's series on plot `id`: its line (run B dashed and thinner on
/// top), rings on windows a swap cut short, run A's offered load on the
/// throughput plot, and a vertical line at each swap (kept in `markers`
/// for their labels).
fn draw_series(
    plot: &mut egui_plot::PlotUi<'_>,
    rows: &[CurveRow],
    runs: &[(&str, &Simulation)],
    id: &str,
    value: Value,
    theme: Theme,
    markers: &mut Vec<(usize, u64, String)>,
) {
    for (i, (name, sim)) in runs.iter().enumerate() {
        let color = theme.series(i);
        let mine = || rows.iter().filter(|r| r.run == *name);
        let pts: Vec<[f64; 2]> = mine()
            .filter_map(|r| value(r).map(|v| [r.window_end as f64, v]))
            .collect();
        let partial: Vec<[f64; 2]> = mine()
            .filter(|r| r.partial)
            .filter_map(|r| value(r).map(|v| [r.window_end as f64, v]))
            .collect();
        // Run B dashed and drawn thinner on top, so A shows
        // through where the two coincide.
        let line = Line::new(name.to_string(), PlotPoints::from(pts)).color(color);
        plot.line(if i == 0 {
            line.width(2.5)
        } else {
            line.width(1.5).style(LineStyle::dashed_loose())
        });
        if !partial.is_empty() {
            plot.points(
                Points::new(format!("{name}: partial window"), PlotPoints::from(partial))
                    .shape(MarkerShape::Circle)
                    .filled(false)
                    .radius(3.5)
                    .color(color),
            );
        }
        if id == "accepted" && i == 0 {
            let offered: Vec<[f64; 2]> = mine().map(|r| [r.window_end as f64, r.offered]).collect();
            plot.line(
                Line::new("offered load (A)", PlotPoints::from(offered))
                    .color(color.gamma_multiply(0.45))
                    .style(LineStyle::dashed_dense()),
            );
        }
        for (cycle, routing) in sim.swaps().iter().skip(1) {
            plot.vline(
                VLine::new(format!("{name}: swap to {routing}"), *cycle as f64)
                    .color(color)
                    .width(1.5)
                    .style(LineStyle::dashed_dense()),
            );
            markers.push((i, *cycle, routing.clone()));
        }
    }
}

/// The swap markers' labels, at the top of the data area: painted on the
/// screen, outside the plot's items, so that they do not count in its
/// bounds (as plot items at the top of the bounds they raised the top by
/// the margin every frame, and after a few hundred frames the curves lay
/// flat on zero under an axis to 500 000).
fn paint_swap_labels(
    ui: &egui::Ui,
    transform: &egui_plot::PlotTransform,
    markers: &[(usize, u64, String)],
    theme: Theme,
) {
    let frame = *transform.frame();
    let painter = ui.painter().with_clip_rect(frame);
    // Body text, so the label reads from the back of a room in
    // presenter mode as the legend does.
    let font = egui::TextStyle::Body.resolve(ui.style());
    for (i, cycle, routing) in markers {
        let x = transform.position_from_point_x(*cycle as f64);
        let galley = painter.layout_no_wrap(routing.clone(), font.clone(), theme.series(*i));
        let at = egui::Align2::LEFT_TOP
            .anchor_size(egui::pos2(x + 3.0, frame.top() + 2.0), galley.size());
        painter.galley(at.min, galley, theme.series(*i));
    }
}

/// The x span of every run's live data, both plots together: the
/// windows' ends (cycles or slices). `None` with no data.
fn shared_x_span(rows: &[CurveRow]) -> Option<[f64; 2]> {
    rows.iter()
        .map(|r| r.window_end as f64)
        .fold(None, |span, x| match span {
            None => Some([x, x]),
            Some([lo, hi]) => Some([lo.min(x), hi.max(x)]),
        })
}

/// The hover text of a live plot: the run, the routing it ran at that
/// cycle, the cycle (or, with `x_unit` `slice` or `begin slice`, the time
/// slice) and the value.
fn hover_label(
    pos: &HoverPosition<'_>,
    runs: &[(&str, &Simulation)],
    x_unit: &str,
    y_unit: &str,
) -> Option<String> {
    match pos {
        HoverPosition::NearDataPoint {
            plot_name,
            position,
            ..
        } => {
            let run = runs.iter().find(|(name, _)| {
                *plot_name == *name || plot_name.starts_with(&format!("{name}:"))
            });
            // A point is its window's end: the routing that ran in the
            // window is the one of its last cycle.
            let end = position.x.max(0.0).round() as u64;
            let routing = run.map(|(_, sim)| live_series::routing_from(sim, end.saturating_sub(1)));
            let partial = run
                .and_then(|(_, sim)| {
                    let full = sim.measure().window_cycles;
                    sim.stats()
                        .windows()
                        .iter()
                        .find(|w| w.cycle == end && w.cycles() < full)
                        .map(|w| {
                            format!("\npartial window: {} {x_unit}s (cut by a swap)", w.cycles())
                        })
                })
                .unwrap_or_default();
            Some(match routing {
                Some(r) if !plot_name.contains("swap") => format!(
                    "run {} · {r}\n{x_unit} {:.0}\n{:.3} {y_unit}{partial}",
                    plot_name.trim_end_matches(": partial window"),
                    position.x,
                    position.y
                ),
                _ => format!("{plot_name}\n{x_unit} {:.0}", position.x),
            })
        }
        HoverPosition::Elsewhere { position } => Some(format!("{x_unit} {:.0}", position.x)),
    }
}

/// Latency and accepted throughput against offered load, one curve per
/// routing, the legend in a row above the plots.
pub fn sweep_curves_ui(ui: &mut egui::Ui, points: &[SweepPoint], theme: Theme) -> Vec<PlotReport> {
    let mut routings: Vec<&str> = Vec::new();
    for p in points {
        if !routings.contains(&p.routing.as_str()) {
            routings.push(&p.routing);
        }
    }
    let entries: Vec<(String, egui::Color32, bool)> = routings
        .iter()
        .enumerate()
        .map(|(i, r)| (r.to_string(), theme.series(i), false))
        .collect();
    let legend = legend_row(ui, &entries);
    let h = ((ui.available_height() - 8.0) / 2.0).max(60.0);
    let plot_h = (h - 18.0).max(60.0);
    let x_unit = "offered load (flits/host/cycle)";
    // Both plots over the same loads (the latency plot leaves out the
    // points whose latency is not finite) with one y-axis width, so a load
    // sits at one x on both.
    let top_load = points.iter().map(|p| p.offered).fold(0.0, f64::max);
    let mut axes = AlignedYAxes::load(ui, "sweep");
    let mut reports = Vec::new();
    for (title, id, unit, f) in [
        (
            "Average latency vs offered load",
            "sweep_latency",
            "cycles",
            (|p: &SweepPoint| p.avg_latency) as fn(&SweepPoint) -> f64,
        ),
        (
            "Accepted vs offered load",
            "sweep_accepted",
            "flits/host/cycle",
            |p: &SweepPoint| p.accepted,
        ),
    ] {
        ui.label(
            egui::RichText::new(plot_title(title, x_unit, unit, plot_h))
                .small()
                .strong(),
        );
        let left = ui.cursor().left();
        let r = axes
            .apply(plot(id, x_unit, unit, plot_h))
            .include_y(0.0)
            .include_x(0.0)
            .include_x(top_load)
            .show(ui, |plot| {
                for (i, r) in routings.iter().enumerate() {
                    let color = theme.series(i);
                    let pts: Vec<[f64; 2]> = points
                        .iter()
                        .filter(|p| p.routing == *r && f(p).is_finite())
                        .map(|p| [p.offered, f(p)])
                        .collect();
                    plot.line(Line::new(r.to_string(), PlotPoints::from(pts.clone())).color(color));
                    plot.points(
                        Points::new(r.to_string(), PlotPoints::from(pts))
                            .color(color)
                            .radius(2.5),
                    );
                }
            });
        axes.record(left, *r.transform.frame());
        let b = r.transform.bounds();
        reports.push(PlotReport {
            id: id.to_string(),
            data_rect: *r.transform.frame(),
            rect: r.response.rect,
            x_range: [b.min()[0], b.max()[0]],
            y_range: [b.min()[1], b.max()[1]],
            drawn_max: points
                .iter()
                .map(f)
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max),
            legend: legend.clone(),
            markers: Vec::new(),
        });
    }
    axes.store(ui);
    reports
}

#[cfg(test)]
mod tests {
    use super::hover_label;
    use egui_plot::{HoverPosition, PlotPoint};

    /// The hover text names the plot's own time axis: slices on the
    /// time-slice model's plots, cycles elsewhere.
    #[test]
    fn the_hover_text_names_the_plots_time_unit() {
        let pos = HoverPosition::Elsewhere {
            position: PlotPoint::new(220.0, 3.0),
        };
        assert_eq!(
            hover_label(&pos, &[], "slice", "slices").as_deref(),
            Some("slice 220")
        );
        assert_eq!(
            hover_label(&pos, &[], "cycle", "cycles").as_deref(),
            Some("cycle 220")
        );
    }
}
