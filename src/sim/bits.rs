//! The set bits of a bit-set word, lowest first: how the engine visits only
//! the hosts that are due or ready and the channels that hold flits, in
//! index order, as a scan of every one would meet them.

/// Iterator over `base + i` for every set bit `i` of a word, in increasing
/// order. It owns a copy of the word: clearing bits in the set while
/// iterating does not change what it yields.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ones {
    word: u64,
    base: usize,
}

/// The indices `base + i` of the set bits `i` of `word`, lowest first.
#[inline(always)]
pub(crate) fn ones(word: u64, base: usize) -> Ones {
    Ones { word, base }
}

impl Iterator for Ones {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.word == 0 {
            return None;
        }
        let i = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + i)
    }
}

#[cfg(test)]
mod tests {
    use super::ones;

    #[test]
    fn yields_the_set_bits_in_order_from_the_base() {
        assert_eq!(ones(0, 5).count(), 0);
        assert_eq!(ones(0b1011, 64).collect::<Vec<_>>(), [64, 65, 67]);
        assert_eq!(ones(1 << 63 | 1, 0).collect::<Vec<_>>(), [0, 63]);
        assert_eq!(ones(u64::MAX, 128).count(), 64);
    }
}
