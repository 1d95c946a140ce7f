//! The time-slice model's fat tree, drawn in levels (core on top, then
//! aggregate, access, servers): every switch with a buffer bar that fills
//! and drains live, coloured by fill, with a mark at step 3's limit
//! (the weighted-path paper's `min(k_buffer·buffer, k_bw_out·bw_out,
//! k_bw_in·bw_in)`); every link an arrow per direction whose width follows
//! the messages that crossed it in the last slice, whose colour follows the
//! chosen metric on the scale under the drawing, and which carries a dot in
//! the error colour when an offer on it was refused. Each bar is an
//! accessible progress indicator named "Switch N buffer: X of Y messages".
//!
//! From k = [`POD_K`] on, every switch and link would make a hairball, so
//! the pods are drawn folded (`pods`): each pod a block with its
//! aggregate and access switches' fills, one arrow pair between it and the
//! core; a click on a pod unfolds it (its switches, links and servers
//! drawn in full), a click on its header folds it again.
//!
//! The time-slice model counts slices and messages: every text here (and
//! [`in_slice_words`] for the texts other views share with the cycle-level
//! model) says so.

mod pods;
pub use pods::{unfold, unfolded};

use super::colouring::{Colouring, Selected};
use super::theme::Theme;
use crate::routing::RoutingSpec;
use crate::routing::fattree::{GreedyParams, GreedySpec};
use crate::sim::Simulation;
use crate::topology::fat_tree_params::Level;
use crate::topology::{ChannelKind, Endpoint, Network, Shape, SwitchId};
use egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Response, Role, Sense, Stroke, WidgetInfo, pos2,
    vec2,
};

/// From this k on, the pods are drawn folded (k = 12 has 72 access
/// switches in a row: a few points each).
pub const POD_K: u32 = 12;

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

/// A text written for the cycle-level model (a metric's label or unit, a
/// status, why a run stopped) in the time-slice model's words: one cycle
/// is one slice, one flit one message, a packet a message, a host a
/// server. Display only: "deadlock at cycle 1390: 3 flits in the network"
/// reads "deadlock at slice 1390: 3 messages in the network".
pub fn in_slice_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let swapped = match word.as_str() {
            "cycle" => "slice",
            "cycles" => "slices",
            "Cycle" => "Slice",
            "Cycles" => "Slices",
            "flit" | "packet" => "message",
            "flits" | "packets" => "messages",
            "Flit" | "Packet" => "Message",
            "Flits" | "Packets" => "Messages",
            "host" => "server",
            "hosts" => "servers",
            w => w,
        };
        out.push_str(swapped);
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// `text` in the words of `sim`'s model: [`in_slice_words`] on the
/// time-slice model, unchanged on the cycle-level ones.
pub fn model_words(sim: &Simulation, text: &str) -> String {
    if sim.time_slice().is_some() {
        in_slice_words(text)
    } else {
        text.to_string()
    }
}

/// The colouring's label and unit in the time-slice model's words.
fn slice_colouring(colouring: &Colouring) -> (String, String) {
    (
        in_slice_words(&colouring.label),
        in_slice_words(&colouring.unit),
    )
}

/// Layout in world units: switches per level (y = 0 core, 2 aggregate,
/// 4 access), servers in a row under their access switch (y = 5.2).
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

/// What every part of the drawing shares: the run, the theme and the
/// scales.
struct Ctx<'a> {
    sim: &'a Simulation,
    theme: Theme,
    title: &'a str,
    k: u32,
    occ: Vec<u32>,
    limits: Vec<Option<f64>>,
    values: &'a [f64],
    /// Top of the arrow colour scale (0: nothing to colour by).
    max_value: f64,
    weak: Color32,
}

impl Ctx<'_> {
    /// The arrow colour of a channel value.
    fn colour(&self, kind: ChannelKind, v: f64) -> Color32 {
        if kind == ChannelKind::Network && self.max_value > 0.0 {
            self.theme.heat((v / self.max_value) as f32)
        } else {
            self.weak
        }
    }
    fn value(&self, c: usize) -> f64 {
        self.values
            .get(c)
            .copied()
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
    }
}

