//! The network drawn from the topology's coordinates, each channel coloured
//! by a per-channel value, with a legend, hover tooltips and selection.

use super::theme::Theme;
use crate::sim::Simulation;
use crate::topology::{ChannelId, Endpoint, Network, Shape, SwitchId};
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, pos2, vec2};

pub use super::colouring::{Colouring, Metric, Selected};

/// Screen geometry of one channel: one segment, or two stubs for a wrap link.
struct ChannelGeom {
    id: ChannelId,
    segments: Vec<[Pos2; 2]>,
}

fn switch_of(e: Endpoint) -> Option<SwitchId> {
    match e {
        Endpoint::Switch { switch, .. } => Some(switch),
        Endpoint::Host { .. } => None,
    }
}

fn dist_to_segment(p: Pos2, [a, b]: [Pos2; 2]) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t - p).length()
}

/// Where the network view puts the switches inside its rectangle: world
/// coordinates (the topology's layout) to screen, and the sizes that follow
/// from the link spacing. Overlays (DRB's metapaths) draw with it.
#[derive(Clone, Copy, Debug)]
pub struct ViewTransform {
    lo: [f32; 2],
    origin: Pos2,
    /// Points per world unit.
    pub scale: f32,
    /// Typical link length in world units.
    pub typical: f32,
    /// A torus or midimew (wrap links drawn as stubs).
    pub wraps: bool,
    /// Typical link length on screen.
    pub spacing_px: f32,
    /// Switch radius on screen.
    pub radius: f32,
}

impl ViewTransform {
    /// Height kept for the legend under the drawing.
    pub const LEGEND_H: f32 = 34.0;

