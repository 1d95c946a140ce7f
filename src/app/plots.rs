//! Live curves (latency and accepted throughput over time, swaps marked) and
//! sweep curves (against offered load).

use super::sweep::SweepPoint;
use super::theme::Theme;
use crate::sim::Simulation;
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, Points, VLine};

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
    for (title, id, value) in [
        (
            "Average latency (cycles)",
            "latency",
            (|w: &crate::sim::WindowSample| w.avg_latency) as fn(&_) -> f64,
        ),
        (
            "Accepted throughput (flits/host/cycle)",
            "accepted",
            |w: &crate::sim::WindowSample| w.accepted,
        ),
    ] {
        ui.label(egui::RichText::new(title).small().strong());
        Plot::new(id)
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
    for (title, id, f) in [
        (
            "Average latency (cycles) vs offered load",
            "sweep_latency",
            (|p: &SweepPoint| p.avg_latency) as fn(&SweepPoint) -> f64,
        ),
        (
            "Accepted vs offered (flits/host/cycle)",
            "sweep_accepted",
            |p: &SweepPoint| p.accepted,
        ),
    ] {
        ui.label(egui::RichText::new(title).small().strong());
        Plot::new(id)
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
