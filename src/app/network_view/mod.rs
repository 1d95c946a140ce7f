//! The network drawn from the topology's coordinates, each channel coloured
//! by a per-channel value, with a legend, hover tooltips and selection;
//! `geometry` places the switches and shapes the channels, `details`
//! is the panel of the selected switch or channel.

mod details;
mod fabric;
mod geometry;

use super::theme::Theme;
use crate::sim::Simulation;
use crate::topology::{Network, SwitchId};
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, pos2, vec2};
use geometry::{channel_geometry, dist_to_segment};

pub use super::colouring::{Colouring, Metric, Overlay, Selected};
pub use details::details_ui;
pub use fabric::{FABRIC, FabricView};
pub use geometry::ViewTransform;

/// The switch graph view: every network drawn from its topology's
/// coordinates (tori, meshes, hypercubes, midimews, irregular networks,
/// fat trees on the cycle engines), channels coloured by a metric.
pub struct GraphView;

/// The one [`GraphView`], last in `views::VIEWS`.
pub static GRAPH: GraphView = GraphView;

impl crate::app::view::NetworkView for GraphView {
    fn id(&self) -> &'static str {
        "graph"
    }
    fn applies(&self, _sim: &Simulation) -> bool {
        true
    }
    fn draw(
        &self,
        ui: &mut egui::Ui,
        sim: &Simulation,
        cx: &mut crate::app::view::ViewContext<'_>,
    ) -> Rect {
        network_ui_overlaid(
            ui,
            sim,
            cx.colouring,
            cx.theme,
            cx.selected,
            cx.title,
            cx.overlay,
        )
    }
    fn details(&self, ui: &mut egui::Ui, sim: &Simulation, selected: Selected, theme: Theme) {
        details_ui(ui, sim, selected, theme, &|_, _, _| {});
    }
}

/// Draw the network of `sim` filling the available space. Returns the
/// view's screen rectangle (for PNG export).
pub fn network_ui(
    ui: &mut egui::Ui,
    sim: &Simulation,
    metric: Metric,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
) -> Rect {
    let colouring = Colouring::of(metric, sim);
    network_ui_coloured(ui, sim, &colouring, theme, selected, title)
}

/// [`network_ui`] with the channels coloured by any per-channel values
/// (e.g. the path-selection panel's crossing paths).
pub fn network_ui_coloured(
    ui: &mut egui::Ui,
    sim: &Simulation,
    colouring: &Colouring,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
) -> Rect {
    network_ui_overlaid(
        ui,
        sim,
        colouring,
        theme,
        selected,
        title,
        &Overlay::default(),
    )
}

/// The root switch of an up*/down* routing (`updown`, `paths:updown-*`,
/// `paths:udwm`, or `minimal` on an irregular network, which is
/// up*/down* from switch 0), to mark it on the view.
pub fn updown_root(routing: &str, topology: &str) -> Option<SwitchId> {
    let updown = routing.starts_with("updown")
        || routing.starts_with("paths:updown")
        || routing.starts_with("paths:udwm")
        || (routing == "minimal" && topology.starts_with("irregular"));
    if !updown {
        return None;
    }
    let root = routing
        .split(':')
        .find_map(|kv| kv.strip_prefix("root="))
        .map_or(Some(0), |r| r.parse().ok())?;
    Some(root)
}

