//! Drawing the path-selection panel: settings, the buttons that compute,
//! run, stop and apply a selection, its statistics, the live objective plot
//! of a GA or SA and the crossing-path histogram.

use super::*;
use crate::app::app_command::AppCommand;
use crate::app::network_view::Metric;
use crate::app::theme::Theme;
use crate::sim::Simulation;
use egui_plot::{Bar, BarChart, Line, PlotPoints};

impl PathSelection {
    /// The panel. Buttons push [`AppCommand`]s; "Compare with…" also sets
    /// the view's metric to crossing paths so both runs show theirs.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scenario: &Scenario,
        net: &Network,
        metric: &mut Metric,
        commands: &mut Vec<AppCommand>,
        theme: Theme,
    ) {
        ui.label(
            "Pick one path per switch pair among the shortest legal paths, see how they pile up on the channels, then run traffic over the tables.",
        );
        let running = self.is_running();
        let n = net.num_switches().max(1) as u32;
        ui.add_enabled_ui(!running, |ui| {
            egui::Grid::new("path_selection_grid")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("Legal paths");
                    egui::ComboBox::from_id_salt("ps_legal")
                        .selected_text(self.legal.as_str())
                        .show_ui(ui, |ui| {
                            for k in LegalKind::ALL {
                                ui.selectable_value(&mut self.legal, k, k.as_str());
                            }
                        })
                        .response
                        .on_hover_text("up*/down* on a BFS tree (Autonet), on a DFS tree (Sancho-Robles-Duato), or UDWM (up*/down* with down-to-up turns onto lower virtual channels)");
                    ui.end_row();
                    ui.label("Virtual channels");
                    ui.add(egui::DragValue::new(&mut self.vcs).range(1..=16))
                        .on_hover_text("Virtual channels of the path model; running traffic over the tables sets the scenario's to this");
                    ui.end_row();
                    ui.label("Root");
                    self.root = self.root.min(n - 1);
                    ui.add(egui::DragValue::new(&mut self.root).range(0..=n - 1))
                        .on_hover_text("Root switch of the spanning tree");
                    ui.end_row();
                    ui.label("Algorithm");
                    algorithm_combo(ui, "ps_algorithm", &mut self.algorithm);
                    ui.end_row();
                    ui.label("Objective");
                    ui.add_enabled_ui(self.algorithm.is_search(), |ui| {
                        egui::ComboBox::from_id_salt("ps_objective")
                            .selected_text(self.objective.as_str())
                            .show_ui(ui, |ui| {
                                for o in Objective::ALL {
                                    ui.selectable_value(&mut self.objective, o, o.as_str());
                                }
                            })
                            .response
                            .on_hover_text("What GA and SA minimise: standard deviation of crossing paths (the paper's choice), their maximum, or their sum of squares")
                            .on_disabled_hover_text("Only GA and SA have an objective");
                    });
                    ui.end_row();
                    ui.label("Seed");
                    ui.add_enabled(
                        self.algorithm.is_random(),
                        egui::DragValue::new(&mut self.seed),
                    )
                    .on_hover_text("Seed of random, GA and SA")
                    .on_disabled_hover_text("This algorithm is deterministic");
                    ui.end_row();
                    if self.algorithm.is_search() {
                        let (budget, what) = match self.algorithm {
                            Algorithm::Sa => (&mut self.sa_budget, "SA moves"),
                            _ => (&mut self.ga_budget, "GA generations"),
                        };
                        ui.label("Budget");
                        ui.add(egui::DragValue::new(budget).range(1..=100_000_000))
                            .on_hover_text(format!(
                                "{what}; running traffic over the tables repeats the search at once, so keep it modest"
                            ));
                        ui.end_row();
                    }
                });
        });
        ui.horizontal(|ui| {
            if running {
                if ui
                    .button("Stop search")
                    .on_hover_text("Stop and keep the best solution so far")
                    .clicked()
                {
                    self.stop();
                }
            } else if ui
                .button("Compute")
                .on_hover_text("Build the path set of the current network and select; GA and SA run live")
                .clicked()
            {
                self.compute(net);
            }
            if ui
                .button("From scenario")
                .on_hover_text("Take the settings from the scenario's routing (when it is paths:...) and its virtual channels")
                .clicked()
            {
                self.sync_from(scenario);
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(theme.error(), e);
        }
        let Some(r) = &self.result else {
            return;
        };
        ui.separator();
        ui.label(egui::RichText::new(r.routing()).monospace().strong());
        if r.topology != net.spec() {
            ui.colored_label(
                theme.error(),
                format!(
                    "Computed on {}; the network is now {}: compute again",
                    r.topology,
                    net.spec()
                ),
            );
        }
        ui.label(format!(
            "{} pairs · {} paths kept of {} shortest legal{} · {:.0} ms",
            r.pairs,
            r.paths_kept,
            r.paths_total,
            if r.capped_pairs > 0 {
                format!(" ({} pairs capped at {DEFAULT_CAP})", r.capped_pairs)
            } else {
                String::new()
            },
            r.elapsed_ms
        ));
        let st = r.stats;
        ui.monospace(format!(
            "crossing.sd {:.3}  crossing.max {}\ncrossing.mean {:.3}  crossing.min {}",
            st.sd, st.max, st.mean, st.min
        ))
        .on_hover_text(format!(
            "Chosen paths crossing each of the {} switch-to-switch channels: standard deviation, maximum, mean and minimum (Koibuchi et al. Tables 2-4)",
            st.channels
        ));
        if r.budget > 0 {
            let frac = r.iterations as f32 / r.budget as f32;
            ui.add(egui::ProgressBar::new(frac).text(format!(
                "{} of {} iterations · best {} {:.3}",
                r.iterations,
                r.budget,
                r.spec.objective,
                st.value(r.spec.objective)
            )));
        }
        ui.separator();
        let can_apply = !running && r.topology == net.spec();
        let applied = Scenario {
            routing: r.routing(),
            vcs: r.vcs,
            ..scenario.clone()
        };
        if ui
            .add_enabled(can_apply, egui::Button::new("Run traffic over these tables"))
            .on_hover_text("Make these tables the scenario's routing (the simulation restarts at cycle 0); then play, or run the load sweep")
            .on_disabled_hover_text("Compute on the current network first (and let a search finish)")
            .clicked()
        {
            commands.push(AppCommand::Apply(Box::new(applied.clone())));
        }
        let compare_spec = self.spec_for(self.compare_algorithm).to_string();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(can_apply, egui::Button::new("Compare with…"))
                .on_hover_text("Run these tables as A and the other algorithm's (same legal paths, root, objective and seed) as B, side by side, coloured by crossing paths")
                .on_disabled_hover_text("Compute on the current network first (and let a search finish)")
                .clicked()
            {
                commands.push(AppCommand::SetCompare(None));
                commands.push(AppCommand::Apply(Box::new(applied)));
                commands.push(AppCommand::SetCompare(Some(compare_spec)));
                *metric = Metric::CrossingPaths;
            }
            algorithm_combo(ui, "ps_compare_algorithm", &mut self.compare_algorithm);
        });
        ui.checkbox(&mut self.show_heatmap, "Heatmap on the network view")
            .on_hover_text(
                "Colour run A's channels by these crossing paths while this panel is open",
            );
        ui.separator();
        if r.budget > 0 {
            objective_plot(ui, r, theme);
        }
        // Run A's selection, and run B's crossing paths beside it when
        // comparing, on one set of bins.
        let mut runs = vec![(format!("A: {}", r.routing()), r.crossing.clone())];
        runs.extend(
            self.compare_crossing
                .clone()
                .map(|(name, c)| (format!("B: {name}"), c)),
        );
        histogram(ui, &runs, theme);
    }
}

