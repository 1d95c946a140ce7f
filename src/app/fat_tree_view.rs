//! The time-slice model's fat tree, drawn in levels (core on top, then
//! aggregate, access, servers): every switch with a buffer bar that fills
//! and drains live, coloured by fill, with a mark at step 3's limit
//! (the weighted-path paper's `min(k_buffer·buffer, k_bw_out·bw_out,
//! k_bw_in·bw_in)`); every link an arrow per direction whose width follows
//! the messages that crossed it in the last slice and which flashes in the
//! error colour when an offer on it was refused. Each bar is an accessible
//! progress indicator named "Switch N buffer: X of Y messages".

use super::network_view::{Colouring, Selected};
use super::theme::Theme;
use crate::routing::RoutingSpec;
use crate::routing::fattree::{GreedyParams, GreedySpec};
use crate::sim::Simulation;
use crate::topology::fat_tree_params::Level;
use crate::topology::{ChannelKind, Endpoint, Network, Shape, SwitchId};
use egui::{Align2, FontId, Pos2, Rect, Role, Sense, Stroke, WidgetInfo, pos2, vec2};

/// Step 3's limit of every switch under the routing `routing` (its own
/// constants when it is `fattree-greedy`, the defaults otherwise); `None`
/// for access switches.
pub fn step3_limits(sim: &Simulation) -> Vec<Option<f64>> {
    let params = sim
        .routing_name()
        .parse::<RoutingSpec>()
        .ok()
        .and_then(|s| s.downcast::<GreedySpec>().map(|g| g.params))
        .unwrap_or(GreedyParams::DEFAULT);
    let Some(ts) = sim.time_slice() else {
        return Vec::new();
    };
    let k = fat_tree_k(sim.network());
    ts.params()
        .iter()
        .enumerate()
        .map(|(s, p)| params.limit(Level::of(k, s as u32), p.buffer, p.bw_in, p.bw_out))
        .collect()
}

fn fat_tree_k(net: &Network) -> u32 {
    match net.shape() {
        Shape::FatTree { k } => *k,
        _ => 0,
    }
}

/// The accessible name of a switch's buffer bar.
pub fn buffer_label(s: SwitchId, occupancy: u32, buffer: u32) -> String {
    format!("Switch {s} buffer: {occupancy} of {buffer} messages")
}

/// Layout in world units: switches per level (y = 0 core, 2 aggregate,
/// 4 access), servers in a row under their access switch (y = 5).
fn layout(net: &Network, k: u32) -> (Vec<Pos2>, Vec<Pos2>) {
    let h = (k / 2).max(1);
    let access = k * h;
    let core = h * h;
    let width = access as f32;
    let switches = (0..net.num_switches() as u32)
        .map(|s| {
            if s < access {
                pos2(s as f32 + 0.5, 4.0)
            } else if s < 2 * access {
                pos2((s - access) as f32 + 0.5, 2.0)
            } else {
                pos2(((s - 2 * access) as f32 + 0.5) * width / core as f32, 0.0)
            }
        })
        .collect();
    let hosts = (0..net.num_hosts() as u32)
        .map(|host| {
            let a = net.host(host).switch;
            let i = host % h;
            pos2(a as f32 + (i as f32 + 0.5) / h as f32, 5.2)
        })
        .collect();
    (switches, hosts)
}

