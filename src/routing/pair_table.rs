//! A routing's answers kept per (switch, destination switch): what a
//! routing whose answer depends on nothing else can hand the engine, so
//! that a hop is a lookup instead of a call (the linear forwarding table of
//! an InfiniBand switch, one candidate per destination, here for every
//! switch at once).

use super::Candidate;
use crate::topology::{Network, PortId, SwitchId};

/// The first candidate at every switch for every destination switch, at
/// `at · N + destination` (N switches); a routing offers it through
/// [`Routing::pair_table`](super::Routing::pair_table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairTable {
    switches: usize,
    answers: Vec<Candidate>,
}

/// An entry with no answer: the switch is the destination itself (the
/// endpoint layer ejects there before it asks), or the routing has no
/// route, which the engine reports as it reports an empty answer.
pub(crate) const NO_ANSWER: Candidate = Candidate {
    port: PortId::MAX,
    vc_lo: 0,
    vc_hi: 0,
};

impl PairTable {
    /// The table of `answer(at, destination)` for every pair of the
    /// `switches` switches (`None`: no answer).
    pub fn build(
        switches: u32,
        mut answer: impl FnMut(SwitchId, SwitchId) -> Option<Candidate>,
    ) -> Self {
        let mut answers = Vec::with_capacity(switches as usize * switches as usize);
        for at in 0..switches {
            for dst in 0..switches {
                let a = answer(at, dst);
                // (An answer on port 65 535 would read as none: no switch
                // has that many ports.)
                debug_assert!(a.is_none_or(|a| a.port != NO_ANSWER.port), "port 65535");
                answers.push(a.unwrap_or(NO_ANSWER));
            }
        }
        PairTable {
            switches: switches as usize,
            answers,
        }
    }

    /// The answer at switch `at` for destination switch `dst`. Both must be
    /// switches of the network the table was built for (the index is
    /// bounds-checked).
    #[inline(always)]
    pub fn get(&self, at: SwitchId, dst: SwitchId) -> Option<Candidate> {
        let a = self.answers[at as usize * self.switches + dst as usize];
        (a.port != NO_ANSWER.port).then_some(a)
    }

    /// Switches the table covers.
    pub fn switches(&self) -> usize {
        self.switches
    }

    /// Whether every answer is one the engine accepts on `net` with VCs
    /// `0..vcs` (its port exists at its switch and its VC range is inside
    /// `0..vcs`), and the table covers `net`'s switches. The engine uses a
    /// table only then; otherwise it asks [`Routing::route`](super::Routing::route)
    /// hop by hop, which reports a bad answer where a packet meets it.
    pub fn fits(&self, net: &Network, vcs: u8) -> bool {
        self.switches == net.num_switches()
            && (0..self.switches as u32).all(|at| {
                let ports = net.ports(at).len();
                self.answers[at as usize * self.switches..][..self.switches]
                    .iter()
                    .filter(|a| a.port != NO_ANSWER.port)
                    .all(|a| (a.port as usize) < ports && a.vc_lo <= a.vc_hi && a.vc_hi < vcs)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(port: PortId, vc_lo: u8, vc_hi: u8) -> Candidate {
        Candidate { port, vc_lo, vc_hi }
    }

    /// Answers come back where they were put, no answer as `None`; a table
    /// fits a network only if it covers its switches with ports they have
    /// and VCs below the limit.
    #[test]
    fn lookups_and_fit() {
        let net = Network::from_spec("torus:4").expect("a ring");
        let t = PairTable::build(4, |a, b| (a != b).then(|| c((a + b) as PortId % 2, 0, 1)));
        assert_eq!(t.switches(), 4);
        assert_eq!(t.get(1, 2), Some(c(1, 0, 1)));
        assert_eq!(t.get(3, 1), Some(c(0, 0, 1)));
        assert_eq!(t.get(2, 2), None);
        assert!(t.fits(&net, 2));
        assert!(!t.fits(&net, 1), "VC 1 is not below 1");
        let far = PairTable::build(4, |a, b| (a != b).then(|| c(7, 0, 0)));
        assert!(!far.fits(&net, 2), "a ring switch has no port 7");
        let empty = PairTable::build(4, |_, _| Some(c(0, 1, 0)));
        assert!(!empty.fits(&net, 2), "an empty VC range");
        let small = PairTable::build(3, |_, _| None);
        assert!(!small.fits(&net, 2), "3 switches, not 4");
    }
}
