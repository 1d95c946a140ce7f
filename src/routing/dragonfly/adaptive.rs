//! The dragonfly's adaptive routings: UGAL-L and UGAL-G (Kim, Dally, Scott
//! and Abts, ISCA 2008, §4.2) and PAR (Jiang, Kim and Dally, ISCA 2009,
//! §3: progressive adaptive routing).
//!
//! **UGAL** (universal globally-adaptive load-balanced routing) decides
//! once per packet, at its source router, between the minimal route (MIN)
//! and one Valiant route through a random intermediate group (VAL), by
//! comparing the delay each would meet:
//! - **UGAL-L** with local information: the queue of the output port each
//!   route leaves by, times the route's hops, `q_m·H_m` against `q_nm·H_nm`
//!   (§4.2). The queue of a port is the flits sent on its channel that the
//!   next router has not yet freed, over all its VCs (the credits in use:
//!   BookSim2's `GetUsedCredit`; [`BufferView::queued`]).
//! - **UGAL-G** with global information (the paper's ideal reference):
//!   the queues of every channel on each route, summed
//!   ([`BufferView::channel_queued`]); where the switch model offers no
//!   global view, UGAL-L's estimate.
//!
//! MIN is taken when its cost is at most the other's plus `threshold`
//! flits (Kim et al. compare without one: `threshold=0`, the default;
//! BookSim2's `ugal` adds 30, its `adaptive_threshold`). Ties, as at zero
//! load, go minimal. With `candidates=N` the source weighs `N` random
//! intermediates and the cheapest of them against MIN (1 in both papers).
//!
//! **PAR** decides as UGAL-L at the source; a packet sent minimally whose
//! first hop is a local one decides again, the same way, at the next
//! router, which is the one with the global channel to the destination's
//! group: when that channel is congested and the source router could not
//! see it (its own port to the gateway was idle), the packet turns to a
//! Valiant route from there. Its second local hop in the source group
//! then needs a VC class of its own (`routing.rs`'s [`LATE`]): PAR needs
//! one class more than UGAL, 4 (Jiang et al. §3.2's extra VC).
//!
//! **Intermediates** are drawn only where the route is really non-minimal:
//! a group other than the source's and the destination's (Kim et al.), or
//! with `intermediate=router` a router outside the source's group
//! (BookSim2's random intermediate node; 4 classes, `routing.rs`).
//! Packets within a group go minimally, with nothing to decide.
//!
//! What the routing decides is counted per source group ([`Decisions`]),
//! and which source groups' packets cross each global channel
//! ([`DragonflyAdaptive::channel_groups`]), for the app's adaptive-decisions
//! panel.

use super::routing::{
    DragonflyRouting, Intermediate, LATE, Mode, PENDING, PLAN_LATE, PortTable, UNDECIDED,
};
use crate::rng::{SimRng, below};
use crate::routing::{BufferView, Candidates, Hop, PacketInfo, RouteState, Routing, Source};
use crate::topology::{ChannelId, Network, SwitchId};

/// Which adaptive routing.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adaptivity {
    /// UGAL with local queues (Kim et al. §4.2).
    UgalL,
    /// UGAL with every queue on the routes (Kim et al. §4.2).
    UgalG,
    /// Progressive adaptive routing (Jiang et al. §3).
    Par,
}

/// An adaptive routing's decision parameters (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AdaptiveParams {
    pub kind: Adaptivity,
    /// Flits MIN's cost may exceed the non-minimal one's and still be
    /// taken (0: Kim et al.'s comparison).
    pub threshold: u32,
    /// Random intermediates weighed against MIN (1: both papers).
    pub candidates: u32,
    /// Where the intermediate is drawn.
    pub intermediate: Intermediate,
}

impl AdaptiveParams {
    /// The most intermediates a source weighs.
    pub const MAX_CANDIDATES: u32 = 8;
    /// The largest threshold accepted, in flits.
    pub const MAX_THRESHOLD: u32 = 100_000;

    /// The paper's parameters for `kind`.
    pub fn of(kind: Adaptivity) -> AdaptiveParams {
        AdaptiveParams {
            kind,
            threshold: 0,
            candidates: 1,
            intermediate: Intermediate::Group,
        }
    }

    /// The canonical spec: the name and the options that differ from the
    /// paper's.
    pub fn name(&self) -> String {
        let mut s: String = <&str>::from(self.kind).to_string();
        if self.threshold != 0 {
            s += &format!(":threshold={}", self.threshold);
        }
        if self.candidates != 1 {
            s += &format!(":candidates={}", self.candidates);
        }
        if self.intermediate != Intermediate::Group {
            s += &format!(":intermediate={}", self.intermediate);
        }
        s
    }

