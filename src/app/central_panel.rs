//! The central panel: the network views (or the latency surface) above the
//! live or sweep curves, side by side in presenter mode, runs side by side
//! on one colour range. What the side panels add to the network views
//! (a view of their own left of the runs, the runs' colourings, marks over
//! each run) comes through [`super::panel::Panel::central`] and
//! [`super::panel::Panel::paint_over`].

use super::app_state::Views;
use super::panel::Central;
use super::sweep_runner::SweepRunner;
use super::view::ViewContext;
use super::*;
use crate::sim::Simulation;

/// The runs as the central panel draws them: label and simulation, run A
/// first.
type Runs<'a> = [(String, &'a Simulation)];

impl RoutelabApp {
    pub(super) fn central_ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let full = ui.available_rect_before_wrap();
            let (views_rect, curves_rect) = split(full, self.guides.presenter.on);
            ui.allocate_rect(full, egui::Sense::hover());
            let mut views_ui = ui.new_child(egui::UiBuilder::new().max_rect(views_rect));
            let mut curves_ui = ui.new_child(egui::UiBuilder::new().max_rect(curves_rect));
            let runs = self.session.labelled_runs();
            let ui = &mut views_ui;
            view_tabs(ui, &mut self.views.central_view);
            let view_h = (views_rect.height() - 24.0).max(140.0);
            let view_rect = if self.views.central_view == CentralView::Surface {
                let grids = latency_surface::grids(&runs);
                // The view is the drawing with its legend above it: a tour
                // step's frame around the drawing alone crossed the
                // legend's second line, and an exported picture lost its
                // scale.
                // (A gap under the tabs, for that frame.)
                ui.add_space(6.0);
                let theme = self.settings.theme;
                let r = ui.allocate_ui(egui::vec2(ui.available_width(), view_h - 6.0), |ui| {
                    latency_surface::surface_ui(ui, &mut self.views.surface, &grids, theme)
                });
                self.views.view_reports = Vec::new();
                Some(r.response.rect.union(r.inner.rect))
            } else {
                let mut selected = self.views.selected;
                let (rect, reports) = self.network_views(ui, view_h, &runs, &mut selected);
                self.views.selected = selected;
                self.views.view_reports = reports;
                rect
            };
            curves(
                &mut curves_ui,
                &mut self.views,
                &self.background.sweep,
                &runs,
                self.settings.theme,
            );
            if let Some(r) = view_rect {
                tour::overlay::mark_rect(curves_ui.ctx(), "network", r);
            }
            self.exports.view_rect = view_rect;
        });
    }

    /// The network views in columns `view_h` high: a panel's own view
    /// first when one gives it, then every run, on one colour range. The
    /// rectangle of them all, and each run's report.
    fn network_views(
        &self,
        ui: &mut egui::Ui,
        view_h: f32,
        runs: &Runs<'_>,
        selected: &mut Option<network_view::Selected>,
    ) -> (Option<egui::Rect>, Vec<ViewReport>) {
        let theme = self.settings.theme;
        let sims: Vec<&Simulation> = runs.iter().map(|r| r.1).collect();
        let panels = self.panels.list();
        let adds: Vec<Central> = panels
            .iter()
            .filter_map(|p| p.central(&sims, theme))
            .collect();
        let column = adds.iter().find_map(|a| a.column.as_ref());
        let colourings = self.run_colourings(runs, &adds);
        let shared_max = shared_max(&colourings, runs);
        let runs_overlay = adds.iter().find_map(|a| a.runs_overlay.clone());
        let mut view_rect: Option<egui::Rect> = None;
        let mut reports = Vec::new();
        ui.allocate_ui(egui::vec2(ui.available_width(), view_h), |ui| {
            ui.columns(runs.len() + usize::from(column.is_some()), |cols| {
                let mut cols = cols.iter_mut();
                // (A panel's view takes a column only when there is one.)
                if let Some(v) = column
                    && let Some(col) = cols.next()
                {
                    let sim = &self.session.sim;
                    let r = views::for_run(sim).draw(
                        col,
                        sim,
                        &mut ViewContext {
                            colouring: &v.colouring,
                            theme,
                            selected,
                            title: &v.title,
                            overlay: &v.overlay,
                        },
                    );
                    view_rect = Some(r);
                }
                for (i, (col, (label, sim))) in cols.zip(runs).enumerate() {
                    let title = format!("{} · {}", sim.network().spec(), label);
                    let mut overlay = runs_overlay.clone().unwrap_or_default();
                    if overlay.scale_max.is_none() {
                        overlay.scale_max = shared_max;
                    }
                    let colour_max = overlay.scale_max;
                    // Up*/down*'s root, which the presets talk about.
                    if let Some(root) =
                        network_view::updown_root(&sim.routing_name(), sim.network().spec())
                    {
                        overlay.marks.push((root, "root".into(), theme.highlight()));
                    }
                    let r = views::for_run(sim).draw(
                        col,
                        sim,
                        &mut ViewContext {
                            colouring: &colourings[i],
                            theme,
                            selected,
                            title: &title,
                            overlay: &overlay,
                        },
                    );
                    for p in &panels {
                        p.paint_over(&col.painter_at(r), sim, r, theme);
                    }
                    view_rect = Some(view_rect.map_or(r, |v| v.union(r)));
                    reports.push(ViewReport {
                        run: i,
                        rect: r,
                        colour_max,
                    });
                }
            });
        });
        (view_rect, reports)
    }

    /// Every run's colouring, before any is drawn, so that runs side by
    /// side share one colour range (the stage issue: each had its own, so
    /// equal colours meant different loads): the first panel's that gives
    /// one for the run, else the View menu's metric.
    fn run_colourings(&self, runs: &Runs<'_>, adds: &[Central]) -> Vec<network_view::Colouring> {
        runs.iter()
            .enumerate()
            .map(|(i, (_, sim))| {
                adds.iter()
                    .find_map(|a| a.runs.get(i).cloned().flatten())
                    .unwrap_or_else(|| network_view::Colouring::of(self.settings.metric, sim))
            })
            .collect()
    }
}

