//! Injection processes: when a host generates packets.
//!
//! Offered load is in flits per host per cycle; with L-flit packets the
//! packet rate is `p = load / L`.
//! - `bernoulli`: each cycle a packet is generated with probability p. It is
//!   sampled by skipping: the gap to the next packet is geometric,
//!   `1 + floor(ln U / ln(1 - p))`, which is the same process drawn with one
//!   random number per packet instead of one per cycle.
//! - `exponential`: a Poisson process of rate p per cycle: continuous
//!   exponential gaps `-ln U / p`; a packet arriving at time t is generated
//!   in cycle floor(t) (several may share a cycle).
//! - `on_off`: bursts. Each host switches between on and off periods of
//!   geometric length, [`ON_OFF_MEAN_SLICES`] steps each on average (so it
//!   is on half the time), and in an on step draws as a Bernoulli host at
//!   rate 2p; off, it sends nothing. The mean rate is p.
//!
//! Above one packet per step (the time-slice model offers several requests
//! per server per slice), a Bernoulli host is n = ⌈p⌉ Bernoulli sources of
//! rate p/n: each step it generates Binomial(n, p/n) packets.
//!
//! Logarithms use `libm`, so the draws are identical on native and wasm.

use crate::rng::{SimRng, unit};
use serde::{Deserialize, Serialize};

/// Which inter-arrival law hosts follow.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Process {
    #[default]
    Bernoulli,
    #[strum(to_string = "exponential", serialize = "poisson")]
    Exponential,
    /// On/off bursts (see the module comment).
    #[strum(to_string = "on_off", serialize = "onoff", serialize = "on-off")]
    OnOff,
}

/// Mean length of an on period and of an off period of the `on_off`
/// process, in steps: ten slices, half the time-slice model's default
/// deadline, so a burst fills buffers for about as long as a request may
/// take, and hosts are on half the time (bursts at twice the mean rate).
pub const ON_OFF_MEAN_SLICES: f64 = 10.0;

crate::spec_options::keyword_enum!(Process);

/// `floor(x)` for `x >= 0`: exact either way, so the same on every
/// platform; below 2^52 it is a conversion to an integer and back, without
/// the data-dependent branches of `libm::floor` (whether the gap is under
/// one cycle is a coin toss at high load, and this runs for every packet).
/// The integer is signed: the same value for `0 <= x < 2^52`, and x86-64
/// converts a signed integer in one instruction each way, where the
/// unsigned round trip took about 20 (callgrind, docs/performance.md
/// "Generation and injection").
#[inline]
fn floor_non_negative(x: f64) -> f64 {
    if x < 4_503_599_627_370_496.0 {
        (x as i64) as f64
    } else {
        libm::floor(x)
    }
}

/// Per-host arrival clock.
#[derive(Clone, Copy, Debug)]
pub struct Arrivals {
    process: Process,
    /// Packets per cycle.
    rate: f64,
    /// Continuous time of the next arrival.
    next: f64,
    /// ln(1 - rate), cached for geometric gaps.
    log_q: f64,
    /// Binomial draws (rates above 1, and on/off): trials per step and
    /// the probability of each; `on` for on/off.
    trials: u32,
    p: f64,
    on: bool,
}

impl Arrivals {
    /// A clock whose first arrival is drawn from `start` on.
    pub fn new(process: Process, rate: f64, start: u64, rng: &mut SimRng) -> Self {
        let mut a = Arrivals {
            process,
            rate,
            next: start as f64,
            log_q: if rate < 1.0 { libm::log1p(-rate) } else { 0.0 },
            trials: 0,
            p: 0.0,
            on: false,
        };
        let per_step = |r: f64| {
            let n = libm::ceil(r).max(1.0);
            (n as u32, r / n)
        };
        if process == Process::OnOff {
            (a.trials, a.p) = per_step(2.0 * rate);
            a.on = unit(rng) < 0.5;
            return a;
        }
        if process == Process::Bernoulli && rate > 1.0 {
            (a.trials, a.p) = per_step(rate);
            return a;
        }
        if process == Process::Bernoulli {
            // First Bernoulli trial is cycle `start` itself.
            a.next -= 1.0;
        }
        a.advance(rng);
        a
    }

    fn advance(&mut self, rng: &mut SimRng) {
        if self.rate <= 0.0 {
            self.next = f64::INFINITY;
            return;
        }
        let u = 1.0 - unit(rng); // (0, 1]
        match self.process {
            Process::Bernoulli => {
                let gap = if self.rate >= 1.0 {
                    1.0
                } else {
                    1.0 + floor_non_negative(libm::log(u) / self.log_q)
                };
                self.next += gap;
            }
            Process::Exponential => self.next += -libm::log(u) / self.rate,
            Process::OnOff => {}
        }
    }

    /// Binomial(trials, p) in one step.
    fn binomial(&self, rng: &mut SimRng) -> u32 {
        (0..self.trials).filter(|_| unit(rng) < self.p).count() as u32
    }

    /// Number of packets generated in cycle `now` (advances the clock).
    #[inline]
    pub fn arrivals_at(&mut self, now: u64, rng: &mut SimRng) -> u32 {
        if self.trials > 0 {
            return self.step_binomial(now, rng);
        }
        let mut count = 0;
        let limit = (now + 1) as f64;
        while self.next < limit {
            count += 1;
            self.advance(rng);
        }
        count
    }

    /// Binomial arrivals (rates above 1 and on/off), one step at a time.
    fn step_binomial(&mut self, now: u64, rng: &mut SimRng) -> u32 {
        if self.rate <= 0.0 || (now as f64) < self.next {
            return 0;
        }
        self.next = now as f64 + 1.0;
        if self.process != Process::OnOff {
            return self.binomial(rng);
        }
        let count = if self.on { self.binomial(rng) } else { 0 };
        if unit(rng) < 1.0 / ON_OFF_MEAN_SLICES {
            self.on = !self.on;
        }
        count
    }

    /// The cycle of the next arrival counted from cycle `origin` (an
    /// integer below 2^53), clamped to `0..=u32::MAX`: the first cycle
    /// in which [`Arrivals::arrivals_at`] can return more than zero or draw
    /// a number is `origin` plus this. `next - origin` is exact for times
    /// below 2^53 (an integer subtracted from a double of at least its
    /// size), and Rust's float-to-integer cast truncates and saturates
    /// (+∞ gives `u32::MAX`, negatives 0), so this is
    /// `min(floor(next) - origin, u32::MAX)` without `floor`'s branches;
    /// it runs for every host due. (A NaN time, which no clock reaches,
    /// gives 0: a host visited each cycle for nothing.)
    #[inline]
    pub fn next_cycle_from(&self, origin: f64) -> u32 {
        (self.next - origin) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::floor_non_negative;

    #[test]
    fn floor_non_negative_matches_libm_floor() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.25,
            0.999_999_999_999,
            1.0,
            2.5,
            1e15 + 0.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1e20,
            f64::INFINITY,
        ];
        xs.extend((0..10_000).map(|i| i as f64 * 0.137));
        for x in xs {
            assert_eq!(floor_non_negative(x), libm::floor(x), "{x}");
            assert_eq!(1.0 + floor_non_negative(x), 1.0 + libm::floor(x), "{x}");
        }
        assert!(floor_non_negative(f64::NAN).is_nan());
    }
}