    /// VC classes: VAL's with this intermediate, and one more for PAR.
    pub fn classes(&self) -> u8 {
        Mode::Val(self.intermediate).classes() + (self.kind == Adaptivity::Par) as u8
    }
}

/// What an adaptive routing decided, per source group (indexed by group):
/// packets within their group (nothing to decide), sent minimally, sent
/// non-minimally from the source router, and turned non-minimal at the
/// next router (PAR).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    pub local: Vec<u64>,
    pub minimal: Vec<u64>,
    pub at_source: Vec<u64>,
    pub late: Vec<u64>,
}

impl Decisions {
    fn new(groups: usize) -> Decisions {
        Decisions {
            local: vec![0; groups],
            minimal: vec![0; groups],
            at_source: vec![0; groups],
            late: vec![0; groups],
        }
    }
}

/// UGAL-L, UGAL-G or PAR on one dragonfly.
#[derive(Clone, Debug)]
pub struct DragonflyAdaptive {
    /// VAL with the intermediate drawn where the params say (and PAR's
    /// late class): the routes themselves.
    routes: DragonflyRouting,
    params: AdaptiveParams,
    out: PortTable,
    decisions: Decisions,
    /// Per global channel (its slot in `slot`), per source group: the
    /// packets that crossed it. Empty when too large to keep
    /// ([`MAX_USAGE`]).
    usage: Vec<u32>,
    /// Each network channel's slot in `usage` (`u32::MAX`: not global).
    slot: Vec<u32>,
}

/// The most counters `usage` keeps (global channels × groups): 4 M, 16 MB,
/// past `dragonfly:p=8` (16 512 global channels, 129 groups: 2.1 M).
const MAX_USAGE: usize = 1 << 22;

/// MIN's state: phase 1 from the source.
const MINIMAL: RouteState = RouteState {
    phase: 1,
    hop: 0,
    path: 0,
    tag: 0,
    aux: 0,
    via: [0, 0],
};

impl DragonflyAdaptive {
    /// On `net` (a dragonfly) with `vcs` VCs (at least the classes).
    pub fn new(
        net: &Network,
        params: AdaptiveParams,
        vcs: u8,
    ) -> Result<DragonflyAdaptive, String> {
        let mut routes =
            DragonflyRouting::new(net, Mode::Val(params.intermediate), vcs).map_err(|_| {
                format!(
                    "{} routes on dragonflies; {} is not one",
                    params.name(),
                    net.spec()
                )
            })?;
        if params.kind == Adaptivity::Par {
            routes = routes.with_late_class(vcs);
        }
        let groups = routes.wiring().g as usize;
        let mut slot = vec![u32::MAX; net.num_channels()];
        let mut globals = 0usize;
        for s in 0..net.num_switches() as SwitchId {
            for (port, p) in net.ports(s).iter().enumerate() {
                if let Some(ch) = p.out_channel
                    && routes
                        .wiring()
                        .is_global_port(port as crate::topology::PortId)
                {
                    slot[ch as usize] = globals as u32;
                    globals += 1;
                }
            }
        }
        let cells = globals * groups;
        Ok(DragonflyAdaptive {
            routes,
            params,
            out: PortTable::of(net),
            decisions: Decisions::new(groups),
            usage: if cells <= MAX_USAGE {
                vec![0; cells]
            } else {
                Vec::new()
            },
            slot,
        })
    }

    /// The parameters.
    pub fn params(&self) -> AdaptiveParams {
        self.params
    }

    /// What it has decided so far, per source group.
    pub fn decisions(&self) -> &Decisions {
        &self.decisions
    }

    /// The packets from each source group (indexed by group) that have
    /// crossed global channel `ch` so far; `None` for a channel that is not
    /// global, or a network too large to count (module docs).
    pub fn channel_groups(&self, ch: ChannelId) -> Option<&[u32]> {
        let g = self.routes.wiring().g as usize;
        let slot = *self.slot.get(ch as usize)? as usize;
        self.usage.get(slot * g..(slot + 1) * g)
    }

    /// How many intermediates make a non-minimal route for a packet between
    /// two groups (module docs).
    fn nonminimal_draws(&self) -> u32 {
        let w = self.routes.wiring();
        match self.params.intermediate {
            Intermediate::Group => w.g.saturating_sub(2),
            Intermediate::Router => w.a * (w.g - 1),
        }
    }

