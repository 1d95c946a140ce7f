//! Large fat trees (k ≥ [`super::POD_K`]) with their pods folded: the core
//! switches in groups along the top (group g is the cores every pod's
//! aggregate g links to), each pod a block showing its aggregate and access
//! switches' fills, one arrow per direction between a pod and the core row
//! (the busiest of the (k/2)² links it stands for sets its colour, their
//! messages its width). A click on a pod unfolds it to the width of
//! several: its switches as bars, its links and servers; the other pods'
//! arrows fade. A click on its header folds it again.

use super::super::colouring::Selected;
use super::{Ctx, arrow, switch_bar, switch_hover};
use crate::topology::fat_tree_params::Level;
use crate::topology::{ChannelKind, Endpoint, SwitchId};
use egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Role, Sense, Stroke, WidgetInfo, pos2, vec2,
};
use std::collections::HashMap;

/// The accessible name of folded pod `p`'s block (a button).
pub fn pod_label(p: u32, held: u64, room: u64) -> String {
    format!("Pod {p}, folded: {held} of {room} messages buffered; click to unfold")
}

/// The accessible name of the unfolded pod's header (a button).
pub fn fold_label(p: u32) -> String {
    format!("Fold pod {p}")
}

/// Where egui keeps the unfolded pod of network `spec`: one key per
/// network, so in compare mode both runs unfold the same pod.
fn open_key(spec: &str) -> egui::Id {
    egui::Id::unique(("fat_tree_pod", spec))
}

/// Unfold pod `pod` of the fat tree `spec` (`None`: fold them all), as a
/// click on it does; a tour's or demo's `pod` action.
pub fn unfold(ctx: &egui::Context, spec: &str, pod: Option<u32>) {
    ctx.data_mut(|d| d.insert_temp(open_key(spec), pod));
    ctx.request_repaint();
}

/// The pod of `spec` drawn unfolded, if any.
pub fn unfolded(ctx: &egui::Context, spec: &str) -> Option<u32> {
    ctx.data(|d| d.get_temp::<Option<u32>>(open_key(spec)))
        .flatten()
}

/// One arrow to draw: ends, messages, refusals, colour.
struct Arrow {
    a: Pos2,
    b: Pos2,
    crossed: u32,
    refused: u32,
    colour: Color32,
}

/// Where everything of a folded tree goes in its rectangle: the pods'
/// columns (a folded pod one unit wide, the unfolded one as wide as
/// 0.8·(k - 1) of them, about 45 % of the row), the four rows (core,
/// aggregate, access, servers), the core switches in h groups of h with a
/// gap of one between groups, and the unfolded pod's switches and servers.
struct Layout {
    k: u32,
    h: u32,
    /// Access (and aggregate) switches: k·h.
    access: u32,
    open: Option<u32>,
    left: f32,
    wide: f32,
    unit: f32,
    y_core: f32,
    y_agg: f32,
    y_acc: f32,
    y_srv: f32,
    box_h: f32,
    /// A core column's width, and a core bar's.
    cw: f32,
    core_w: f32,
    /// An unfolded pod's switch bar's width, and its share of the pod.
    open_w: f32,
    per_switch: f32,
}

impl Layout {
    fn new(k: u32, open: Option<u32>, inner: Rect) -> Self {
        let k = k.max(2);
        let h = k / 2;
        let wide = 0.8 * (k - 1) as f32;
        let units = if open.is_some() {
            (k - 1) as f32 + wide
        } else {
            k as f32
        };
        let row = |f: f32| inner.top() + inner.height() * f;
        let mut l = Layout {
            k,
            h,
            access: k * h,
            open,
            left: inner.left(),
            wide,
            unit: inner.width() / units,
            y_core: row(0.07),
            y_agg: row(0.40),
            y_acc: row(0.73),
            y_srv: row(0.93),
            box_h: (inner.height() * 0.15).clamp(10.0, 48.0),
            cw: inner.width() / (h * (h + 1) - 1) as f32,
            core_w: 0.0,
            open_w: 4.0,
            per_switch: 0.0,
        };
        l.core_w = (l.cw * 0.6).clamp(3.0, 26.0);
        if let Some(p) = open {
            let (x0, x1) = l.slot(p);
            l.open_w = ((x1 - x0) / h as f32 * 0.55).clamp(4.0, 26.0);
            l.per_switch = (x1 - x0) / h as f32;
        }
        l
    }

