//! The heat scale's key, drawn the same way under the network view, the
//! fat-tree view and the DRB latency surface: a bar from the theme's
//! coolest to its hottest colour, with the values of its ends under it.

use super::theme::Theme;
use egui::{Align2, Color32, FontId, Rect, pos2};

/// Bands the bar is drawn in (enough that no step shows).
const BANDS: usize = 48;

/// Paint the scale as a horizontal bar filling `bar`, faded to a quarter
/// when `dimmed` (a scale that does not apply to the current view).
pub fn paint_bar(painter: &egui::Painter, bar: Rect, theme: Theme, dimmed: bool) {
    for i in 0..BANDS {
        let x0 = bar.min.x + bar.width() * i as f32 / BANDS as f32;
        let x1 = bar.min.x + bar.width() * (i + 1) as f32 / BANDS as f32 + 0.5;
        let c = theme.heat(i as f32 / (BANDS - 1) as f32);
        painter.rect_filled(
            Rect::from_min_max(pos2(x0, bar.min.y), pos2(x1, bar.max.y)),
            0.0,
            if dimmed { c.gamma_multiply(0.25) } else { c },
        );
    }
}

/// The values of the bar's ends, under it: `low` at its left end, `high`
/// at its right.
pub fn paint_ends(painter: &egui::Painter, bar: Rect, low: &str, high: &str, text: Color32) {
    let at = |x: f32, align: Align2, s: &str| {
        painter.text(
            pos2(x, bar.max.y + 1.0),
            align,
            s,
            FontId::monospace(10.0),
            text,
        );
    };
    at(bar.min.x, Align2::LEFT_TOP, low);
    at(bar.max.x, Align2::RIGHT_TOP, high);
}