    /// The `k`-th of them (`k < nonminimal_draws`): a group, or a router,
    /// skipping the source's (and by group the destination's) group.
    fn nonminimal(&self, k: u32, gs: u32, gd: u32) -> u32 {
        let w = self.routes.wiring();
        match self.params.intermediate {
            Intermediate::Group => {
                let (lo, hi) = (gs.min(gd), gs.max(gd));
                let mut t = k;
                if t >= lo {
                    t += 1;
                }
                if t >= hi {
                    t += 1;
                }
                t
            }
            Intermediate::Router => {
                if k / w.a >= gs {
                    k + w.a
                } else {
                    k
                }
            }
        }
    }

    /// A route's cost from `at` for a packet to `dst` in state `st` (module
    /// docs): `q·H` with local information, the queues summed with global.
    fn cost(&self, view: &dyn BufferView, at: SwitchId, dst: SwitchId, mut st: RouteState) -> u64 {
        let mut first = None;
        let mut global = Some(0u64);
        let hops = self.routes.follow(&self.out, at, dst, &mut st, |port, ch| {
            first.get_or_insert(port);
            if self.params.kind == Adaptivity::UgalG {
                global = global.and_then(|g| Some(g + view.channel_queued(ch)? as u64));
            }
        });
        match (self.params.kind, global) {
            (Adaptivity::UgalG, Some(sum)) => sum,
            _ => first.map_or(0, |p| view.queued(p) as u64) * hops as u64,
        }
    }

    /// The UGAL decision at `at` (the source router, or PAR's second):
    /// the state of the non-minimal route chosen (with `extra` flags), or
    /// `None` for MIN.
    fn decide(
        &self,
        view: &dyn BufferView,
        rng: &mut SimRng,
        at: SwitchId,
        pkt: &PacketInfo,
        extra: u32,
    ) -> Option<RouteState> {
        let w = self.routes.wiring();
        let (gs, gd) = (w.group(pkt.src_switch), w.group(pkt.dst_switch));
        let n = self.nonminimal_draws();
        if n == 0 {
            return None;
        }
        let minimal = self.cost(view, at, pkt.dst_switch, MINIMAL);
        let mut best: Option<(u64, RouteState)> = None;
        for _ in 0..self.params.candidates {
            let k = self.nonminimal(below(rng, n), gs, gd);
            let mut st = self.routes.state_for(pkt, k);
            st.aux |= extra;
            let c = self.cost(view, at, pkt.dst_switch, st);
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, st));
            }
        }
        let (c, st) = best?;
        (minimal > c + self.params.threshold as u64).then_some(st)
    }

    /// True when MIN's first hop from the source is a local one (so PAR
    /// may decide again at the next router).
    fn first_hop_is_local(&self, pkt: &PacketInfo) -> bool {
        let w = self.routes.wiring();
        let mut st = MINIMAL;
        self.routes
            .step(pkt.src_switch, pkt.dst_switch, &mut st)
            .is_some_and(|(port, _)| !w.is_global_port(port))
            && w.group(pkt.src_switch) != w.group(pkt.dst_switch)
    }

    /// The source router's decision: the packet's state from here on.
    fn at_source_router(&mut self, hop: &mut Hop<'_>) -> RouteState {
        let pkt = *hop.pkt;
        let gs = self.routes.wiring().group(pkt.src_switch) as usize;
        if self.routes.wiring().group(pkt.dst_switch) as usize == gs {
            self.decisions.local[gs] += 1;
            return MINIMAL;
        }
        match self.decide(hop.view, hop.rng, hop.at, &pkt, 0) {
            Some(st) => {
                self.decisions.at_source[gs] += 1;
                st
            }
            None if self.params.kind == Adaptivity::Par && self.first_hop_is_local(&pkt) => {
                RouteState {
                    aux: PENDING,
                    ..MINIMAL
                }
            }
            None => {
                self.decisions.minimal[gs] += 1;
                MINIMAL
            }
        }
    }

    /// PAR's second decision, at the router after the source.
    fn at_next_router(&mut self, hop: &mut Hop<'_>) -> RouteState {
        let pkt = *hop.pkt;
        let gs = self.routes.wiring().group(pkt.src_switch) as usize;
        match self.decide(hop.view, hop.rng, hop.at, &pkt, LATE) {
            Some(st) => {
                self.decisions.late[gs] += 1;
                st
            }
            None => {
                self.decisions.minimal[gs] += 1;
                MINIMAL
            }
        }
    }
}

