//! Work that must not hold up a frame: a [`Job`] cut into small steps,
//! run on a thread of its own natively and a few milliseconds per frame on
//! the web (no threads there), like the load sweep
//! ([`crate::app::sweep_runner::SweepRunner`]).
//!
//! The owner asks for a [`Job::Snapshot`] whenever it draws; a cancelled or
//! dropped [`Background`] tells its thread to stop after the step it is in.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Arc, Mutex};
use web_time::{Duration, Instant};

/// Work in steps. Each step should be short (a few milliseconds to a few
/// hundred natively); the web build runs whole steps inside one frame.
pub trait Job: Send + 'static {
    /// What the owner sees of the work so far.
    type Snapshot: Clone + Send + 'static;
    /// Do one step; true when nothing is left to do.
    fn step(&mut self) -> bool;
    /// The results so far.
    fn snapshot(&self) -> Self::Snapshot;
}

/// What a thread publishes after every step.
#[cfg(not(target_arch = "wasm32"))]
struct Shared<S> {
    snapshot: S,
    finished: bool,
}

enum Mode<J: Job> {
    /// Natively: a thread steps the job and publishes its snapshot.
    #[cfg(not(target_arch = "wasm32"))]
    Thread {
        shared: Arc<Mutex<Shared<J::Snapshot>>>,
        cancel: Arc<std::sync::atomic::AtomicBool>,
    },
    /// The owner steps the job in [`Background::tick`].
    Frames { job: Box<J>, finished: bool },
    /// Cancelled: the last snapshot, frozen.
    Stopped(J::Snapshot),
}

/// A [`Job`] running in the background.
pub struct Background<J: Job> {
    mode: Mode<J>,
}

impl<J: Job> Background<J> {
    /// Start `job`: on a thread natively (stepped in frames if no thread can
    /// be started), in frames on the web.
    pub fn start(job: J) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use std::sync::atomic::{AtomicBool, Ordering};
            let initial = job.snapshot();
            let shared = Arc::new(Mutex::new(Shared {
                snapshot: initial.clone(),
                finished: false,
            }));
            let cancel = Arc::new(AtomicBool::new(false));
            // The job moves to the thread; if spawning fails it comes back.
            let slot = Arc::new(Mutex::new(Some(job)));
            let (s, c, j) = (shared.clone(), cancel.clone(), slot.clone());
            let spawned = std::thread::Builder::new()
                .name("routelab-analysis".into())
                .spawn(move || {
                    let Some(mut job) = j.lock().ok().and_then(|mut g| g.take()) else {
                        return;
                    };
                    loop {
                        if c.load(Ordering::Relaxed) {
                            break;
                        }
                        let done = job.step();
                        if let Ok(mut p) = s.lock() {
                            p.snapshot = job.snapshot();
                            p.finished = done;
                        }
                        if done {
                            break;
                        }
                    }
                });
            if spawned.is_ok() {
                return Background {
                    mode: Mode::Thread { shared, cancel },
                };
            }
            let job = slot.lock().ok().and_then(|mut g| g.take());
            match job {
                Some(job) => Self::in_frames(job),
                None => Background {
                    mode: Mode::Stopped(initial),
                },
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            Self::in_frames(job)
        }
    }

    /// Start `job` to be stepped by [`Background::tick`] only (the web
    /// build, and tests that want no thread).
    pub fn in_frames(job: J) -> Self {
        Background {
            mode: Mode::Frames {
                job: Box::new(job),
                finished: false,
            },
        }
    }

    /// Step a frame-stepped job for about `budget` (at least one step);
    /// a threaded one needs nothing.
    pub fn tick(&mut self, budget: Duration) {
        if let Mode::Frames { job, finished } = &mut self.mode {
            let start = Instant::now();
            while !*finished {
                *finished = job.step();
                if start.elapsed() >= budget {
                    break;
                }
            }
        }
    }

    /// The results so far.
    pub fn snapshot(&self) -> J::Snapshot {
        match &self.mode {
            #[cfg(not(target_arch = "wasm32"))]
            Mode::Thread { shared, .. } => match shared.lock() {
                Ok(p) => p.snapshot.clone(),
                Err(poisoned) => poisoned.into_inner().snapshot.clone(),
            },
            Mode::Frames { job, .. } => job.snapshot(),
            Mode::Stopped(s) => s.clone(),
        }
    }

    /// True when the job has done its last step (or was cancelled).
    pub fn is_finished(&self) -> bool {
        match &self.mode {
            #[cfg(not(target_arch = "wasm32"))]
            Mode::Thread { shared, .. } => shared.lock().map(|p| p.finished).unwrap_or(true),
            Mode::Frames { finished, .. } => *finished,
            Mode::Stopped(_) => true,
        }
    }

    /// True while it still works.
    pub fn is_running(&self) -> bool {
        !self.is_finished()
    }

    /// Stop after the current step, keeping the results so far.
    pub fn cancel(&mut self) {
        if matches!(self.mode, Mode::Stopped(_)) {
            return;
        }
        let last = self.snapshot();
        #[cfg(not(target_arch = "wasm32"))]
        if let Mode::Thread { cancel, .. } = &self.mode {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.mode = Mode::Stopped(last);
    }
}

impl<J: Job> Drop for Background<J> {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Mode::Thread { cancel, .. } = &self.mode {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts to `n`, one a step.
    struct Count {
        at: u32,
        n: u32,
    }
    impl Job for Count {
        type Snapshot = u32;
        fn step(&mut self) -> bool {
            self.at += 1;
            self.at >= self.n
        }
        fn snapshot(&self) -> u32 {
            self.at
        }
    }

    #[test]
    fn frames_step_until_finished() {
        let mut b = Background::in_frames(Count { at: 0, n: 5 });
        assert!(b.is_running());
        b.tick(Duration::ZERO);
        assert_eq!(b.snapshot(), 1, "at least one step a tick");
        b.tick(Duration::from_secs(5));
        assert!(b.is_finished());
        assert_eq!(b.snapshot(), 5);
    }

    #[test]
    fn a_thread_finishes_and_a_cancel_keeps_the_results() {
        let b = Background::start(Count { at: 0, n: 50 });
        let start = Instant::now();
        while b.is_running() {
            assert!(start.elapsed() < Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(b.snapshot(), 50);
        let mut c = Background::in_frames(Count { at: 0, n: 50 });
        c.tick(Duration::ZERO);
        c.cancel();
        assert!(c.is_finished());
        c.tick(Duration::from_secs(1));
        assert_eq!(c.snapshot(), 1);
    }
}
