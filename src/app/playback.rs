//! Playback state, changed only through [`PlaybackCommand`]s (no egui here).
//!
//! The UI, the keyboard and the menus all push commands; the app applies
//! them after drawing. Each frame [`Playback::plan`] says how many cycles to
//! run.

use serde::{Deserialize, Serialize};

/// How fast the simulation runs while playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    /// This many cycles per frame.
    CyclesPerFrame(u32),
    /// As many cycles as fit in a time budget per frame; the view is
    /// refreshed a few times per second.
    AsFastAsPossible,
}

impl Default for Speed {
    fn default() -> Self {
        Speed::CyclesPerFrame(10)
    }
}

impl Speed {
    /// The speeds offered in the UI, slowest first.
    pub const CHOICES: [Speed; 11] = [
        Speed::CyclesPerFrame(1),
        Speed::CyclesPerFrame(2),
        Speed::CyclesPerFrame(5),
        Speed::CyclesPerFrame(10),
        Speed::CyclesPerFrame(20),
        Speed::CyclesPerFrame(50),
        Speed::CyclesPerFrame(100),
        Speed::CyclesPerFrame(200),
        Speed::CyclesPerFrame(500),
        Speed::CyclesPerFrame(1000),
        Speed::AsFastAsPossible,
    ];

    pub fn label(&self) -> String {
        match self {
            Speed::CyclesPerFrame(n) => format!("{n} cycles/frame"),
            Speed::AsFastAsPossible => "as fast as it goes".into(),
        }
    }

    /// The next faster (`+1`) or slower (`-1`) choice.
    pub fn nudged(self, direction: i32) -> Speed {
        let i = Self::CHOICES.iter().position(|s| *s == self).unwrap_or(3) as i32;
        let j = (i + direction).clamp(0, Self::CHOICES.len() as i32 - 1) as usize;
        Self::CHOICES[j]
    }
}

/// Everything a person can ask of playback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybackCommand {
    Play,
    Pause,
    TogglePlay,
    /// Run this many cycles, then stay paused.
    Step(u64),
    SetSpeed(Speed),
    /// Play until the simulation reaches this cycle, then pause.
    RunUntil(u64),
    /// Rebuild the simulation from its scenario (cycle 0), paused.
    Reset,
}

impl PlaybackCommand {
    /// Keyboard shortcut, for the help overlay and tooltips.
    pub fn shortcut(&self) -> Option<&'static str> {
        match self {
            PlaybackCommand::TogglePlay | PlaybackCommand::Play | PlaybackCommand::Pause => {
                Some("Space")
            }
            PlaybackCommand::Step(1) => Some("Right arrow"),
            PlaybackCommand::Reset => Some("R"),
            _ => None,
        }
    }

    /// One line on what the command does (tooltips and help).
    pub fn description(&self) -> String {
        match self {
            PlaybackCommand::Play => "Run the simulation continuously".into(),
            PlaybackCommand::Pause => "Stop running".into(),
            PlaybackCommand::TogglePlay => "Play or pause".into(),
            PlaybackCommand::Step(1) => "Advance exactly one cycle".into(),
            PlaybackCommand::Step(n) => format!("Advance {n} cycles"),
            PlaybackCommand::SetSpeed(s) => format!("Run at {}", s.label()),
            PlaybackCommand::RunUntil(c) => format!("Play until cycle {c}, then pause"),
            PlaybackCommand::Reset => "Rebuild the simulation at cycle 0 (same seed)".into(),
        }
    }
}

/// What to run in one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePlan {
    /// Most cycles to run.
    pub cycles: u64,
    /// Stop early when this much wall time (milliseconds) has passed.
    pub budget_ms: u32,
}

/// Budget for "as fast as it goes": the view refreshes ~10 times a second.
pub const FAST_BUDGET_MS: u32 = 90;
/// Budget cap for fixed speeds, so the UI stays interactive.
pub const FIXED_BUDGET_MS: u32 = 30;

/// Playback state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Playback {
    pub playing: bool,
    pub speed: Speed,
    /// Pause when the simulation reaches this cycle.
    pub run_until: Option<u64>,
    /// Cycles requested by steps, not yet run.
    #[serde(skip)]
    pub pending_steps: u64,
    /// A reset was requested and not yet carried out.
    #[serde(skip)]
    pub reset_requested: bool,
}

impl Playback {
    pub fn apply(&mut self, cmd: PlaybackCommand) {
        match cmd {
            PlaybackCommand::Play => self.playing = true,
            PlaybackCommand::Pause => {
                self.playing = false;
                self.run_until = None;
            }
            PlaybackCommand::TogglePlay => {
                if self.playing {
                    self.apply(PlaybackCommand::Pause)
                } else {
                    self.playing = true
                }
            }
            PlaybackCommand::Step(n) => {
                self.playing = false;
                self.run_until = None;
                self.pending_steps = self.pending_steps.saturating_add(n);
            }
            PlaybackCommand::SetSpeed(s) => self.speed = s,
            PlaybackCommand::RunUntil(c) => {
                self.run_until = Some(c);
                self.playing = true;
            }
            PlaybackCommand::Reset => {
                self.playing = false;
                self.run_until = None;
                self.pending_steps = 0;
                self.reset_requested = true;
            }
        }
    }

