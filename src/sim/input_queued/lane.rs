//! The router's arrays as two threads hold them while each allocates its
//! own half of a cycle's switches (`two_threads.rs`; native builds only).

use super::unchecked::{Family, Slots};

/// One of the router's arrays as two threads see it while each allocates
/// its own half of the switches ([`super::two_threads`]): a pointer to the
/// array's elements, taken once from the array's unique borrow before the
/// threads start, and used only until both have finished.
///
/// **The invariant that makes it sound** (Rust's rule against data races,
/// the only one at stake: no `&mut` to the whole array exists while the
/// threads run): a thread touches only the elements that belong to its own
/// switches (their input channels, their output channels, their busy-port
/// words and round-robin pointers), so no element is read by one thread while the
/// other writes it. `super::two_threads` says why each array keeps it.
pub(super) struct Lane<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> Lane<T> {
    /// A lane over `s`.
    ///
    /// # Safety
    ///
    /// Until the last use of the lane and its copies, `s` is neither moved,
    /// freed nor borrowed otherwise, and the threads holding copies touch
    /// disjoint elements (the type's invariant; `super::two_threads` says
    /// why each array keeps it).
    #[allow(unsafe_code)]
    pub(super) unsafe fn new(s: &mut [T]) -> Self {
        Lane {
            ptr: s.as_mut_ptr(),
            len: s.len(),
        }
    }
}

impl<T> Lane<T> {
    /// The lane's elements as cells (the output VCs: the routing's view of
    /// their credits stays valid while allocation sets their owners, as
    /// with one thread).
    #[allow(unsafe_code)]
    pub(super) fn as_cells(&self) -> &[std::cell::Cell<T>] {
        // SAFETY: `Cell<T>` has `T`'s layout; a shared slice of cells
        // claims no exclusive access, and this thread reads and writes
        // through it only its own switches' elements (the lane's
        // invariant), so no element is raced on.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<std::cell::Cell<T>>(), self.len) }
    }
}

impl<T> Clone for Lane<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Lane<T> {}

// SAFETY: a lane is handed to the second thread only under the invariant
// above (disjoint elements), and its elements are `Send` values.
#[allow(unsafe_code)]
unsafe impl<T: Send> Send for Lane<T> {}

#[allow(unsafe_code)]
impl<T> Slots<T> for Lane<T> {
    #[inline(always)]
    fn at(&self, i: usize) -> &T {
        debug_assert!(i < self.len, "index {i} out of {}", self.len);
        // SAFETY: in bounds (the module's invariants), and element `i` is
        // not written by the other thread (the lane's invariant).
        unsafe { &*self.ptr.add(i) }
    }
    #[inline(always)]
    fn at_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.len, "index {i} out of {}", self.len);
        // SAFETY: as `at`; the other thread neither reads nor writes it.
        unsafe { &mut *self.ptr.add(i) }
    }
    #[inline(always)]
    fn range(&self, lo: usize, hi: usize) -> &[T] {
        debug_assert!(
            lo <= hi && hi <= self.len,
            "range {lo}..{hi} out of {}",
            self.len
        );
        // SAFETY: as `at`, for every element of the range (a switch's own
        // busy-port words).
        unsafe { std::slice::from_raw_parts(self.ptr.add(lo), hi - lo) }
    }
    #[inline(always)]
    fn addr(&self, i: usize) -> *const T {
        self.ptr.wrapping_add(i)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
}

/// Two threads at once: the arrays as [`Lane`]s.
pub(super) struct Shared;
impl Family for Shared {
    type Arr<T> = Lane<T>;
}