/// One arrow from `a` to `b` (ends already pulled back from the boxes):
/// width by `crossed` against `max_crossed`, a dot in the error colour when
/// offers were refused.
#[allow(clippy::too_many_arguments)]
fn arrow(
    painter: &Painter,
    a: Pos2,
    b: Pos2,
    crossed: u32,
    refused: u32,
    max_crossed: f32,
    colour: Color32,
    theme: Theme,
) {
    let dir = (b - a).normalized();
    let n = vec2(-dir.y, dir.x) * 2.0;
    let (a, b) = (a + n, b + n);
    let width = 0.6 + 5.0 * crossed as f32 / max_crossed.max(1.0);
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
    if refused > 0 {
        let m = a + (b - a) * 0.5;
        painter.circle(m, 3.0, theme.error(), Stroke::new(1.0, Color32::BLACK));
    }
}

/// One switch's buffer bar at `bar`: fill, step 3's mark, outline, the
/// accessible progress indicator; clicking selects the switch.
fn switch_bar(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    s: usize,
    bar: Rect,
    selected: &mut Option<Selected>,
    numbered: bool,
) -> Response {
    let Some(ts) = cx.sim.time_slice() else {
        let id = ui.make_persistent_id(("fat_tree_none", s));
        return ui.interact(bar, id, Sense::hover());
    };
    let p = ts.params()[s];
    let held = cx.occ.get(s).copied().unwrap_or(0);
    let fill = held as f32 / p.buffer.max(1) as f32;
    let id = ui.make_persistent_id(("fat_tree_switch", cx.title, s));
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
    painter.rect_filled(bar, 2.0, cx.theme.switch_fill());
    let mut level = bar;
    level.set_top(bar.bottom() - bar.height() * fill.clamp(0.0, 1.0));
    painter.rect_filled(level, 2.0, cx.theme.heat(fill));
    if let Some(Some(l)) = cx.limits.get(s) {
        let y = bar.bottom() - bar.height() * (*l as f32 / p.buffer.max(1) as f32).clamp(0.0, 1.0);
        painter.line_segment(
            [pos2(bar.left() - 3.0, y), pos2(bar.right() + 3.0, y)],
            Stroke::new(1.5, cx.theme.selection()),
        );
    }
    let sel = *selected == Some(Selected::Switch(s as SwitchId));
    let stroke = if sel || r.hovered() {
        Stroke::new(2.0, cx.theme.selection())
    } else {
        Stroke::new(1.0, cx.weak)
    };
    painter.rect_stroke(bar, 2.0, stroke, egui::StrokeKind::Outside);
    if numbered {
        painter.text(
            bar.right_top() + vec2(2.0, 0.0),
            Align2::LEFT_TOP,
            s.to_string(),
            FontId::proportional(10.0),
            cx.weak,
        );
    }
    if r.clicked() {
        *selected = Some(Selected::Switch(s as SwitchId));
    }
    r
}

/// The hover text of switch `s`.
fn switch_hover(cx: &Ctx<'_>, s: usize) -> String {
    let Some(p) = cx.sim.time_slice().and_then(|t| t.params().get(s).copied()) else {
        return format!("switch {s}");
    };
    let held = cx.occ.get(s).copied().unwrap_or(0);
    let level = Level::of(cx.k, s as u32);
    let limit = match cx.limits.get(s) {
        Some(Some(l)) => format!("step 3 limit {l:.0} messages"),
        _ => "access switch: not limited".into(),
    };
    format!(
        "switch {s} ({})\nbuffer {held} of {} messages; {limit}\nbw_in {} and bw_out {} messages per slice\nclick for details",
        level.name(),
        p.buffer,
        p.bw_in,
        p.bw_out
    )
}

