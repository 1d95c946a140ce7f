//! Request success with an admission limit R and a deadline D (the
//! weighted-path paper's `success_rate`), kept by the endpoint layer for
//! switch models that enable it (the time-slice model).
//!
//! A request (a packet; its begin time is its generation slice `g`)
//! succeeds when its access switch takes it within R slices of `g` and it is
//! delivered with latency `< D`, i.e. in one of the D slices `g..g+D`. A
//! request not taken within R slices is dropped at its server
//! ([`Deadlines::rejected`]); one delivered later than that is late. The
//! success rate counts the requests that begin in `[warm-up, T − D]`, whose
//! fate is known by slice `T − 1`: every slice `g` is closed once
//! `g + D − 1` has run ([`Deadlines::close`]).

use std::collections::VecDeque;

/// The success rate of the requests begun in the slices `start..end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SuccessWindow {
    /// First begin slice of the window.
    pub start: u64,
    /// One past the last begin slice.
    pub end: u64,
    /// Succeeded over begun; NaN when none began.
    pub rate: f64,
}

/// Success accounting by begin slice.
#[derive(Clone, Debug)]
pub struct Deadlines {
    admit: u64,
    deadline: u64,
    window: u64,
    /// Begin slices before this one are not measured.
    from: u64,
    /// Open begin slices, `first..`: (begun, succeeded).
    open: VecDeque<(u32, u32)>,
    first: u64,
    /// Closed and measured.
    begun: u64,
    succeeded: u64,
    rejected: u64,
    late: u64,
    /// Lifetime.
    total_begun: u64,
    total_rejected: u64,
    /// Current window of closed begin slices.
    win_begun: u64,
    win_succeeded: u64,
    /// The first begin slice of the current window.
    win_start: u64,
    /// Begin slices before which a window ends early (swaps), ascending.
    splits: VecDeque<u64>,
    windows: Vec<SuccessWindow>,
}

/// Most success windows kept (older ones are dropped in halves).
const MAX_WINDOWS: usize = 20_000;

impl Deadlines {
    /// Admission within `admit` slices, delivery within `deadline` slices
    /// (at least 1), success curves by windows of `window` begin slices.
    pub fn new(admit: u64, deadline: u64, window: u64) -> Deadlines {
        Deadlines {
            admit,
            deadline: deadline.max(1),
            window: window.max(1),
            from: 0,
            open: VecDeque::new(),
            first: 0,
            begun: 0,
            succeeded: 0,
            rejected: 0,
            late: 0,
            total_begun: 0,
            total_rejected: 0,
            win_begun: 0,
            win_succeeded: 0,
            win_start: 0,
            splits: VecDeque::new(),
            windows: Vec::new(),
        }
    }

    /// R: slices a request may wait for its access switch.
    pub fn admit_slices(&self) -> u64 {
        self.admit
    }
    /// D: slices within which a request must be delivered.
    pub fn deadline_slices(&self) -> u64 {
        self.deadline
    }

    fn slot(&mut self, g: u64) -> Option<&mut (u32, u32)> {
        if g < self.first {
            return None;
        }
        let i = (g - self.first) as usize;
        if i >= self.open.len() {
            self.open.resize(i + 1, (0, 0));
        }
        self.open.get_mut(i)
    }

    /// `n` requests begin in slice `g`.
    pub(crate) fn begun(&mut self, g: u64, n: u64) {
        self.total_begun += n;
        if let Some(s) = self.slot(g) {
            s.0 += n as u32;
        }
    }

    /// A request that began in `g` was dropped at its server (not taken
    /// within R slices).
    pub(crate) fn rejected(&mut self, g: u64) {
        self.total_rejected += 1;
        if g >= self.from {
            self.rejected += 1;
        }
    }

    /// A request that began in `g` was delivered in slice `now`.
    pub(crate) fn delivered(&mut self, g: u64, now: u64) {
        if now - g < self.deadline {
            if let Some(s) = self.slot(g) {
                s.1 += 1;
            }
        } else if g >= self.from {
            self.late += 1;
        }
    }

