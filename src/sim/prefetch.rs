//! Software prefetch for the engine's scattered per-channel records.
//!
//! On large networks (`torus:64x64`: 4.2 MB of flit rings, VC and
//! channel records, and about 5.5 MB with the packet records and
//! statistics, against a 2 MB L2) each flit-hop misses the cache on about eight
//! records in eight arrays (docs/performance.md, "Prefetching on large
//! networks"). The events of a cycle are known before they are handled, so
//! the records of an event a few places ahead are requested while the
//! current one is handled. A prefetch is only a hint: it reads nothing,
//! changes nothing and cannot fault, so results are the same with or
//! without it (and on targets without one, such as WebAssembly, it is a
//! no-op).

/// Ask the cache for the line holding `s[i]` (nothing if `i` is out of
/// range: the address is never formed then).
#[inline(always)]
pub(crate) fn prefetch<T>(s: &[T], i: usize) {
    if i < s.len() {
        prefetch_addr(s.as_ptr().wrapping_add(i));
    }
}

/// Ask the cache for the line holding `p`, an element of a live array (a
/// hint: nothing is read through `p`).
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch_addr<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 has, and
        // reads nothing through the pointer (a hint to the cache, which
        // cannot fault).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hint reads nothing: an index past the end forms no address, and
    /// an address past the end (or a dangling one) is asked for without a
    /// fault, leaving the data as it was.
    #[test]
    fn prefetches_read_nothing_and_never_fault() {
        let v = vec![1u64, 2, 3];
        prefetch(&v, 0);
        prefetch(&v, 3);
        prefetch(&v, usize::MAX);
        prefetch_addr(v.as_ptr().wrapping_add(1 << 30));
        prefetch_addr(std::ptr::null::<u64>());
        assert_eq!(v, [1, 2, 3]);
    }
}
