//! The steps of a multi-step path (Franco et al. §2, Definition 2): each
//! step follows the network's minimal static routing — DOR on tori and
//! meshes (ties to `+`, or chosen per message with `tie=random` or
//! `tie=parity`: [`DrbSpec::tie`](super::DrbSpec::tie)),
//! e-cube on hypercubes, the minimal rule on midimew
//! ([`MidimewMinimal`]) — and the virtual channels each step may use.
//!
//! ## Virtual channels (deadlock freedom, §5)
//! The steps use *classes* of VCs, `classes` of them (3 for the full
//! method: A→X, X→Y, Y→B; fewer for the two limits), each split in two
//! dateline halves on tori and midimew. Along a packet's route the class of
//! the class VCs it takes never decreases, rises strictly whenever a step
//! boundary was crossed since the last one, and leaves one class for each
//! non-null step still to come. At every hop the routing offers the whole
//! range of classes that allows (from the class of the last class VC the
//! packet took, learnt from [`Hop::in_vc`]) and the switch takes the first
//! free one, so a packet climbs only when the lower classes are busy (a
//! canonical, one-step route may use every class). Inside a class a step is
//! the static routing with its own deadlock rule: on tori the dateline
//! (Dally and Seitz): the *lower* half while the step still has to cross
//! the wrap-around link of the current dimension, the *upper* half after
//! ([`Geometry::still_to_wrap`]); on midimew the same per jump type; meshes
//! and hypercubes need none.
//!
//! Why the class VCs alone are deadlock-free: a dependency between two
//! (channel, VC) pairs of one class joins two channels of one step in the
//! order the static routing crosses them, so it lies in the static
//! routing's own acyclic dependency graph (dimension order with datelines;
//! midimew's rings with datelines); every other dependency goes from a
//! lower class to a higher one. A cycle would have to stay in one class,
//! where there is none. That holds however VCs are reallocated: two packets
//! sharing a buffer one behind the other only add dependencies along the
//! same routes.
//!
//! Two layouts of the data VCs ([`Steps::layout`]):
//! - **Classes only** (the default): `per = data VCs / (classes · halves)`
//!   VCs per (class, half); the VCs left over are *spare* (next section)
//!   or unused. A half is a block of `spare + classes·per` VCs, spare ones
//!   first: VC = half·block + spare + class·per + i, so the spare VCs and
//!   a range of classes of one half are one range of VCs.
//! - **Escape classes and adaptive VCs**, when a VC holds one packet at a
//!   time ([`Timing::one_packet_per_vc`]: one-flit buffers, or a router
//!   that waits for the tail credit): one VC per (class, half), the
//!   *escape* VCs, and every other data VC *adaptive*, offered after the
//!   escape range on the same port at any hop. Duato's theorem then makes
//!   it deadlock-free: the escape VCs form a connected subfunction whose
//!   extended dependency graph (direct dependencies and indirect ones
//!   through adaptive VCs) is the class graph above, acyclic. Without one
//!   packet per VC the theorem fails (a packet in an escape VC waits behind
//!   another's tail in an adaptive VC, which then asks for an escape VC of a
//!   lower class: routelab deadlocked so on torus:8x8 with 3-flit buffers),
//!   hence the condition. The escape range comes first, so with
//!   `selection = fixed` a packet uses escape VCs only.
//!
//! ## Single-step messages (`single-step=spare`, the default)
//! A *single-step* message is one whose MSP has a single non-null step:
//! the original path A → B (X = A, Y = B, or any X, Y that makes the other
//! two steps null). Its route is the static routing's. In the classes-only
//! layout the VCs the classes leave over (`data VCs − classes·halves·per`:
//! 4 of the 10 data VCs a torus run with `--vcs 12` gives DRB; none of the
//! 6 of `--vcs 8`) are split between the two dateline halves and form a
//! class **S below class 0** that only single-step messages take: at every
//! hop, until it first takes a class VC, a single-step message is offered
//! the spare VCs of its dateline half and the class VCs of every class
//! above them (one range, spare first, so the first free VC is a spare one
//! when there is one); once it has taken a class VC it climbs as before.
//! (The escape layout has no spare VCs: every VC beyond the escape ones is
//! already adaptive, for every message.)
//!
//! Why the union stays acyclic: order the classes S < 0 < 1 < 2. A
//! dependency between two VCs of S joins two channels of one static route
//! in its own order, with the dateline rule between the halves, so it lies
//! in the static routing's acyclic graph. Every other dependency out of S
//! goes up into a step class, and none comes back into S: a message in a
//! step class is never offered S again (its class VC is learnt), and
//! multi-step messages are never offered S (at their first hop a non-null
//! step is still to come). The step classes keep the argument above. So a
//! cycle would have to stay inside S or inside one step class, and there
//! is none. `tests/drb.rs` checks it on every topology DRB accepts, with
//! spare VCs in both halves.
//!
//! What does *not* work: letting single-step messages move freely among
//! the step classes themselves (down as well as up). A single-step message
//! then adds a dependency from a VC of class 2 to one of class 0 on the
//! next channel of its static route, and multi-step messages climb from
//! class 0 back to class 2 across step boundaries, where their route turns
//! against the static order; the two close a cycle (on torus:4x4 with 6
//! data VCs, `tests/drb.rs` finds one). Monotone classes are what keep the
//! multi-step turns harmless, so a single-step message gains VCs only
//! where the classes leave some over.
//!
//! `tests/drb.rs` builds the dependency graph (the extended one with
//! adaptive VCs) for every source, destination, MSP and class choice and
//! checks it. Minimum data VCs: tori and midimew `2·classes` (6 for the
//! full method), meshes and hypercubes `classes` (3); packet
//! acknowledgements add their own class on top (2 on tori and midimew, 1
//! elsewhere).
//!
//! [`Timing::one_packet_per_vc`]: crate::routing::Timing::one_packet_per_vc
//! [`Hop::in_vc`]: crate::routing::Hop::in_vc

