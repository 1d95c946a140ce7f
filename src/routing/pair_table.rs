//! A routing's answers kept per (switch, destination switch): what a
//! routing whose answer depends on nothing else can hand the engine, so
//! that a hop is a lookup instead of a call (the linear forwarding table of
//! an InfiniBand switch, one candidate per destination, here for every
//! switch at once).

use super::Candidate;
use crate::topology::cube::Geometry;
use crate::topology::{Network, PortId, SwitchId};

/// The first candidate at every switch for every destination switch; a
/// routing offers it through
/// [`Routing::pair_table`](super::Routing::pair_table). Kept in one of two
/// layouts (both answer [`PairTable::get`] alike):
/// - [`PairTable::build`]: every pair, at `at · N + destination` (N
///   switches): one load a hop, N² answers, for small networks;
/// - [`PairTable::by_first_difference`]: on a k-ary n-cube, for a routing
///   whose answer depends only on the first dimension in which the switch
///   and the destination differ and their two coordinates there (DOR with
///   its default rules): one answer per dimension and pair of coordinates
///   (`torus:32x32`: 2 048 answers, 8 kB, where every pair would take
///   4 MB), found from the switches' packed coordinates with one XOR and a
///   trailing-zeros count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairTable {
    switches: usize,
    layout: Layout,
}

/// How a [`PairTable`] keeps its answers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Layout {
    /// `answers[at · N + destination]`.
    Pairs(Vec<Candidate>),
    /// The answer for first differing dimension `d`, coordinate `c` at the
    /// switch and `t` at the destination at `answers[start_d + c · k_d +
    /// t]`, with `dims[d] = (start_d, k_d)`; `packed[s]` holds switch `s`'s
    /// coordinates a byte per dimension ([`Geometry::packed`]).
    FirstDifference {
        packed: Vec<u64>,
        dims: [(u32, u32); 8],
        answers: Vec<Candidate>,
    },
}

/// Most switches for which a routing keeps the answer of every pair
/// ([`PairTable::build`]): 128 switches are 16 384 answers of 4 bytes
/// (64 kB), which stay in the cache beside the simulation's own state.
pub const TABLE_MAX_SWITCHES: u32 = 128;

/// An entry with no answer: the switch is the destination itself (the
/// endpoint layer ejects there before it asks), or the routing has no
/// route, which the engine reports as it reports an empty answer.
pub(crate) const NO_ANSWER: Candidate = Candidate {
    port: PortId::MAX,
    vc_lo: 0,
    vc_hi: 0,
};

