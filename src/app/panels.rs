//! The side, bottom and central panels: the scenario, comparison, sweep
//! and path-selection panels, the status bar, the details of the selected
//! switch or channel, and the network views with their curves.

use super::side_panel::{self, Edge, Heading, Width};
use super::swap_order;
use super::*;

impl RoutelabApp {
    pub(super) fn path_selection_ui(&mut self, ui: &mut egui::Ui) {
        let hide = side_panel::show(
            ui,
            Edge::Right,
            "path_selection",
            (340.0, Width::Capped),
            Some(Heading {
                title: "Static path selection",
                hide_hint: "Hide the path-selection panel",
            }),
            |ui| {
                let net = self.session.sim.network();
                let compare = self.session.compare.as_ref().and_then(|b| {
                    let (_, v) = b.routing_channel_values()?;
                    Some((
                        b.routing_name(),
                        v.iter()
                            .take(net.num_network_channels())
                            .map(|x| *x as u32)
                            .collect(),
                    ))
                });
                self.path_selection.compare_crossing = compare;
                self.path_selection.ui(
                    ui,
                    &self.session.scenario,
                    self.session.sim.network(),
                    &mut self.settings.metric,
                    &mut self.commands,
                    self.settings.theme,
                );
            },
        );
        if hide {
            self.path_selection.open = false;
        }
    }

    pub(super) fn drb_ui(&mut self, ui: &mut egui::Ui) {
        let hide = side_panel::show(
            ui,
            Edge::Right,
            "drb",
            (360.0, Width::Capped),
            Some(Heading {
                title: "DRB metapaths",
                hide_hint: "Hide the DRB panel (View menu brings it back)",
            }),
            |ui| {
                let mut runs = vec![(
                    format!("A: {}", self.session.sim.routing_name()),
                    &self.session.sim,
                )];
                if let Some(b) = &self.session.compare {
                    runs.push((format!("B: {}", b.routing_name()), b));
                }
                drb_panel::drb_panel_ui(ui, &mut self.drb, &runs, self.settings.theme);
            },
        );
        if hide {
            self.drb.hidden = true;
        }
    }

