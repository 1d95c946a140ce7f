//! Live curves (latency and accepted throughput over time, swaps marked) and
//! sweep curves (against offered load).

use super::sweep::SweepPoint;
use super::theme::Theme;
use crate::sim::Simulation;
use egui_plot::{GridInput, GridMark, Legend, Line, LineStyle, Plot, PlotPoints, Points, VLine};

/// Grid lines and tick labels at 1, 2 and 5 times a power of ten.
/// egui_plot's default spacer steps by powers of ten only, so a short plot
/// of latencies near 50 labels nothing but `0` (its steps of 10 are too
/// close to label, its steps of 100 leave only 0 in view); with 1-2-5 steps
/// it labels 0, 20, 40 (the classroom issue's "every axis labelled with its
/// ticks"). Three step sizes, as egui_plot draws three line strengths.
pub(crate) fn nice_grid(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let base = input.base_step_size;
    if !(base.is_finite() && base > 0.0 && lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    // The 1-2-5 sequence from the smallest step at least `base`; each of
    // the three steps a multiple of the one before (10, 20, 100: labels at
    // 0, 20, 40, never 40 beside 50).
    let mut decade = 10f64.powi(base.log10().floor() as i32);
    let mut steps: Vec<f64> = Vec::with_capacity(3);
    let divides = |a: f64, b: f64| ((b / a).round() * a - b).abs() < a * 1e-9;
    'find: loop {
        for m in [1.0, 2.0, 5.0] {
            let s = m * decade;
            let fits = match steps.last() {
                None => s >= base * (1.0 - 1e-9),
                Some(&prev) => s > prev && divides(prev, s),
            };
            if fits {
                steps.push(s);
                if steps.len() == 3 {
                    break 'find;
                }
            }
        }
        decade *= 10.0;
    }
    let (fine, mid, coarse) = (steps[0], steps[1], steps[2]);
    // Too many marks would mean a degenerate range; egui_plot's own limit.
    if (hi - lo) / fine > 10_000.0 {
        return Vec::new();
    }
    let on = |v: f64, s: f64| ((v / s).round() * s - v).abs() < fine * 1e-6;
    let first = (lo / fine).ceil() as i64;
    let last = (hi / fine).floor() as i64;
    (first..=last)
        .map(|i| {
            let value = i as f64 * fine;
            let step_size = if on(value, coarse) {
                coarse
            } else if on(value, mid) {
                mid
            } else {
                fine
            };
            GridMark { value, step_size }
        })
        .collect()
}