    /// Pod `p`'s column, left and right.
    fn slot(&self, p: u32) -> (f32, f32) {
        let w = |q: u32| if Some(q) == self.open { self.wide } else { 1.0 };
        let before = (0..p).map(w).sum::<f32>();
        (
            self.left + before * self.unit,
            self.left + (before + w(p)) * self.unit,
        )
    }

    /// Core switch j's centre.
    fn core_x(&self, j: u32) -> f32 {
        let h = self.h;
        self.left + ((j / h) * (h + 1) + j % h) as f32 * self.cw + self.cw * 0.5
    }

    /// Core group g's centre.
    fn group_x(&self, g: u32) -> f32 {
        (self.core_x(g * self.h) + self.core_x(g * self.h + self.h - 1)) * 0.5
    }

    /// Where switch i of the unfolded pod's level sits.
    fn open_x(&self, i: u32) -> f32 {
        let (x0, x1) = self.open.map(|p| self.slot(p)).unwrap_or((0.0, 0.0));
        x0 + (x1 - x0) * (i as f32 + 0.5) / self.h as f32
    }

    /// The pod of an access or aggregate switch (`u32::MAX` for a core).
    fn pod_of(&self, s: SwitchId) -> u32 {
        match Level::of(self.k, s) {
            Level::Access => s / self.h,
            Level::Aggregate => (s - self.access) / self.h,
            Level::Core => u32::MAX,
        }
    }

    /// A server of the unfolded pod.
    fn host_pos(&self, net: &crate::topology::Network, host: u32) -> Pos2 {
        let h = self.h as f32;
        let a = net.host(host).switch;
        let i = (host % self.h) as f32 + 0.5 - h * 0.5;
        pos2(
            self.open_x(a % self.h) + i * self.per_switch * 0.8 / h,
            self.y_srv,
        )
    }

    /// A switch of the unfolded pod, or a core.
    fn switch_pos(&self, s: SwitchId) -> Pos2 {
        match Level::of(self.k, s) {
            Level::Access => pos2(self.open_x(s % self.h), self.y_acc),
            Level::Aggregate => pos2(self.open_x((s - self.access) % self.h), self.y_agg),
            Level::Core => pos2(self.core_x(s - 2 * self.access), self.y_core),
        }
    }
}

