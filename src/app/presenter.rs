//! Presenter mode, for a talk on a projector: one key (F5) or the View
//! menu turns it on; the UI is scaled up, the side panels give their room
//! to the network views and the curves, and the colours switch to a
//! high-contrast dark scheme that survives a washed-out projector.
//!
//! Keyboard control of what a demo needs works in and out of presenter
//! mode (whenever no text field has the focus): Space plays and pauses,
//! N / Page Down and P / Page Up load the next and previous preset, B
//! swaps the running balancer to the next routing that applies to the
//! network, C starts or stops a comparison, F5 toggles presenter mode.

use super::swap_order;
use super::{AppCommand, RoutelabApp};
use egui::{Color32, Key, Modifiers, Stroke};

/// The UI scale in presenter mode.
pub const ZOOM: f32 = 1.4;

/// Presenter mode's state.
#[derive(Clone, Debug, Default)]
pub struct Presenter {
    pub on: bool,
    /// The mode the look was last set for (to apply changes once).
    applied: Option<bool>,
    /// The look before presenter mode (both themes' styles and the app's
    /// theme), put back exactly when it ends.
    saved: Option<SavedLook>,
}

/// The look presenter mode replaced.
#[derive(Clone, Debug)]
struct SavedLook {
    dark: std::sync::Arc<egui::Style>,
    light: std::sync::Arc<egui::Style>,
    theme: super::theme::Theme,
}

/// A key a presenter presses, and what it does.
pub const KEYS: &[(&str, &str)] = &[
    ("F5", "Presenter mode on or off"),
    ("N or Page Down", "Next preset"),
    ("P or Page Up", "Previous preset"),
    (
        "B",
        "Swap the balancer to the next routing for this network",
    ),
    ("C", "Compare with another routing, or stop comparing"),
    (
        "F6",
        "Start recording a demo, or stop and save it (File > Open replays it)",
    ),
];

/// Whether a URL fragment or query asks for presenter mode (a
/// `presenter` key: `#presenter`, `#scenario=...&presenter`).
pub fn requested(fragment: &str) -> bool {
    fragment
        .trim_start_matches(['#', '?'])
        .split('&')
        .any(|kv| kv == "presenter" || kv.starts_with("presenter="))
}

impl RoutelabApp {
    /// The presenter keys of this frame (none while a text field has the
    /// focus).
    pub(super) fn presenter_keys(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (f5, f6, next, prev, swap, compare) = ctx.input_mut(|i| {
            let mut k = |keys: &[Key]| keys.iter().any(|k| i.consume_key(Modifiers::NONE, *k));
            (
                k(&[Key::F5]),
                k(&[Key::F6]),
                k(&[Key::N, Key::PageDown]),
                k(&[Key::P, Key::PageUp]),
                k(&[Key::B]),
                k(&[Key::C]),
            )
        });
        if f5 {
            self.guides.presenter.on = !self.guides.presenter.on;
        }
        if f6 {
            self.push(AppCommand::RecordDemo);
        }
        if next || prev {
            let n = self.editor.presets.len();
            if n > 0 {
                let now = self
                    .editor
                    .presets
                    .iter()
                    .position(|p| p.scenario == self.session.scenario);
                let i = match (now, next) {
                    (Some(i), true) => (i + 1) % n,
                    (Some(i), false) => (i + n - 1) % n,
                    (None, true) => 0,
                    (None, false) => n - 1,
                };
                self.push(AppCommand::LoadPreset(i));
            }
        }
        if swap {
            match self.next_routing(&self.session.sim.routing_name()) {
                Some(spec) => self.push(AppCommand::SwapRouting {
                    spec,
                    on_compare: false,
                }),
                None => self.info(self.nothing_else_fits()),
            }
        }
        if compare {
            if self.session.compare.is_some() {
                self.push(AppCommand::SetCompare(None));
            } else {
                // The preset's own contrast, else the next routing in the
                // swap order after run A's.
                let pick = self
                    .session
                    .scenario
                    .compare_with
                    .clone()
                    .or_else(|| self.next_routing(&self.session.sim.routing_name()));
                match pick {
                    Some(r) => self.push(AppCommand::SetCompare(Some(r))),
                    None => self.info(self.nothing_else_fits()),
                }
            }
        }
    }

    /// The routings B steps through on this network ([`swap_order`]).
    pub(super) fn swap_order(&self) -> Vec<String> {
        swap_order::swap_order(&self.session.scenario, self.session.sim.network())
    }

    /// Why B or C found nothing: no other routing of the network's family
    /// fits its virtual channels (DOR's presets have 2; RLB needs 8).
    fn nothing_else_fits(&self) -> String {
        format!(
            "No other routing for this network fits its {} virtual channels: set Virtual channels \
             (8 fit every torus routing) and Apply, or pick a preset that compares balancers",
            self.session.scenario.vcs
        )
    }

    /// The routing after `current` in the swap order.
    pub(super) fn next_routing(&self, current: &str) -> Option<String> {
        swap_order::next_after(&self.swap_order(), current)
    }

    /// Make the look follow the mode (once per change).
    pub(super) fn presenter_look(&mut self, ctx: &egui::Context) {
        if self.guides.presenter.applied == Some(self.guides.presenter.on) {
            return;
        }
        self.guides.presenter.applied = Some(self.guides.presenter.on);
        if self.guides.presenter.on {
            self.guides.presenter.saved = Some(SavedLook {
                dark: ctx.style_of(egui::Theme::Dark),
                light: ctx.style_of(egui::Theme::Light),
                theme: self.settings.theme,
            });
            ctx.set_zoom_factor(ZOOM);
            self.settings.theme = super::theme::Theme::Dark;
            self.frame.theme_applied = Some(self.settings.theme);
            self.settings.theme.apply(ctx);
            ctx.all_styles_mut(|s| {
                let v = &mut s.visuals;
                v.override_text_color = Some(Color32::WHITE);
                v.widgets.noninteractive.fg_stroke = Stroke::new(1.5, Color32::WHITE);
                v.widgets.inactive.fg_stroke = Stroke::new(1.5, Color32::WHITE);
                v.widgets.inactive.bg_stroke = Stroke::new(1.0, Color32::from_gray(200));
                v.selection.stroke = Stroke::new(2.0, Color32::from_rgb(255, 220, 0));
            });
        } else {
            ctx.set_zoom_factor(1.0);
            match self.guides.presenter.saved.take() {
                Some(saved) => {
                    ctx.set_style_of(egui::Theme::Dark, saved.dark);
                    ctx.set_style_of(egui::Theme::Light, saved.light);
                    self.settings.theme = saved.theme;
                }
                None => ctx.all_styles_mut(|s| s.visuals.override_text_color = None),
            }
            // The app's own theme is set again on the next frame.
            self.frame.theme_applied = None;
        }
    }
}
