//! MIN and VAL on the dragonfly (Kim et al., ISCA 2008, §4.1), and their
//! exact path law for the analysis.
//!
//! **Minimal hop** from router `s` towards a router `d` of another group
//! `T` (or towards group `T` itself): if `s` has a global link to `T`, it
//! takes it (one of its own, preferring one that lands on `d`); otherwise
//! it goes by a local hop to a router that has one (preferring a link that
//! lands on `d`). Among equals the `(s + d) mod count`-th, in port order
//! (`s + T` towards a group): with one link per pair of groups (`g =
//! a·h+1`) the route is the unique minimal one, and in general it is
//! minimal and a function of the two routers alone.
//!
//! **VAL** draws at the source one of `g` intermediate groups (default,
//! Kim et al. §4.1: "a randomly selected intermediate group") or one of
//! `a·g` intermediate routers (`intermediate=router`: BookSim2's random
//! intermediate node, by its router) uniformly; it routes minimally to it,
//! then minimally to the destination. When the intermediate lies in the
//! source's group, or the source and destination share a group, or (by
//! group) it is the destination's group, the route is MIN's.
//!
//! **VC classes** (deadlock freedom, proved by `tests/deadlock.rs`): a
//! hop's class is the number of global channels the packet has crossed
//! (a global channel takes the class of the hops before it): MIN uses
//! class 0 in the source group and on the global channel, class 1 after
//! (2 classes); VAL by group 0, 1, 2 (3 classes, one local hop at most per
//! class). By router the intermediate group has two local hops (to the
//! intermediate router, then to the gateway), so the hop after the
//! intermediate router and everything after are one class up: 4 classes.
//! (BookSim2's `ugal_dragonflynew` runs its random intermediate node on 3
//! VCs with the source-group hop, the first global channel and the hop to
//! the intermediate router all on VC 0, where they can close a cycle
//! through three groups.) With more VCs than classes, class `c` of `C`
//! takes VCs `c·V/C ..= (c+1)·V/C - 1`.
//!
//! PAR (`adaptive.rs`) may turn a minimal packet non-minimal at the
//! second router of its source group: every hop from there on is one
//! class further up ([`LATE`]), so its source group's two local hops are in
//! classes 0 and 1, and it needs one class more (4, or 5 by router).
//!
//! Route state: `phase` 0 towards the intermediate, 1 towards the
//! destination; `via[0]` the intermediate group or router; `tag` the
//! global channels crossed; `aux` the adaptive routings' flags
//! ([`UNDECIDED`], [`PENDING`], [`LATE`], [`PLAN_LATE`]; 0 for MIN and VAL).

use crate::rng::below;
use crate::routing::path_law::PathLaw;
use crate::routing::{Candidates, Hop, PacketInfo, RouteState, Routing, Source};
use crate::topology::dragonfly::{DragonflyWiring, GlobalLink};
use crate::topology::{ChannelId, Network, Peer, PortId, SwitchId};
use std::sync::Arc;

/// `aux` flag: UGAL's or PAR's decision at the source router is still to
/// be made (the packet has not yet been routed there).
pub(super) const UNDECIDED: u32 = 1;
/// `aux` flag: PAR's packet goes minimally and may still turn non-minimal
/// at the next router of its source group.
pub(super) const PENDING: u32 = 2;
/// `aux` flag: PAR turned the packet non-minimal after its first hop:
/// every hop from there is one VC class up.
pub(super) const LATE: u32 = 4;
/// `aux` flag, for exhaustive walks only (`source_states`): the packet goes
/// minimally for one hop, then turns non-minimal towards `via[0]` (becomes
/// [`LATE`]) at the first router that is not its source.
pub(super) const PLAN_LATE: u32 = 8;

/// VAL's intermediate: a group (Kim et al.) or a router (BookSim2).
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intermediate {
    Group,
    Router,
}

crate::spec_options::keyword_enum!(Intermediate, Display);

/// Which routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// MIN.
    Min,
    /// VAL with its intermediate.
    Val(Intermediate),
}

impl Mode {
    /// The spec (and routing) name.
    pub fn name(self) -> String {
        match self {
            Mode::Min => "min".into(),
            Mode::Val(Intermediate::Group) => "val".into(),
            Mode::Val(Intermediate::Router) => "val:intermediate=router".into(),
        }
    }
    /// VC classes (module docs).
    pub fn classes(self) -> u8 {
        match self {
            Mode::Min => 2,
            Mode::Val(Intermediate::Group) => 3,
            Mode::Val(Intermediate::Router) => 4,
        }
    }
}

/// MIN or VAL on one dragonfly.
#[derive(Clone, Debug)]
pub struct DragonflyRouting {
    wiring: Arc<DragonflyWiring>,
    mode: Mode,
    vcs: u8,
    /// One class more for PAR's late turn ([`LATE`]).
    late: bool,
}