fn algorithm_combo(ui: &mut egui::Ui, id: &str, alg: &mut Algorithm) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(alg.as_str())
        .show_ui(ui, |ui| {
            for a in Algorithm::ALL {
                ui.selectable_value(alg, a, a.as_str());
            }
        })
        .response
        .on_hover_text("random; low port first; MaxCp (Sancho's traffic balancing); high physical / low virtual / low physical channel first (Koibuchi et al.); steady-state GA or simulated annealing (Villalobos et al.)");
}

fn objective_plot(ui: &mut egui::Ui, r: &Computed, theme: Theme) {
    ui.label(
        egui::RichText::new(format!("Objective ({}) per iteration", r.spec.objective))
            .small()
            .strong(),
    );
    let best: PlotPoints = r.history.iter().map(|h| [h[0], h[1]]).collect();
    let current: PlotPoints = r.history.iter().map(|h| [h[0], h[2]]).collect();
    let current_name = if r.spec.select == Algorithm::Sa {
        "current"
    } else {
        "population median"
    };
    crate::app::plots::legend_row(
        ui,
        &[
            (current_name.to_string(), theme.series(1), false),
            ("best".to_string(), theme.series(0), false),
        ],
    );
    crate::app::plot_axes::plot(
        "path_objective",
        "iteration",
        r.spec.objective.as_str(),
        140.0,
    )
    .show(ui, |plot| {
        plot.line(
            Line::new(current_name, current)
                .color(theme.series(1))
                .width(1.0),
        );
        plot.line(Line::new("best", best).color(theme.series(0)).width(1.5));
    });
}

