//! A second thread for work that is split in two many thousands of times
//! a second (one cycle's switch allocation, `input_queued/two_threads.rs`;
//! in the app, one cycle of each of two compared runs,
//! `app/session.rs`): [`HelperThread::join`] runs one part on it while the
//! calling thread runs the other, and returns when both are done.
//!
//! Why not rayon's `join` or a scope (which the first version used): a
//! rayon thread that finds no work soon sleeps, and waking it and waiting
//! for it cost about 15 µs a cycle on this project's machine, which is
//! more than a whole `torus:8x8` cycle (docs/performance.md, "Two threads
//! per cycle"). Here the helper spins on an atomic for a while after each
//! part, so that the next one, a few microseconds later, starts within a
//! fraction of a microsecond; after about 50 µs without work it parks, so
//! an idle simulation (a paused app) costs no CPU. A caller that finishes
//! its own part before the helper has started the other (the helper was
//! descheduled on a busy machine, or is slow to wake) runs it itself
//! instead of waiting.
//!
//! No crate offers this hand-off with borrowed (non-`'static`) work: the
//! scoped-thread crates spawn a thread per scope, tens of microseconds.

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// No part posted; the helper spins or parks.
const IDLE: u32 = 0;
/// A part is posted.
const POSTED: u32 = 1;
/// The posted part is being run (by the helper, or by the caller that
/// found it not yet started).
const RUNNING: u32 = 5;
/// The posted part is done (the caller sets `IDLE` again).
const DONE: u32 = 2;
/// The helper parked (from `IDLE`): whoever posts must unpark it.
const PARKED: u32 = 3;
/// The helper is to end.
const QUIT: u32 = 4;

/// How long the helper spins without work before it parks.
const SPIN_BEFORE_PARKING: Duration = Duration::from_micros(50);

/// The helper's part, its lifetime erased: valid from its posting until the
/// caller sees `DONE` (see [`HelperThread::join`]).
type Part = *mut (dyn FnMut() + Send + 'static);

struct Shared {
    state: AtomicU32,
    /// Written by the caller before `POSTED`, read by the helper after it.
    part: UnsafeCell<Option<Part>>,
    /// A panic of the helper's part, handed to the caller after `DONE`.
    panic: UnsafeCell<Option<Box<dyn Any + Send>>>,
}

// SAFETY: `part` and `panic` are each written by one thread and read by
// the other only across the `state` hand-off (Release store, Acquire load
// or compare-exchange), and never by both at once: the caller writes
// `part` while the state is `IDLE` or `PARKED` and reads `panic` after
// `DONE`; the one thread that moves the state from `POSTED` to `RUNNING`
// reads `part` and writes `panic` before `DONE`.
#[allow(unsafe_code)]
unsafe impl Sync for Shared {}
// SAFETY: what crosses threads is the state (atomic), the part (a pointer
// to a `Send` closure, used only as `Sync` above says) and the panic
// payload (`Send`); nothing in `Shared` is tied to the thread that made it.
#[allow(unsafe_code)]
unsafe impl Send for Shared {}

/// A thread that runs one part of the caller's work at a time
/// ([`HelperThread::join`]); it ends when dropped.
pub(crate) struct HelperThread {
    shared: Arc<Shared>,
    thread: Thread,
    handle: Option<JoinHandle<()>>,
}

impl HelperThread {
    /// Start the helper, or say why the system would not.
    pub(crate) fn new() -> Result<HelperThread, String> {
        let shared = Arc::new(Shared {
            state: AtomicU32::new(IDLE),
            part: UnsafeCell::new(None),
            panic: UnsafeCell::new(None),
        });
        let theirs = shared.clone();
        let handle = std::thread::Builder::new()
            .name("routelab-engine".into())
            .spawn(move || helper(&theirs))
            .map_err(|e| format!("engine threads: could not start a second thread: {e}"))?;
        Ok(HelperThread {
            shared,
            thread: handle.thread().clone(),
            handle: Some(handle),
        })
    }

    /// Run `theirs` on the helper while this thread runs `mine`; return
    /// `mine`'s result when both are done. A panic in either part is
    /// raised here, after both are done.
    #[allow(unsafe_code)]
    pub(crate) fn join<R>(&self, theirs: impl FnOnce() + Send, mine: impl FnOnce() -> R) -> R {
        let mut theirs = Some(theirs);
        let mut part = move || {
            if let Some(f) = theirs.take() {
                f();
            }
        };
        let short: *mut (dyn FnMut() + Send + '_) = &mut part;
        // SAFETY: only the lifetime changes (same fat pointer); the helper
        // calls the part before it stores `DONE`, and this function does not
        // return, nor unwind past `part`, before it has seen `DONE` (the
        // guard below waits in its `drop`).
        let long: Part = unsafe { std::mem::transmute(short) };
        let s = &*self.shared;
        // SAFETY: the helper does not touch `part` or `panic` until
        // `POSTED` (the state is `IDLE` or `PARKED` here: the previous join
        // waited for `DONE` and set `IDLE`). A panic left by a part whose
        // caller panicked too is dropped.
        unsafe {
            *s.part.get() = Some(long);
            *s.panic.get() = None;
        }
        if s.state.swap(POSTED, Ordering::AcqRel) == PARKED {
            self.thread.unpark();
        }
        let guard = WaitForHelper(s);
        let r = mine();
        // The helper has not started the part (descheduled by a busy
        // machine, or slow to wake): run it here rather than wait.
        if s.state
            .compare_exchange(POSTED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            run_part(s);
        }
        drop(guard);
        // SAFETY: after `DONE` the helper does not touch `panic` until the
        // next `POSTED`.
        if let Some(p) = unsafe { (*s.panic.get()).take() } {
            resume_unwind(p);
        }
        r
    }
}

/// Waits, when dropped (also while unwinding from a panic of the caller's
/// part), until the helper's part is done, then sets the state back to
/// `IDLE`.
struct WaitForHelper<'a>(&'a Shared);

impl Drop for WaitForHelper<'_> {
    fn drop(&mut self) {
        let mut spins = 0u32;
        while self.0.state.load(Ordering::Acquire) != DONE {
            spins += 1;
            if spins.is_multiple_of(4096) {
                // Both threads on one core (an oversubscribed machine): let
                // the helper run.
                std::thread::yield_now();
            }
            std::hint::spin_loop();
        }
        self.0.state.store(IDLE, Ordering::Release);
    }
}