/// Draw `sim` (a time-slice run) filling the available space, the colour
/// scale and key under it; returns the view's rectangle.
pub fn fat_tree_ui(
    ui: &mut egui::Ui,
    sim: &Simulation,
    colouring: &Colouring,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
    scale_max: Option<f64>,
) -> Rect {
    let avail = ui.available_size().max(vec2(160.0, 160.0));
    // The key wraps to the width; its height last frame is kept so the
    // drawing leaves room for it.
    let key_id = egui::Id::unique(("fat_tree_key_h", title));
    let key_h = ui
        .data(|d| d.get_temp::<f32>(key_id))
        .unwrap_or(54.0)
        .clamp(20.0, avail.y * 0.5);
    let size = vec2(avail.x, (avail.y - key_h).max(120.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    let rect = response.rect;
    let Some(ts) = sim.time_slice() else {
        return rect;
    };
    let net = sim.network();
    let k = fat_tree_k(net);
    let values = &colouring.values;
    let (_, max_value) = colouring.network_range(net);
    // Runs side by side share one colour range.
    let max_value = scale_max
        .filter(|m| m.is_finite() && *m > 0.0)
        .unwrap_or(max_value);
    let cx = Ctx {
        sim,
        theme,
        title,
        k,
        occ: sim.switch_occupancy(),
        limits: step3_limits(sim),
        values,
        max_value,
        weak: ui.visuals().weak_text_color(),
    };
    let inner = Rect::from_min_max(rect.min + vec2(12.0, 28.0), rect.max - vec2(12.0, 6.0));
    let folded = k >= POD_K;
    let (any_hovered, widest) = if folded {
        pods::draw(ui, &painter, &cx, inner, selected)
    } else {
        draw_every_switch(ui, &painter, &cx, inner, selected)
    };
    crate::app::fitted_text::paint_fitted(
        &painter,
        rect.min + vec2(10.0, 6.0),
        title,
        rect.width() - 20.0,
        (14.0, 10.0),
        ui.visuals().strong_text_color(),
    );
    if response.clicked() && !any_hovered {
        *selected = None;
    }
    let traffic = ts.traffic();
    let key = ui
        .horizontal_wrapped(|ui| {
            key_ui(ui, &cx, colouring, traffic.slice, widest, folded);
        })
        .response;
    let h = key.rect.height() + ui.spacing().item_spacing.y;
    if (h - key_h).abs() > 0.5 {
        ui.data_mut(|d| d.insert_temp(key_id, h));
        ui.ctx().request_repaint();
    }
    rect.union(key.rect)
}

/// k < [`POD_K`]: every switch, server and link; returns whether a switch
/// is hovered and the most messages an arrow carried in the last slice.
fn draw_every_switch(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    inner: Rect,
    selected: &mut Option<Selected>,
) -> (bool, u32) {
    let net = cx.sim.network();
    let Some(ts) = cx.sim.time_slice() else {
        return (false, 0);
    };
    let traffic = ts.traffic();
    let (world, hosts_world) = layout(net, cx.k);
    let span = vec2((cx.k * cx.k / 2).max(1) as f32, 5.6);
    let scale = vec2(inner.width() / span.x, inner.height() / (span.y + 0.4));
    let to_screen = |p: Pos2| inner.min + vec2(p.x * scale.x, (p.y + 0.4) * scale.y);
    let box_w = (scale.x * 0.55).clamp(4.0, 26.0);
    let box_h = (scale.y * 0.9).clamp(10.0, 48.0);
    let widest = traffic.crossed.iter().copied().max().unwrap_or(0);
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
        let (a, b) = (a + dir * box_h * 0.5, b - dir * box_h * 0.5);
        let crossed = traffic.crossed.get(c.id as usize).copied().unwrap_or(0);
        let refused = traffic.refused.get(c.id as usize).copied().unwrap_or(0);
        let colour = cx.colour(c.kind, cx.value(c.id as usize));
        arrow(
            painter,
            a,
            b,
            crossed,
            refused,
            widest as f32,
            colour,
            cx.theme,
        );
    }
    for p in &hosts_world {
        painter.circle_filled(to_screen(*p), 2.0, cx.weak);
    }
    let mut hovered = false;
    for (s, w) in world.iter().enumerate() {
        let bar = Rect::from_center_size(to_screen(*w), vec2(box_w, box_h));
        let r = switch_bar(ui, painter, cx, s, bar, selected, scale.x > 28.0);
        if r.hovered() {
            hovered = true;
            r.on_hover_text(switch_hover(cx, s));
        }
    }
    (hovered, widest)
}

/// One piece of an item of the key.
enum Part {
    /// Text, strong or not.
    Text(String, bool),
    /// The heat scale, greyed when there is nothing to colour by.
    Scale(bool),
    /// The refused-offer dot.
    Dot,
    /// Step 3's mark.
    Mark,
}

/// One item of the key: its parts side by side as one widget, so the key
/// wraps between items and never inside one; accessible under `name`.
fn key_item(ui: &mut egui::Ui, theme: Theme, name: &str, parts: Vec<Part>) {
    let font = FontId::proportional(11.0);
    let colour = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let gap = 4.0;
    type Laid = (Part, Option<std::sync::Arc<egui::Galley>>, f32);
    let laid: Vec<Laid> = parts
        .into_iter()
        .map(|p| match &p {
            Part::Text(t, bold) => {
                let g = ui.painter().layout_no_wrap(
                    t.clone(),
                    font.clone(),
                    if *bold { strong } else { colour },
                );
                let w = g.size().x;
                (p, Some(g), w)
            }
            Part::Scale(_) => (p, None, 80.0),
            Part::Dot => (p, None, 8.0),
            Part::Mark => (p, None, 14.0),
        })
        .collect();
    let width = laid.iter().map(|(_, _, w)| w + gap).sum::<f32>() - gap;
    let (rect, r) = ui.allocate_exact_size(vec2(width.max(1.0), 14.0), Sense::hover());
    let name = name.to_string();
    r.widget_info(|| WidgetInfo::labeled(Role::Image, true, name.clone()));
    let painter = ui.painter();
    let mut x = rect.left();
    let mid = rect.center().y;
    for (p, g, w) in laid {
        match p {
            Part::Text(..) => {
                if let Some(g) = g {
                    painter.galley(pos2(x, mid - g.size().y * 0.5), g, colour);
                }
            }
            Part::Scale(active) => {
                let bar = Rect::from_min_size(pos2(x, mid - 5.0), vec2(w, 10.0));
                super::colour_scale::paint_bar(painter, bar, theme, !active);
            }
            Part::Dot => {
                painter.circle(
                    pos2(x + w * 0.5, mid),
                    3.5,
                    theme.error(),
                    Stroke::new(1.0, Color32::BLACK),
                );
            }
            Part::Mark => {
                painter.line_segment(
                    [pos2(x, mid), pos2(x + w, mid)],
                    Stroke::new(1.5, theme.selection()),
                );
            }
        }
        x += w + gap;
    }
}

/// The key under the drawing: the arrows' colour scale with its metric
/// and unit, what an arrow's width and dot mean, the bars' fill scale and
/// step 3's mark, and the last slice's totals.
fn key_ui(
    ui: &mut egui::Ui,
    cx: &Ctx<'_>,
    colouring: &Colouring,
    slice: u64,
    widest: u32,
    folded: bool,
) {
    let (label, unit) = slice_colouring(colouring);
    let t = |s: &str| Part::Text(s.to_string(), false);
    let b = |s: &str| Part::Text(s.to_string(), true);
    let top = cx.max_value;
    let theme = cx.theme;
    ui.spacing_mut().item_spacing = vec2(12.0, 3.0);
    key_item(
        ui,
        theme,
        &format!("Arrow colour scale: {label}, 0 to {} {unit}", number(top)),
        vec![
            b("Arrow colour:"),
            t(&format!("{label} 0")),
            Part::Scale(top > 0.0),
            t(&format!("{} {unit}", number(top))),
        ],
    );
    key_item(
        ui,
        theme,
        "Red dot: offers refused in the slice",
        vec![Part::Dot, t("offers refused in the slice")],
    );
    let width = format!("Arrow width: messages moved in slice {slice} (widest {widest})");
    key_item(ui, theme, &width, vec![t(&width)]);
    key_item(
        ui,
        theme,
        "Bar fill scale: 0 to 100 % of the buffer",
        vec![
            b("Bar fill:"),
            t("0"),
            Part::Scale(true),
            t("100 % of the buffer"),
        ],
    );
    key_item(
        ui,
        theme,
        "Line: step 3's limit",
        vec![Part::Mark, t("step 3's limit")],
    );
    let Some(ts) = cx.sim.time_slice() else {
        return;
    };
    let traffic = ts.traffic();
    let refused: u32 = traffic.refused.iter().sum();
    let crossed: u32 = traffic.crossed.iter().sum();
    let totals = format!("Slice {slice}: {crossed} messages moved, {refused} offers refused");
    key_item(ui, theme, &totals, vec![t(&totals)]);
    if folded {
        let h = cx.k / 2;
        let pods = format!(
            "Pods folded ({h} access, {h} aggregate switches, {} servers each): click one to unfold it",
            h * h
        );
        key_item(ui, theme, &pods, vec![t(&pods)]);
        let arrows = "A folded pod's two arrows: all its core links, coloured by the busiest";
        key_item(ui, theme, arrows, vec![t(arrows)]);
    }
}

/// A scale's end as people read it: whole numbers without decimals,
/// others to two significant decimals.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The fat tree under the time-slice model (Franco et al. §3), drawn in
/// levels with its buffer bars and message arrows.
pub struct FatTreeView;

/// The one [`FatTreeView`] (`views::VIEWS`).
pub static VIEW: FatTreeView = FatTreeView;

impl super::view::NetworkView for FatTreeView {
    fn id(&self) -> &'static str {
        "fat_tree"
    }
    /// A run on the time-slice model (which only fat trees take).
    fn applies(&self, sim: &Simulation) -> bool {
        sim.time_slice().is_some()
    }
    fn draw(
        &self,
        ui: &mut egui::Ui,
        sim: &Simulation,
        cx: &mut super::view::ViewContext<'_>,
    ) -> Rect {
        fat_tree_ui(
            ui,
            sim,
            cx.colouring,
            cx.theme,
            cx.selected,
            cx.title,
            cx.overlay.scale_max,
        )
    }
    fn details(&self, ui: &mut egui::Ui, sim: &Simulation, selected: Selected, _theme: Theme) {
        details_ui(ui, sim, selected);
    }
    fn clock(&self) -> super::view::Clock {
        super::view::Clock::Slices
    }
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

/// The details panel of a time-slice run in slices and messages: for a
/// switch its latencies, queueing, parameters, fill and limit; for a
/// channel its metrics and the messages it carried.
pub fn details_ui(ui: &mut egui::Ui, sim: &Simulation, selected: Selected) {
    use super::colouring::Metric;
    let net = sim.network();
    match selected {
        Selected::Switch(s) if (s as usize) < net.num_switches() => {
            ui.heading(format!("Switch {s}"));
            let at = |v: Vec<f64>| v.get(s as usize).copied().unwrap_or(0.0);
            ui.label(format!(
                "Mean latency of messages to it: {:.1} slices",
                at(sim.latency_by_destination_switch())
            ));
            ui.label(format!(
                "Mean latency of messages from it: {:.1} slices",
                at(sim.latency_by_source_switch())
            ));
            ui.label(format!(
                "Mean wait in it: {:.2} slices",
                at(sim.switch_queueing_delay())
            ))
            .on_hover_text(
                "Slices a message waited in this switch before it left, since the warm-up",
            );
            switch_details_ui(ui, sim, s);
            if let Some(w) = sim.stats().windows().last() {
                ui.label(format!(
                    "Network, last window: latency {:.1} slices, {:.3} messages per server per slice delivered",
                    w.avg_latency, w.accepted
                ));
            }
        }
        Selected::Channel(c) if (c as usize) < net.num_channels() => {
            let ch = net.channel(c);
            ui.heading(format!("Link {c}"));
            ui.monospace(net.channel_name(c));
            ui.label(format!(
                "From {} to {}",
                Network::endpoint_name(ch.src),
                Network::endpoint_name(ch.dst)
            ));
            ui.separator();
            for m in Metric::ALL.into_iter().filter(|m| m.available(sim)) {
                let v = m.values(sim).get(c as usize).copied().unwrap_or(0.0);
                ui.label(format!(
                    "{}: {v:.3} {}",
                    m.label(),
                    in_slice_words(m.unit())
                ))
                .on_hover_text(in_slice_words(m.help()));
            }
            let moved = sim
                .stats()
                .channels()
                .get(c as usize)
                .map_or(0, |x| x.flits);
            ui.label(format!(
                "Messages moved since slice {}: {moved}",
                sim.stats().measure_start()
            ));
        }
        _ => {
            ui.label("Nothing selected");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_words_become_slice_words() {
        assert_eq!(in_slice_words("flits/cycle"), "messages/slice");
        assert_eq!(in_slice_words("flits/host/cycle"), "messages/server/slice");
        assert_eq!(
            in_slice_words(
                "deadlock at cycle 1390: 12 flits in the network and none moved for 200 cycles"
            ),
            "deadlock at slice 1390: 12 messages in the network and none moved for 200 slices"
        );
        assert_eq!(
            in_slice_words("Utilization (from cycle 200, after the warm-up)"),
            "Utilization (from slice 200, after the warm-up)"
        );
        // Words that only contain a unit are left alone.
        assert_eq!(in_slice_words("bicycles flitsy"), "bicycles flitsy");
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(3.0), "3");
        assert_eq!(number(0.8371), "0.84");
        assert_eq!(number(12.345), "12.3");
    }
}