impl Routing for DragonflyAdaptive {
    fn name(&self) -> String {
        self.params.name()
    }
    fn at_source(&mut self, src: Source<'_>) {
        *src.state = RouteState {
            aux: UNDECIDED,
            ..MINIMAL
        };
    }
    fn route(&mut self, mut hop: Hop<'_>, out: &mut Candidates) {
        let st = *hop.state;
        let away = hop.at != hop.pkt.src_switch;
        if st.aux & UNDECIDED != 0 {
            *hop.state = self.at_source_router(&mut hop);
        } else if st.aux & PENDING != 0 && away {
            *hop.state = self.at_next_router(&mut hop);
        } else if st.aux & PLAN_LATE != 0 && away {
            *hop.state = RouteState {
                phase: 0,
                aux: LATE,
                ..st
            };
        }
        let st = &mut *hop.state;
        if let Some((port, class)) = self.routes.step(hop.at, hop.pkt.dst_switch, st) {
            let (lo, hi) = self.routes.vc_range(class);
            out.push(port, lo, hi);
            if self.routes.wiring().is_global_port(port) && !self.usage.is_empty() {
                let g = self.routes.wiring().g as usize;
                let gs = self.routes.wiring().group(hop.pkt.src_switch) as usize;
                let ch = self.out.channel(hop.at, port);
                if let Some(&slot) = self.slot.get(ch as usize)
                    && slot != u32::MAX
                {
                    let n = &mut self.usage[slot as usize * g + gs];
                    *n = n.saturating_add(1);
                }
            }
        }
    }
    fn may_eject(&self, at: SwitchId, state: &RouteState) -> bool {
        self.routes.phase_at(at, state) == 1
    }
    fn passes_destination(&self) -> bool {
        self.routes.passes_destination()
    }
    /// Every decided state: MIN, each non-minimal intermediate, and for
    /// PAR each late turn after a local first hop (`PLAN_LATE`).
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        let w = self.routes.wiring();
        let (gs, gd) = (w.group(pkt.src_switch), w.group(pkt.dst_switch));
        let mut out = vec![MINIMAL];
        if gs != gd {
            let n = self.nonminimal_draws();
            let ks = (0..n).map(|k| self.nonminimal(k, gs, gd));
            out.extend(ks.clone().map(|k| self.routes.state_for(pkt, k)));
            if self.params.kind == Adaptivity::Par && self.first_hop_is_local(pkt) {
                out.extend(ks.map(|k| RouteState {
                    aux: PLAN_LATE,
                    ..self.routes.state_for(pkt, k)
                }));
            }
        }
        Some(out)
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::PortId;

    fn net(spec: &str) -> Network {
        Network::from_spec(spec).unwrap()
    }

