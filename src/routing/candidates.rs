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
        for c in self.as_slice() {
            // `|`, not `||`: one branch per candidate.
            if (c.port as usize >= ports) | (c.vc_hi >= vcs) | (c.vc_lo > c.vc_hi) {
                return Some(*c);
            }
        }
        None
    }
}
