//! Progress of long runs on the command line. The trust issue asks that a
//! request taking minutes either be refused or show progress and be
//! cancellable: `routelab sim --cycles 4294967296` is valid (the limit is
//! [`crate::limits::MAX_CYCLES`]) and takes hours, and a network at the
//! largest accepted size (`torus:64x64x64`, 262 144 switches) takes
//! seconds to build and about a second per cycle, so neither may sit
//! silent.
//!
//! Progress is reported by time, not by work: a reporter thread wakes
//! every second and speaks when the interval has passed, whatever the run
//! is doing. Every run of `sim`, `sweep` and `saturation` steps its
//! simulation through [`run_cycles`], in chunks sized to last about
//! [`CHUNK_TIME`] (one cycle at first, then as many as the last chunk's
//! rate fits): the same cycles, in the same order, as one
//! `Simulation::run_for`, so no result changes. What is being built before
//! the cycles start (the network, the routing's tables, the simulation's
//! state) is named with [`phase`]. On standard error:
//! - on a terminal, `sim` shows a bar (cycles, elapsed, time left) once a
//!   command has lasted a second, and a spinner naming what is being built
//!   before the cycles start; `sweep` and `saturation` keep their bar of
//!   loads, which ticks every second;
//! - elsewhere (a log file, a pipe, a test harness), one line 10 s after
//!   the start and every 10 s after, so a short run prints nothing extra:
//!   `routelab: 1234567 of 4294967296 cycles (0.03 %) in 10 s, about 9 h
//!   50 min left; Ctrl-C cancels`, or while building
//!   `routelab: building the network and the routing (torus:64x64x64,
//!   minimal) for 10 s; Ctrl-C cancels`.
//!
//! Ctrl-C cancels: routelab installs no signal handler, so an interrupt
//! ends the process at once, building or running, as it does any Unix
//! filter. The environment variable `ROUTELAB_PROGRESS_INTERVAL_MS` sets
//! the line interval (tests use it to avoid waiting 10 s).

use crate::sim::{SimError, Simulation};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// About how long one chunk of cycles runs between two updates of the
/// cycles done: short next to the reporting interval, long next to the
/// cost of the update.
pub const CHUNK_TIME: Duration = Duration::from_millis(100);

/// Most cycles in one chunk (a cheap network at light load runs millions
/// a second).
pub const MAX_CHUNK: u64 = 1 << 20;

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
    /// What is being built, while no cycle runs yet.
    phase: Option<(String, Instant)>,
    bar: Option<ProgressBar>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// Start reporting for a command. `own_bar` says the command draws its own
/// bar on a terminal (`sweep`, `saturation`); `sim` does not.
pub fn start(own_bar: bool, interval: Duration) {
    let style = if !std::io::stderr().is_terminal() {
        Style::Lines
    } else if own_bar {
        Style::Quiet
    } else {
        Style::Bar
    };
    let now = Instant::now();
    if let Ok(mut s) = STATE.lock() {
        *s = Some(State {
            style,
            interval,
            start: now,
            last_line: now,
            planned: 0,
            done: 0,
            phase: None,
            bar: None,
        });
    }
    if style != Style::Quiet {
        // The reporter: wakes every second (or every interval, if
        // shorter) and ends when `finish` takes the state away.
        let tick = interval.min(Duration::from_secs(1));
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(tick);
                let Ok(mut s) = STATE.lock() else { return };
                let Some(state) = s.as_mut() else { return };
                state.report(Instant::now());
            }
        });
    }
}

