//! The details panel of the network view: the selected switch's buffers
//! per VC, or the selected channel's values.

use super::{Metric, Selected};
use crate::app::theme::Theme;
use crate::sim::Simulation;
use crate::topology::Network;
use egui::{Align2, FontId, Sense, vec2};

/// Details of the selection: buffers per VC for a switch, the three values
/// for a channel; `extra` adds a view's own lines under the heading (an
/// imported fabric's names and cables).
pub fn details_ui(
    ui: &mut egui::Ui,
    sim: &Simulation,
    selected: Selected,
    theme: Theme,
    extra: &dyn Fn(&mut egui::Ui, &Network, Selected),
) {
    let net = sim.network();
    let buffer = sim.router().buffer_flits.max(1) as f32;
    match selected {
        Selected::Switch(s) if (s as usize) < net.num_switches() => {
            ui.heading(format!("Switch {s}"));
            extra(ui, net, selected);
            let to = sim
                .latency_by_destination_switch()
                .get(s as usize)
                .copied()
                .unwrap_or(0.0);
            let from = sim
                .latency_by_source_switch()
                .get(s as usize)
                .copied()
                .unwrap_or(0.0);
            ui.label(format!("Mean latency to it: {to:.1} cycles"));
            ui.label(format!("Mean latency from it: {from:.1} cycles"));
            let wait = sim
                .switch_queueing_delay()
                .get(s as usize)
                .copied()
                .unwrap_or(0.0);
            ui.label(format!("Mean head wait in it: {wait:.2} cycles"));
            let held = sim.switch_occupancy().get(s as usize).copied().unwrap_or(0);
            let room = sim.switch_capacity().get(s as usize).copied().unwrap_or(0);
            ui.label(format!("Buffered now: {held} of {room} flits"));
            if let Some(w) = sim.stats().windows().last() {
                ui.label(format!(
                    "Network, last window: {:.1} cycles, {:.3} flits/host/cycle",
                    w.avg_latency, w.accepted
                ));
            }
            let ports = sim.port_occupancy(s).unwrap_or_default();
            if !ports.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new("Input buffers per virtual channel").strong());
            }
            for port in ports {
                ui.horizontal(|ui| {
                    ui.monospace(net.channel_name(port.channel));
                });
                // Wrapped: 12 VCs in a row would widen the panel past the
                // network view.
                ui.horizontal_wrapped(|ui| {
                    for (vc, &f) in port.flits.iter().enumerate() {
                        let t = f as f32 / buffer;
                        let (r, p) = ui.allocate_painter(vec2(46.0, 14.0), Sense::hover());
                        p.rect_filled(r.rect, 2.0, ui.visuals().extreme_bg_color);
                        let mut fill = r.rect;
                        fill.set_width(r.rect.width() * t.clamp(0.0, 1.0));
                        p.rect_filled(fill, 2.0, theme.heat(t));
                        p.text(
                            r.rect.center(),
                            Align2::CENTER_CENTER,
                            format!("vc{vc} {f}"),
                            FontId::monospace(9.0),
                            ui.visuals().strong_text_color(),
                        );
                        r.on_hover_text(format!("VC {vc}: {f} of {buffer} flits"));
                    }
                });
            }
        }
        Selected::Channel(c) if (c as usize) < net.num_channels() => {
            let ch = net.channel(c);
            ui.heading(format!("Channel {c}"));
            ui.monospace(net.channel_name(c));
            ui.label(format!(
                "{:?} channel from {} to {}",
                ch.kind,
                Network::endpoint_name(ch.src),
                Network::endpoint_name(ch.dst)
            ));
            extra(ui, net, selected);
            ui.separator();
            for m in Metric::ALL.into_iter().filter(|m| m.available(sim)) {
                let v = m.values(sim).get(c as usize).copied().unwrap_or(0.0);
                ui.label(format!("{}: {v:.3} {}", m.label(), m.unit()))
                    .on_hover_text(m.help());
            }
            let flits = sim
                .stats()
                .channels()
                .get(c as usize)
                .map_or(0, |x| x.flits);
            ui.label(format!(
                "Flits sent since cycle {}: {flits}",
                sim.stats().measure_start()
            ));
        }
        _ => {
            ui.label("Nothing selected");
        }
    }
}
