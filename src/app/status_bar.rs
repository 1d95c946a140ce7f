//! The status bar along the bottom: the cycle, the simulation's rate or
//! what it is doing instead (paused, warming up), packets in flight and
//! queued, what was measured since the warm-up (run B's beside it), a
//! failure, and the routing, cut short where the bar ends.

use super::*;

impl RoutelabApp {
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
                    .on_hover_text("Measured since the warm-up ended: mean latency, accepted / offered flits per host per cycle, and the network's capacity under uniform traffic (the bisection limit) with the accepted throughput as a share of it. The latency counts the packets generated since the warm-up and delivered so far: in the first few hundred cycles after it only the fast ones have arrived, so it starts below the latency plot (which counts every packet delivered in its window) and rises to it");
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
                if self.windows.file_dialogs.is_open() {
                    ui.separator();
                    ui.monospace("file dialog open");
                    if ui
                        .small_button("Stop waiting")
                        .on_hover_text(
                            "Forget the system file dialog (if it never appeared or was left behind): the file buttons work again and its answer, if one comes, is ignored",
                        )
                        .clicked()
                    {
                        self.windows.file_dialogs.forget();
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