/// The views' and the curves' rectangles in `full`. Normal: the views
/// above, the curves below. Presenter mode gives the room to both side by
/// side: the views 62 % of the width at full height, the curves stacked
/// beside them (the stage issue: at 1920x1080 the network was 240 px wide
/// and the plots 50-70 px tall).
fn split(full: egui::Rect, presenter: bool) -> (egui::Rect, egui::Rect) {
    if presenter {
        let split = full.left() + (full.width() * 0.62).round();
        (
            egui::Rect::from_min_max(full.min, egui::pos2(split, full.max.y)),
            egui::Rect::from_min_max(egui::pos2(split + 8.0, full.min.y), full.max),
        )
    } else {
        let view_h = (full.height() * 0.58).max(160.0);
        (
            egui::Rect::from_min_size(full.min, egui::vec2(full.width(), view_h)),
            egui::Rect::from_min_max(egui::pos2(full.min.x, full.min.y + view_h + 4.0), full.max),
        )
    }
}

/// The top of the colour range the runs share when there are several and
/// they colour by one unit: the largest finite value on any run's network
/// channels (None: alone, units differ, or all zero).
fn shared_max(colourings: &[network_view::Colouring], runs: &Runs<'_>) -> Option<f64> {
    (colourings.len() > 1 && colourings.windows(2).all(|w| w[0].unit == w[1].unit))
        .then(|| {
            colourings
                .iter()
                .zip(runs)
                .flat_map(|(c, (_, sim))| {
                    c.values.iter().take(sim.network().num_network_channels())
                })
                .copied()
                .filter(|v| v.is_finite())
                .fold(0.0f64, f64::max)
        })
        .filter(|m| *m > 0.0)
}

/// The tabs above the views: the network, or DRB's latency surface.
fn view_tabs(ui: &mut egui::Ui, view: &mut CentralView) {
    ui.horizontal(|ui| {
        ui.selectable_value(view, CentralView::Network, "Network")
            .on_hover_text("The network, channels coloured by the View menu's metric");
        ui.selectable_value(
            view,
            CentralView::Surface,
            "Latency surface",
        )
        .on_hover_text(
            "DRB's Fig. 9: each node's mean link queueing delay as a 3-D surface over a 2-D torus (elsewhere a flat map, each node where the Network tab draws it), every run on one scale",
        );
    });
}

/// The live or sweep curves under (or beside) the views.
fn curves(
    ui: &mut egui::Ui,
    views: &mut Views,
    sweep: &SweepRunner,
    runs: &Runs<'_>,
    theme: Theme,
) {
    let has_sweep = !sweep.progress().points.is_empty() || sweep.is_running();
    if has_sweep {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut views.show_sweep_plot, false, "Live curves");
            ui.selectable_value(&mut views.show_sweep_plot, true, "Sweep curves");
        });
    }
    tour::overlay::mark(ui, "curves");
    views.plot_reports = if has_sweep && views.show_sweep_plot {
        plots::sweep_curves_ui(ui, &sweep.progress().points, theme)
    } else {
        let named: Vec<(&str, &Simulation)> = runs
            .iter()
            .zip(["A", "B"])
            .map(|((_, s), name)| (name, *s))
            .collect();
        plots::live_curves_ui(ui, &named, theme)
    };
}
