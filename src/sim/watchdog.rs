//! The deadlock watchdog: a run in which flits sit in the network and none
//! moves for `watchdog_cycles` cycles is declared deadlocked.

/// Tracks the last cycle anything moved.
#[derive(Clone, Debug)]
pub struct Watchdog {
    period: u64,
    last_progress: u64,
}

impl Watchdog {
    pub fn new(period: u64) -> Self {
        Watchdog {
            period,
            last_progress: 0,
        }
    }

    /// Something moved (a flit left a buffer or reached a host) in `now`.
    #[inline]
    pub fn progress(&mut self, now: u64) {
        self.last_progress = now;
    }

    /// End of cycle `now` with `in_network` flits inside: the cycles without
    /// progress when that reaches the period, else `None`. An empty network
    /// counts as progress.
    #[inline]
    pub fn check(&mut self, now: u64, in_network: u64) -> Option<u64> {
        if in_network == 0 {
            self.last_progress = now;
            None
        } else {
            let idle = now - self.last_progress;
            (idle >= self.period).then_some(idle)
        }
    }
}
