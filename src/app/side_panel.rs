//! The frame every side panel shares (scenario and controls on the left;
//! path selection, DRB and the oblivious analysis on the right): resizable,
//! no wider than a quarter of the window, a tour anchor under its id, a
//! scroll area, and for the right-hand panels a bold title with a Hide
//! button.

use super::tour;

/// Which edge a panel sits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Left,
    Right,
}

/// A panel's title and the Hide button's hover text.
pub struct Heading<'a> {
    pub title: &'a str,
    pub hide_hint: &'a str,
}

/// The widest a side panel may grow (content such as a long description
/// or a row of buffers would otherwise widen it): a quarter of the window,
/// at least 260 points, so that with the scenario panel and two right
/// panels open the network view and the curves keep some room.
pub fn max_width(ui: &egui::Ui) -> f32 {
    (ui.ctx().content_rect().width() * 0.25).max(260.0)
}

/// How wide a panel may grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Up to [`max_width`]: panels whose content wraps (text, tables).
    Capped,
    /// As wide as its content needs: a panel of fixed-width rows (the
    /// oblivious analysis's grids and value columns) would otherwise spill
    /// over the central view.
    Free,
}

/// Show a side panel `id` on `edge`, `default_size` points wide and at
/// most `width`, with `heading` above `body` when given. True when its
/// Hide button was clicked.
pub fn show(
    ui: &mut egui::Ui,
    edge: Edge,
    id: &'static str,
    (default_size, width): (f32, Width),
    heading: Option<Heading<'_>>,
    body: impl FnOnce(&mut egui::Ui),
) -> bool {
    let panel = match edge {
        Edge::Left => egui::Panel::left(id),
        Edge::Right => egui::Panel::right(id),
    };
    // The cap after the default size: egui widens the range to take a
    // default outside it.
    let panel = panel.resizable(true).default_size(default_size);
    let panel = match width {
        Width::Capped => panel.max_size(max_width(ui)),
        Width::Free => panel,
    };
    let mut hide = false;
    panel.show(ui, |ui| {
        tour::overlay::mark(ui, id);
        egui::ScrollArea::vertical()
            .id_salt(format!("{id}_scroll"))
            .show(ui, |ui| {
                match heading {
                    Some(h) => {
                        ui.horizontal(|ui| {
                            ui.label(egui::RichText::new(h.title).strong());
                            hide = ui.small_button("Hide").on_hover_text(h.hide_hint).clicked();
                        });
                        ui.separator();
                    }
                    None => ui.add_space(4.0),
                }
                body(ui);
            });
    });
    hide
}