use crate::routing::{MidimewMinimal, RouteState};
use crate::topology::cube::Geometry;
use crate::topology::{Network, PortId, Shape, SwitchId, all_pairs};

/// The static minimal routing one step follows.
#[derive(Clone, Debug)]
enum Rule {
    /// DOR on a torus or mesh, ties to + (or by the message's own tie bits
    /// in `RouteState::aux`, [`Steps::message_ties`]).
    Cube(Geometry),
    /// E-cube: the lowest differing bit first.
    Hypercube,
    /// Minimal midimew routing: b jumps first, then b-1 jumps, with the
    /// remaining jumps of the current step kept in `RouteState::aux`.
    Midimew {
        n: u32,
        b: u32,
        table: MidimewMinimal,
    },
}

/// Steps of multi-step paths on one network: routes, VCs and distances.
#[derive(Clone, Debug)]
pub struct Steps {
    rule: Rule,
    /// Number of switches.
    nodes: u32,
    /// All-pairs distances (minimal static routes are this long, eq. 1).
    dist: Vec<u16>,
    /// `next[s · ports + p]`: the switch port p of s leads to (or MAX).
    next: Vec<u32>,
    ports: usize,
    /// Step classes, whether tori's dateline halves apply, the data VCs,
    /// VCs per (class, half) and the adaptive VCs (after the escape ones),
    /// if any ([`Steps::layout`]).
    classes: u8,
    dateline: bool,
    data_vcs: u8,
    per: u8,
    adaptive: Option<(u8, u8)>,
    /// Spare VCs per dateline half for single-step messages (0 unless
    /// `single` and the classes leave some over, [`Steps::single`]).
    spare: u8,
    /// Whether single-step messages get the spare VCs (`single-step=spare`)
    /// and whether a VC holds one packet at a time (the escape layout).
    single: bool,
    one_packet: bool,
    /// Ties on a torus go by the message's tie bits (`tie=random` or
    /// `tie=parity`).
    message_ties: bool,
}