/// The interval between progress lines [`start`] was given (for a command
/// that draws its own lines, `campaign`); the default before it.
pub fn interval() -> Duration {
    STATE
        .lock()
        .ok()
        .and_then(|s| s.as_ref().map(|s| s.interval))
        .unwrap_or(crate::env_knobs::DEFAULT_PROGRESS_INTERVAL)
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

/// Name what is being built now (until the cycles start or the next
/// phase), e.g. `the network and the routing (torus:64x64x64, minimal)`.
pub fn phase(what: impl Into<String>) {
    let what = what.into();
    with_state(|s| s.phase = Some((what, Instant::now())));
}

/// Step `sim` `cycles` times, reporting progress when a command started it.
pub fn run_cycles(sim: &mut Simulation, cycles: u64) -> Result<(), SimError> {
    with_state(|s| {
        s.planned += cycles;
        s.phase = None;
    });
    let mut left = cycles;
    let mut chunk = 1u64;
    while left > 0 {
        let n = left.min(chunk);
        let t0 = Instant::now();
        sim.run_for(n)?;
        left -= n;
        with_state(|s| s.done += n);
        chunk = next_chunk(n, t0.elapsed());
    }
    Ok(())
}

/// The next chunk's cycles: as many as ran in [`CHUNK_TIME`] at the last
/// chunk's rate, at most four times the last and [`MAX_CHUNK`], at least 1.
fn next_chunk(n: u64, took: Duration) -> u64 {
    let rate = n as f64 / took.as_secs_f64().max(1e-9);
    let fit = (rate * CHUNK_TIME.as_secs_f64()) as u64;
    fit.clamp(1, (4 * n).min(MAX_CHUNK))
}

fn with_state(f: impl FnOnce(&mut State)) {
    if let Ok(mut s) = STATE.lock()
        && let Some(state) = s.as_mut()
    {
        f(state);
    }
}

impl State {
    /// What the reporter says at `now`.
    fn report(&mut self, now: Instant) {
        let elapsed = now.duration_since(self.start);
        match self.style {
            Style::Quiet => {}
            Style::Lines => {
                if now.duration_since(self.last_line) >= self.interval {
                    self.last_line = now;
                    let line = match &self.phase {
                        Some((what, since)) => phase_line(what, now.duration_since(*since)),
                        None => self.line(elapsed),
                    };
                    eprintln!("{line}");
                }
            }
            Style::Bar => {
                if elapsed < Duration::from_secs(1) {
                    return;
                }
                let bar = self.bar.get_or_insert_with(|| {
                    let bar = ProgressBar::new(self.planned);
                    bar.set_style(
                        ProgressStyle::with_template(&format!(
                            "{{bar:40}} {{human_pos}}/{{human_len}} cycles {{elapsed}}, about {{eta}} left; {CANCEL_HINT}"
                        ))
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    bar
                });
                match &self.phase {
                    Some((what, _)) => bar.set_message(format!("building {what}")),
                    None => bar.set_message(""),
                }
                bar.set_length(self.planned);
                bar.set_position(self.done);
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

/// The line while something is being built.
fn phase_line(what: &str, for_: Duration) -> String {
    format!(
        "routelab: building {what} for {}; {CANCEL_HINT}",
        readable(for_)
    )
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
            phase: None,
            bar: None,
        };
        assert_eq!(
            s.line(Duration::from_secs(10)),
            "routelab: 1000 of 4000 cycles (25.00 %) in 10 s, about 30 s left; Ctrl-C cancels"
        );
    }

    #[test]
    fn chunks_follow_the_rate_within_bounds() {
        // 1000 cycles in 50 ms: 2000 fit in 100 ms, within 4x the last.
        assert_eq!(next_chunk(1000, Duration::from_millis(50)), 2000);
        // A slow network: one cycle in 2 s, so one at a time.
        assert_eq!(next_chunk(1, Duration::from_secs(2)), 1);
        // A fast one grows by at most 4x per chunk, up to MAX_CHUNK.
        assert_eq!(next_chunk(1, Duration::from_nanos(10)), 4);
        assert_eq!(next_chunk(MAX_CHUNK, Duration::from_nanos(10)), MAX_CHUNK);
    }

    #[test]
    fn a_building_line_names_what_and_for_how_long() {
        assert_eq!(
            phase_line("the network (torus:64x64x64)", Duration::from_secs(12)),
            "routelab: building the network (torus:64x64x64) for 12 s; Ctrl-C cancels"
        );
    }
}
