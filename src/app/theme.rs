//! Colours, for the light and the dark theme, in one place.

use egui::Color32;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

impl Theme {
    /// Make `ctx` use this theme. Panels get no fill of their own: the
    /// frame is cleared to [`Theme::view_background`] (see the app's
    /// `clear_color`), so the pixels behind the panels and the network view
    /// are written once by the clear instead of shaded again by a filled
    /// rectangle each. That matters where the browser rasterises on the CPU
    /// (no GPU): see docs/performance.md, "Web build".
    pub fn apply(self, ctx: &egui::Context) {
        let pref = match self {
            Theme::Dark => egui::ThemePreference::Dark,
            Theme::Light => egui::ThemePreference::Light,
        };
        ctx.set_theme(pref);
        ctx.all_styles_mut(|s| s.visuals.panel_fill = Color32::TRANSPARENT);
    }
    pub fn is_dark(self) -> bool {
        self == Theme::Dark
    }
    /// Switch background and the neutral channel colour.
    pub fn switch_fill(self) -> Color32 {
        if self.is_dark() {
            Color32::from_gray(210)
        } else {
            Color32::from_gray(60)
        }
    }
    /// The app's background: what the frame is cleared to, behind the
    /// panels and the network view.
    pub fn view_background(self) -> Color32 {
        if self.is_dark() {
            Color32::from_rgb(18, 20, 26)
        } else {
            Color32::from_rgb(248, 248, 244)
        }
    }
    pub fn selection(self) -> Color32 {
        if self.is_dark() {
            Color32::from_rgb(90, 200, 255)
        } else {
            Color32::from_rgb(0, 110, 220)
        }
    }
    pub fn error(self) -> Color32 {
        if self.is_dark() {
            Color32::from_rgb(255, 110, 100)
        } else {
            Color32::from_rgb(190, 20, 20)
        }
    }
    pub fn info(self) -> Color32 {
        if self.is_dark() {
            Color32::from_rgb(140, 220, 140)
        } else {
            Color32::from_rgb(20, 120, 40)
        }
    }
    /// The outline of what a guided tour points at.
    pub fn highlight(self) -> Color32 {
        if self.is_dark() {
            Color32::from_rgb(255, 200, 60)
        } else {
            Color32::from_rgb(220, 120, 0)
        }
    }
    /// Series colours: run A, run B.
    pub fn series(self, i: usize) -> Color32 {
        match (i, self.is_dark()) {
            (0, true) => Color32::from_rgb(255, 170, 60),
            (0, false) => Color32::from_rgb(210, 110, 0),
            (_, true) => Color32::from_rgb(110, 180, 255),
            (_, false) => Color32::from_rgb(30, 100, 200),
        }
    }
    /// Colour of a value in `0..=1` on the heat scale (cool, idle channels
    /// recede into the background; hot ones stand out in both themes).
    pub fn heat(self, t: f32) -> Color32 {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        // Stops: idle grey-blue, teal, yellow, orange, red.
        let idle = if self.is_dark() {
            [70.0, 80.0, 105.0]
        } else {
            [185.0, 195.0, 215.0]
        };
        let stops: [[f32; 3]; 5] = [
            idle,
            [40.0, 170.0, 170.0],
            [240.0, 210.0, 50.0],
            [245.0, 130.0, 30.0],
            [215.0, 30.0, 40.0],
        ];
        let x = t * (stops.len() - 1) as f32;
        let i = (x.floor() as usize).min(stops.len() - 2);
        let f = x - i as f32;
        let c = |k: usize| (stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f) as u8;
        Color32::from_rgb(c(0), c(1), c(2))
    }
}
