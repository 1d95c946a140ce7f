//! A time wheel of future events (flit and credit arrivals). Delays are
//! bounded (link latency + switch delay <= 128), so a ring of buckets indexed
//! by `cycle mod size` replaces a priority queue.

/// Buckets of events of type `T`, one per future cycle.
#[derive(Clone, Debug)]
pub struct TimeWheel<T> {
    buckets: Vec<Vec<T>>,
    mask: u64,
}

impl<T> TimeWheel<T> {
    /// A wheel for delays up to `max_delay` cycles.
    pub fn new(max_delay: u64) -> Self {
        let size = (max_delay + 1).next_power_of_two();
        TimeWheel {
            buckets: (0..size).map(|_| Vec::new()).collect(),
            mask: size - 1,
        }
    }
    #[inline]
    pub fn schedule(&mut self, at: u64, ev: T) {
        self.bucket(at).push(ev);
    }
    /// The bucket of cycle `at`: `at & mask` is below `buckets.len()`
    /// (`mask + 1`, set in `new` and never changed), so the index needs no
    /// bounds check, and this is on every flit's and credit's path.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn bucket(&mut self, at: u64) -> &mut Vec<T> {
        let i = (at & self.mask) as usize;
        debug_assert!(i < self.buckets.len());
        // SAFETY: `i <= mask < buckets.len()` (see above).
        unsafe { self.buckets.get_unchecked_mut(i) }
    }
    /// The buckets of cycles `near` and `far`, to push many events into
    /// with no bucket looked up per event (a switch model's sends of one
    /// cycle all go to one or two cycles; [`Sends`]).
    #[inline(always)]
    pub fn sends(&mut self, near: u64, far: u64) -> Sends<'_, T> {
        let buckets = self.buckets.as_mut_ptr();
        // (In range: masked, `mask + 1` buckets.)
        Sends {
            near: buckets.wrapping_add((near & self.mask) as usize),
            far: buckets.wrapping_add((far & self.mask) as usize),
            _wheels: std::marker::PhantomData,
        }
    }
    /// The bucket of cycle `at`, for a loop that pushes many events due
    /// then.
    #[inline(always)]
    pub fn bucket_mut(&mut self, at: u64) -> &mut Vec<T> {
        self.bucket(at)
    }
    /// Take the events due at `now` (the bucket is left empty, its capacity
    /// kept by giving back the vector with [`TimeWheel::give_back`]).
    #[inline]
    pub fn take(&mut self, now: u64) -> Vec<T> {
        std::mem::take(self.bucket(now))
    }
    /// Return a drained vector to keep its allocation.
    #[inline]
    pub fn give_back(&mut self, now: u64, mut v: Vec<T>) {
        v.clear();
        let b = self.bucket(now);
        if b.is_empty() && b.capacity() < v.capacity() {
            *b = v;
        }
    }
    /// Move `other`'s events due at `at` behind this wheel's (`other`'s
    /// bucket is left empty, its capacity kept).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn append_from(&mut self, other: &mut TimeWheel<T>, at: u64) {
        let theirs = other.bucket(at);
        if !theirs.is_empty() {
            self.bucket(at).append(theirs);
        }
    }
    /// Move all of `other`'s events behind this wheel's, bucket by bucket
    /// (the wheels must be of one size).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn append_all_from(&mut self, other: &mut TimeWheel<T>) {
        debug_assert_eq!(self.buckets.len(), other.buckets.len());
        for (mine, theirs) in self.buckets.iter_mut().zip(&mut other.buckets) {
            if !theirs.is_empty() {
                mine.append(theirs);
            }
        }
    }
    /// Move each event for which `to` names a wheel of `others` (of this
    /// wheel's size) onto that wheel, in the same cycle's bucket; the moved
    /// events keep their order on each wheel, behind the events it has,
    /// and the others stay here in theirs.
    pub fn move_where(&mut self, others: &mut [TimeWheel<T>], to: impl Fn(&T) -> Option<usize>) {
        let size = self.buckets.len();
        for (k, bucket) in self.buckets.iter_mut().enumerate() {
            if bucket.is_empty() {
                continue;
            }
            let mut kept = Vec::with_capacity(bucket.capacity());
            for ev in bucket.drain(..) {
                match to(&ev) {
                    Some(w) => {
                        debug_assert_eq!(others[w].buckets.len(), size);
                        others[w].buckets[k].push(ev);
                    }
                    None => kept.push(ev),
                }
            }
            *bucket = kept;
        }
    }
    /// Events still pending.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }
    /// Iterate over pending events (any order).
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.buckets.iter().flatten()
    }
}

/// Two buckets, of one [`TimeWheel`] (possibly one bucket: two cycles a
/// wheel's size apart, or the same cycle; [`TimeWheel::sends`]) or of two
/// ([`Sends::split`]), held for a loop that pushes events into them: the
/// event goes to the near or the far bucket by a select on the flag, not
/// by a lookup of its cycle.
pub struct Sends<'a, T> {
    /// The buckets, in wheels borrowed mutably for `'a`.
    near: *mut Vec<T>,
    far: *mut Vec<T>,
    _wheels: std::marker::PhantomData<&'a mut TimeWheel<T>>,
}

impl<'a, T> Sends<'a, T> {
    /// The bucket of cycle `near` of wheel `near_wheel` and that of cycle
    /// `far` of `far_wheel`.
    #[inline(always)]
    pub fn split(
        near_wheel: &'a mut TimeWheel<T>,
        near: u64,
        far_wheel: &'a mut TimeWheel<T>,
        far: u64,
    ) -> Self {
        Sends {
            near: near_wheel.bucket(near),
            far: far_wheel.bucket(far),
            _wheels: std::marker::PhantomData,
        }
    }

    /// Push `ev` into the far bucket if `far`, else into the near one.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn push(&mut self, far: bool, ev: T) {
        let bucket = if far { self.far } else { self.near };
        // SAFETY: both point at buckets of wheels borrowed mutably for this
        // handle's lifetime (in range: `TimeWheel::sends` masks its
        // indices, `split` takes `TimeWheel::bucket`'s), and no reference
        // into them outlives this call (the two may be the same bucket:
        // each push borrows one at a time).
        unsafe { (*bucket).push(ev) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bucket`'s unchecked index: every cycle, far past the wheel's size,
    /// lands in a bucket of its own residue (a mask gone wrong would index
    /// out of the ring, which debug builds catch).
    #[test]
    fn cycles_past_the_wheels_size_wrap_into_its_buckets() {
        let mut w = TimeWheel::new(5);
        for at in [0u64, 7, 8, 9, 1 << 40, u64::MAX] {
            w.schedule(at, at);
            assert_eq!(w.take(at), vec![at]);
        }
    }

    /// `Sends::push`'s raw buckets: near and far the same bucket (cycles a
    /// wheel's size apart) and two wheels' buckets, each event where a
    /// lookup of its cycle would have put it.
    #[test]
    fn sends_into_one_bucket_twice_and_into_two_wheels() {
        let mut w = TimeWheel::new(3);
        let mut s = w.sends(2, 2 + 4);
        s.push(false, 1);
        s.push(true, 2);
        s.push(false, 3);
        assert_eq!(w.take(2), vec![1, 2, 3]);
        let (mut a, mut b) = (TimeWheel::new(3), TimeWheel::new(3));
        let mut s = Sends::split(&mut a, 1, &mut b, 3);
        s.push(true, 10);
        s.push(false, 11);
        assert_eq!((a.take(1), b.take(3)), (vec![11], vec![10]));
        assert_eq!(a.len() + b.len(), 0);
    }
}
