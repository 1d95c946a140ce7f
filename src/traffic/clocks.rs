//! Every host's arrival clock, with the cycle each is next due, so that
//! packet generation visits only the hosts with an arrival this cycle.
//!
//! A clock with no arrival in a cycle draws no random number
//! ([`Arrivals::arrivals_at`] then only compares), so skipping it changes
//! nothing: the due hosts are visited in host order, as a scan of every
//! host would, and the traffic stream's draws are the same.
//!
//! Why not a calendar (hosts filed by their next cycle): at load 0.3 a
//! third of the hosts are due every cycle and the filing costs what it
//! saves (docs/performance.md, "Generation and injection", and "What was
//! tried", passes 4 and 5). The dense array of due cycles is compared 64
//! hosts at a time instead, a few instructions a host, then only the due
//! ones are visited.

use super::injection::{Arrivals, Process};
use crate::rng::SimRng;

/// The arrival clocks of hosts `0..n` (paper-independent: the injection
/// processes of [`super::injection`]).
#[derive(Clone, Debug)]
pub struct HostClocks {
    clocks: Vec<Arrivals>,
    /// Per host: the first cycle its clock's [`Arrivals::arrivals_at`] can
    /// return more than zero or draw, less `origin`, at most `u32::MAX`
    /// ("not before `origin + u32::MAX`"; [`Arrivals::next_cycle_from`]).
    /// 32 bits, so that the compares of [`HostClocks::due_word`] go four
    /// to a 128-bit vector on any x86-64.
    due: Vec<u32>,
    /// The cycle `due` counts from; moved on every 2^31 cycles
    /// ([`HostClocks::due_word`] compares `now - origin`, below 2^31).
    origin: u64,
    /// `origin` as a float (exact: below 2^53).
    origin_f: f64,
}

/// How far `now` runs ahead of the origin before the due cycles are
/// rebased.
const REBASE: u64 = 1 << 31;

impl HostClocks {
    /// `n` clocks of `process` at `rate` packets per cycle, their first
    /// arrivals drawn from cycle `start` on, host by host.
    pub fn new(n: usize, process: Process, rate: f64, start: u64, rng: &mut SimRng) -> Self {
        let clocks: Vec<Arrivals> = (0..n)
            .map(|_| Arrivals::new(process, rate, start, rng))
            .collect();
        let mut out = HostClocks {
            clocks,
            due: vec![0; n],
            origin: start,
            origin_f: start as f64,
        };
        out.rebase(start);
        out
    }

    /// Count the due cycles from `origin` (each recomputed from its clock,
    /// so one beyond the 32-bit range is exact again once in range).
    fn rebase(&mut self, origin: u64) {
        self.origin = origin;
        self.origin_f = origin as f64;
        for (d, c) in self.due.iter_mut().zip(&self.clocks) {
            *d = c.next_cycle_from(self.origin_f);
        }
    }

    /// Number of hosts.
    pub fn len(&self) -> usize {
        self.clocks.len()
    }

    /// True with no hosts.
    pub fn is_empty(&self) -> bool {
        self.clocks.is_empty()
    }

    /// Call once a cycle before [`HostClocks::due_word`]: keeps `now` within
    /// 2^31 cycles of the origin (a pass over the hosts every 2^31 cycles).
    #[inline]
    pub fn advance(&mut self, now: u64) {
        if now.wrapping_sub(self.origin) >= REBASE {
            self.rebase(now);
        }
    }

    /// Bit i set when host `base + i` (of the 64 from `base`, a multiple
    /// of 64) may have an arrival in cycle `now` ([`HostClocks::advance`]d
    /// to `now`). A full word is 64 compares of a fixed-size array, which
    /// the compiler vectorises.
    #[inline]
    pub fn due_word(&self, base: usize, now: u64) -> u64 {
        debug_assert!(now >= self.origin && now - self.origin < REBASE);
        let t = (now - self.origin) as u32;
        let end = (base + 64).min(self.due.len());
        let chunk = &self.due[base..end];
        let mut bits = 0u64;
        if let Ok(full) = <&[u32; 64]>::try_from(chunk) {
            // One byte a host (a loop of compares the compiler vectorises),
            // then eight bytes of 0/1 packed into eight bits by one multiply:
            // byte j of `x` lands on bit 56 + j of `x * MAGIC`, no carries.
            const MAGIC: u64 = 0x0102_0408_1020_4080;
            let mut flags = [0u8; 64];
            for (f, &d) in flags.iter_mut().zip(full) {
                *f = u8::from(d <= t);
            }
            for (j, eight) in flags.chunks_exact(8).enumerate() {
                let x = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
                bits |= (x.wrapping_mul(MAGIC) >> 56) << (8 * j);
            }
        } else {
            for (i, &d) in chunk.iter().enumerate() {
                bits |= u64::from(d <= t) << i;
            }
        }
        bits
    }

    /// Packets host `h` generates in cycle `now` ([`Arrivals::arrivals_at`]),
    /// its due cycle moved on.
    #[inline]
    pub fn arrivals_at(&mut self, h: usize, now: u64, rng: &mut SimRng) -> u32 {
        let clock = &mut self.clocks[h];
        let k = clock.arrivals_at(now, rng);
        self.due[h] = clock.next_cycle_from(self.origin_f);
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    /// The due words visit exactly the hosts a scan of every clock finds
    /// arrivals at, and the two draw the same numbers, for every process,
    /// at rates below and above one packet a cycle, and across a rebase of
    /// the due cycles (a run passing cycle 2^31).
    #[test]
    fn visiting_due_hosts_matches_scanning_every_host() {
        for process in [Process::Bernoulli, Process::Exponential, Process::OnOff] {
            for (rate, start) in [0.0, 0.01, 0.3, 0.99, 1.0, 2.5]
                .into_iter()
                .flat_map(|r| [(r, 3), (r, REBASE + 100)])
            {
                let n = 150;
                let (mut r1, mut r2) = (stream(7, Stream::Traffic), stream(7, Stream::Traffic));
                let mut all: Vec<Arrivals> = (0..n)
                    .map(|_| Arrivals::new(process, rate, start, &mut r1))
                    .collect();
                let mut due = HostClocks::new(n, process, rate, start, &mut r2);
                // An origin so old that the second case rebases 50 cycles in.
                let old = start.saturating_sub(REBASE - 50);
                due.rebase(old);
                for now in start - 3..start + 400 {
                    let scanned: Vec<(usize, u32)> = all
                        .iter_mut()
                        .enumerate()
                        .map(|(h, a)| (h, a.arrivals_at(now, &mut r1)))
                        .filter(|&(_, k)| k > 0)
                        .collect();
                    let mut visited = Vec::new();
                    due.advance(now);
                    for base in (0..n).step_by(64) {
                        let mut bits = due.due_word(base, now);
                        while bits != 0 {
                            let h = base + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let k = due.arrivals_at(h, now, &mut r2);
                            if k > 0 {
                                visited.push((h, k));
                            }
                        }
                    }
                    assert_eq!(visited, scanned, "{process:?} at {rate}, cycle {now}");
                    assert!(due.origin <= now && now - due.origin < REBASE);
                }
                assert_eq!(due.origin != old, start > REBASE, "rebased");
                use rand::RngCore;
                assert_eq!(r1.next_u64(), r2.next_u64(), "{process:?} at {rate}");
            }
        }
    }
}