/// Latency and throughput over time for each run (`(label, sim)`); for
/// time-slice runs, latency and success rate.
pub fn live_curves_ui(ui: &mut egui::Ui, runs: &[(&str, &Simulation)], theme: Theme) {
    if runs.iter().all(|(_, s)| s.stats().windows().is_empty()) {
        // Nothing measured yet: say what to do rather than draw empty axes.
        ui.add_space(24.0);
        ui.vertical_centered(|ui| {
            ui.label(
                egui::RichText::new("No measurements yet")
                    .strong()
                    .size(16.0),
            );
            ui.label(if runs.iter().any(|(_, s)| s.deadlines().is_some()) {
                "Press Play (Space) or Step: latency and success rate are drawn here \
                 for every window of slices the simulation completes."
            } else {
                "Press Play (Space) or Step: latency and accepted throughput are drawn here \
                 for every window of cycles the simulation completes."
            });
        });
        return;
    }
    if runs.iter().any(|(_, s)| s.deadlines().is_some()) {
        slice_curves_ui(ui, runs, theme);
        return;
    }
    let h = ((ui.available_height() - 8.0) / 2.0).max(80.0);
    for (title, id, unit, value) in [
        (
            "Average latency (cycles)",
            "latency",
            "cycles",
            (|w: &crate::sim::WindowSample| w.avg_latency) as fn(&_) -> f64,
        ),
        (
            "Accepted throughput (flits/host/cycle)",
            "accepted",
            "flits/host/cycle",
            |w: &crate::sim::WindowSample| w.accepted,
        ),
    ] {
        ui.label(egui::RichText::new(title).small().strong());
        Plot::new(id)
            .y_grid_spacer(nice_grid)
            .x_grid_spacer(nice_grid)
            .y_axis_label(unit)
            .height(h - 18.0)
            .legend(Legend::default())
            .include_y(0.0)
            .allow_scroll(false)
            .x_axis_label("cycle")
            .show(ui, |plot| {
                for (i, (label, sim)) in runs.iter().enumerate() {
                    let color = theme.series(i);
                    let pts: PlotPoints = sim
                        .stats()
                        .windows()
                        .iter()
                        .map(|w| [w.cycle as f64, value(w)])
                        .collect();
                    // Run B dashed and drawn thinner on top, so A shows
                    // through where the two coincide.
                    let line = Line::new(label.to_string(), pts).color(color);
                    plot.line(if i == 0 {
                        line.width(2.5)
                    } else {
                        line.width(1.5).style(LineStyle::dashed_loose())
                    });
                    if id == "accepted" && i == 0 {
                        let offered: PlotPoints = sim
                            .stats()
                            .windows()
                            .iter()
                            .map(|w| [w.cycle as f64, w.offered])
                            .collect();
                        plot.line(
                            Line::new("offered", offered)
                                .color(color.gamma_multiply(0.45))
                                .style(LineStyle::dashed_dense()),
                        );
                    }
                    for (cycle, name) in sim.swaps().iter().skip(1) {
                        plot.vline(
                            VLine::new(format!("{label}: swap to {name} @ {cycle}"), *cycle as f64)
                                .color(color)
                                .style(LineStyle::dotted_loose()),
                        );
                    }
                }
            });
    }
}

