//! The answer of a routing function at one hop: the allowed next hops, each
//! an output port and an inclusive range of virtual channels, in the
//! routing's order of preference (BookSim's "output set").

use crate::topology::PortId;

/// Most candidates a routing may offer at one hop.
pub const MAX_CANDIDATES: usize = 16;

/// One allowed next hop: an output port and an inclusive range of virtual
/// channels on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Candidate {
    pub port: PortId,
    pub vc_lo: u8,
    pub vc_hi: u8,
}

/// A fixed-capacity list of candidates, in the routing's order of preference.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidates {
    items: [Candidate; MAX_CANDIDATES],
    len: u8,
}

impl Candidates {
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Add a candidate; extra ones beyond [`MAX_CANDIDATES`] are dropped.
    pub fn push(&mut self, port: PortId, vc_lo: u8, vc_hi: u8) {
        if (self.len as usize) < MAX_CANDIDATES {
            self.items[self.len as usize] = Candidate { port, vc_lo, vc_hi };
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The first candidate whose port is not below `ports` or whose VC
    /// range is not inside `0..vcs` (empty ranges included), if any: the
    /// engine refuses such an answer with a named error in every build.
    #[inline]
    pub fn first_invalid(&self, ports: usize, vcs: u8) -> Option<Candidate> {
        let bad =
            |c: &Candidate| (c.port as usize >= ports) | (c.vc_hi >= vcs) | (c.vc_lo > c.vc_hi);
        // One candidate (deterministic routings): no loop.
        if self.len == 1 {
            let c = self.items[0];
            return bad(&c).then_some(c);
        }
        // `|`, not `||` in `bad`: one branch per candidate.
        self.as_slice().iter().find(|c| bad(c)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's check of a routing's answer, with one candidate (its
    /// own path) and with several: the first bad one is named.
    #[test]
    fn first_invalid_names_the_first_bad_candidate() {
        let one = |port, lo, hi| {
            let mut c = Candidates::default();
            c.push(port, lo, hi);
            c.first_invalid(4, 2)
        };
        assert_eq!(one(3, 0, 1), None);
        for (port, lo, hi) in [(4, 0, 1), (0, 0, 2), (0, 1, 0)] {
            assert_eq!(
                one(port, lo, hi),
                Some(Candidate {
                    port,
                    vc_lo: lo,
                    vc_hi: hi
                })
            );
        }
        let mut c = Candidates::default();
        assert_eq!(c.first_invalid(4, 2), None);
        c.push(1, 0, 1);
        c.push(9, 0, 0);
        c.push(2, 3, 3);
        assert_eq!(
            c.first_invalid(4, 2),
            Some(Candidate {
                port: 9,
                vc_lo: 0,
                vc_hi: 0
            })
        );
        assert_eq!(c.first_invalid(10, 4), None);
    }
}
