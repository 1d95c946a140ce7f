//! Indexing without bounds checks, for the router's hot path only.
//!
//! Profiling (docs/performance.md) showed the per-flit loops spending a
//! tenth of their instructions on bounds checks and on keeping slice lengths
//! alive for them. Every index passed here is built from the router's own
//! tables, never from a routing's answer or a packet's contents:
//! - channel ids from `in_ports`, `sw_out` and `FlitEvent::ch`, all taken from
//!   the [`Network`](crate::topology::Network) in `InputQueued::new`, which
//!   sizes every per-channel array for `num_channels` (or `num_in`);
//! - virtual channels below `V` (bits of the `u16` VC masks, which only ever
//!   set bits below `V`), so `channel · V + vc` stays inside the per-VC
//!   arrays;
//! - ring-buffer slots below the buffer depth;
//! - input-port indices below the switch's port count (busy-port bits are
//!   set only from `InChannel::index`).
//!
//! Indices that come from a routing (candidate ports and VC ranges) stay
//! checked. Debug builds, and so every test (the random-scenario invariant
//! tests included), check every index here too.

/// `s[i]` without the bounds check in release builds.
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn at<T>(s: &[T], i: usize) -> &T {
    debug_assert!(i < s.len(), "index {i} out of {}", s.len());
    // SAFETY: `i < s.len()` by the module's invariants (checked in debug).
    unsafe { s.get_unchecked(i) }
}

/// `&mut s[i]` without the bounds check in release builds.
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn at_mut<T>(s: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < s.len(), "index {i} out of {}", s.len());
    // SAFETY: `i < s.len()` by the module's invariants (checked in debug).
    unsafe { s.get_unchecked_mut(i) }
}