/// The most classes a route uses (three steps).
pub const MAX_CLASSES: u8 = 3;

impl Steps {
    /// Steps on `net` with `classes` step classes over `data_vcs` VCs, or
    /// why not (a topology without a static minimal routing here, or too
    /// few VCs).
    pub fn new(net: &Network, classes: u8, data_vcs: u8) -> Result<Steps, String> {
        let (rule, dateline) = match net.shape() {
            Shape::Cube { radix, wrap } => (Rule::Cube(Geometry::new(radix.clone(), *wrap)), *wrap),
            Shape::Hypercube { .. } => (Rule::Hypercube, false),
            Shape::Midimew { n, b } => (
                Rule::Midimew {
                    n: *n,
                    b: *b,
                    table: MidimewMinimal::new(*n, *b, 2),
                },
                true,
            ),
            _ => {
                return Err(format!(
                    "{} has no minimal static routing for the steps (DRB needs a torus, mesh, hypercube or midimew)",
                    net.spec()
                ));
            }
        };
        let halves = if dateline { 2 } else { 1 };
        let classes = classes.clamp(1, MAX_CLASSES);
        let escape = classes * halves;
        if data_vcs < escape {
            return Err(format!(
                "needs {escape} data virtual channels on {} ({classes} step classes{}); got {data_vcs}: raise --vcs (`vcs` in a scenario file)",
                net.spec(),
                if dateline {
                    " × 2 dateline halves"
                } else {
                    ""
                }
            ));
        }
        let nodes = net.num_switches() as u32;
        let dist = all_pairs(net)
            .into_iter()
            .map(|d| d.min(u16::MAX as u32) as u16)
            .collect();
        let ports = (0..nodes).map(|s| net.ports(s).len()).max().unwrap_or(0);
        let mut next = vec![u32::MAX; nodes as usize * ports];
        for s in 0..nodes {
            for (p, t) in net.neighbours(s) {
                next[s as usize * ports + p as usize] = t;
            }
        }
        Ok(Steps {
            rule,
            nodes,
            dist,
            next,
            ports,
            classes,
            dateline,
            data_vcs,
            per: data_vcs / escape,
            adaptive: None,
            spare: 0,
            single: false,
            one_packet: false,
            message_ties: false,
        })
    }

    /// Lay the data VCs out as classes only (`adaptive` false: every VC in
    /// some class or spare), or as one escape VC per (class, half) and
    /// adaptive VCs (module docs; only where a VC holds one packet at a
    /// time).
    pub fn layout(&mut self, adaptive: bool) {
        self.one_packet = adaptive;
        self.arrange();
    }

    /// Give the spare VCs of the classes-only layout to single-step
    /// messages (`single-step=spare`, module docs) or leave them unused
    /// (`single-step=classes`).
    pub fn spare_for_single(&mut self, on: bool) {
        self.single = on;
        self.arrange();
    }

    /// Break a torus step's ties (an offset of exactly half a ring) by the
    /// message's own tie bits, bit d of `RouteState::aux` meaning + in
    /// dimension d (set at the source: drawn with `tie=random`, from the
    /// source's parity with `tie=parity`), instead of always going +
    /// (module docs). Each direction of a ring keeps its own dateline, so
    /// the classes' argument holds for any bits (`tests/drb.rs` checks
    /// every combination).
    pub fn set_message_ties(&mut self, on: bool) {
        self.message_ties = on && matches!(self.rule, Rule::Cube(_));
    }

    /// Whether ties go by the message's tie bits
    /// ([`Steps::set_message_ties`]).
    #[inline]
    pub fn message_ties(&self) -> bool {
        self.message_ties
    }