    pub(super) fn status_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            tour::overlay::mark(ui, "status");
            ui.horizontal_wrapped(|ui| {
                let s = &self.session;
                let one = s.sim.switch_model_kind().unit().one;
                ui.monospace(format!("{one} {}", s.now()));
                ui.separator();
                let words = |t: &str| super::fat_tree_view::model_words(&s.sim, t);
                // Paused, the rate would read 0 (true, but it looks like a
                // stall): say what the simulation is doing instead.
                if self.playback.playing {
                    ui.monospace(words(&format!("{:.0} cycles/s", s.cycles_per_second())))
                        .on_hover_text(words("Simulated cycles per wall-clock second"));
                } else {
                    ui.monospace("paused").on_hover_text(words(
                        "Not running: Play (Space) runs it, Step runs one cycle at a time",
                    ));
                }
                ui.separator();
                ui.monospace(words(&format!("{} packets in flight", s.sim.in_flight_packets())))
                    .on_hover_text(words("Packets inside the network (not counting source queues)"));
                ui.separator();
                ui.monospace(format!("{} queued", s.sim.queued_packets()))
                    .on_hover_text(words("Packets waiting in source queues"));
                ui.separator();
                let sum = s.sim.summary();
                if let Some(rate) = sum.success_rate {
                    let rate = if rate.is_finite() {
                        format!("{:.2}%", 100.0 * rate)
                    } else {
                        "not known yet".to_string()
                    };
                    ui.monospace(format!(
                        "Success {rate} · Latency {:.2} (max {}) slices · {} refused",
                        sum.avg_latency,
                        sum.max_latency,
                        sum.refused_transmissions.unwrap_or(0)
                    ))
                    .on_hover_text("Time-slice model, since the warm-up: requests taken within R slices and delivered within D, over those begun (known D slices after they begin); latency from begin time, not counting the server-to-access edge; offers between switches refused");
                } else if s.now() < s.scenario.warmup {
                    // Zeros during the warm-up would read as "nothing gets
                    // through"; say what is happening instead.
                    ui.monospace(format!(
                        "Warming up{}: cycle {} of {} · latency and throughput are measured after it",
                        if self.playback.playing { " at full speed" } else { "" },
                        s.now(),
                        s.scenario.warmup
                    ))
                    .on_hover_text("The scenario's warm-up: the network fills to its steady state before statistics start (the curves below are drawn throughout)");
                } else {
                    let cap = s.sim.capacity();
                    ui.monospace(format!(
                        "Latency {:.1} cycles · Accepted {:.3} of {:.3} · capacity {:.3} ({:.0}%)",
                        sum.avg_latency,
                        sum.accepted,
                        sum.offered,
                        cap,
                        100.0 * sum.accepted / cap.max(f64::MIN_POSITIVE)
                    ))
                    .on_hover_text("Measured since the warm-up ended: mean latency, accepted / offered flits per host per cycle, and the network's capacity under uniform traffic (the bisection limit) with the accepted throughput as a share of it");
                }
                if let Some(b) = &s.compare {
                    let sb = b.summary();
                    // B in A's terms: success and slices on the time-slice
                    // model, accepted flits and cycles elsewhere.
                    let text = match sb.success_rate {
                        Some(rate) if rate.is_finite() => format!(
                            "B: success {:.2}% · latency {:.2} slices",
                            100.0 * rate,
                            sb.avg_latency
                        ),
                        Some(_) => format!(
                            "B: success not known yet · latency {:.2} slices",
                            sb.avg_latency
                        ),
                        None => format!(
                            "B: latency {:.1} cycles · accepted {:.3}",
                            sb.avg_latency, sb.accepted
                        ),
                    };
                    let hover = format!("Run B ({}), measured the same way", b.routing_name());
                    fit_rest(ui, &text, &hover);
                }
                if self.playback.playing {
                    ui.separator();
                    ui.monospace("playing");
                }
                if let Some(f) = s.failure() {
                    ui.separator();
                    ui.colored_label(self.settings.theme.error(), words(&format!("Stopped: {f}")));
                }
                #[cfg(not(target_arch = "wasm32"))]
                if self.file_dialogs.is_open() {
                    ui.separator();
                    ui.monospace("file dialog open");
                    if ui
                        .small_button("Stop waiting")
                        .on_hover_text(
                            "Forget the system file dialog (if it never appeared or was left behind): the file buttons work again and its answer, if one comes, is ignored",
                        )
                        .clicked()
                    {
                        self.file_dialogs.forget();
                    }
                }
                // Last on the bar and often long (`drb:tau=...`): cut short
                // where the bar ends (the whole name is on hover, in the
                // Balancer box and over the view).
                let routing = format!("Routing {}", s.sim.routing_name());
                fit_rest(ui, &routing, &routing);
            });
        });
    }

    pub(super) fn left_ui(&mut self, ui: &mut egui::Ui) {
        side_panel::show(
            ui,
            Edge::Left,
            "controls",
            (330.0, Width::Capped),
            None,
            |ui| {
                self.details_ui(ui);
                // The scenario's name goes inside, wrapped: a long
                // name in the header would not wrap and would push the
                // panel's content past its right edge.
                egui::CollapsingHeader::new(egui::RichText::new("Scenario").strong())
                    .id_salt("scenario_section")
                    .default_open(true)
                    .show(ui, |ui| {
                        // The Routing field is what Apply and Reset
                        // build; say what run A runs after a live swap.
                        let swaps = self.session.sim.swaps();
                        if swaps.len() > 1 {
                            let (at, now) = &swaps[swaps.len() - 1];
                            ui.label(
                                egui::RichText::new(format!(
                                    "Run A runs {now} now (swapped live at cycle {at}); \
                                 the Routing field below is what Apply and Reset build"
                                ))
                                .color(self.settings.theme.info()),
                            );
                        }
                        scenario_panel::scenario_ui(
                            ui,
                            &mut self.draft,
                            &self.session.scenario,
                            &mut self.commands,
                            self.settings.theme.error(),
                        );
                    });
                ui.separator();
                egui::CollapsingHeader::new(egui::RichText::new("Compare balancers").strong())
                    .default_open(true)
                    .show(ui, |ui| self.compare_ui(ui));
                ui.separator();
                egui::CollapsingHeader::new(egui::RichText::new("Load sweep").strong())
                    .default_open(false)
                    .show(ui, |ui| self.sweep_ui(ui));
            },
        );
    }

    pub(super) fn compare_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("Run a second balancer on the same network, traffic and seed, in step.");
        let choices = scenario_panel::routing_choices(
            &self.session.scenario.topology,
            self.session.scenario.switch_model,
        );
        scenario_panel::spec_field(
            ui,
            "compare_pick",
            &mut self.compare_pick,
            &choices,
            "Routing of run B",
        );
        ui.horizontal(|ui| {
            let comparing = self.session.compare.is_some();
            if ui
                .button(if comparing {
                    "Restart comparison"
                } else {
                    "Compare"
                })
                .on_hover_text(
                    "Restart both runs at cycle 0: A with the scenario's routing, B with this one",
                )
                .clicked()
            {
                self.push(AppCommand::SetCompare(Some(self.compare_pick.clone())));
            }
            if comparing
                && ui
                    .button("Stop comparing")
                    .on_hover_text("Keep only run A")
                    .clicked()
            {
                self.push(AppCommand::SetCompare(None));
            }
        });
        if let Some(b) = &self.session.compare {
            let next = swap_order::next_after(&self.swap_order(), &b.routing_name());
            if let Some(spec) = next
                && ui
                    .button(format!("Swap B to {spec}"))
                    .on_hover_text("Swap run B live to the next routing in B's order; its curves mark the moment")
                    .clicked()
            {
                self.push(AppCommand::SwapRouting {
                    spec,
                    on_compare: true,
                });
            }
        }
    }

    pub(super) fn sweep_ui(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.settings.sweep;
        ui.label("Latency and throughput against offered load, for run A (and B when comparing).");
        ui.horizontal(|ui| {
            ui.label("Loads");
            ui.add(
                egui::DragValue::new(&mut st.load_from)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("First offered load");
            ui.label("to");
            ui.add(
                egui::DragValue::new(&mut st.load_to)
                    .range(0.0..=1.0)
                    .speed(0.01),
            )
            .on_hover_text("Last offered load");
            ui.label("step");
            ui.add(
                egui::DragValue::new(&mut st.load_step)
                    .range(0.005..=1.0)
                    .speed(0.005),
            )
            .on_hover_text("Load increment");
        });
        ui.horizontal(|ui| {
            ui.label("Cycles per point");
            ui.add(egui::DragValue::new(&mut st.cycles).range(100..=10_000_000))
                .on_hover_text("Measured cycles per load, after the scenario's warm-up");
        });
        ui.checkbox(&mut st.stop_at_saturation, "Stop at saturation")
            .on_hover_text("Stop a routing's loads at its first saturated point (accepted below 95% of generated), as `routelab sweep` does; off: every load, as `routelab sweep --no-stop`");
        let running = self.sweep.is_running();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Run sweep"))
                .on_hover_text("Runs in the background; the app stays usable")
                .clicked()
            {
                self.commands.push(AppCommand::StartSweep);
            }
            if running && ui.button("Cancel sweep").clicked() {
                self.commands.push(AppCommand::CancelSweep);
            }
        });
        let p = self.sweep.progress();
        if p.total > 0 {
            let frac = p.points.len() as f32 / p.total as f32;
            ui.add(egui::ProgressBar::new(frac).text(format!(
                "{} of {} points",
                p.points.len(),
                p.total
            )));
        }
        if let Some(e) = p.error {
            ui.colored_label(self.settings.theme.error(), e);
        }
    }

    /// The selected switch's or channel's details, at the top of the
    /// left panel: the panel's width does not change, so selecting never
    /// moves the network under the pointer (the stage issue: a right-hand
    /// panel that opened on the first click shifted the view, and the
    /// second click landed on another switch).
    pub(super) fn details_ui(&mut self, ui: &mut egui::Ui) {
        let Some(sel) = self.selected else { return };
        let r = ui.scope(|ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new("Selection").strong());
                if ui
                    .small_button("Close")
                    .on_hover_text("Clear the selection")
                    .clicked()
                {
                    self.selected = None;
                }
            });
            // Wide details (a row of VC buffers) scroll sideways rather
            // than widen the panel.
            egui::ScrollArea::horizontal()
                .id_salt("details_scroll")
                .show(ui, |ui| {
                    for (label, sim) in self.runs() {
                        if self.session.compare.is_some() {
                            ui.label(egui::RichText::new(label).strong());
                        }
                        network_view::details_ui(ui, sim, sel, self.settings.theme);
                    }
                });
        });
        tour::overlay::mark_rect(ui.ctx(), "details", r.response.rect);
        ui.separator();
    }

    pub(super) fn runs(&self) -> Vec<(String, &crate::sim::Simulation)> {
        let mut v = vec![(
            format!("A: {}", self.session.sim.routing_name()),
            &self.session.sim,
        )];
        if let Some(b) = &self.session.compare {
            v.push((format!("B: {}", b.routing_name()), b));
        }
        v
    }

    pub(super) fn central_ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            // Normal: the views above, the curves below. Presenter mode
            // gives the room to both side by side: the views 62 % of the
            // width at full height, the curves stacked beside them (the
            // stage issue: at 1920x1080 the network was 240 px wide and
            // the plots 50-70 px tall).
            let full = ui.available_rect_before_wrap();
            let (views_rect, curves_rect) = if self.presenter.on {
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
            let mut selected = self.selected;
            let runs: Vec<(String, &crate::sim::Simulation)> = {
                let mut v = vec![(
                    format!("A: {}", self.session.sim.routing_name()),
                    &self.session.sim,
                )];
                if let Some(b) = &self.session.compare {
                    v.push((format!("B: {}", b.routing_name()), b));
                }
                v
            };
            let mut view_rect = None;
            let mut view_reports = Vec::new();
            // Comparing, both runs show their own crossing paths (the
            // metric) on one scale; the panel's heatmap is run A's alone.
            let heatmap = if self.session.compare.is_some() {
                None
            } else {
                self.path_selection.heatmap(self.session.sim.network())
            };
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.central_view, CentralView::Network, "Network")
                    .on_hover_text("The network, channels coloured by the View menu's metric");
                ui.selectable_value(
                    &mut self.central_view,
                    CentralView::Surface,
                    "Latency surface",
                )
                .on_hover_text(
                    "DRB's Fig. 9: each node's mean link queueing delay as a 3-D surface over a 2-D torus (elsewhere a flat map, each node where the Network tab draws it), every run on one scale",
                );
            });
            let view_h = (view_h - 24.0).max(140.0);
            if self.central_view == CentralView::Surface {
                let grids = latency_surface::grids(&runs);
                // The view is the drawing with its legend above it: a tour
                // step's frame around the drawing alone crossed the
                // legend's second line, and an exported picture lost its
                // scale.
                // (A gap under the tabs, for that frame.)
                ui.add_space(6.0);
                let r = ui.allocate_ui(egui::vec2(ui.available_width(), view_h - 6.0), |ui| {
                    latency_surface::surface_ui(ui, &mut self.surface, &grids, theme)
                });
                view_rect = Some(r.response.rect.union(r.inner.rect));
            } else {
            let drb_pair = self.drb.pair();
            let sims: Vec<&crate::sim::Simulation> = runs.iter().map(|r| r.1).collect();
            // The oblivious panel's expected load, left of the runs.
            let analysis = self.oblivious.central_views(&sims, theme);
            ui.allocate_ui(egui::vec2(ui.available_width(), view_h), |ui| {
                ui.columns(runs.len() + usize::from(analysis.is_some()), |cols| {
                    let mut cols = cols.iter_mut();
                    // (The analysis takes a column only when there is one.)
                    if let Some(v) = &analysis
                        && let Some(col) = cols.next()
                    {
                        let r = network_view::network_ui_overlaid(
                            col,
                            &self.session.sim,
                            &v.expected,
                            theme,
                            &mut selected,
                            &v.title,
                            &v.expected_overlay,
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
                        let r = network_view::network_ui_overlaid(
                            col,
                            sim,
                            &colouring,
                            theme,
                            &mut selected,
                            &title,
                            &overlay,
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
            let has_sweep = !self.sweep.progress().points.is_empty() || self.sweep.is_running();
            if has_sweep {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.show_sweep_plot, false, "Live curves");
                    ui.selectable_value(&mut self.show_sweep_plot, true, "Sweep curves");
                });
            }
            tour::overlay::mark(ui, "curves");
            self.plot_reports = if has_sweep && self.show_sweep_plot {
                plots::sweep_curves_ui(ui, &self.sweep.progress().points, theme)
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
            self.view_rect = view_rect;
            self.view_reports = view_reports;
            self.selected = selected;
        });
    }
}

/// A status-bar item after a separator, on what is left of the bar's line:
/// cut short with an ellipsis where the line ends (the whole text on hover)
/// instead of wrapped onto a second status line, and left out, separator
/// and all, when not even a few letters fit.
fn fit_rest(ui: &mut egui::Ui, text: &str, hover: &str) {
    let sep = ui.spacing().item_spacing.x * 2.0 + 1.0;
    let room = ui.available_size_before_wrap().x - sep;
    if room < 90.0 {
        return;
    }
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let want = ui
        .painter()
        .layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE)
        .size()
        .x;
    ui.separator();
    ui.allocate_ui_with_layout(
        egui::vec2(want.min(room) + 1.0, ui.spacing().interact_size.y),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.add(egui::Label::new(egui::RichText::new(text).monospace()).truncate())
                .on_hover_text(hover);
        },
    );
}