/// Run the posted part (the state is `RUNNING`, set by whichever thread
/// runs it), keep a panic for the caller, and set `DONE`.
#[allow(unsafe_code)]
fn run_part(s: &Shared) {
    // SAFETY: the caller wrote `part` before `POSTED` and keeps what it
    // points to alive until it sees `DONE`; only the thread that moved the
    // state from `POSTED` to `RUNNING` gets here.
    if let Some(part) = unsafe { (*s.part.get()).take() } {
        // SAFETY: `part` points at the caller's closure, alive and not
        // otherwise borrowed until `DONE` (`HelperThread::join` waits for it
        // before it returns or unwinds); only this thread calls it.
        let f = unsafe { &mut *part };
        if let Err(p) = catch_unwind(AssertUnwindSafe(f)) {
            // SAFETY: the caller reads `panic` only after `DONE`.
            unsafe { *s.panic.get() = Some(p) };
        }
    }
    s.state.store(DONE, Ordering::Release);
}

/// The helper's loop: run each posted part, spin a while for the next,
/// park when none comes.
#[allow(unsafe_code)]
fn helper(s: &Shared) {
    let mut idle_since = Instant::now();
    let mut spins = 0u32;
    loop {
        match s.state.load(Ordering::Acquire) {
            POSTED => {
                if s.state
                    .compare_exchange(POSTED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    run_part(s);
                }
                idle_since = Instant::now();
                spins = 0;
            }
            QUIT => return,
            IDLE => {
                spins += 1;
                if spins.is_multiple_of(256) && idle_since.elapsed() > SPIN_BEFORE_PARKING {
                    if s.state
                        .compare_exchange(IDLE, PARKED, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        while s.state.load(Ordering::Acquire) == PARKED {
                            std::thread::park();
                        }
                    }
                    idle_since = Instant::now();
                    spins = 0;
                } else if spins.is_multiple_of(4096) {
                    std::thread::yield_now();
                }
                std::hint::spin_loop();
            }
            // RUNNING (by the caller), DONE (the caller has not yet set
            // IDLE) or PARKED (a spurious wake-up raced with the loop
            // above): wait.
            _ => std::hint::spin_loop(),
        }
    }
}

impl Drop for HelperThread {
    fn drop(&mut self) {
        if self.shared.state.swap(QUIT, Ordering::AcqRel) == PARKED {
            self.thread.unpark();
        }
        self.thread.unpark();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::HelperThread;

    #[test]
    fn both_parts_run_on_borrowed_data_many_times() {
        let helper = HelperThread::new().unwrap();
        let mut data = vec![0u64; 1000];
        for round in 0..2000u64 {
            let (lo, hi) = data.split_at_mut(500);
            let sum = helper.join(
                || hi.iter_mut().for_each(|x| *x += round),
                || {
                    lo.iter_mut().for_each(|x| *x += round);
                    lo[0]
                },
            );
            assert_eq!(sum, (0..=round).sum::<u64>());
        }
        let total: u64 = (0..2000u64).sum();
        assert!(data.iter().all(|&x| x == total));
    }

    #[test]
    fn the_helper_parks_when_idle_and_wakes_for_the_next_part() {
        let helper = HelperThread::new().unwrap();
        let mut x = 0;
        helper.join(|| x += 1, || ());
        std::thread::sleep(std::time::Duration::from_millis(20));
        helper.join(|| x += 1, || ());
        assert_eq!(x, 2);
    }

    #[test]
    fn a_panic_in_the_helpers_part_reaches_the_caller_after_both_are_done() {
        let helper = HelperThread::new().unwrap();
        let mut mine_done = false;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            helper.join(|| panic!("theirs"), || mine_done = true);
        }));
        assert!(r.is_err());
        assert!(mine_done);
        // The helper still works.
        let mut y = 0;
        helper.join(|| y = 7, || ());
        assert_eq!(y, 7);
    }

    /// The lifetime `join` erases is sound only if it never returns or
    /// unwinds while the helper may still run the part: a panic of the
    /// caller's own part still waits for the helper's, whose borrow is
    /// then over.
    #[test]
    fn a_panic_in_the_callers_part_waits_for_the_helpers() {
        let helper = HelperThread::new().unwrap();
        let mut theirs_done = false;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            helper.join(
                || {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    theirs_done = true;
                },
                || panic!("mine"),
            );
        }));
        assert!(r.is_err());
        assert!(theirs_done, "join unwound before the helper's part ended");
    }
}
