//! What a person can ask of the app besides editing fields
//! ([`AppCommand`]: every button, key, menu item, tour and demo step pushes
//! one; `commands.rs` applies them after the frame is drawn), and the
//! notice under the toolbar ([`Message`]). A leaf of the app: the panels,
//! tours and windows that push commands import this file, not the app.

use super::playback::PlaybackCommand;
use super::swap_cure;
use super::theme::Theme;
use super::tour;
use crate::scenario::Scenario;

/// Everything a person can ask of the app besides editing fields.
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    Playback(PlaybackCommand),
    /// Rebuild with this scenario (if it builds; otherwise nothing changes).
    Apply(Box<Scenario>),
    LoadPreset(usize),
    /// Swap the balancer live, on run A or on the comparison run B.
    SwapRouting {
        spec: String,
        on_compare: bool,
    },
    /// Compare against this routing (or stop comparing).
    SetCompare(Option<String>),
    StartSweep,
    CancelSweep,
    SaveScenario,
    LoadScenario,
    /// Load a scenario from JSON text (a file's contents).
    LoadScenarioText(String),
    CopyLink,
    ExportCurvesCsv,
    ExportSweepCsv,
    ExportPng,
    SetTheme(Theme),
    ToggleHelp,
    /// Open the system file dialog (native only; the answer is applied
    /// when it comes, see `file_dialog`).
    #[cfg(not(target_arch = "wasm32"))]
    OpenFileDialog(super::file_purpose::Purpose),
    /// Start a guided tour (its id, as in `#tour=ID`).
    StartTour(String),
    /// A tour's Back, Next or End.
    Tour(tour::overlay::TourButton),
    /// Start recording a demo, or stop and save it (`demo.json` beside
    /// the scenario file; downloaded on the web).
    RecordDemo,
    /// A refused swap's way out: restart with the scenario the routing
    /// needs and swap at cycle 0 ([`swap_cure`]); `on_compare` swaps run B.
    RestartAndSwap {
        cure: Box<swap_cure::Cure>,
        on_compare: bool,
    },
    /// Stop measuring DRB's threshold for a command that waits for it
    /// ([`super::drb_panel::ThresholdWait`]): that command is not applied.
    CancelThresholdWait,
}

/// A message shown under the toolbar until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub is_error: bool,
    pub text: String,
    /// A button beside the text that does what it proposes (its label and
    /// command).
    pub action: Option<(String, AppCommand)>,
}