impl DragonflyRouting {
    /// On `net` (a dragonfly) with `vcs` VCs (at least the mode's classes).
    pub fn new(net: &Network, mode: Mode, vcs: u8) -> Result<DragonflyRouting, String> {
        let wiring = DragonflyWiring::of(net).ok_or_else(|| {
            format!(
                "{} routes on dragonflies; {} is not one",
                mode.name(),
                net.spec()
            )
        })?;
        Ok(DragonflyRouting {
            wiring: Arc::new(wiring),
            mode,
            vcs: vcs.max(mode.classes()),
            late: false,
        })
    }

    /// The same routing with the class PAR's late turn needs ([`LATE`]),
    /// on `vcs` VCs (at least [`Self::classes`]).
    pub(super) fn with_late_class(mut self, vcs: u8) -> DragonflyRouting {
        self.late = true;
        self.vcs = vcs.max(self.classes());
        self
    }

    /// VC classes: the mode's, and one more with PAR's late turns (`LATE`).
    pub fn classes(&self) -> u8 {
        self.mode.classes() + self.late as u8
    }

    /// The network's groups and global links.
    pub(super) fn wiring(&self) -> &DragonflyWiring {
        &self.wiring
    }

    /// How many intermediates VAL draws from (1 for MIN).
    pub(super) fn draws(&self) -> u32 {
        let w = &self.wiring;
        match self.mode {
            Mode::Min => 1,
            Mode::Val(Intermediate::Group) => w.g,
            Mode::Val(Intermediate::Router) => w.g * w.a,
        }
    }

    /// The state the source leaves a packet in for draw `k` of
    /// [`Self::draws`].
    pub(super) fn state_for(&self, pkt: &PacketInfo, k: u32) -> RouteState {
        let w = &self.wiring;
        let (gs, gd) = (w.group(pkt.src_switch), w.group(pkt.dst_switch));
        let minimal = match self.mode {
            Mode::Min => true,
            Mode::Val(Intermediate::Group) => gs == gd || k == gs || k == gd,
            Mode::Val(Intermediate::Router) => gs == gd || w.group(k) == gs,
        };
        RouteState {
            phase: minimal as u8,
            via: [k, 0],
            ..RouteState::default()
        }
    }

    /// Whether the packet has reached its intermediate at `at` (and so is
    /// in phase 1 there).
    pub(super) fn phase_at(&self, at: SwitchId, st: &RouteState) -> u8 {
        if st.phase == 1 {
            return 1;
        }
        let reached = match self.mode {
            Mode::Min => true,
            Mode::Val(Intermediate::Group) => self.wiring.group(at) == st.via[0],
            Mode::Val(Intermediate::Router) => at == st.via[0],
        };
        reached as u8
    }

    /// The VC class of a hop taken in state `st` (`tag` global channels
    /// crossed before it, in `phase`, perhaps [`LATE`]).
    fn class(&self, st: &RouteState) -> u8 {
        let globals = st.tag;
        let up =
            matches!(self.mode, Mode::Val(Intermediate::Router)) && st.phase == 1 && globals >= 1;
        globals as u8 + up as u8 + (st.aux & LATE != 0) as u8
    }

    /// The link a minimal route from `s` takes towards group `t` (and
    /// router `d`, when the target is one) (module docs).
    fn link(&self, s: SwitchId, t: u32, d: Option<SwitchId>) -> Option<GlobalLink> {
        let w = &self.wiring;
        let all = w.links(w.group(s), t);
        let key = s as usize + d.map_or(t as usize, |d| d as usize);
        let pick = |want: &dyn Fn(&GlobalLink) -> bool| -> Option<GlobalLink> {
            let n = all.iter().filter(|l| want(l)).count();
            (n > 0).then(|| all.iter().filter(|l| want(l)).nth(key % n).copied())?
        };
        let lands = |l: &GlobalLink| d.is_some_and(|d| l.to == d);
        pick(&|l| l.from == s && lands(l))
            .or_else(|| pick(&|l| l.from == s))
            .or_else(|| pick(&|l| lands(l)))
            .or_else(|| pick(&|_| true))
    }

    /// The next hop from `at` for a packet to `dst` in state `st`: its
    /// port and VC class, with `st` updated as the hop is taken (phase,
    /// global channels crossed). `None` at the destination or where the
    /// network offers no way (a group pair without a link, impossible on
    /// a built dragonfly).
    pub fn step(&self, at: SwitchId, dst: SwitchId, st: &mut RouteState) -> Option<(PortId, u8)> {
        let w = &self.wiring;
        st.phase = self.phase_at(at, st);
        let (tg, target) = match (st.phase, self.mode) {
            (1, _) | (_, Mode::Min) => (w.group(dst), Some(dst)),
            (_, Mode::Val(Intermediate::Group)) => (st.via[0], None),
            (_, Mode::Val(Intermediate::Router)) => (w.group(st.via[0]), Some(st.via[0])),
        };
        let class = self.class(st);
        if w.group(at) == tg {
            let t = target.filter(|&t| t != at)?;
            return Some((w.local_port(at, t), class));
        }
        let link = self.link(at, tg, target)?;
        if link.from == at {
            st.tag += 1;
            Some((link.port, class))
        } else {
            Some((w.local_port(at, link.from), class))
        }
    }

