//! The central panel: the network views (or the latency surface) above the
//! live or sweep curves, side by side in presenter mode, runs side by side
//! on one colour range.

use super::view::ViewContext;
use super::*;

impl RoutelabApp {
    pub(super) fn central_ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            // Normal: the views above, the curves below. Presenter mode
            // gives the room to both side by side: the views 62 % of the
            // width at full height, the curves stacked beside them (the
            // stage issue: at 1920x1080 the network was 240 px wide and
            // the plots 50-70 px tall).
            let full = ui.available_rect_before_wrap();
            let (views_rect, curves_rect) = if self.guides.presenter.on {
                let split = full.left() + (full.width() * 0.62).round();
                (
                    egui::Rect::from_min_max(full.min, egui::pos2(split, full.max.y)),
                    egui::Rect::from_min_max(egui::pos2(split + 8.0, full.min.y), full.max),
                )
            } else {
                let view_h = (full.height() * 0.58).max(160.0);
                (
                    egui::Rect::from_min_size(full.min, egui::vec2(full.width(), view_h)),
                    egui::Rect::from_min_max(
                        egui::pos2(full.min.x, full.min.y + view_h + 4.0),
                        full.max,
                    ),
                )
            };
            ui.allocate_rect(full, egui::Sense::hover());
            let mut views_ui = ui.new_child(egui::UiBuilder::new().max_rect(views_rect));
            let mut curves_ui = ui.new_child(egui::UiBuilder::new().max_rect(curves_rect));
            let ui = &mut views_ui;
            let view_h = views_rect.height();
            let theme = self.settings.theme;
            let metric = self.settings.metric;
            let mut selected = self.views.selected;
            let runs = self.session.labelled_runs();
            let mut view_rect = None;
            let mut view_reports = Vec::new();
            // Comparing, both runs show their own crossing paths (the
            // metric) on one scale; the panel's heatmap is run A's alone.
            let heatmap = if self.session.compare.is_some() {
                None
            } else {
                self.panels.path_selection.heatmap(self.session.sim.network())
            };
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.views.central_view, CentralView::Network, "Network")
                    .on_hover_text("The network, channels coloured by the View menu's metric");
                ui.selectable_value(
                    &mut self.views.central_view,
                    CentralView::Surface,
                    "Latency surface",
                )
                .on_hover_text(
                    "DRB's Fig. 9: each node's mean link queueing delay as a 3-D surface over a 2-D torus (elsewhere a flat map, each node where the Network tab draws it), every run on one scale",
                );
            });
            let view_h = (view_h - 24.0).max(140.0);
            if self.views.central_view == CentralView::Surface {
                let grids = latency_surface::grids(&runs);
                // The view is the drawing with its legend above it: a tour
                // step's frame around the drawing alone crossed the
                // legend's second line, and an exported picture lost its
                // scale.
                // (A gap under the tabs, for that frame.)
                ui.add_space(6.0);
                let r = ui.allocate_ui(egui::vec2(ui.available_width(), view_h - 6.0), |ui| {
                    latency_surface::surface_ui(ui, &mut self.views.surface, &grids, theme)
                });
                view_rect = Some(r.response.rect.union(r.inner.rect));
            } else {
            let drb_pair = self.panels.drb.pair();
            let sims: Vec<&crate::sim::Simulation> = runs.iter().map(|r| r.1).collect();
            // The oblivious panel's expected load, left of the runs.
            let analysis = self.panels.oblivious.central_views(&sims, theme);
            ui.allocate_ui(egui::vec2(ui.available_width(), view_h), |ui| {
                ui.columns(runs.len() + usize::from(analysis.is_some()), |cols| {
                    let mut cols = cols.iter_mut();
                    // (The analysis takes a column only when there is one.)
                    if let Some(v) = &analysis
                        && let Some(col) = cols.next()
                    {
                        let r = views::for_run(&self.session.sim).draw(
                            col,
                            &self.session.sim,
                            &mut ViewContext {
                                colouring: &v.expected,
                                theme,
                                selected: &mut selected,
                                title: &v.title,
                                overlay: &v.expected_overlay,
                            },
                        );
                        view_rect = Some(r);
                    }
                    // Every run's colouring first, so that runs side by
                    // side share one colour range (the stage issue: each
                    // had its own, so equal colours meant different loads).
                    let colourings: Vec<network_view::Colouring> = runs
                        .iter()
                        .enumerate()
                        .map(|(i, (_, sim))| {
                            let shared =
                                analysis.as_ref().and_then(|v| v.runs.as_ref()?.get(i));
                            match (&heatmap, i, shared) {
                                (_, _, Some(c)) => c.clone(),
                                (Some((what, values)), 0, _) => network_view::Colouring {
                                    label: what.clone(),
                                    unit: "paths".into(),
                                    values: values.clone(),
                                },
                                _ => network_view::Colouring::of(metric, sim),
                            }
                        })
                        .collect();
                    let shared_max = (colourings.len() > 1
                        && colourings.windows(2).all(|w| w[0].unit == w[1].unit))
                    .then(|| {
                        colourings
                            .iter()
                            .zip(&runs)
                            .flat_map(|(c, (_, sim))| {
                                c.values.iter().take(sim.network().num_network_channels())
                            })
                            .copied()
                            .filter(|v| v.is_finite())
                            .fold(0.0f64, f64::max)
                    })
                    .filter(|m| *m > 0.0);
                    for (i, (col, (label, sim))) in cols.zip(&runs).enumerate() {
                        let title = format!("{} · {}", sim.network().spec(), label);
                        let colouring = colourings[i].clone();
                        let mut overlay = analysis
                            .as_ref()
                            .map(|v| v.runs_overlay.clone())
                            .unwrap_or_default();
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
                                colouring: &colouring,
                                theme,
                                selected: &mut selected,
                                title: &title,
                                overlay: &overlay,
                            },
                        );
                        if let (Some(pair), Some(d)) = (drb_pair, drb_panel::drb_of(sim)) {
                            drb_panel::overlay(
                                &col.painter_at(r),
                                sim.network(),
                                r,
                                d,
                                pair,
                                theme,
                            );
                        }
                        view_rect = Some(view_rect.map_or(r, |v: egui::Rect| v.union(r)));
                        view_reports.push(ViewReport {
                            run: i,
                            rect: r,
                            colour_max,
                        });
                    }
                });
            });
            }
            let ui = &mut curves_ui;
            let has_sweep = !self.background.sweep.progress().points.is_empty() || self.background.sweep.is_running();
            if has_sweep {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.views.show_sweep_plot, false, "Live curves");
                    ui.selectable_value(&mut self.views.show_sweep_plot, true, "Sweep curves");
                });
            }
            tour::overlay::mark(ui, "curves");
            self.views.plot_reports = if has_sweep && self.views.show_sweep_plot {
                plots::sweep_curves_ui(ui, &self.background.sweep.progress().points, theme)
            } else {
                let named: Vec<(&str, &crate::sim::Simulation)> = runs
                    .iter()
                    .zip(["A", "B"])
                    .map(|((_, s), name)| (name, *s))
                    .collect();
                plots::live_curves_ui(ui, &named, theme)
            };
            if let Some(r) = view_rect {
                tour::overlay::mark_rect(ui.ctx(), "network", r);
            }
            self.exports.view_rect = view_rect;
            self.views.view_reports = view_reports;
            self.views.selected = selected;
        });
    }
}