/// `answer` as kept in a table: none as [`NO_ANSWER`].
fn entry(answer: Option<Candidate>) -> Candidate {
    // (An answer on port 65 535 would read as none: no switch has that
    // many ports.)
    debug_assert!(
        answer.is_none_or(|a| a.port != NO_ANSWER.port),
        "port 65535"
    );
    answer.unwrap_or(NO_ANSWER)
}

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
                answers.push(entry(answer(at, dst)));
            }
        }
        PairTable {
            switches: switches as usize,
            layout: Layout::Pairs(answers),
        }
    }

    /// The table of a routing on the k-ary n-cube `geometry` whose answer
    /// at a switch for a destination depends only on the first dimension
    /// in which they differ and their coordinates there. `answer` is asked
    /// once per dimension and pair of distinct coordinates, for two
    /// switches that differ in that dimension alone (the others' coordinates
    /// 0); a routing that does not have that property must not be kept
    /// this way. `None` when the geometry has no packed coordinates (more
    /// than 8 dimensions or a radix above 256).
    pub fn by_first_difference(
        geometry: &Geometry,
        mut answer: impl FnMut(SwitchId, SwitchId) -> Option<Candidate>,
    ) -> Option<Self> {
        let packed = geometry.packed();
        if packed.is_empty() {
            return None;
        }
        let (mut dims, mut answers, mut stride) = ([(0, 0); 8], Vec::new(), 1);
        // Switch ids put dimension 0 lowest: coordinate c in dimension d
        // alone is switch c · (k_0 · ... · k_{d-1}).
        for (d, &k) in geometry.radix().iter().enumerate() {
            dims[d] = (answers.len() as u32, k);
            for c in 0..k {
                for t in 0..k {
                    let a = (c != t).then(|| answer(c * stride, t * stride)).flatten();
                    answers.push(entry(a));
                }
            }
            stride *= k;
        }
        Some(PairTable {
            switches: packed.len(),
            layout: Layout::FirstDifference {
                packed: packed.to_vec(),
                dims,
                answers,
            },
        })
    }

    /// The answer at switch `at` for destination switch `dst`. Both must be
    /// switches of the network the table was built for (the indices are
    /// bounds-checked).
    #[inline(always)]
    pub fn get(&self, at: SwitchId, dst: SwitchId) -> Option<Candidate> {
        let a = self.entry(at, dst);
        (a.port != NO_ANSWER.port).then_some(a)
    }

    /// [`PairTable::get`]'s entry as kept: [`NO_ANSWER`] for none (the
    /// engine's hot path tests the port itself, with no `Option` to build
    /// and take apart).
    #[inline(always)]
    pub(crate) fn entry(&self, at: SwitchId, dst: SwitchId) -> Candidate {
        match &self.layout {
            Layout::Pairs(answers) => answers[at as usize * self.switches + dst as usize],
            Layout::FirstDifference {
                packed,
                dims,
                answers,
            } => {
                let (h, g) = (packed[at as usize], packed[dst as usize]);
                let x = h ^ g;
                if x == 0 {
                    return NO_ANSWER;
                }
                // The lowest differing byte; `shift / 8 < 8`, so `dims`
                // needs no bounds check.
                let shift = x.trailing_zeros() & !7;
                let (start, k) = dims[(shift / 8) as usize];
                let (c, t) = ((h >> shift) as u32 & 0xFF, (g >> shift) as u32 & 0xFF);
                answers[(start + c * k + t) as usize]
            }
        }
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
    /// Linear in the answers a switch can give: N² pairs, or on a cube
    /// N · (k_0 + ... + k_{n-1}).
    pub fn fits(&self, net: &Network, vcs: u8) -> bool {
        let ok = |ports: usize, a: &Candidate| {
            a.port == NO_ANSWER.port
                || ((a.port as usize) < ports && a.vc_lo <= a.vc_hi && a.vc_hi < vcs)
        };
        self.switches == net.num_switches()
            && (0..self.switches as u32).all(|at| {
                let ports = net.ports(at).len();
                match &self.layout {
                    Layout::Pairs(answers) => answers[at as usize * self.switches..]
                        [..self.switches]
                        .iter()
                        .all(|a| ok(ports, a)),
                    // The answers at `at`: in each dimension, from its
                    // coordinate there to every other.
                    Layout::FirstDifference {
                        packed,
                        dims,
                        answers,
                    } => dims.iter().enumerate().all(|(d, &(start, k))| {
                        let c = (packed[at as usize] >> (8 * d)) as u32 & 0xFF;
                        k == 0
                            || answers[(start + c * k) as usize..][..k as usize]
                                .iter()
                                .all(|a| ok(ports, a))
                    }),
                }
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

    /// Kept by first difference, a table answers for every pair what was
    /// asked for the pair's first differing dimension and coordinates; it
    /// fits only with ports and VCs the switches have.
    #[test]
    fn by_first_difference() {
        let net = Network::from_spec("torus:3x4").expect("a torus");
        let g = Geometry::of(net.shape()).expect("a cube");
        // Port 2d + (to < from) toward coordinate `to` from `from` in
        // dimension d; VCs from `from mod 2` to `vc_hi`.
        let answer = |d: usize, from: u32, to: u32, vc_hi: u8| {
            c(
                2 * d as PortId + PortId::from(to < from),
                (from % 2) as u8,
                vc_hi,
            )
        };
        let table = |vc_hi: u8| {
            PairTable::by_first_difference(&g, |a, b| {
                // Asked only for switches that differ in one dimension.
                let differ = (g.coords(a).iter().zip(g.coords(b))).filter(|(p, q)| p != q);
                assert_eq!(differ.count(), 1);
                let (d, from, to) = g.first_difference(a, b)?;
                Some(answer(d, from, to, vc_hi))
            })
            .expect("packed coordinates")
        };
        let t = table(2);
        assert_eq!(t.switches(), 12);
        for a in 0..12 {
            for b in 0..12 {
                let want = (g.first_difference(a, b)).map(|(d, from, to)| answer(d, from, to, 2));
                assert_eq!(t.get(a, b), want, "{a} to {b}");
            }
        }
        assert!(t.fits(&net, 3));
        assert!(!t.fits(&net, 2), "VC 2 is not below 2");
        assert!(!table(0).fits(&net, 3), "an empty VC range at coordinate 1");
        assert!(
            !t.fits(&Network::from_spec("torus:12").unwrap(), 3),
            "one dimension"
        );
        let wide = Geometry::new(vec![300], true);
        assert!(PairTable::by_first_difference(&wide, |_, _| None).is_none());
    }
}