    /// How many cycles to run this frame, with the simulation at `now`
    /// and its warm-up ending at cycle `warmup`. Consumes pending steps;
    /// pauses when a run-until target is reached. While playing inside the
    /// warm-up it runs as fast as the frame budget allows, up to the
    /// warm-up's end, and then at the chosen speed (the stage issue: a
    /// 20 000-cycle warm-up at 10 cycles per frame was a minute of grey
    /// network before the first number).
    pub fn plan(&mut self, now: u64, warmup: u64) -> FramePlan {
        if let Some(target) = self.run_until
            && now >= target
        {
            self.run_until = None;
            self.playing = false;
        }
        if self.pending_steps > 0 {
            let n = std::mem::take(&mut self.pending_steps);
            return FramePlan {
                cycles: n,
                budget_ms: u32::MAX,
            };
        }
        if !self.playing {
            return FramePlan {
                cycles: 0,
                budget_ms: 0,
            };
        }
        let (mut cycles, budget_ms) = match self.speed {
            _ if now < warmup => (warmup - now, FAST_BUDGET_MS),
            Speed::CyclesPerFrame(n) => (n as u64, FIXED_BUDGET_MS),
            Speed::AsFastAsPossible => (u64::MAX, FAST_BUDGET_MS),
        };
        if let Some(target) = self.run_until {
            cycles = cycles.min(target.saturating_sub(now));
        }
        FramePlan { cycles, budget_ms }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paused_runs_nothing() {
        let mut p = Playback::default();
        assert_eq!(p.plan(0, 0).cycles, 0);
    }

    #[test]
    fn play_runs_speed_cycles_and_pause_stops() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::SetSpeed(Speed::CyclesPerFrame(20)));
        p.apply(PlaybackCommand::Play);
        assert_eq!(p.plan(0, 0).cycles, 20);
        p.apply(PlaybackCommand::TogglePlay);
        assert!(!p.playing);
        assert_eq!(p.plan(20, 0).cycles, 0);
    }

    #[test]
    fn step_runs_once_and_pauses() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::Play);
        p.apply(PlaybackCommand::Step(7));
        assert!(!p.playing);
        assert_eq!(p.plan(0, 0).cycles, 7);
        assert_eq!(p.plan(7, 0).cycles, 0);
        p.apply(PlaybackCommand::Step(1));
        p.apply(PlaybackCommand::Step(1));
        assert_eq!(p.plan(7, 0).cycles, 2);
    }

    #[test]
    fn run_until_stops_at_target() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::SetSpeed(Speed::CyclesPerFrame(50)));
        p.apply(PlaybackCommand::RunUntil(120));
        assert_eq!(p.plan(0, 0).cycles, 50);
        assert_eq!(p.plan(100, 0).cycles, 20);
        assert_eq!(p.plan(120, 0).cycles, 0);
        assert!(!p.playing);
        assert_eq!(p.run_until, None);
    }

    #[test]
    fn reset_pauses_and_requests_rebuild() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::Play);
        p.apply(PlaybackCommand::Step(3));
        p.apply(PlaybackCommand::Reset);
        assert!(p.reset_requested && !p.playing);
        assert_eq!(p.plan(0, 0).cycles, 0);
    }

    /// Inside the warm-up playing runs flat out to its end, then drops to
    /// the chosen speed.
    #[test]
    fn the_warm_up_runs_at_full_speed() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::SetSpeed(Speed::CyclesPerFrame(10)));
        p.apply(PlaybackCommand::Play);
        let plan = p.plan(0, 20_000);
        assert_eq!(plan.cycles, 20_000);
        assert_eq!(plan.budget_ms, FAST_BUDGET_MS);
        assert_eq!(p.plan(19_990, 20_000).cycles, 10);
        assert_eq!(p.plan(20_000, 20_000).cycles, 10);
        // A step stays a step.
        p.apply(PlaybackCommand::Step(1));
        assert_eq!(p.plan(5, 20_000).cycles, 1);
    }

    #[test]
    fn fastest_speed_is_time_budgeted() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::SetSpeed(Speed::AsFastAsPossible));
        p.apply(PlaybackCommand::Play);
        let plan = p.plan(0, 0);
        assert_eq!(plan.cycles, u64::MAX);
        assert_eq!(plan.budget_ms, FAST_BUDGET_MS);
        assert_eq!(Speed::AsFastAsPossible.nudged(1), Speed::AsFastAsPossible);
        assert_eq!(
            Speed::CyclesPerFrame(1).nudged(-1),
            Speed::CyclesPerFrame(1)
        );
    }
}