/// [`network_ui_coloured`] with an [`Overlay`]: the switch graph's
/// drawing, which the fabric view shares.
pub fn network_ui_overlaid(
    ui: &mut egui::Ui,
    sim: &Simulation,
    colouring: &Colouring,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
    overlay: &Overlay,
) -> Rect {
    let net = sim.network();
    let size = ui.available_size().max(vec2(120.0, 120.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    let rect = response.rect;
    // No background fill: the frame is cleared to the theme's background
    // (see `Theme::apply`).

    let world = net.switch_positions();
    let Some(xf) = ViewTransform::new(net, rect) else {
        return rect;
    };
    let legend_h = ViewTransform::LEGEND_H;
    let to_screen = |p: [f32; 2]| xf.to_screen(p);
    let (spacing_px, radius) = (xf.spacing_px, xf.radius);
    let width = xf.channel_offset();

    let geoms = channel_geometry(net, &xf);

    let values = &colouring.values;
    let (min, max) = colouring.network_range(net);
    let scale = overlay
        .scale_max
        .filter(|m| m.is_finite() && *m > 0.0)
        .unwrap_or(max);
    let norm = |v: f64| if scale > 0.0 { (v / scale) as f32 } else { 0.0 };

    // Hover and click.
    let hovered = response
        .hover_pos()
        .and_then(|p| under_pointer(p, world, &xf, &geoms));
    if response.clicked() {
        *selected = hovered;
    }

    // Shaded switches, under everything else.
    for &(s, fill) in &overlay.shaded {
        if let Some(w) = world.get(s as usize) {
            let half = (spacing_px * 0.42).max(radius + 2.0);
            painter.rect_filled(
                Rect::from_center_size(to_screen(*w), vec2(half, half) * 2.0),
                3.0,
                fill,
            );
        }
    }
    // Channels, hottest last so they are on top.
    let mut order: Vec<usize> = (0..geoms.len()).collect();
    order.sort_by(|&i, &j| {
        let vi = values.get(geoms[i].id as usize).copied().unwrap_or(0.0);
        let vj = values.get(geoms[j].id as usize).copied().unwrap_or(0.0);
        vi.total_cmp(&vj)
    });
    for i in order {
        let g = &geoms[i];
        let v = values.get(g.id as usize).copied().unwrap_or(0.0);
        let color = theme.heat(norm(v));
        let emphasis = matches!(*selected, Some(Selected::Channel(c)) if c == g.id)
            || matches!(hovered, Some(Selected::Channel(c)) if c == g.id);
        let w = if emphasis { width * 2.2 } else { width };
        for seg in &g.segments {
            painter.line_segment(*seg, Stroke::new(w, color));
        }
        // Arrowhead at the receiving end of the last segment.
        if let Some(&[a, b]) = g.segments.last()
            && spacing_px > 30.0
        {
            let dir = (b - a).normalized();
            let n = vec2(-dir.y, dir.x);
            let tip = b;
            let back = tip - dir * (w * 2.5 + 2.0);
            painter.add(egui::Shape::convex_polygon(
                vec![tip, back + n * (w + 1.5), back - n * (w + 1.5)],
                color,
                Stroke::NONE,
            ));
        }
    }
    // Paths over the colouring, side by side on shared channels.
    let lanes = overlay.paths.len() as f32;
    for (k, (path, color)) in overlay.paths.iter().enumerate() {
        let shift = (k as f32 - (lanes - 1.0) / 2.0) * (width + 1.0);
        for g in path
            .iter()
            .filter_map(|c| geoms.iter().find(|g| g.id == *c))
        {
            for &[a, b] in &g.segments {
                let dir = (b - a).normalized();
                let n = vec2(-dir.y, dir.x) * shift;
                painter.line_segment([a + n, b + n], Stroke::new(width.max(1.5), *color));
            }
        }
    }
    paint_switches(ui, &painter, world, &xf, theme, (*selected, hovered));
    for (s, label, color) in &overlay.marks {
        if let Some(w) = world.get(*s as usize) {
            let c = to_screen(*w);
            painter.circle_stroke(c, radius + 3.5, Stroke::new(2.5, *color));
            // On a patch of background, as the switch numbers: drawn bare
            // it sat among the arrowheads of the links into the switch.
            let galley = painter.layout_no_wrap(label.clone(), FontId::proportional(13.0), *color);
            let at = c + vec2(
                -radius - 4.0 - galley.size().x,
                -radius - 4.0 - galley.size().y,
            );
            painter.rect_filled(
                Rect::from_min_size(at, galley.size()).expand(2.0),
                3.0,
                theme.view_background().gamma_multiply(0.9),
            );
            painter.galley(at, galley, *color);
        }
    }
    if let Some(Selected::Channel(c)) = *selected
        && let Some(g) = geoms.iter().find(|g| g.id == c)
    {
        for seg in &g.segments {
            painter.line_segment(*seg, Stroke::new(1.0, theme.selection()));
        }
    }

    // Title and legend.
    crate::app::fitted_text::paint_fitted(
        &painter,
        rect.min + vec2(10.0, 6.0),
        title,
        rect.width() - 20.0,
        (14.0, 10.0),
        ui.visuals().strong_text_color(),
    );
    legend(
        &painter,
        Rect::from_min_size(
            pos2(rect.min.x + 12.0, rect.max.y - legend_h - 4.0),
            vec2((rect.width() - 24.0).min(260.0), legend_h),
        ),
        theme,
        colouring,
        (min, max, scale),
        ui.visuals().text_color(),
        rect.max.x - 8.0,
    );

    // Tooltip.
    if let Some(h) = hovered {
        let text = describe(net, sim, colouring, h);
        response.on_hover_ui_at_pointer(|ui| {
            ui.label(text);
        });
    }
    rect
}

/// The switch or, failing one, the channel under the pointer at `p`.
fn under_pointer(
    p: egui::Pos2,
    world: &[[f32; 2]],
    xf: &ViewTransform,
    geoms: &[geometry::ChannelGeom],
) -> Option<Selected> {
    let mut hovered = None;
    let mut best = (xf.radius + 3.0).max(5.0);
    for (s, w) in world.iter().enumerate() {
        let d = (xf.to_screen(*w) - p).length();
        if d < best {
            best = d;
            hovered = Some(Selected::Switch(s as SwitchId));
        }
    }
    if hovered.is_some() {
        return hovered;
    }
    let mut best = (xf.channel_offset() + 3.0).max(5.0);
    for g in geoms {
        for seg in &g.segments {
            let d = dist_to_segment(p, *seg);
            if d < best {
                best = d;
                hovered = Some(Selected::Channel(g.id));
            }
        }
    }
    hovered
}

/// The switches: a dot each, ringed when selected or hovered, numbered on
/// a patch of background (so coloured channels under the number do not
/// hide it) when there is room.
fn paint_switches(
    ui: &egui::Ui,
    painter: &egui::Painter,
    world: &[[f32; 2]],
    xf: &ViewTransform,
    theme: Theme,
    (selected, hovered): (Option<Selected>, Option<Selected>),
) {
    let radius = xf.radius;
    for (s, w) in world.iter().enumerate() {
        let c = xf.to_screen(*w);
        let sel = selected == Some(Selected::Switch(s as SwitchId));
        let hov = hovered == Some(Selected::Switch(s as SwitchId));
        painter.circle_filled(c, radius, theme.switch_fill());
        if sel || hov {
            painter.circle_stroke(c, radius + 2.5, Stroke::new(2.0, theme.selection()));
        }
        if xf.spacing_px > 44.0 {
            let galley = painter.layout_no_wrap(
                s.to_string(),
                FontId::proportional(10.0),
                ui.visuals().text_color(),
            );
            let at = c + vec2(radius + 2.0, -radius - 2.0 - galley.size().y);
            painter.rect_filled(
                Rect::from_min_size(at, galley.size()).expand(1.0),
                2.0,
                theme.view_background().gamma_multiply(0.85),
            );
            painter.galley(at, galley, ui.visuals().text_color());
        }
    }
}

fn legend(
    painter: &egui::Painter,
    rect: Rect,
    theme: Theme,
    colouring: &Colouring,
    (min, max, scale): (f64, f64, f64),
    text: Color32,
    title_right: f32,
) {
    let bar = Rect::from_min_size(rect.min + vec2(0.0, 16.0), vec2(rect.width(), 10.0));
    crate::app::colour_scale::paint_bar(painter, bar, theme, false);
    // The title has the view's whole width, not just the bar's (the stage
    // issue: "Utilization (…) (flits/" was cut at the bar's end), in a
    // smaller size where even that is too short; the range sits under the
    // bar between its ends, so the two never overlap.
    let title = format!("{} ({})", colouring.label, colouring.unit);
    let room = (title_right - rect.min.x).max(rect.width());
    crate::app::fitted_text::paint_fitted(painter, rect.min, &title, room, (11.0, 8.0), text);
    crate::app::colour_scale::paint_ends(painter, bar, "0", &number(scale), text);
    painter.text(
        pos2(bar.center().x, bar.max.y + 1.0),
        Align2::CENTER_TOP,
        format!("range {} to {}", number(min), number(max)),
        FontId::monospace(10.0),
        text,
    );
}

/// A value as people read it: whole numbers (crossing paths) without
/// decimals, others to three places.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

fn describe(net: &Network, sim: &Simulation, colouring: &Colouring, h: Selected) -> String {
    match h {
        Selected::Switch(s) => {
            let lat = sim
                .latency_by_destination_switch()
                .get(s as usize)
                .copied()
                .unwrap_or(0.0);
            let name = super::fabric_view::switch_label(net, s)
                .map(|l| format!(": {l}"))
                .unwrap_or_default();
            format!(
                "switch {s}{name}\n{} neighbours, {} hosts\nmean latency of packets to it: {lat:.1} cycles\nclick for buffers per VC",
                net.neighbours(s).count(),
                net.hosts_of(s).count()
            )
        }
        Selected::Channel(c) => {
            let ch = net.channel(c);
            let v = colouring.values.get(c as usize).copied().unwrap_or(0.0);
            format!(
                "channel {c}: {}\nfrom {} to {}\n{}: {} {}",
                net.channel_name(c),
                Network::endpoint_name(ch.src),
                Network::endpoint_name(ch.dst),
                colouring.label,
                number(v),
                colouring.unit
            )
        }
    }
}