    /// Slice `now` has run: close every begin slice whose deadline has
    /// passed (`g + D − 1 <= now`).
    pub(crate) fn close(&mut self, now: u64) {
        while self.first + self.deadline <= now + 1 {
            let (b, s) = self.open.pop_front().unwrap_or((0, 0));
            let g = self.first;
            self.first += 1;
            if g >= self.from {
                self.begun += b as u64;
                self.succeeded += s as u64;
            }
            self.win_begun += b as u64;
            self.win_succeeded += s as u64;
            while self.splits.front().is_some_and(|&s| s < g + 1) {
                self.splits.pop_front();
            }
            let split = self.splits.front() == Some(&(g + 1));
            if (g + 1).is_multiple_of(self.window) || split {
                if split {
                    self.splits.pop_front();
                }
                if self.windows.len() >= MAX_WINDOWS {
                    self.windows.drain(..MAX_WINDOWS / 2);
                }
                let rate = if self.win_begun > 0 {
                    self.win_succeeded as f64 / self.win_begun as f64
                } else {
                    f64::NAN
                };
                self.windows.push(SuccessWindow {
                    start: self.win_start,
                    end: g + 1,
                    rate,
                });
                self.win_start = g + 1;
                self.win_begun = 0;
                self.win_succeeded = 0;
            }
        }
    }

    /// End the current window of begin slices before slice `g` (a routing
    /// swap at slice `g`: the requests begun from `g` on are the new
    /// routing's), as well as at the multiples of the window.
    pub(crate) fn split_before(&mut self, g: u64) {
        if g > self.win_start && self.splits.back().is_none_or(|&s| s < g) {
            self.splits.push_back(g);
        }
    }

    /// Measure the requests that begin from slice `now` on.
    pub(crate) fn reset(&mut self, now: u64) {
        self.from = now;
        self.begun = 0;
        self.succeeded = 0;
        self.rejected = 0;
        self.late = 0;
    }

    /// Measured requests whose fate is known (begun in `[from, now − D]`).
    pub fn measured(&self) -> u64 {
        self.begun
    }
    /// Of those, the ones that succeeded.
    pub fn succeeded(&self) -> u64 {
        self.succeeded
    }
    /// Succeeded over measured (`None` before any is known).
    pub fn success_rate(&self) -> Option<f64> {
        (self.begun > 0).then(|| self.succeeded as f64 / self.begun as f64)
    }
    /// Measured requests dropped at their server (not taken within R).
    pub fn rejected_requests(&self) -> u64 {
        self.rejected
    }
    /// Measured requests delivered, but not within D.
    pub fn late_requests(&self) -> u64 {
        self.late
    }
    /// Requests ever begun and ever dropped (for conservation checks).
    pub fn lifetime(&self) -> (u64, u64) {
        (self.total_begun, self.total_rejected)
    }
    /// Success rate by windows of begin slices (NaN where none began),
    /// oldest first.
    pub fn windows(&self) -> &[SuccessWindow] {
        &self.windows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D = 3: a request begun in slice 0 succeeds if delivered in 0, 1 or
    /// 2; slice 0 closes once slice 2 has run.
    #[test]
    fn deadline_by_hand() {
        let mut d = Deadlines::new(0, 3, 2);
        d.begun(0, 3);
        d.delivered(0, 2); // latency 2 < 3: success
        d.close(0);
        d.close(1);
        assert_eq!(d.success_rate(), None);
        d.delivered(0, 3); // latency 3: late
        d.rejected(0);
        d.close(2);
        assert_eq!(d.measured(), 3);
        assert_eq!(d.succeeded(), 1);
        assert_eq!(d.late_requests(), 1);
        assert_eq!(d.rejected_requests(), 1);
        d.begun(1, 1);
        d.delivered(1, 1);
        d.close(3);
        assert_eq!(d.success_rate(), Some(0.5));
        assert_eq!(
            d.windows(),
            &[SuccessWindow {
                start: 0,
                end: 2,
                rate: 0.5
            }]
        );
    }

    /// A swap at slice 2 ends the window of begin slices 0..4 early: the
    /// requests begun before it and after it are counted apart, and the
    /// windows then keep to the multiples of 4 again.
    #[test]
    fn a_swap_cuts_the_success_window() {
        let mut d = Deadlines::new(0, 1, 4);
        d.split_before(2);
        d.split_before(2);
        for g in 0..8 {
            d.begun(g, 2);
            if g < 2 {
                // Both of the slice's requests, in their begin slice.
                d.delivered(g, g);
                d.delivered(g, g);
            }
            d.close(g);
        }
        let w: Vec<(u64, u64, f64)> = d
            .windows()
            .iter()
            .map(|w| (w.start, w.end, w.rate))
            .collect();
        assert_eq!(w, vec![(0, 2, 1.0), (2, 4, 0.0), (4, 8, 0.0)]);
    }
}
