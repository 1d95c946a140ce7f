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
//! - candidate ports and VC ranges from a routing only after
//!   `Endpoints::route` has checked the answer (every port below the
//!   switch's port count, every VC below the class's limit, which is at most
//!   `V`); an answer that fails that check stops the run with a named error
//!   before any of its indices is used.
//!
//! Debug builds, and so every test (the random-scenario invariant tests
//! included), check every index here too.

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

/// `&s[lo..hi]` without the bounds checks in release builds (the per-switch
/// port and output slices, whose bounds come from `in_start`/`out_start`).
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn range<T>(s: &[T], lo: usize, hi: usize) -> &[T] {
    debug_assert!(
        lo <= hi && hi <= s.len(),
        "range {lo}..{hi} out of {}",
        s.len()
    );
    // SAFETY: `lo <= hi <= s.len()` by the module's invariants (checked in
    // debug).
    unsafe { s.get_unchecked(lo..hi) }
}