/// The links as arrows: the unfolded pod's one by one, pod-to-core groups
/// summed (those of other pods faded while one is unfolded), and the
/// refusals inside each folded pod counted.
fn links(cx: &Ctx<'_>, l: &Layout) -> (Vec<Arrow>, Vec<Arrow>, Vec<u32>) {
    let net = cx.sim.network();
    let Some(ts) = cx.sim.time_slice() else {
        return (Vec::new(), Vec::new(), vec![0; l.k as usize]);
    };
    let traffic = ts.traffic();
    let (open, box_h, h, access) = (l.open, l.box_h, l.h, l.access);
    let mut arrows = Vec::new();
    let mut faded = Vec::new();
    let mut inside_refused = vec![0u32; l.k as usize];
    // (pod, group, up) -> (messages, refused, largest value).
    let mut summed: HashMap<(u32, u32, bool), (u32, u32, f64)> = HashMap::new();
    for c in net.channels() {
        let crossed = traffic.crossed.get(c.id as usize).copied().unwrap_or(0);
        let refused = traffic.refused.get(c.id as usize).copied().unwrap_or(0);
        let v = cx.value(c.id as usize);
        match (c.src, c.dst) {
            (Endpoint::Switch { switch: a, .. }, Endpoint::Switch { switch: b, .. }) => {
                let (la, lb) = (Level::of(l.k, a), Level::of(l.k, b));
                if la == Level::Core || lb == Level::Core {
                    let (agg, up) = if lb == Level::Core {
                        (a, true)
                    } else {
                        (b, false)
                    };
                    // A folded pod: all its core links as one pair.
                    let pod = l.pod_of(agg);
                    let g = if Some(pod) == open {
                        (agg - access) % h
                    } else {
                        0
                    };
                    let e = summed.entry((pod, g, up)).or_insert((0, 0, 0.0));
                    e.0 += crossed;
                    e.1 += refused;
                    e.2 = e.2.max(v);
                } else if Some(l.pod_of(a)) == open {
                    let (pa, pb) = (l.switch_pos(a), l.switch_pos(b));
                    let dir = (pb - pa).normalized();
                    arrows.push(Arrow {
                        a: pa + dir * box_h * 0.5,
                        b: pb - dir * box_h * 0.5,
                        crossed,
                        refused,
                        colour: cx.colour(c.kind, v),
                    });
                } else {
                    inside_refused[l.pod_of(a) as usize] += refused;
                }
            }
            (Endpoint::Host { host }, Endpoint::Switch { switch, .. })
            | (Endpoint::Switch { switch, .. }, Endpoint::Host { host }) => {
                if Some(l.pod_of(switch)) == open {
                    let (hp, sp) = (l.host_pos(net, host), l.switch_pos(switch));
                    let to_switch = matches!(c.dst, Endpoint::Switch { .. });
                    let (pa, pb) = if to_switch { (hp, sp) } else { (sp, hp) };
                    let dir = (pb - pa).normalized();
                    let (pa, pb) = if to_switch {
                        (pa, pb - dir * box_h * 0.5)
                    } else {
                        (pa + dir * box_h * 0.5, pb)
                    };
                    arrows.push(Arrow {
                        a: pa,
                        b: pb,
                        crossed,
                        refused,
                        colour: cx.colour(c.kind, v),
                    });
                } else {
                    inside_refused[l.pod_of(switch) as usize] += refused;
                }
            }
            _ => {}
        }
    }
    let mut keys: Vec<_> = summed.keys().copied().collect();
    keys.sort_unstable();
    for key in keys {
        let (pod, g, up) = key;
        let (crossed, refused, v) = summed[&key];
        let (pod_end, core_end) = if Some(pod) == open {
            (
                pos2(l.open_x(g), l.y_agg - box_h * 0.5),
                pos2(l.group_x(g), l.y_core + box_h * 0.5 + 3.0),
            )
        } else {
            // Straight up to the core row.
            let (x0, x1) = l.slot(pod);
            let x = (x0 + x1) * 0.5;
            (
                pos2(x, l.y_agg - box_h * 0.5 - 4.0),
                pos2(x, l.y_core + box_h * 0.5 + 3.0),
            )
        };
        let (a, b) = if up {
            (pod_end, core_end)
        } else {
            (core_end, pod_end)
        };
        let colour = cx.colour(ChannelKind::Network, v);
        let arrow = Arrow {
            a,
            b,
            crossed,
            refused,
            colour,
        };
        if open.is_some() && Some(pod) != open {
            faded.push(arrow);
        } else {
            arrows.push(arrow);
        }
    }
    (arrows, faded, inside_refused)
}

/// Paint the arrows, the faded ones first, widths on one scale; returns
/// the most messages an arrow carried.
fn paint_links(painter: &Painter, cx: &Ctx<'_>, arrows: &[Arrow], faded: &[Arrow]) -> u32 {
    let widest = arrows
        .iter()
        .chain(faded)
        .map(|a| a.crossed)
        .max()
        .unwrap_or(0);
    for (set, fade) in [(faded, true), (arrows, false)] {
        for a in set {
            let colour = if fade {
                a.colour.gamma_multiply(0.3)
            } else {
                a.colour
            };
            arrow(
                painter,
                a.a,
                a.b,
                a.crossed,
                a.refused,
                widest as f32,
                colour,
                cx.theme,
            );
        }
    }
    widest
}

