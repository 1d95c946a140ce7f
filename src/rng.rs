//! Seeded random streams. Every stream is a `Pcg64Mcg` (rand_pcg, pinned),
//! whose output is specified bit for bit and identical on native and wasm.
//! One scenario seed gives separate streams for topology, traffic and
//! routing, so two balancers compared on the same seed see identical traffic.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The generator used everywhere in routelab.
pub type SimRng = Pcg64Mcg;

/// Which stream a generator serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Topology = 1,
    Traffic = 2,
    Routing = 3,
    Allocation = 4,
    Pattern = 5,
    /// The engine's acknowledgement routing (delivery feedback).
    Acknowledgement = 6,
}

/// A generator for `stream` derived from the scenario seed (SplitMix64 mixing
/// of seed and stream number, then rand_pcg's own seeding).
pub fn stream(seed: u64, stream: Stream) -> SimRng {
    let mut z = seed ^ (stream as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    Pcg64Mcg::seed_from_u64(z)
}

/// Uniform integer in `0..n` (n > 0) from 32 random bits by Lemire's
/// multiply-shift; portable and cheap. Bias is below n/2³², negligible for
/// the sizes used here, and the result is the same on every platform.
#[inline]
pub fn below(rng: &mut SimRng, n: u32) -> u32 {
    use rand::RngCore;
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// Uniform float in [0, 1) with 53 random bits. (The bits go through a
/// signed integer: the same value below 2^53, and one instruction on
/// x86-64 where an unsigned conversion takes several.)
#[inline]
pub fn unit(rng: &mut SimRng) -> f64 {
    use rand::RngCore;
    ((rng.next_u64() >> 11) as i64) as f64 * (1.0 / (1u64 << 53) as f64)
}