/// Channels per crossing-path count (binned to at most 40 bars), one
/// series of bars per run, side by side in each bin, on one scale.
fn histogram(ui: &mut egui::Ui, runs: &[(String, Vec<u32>)], theme: Theme) {
    ui.label(
        egui::RichText::new("Channels by crossing paths")
            .small()
            .strong(),
    );
    let max = runs
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .max()
        .unwrap_or(0) as u64;
    let width = (max + 1).div_ceil(40).max(1);
    let n_runs = runs.len().max(1) as f64;
    let bar_w = width as f64 * 0.9 / n_runs;
    if runs.len() > 1 {
        let entries: Vec<(String, egui::Color32, bool)> = runs
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.clone(), theme.series(i), false))
            .collect();
        crate::app::plots::legend_row(ui, &entries);
    }
    crate::app::plot_axes::plot("crossing_histogram", "crossing paths", "channels", 140.0)
        .include_y(0.0)
        .show(ui, |plot| {
            for (k, (name, crossing)) in runs.iter().enumerate() {
                let mut bins = vec![0u32; ((max + 1).div_ceil(width)) as usize];
                for &c in crossing {
                    bins[(c as u64 / width) as usize] += 1;
                }
                let bars: Vec<Bar> = bins
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| {
                        let lo = i as u64 * width;
                        let label = if width == 1 {
                            format!("{name}: {lo} paths")
                        } else {
                            format!("{name}: {lo}-{} paths", lo + width - 1)
                        };
                        let left = lo as f64 - 0.45 * width as f64;
                        Bar::new(left + bar_w * (k as f64 + 0.5), n as f64)
                            .width(bar_w)
                            .name(label)
                    })
                    .collect();
                plot.bar_chart(BarChart::new(name.as_str(), bars).color(theme.series(k)));
            }
        });
}

impl crate::app::panel::Panel for PathSelection {
    /// Run A coloured by its crossing paths, while not comparing (both
    /// runs then show their own metric on one scale).
    fn central(&self, runs: &[&Simulation], _theme: Theme) -> Option<crate::app::panel::Central> {
        let [sim] = runs else {
            return None;
        };
        let (label, values) = self.heatmap(sim.network())?;
        Some(crate::app::panel::Central {
            runs: vec![Some(crate::app::network_view::Colouring {
                label,
                unit: "paths".into(),
                values,
            })],
            ..Default::default()
        })
    }
    fn id(&self) -> &'static str {
        "path_selection"
    }
    fn title(&self) -> &'static str {
        "Static path selection"
    }
    fn hover(&self) -> &'static str {
        "Show or hide the static path-selection panel: legal paths, MaxCp, GA, SA and their crossing paths"
    }
    fn hide_hint(&self) -> &'static str {
        "Hide the path-selection panel"
    }
    fn toolbar_label(&self) -> Option<&'static str> {
        Some("Path selection")
    }
    fn is_open(&self) -> bool {
        self.open
    }
    fn set_open(&mut self, open: bool, _session: &crate::app::session::Session) {
        self.open = open;
    }
    fn reveal(&mut self, session: &crate::app::session::Session) {
        self.open = true;
        self.sync_from(&session.scenario);
        self.compute(session.sim.network());
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut crate::app::panel::PanelContext<'_>) {
        let net = cx.session.sim.network();
        // Opened: show the chosen algorithm's result at once.
        if self.result.is_none() && self.error.is_none() && !self.is_running() {
            self.compute(net);
        }
        // Comparing, run B's crossing paths beside run A's.
        self.compare_crossing = cx.session.compare.as_ref().and_then(|b| {
            let (_, v) = b.routing_channel_values()?;
            Some((
                b.routing_name(),
                v.iter()
                    .take(net.num_network_channels())
                    .map(|x| *x as u32)
                    .collect(),
            ))
        });
        PathSelection::ui(
            self,
            ui,
            &cx.session.scenario,
            net,
            cx.metric,
            cx.commands,
            cx.theme,
        );
    }
    fn tick(&mut self, _session: &crate::app::session::Session) -> bool {
        self.tick(super::FRAME_BUDGET_MS) || self.is_running()
    }
}