/// The core groups, a faint frame each, then the core bars; whether one
/// is hovered.
fn core_row(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    l: &Layout,
    selected: &mut Option<Selected>,
) -> bool {
    let (h, box_h, cw) = (l.h, l.box_h, l.cw);
    let mut hovered = false;
    for g in 0..h {
        let frame = Rect::from_min_max(
            pos2(l.core_x(g * h) - cw * 0.5, l.y_core - box_h * 0.5 - 3.0),
            pos2(
                l.core_x(g * h + h - 1) + cw * 0.5,
                l.y_core + box_h * 0.5 + 3.0,
            ),
        );
        painter.rect_stroke(
            frame,
            3.0,
            Stroke::new(1.0, cx.weak.gamma_multiply(0.5)),
            egui::StrokeKind::Inside,
        );
    }
    for j in 0..h * h {
        let s = (2 * l.access + j) as usize;
        let bar = Rect::from_center_size(pos2(l.core_x(j), l.y_core), vec2(l.core_w, box_h));
        let r = switch_bar(ui, painter, cx, s, bar, selected, cw > 28.0);
        if r.hovered() {
            hovered = true;
            r.on_hover_text(switch_hover(cx, s));
        }
    }
    hovered
}

/// Pod `p`'s block: the rectangle around its aggregate and access rows.
fn pod_block(l: &Layout, p: u32) -> Rect {
    let (x0, x1) = l.slot(p);
    let gap = (x1 - x0) * 0.08;
    Rect::from_min_max(
        pos2(x0 + gap, l.y_agg - l.box_h * 0.5 - 4.0),
        pos2(x1 - gap, l.y_acc + l.box_h * 0.5 + 4.0),
    )
}

/// The unfolded pod `p`: its header (a click folds it: `fold`), its
/// switches as bars and its servers; whether something in it is hovered.
fn open_pod(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    l: &Layout,
    p: u32,
    selected: &mut Option<Selected>,
    fold: &mut bool,
) -> bool {
    let net = cx.sim.network();
    let h = l.h;
    let (x0, x1) = l.slot(p);
    let block = pod_block(l, p);
    let mut hovered = false;
    painter.rect_stroke(
        block.expand(2.0),
        4.0,
        Stroke::new(1.5, cx.theme.selection()),
        egui::StrokeKind::Outside,
    );
    let header = Rect::from_min_size(
        pos2(block.left(), block.top() - 20.0),
        vec2(block.width().min(150.0), 16.0),
    );
    let id = ui.make_persistent_id(("fat_tree_fold", cx.title, p));
    let r = ui.interact(header, id, Sense::click());
    r.widget_info(|| WidgetInfo::labeled(Role::Button, true, fold_label(p)));
    painter.text(
        header.left_center(),
        Align2::LEFT_CENTER,
        format!("Pod {p}: click to fold"),
        FontId::proportional(12.0),
        if r.hovered() {
            cx.theme.selection()
        } else {
            ui.visuals().strong_text_color()
        },
    );
    if r.clicked() {
        *fold = true;
    }
    if r.hovered() {
        hovered = true;
    }
    let hosts_per = h;
    for i in 0..h {
        for (s, y) in [(p * h + i, l.y_acc), (l.access + p * h + i, l.y_agg)] {
            let bar = Rect::from_center_size(pos2(l.open_x(i), y), vec2(l.open_w, l.box_h));
            let r = switch_bar(
                ui,
                painter,
                cx,
                s as usize,
                bar,
                selected,
                (x1 - x0) / h as f32 > 40.0,
            );
            if r.hovered() {
                hovered = true;
                r.on_hover_text(switch_hover(cx, s as usize));
            }
        }
        for j in 0..hosts_per {
            let host = (p * h + i) * hosts_per + j;
            if (host as usize) < net.num_hosts() {
                painter.circle_filled(l.host_pos(net, host), 2.0, cx.weak);
            }
        }
    }
    hovered
}