    /// A view with one congested port (local) or channel (global).
    struct Hot {
        port: PortId,
        channel: u32,
        flits: u32,
    }
    impl BufferView for Hot {
        fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
            8
        }
        fn queued(&self, port: PortId) -> u32 {
            if port == self.port { self.flits } else { 0 }
        }
        fn channel_queued(&self, channel: u32) -> Option<u32> {
            Some(if channel == self.channel {
                self.flits
            } else {
                0
            })
        }
    }

    fn decide(r: &mut DragonflyAdaptive, view: &dyn BufferView, pkt: &PacketInfo) -> RouteState {
        let mut rng = crate::rng::stream(1, crate::rng::Stream::Routing);
        let mut st = RouteState::default();
        r.at_source(Source {
            now: 0,
            pkt,
            state: &mut st,
            rng: &mut rng,
        });
        let mut out = Candidates::default();
        r.route(
            Hop {
                at: pkt.src_switch,
                in_port: 0,
                in_vc: 0,
                now: 0,
                pkt,
                state: &mut st,
                view,
                rng: &mut rng,
            },
            &mut out,
        );
        st
    }

    /// Group 0's router 0 to group 1: on `dragonfly:p=2` (a = 4, h = 2, g =
    /// 9) router 0 holds the global links to groups 1 and 2.
    fn packet(net: &Network) -> PacketInfo {
        let dst_switch = 4;
        PacketInfo {
            src_host: 0,
            dst_host: net.hosts_of(dst_switch).next().unwrap(),
            src_switch: 0,
            dst_switch,
            flits: 1,
        }
    }

    #[test]
    fn an_idle_network_goes_minimally_and_a_full_minimal_port_deroutes() {
        let n = net("dragonfly:p=2");
        let pkt = packet(&n);
        let mut r = DragonflyAdaptive::new(&n, AdaptiveParams::of(Adaptivity::UgalL), 3).unwrap();
        let idle = Hot {
            port: 0,
            channel: u32::MAX,
            flits: 0,
        };
        assert_eq!(decide(&mut r, &idle, &pkt).phase, 1, "idle: minimal");
        // MIN leaves router 0 by its global port to group 1.
        let mut st = MINIMAL;
        let (port, _) = r.routes.step(0, 4, &mut st).unwrap();
        assert!(r.routes.wiring().is_global_port(port));
        let hot = Hot {
            port,
            channel: u32::MAX,
            flits: 40,
        };
        let st = decide(&mut r, &hot, &pkt);
        assert_eq!(st.phase, 0, "a full minimal port: Valiant");
        assert!(st.via[0] != 0 && st.via[0] != 1, "{st:?}");
        assert_eq!(r.decisions().minimal[0], 1);
        assert_eq!(r.decisions().at_source[0], 1);
        // 40 flits over one hop against 0 over more: the threshold keeps it
        // minimal up to 40 - 0.
        let mut t = AdaptiveParams::of(Adaptivity::UgalL);
        t.threshold = 40;
        let mut r = DragonflyAdaptive::new(&n, t, 3).unwrap();
        assert_eq!(decide(&mut r, &hot, &pkt).phase, 1);
        assert_eq!(r.name(), "ugal-l:threshold=40");
    }

    #[test]
    fn ugal_g_sees_a_channel_beyond_the_source_router() {
        let n = net("dragonfly:p=2");
        // Router 1 of group 0 to the first group it has no link to: MIN
        // goes local to the router holding that link, then global;
        // congest that global channel.
        let src = 1;
        let w = crate::topology::dragonfly::DragonflyWiring::of(&n).unwrap();
        let dst = (1..9)
            .find(|&t| w.links(0, t).iter().all(|l| l.from != src))
            .unwrap()
            * 4;
        let pkt = PacketInfo {
            src_host: n.hosts_of(src).next().unwrap(),
            dst_host: n.hosts_of(dst).next().unwrap(),
            src_switch: src,
            dst_switch: dst,
            flits: 1,
        };
        let mut l = DragonflyAdaptive::new(&n, AdaptiveParams::of(Adaptivity::UgalL), 3).unwrap();
        let mut st = MINIMAL;
        let (first, _) = l.routes.step(src, dst, &mut st).unwrap();
        assert!(
            !l.routes.wiring().is_global_port(first),
            "a local first hop"
        );
        let mut chans = Vec::new();
        l.routes
            .follow(&l.out, src, dst, &mut MINIMAL.clone(), |_, c| chans.push(c));
        let global = chans[1];
        let hot = Hot {
            port: PortId::MAX,
            channel: global,
            flits: 50,
        };
        assert_eq!(decide(&mut l, &hot, &pkt).phase, 1, "UGAL-L cannot see it");
        let mut g = DragonflyAdaptive::new(&n, AdaptiveParams::of(Adaptivity::UgalG), 3).unwrap();
        assert_eq!(decide(&mut g, &hot, &pkt).phase, 0, "UGAL-G does");
        // PAR sends it minimally but leaves the choice open for the
        // gateway, where its global port is the full one.
        let mut p = DragonflyAdaptive::new(&n, AdaptiveParams::of(Adaptivity::Par), 4).unwrap();
        let st = decide(&mut p, &hot, &pkt);
        assert_eq!((st.phase, st.aux), (1, PENDING));
    }

    #[test]
    fn intermediates_are_never_the_source_or_destination_group() {
        let n = net("dragonfly:p=2");
        let r = DragonflyAdaptive::new(&n, AdaptiveParams::of(Adaptivity::UgalL), 3).unwrap();
        for (gs, gd) in [(0, 1), (1, 0), (3, 8), (8, 0)] {
            let ks: Vec<u32> = (0..r.nonminimal_draws())
                .map(|k| r.nonminimal(k, gs, gd))
                .collect();
            assert_eq!(ks.len(), 7);
            assert!(ks.iter().all(|&k| k != gs && k != gd && k < 9), "{ks:?}");
            let mut u = ks.clone();
            u.dedup();
            assert_eq!(u.len(), 7);
        }
        let mut p = AdaptiveParams::of(Adaptivity::UgalL);
        p.intermediate = Intermediate::Router;
        let r = DragonflyAdaptive::new(&n, p, 4).unwrap();
        let ks: Vec<u32> = (0..r.nonminimal_draws())
            .map(|k| r.nonminimal(k, 2, 5))
            .collect();
        assert_eq!(ks.len(), 32);
        assert!(ks.iter().all(|&k| k / 4 != 2 && k < 36), "{ks:?}");
    }
}
