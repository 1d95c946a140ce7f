//! Drawing a tour step: the region it points at outlined (the rest of the
//! window dimmed), and a callout beside it with the step's title, text, the
//! paper's section, what the step waits for, and Back / Next / End.

use super::TourRun;
use crate::app::theme::Theme;
use egui::{Align2, Color32, Id, Rect, Stroke, StrokeKind, vec2};

/// Record that `region` (one of [`super::regions`]) was drawn in `rect`
/// this frame.
pub fn mark_rect(ctx: &egui::Context, region: &'static str, rect: Rect) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| d.insert_temp(Id::unique(("tour-region", region)), (rect, pass)));
}

/// Record that `region` is the space `ui` was given.
pub fn mark(ui: &egui::Ui, region: &'static str) {
    mark_rect(ui.ctx(), region, ui.available_rect_before_wrap());
}

/// Where `region` was drawn in this frame or the last one (a panel that
/// is closed is not there).
pub fn region(ctx: &egui::Context, region: &str) -> Option<Rect> {
    let pass = ctx.cumulative_pass_nr();
    let (rect, at) =
        ctx.data(|d| d.get_temp::<(Rect, u64)>(Id::unique(("tour-region", region))))?;
    (at + 1 >= pass).then_some(rect)
}

/// What the user pressed in the callout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourButton {
    Back,
    Next,
    End,
}

/// Draw the current step of `run` over the whole window, pointing at the
/// region the step names where the app drew it ([`mark`]).
pub fn tour_ui(ctx: &egui::Context, run: &TourRun, theme: Theme) -> Option<TourButton> {
    let step = run.current()?;
    let screen = ctx.content_rect();
    let target = step.target.as_deref().and_then(|t| region(ctx, t));
    // Dim everything but the target.
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        Id::unique("tour_dim"),
    ));
    let dim = Color32::from_black_alpha(110);
    match target {
        Some(r) => {
            let r = r.expand(4.0).intersect(screen);
            for band in [
                Rect::from_min_max(screen.min, egui::pos2(screen.max.x, r.min.y)),
                Rect::from_min_max(egui::pos2(screen.min.x, r.max.y), screen.max),
                Rect::from_min_max(
                    egui::pos2(screen.min.x, r.min.y),
                    egui::pos2(r.min.x, r.max.y),
                ),
                Rect::from_min_max(
                    egui::pos2(r.max.x, r.min.y),
                    egui::pos2(screen.max.x, r.max.y),
                ),
            ] {
                if band.is_positive() {
                    painter.rect_filled(band, 0.0, dim);
                }
            }
            painter.rect_stroke(
                r,
                6.0,
                Stroke::new(3.0, theme.highlight()),
                StrokeKind::Outside,
            );
        }
        None => {
            painter.rect_filled(screen, 0.0, Color32::from_black_alpha(60));
        }
    }
    // The callout: beside the target where there is room, else centred.
    let width = 360.0f32.min(screen.width() - 20.0);
    let (pivot, pos) = match target {
        // Beside a tall panel on the left (the scenario panel), at its
        // foot: at its top the card covered the network the first step
        // talks about.
        Some(r)
            if screen.max.x - r.max.x > width + 24.0
                && r.height() > 0.6 * screen.height()
                && r.min.x - screen.min.x < 40.0 =>
        {
            (
                Align2::LEFT_BOTTOM,
                egui::pos2(r.max.x + 16.0, r.max.y.min(screen.max.y - 40.0)),
            )
        }
        Some(r) if screen.max.x - r.max.x > width + 24.0 => (
            Align2::LEFT_TOP,
            egui::pos2(r.max.x + 16.0, r.min.y.max(screen.min.y + 40.0)),
        ),
        Some(r) if r.min.x - screen.min.x > width + 24.0 => (
            Align2::RIGHT_TOP,
            egui::pos2(r.min.x - 16.0, r.min.y.max(screen.min.y + 40.0)),
        ),
        Some(r) if screen.max.y - r.max.y > 200.0 => {
            (Align2::CENTER_TOP, egui::pos2(r.center().x, r.max.y + 16.0))
        }
        _ => (Align2::CENTER_CENTER, screen.center()),
    };
    let mut pressed = None;
    // The tour's name goes in the card, where it wraps: in the title bar
    // a long one was cut short ("Path selection on up*/down* and UDW...").
    egui::Window::new(format!(
        "Tour · step {} of {}",
        run.step + 1,
        run.tour.steps.len()
    ))
    .id(Id::unique("tour_callout"))
    .order(egui::Order::Tooltip)
    .collapsible(false)
    .resizable(false)
    .pivot(pivot)
    .fixed_pos(pos)
    .default_width(width)
    .show(ctx, |ui| {
        ui.set_max_width(width);
        ui.label(egui::RichText::new(&run.tour.title).strong());
        ui.heading(&step.title);
        ui.add_space(4.0);
        // The step's text in the strong colour, not egui's grey body text:
        // it is what a room reads off a projector.
        let strong = ui.visuals().strong_text_color();
        ui.label(egui::RichText::new(&step.text).size(15.0).color(strong));
        if !step.section.is_empty() {
            ui.add_space(4.0);
            ui.label(egui::RichText::new(&step.section).italics().weak());
        }
        if let Some(w) = step.wait.describe() {
            ui.add_space(4.0);
            ui.label(egui::RichText::new(w).color(theme.info()));
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(run.step > 0, egui::Button::new("Back"))
                .on_hover_text("The previous step (its actions run again)")
                .clicked()
            {
                pressed = Some(TourButton::Back);
            }
            let next = if run.is_last() { "Finish" } else { "Next" };
            if ui
                .add_enabled(
                    run.can_advance(),
                    egui::Button::new(next).min_size(vec2(80.0, 0.0)),
                )
                .on_hover_text("Go on (Enter)")
                .on_disabled_hover_text("Enabled when what this step waits for has happened")
                .clicked()
            {
                pressed = Some(if run.is_last() {
                    TourButton::End
                } else {
                    TourButton::Next
                });
            }
            if ui
                .button("End tour")
                .on_hover_text("Leave the tour (Escape); the app stays as it is")
                .clicked()
            {
                pressed = Some(TourButton::End);
            }
        });
    });
    pressed
}