/// A folded pod `p`: its switches' fills as small bars in one block, a
/// button (a click unfolds it: `unfold`), a red dot when an offer was
/// refused inside it; whether it is hovered.
fn folded_pod(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    l: &Layout,
    p: u32,
    refused_inside: u32,
    unfold: &mut bool,
) -> bool {
    let Some(ts) = cx.sim.time_slice() else {
        return false;
    };
    let params = ts.params();
    let (h, access, box_h) = (l.h, l.access, l.box_h);
    let block = pod_block(l, p);
    let mut held = 0u64;
    let mut room = 0u64;
    let mut fullest = (0.0f32, 0u32);
    let bw = (block.width() / h as f32 * 0.7).max(1.0);
    for i in 0..h {
        for (s, y) in [(access + p * h + i, l.y_agg), (p * h + i, l.y_acc)] {
            let buf = params.get(s as usize).map_or(1, |q| q.buffer.max(1));
            let o = cx.occ.get(s as usize).copied().unwrap_or(0);
            held += o as u64;
            room += buf as u64;
            let fill = o as f32 / buf as f32;
            if fill > fullest.0 {
                fullest = (fill, s);
            }
            let x = block.left() + block.width() * (i as f32 + 0.5) / h as f32;
            let bar = Rect::from_center_size(pos2(x, y), vec2(bw, box_h));
            painter.rect_filled(bar, 1.0, cx.theme.switch_fill().gamma_multiply(0.6));
            let mut level = bar;
            level.set_top(bar.bottom() - bar.height() * fill.clamp(0.0, 1.0));
            painter.rect_filled(level, 1.0, cx.theme.heat(fill));
        }
    }
    let id = ui.make_persistent_id(("fat_tree_pod_block", cx.title, p));
    let r = ui.interact(block, id, Sense::click());
    let label = pod_label(p, held, room);
    r.widget_info(|| WidgetInfo::labeled(Role::Button, true, label.clone()));
    painter.rect_stroke(
        block,
        3.0,
        Stroke::new(
            if r.hovered() { 2.0 } else { 1.0 },
            if r.hovered() {
                cx.theme.selection()
            } else {
                cx.weak
            },
        ),
        egui::StrokeKind::Outside,
    );
    if refused_inside > 0 {
        painter.circle(
            block.right_top(),
            3.5,
            cx.theme.error(),
            Stroke::new(1.0, Color32::BLACK),
        );
    }
    painter.text(
        pos2(block.center().x, l.y_srv),
        Align2::CENTER_CENTER,
        if block.width() > 30.0 {
            format!("pod {p}")
        } else {
            p.to_string()
        },
        FontId::proportional(10.0),
        cx.weak,
    );
    if r.clicked() {
        *unfold = true;
    }
    if !r.hovered() {
        return false;
    }
    r.on_hover_text(format!(
        "pod {p}: access switches {}-{}, aggregate switches {}-{}, {} servers\n{held} of {room} messages buffered; fullest: switch {} at {:.0} %\n{refused_inside} offers refused inside it in the last slice\nclick to unfold",
        p * h,
        p * h + h - 1,
        access + p * h,
        access + p * h + h - 1,
        h * h,
        fullest.1,
        100.0 * fullest.0,
    ));
    true
}

/// Draw the folded tree in `inner`; returns whether a switch or pod is
/// hovered and the most messages an arrow carried in the last slice.
pub(super) fn draw(
    ui: &mut egui::Ui,
    painter: &Painter,
    cx: &Ctx<'_>,
    inner: Rect,
    selected: &mut Option<Selected>,
) -> (bool, u32) {
    if cx.sim.time_slice().is_none() {
        return (false, 0);
    }
    let net = cx.sim.network();
    let k = cx.k.max(2);
    let open = unfolded(ui.ctx(), net.spec()).filter(|&p| p < k);
    let l = Layout::new(k, open, inner);
    let (arrows, faded, inside_refused) = links(cx, &l);
    let widest = paint_links(painter, cx, &arrows, &faded);
    let mut hovered = core_row(ui, painter, cx, &l, selected);
    let mut toggle = None;
    for p in 0..k {
        let mut clicked = false;
        if Some(p) == open {
            hovered |= open_pod(ui, painter, cx, &l, p, selected, &mut clicked);
            if clicked {
                toggle = Some(None);
            }
        } else {
            hovered |= folded_pod(
                ui,
                painter,
                cx,
                &l,
                p,
                inside_refused[p as usize],
                &mut clicked,
            );
            if clicked {
                toggle = Some(Some(p));
            }
        }
    }
    if let Some(t) = toggle {
        unfold(ui.ctx(), net.spec(), t);
    }
    (hovered, widest)
}
