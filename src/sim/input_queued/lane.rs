//! The router's arrays as two threads hold them while each allocates its
//! own half of a cycle's switches (`two_threads.rs`; native builds only).

use super::in_channel::InChannel;
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
    /// Debug builds: which half owns each element, to catch a thread that
    /// touches another's ([`Lane::owned_by`]).
    #[cfg(debug_assertions)]
    owners: Option<Owners>,
}

/// A lane's element owners (debug builds): element `i` belongs to the half
/// `owner[i / per]` names, and this copy of the lane is half `me`'s.
#[cfg(debug_assertions)]
#[derive(Clone, Copy)]
struct Owners {
    owner: *const u8,
    len: usize,
    per: usize,
    me: u8,
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
            #[cfg(debug_assertions)]
            owners: None,
        }
    }

    /// This lane as half `me` holds it (debug builds only): every element
    /// it indexes is checked to be `me`'s, element `i` being
    /// `owner[i / per]`'s. `owner` outlives the lane's last use
    /// (`super::two_threads::Owners`, kept for the run).
    #[cfg(debug_assertions)]
    pub(super) fn owned_by(self, owner: &[u8], per: usize, me: u8) -> Self {
        debug_assert!(owner.len() * per >= self.len, "an owner map too short");
        Lane {
            owners: Some(Owners {
                owner: owner.as_ptr(),
                len: owner.len(),
                per,
                me,
            }),
            ..self
        }
    }

    /// Debug builds: panic unless elements `lo..hi` are this half's.
    #[cfg(debug_assertions)]
    #[allow(unsafe_code)]
    fn check(&self, lo: usize, hi: usize) {
        let Some(o) = self.owners else { return };
        // SAFETY: `owner` points at `len` bytes that outlive the lane
        // (`Lane::owned_by`) and that nothing writes while it is used.
        let owner = unsafe { std::slice::from_raw_parts(o.owner, o.len) };
        for i in lo..hi {
            assert!(
                owner[i / o.per] == o.me,
                "half {} touched element {i}, half {}'s",
                o.me,
                owner[i / o.per]
            );
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
        #[cfg(debug_assertions)]
        self.check(i, i + 1);
        // SAFETY: in bounds (the module's invariants), and element `i` is
        // not written by the other thread (the lane's invariant).
        unsafe { &*self.ptr.add(i) }
    }
    #[inline(always)]
    fn at_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.len, "index {i} out of {}", self.len);
        #[cfg(debug_assertions)]
        self.check(i, i + 1);
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
        #[cfg(debug_assertions)]
        self.check(lo, hi);
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
    const SHARED: bool = true;
    #[inline(always)]
    #[allow(unsafe_code)]
    fn downstream_switch(inch: &Lane<InChannel>, c: usize) -> u32 {
        debug_assert!(c < inch.len, "channel {c} out of {}", inch.len);
        // SAFETY: in bounds (the module's invariants, checked in debug).
        // The channel may lead into the other half, whose thread may hold
        // a `&mut` to this record while it runs; so no reference to the
        // record is made here, only its one field `switch` is read through
        // a raw place, and no thread writes that field after
        // `InputQueued::new`: a read beside reads, never beside a write.
        unsafe { std::ptr::addr_of!((*inch.ptr.add(c)).switch).read() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lanes of one array, held by two threads at once on disjoint
    /// elements (the even ones and the odd ones): each sees its writes and
    /// the array ends as one thread would have left it.
    #[test]
    #[allow(unsafe_code)]
    fn two_threads_write_disjoint_elements_of_one_array() {
        let mut v = vec![0u32; 1000];
        // SAFETY: `v` is used only through the lanes until both threads
        // are joined, and they touch disjoint elements (parity).
        let lane = unsafe { Lane::new(&mut v) };
        std::thread::scope(|s| {
            for parity in 0..2 {
                let mut l = lane;
                s.spawn(move || {
                    for i in (parity..l.len()).step_by(2) {
                        *l.at_mut(i) = i as u32 + 1;
                        assert_eq!(*l.at(i), i as u32 + 1);
                    }
                });
            }
        });
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32 + 1));
    }

    /// Debug builds: a half that indexes an element of the other's panics
    /// (what `super::two_threads` relies on, checked on every access of
    /// its lanes in every test run).
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "half 0 touched element 2, half 1's")]
    #[allow(unsafe_code)]
    fn a_half_touching_the_others_element_panics_in_debug_builds() {
        let mut v = vec![0u32; 4];
        let owner = [0u8, 1];
        // SAFETY: `v` is used only through the lane in this test.
        let lane = unsafe { Lane::new(&mut v) }.owned_by(&owner, 2, 0);
        assert_eq!(*lane.at(1), 0);
        let _ = lane.at(2);
    }

    /// Debug builds: a range that reaches into the other half's elements
    /// panics too.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "half 1 touched element 1, half 0's")]
    #[allow(unsafe_code)]
    fn a_range_into_the_others_elements_panics_in_debug_builds() {
        let mut v = vec![0u32; 4];
        let owner = [0u8, 1];
        // SAFETY: `v` is used only through the lane in this test.
        let lane = unsafe { Lane::new(&mut v) }.owned_by(&owner, 2, 1);
        let _ = lane.range(1, 4);
    }
}
