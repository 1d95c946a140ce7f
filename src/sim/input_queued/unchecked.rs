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

use super::in_channel::InChannel;

/// Per-element access to one of the router's arrays, without bounds checks
/// in release builds: a plain slice (one thread, [`Owned`]) or a lane (two
/// threads at once on disjoint elements, `super::lane::Shared`).
pub(super) trait Slots<T> {
    /// `s[i]`.
    fn at(&self, i: usize) -> &T;
    /// `&mut s[i]`.
    fn at_mut(&mut self, i: usize) -> &mut T;
    /// `&s[lo..hi]`.
    fn range(&self, lo: usize, hi: usize) -> &[T];
    /// The address of element `i` (for prefetching: never read through).
    fn addr(&self, i: usize) -> *const T;
    /// Elements.
    fn len(&self) -> usize;
}

impl<T> Slots<T> for [T] {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn at(&self, i: usize) -> &T {
        debug_assert!(i < self.len(), "index {i} out of {}", self.len());
        // SAFETY: `i < len` by the module's invariants (checked in debug).
        unsafe { self.get_unchecked(i) }
    }
    #[inline(always)]
    #[allow(unsafe_code)]
    fn at_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.len(), "index {i} out of {}", self.len());
        // SAFETY: `i < len` by the module's invariants (checked in debug).
        unsafe { self.get_unchecked_mut(i) }
    }
    #[inline(always)]
    #[allow(unsafe_code)]
    fn range(&self, lo: usize, hi: usize) -> &[T] {
        debug_assert!(
            lo <= hi && hi <= self.len(),
            "range {lo}..{hi} out of {}",
            self.len()
        );
        // SAFETY: `lo <= hi <= len` by the module's invariants (checked in
        // debug).
        unsafe { self.get_unchecked(lo..hi) }
    }
    #[inline(always)]
    fn addr(&self, i: usize) -> *const T {
        self.as_ptr().wrapping_add(i)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}

/// How the allocation loop holds the router's arrays: `Arr<T>` is what it
/// indexes.
pub(super) trait Family {
    /// What the loop indexes.
    type Arr<T>: Slots<T> + ?Sized;
    /// Whether another thread holds the same arrays at once (then the loop
    /// touches only its own switches' elements, `super::lane`).
    const SHARED: bool;
    /// The downstream switch of input channel `c` (`InChannel::switch`,
    /// which nothing writes after `InputQueued::new`): the one field of
    /// another switch's record the loop reads (lookahead routing), which
    /// with two threads may be a switch of the other half.
    fn downstream_switch(inch: &Self::Arr<InChannel>, c: usize) -> u32;
}

/// One thread: the arrays as slices (what the loop always was).
pub(super) struct Owned;
impl Family for Owned {
    type Arr<T> = [T];
    const SHARED: bool = false;
    #[inline(always)]
    fn downstream_switch(inch: &[InChannel], c: usize) -> u32 {
        at(inch, c).switch
    }
}

/// `s[i]` without the bounds check in release builds.
#[inline(always)]
pub(super) fn at<T, S: Slots<T> + ?Sized>(s: &S, i: usize) -> &T {
    s.at(i)
}

/// `&mut s[i]` without the bounds check in release builds.
#[inline(always)]
pub(super) fn at_mut<T, S: Slots<T> + ?Sized>(s: &mut S, i: usize) -> &mut T {
    s.at_mut(i)
}

/// `&s[lo..hi]` without the bounds checks in release builds (the per-switch
/// port and output slices, whose bounds come from `in_start`/`out_start`).
#[inline(always)]
pub(super) fn range<T, S: Slots<T> + ?Sized>(s: &S, lo: usize, hi: usize) -> &[T] {
    s.range(lo, hi)
}

/// Ask the cache for `s[i]` ([`crate::sim::prefetch`]; nothing if `i` is
/// out of range).
#[inline(always)]
pub(super) fn prefetch_at<T, S: Slots<T> + ?Sized>(s: &S, i: usize) {
    if i < s.len() {
        crate::sim::prefetch::prefetch_addr(s.addr(i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_in_bounds_read_and_write_their_elements() {
        let mut v = [1, 2, 3, 4];
        assert_eq!(*at(&v[..], 3), 4);
        *at_mut(&mut v[..], 0) = 9;
        assert_eq!(range(&v[..], 0, 2), &[9, 2]);
        assert_eq!(range(&v[..], 4, 4), &[] as &[i32]);
    }

    // The unchecked accesses' one guard is the debug assertion: a broken
    // invariant panics in every test run instead of reading out of bounds.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "index 4 out of 4")]
    fn an_index_out_of_bounds_panics_in_debug_builds() {
        let v = [1, 2, 3, 4];
        let _ = at(&v[..], 4);
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "index 4 out of 4")]
    fn a_mutable_index_out_of_bounds_panics_in_debug_builds() {
        let mut v = [1, 2, 3, 4];
        *at_mut(&mut v[..], 4) = 0;
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "range 2..5 out of 4")]
    fn a_range_out_of_bounds_panics_in_debug_builds() {
        let v = [1, 2, 3, 4];
        let _ = range(&v[..], 2, 5);
    }
}
