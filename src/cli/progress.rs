//! Progress of long runs on the command line. The trust issue asks that a
//! request taking minutes either be refused or show progress and be
//! cancellable: `routelab sim --cycles 4294967296` is valid (the limit is
//! [`crate::limits::MAX_CYCLES`]) and takes hours, so it must not sit silent.
//!
//! Every run of `sim`, `sweep` and `saturation` steps its simulation through
//! [`run_cycles`], in chunks of [`CHUNK`] cycles: the same cycles, in the
//! same order, as one `Simulation::run_for`, so no result changes. The
//! cycles done, summed over the runs a command has going at once, are
//! reported on standard error:
//! - on a terminal, `sim` shows a bar (cycles, elapsed, time left) once a
//!   run has lasted a second; `sweep` and `saturation` keep their bar of
//!   loads, which ticks every second;
//! - elsewhere (a log file, a pipe, a test harness), one line every 10 s,
//!   after the first 10 s, so a short run prints nothing extra:
//!   `routelab: 1234567 of 4294967296 cycles (0.03 %) in 10 s, about 9 h
//!   50 min left; Ctrl-C cancels`.
//!
//! Ctrl-C cancels: routelab installs no signal handler, so an interrupt
//! ends the process at once, as it does any Unix filter. The environment
//! variable `ROUTELAB_PROGRESS_INTERVAL_MS` sets the line interval (tests
//! use it to avoid waiting 10 s).

use crate::sim::{SimError, Simulation};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Cycles stepped between two progress checks: small enough that the
/// slowest model (the time-slice fat tree at k = 16, about 1 300 slices/s)
/// reports within a second, large enough that the check costs nothing.
pub const CHUNK: u64 = 1024;

/// The words every progress line and bar carries; harnesses look for them.
pub const CANCEL_HINT: &str = "Ctrl-C cancels";

/// How a command reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Lines on a non-terminal standard error.
    Lines,
    /// A cycles bar on a terminal (`sim`).
    Bar,
    /// Nothing (a terminal command that has its own bar).
    Quiet,
}

struct State {
    style: Style,
    interval: Duration,
    start: Instant,
    last_line: Instant,
    planned: u64,
    done: u64,
    bar: Option<ProgressBar>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// Start reporting for a command. `own_bar` says the command draws its own
/// bar on a terminal (`sweep`, `saturation`); `sim` does not.
pub fn start(own_bar: bool) {
    let style = if !std::io::stderr().is_terminal() {
        Style::Lines
    } else if own_bar {
        Style::Quiet
    } else {
        Style::Bar
    };
    let interval = std::env::var("ROUTELAB_PROGRESS_INTERVAL_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&ms| ms > 0)
        .map_or(Duration::from_secs(10), Duration::from_millis);
    let now = Instant::now();
    if let Ok(mut s) = STATE.lock() {
        *s = Some(State {
            style,
            interval,
            start: now,
            last_line: now,
            planned: 0,
            done: 0,
            bar: None,
        });
    }
}

/// Stop reporting (and clear the bar).
pub fn finish() {
    if let Ok(mut s) = STATE.lock()
        && let Some(state) = s.take()
        && let Some(bar) = state.bar
    {
        bar.finish_and_clear();
    }
}

/// Step `sim` `cycles` times, reporting progress when a command started it.
pub fn run_cycles(sim: &mut Simulation, cycles: u64) -> Result<(), SimError> {
    with_state(|s| s.planned += cycles);
    let mut left = cycles;
    while left > 0 {
        let n = left.min(CHUNK);
        sim.run_for(n)?;
        left -= n;
        with_state(|s| s.advance(n));
    }
    Ok(())
}

fn with_state(f: impl FnOnce(&mut State)) {
    if let Ok(mut s) = STATE.lock()
        && let Some(state) = s.as_mut()
    {
        f(state);
    }
}

impl State {
    fn advance(&mut self, n: u64) {
        self.done += n;
        let now = Instant::now();
        match self.style {
            Style::Quiet => {}
            Style::Lines => {
                if now.duration_since(self.last_line) >= self.interval {
                    self.last_line = now;
                    eprintln!("{}", self.line(now.duration_since(self.start)));
                }
            }
            Style::Bar => {
                if self.bar.is_none() && now.duration_since(self.start) >= Duration::from_secs(1) {
                    let bar = ProgressBar::new(self.planned);
                    bar.set_style(
                        ProgressStyle::with_template(&format!(
                            "{{bar:40}} {{human_pos}}/{{human_len}} cycles {{elapsed}}, about {{eta}} left; {CANCEL_HINT}"
                        ))
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    self.bar = Some(bar);
                }
                if let Some(bar) = &self.bar {
                    bar.set_length(self.planned);
                    bar.set_position(self.done);
                }
            }
        }
    }

    fn line(&self, elapsed: Duration) -> String {
        let left = if self.done == 0 {
            "time left unknown".to_string()
        } else {
            let rest = (self.planned - self.done.min(self.planned)) as f64 / self.done as f64;
            format!(
                "about {} left",
                readable(Duration::from_secs_f64(elapsed.as_secs_f64() * rest))
            )
        };
        format!(
            "routelab: {} of {} cycles ({:.2} %) in {}, {left}; {CANCEL_HINT}",
            self.done,
            self.planned,
            100.0 * self.done as f64 / self.planned.max(1) as f64,
            readable(elapsed),
        )
    }
}

/// `42 s`, `12 min`, `3 h 5 min`.
fn readable(d: Duration) -> String {
    let s = d.as_secs();
    if s < 90 {
        format!("{s} s")
    } else if s < 90 * 60 {
        format!("{} min", (s + 30) / 60)
    } else {
        let m = (s + 30) / 60;
        format!("{} h {} min", m / 60, m % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(readable(Duration::from_secs(42)), "42 s");
        assert_eq!(readable(Duration::from_secs(12 * 60 + 10)), "12 min");
        assert_eq!(
            readable(Duration::from_secs(3 * 3600 + 5 * 60)),
            "3 h 5 min"
        );
    }

    #[test]
    fn a_line_gives_cycles_share_and_time_left() {
        let now = Instant::now();
        let s = State {
            style: Style::Lines,
            interval: Duration::from_secs(10),
            start: now,
            last_line: now,
            planned: 4000,
            done: 1000,
            bar: None,
        };
        assert_eq!(
            s.line(Duration::from_secs(10)),
            "routelab: 1000 of 4000 cycles (25.00 %) in 10 s, about 30 s left; Ctrl-C cancels"
        );
    }
}