    fn arrange(&mut self) {
        let halves = self.halves();
        let escape = self.classes * halves;
        if self.one_packet && self.data_vcs > escape {
            self.per = 1;
            self.adaptive = Some((escape, self.data_vcs - 1));
            self.spare = 0;
        } else {
            self.per = self.data_vcs / escape;
            self.adaptive = None;
            self.spare = if self.single {
                (self.data_vcs - escape * self.per) / halves
            } else {
                0
            };
        }
    }

    fn halves(&self) -> u8 {
        if self.dateline { 2 } else { 1 }
    }

    /// VCs of one dateline half: its spare VCs, then its classes.
    #[inline]
    fn block(&self) -> u8 {
        self.spare + self.classes * self.per
    }

    /// Spare VCs per dateline half that single-step messages may use (the
    /// class below the step classes, module docs; the paper's §5 asks only
    /// that the steps' classes keep the routing deadlock-free).
    pub fn spare(&self) -> u8 {
        self.spare
    }

    /// Number of switches.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Step classes.
    pub fn classes(&self) -> u8 {
        self.classes
    }

    /// Minimal hops between two switches (eq. 1: a static route's length).
    #[inline]
    pub fn distance(&self, a: SwitchId, b: SwitchId) -> u32 {
        self.dist[a as usize * self.nodes as usize + b as usize] as u32
    }

    /// Eq. 2: the length of the MSP A → X → Y → B.
    pub fn msp_length(&self, a: SwitchId, x: SwitchId, y: SwitchId, b: SwitchId) -> u32 {
        self.distance(a, x) + self.distance(x, y) + self.distance(y, b)
    }

    /// The torus or mesh geometry, if the network is one.
    pub fn geometry(&self) -> Option<&Geometry> {
        match &self.rule {
            Rule::Cube(g) => Some(g),
            _ => None,
        }
    }

    /// The switch port `p` of `s` leads to.
    #[inline]
    pub fn neighbour(&self, s: SwitchId, p: PortId) -> Option<SwitchId> {
        let t = *self.next.get(s as usize * self.ports + p as usize)?;
        (t != u32::MAX).then_some(t)
    }

    /// Get `state` ready for a step from `at` to `target` (midimew keeps
    /// the step's remaining jumps in `aux`).
    #[inline]
    pub fn enter(&self, at: SwitchId, target: SwitchId, state: &mut RouteState) {
        if let Rule::Midimew { n, table, .. } = &self.rule {
            let (x, y) = table.jumps((target + n - at) % n);
            state.aux = pack(x, y);
        }
    }

    /// One hop of a step from `at` towards `target` (`at != target`): the
    /// output port and whether the packet is in the upper dateline half.
    #[inline]
    pub fn hop(&self, at: SwitchId, target: SwitchId, state: &mut RouteState) -> (PortId, bool) {
        match &self.rule {
            Rule::Cube(g) => {
                let Some((d, c, t)) = g.first_difference(at, target) else {
                    return (0, true);
                };
                let tie = !self.message_ties || state.aux >> d & 1 == 1;
                let plus = g.minimal_plus(g.radix()[d], c, t, tie);
                let upper = !g.wrap() || !Geometry::still_to_wrap(c, t, plus);
                (Geometry::port(d, plus), upper)
            }
            Rule::Hypercube => ((at ^ target).trailing_zeros() as PortId, true),
            Rule::Midimew { n, b, .. } => {
                let (mut x, mut y) = unpack(state.aux);
                let (port, jump, remaining, plus) = if x != 0 {
                    let r = (0, *b, x.unsigned_abs(), x > 0);
                    x -= x.signum();
                    r
                } else {
                    let r = (2, *b - 1, y.unsigned_abs(), y > 0);
                    y -= y.signum();
                    r
                };
                state.aux = pack(x, y);
                let travel = remaining as u64 * jump as u64;
                let will_wrap = if plus {
                    at as u64 + travel >= *n as u64
                } else {
                    (at as u64) < travel
                };
                ((port + u32::from(!plus)) as PortId, !will_wrap)
            }
        }
    }