    /// The VCs of class `c`.
    pub(super) fn vc_range(&self, c: u8) -> (u8, u8) {
        let (v, n) = (self.vcs as u32, self.classes() as u32);
        let c = c.min(self.classes() - 1) as u32;
        ((c * v / n) as u8, ((c + 1) * v / n - 1) as u8)
    }

    /// Every equally likely source state of a packet (one per draw).
    fn all_states(&self, pkt: &PacketInfo) -> Vec<RouteState> {
        (0..self.draws()).map(|k| self.state_for(pkt, k)).collect()
    }

    /// The exact path law of this routing on `net` (the network it was
    /// built for).
    pub fn path_law(&self, net: &Network) -> DragonflyLaw {
        DragonflyLaw {
            routing: self.clone(),
            out: PortTable::of(net),
        }
    }

    /// Follows the route of a packet to `dst` from switch `from` in state
    /// `st` (left as the last hop leaves it), calling `visit` with each
    /// hop's port and channel; the number of hops. At most 16 hops: a
    /// route on a dragonfly has 6 at most.
    pub(super) fn follow(
        &self,
        out: &PortTable,
        from: SwitchId,
        dst: SwitchId,
        st: &mut RouteState,
        mut visit: impl FnMut(PortId, ChannelId),
    ) -> u32 {
        let mut at = from;
        let mut hops = 0;
        while (at != dst || self.phase_at(at, st) == 0) && hops < 16 {
            let Some((port, _)) = self.step(at, dst, st) else {
                break;
            };
            let Some(&(ch, next)) = out.0[at as usize].get(port as usize) else {
                break;
            };
            if next == u32::MAX {
                break;
            }
            visit(port, ch);
            hops += 1;
            at = next;
        }
        hops
    }
}

/// The output channel of every switch port and the switch behind it
/// (`u32::MAX`: none), for following routes off the engine.
#[derive(Clone, Debug)]
pub(super) struct PortTable(Vec<Vec<(ChannelId, SwitchId)>>);

impl PortTable {
    /// The output channel of `port` of switch `s` (`u32::MAX`: none).
    pub(super) fn channel(&self, s: SwitchId, port: PortId) -> ChannelId {
        self.0[s as usize]
            .get(port as usize)
            .map_or(u32::MAX, |&(ch, _)| ch)
    }

    pub(super) fn of(net: &Network) -> PortTable {
        PortTable(
            (0..net.num_switches() as SwitchId)
                .map(|s| {
                    net.ports(s)
                        .iter()
                        .map(|p| match p.peer {
                            Peer::Switch { switch, .. } => {
                                (p.out_channel.unwrap_or(u32::MAX), switch)
                            }
                            _ => (u32::MAX, u32::MAX),
                        })
                        .collect()
                })
                .collect(),
        )
    }
}

impl Routing for DragonflyRouting {
    fn name(&self) -> String {
        self.mode.name()
    }
    fn at_source(&mut self, src: Source<'_>) {
        let k = if self.draws() > 1 {
            below(src.rng, self.draws())
        } else {
            0
        };
        *src.state = self.state_for(src.pkt, k);
    }
    fn fixed_source_state(&self) -> Option<RouteState> {
        (self.mode == Mode::Min).then(|| RouteState {
            phase: 1,
            ..RouteState::default()
        })
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        if let Some((port, class)) = self.step(hop.at, hop.pkt.dst_switch, hop.state) {
            let (lo, hi) = self.vc_range(class);
            out.push(port, lo, hi);
        }
    }
    fn may_eject(&self, at: SwitchId, state: &RouteState) -> bool {
        self.phase_at(at, state) == 1
    }
    fn passes_destination(&self) -> bool {
        // By router, the hop from the arrival router of the destination's
        // group to the intermediate router may start at the destination.
        self.mode == Mode::Val(Intermediate::Router)
    }
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        Some(self.all_states(pkt))
    }
}

/// MIN's or VAL's exact law: each equally likely source state followed
/// hop by hop ([`DragonflyRouting::step`], the simulator's own route).
#[derive(Clone, Debug)]
pub struct DragonflyLaw {
    routing: DragonflyRouting,
    out: PortTable,
}

impl PathLaw for DragonflyLaw {
    fn name(&self) -> String {
        self.routing.name()
    }
    fn denominator(&self) -> i128 {
        self.routing.draws() as i128
    }
    fn paths(&self, s: SwitchId, d: SwitchId) -> Vec<(i128, Vec<ChannelId>)> {
        let r = &self.routing;
        let pkt = PacketInfo {
            src_host: 0,
            dst_host: 0,
            src_switch: s,
            dst_switch: d,
            flits: 1,
        };
        let mut out = Vec::with_capacity(r.draws() as usize);
        for mut st in r.all_states(&pkt) {
            let mut path = Vec::with_capacity(6);
            r.follow(&self.out, s, d, &mut st, |_, ch| path.push(ch));
            out.push((1, path));
        }
        out
    }
}