/// Time-slice runs: average latency per window (slices) and the success
/// rate of the requests begun in each window (known D slices later), with
/// swaps marked.
fn slice_curves_ui(ui: &mut egui::Ui, runs: &[(&str, &Simulation)], theme: Theme) {
    let h = ((ui.available_height() - 8.0) / 2.0).max(80.0);
    ui.label(
        egui::RichText::new("Average latency (slices)")
            .small()
            .strong(),
    );
    Plot::new("slice_latency")
        .y_grid_spacer(nice_grid)
        .x_grid_spacer(nice_grid)
        .y_axis_label("slices")
        .height(h - 18.0)
        .legend(Legend::default())
        .include_y(0.0)
        .allow_scroll(false)
        .x_axis_label("slice")
        .show(ui, |plot| {
            for (i, (label, sim)) in runs.iter().enumerate() {
                let pts: PlotPoints = sim
                    .stats()
                    .windows()
                    .iter()
                    .map(|w| [w.cycle as f64, w.avg_latency])
                    .collect();
                plot.line(
                    Line::new(label.to_string(), pts)
                        .color(theme.series(i))
                        .width(1.5),
                );
                swaps(plot, label, sim, theme.series(i));
            }
        });
    ui.label(
        egui::RichText::new("Success rate (%) of the requests begun in each window")
            .small()
            .strong(),
    );
    Plot::new("slice_success")
        .y_grid_spacer(nice_grid)
        .x_grid_spacer(nice_grid)
        .y_axis_label("%")
        .height(h - 18.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(100.0)
        .allow_scroll(false)
        .x_axis_label("begin slice")
        .show(ui, |plot| {
            for (i, (label, sim)) in runs.iter().enumerate() {
                let Some(d) = sim.deadlines() else {
                    continue;
                };
                let pts: PlotPoints = d
                    .windows()
                    .iter()
                    .filter(|w| w[1].is_finite())
                    .map(|w| [w[0], 100.0 * w[1]])
                    .collect();
                plot.line(
                    Line::new(label.to_string(), pts)
                        .color(theme.series(i))
                        .width(1.5),
                );
                swaps(plot, label, sim, theme.series(i));
            }
        });
}

fn swaps(plot: &mut egui_plot::PlotUi<'_>, label: &str, sim: &Simulation, color: egui::Color32) {
    for (cycle, name) in sim.swaps().iter().skip(1) {
        plot.vline(
            VLine::new(format!("{label}: swap to {name} @ {cycle}"), *cycle as f64)
                .color(color)
                .style(LineStyle::dotted_loose()),
        );
    }
}

/// Latency and accepted throughput against offered load.
pub fn sweep_curves_ui(ui: &mut egui::Ui, points: &[SweepPoint], theme: Theme) {
    let mut routings: Vec<&str> = Vec::new();
    for p in points {
        if !routings.contains(&p.routing.as_str()) {
            routings.push(&p.routing);
        }
    }
    let h = ((ui.available_height() - 8.0) / 2.0).max(80.0);
    for (title, id, unit, f) in [
        (
            "Average latency (cycles) vs offered load",
            "sweep_latency",
            "cycles",
            (|p: &SweepPoint| p.avg_latency) as fn(&SweepPoint) -> f64,
        ),
        (
            "Accepted vs offered (flits/host/cycle)",
            "sweep_accepted",
            "flits/host/cycle",
            |p: &SweepPoint| p.accepted,
        ),
    ] {
        ui.label(egui::RichText::new(title).small().strong());
        Plot::new(id)
            .y_grid_spacer(nice_grid)
            .x_grid_spacer(nice_grid)
            .y_axis_label(unit)
            .height(h - 18.0)
            .legend(Legend::default())
            .include_y(0.0)
            .include_x(0.0)
            .allow_scroll(false)
            .x_axis_label("offered load")
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(lo: f64, hi: f64, base: f64) -> Vec<GridMark> {
        nice_grid(GridInput {
            bounds: (lo, hi),
            base_step_size: base,
        })
    }

    /// A short latency plot (0..60 over about 80 points, base step 6):
    /// marks every 10, the stronger (labelled) ones every 20, never only at
    /// 0 as with powers of ten.
    #[test]
    fn a_short_plot_gets_labelled_ticks_above_zero() {
        let m = marks(-2.0, 60.0, 6.0);
        let values: Vec<f64> = m.iter().map(|g| g.value).collect();
        assert_eq!(values, vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
        let coarse = m.iter().map(|g| g.step_size).fold(0.0, f64::max);
        assert_eq!(coarse, 100.0);
        let mid: Vec<f64> = m
            .iter()
            .filter(|g| g.step_size >= 20.0)
            .map(|g| g.value)
            .collect();
        assert_eq!(mid, vec![0.0, 20.0, 40.0, 60.0]);
    }

    /// Each step size is a multiple of the one below it.
    #[test]
    fn the_three_steps_nest() {
        for base in [0.003, 0.06, 1.0, 1.7, 4.0, 6.0, 33.0, 420.0] {
            let mut sizes: Vec<f64> = marks(0.0, base * 50.0, base)
                .iter()
                .map(|g| g.step_size)
                .collect();
            sizes.sort_by(f64::total_cmp);
            sizes.dedup();
            for w in sizes.windows(2) {
                let r = w[1] / w[0];
                assert!((r - r.round()).abs() < 1e-9, "base {base}: {sizes:?}");
            }
        }
    }

    #[test]
    fn degenerate_ranges_give_no_marks() {
        assert!(marks(0.0, 0.0, 1.0).is_empty());
        assert!(marks(0.0, 1.0, 0.0).is_empty());
        assert!(marks(f64::NAN, 1.0, 0.1).is_empty());
        assert!(marks(0.0, 1e9, 1.0).is_empty());
    }

    #[test]
    fn small_fractions_step_in_one_two_five() {
        let m = marks(0.0, 0.5, 0.015);
        assert_eq!(m[1].value, 0.02);
        assert!(
            m.iter()
                .any(|g| (g.value - 0.1).abs() < 1e-12 && g.step_size == 0.1)
        );
    }
}