/// Draw `sim` (a time-slice run) filling the available space; returns the
/// view's rectangle.
pub fn fat_tree_ui(
    ui: &mut egui::Ui,
    sim: &Simulation,
    colouring: &Colouring,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
) -> Rect {
    let size = ui.available_size().max(vec2(160.0, 160.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    let rect = response.rect;
    let Some(ts) = sim.time_slice() else {
        return rect;
    };
    let net = sim.network();
    let k = fat_tree_k(net);
    let (world, hosts_world) = layout(net, k);
    let legend_h = 30.0;
    let inner = Rect::from_min_max(
        rect.min + vec2(12.0, 28.0),
        rect.max - vec2(12.0, 10.0 + legend_h),
    );
    let span = vec2((k * k / 2).max(1) as f32, 5.6);
    let scale = vec2(inner.width() / span.x, inner.height() / (span.y + 0.4));
    let to_screen = |p: Pos2| inner.min + vec2(p.x * scale.x, (p.y + 0.4) * scale.y);
    let box_w = (scale.x * 0.55).clamp(4.0, 26.0);
    let box_h = (scale.y * 0.9).clamp(10.0, 48.0);

    let occ = sim.switch_occupancy();
    let params = ts.params();
    let limits = step3_limits(sim);
    let traffic = ts.traffic();
    let max_crossed = traffic.crossed.iter().copied().max().unwrap_or(0).max(1) as f32;
    let values = &colouring.values;
    let max_value = values
        .iter()
        .take(net.num_network_channels())
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);

    // Links: one arrow per direction, side by side.
    for c in net.channels() {
        let (a, b) = match (c.src, c.dst) {
            (Endpoint::Switch { switch: a, .. }, Endpoint::Switch { switch: b, .. }) => {
                (to_screen(world[a as usize]), to_screen(world[b as usize]))
            }
            (Endpoint::Host { host }, Endpoint::Switch { switch, .. }) => (
                to_screen(hosts_world[host as usize]),
                to_screen(world[switch as usize]),
            ),
            (Endpoint::Switch { switch, .. }, Endpoint::Host { host }) => (
                to_screen(world[switch as usize]),
                to_screen(hosts_world[host as usize]),
            ),
            _ => continue,
        };
        let dir = (b - a).normalized();
        let n = vec2(-dir.y, dir.x) * 2.0;
        let (a, b) = (a + dir * box_h * 0.5 + n, b - dir * box_h * 0.5 + n);
        let crossed = traffic.crossed.get(c.id as usize).copied().unwrap_or(0);
        let refused = traffic.refused.get(c.id as usize).copied().unwrap_or(0);
        let width = 0.6 + 5.0 * crossed as f32 / max_crossed;
        let colour = if refused > 0 {
            theme.error()
        } else if c.kind == ChannelKind::Network && max_value > 0.0 {
            let v = values.get(c.id as usize).copied().unwrap_or(0.0);
            theme.heat((v / max_value) as f32)
        } else {
            ui.visuals().weak_text_color()
        };
        painter.line_segment([a, b], Stroke::new(width, colour));
        if crossed > 0 || refused > 0 {
            let back = b - dir * (width * 2.0 + 3.0);
            let side = vec2(-dir.y, dir.x) * (width + 2.0);
            painter.add(egui::Shape::convex_polygon(
                vec![b, back + side, back - side],
                colour,
                Stroke::NONE,
            ));
        }
    }
    // Servers.
    for p in &hosts_world {
        painter.circle_filled(to_screen(*p), 2.0, ui.visuals().weak_text_color());
    }
    // Switches with their buffer bars.
    let mut hovered = None;
    for (s, w) in world.iter().enumerate() {
        let c = to_screen(*w);
        let bar = Rect::from_center_size(c, vec2(box_w, box_h));
        let p = params[s];
        let held = occ.get(s).copied().unwrap_or(0);
        let fill = held as f32 / p.buffer.max(1) as f32;
        let id = ui.make_persistent_id(("fat_tree_switch", title, s));
        let r = ui.interact(bar, id, Sense::click());
        r.widget_info(|| {
            let mut info = WidgetInfo::labeled(
                Role::ProgressIndicator,
                true,
                buffer_label(s as u32, held, p.buffer),
            );
            info.value = Some(held as f64);
            info
        });
        painter.rect_filled(bar, 2.0, theme.switch_fill());
        let mut level = bar;
        level.set_top(bar.bottom() - bar.height() * fill.clamp(0.0, 1.0));
        painter.rect_filled(level, 2.0, theme.heat(fill));
        if let Some(Some(l)) = limits.get(s) {
            let y =
                bar.bottom() - bar.height() * (*l as f32 / p.buffer.max(1) as f32).clamp(0.0, 1.0);
            painter.line_segment(
                [pos2(bar.left() - 3.0, y), pos2(bar.right() + 3.0, y)],
                Stroke::new(1.5, theme.selection()),
            );
        }
        let sel = *selected == Some(Selected::Switch(s as SwitchId));
        let stroke = if sel || r.hovered() {
            Stroke::new(2.0, theme.selection())
        } else {
            Stroke::new(1.0, ui.visuals().weak_text_color())
        };
        painter.rect_stroke(bar, 2.0, stroke, egui::StrokeKind::Outside);
        if scale.x > 28.0 {
            painter.text(
                bar.right_top() + vec2(2.0, 0.0),
                Align2::LEFT_TOP,
                s.to_string(),
                FontId::proportional(10.0),
                ui.visuals().weak_text_color(),
            );
        }
        if r.clicked() {
            *selected = Some(Selected::Switch(s as SwitchId));
        }
        if r.hovered() {
            hovered = Some((s, r));
        }
    }
    let any_hovered = hovered.is_some();
    if let Some((s, r)) = hovered {
        let p = params[s];
        let held = occ.get(s).copied().unwrap_or(0);
        let level = Level::of(k, s as u32);
        let limit = match limits.get(s) {
            Some(Some(l)) => format!("step 3 limit {l:.0}"),
            _ => "access switch: not limited".into(),
        };
        r.on_hover_text(format!(
            "switch {s} ({})\nbuffer {held} of {} messages; {limit}\nbw_in {} and bw_out {} messages per slice\nclick for details",
            level.name(),
            p.buffer,
            p.bw_in,
            p.bw_out
        ));
    }
    painter.text(
        rect.min + vec2(10.0, 6.0),
        Align2::LEFT_TOP,
        title,
        FontId::proportional(14.0),
        ui.visuals().strong_text_color(),
    );
    let refused: u32 = traffic.refused.iter().sum();
    let crossed: u32 = traffic.crossed.iter().sum();
    painter.text(
        pos2(rect.min.x + 12.0, rect.max.y - legend_h),
        Align2::LEFT_TOP,
        format!(
            "Slice {}: {crossed} messages moved, {refused} offers refused (red). Bars: buffer fill, mark at step 3's limit; arrow width: messages per slice; colour: {} ({})",
            traffic.slice, colouring.label, colouring.unit
        ),
        FontId::proportional(11.0),
        ui.visuals().text_color(),
    );
    if response.clicked() && !any_hovered {
        *selected = None;
    }
    rect
}

/// The time-slice details of switch `s`: its parameters, fill and limit.
pub fn switch_details_ui(ui: &mut egui::Ui, sim: &Simulation, s: SwitchId) {
    let Some(ts) = sim.time_slice() else {
        return;
    };
    let Some(p) = ts.params().get(s as usize) else {
        return;
    };
    let k = fat_tree_k(sim.network());
    let held = sim.switch_occupancy().get(s as usize).copied().unwrap_or(0);
    ui.label(format!("{} switch", Level::of(k, s).name()));
    ui.label(buffer_label(s, held, p.buffer));
    ui.label(format!(
        "bw_in {} and bw_out {} messages per slice",
        p.bw_in, p.bw_out
    ));
    if let Some(Some(l)) = step3_limits(sim).get(s as usize) {
        ui.label(format!("Step 3 limit: {l:.0} messages"));
    }
}
