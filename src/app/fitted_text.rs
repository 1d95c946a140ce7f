//! Text painted within a width: a view's title or a colour key's label
//! at the largest size that fits, down to a floor, and past that cut with
//! an ellipsis, never clipped mid-letter at a column's edge (the oblivious
//! panel's "Expected: dor:tie=plus (analysis)" title lost its end at
//! 1280 px).

use egui::text::{LayoutJob, TextWrapping};
use egui::{Color32, FontId, Galley, Painter, Pos2};
use std::sync::Arc;

/// `text` laid out on one line within `room` points: at `size`, or
/// smaller in half-point steps down to `floor`, and if it is still too
/// wide, at `floor` cut with "…".
pub fn fitted(
    painter: &Painter,
    text: &str,
    room: f32,
    size: f32,
    floor: f32,
    colour: Color32,
) -> Arc<Galley> {
    let mut s = size;
    loop {
        let galley = painter.layout_no_wrap(text.to_owned(), FontId::proportional(s), colour);
        if galley.size().x <= room {
            return galley;
        }
        if s <= floor {
            break;
        }
        s = (s - 0.5).max(floor);
    }
    let mut job =
        LayoutJob::simple_singleline(text.to_owned(), FontId::proportional(floor), colour);
    job.wrap = TextWrapping {
        max_width: room.max(1.0),
        max_rows: 1,
        break_anywhere: true,
        overflow_character: Some('…'),
    };
    painter.layout_job(job)
}

/// Paint `text` with its top left at `pos`, [`fitted`] within `room`.
pub fn paint_fitted(
    painter: &Painter,
    pos: Pos2,
    text: &str,
    room: f32,
    (size, floor): (f32, f32),
    colour: Color32,
) {
    let galley = fitted(painter, text, room, size, floor, colour);
    painter.galley(pos, galley, colour);
}

#[cfg(test)]
mod tests {
    use super::fitted;

    fn with_painter(f: impl FnOnce(&egui::Painter)) {
        let ctx = egui::Context::default();
        let mut f = Some(f);
        let mut out = ctx.run_ui(Default::default(), |ui| {
            if let Some(f) = f.take() {
                f(ui.painter());
            }
        });
        // No renderer takes the font atlas: drop it on purpose.
        out.textures_delta.clear();
    }

    /// The text a galley shows (an elided one ends in "…").
    fn shown(g: &egui::Galley) -> String {
        g.rows.iter().map(|r| r.text()).collect()
    }

    /// Short text keeps its size; longer text shrinks to fit; text too
    /// long even at the floor ends in an ellipsis within the room.
    #[test]
    fn text_shrinks_then_ends_in_an_ellipsis_within_its_room() {
        with_painter(|p| {
            let short = fitted(p, "torus:8x8", 400.0, 14.0, 10.0, egui::Color32::WHITE);
            let full = p.layout_no_wrap(
                "torus:8x8".into(),
                egui::FontId::proportional(14.0),
                egui::Color32::WHITE,
            );
            assert_eq!(short.size(), full.size());
            assert_eq!(shown(&short), "torus:8x8");

            let title = "torus:8x8 · Expected: dor:tie=plus (analysis)";
            let wide = p
                .layout_no_wrap(
                    title.into(),
                    egui::FontId::proportional(14.0),
                    egui::Color32::WHITE,
                )
                .size()
                .x;
            let shrunk = fitted(p, title, wide * 0.85, 14.0, 10.0, egui::Color32::WHITE);
            assert!(shrunk.size().x <= wide * 0.85, "{}", shrunk.size().x);
            assert_eq!(shown(&shrunk), title, "shrunk, not cut");

            let cut = fitted(p, title, wide * 0.4, 14.0, 10.0, egui::Color32::WHITE);
            assert!(cut.size().x <= wide * 0.4 + 0.5, "{}", cut.size().x);
            let text = shown(&cut);
            assert!(cut.elided && text.ends_with('…'), "{text}");
            assert!(text.starts_with("torus:8x8"), "{text}");
        });
    }
}
