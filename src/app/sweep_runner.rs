//! Runs a load sweep ([`SweepJob`]) without freezing the app: natively on
//! threads of their own, a point on each core at once
//! (`app/sweep_threads.rs`), on the web a few milliseconds of cycles per
//! frame (no threads there).

use super::sweep::{SweepJob, SweepProgress};
use std::sync::{Arc, Mutex};
use web_time::{Duration, Instant};

/// Runs a [`SweepJob`] in the background.
#[derive(Default)]
pub enum SweepRunner {
    #[default]
    Idle,
    /// Natively: a thread works and publishes progress.
    Thread {
        shared: Arc<Mutex<SweepProgress>>,
        cancel: Arc<std::sync::atomic::AtomicBool>,
    },
    /// On the web: the app calls [`SweepRunner::tick`] every frame.
    Frames(Box<SweepJob>),
    /// A finished (or cancelled) sweep's results.
    Done(SweepProgress),
}

/// Wall time given to a frame-budgeted sweep per frame.
pub const FRAME_BUDGET_MS: u64 = 6;

impl SweepRunner {
    pub fn start(job: SweepJob) -> SweepRunner {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use std::sync::atomic::AtomicBool;
            let shared = Arc::new(Mutex::new(job.progress.clone()));
            let cancel = Arc::new(AtomicBool::new(false));
            let (s, c) = (shared.clone(), cancel.clone());
            // Every core: the points are separate simulations, run side by
            // side with the same results (`app/sweep_threads.rs`).
            let workers = std::thread::available_parallelism().map_or(1, usize::from);
            let spawned = std::thread::Builder::new()
                .name("routelab-sweep".into())
                .spawn(move || super::sweep_threads::run(job, workers, &s, &c));
            match spawned {
                Ok(_) => SweepRunner::Thread { shared, cancel },
                Err(e) => SweepRunner::Done(SweepProgress {
                    error: Some(format!("could not start the sweep thread: {e}")),
                    finished: true,
                    ..SweepProgress::default()
                }),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            SweepRunner::Frames(Box::new(job))
        }
    }

    /// Frame-budgeted work (web) and completion checks; call once a frame.
    pub fn tick(&mut self) {
        match self {
            SweepRunner::Frames(job) => {
                let start = Instant::now();
                while start.elapsed() < Duration::from_millis(FRAME_BUDGET_MS) {
                    if job.work(200) {
                        break;
                    }
                }
                if job.progress.finished {
                    *self = SweepRunner::Done(job.progress.clone());
                }
            }
            SweepRunner::Thread { shared, .. } => {
                let p = shared.lock().map(|p| p.clone()).unwrap_or_default();
                if p.finished {
                    *self = SweepRunner::Done(p);
                }
            }
            _ => {}
        }
    }

    pub fn cancel(&mut self) {
        let p = self.progress();
        if let SweepRunner::Thread { cancel, .. } = self {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        *self = SweepRunner::Done(SweepProgress {
            finished: true,
            ..p
        });
    }

    pub fn is_running(&self) -> bool {
        matches!(self, SweepRunner::Thread { .. } | SweepRunner::Frames(_))
    }

    /// Results so far.
    pub fn progress(&self) -> SweepProgress {
        match self {
            SweepRunner::Idle => SweepProgress::default(),
            SweepRunner::Thread { shared, .. } => {
                shared.lock().map(|p| p.clone()).unwrap_or_default()
            }
            SweepRunner::Frames(job) => job.progress.clone(),
            SweepRunner::Done(p) => p.clone(),
        }
    }
}