    /// The class VCs of step classes `lo..=hi` in dateline half `upper`: one
    /// contiguous range (VC = half·block + spare + class·per + i, block =
    /// spare + classes·per the VCs of a half).
    #[inline]
    pub fn escape(&self, lo: u8, hi: u8, upper: bool) -> (u8, u8) {
        let top = self.classes - 1;
        let (lo, hi) = (lo.min(top), hi.min(top));
        let base = u8::from(upper && self.dateline) * self.block() + self.spare;
        (base + lo.min(hi) * self.per, base + (hi + 1) * self.per - 1)
    }

    /// A single-step message that has not yet taken a class VC: the spare
    /// VCs of dateline half `upper` and the class VCs of classes `0..=hi`
    /// above them, one contiguous range.
    #[inline]
    pub fn single(&self, hi: u8, upper: bool) -> (u8, u8) {
        let (_, last) = self.escape(0, hi, upper);
        (u8::from(upper && self.dateline) * self.block(), last)
    }

    /// The adaptive VCs (every data VC after the escape ones), if any.
    #[inline]
    pub fn adaptive(&self) -> Option<(u8, u8)> {
        self.adaptive
    }

    /// The step class of class VC `vc`, or `None` for a spare, adaptive (or
    /// unused) VC.
    #[inline]
    pub fn class_of(&self, vc: u8) -> Option<u8> {
        let block = self.block();
        let r = vc % block;
        (vc < block * self.halves() && r >= self.spare).then(|| (r - self.spare) / self.per)
    }

    /// The switches and ports of the route A → X → Y → B, hop by hop.
    pub fn route_hops(
        &self,
        a: SwitchId,
        x: SwitchId,
        y: SwitchId,
        b: SwitchId,
    ) -> Vec<(SwitchId, PortId)> {
        let mut hops = Vec::new();
        let mut at = a;
        let mut state = RouteState::default();
        for target in [x, y, b] {
            self.enter(at, target, &mut state);
            let mut guard = 0;
            while at != target && guard <= 4 * self.nodes {
                let (p, _) = self.hop(at, target, &mut state);
                hops.push((at, p));
                match self.neighbour(at, p) {
                    Some(t) => at = t,
                    None => return hops,
                }
                guard += 1;
            }
        }
        hops
    }
}

fn pack(x: i32, y: i32) -> u32 {
    ((x as i16 as u16 as u32) << 16) | (y as i16 as u16 as u32)
}

