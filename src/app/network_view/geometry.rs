//! Where the network view draws things: world coordinates to screen
//! ([`ViewTransform`]) and the shape of every channel's line.

use crate::topology::{ChannelId, Endpoint, Network, Shape, SwitchId};
use egui::{Pos2, Rect, pos2, vec2};

/// Screen geometry of one channel: one segment, two stubs for a wrap link,
/// or the segments of a bent link or an arc.
pub(super) struct ChannelGeom {
    pub(super) id: ChannelId,
    pub(super) segments: Vec<[Pos2; 2]>,
}

pub(super) fn switch_of(e: Endpoint) -> Option<SwitchId> {
    match e {
        Endpoint::Switch { switch, .. } => Some(switch),
        Endpoint::Host { .. } => None,
    }
}

pub(super) fn dist_to_segment(p: Pos2, [a, b]: [Pos2; 2]) -> f32 {
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

    /// Half the gap between the two directions of a cable, and the width
    /// of a channel's line, on screen.
    pub fn channel_offset(&self) -> f32 {
        (self.spacing_px * 0.07).clamp(1.0, 4.0)
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
    // A segment per 16 points of chord, 2 to 10: smooth on a small
    // network, few segments on a large one (a 16-cube has a million
    // channels to draw).
    let steps = ((len / 16.0) as usize).clamp(2, 10);
    (0..=steps)
        .map(|k| {
            let t = t0 + (1.0 - 2.0 * t0) * k as f32 / steps as f32;
            let u = 1.0 - t;
            pos2(
                u * u * a.x + 2.0 * u * t * control.x + t * t * b.x,
                u * u * a.y + 2.0 * u * t * control.y + t * t * b.y,
            )
        })
        .collect()
}

/// The screen geometry of every switch-to-switch channel of `net` drawn
/// with `xf`: both directions of a cable side by side; wrap-arounds of tori
/// and midimews as two stubs; hypercube links that skip switches as arcs
/// ([`hypercube_arc`]); parallel cables of an imported fabric as a fan.
pub(super) fn channel_geometry(net: &Network, xf: &ViewTransform) -> Vec<ChannelGeom> {
    let world = net.switch_positions();
    let (scale, typical, wraps) = (xf.scale, xf.typical, xf.wraps);
    let to_screen = |p: [f32; 2]| xf.to_screen(p);
    let (spacing_px, radius) = (xf.spacing_px, xf.radius);
    let offset = xf.channel_offset();
    let fan = crate::app::fabric_view::parallel_fan(net);
    // (Arcs only where they can be seen: on a large hypercube, a few
    // points between switches, they would cost memory and time for
    // nothing.)
    let arcs = matches!(net.shape(), Shape::Hypercube { .. }) && spacing_px >= 12.0;
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
    geoms
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