    /// The transform of `net` drawn in `rect` (the view's whole
    /// rectangle), or `None` without switches.
    pub fn new(net: &Network, rect: Rect) -> Option<ViewTransform> {
        let world = net.switch_positions();
        if world.is_empty() {
            return None;
        }
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for p in world {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        // Typical link length in world units (for wrap detection and sizes).
        let mut lens: Vec<f32> = (0..net.num_network_channels() as ChannelId)
            .filter_map(|c| {
                let ch = net.channel(c);
                let (a, b) = (switch_of(ch.src)?, switch_of(ch.dst)?);
                let (pa, pb) = (world[a as usize], world[b as usize]);
                Some(((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt())
            })
            .collect();
        lens.sort_by(|a, b| a.total_cmp(b));
        let typical = lens.get(lens.len() / 4).copied().unwrap_or(1.0).max(1e-3);
        // Tori and midimews (a mesh with wrap-around links,
        // `topology::layout::midimew`) draw their long links as stubs.
        let wraps = matches!(
            net.shape(),
            Shape::Cube { wrap: true, .. } | Shape::Midimew { .. }
        );
        let inner = Rect::from_min_max(
            rect.min + vec2(12.0, 26.0),
            rect.max - vec2(12.0, 12.0 + Self::LEGEND_H),
        );
        let span = vec2((hi[0] - lo[0]).max(1e-3), (hi[1] - lo[1]).max(1e-3));
        // Leave half a link of room around the grid for wrap stubs.
        let pad = if wraps {
            typical * 0.6
        } else if matches!(net.shape(), Shape::Hypercube { .. }) {
            // Room for the arcs below the last row and left of the first
            // column (`hypercube_arc`).
            typical * 0.9
        } else {
            typical * 0.25
        };
        let scale =
            ((inner.width()) / (span.x + 2.0 * pad)).min(inner.height() / (span.y + 2.0 * pad));
        let used = vec2(span.x + 2.0 * pad, span.y + 2.0 * pad) * scale;
        let origin = inner.center() - used / 2.0 + vec2(pad, pad) * scale;
        let spacing_px = typical * scale;
        Some(ViewTransform {
            lo,
            origin,
            scale,
            typical,
            wraps,
            spacing_px,
            radius: (spacing_px * 0.16).clamp(2.0, 9.0),
        })
    }

    /// A world position on screen.
    pub fn to_screen(&self, p: [f32; 2]) -> Pos2 {
        self.origin + vec2(p[0] - self.lo[0], p[1] - self.lo[1]) * self.scale
    }

    /// Switch `s` on screen.
    pub fn switch(&self, net: &Network, s: SwitchId) -> Pos2 {
        self.to_screen(net.switch_positions()[s as usize])
    }
}

/// The points of a hypercube link drawn as an arc from `a` to `b` (screen
/// positions of its left and right ends on a row, or upper and lower ends
/// on a column), `span` typical link
/// lengths long. A hypercube's grid (`topology::hypercube`, low bits on x
/// and high bits on y, each in Gray-code order) puts the links of up to
/// half the dimensions on one row, many of them over the switches between
/// their ends; straight, they would lie on top of each other. Each arc
/// bulges to the right of its direction from `a` to `b` (below a row, left
/// of a column), higher the
/// longer it is and always less than one row, so the links of one row stay
/// between it and the next and the longer ones can be told apart.
fn hypercube_arc(a: Pos2, b: Pos2, span: f32, spacing_px: f32, radius: f32) -> Vec<Pos2> {
    let d = b - a;
    let len = d.length().max(1e-3);
    let dir = d / len;
    let height = (0.25 + 0.12 * (span - 1.0)).min(0.85) * spacing_px;
    // A quadratic Bezier's peak is half its control point's offset.
    let control = a + d * 0.5 + vec2(-dir.y, dir.x) * 2.0 * height;
    // Start and end just outside the switches' circles.
    let t0 = (radius / len).min(0.2);
    const STEPS: usize = 10;
    (0..=STEPS)
        .map(|k| {
            let t = t0 + (1.0 - 2.0 * t0) * k as f32 / STEPS as f32;
            let u = 1.0 - t;
            pos2(
                u * u * a.x + 2.0 * u * t * control.x + t * t * b.x,
                u * u * a.y + 2.0 * u * t * control.y + t * t * b.y,
            )
        })
        .collect()
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

/// What is drawn over a network view besides its colouring: a colour
/// scale shared with another view, shaded switches, paths and marked
/// switches (the oblivious-routing panel's box of intermediate nodes,
/// sampled paths, source and destination).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Top of the colour scale (None: the largest value shown), so that
    /// two views side by side read on one scale.
    pub scale_max: Option<f64>,
    /// Switches shaded behind their dots, each with its fill.
    pub shaded: Vec<(SwitchId, Color32)>,
    /// Paths, each a channel sequence in its colour, drawn over the
    /// colouring side by side where they share a channel.
    pub paths: Vec<(Vec<ChannelId>, Color32)>,
    /// Switches ringed and labelled (e.g. "s", "d", "q").
    pub marks: Vec<(SwitchId, String, Color32)>,
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

/// [`network_ui_coloured`] with an [`Overlay`].
pub fn network_ui_overlaid(
    ui: &mut egui::Ui,
    sim: &Simulation,
    colouring: &Colouring,
    theme: Theme,
    selected: &mut Option<Selected>,
    title: &str,
    overlay: &Overlay,
) -> Rect {
    if sim.time_slice().is_some() {
        return super::fat_tree_view::fat_tree_ui(
            ui,
            sim,
            colouring,
            theme,
            selected,
            title,
            overlay.scale_max,
        );
    }
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
    let (scale, typical, wraps) = (xf.scale, xf.typical, xf.wraps);
    let to_screen = |p: [f32; 2]| xf.to_screen(p);
    let (spacing_px, radius) = (xf.spacing_px, xf.radius);
    let width = (spacing_px * 0.07).clamp(1.0, 4.0);
    let offset = (spacing_px * 0.07).clamp(1.0, 4.0);

    // Channel geometry (parallel cables of an imported fabric as a fan).
    let fan = super::fabric_view::parallel_fan(net);
    let arcs = matches!(net.shape(), Shape::Hypercube { .. });
    let mut geoms = Vec::with_capacity(net.num_network_channels());
    for c in 0..net.num_network_channels() as ChannelId {
        let ch = net.channel(c);
        let (Some(a), Some(b)) = (switch_of(ch.src), switch_of(ch.dst)) else {
            continue;
        };
        let (wa, wb) = (world[a as usize], world[b as usize]);
        let (pa, pb) = (to_screen(wa), to_screen(wb));
        let d = pb - pa;
        let len_world = d.length() / scale.max(1e-6);
        if wraps && len_world > 1.5 * typical {
            // A wrap link: leave `a` outwards, come back into `b` from the
            // opposite edge, like the torus it is.
            let out = (pa - pb).normalized();
            let n = vec2(-out.y, out.x) * offset;
            let stub = out * spacing_px * 0.55;
            geoms.push(ChannelGeom {
                id: c,
                segments: vec![[pa + n, pa + stub + n], [pb - stub + n, pb + n]],
            });
        } else if arcs && len_world > 1.5 * typical {
            // A hypercube link along a row or column that skips switches:
            // an arc (see `hypercube_arc`), so that it does not lie on the
            // links it would pass over.
            // Both directions of a cable on one arc: from its left (or
            // upper) end.
            let forward = if d.x.abs() >= d.y.abs() {
                d.x > 0.0
            } else {
                d.y > 0.0
            };
            let (lo, hi) = if forward { (pa, pb) } else { (pb, pa) };
            let mut points = hypercube_arc(lo, hi, len_world / typical, spacing_px, radius);
            if !forward {
                points.reverse();
            }
            let chord = (pb - pa).normalized();
            let n = vec2(-chord.y, chord.x) * offset;
            geoms.push(ChannelGeom {
                id: c,
                segments: points.windows(2).map(|w| [w[0] + n, w[1] + n]).collect(),
            });
        } else {
            let dir = d.normalized();
            let n = vec2(-dir.y, dir.x) * offset;
            let shrink = dir * radius;
            let f = fan.get(c as usize).copied().unwrap_or(0.0);
            let segments = if f == 0.0 {
                vec![[pa + shrink + n, pb - shrink + n]]
            } else {
                // Bent at its middle, away from its siblings (the same side
                // for both directions of one cable).
                let along = if a < b { dir } else { -dir };
                let mid = pa + d * 0.5 + vec2(-along.y, along.x) * f * (offset * 3.0).max(4.0);
                vec![[pa + shrink + n, mid + n], [mid + n, pb - shrink + n]]
            };
            geoms.push(ChannelGeom { id: c, segments });
        }
    }

    let values = &colouring.values;
    let max = values
        .iter()
        .take(net.num_network_channels())
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let min = values
        .iter()
        .take(net.num_network_channels())
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::MAX, f64::min)
        .min(max);
    let scale = overlay
        .scale_max
        .filter(|m| m.is_finite() && *m > 0.0)
        .unwrap_or(max);
    let norm = |v: f64| if scale > 0.0 { (v / scale) as f32 } else { 0.0 };

    // Hover and click.
    let pointer = response.hover_pos();
    let mut hovered: Option<Selected> = None;
    if let Some(p) = pointer {
        let mut best = (radius + 3.0).max(5.0);
        for (s, w) in world.iter().enumerate() {
            let d = (to_screen(*w) - p).length();
            if d < best {
                best = d;
                hovered = Some(Selected::Switch(s as SwitchId));
            }
        }
        if hovered.is_none() {
            let mut best = (width + 3.0).max(5.0);
            for g in &geoms {
                for seg in &g.segments {
                    let d = dist_to_segment(p, *seg);
                    if d < best {
                        best = d;
                        hovered = Some(Selected::Channel(g.id));
                    }
                }
            }
        }
    }
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
    // Switches.
    for (s, w) in world.iter().enumerate() {
        let c = to_screen(*w);
        let sel = *selected == Some(Selected::Switch(s as SwitchId));
        let hov = hovered == Some(Selected::Switch(s as SwitchId));
        painter.circle_filled(c, radius, theme.switch_fill());
        if sel || hov {
            painter.circle_stroke(c, radius + 2.5, Stroke::new(2.0, theme.selection()));
        }
        if spacing_px > 44.0 {
            // On a patch of background, so coloured channels under the
            // number do not hide it.
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
    for (s, label, color) in &overlay.marks {
        if let Some(w) = world.get(*s as usize) {
            let c = to_screen(*w);
            painter.circle_stroke(c, radius + 3.5, Stroke::new(2.5, *color));
            painter.text(
                c + vec2(-radius - 3.0, -radius - 3.0),
                Align2::RIGHT_BOTTOM,
                label,
                FontId::proportional(13.0),
                *color,
            );
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
    painter.text(
        rect.min + vec2(10.0, 6.0),
        Align2::LEFT_TOP,
        title,
        FontId::proportional(14.0),
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
        (if min == f64::MAX { 0.0 } else { min }, max, scale),
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
    super::colour_scale::paint_bar(painter, bar, theme, false);
    // The title has the view's whole width, not just the bar's (the stage
    // issue: "Utilization (…) (flits/" was cut at the bar's end), in a
    // smaller size where even that is too short; the range sits under the
    // bar between its ends, so the two never overlap.
    let title = format!("{} ({})", colouring.label, colouring.unit);
    let room = (title_right - rect.min.x).max(rect.width());
    let mut size = 11.0;
    let mut galley = painter.layout_no_wrap(title.clone(), FontId::proportional(size), text);
    while galley.size().x > room && size > 8.0 {
        size -= 0.5;
        galley = painter.layout_no_wrap(title.clone(), FontId::proportional(size), text);
    }
    let title_rect = Rect::from_min_max(rect.min, pos2(rect.min.x + room, rect.max.y));
    painter
        .with_clip_rect(title_rect.intersect(painter.clip_rect()))
        .galley(rect.min, galley, text);
    super::colour_scale::paint_ends(painter, bar, "0", &number(scale), text);
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

/// Details of the selection: buffers per VC for a switch, the three values
/// for a channel.
pub fn details_ui(ui: &mut egui::Ui, sim: &Simulation, selected: Selected, theme: Theme) {
    if sim.time_slice().is_some() {
        return super::fat_tree_view::details_ui(ui, sim, selected);
    }
    let net = sim.network();
    let buffer = sim.router().buffer_flits.max(1) as f32;
    match selected {
        Selected::Switch(s) if (s as usize) < net.num_switches() => {
            ui.heading(format!("Switch {s}"));
            super::fabric_view::switch_details_ui(ui, net, s);
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
            if sim.time_slice().is_some() {
                super::fat_tree_view::switch_details_ui(ui, sim, s);
            } else {
                ui.label(format!("Buffered now: {held} of {room} flits"));
            }
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
            super::fabric_view::channel_details_ui(ui, net, c);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The highest point of an arc away from its chord (a row along y = 0).
    fn peak(points: &[Pos2]) -> f32 {
        points.iter().map(|p| p.y).fold(f32::MIN, f32::max)
    }

    #[test]
    fn hypercube_arcs_bulge_below_their_row_less_than_a_row_and_by_length() {
        let (spacing, radius) = (40.0, 6.0);
        let arc = |span: f32| {
            hypercube_arc(
                pos2(0.0, 0.0),
                pos2(span * spacing, 0.0),
                span,
                spacing,
                radius,
            )
        };
        let (three, five, seven, fifteen) = (arc(3.0), arc(5.0), arc(7.0), arc(15.0));
        for points in [&three, &five, &seven, &fifteen] {
            // Below the row (screen y down), never down to the next row.
            assert!(points.iter().all(|p| p.y >= 0.0));
            assert!(peak(points) < spacing, "peak {}", peak(points));
            // From just outside one switch to just outside the other.
            let (first, last) = (points[0], *points.last().unwrap());
            assert!(first.distance(pos2(0.0, 0.0)) < 2.0 * radius);
            assert!(last.x > first.x);
        }
        assert!(peak(&three) < peak(&five) && peak(&five) < peak(&seven));
        // A column bulges to the left.
        let column = hypercube_arc(pos2(0.0, 0.0), pos2(0.0, 120.0), 3.0, spacing, radius);
        assert!(column.iter().all(|p| p.x <= 0.0));
        assert!(column.iter().any(|p| p.x < -spacing * 0.3));
    }
}