fn unpack(t: u32) -> (i32, i32) {
    ((t >> 16) as u16 as i16 as i32, t as u16 as i16 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_minimal_on_every_topology() {
        for spec in [
            "torus:4x4",
            "mesh:3x4",
            "hypercube:4",
            "midimew:16",
            "torus:5x3",
        ] {
            let net = Network::from_spec(spec).unwrap();
            let s = Steps::new(&net, 3, 8).unwrap();
            for a in 0..s.nodes() {
                for b in 0..s.nodes() {
                    let hops = s.route_hops(a, a, b, b);
                    assert_eq!(hops.len() as u32, s.distance(a, b), "{spec} {a}->{b}");
                    let mut at = a;
                    for &(sw, p) in &hops {
                        assert_eq!(sw, at);
                        at = s.neighbour(sw, p).unwrap();
                    }
                    assert_eq!(at, b);
                }
            }
        }
    }

    #[test]
    fn classes_and_halves_take_disjoint_vcs() {
        let net = Network::from_spec("torus:4x4").unwrap();
        let mut s = Steps::new(&net, 3, 6).unwrap();
        let mut seen = Vec::new();
        for u in [false, true] {
            for c in 0..3 {
                seen.push(s.escape(c, c, u));
            }
        }
        assert_eq!(seen, vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]);
        // A range of classes is one contiguous range of VCs.
        assert_eq!(s.escape(1, 2, true), (4, 5));
        assert_eq!((s.class_of(4), s.class_of(2)), (Some(1), Some(2)));
        assert_eq!(s.adaptive(), None);
        s.layout(true);
        assert_eq!(s.adaptive(), None, "no VC left for adaptive use");
        // 13 VCs: two per (class, half), one unused; or escape + adaptive.
        let mut s = Steps::new(&net, 3, 13).unwrap();
        assert_eq!(s.escape(2, 2, true), (10, 11));
        assert_eq!(s.escape(0, 2, false), (0, 5));
        assert_eq!((s.class_of(11), s.class_of(12)), (Some(2), None));
        s.layout(true);
        assert_eq!(s.escape(2, 2, true), (5, 5));
        assert_eq!(s.adaptive(), Some((6, 12)));
        assert_eq!(s.class_of(7), None);
        s.layout(false);
        assert_eq!(s.adaptive(), None);
        assert!(Steps::new(&net, 3, 5).is_err());
        let m = Network::from_spec("mesh:4x4").unwrap();
        let s = Steps::new(&m, 3, 3).unwrap();
        assert_eq!(
            (s.escape(0, 0, true), s.escape(0, 2, false)),
            ((0, 0), (0, 2))
        );
    }

    #[test]
    fn spare_vcs_sit_below_class_0_in_each_half() {
        let net = Network::from_spec("torus:4x4").unwrap();
        let mut s = Steps::new(&net, 3, 10).unwrap();
        assert_eq!(s.spare(), 0);
        s.spare_for_single(true);
        assert_eq!(s.spare(), 2);
        // Halves of 5 VCs: spare 0-1, classes 2-4; spare 5-6, classes 7-9.
        assert_eq!(s.escape(0, 2, false), (2, 4));
        assert_eq!(s.escape(1, 2, true), (8, 9));
        assert_eq!(s.single(2, false), (0, 4));
        assert_eq!(s.single(2, true), (5, 9));
        assert_eq!(
            (s.class_of(0), s.class_of(6), s.class_of(7), s.class_of(4)),
            (None, None, Some(0), Some(2))
        );
        // The escape layout leaves nothing spare.
        s.layout(true);
        assert_eq!(s.spare(), 0);
        s.layout(false);
        assert_eq!(s.spare(), 2);
        // One half on a mesh: both VCs left over (5 = 3 + 2).
        let m = Network::from_spec("mesh:4x4").unwrap();
        let mut s = Steps::new(&m, 3, 5).unwrap();
        s.spare_for_single(true);
        assert_eq!(
            (s.spare(), s.single(2, true), s.escape(0, 0, true)),
            (2, (0, 4), (2, 2))
        );
    }

    #[test]
    fn message_ties_follow_the_messages_bits_and_only_on_a_tie() {
        let net = Network::from_spec("torus:4x4").unwrap();
        let mut s = Steps::new(&net, 3, 6).unwrap();
        // 0 -> 2: a tie in dimension 0; 0 -> 1: none.
        let port = |s: &Steps, target, aux| {
            let mut st = RouteState {
                aux,
                ..RouteState::default()
            };
            s.hop(0, target, &mut st).0
        };
        let (plus, minus) = (Geometry::port(0, true), Geometry::port(0, false));
        assert_eq!((port(&s, 2, 0), port(&s, 2, 1)), (plus, plus));
        s.set_message_ties(true);
        assert!(s.message_ties());
        assert_eq!((port(&s, 2, 0), port(&s, 2, 1)), (minus, plus));
        assert_eq!((port(&s, 1, 0), port(&s, 1, 1)), (plus, plus));
        // Dimension 1 reads bit 1: 0 -> 8 is (0,0) -> (0,2).
        let (plus1, minus1) = (Geometry::port(1, true), Geometry::port(1, false));
        assert_eq!((port(&s, 8, 1), port(&s, 8, 2)), (minus1, plus1));
        // No ties off the torus rule.
        let mut h = Steps::new(&Network::from_spec("hypercube:3").unwrap(), 3, 3).unwrap();
        h.set_message_ties(true);
        assert!(!h.message_ties());
    }
}
