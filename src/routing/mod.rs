//! Routing: which output ports and virtual channels a packet may take.
//!
//! Two shapes share one trait, as the papers need both:
//! - chosen at the source ([`Routing::at_source`]): a full route or
//!   waypoints stored in the packet's [`RouteState`] (static tables from
//!   path selection);
//! - chosen per hop ([`Routing::route`]): the set of candidates a routing
//!   function allows at this switch, in preference order; the simulator's
//!   [`Selection`] policy then picks one with local buffer state, or the
//!   routing orders them itself by looking at the [`BufferView`].
//!
//! Routings today: dimension order on tori and meshes and e-cube on
//! hypercubes ([`CubeDor`], [`Ecube`]), the oblivious load-balanced torus
//! routings RDOR, VAL, ROMM, RLB and RLBth ([`Oblivious`]), minimal midimew
//! routing ([`MidimewMinimal`]), MIN and VAL on the dragonfly and the
//! adaptive UGAL-L, UGAL-G and PAR ([`dragonfly`], Kim et al. §4.1-4.2;
//! Jiang et al.), D-mod-k on fat trees ([`DModK`]), up*/down*
//! ([`UpDown`]) and path-selection tables ([`SourceRouted`]); Duato's
//! minimal adaptive routing with a DOR escape channel ([`adaptive`]) and
//! Distributed Routing Balancing ([`drb`], Franco, Garcés and Luque); on
//! the time-slice model, the weighted-path paper's greedy fat-tree balancer
//! with ECMP and DRILL as baselines ([`fattree`]). Every one is listed in
//! [`registry::KINDS`].
//!
//! The contract also carries what multi-phase and feedback routings need:
//! the cycle at the source and at every hop ([`Source::now`], [`Hop::now`]),
//! route state with two waypoints and a path index ([`RouteState`]),
//! delivery feedback after a modelled delay or a real acknowledgement
//! packet ([`Acknowledgement`], [`Feedback`]), and, for switch models
//! that decide once per time slice, the routing's send order and quota
//! ([`Routing::slice_policy`], [`fattree::SlicePolicy`]) and the
//! neighbours' fill ([`BufferView::occupancy`]). The fat-tree balancers
//! ([`fattree`]) use them.
//!
//! Ejection is not the routing's business: at the destination switch the
//! simulator sends the packet to its host.

pub mod adaptive;
mod candidates;
mod dmodk;
mod dmodk_fabric;
mod dor;
pub mod dragonfly;
pub mod drb;
pub mod fattree;
mod feedback;
mod kind;
mod law;
mod midimew;
mod minimal;
mod oblivious;
mod pair_table;
mod path_law;
pub mod registry;
mod source_routed;
mod spec;
mod state;
mod updown;
mod walk;

pub use candidates::{Candidate, Candidates, MAX_CANDIDATES};
pub use dmodk::DModK;
pub use dor::{CubeDor, DorLaw, DorSpec, Ecube, TabulatedDor, TieRule, VcClasses};
pub use feedback::{Acknowledgement, Feedback};
pub use kind::{
    Family, Knee, KneeLatency, KneePoint, KneeRequest, RoutingBuild, RoutingKind, THRESHOLD_DIGITS,
    threshold_rounded, tolerance_of,
};
pub use law::{
    DimDraw, DimOrder, DimStep, Dir, Law, ObliviousLaw, box_coords, distance, in_box, minimal_dirs,
    one_phase, permutations,
};
pub use midimew::MidimewMinimal;
pub use oblivious::{
    Oblivious, ObliviousSpec, Plan, RdorLaw, RlbLaw, RommLaw, ValLaw, classes, rlb_directions,
};
pub(crate) use pair_table::NO_ANSWER;
pub use pair_table::{PairTable, TABLE_MAX_SWITCHES};
pub use path_law::PathLaw;
pub use source_routed::SourceRouted;
pub use spec::{RoutingError, RoutingSpec, too_few_vcs};
pub use state::{PacketInfo, RouteState};
pub use updown::{UpDown, UpDownSpec, UpDownTables};
pub use walk::{Step, WalkError, walk};

use crate::rng::SimRng;
use crate::topology::{ChannelId, PortId, SwitchId};

/// Local state a per-hop decision may look at.
pub trait BufferView {
    /// Free buffer slots (credits) on the downstream side of `port`'s virtual
    /// channel `vc` at the current switch.
    fn free_slots(&self, port: PortId, vc: u8) -> u32;
    /// Messages the switch behind `port` holds, as this switch knows it,
    /// where the switch model has that notion (the time-slice model: its
    /// fill at the start of the slice plus what this switch sent it since,
    /// which may exceed its capacity). `None` by default.
    fn occupancy(&self, _port: PortId) -> Option<u32> {
        None
    }
    /// Flits this switch has sent on `port`'s channel that the next switch
    /// has not yet freed, over all its VCs: the credits in use (BookSim2's
    /// `GetUsedCredit`) on the input-queued router, the output queue's
    /// length on the output-queued one. What UGAL-L compares (Kim et al.,
    /// ISCA 2008, §4.2: the "queue length" of an output). 0 by default.
    fn queued(&self, _port: PortId) -> u32 {
        0
    }
    /// The same for any channel of the network, as a global observer sees
    /// it: UGAL-G's "global information" (Kim et al. §4.2), an ideal no
    /// router has. `None` where the switch model offers no such view.
    fn channel_queued(&self, _channel: ChannelId) -> Option<u32> {
        None
    }
}

/// A packet leaving its source host: what [`Routing::at_source`] sees.
pub struct Source<'a> {
    /// The cycle its head leaves the source host.
    pub now: u64,
    pub pkt: &'a PacketInfo,
    pub state: &'a mut RouteState,
    /// The routing random stream.
    pub rng: &'a mut SimRng,
}

/// A packet's head at the front of an input buffer of switch `at`: what
/// [`Routing::route`] sees.
pub struct Hop<'a> {
    /// The switch the head is at.
    pub at: SwitchId,
    /// The port it arrived on (a host port at the source switch), so a
    /// routing can learn its last hop.
    pub in_port: PortId,
    /// The virtual channel it arrived on (at the source switch, the VC of
    /// its injection channel), so a routing can learn which of the VCs it
    /// offered at the last hop the packet took (DRB's step classes).
    pub in_vc: u8,
    /// The current cycle.
    pub now: u64,
    pub pkt: &'a PacketInfo,
    pub state: &'a mut RouteState,
    /// Buffer state of the switch's output ports.
    pub view: &'a dyn BufferView,
    /// The routing random stream.
    pub rng: &'a mut SimRng,
}

/// The router's timing, as far as a routing may reason about it: what a
/// packet takes on an idle network. DRB needs it for the canonical
/// (zero-load) latency of its metapaths (Franco et al. §2, Definition 3);
/// the engine hands it to every routing it runs ([`Routing::set_timing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Cycles a flit spends on a channel.
    pub link_latency: u16,
    /// Cycles from a head's arrival at a switch to its earliest departure.
    pub switch_delay: u16,
    /// Flits per data packet.
    pub packet_flits: u16,
    /// Buffer depth per virtual channel in flits.
    pub buffer_flits: u16,
    /// Store-and-forward switching (the whole packet waits at every switch).
    pub store_and_forward: bool,
    /// VCs are reallocated only into empty buffers
    /// ([`RouterConfig::wait_for_tail_credit`](crate::sim::RouterConfig::wait_for_tail_credit)).
    pub wait_for_tail_credit: bool,
}

impl Default for Timing {
    /// One-cycle links and switches, one-flit packets, deep buffers,
    /// wormhole.
    fn default() -> Self {
        Timing {
            link_latency: 1,
            switch_delay: 1,
            packet_flits: 1,
            buffer_flits: 64,
            store_and_forward: false,
            wait_for_tail_credit: false,
        }
    }
}

impl Timing {
    /// Cycles between two flits of one packet on an idle network: 1 when a
    /// VC's buffer covers the credit round trip (`2·link + switch` cycles),
    /// otherwise the round trip over the buffer depth, rounded up (one-flit
    /// buffers with one-cycle links and switches: a flit every 3 cycles).
    pub fn flit_interval(&self) -> u64 {
        let rtt = 2 * self.link_latency as u64 + self.switch_delay as u64;
        rtt.div_ceil(self.buffer_flits.max(1) as u64).max(1)
    }

    /// True when a VC holds one packet at a time: it is reallocated only
    /// into an empty buffer, because the router waits for the tail credit
    /// or because a buffer holds one flit. Duato's theorem assumes it.
    pub fn one_packet_per_vc(&self) -> bool {
        self.wait_for_tail_credit || self.buffer_flits <= 1
    }

    /// Zero-load latency, head injection to tail delivery, of a data packet
    /// crossing `switches` switches (source and destination included):
    /// `S·(link + switch) + link + (L - 1)·interval`
    /// ([`Timing::flit_interval`]), plus `S·(L - 1)` under store-and-forward
    /// (the input-queued router's model).
    pub fn zero_load(&self, switches: u32) -> u64 {
        let per = (self.link_latency + self.switch_delay) as u64;
        let l = self.packet_flits.max(1) as u64 - 1;
        let s = switches.max(1) as u64;
        let saf = if self.store_and_forward { s * l } else { 0 };
        s * per + self.link_latency as u64 + l * self.flit_interval() + saf
    }
}

/// How the simulator picks among a hop's candidates when allocating a
/// virtual channel (BookSim's "selection function").
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Selection {
    /// Only the first candidate: deterministic routing waits for it.
    #[default]
    Fixed,
    /// The first candidate (in routing order) with a free virtual channel.
    #[strum(to_string = "first-free", serialize = "first_free")]
    FirstFree,
    /// The free output virtual channel with the most credits (ties: first).
    Adaptive,
}

crate::spec_options::keyword_enum!(Selection);

/// A routing algorithm (or balancer) that the simulator consults.
pub trait Routing: Send {
    /// Short name, e.g. `dor` or `updown`.
    fn name(&self) -> String;

    /// Called once when the packet's head leaves its source host.
    fn at_source(&mut self, _src: Source<'_>) {}

    /// The route state [`Routing::at_source`] leaves every packet in, for a
    /// routing whose `at_source` depends on nothing: not on the packet,
    /// the cycle or a random draw (it draws none), and it changes no state
    /// of the routing's own. The engine then copies this state into each
    /// new packet instead of calling `at_source` (DOR with ties to +,
    /// [`CubeDor`]; 2.2 % of `torus:8x8`'s instructions at 0.3,
    /// docs/performance.md, "Generation and injection"). `None` by
    /// default: `at_source` is called.
    fn fixed_source_state(&self) -> Option<RouteState> {
        None
    }

    /// Called exactly once per switch the packet visits (other than its
    /// destination switch), when its head flit reaches the front of its input
    /// virtual channel. Pushes the allowed next hops in preference order.
    /// State changes must not depend on which candidate the selection later
    /// picks. A candidate must name an existing port and a VC range inside
    /// `0..V`; the engine refuses anything else with a named error
    /// ([`SimError::BadCandidate`](crate::sim::SimError::BadCandidate)).
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates);

    /// The routing's answers as a table, for a routing whose answer at a
    /// switch depends on nothing but that switch and the destination
    /// switch: not on the packet's route state, the port or VC it came in
    /// on, the cycle, the buffers or random draws (DOR with its default
    /// rules, [`TabulatedDor`]). The engine then looks a hop up instead of
    /// calling [`Routing::route`], when every answer is one it would
    /// accept ([`PairTable::fits`]); so `route` must give the same answers
    /// and change no state. Asked once, when the routing starts. `None`
    /// by default.
    fn pair_table(&self) -> Option<std::sync::Arc<PairTable>> {
        None
    }

    /// How this routing wants to hear of deliveries (none by default: the
    /// engine then does no feedback work at all).
    fn acknowledgement(&self) -> Acknowledgement {
        Acknowledgement::None
    }

    /// The router's timing, handed over by the engine before the routing
    /// routes anything (ignored by default).
    fn set_timing(&mut self, _timing: Timing) {}

    /// The routing itself, for views that inspect a particular routing's
    /// state (the app's DRB panels downcast it). `None` by default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }

    /// Delivery feedback, when [`Routing::acknowledgement`] asks for it:
    /// called in the cycle the source hears of the delivery
    /// ([`Feedback::heard_cycle`]).
    fn on_feedback(&mut self, _fb: &Feedback) {}

    /// Called when the packet's head reaches its destination switch (in
    /// place of [`Routing::route`]), only for routings that
    /// [pass their destination](Routing::passes_destination): may it leave
    /// for its host here? A two-phase route whose first phase crosses the
    /// destination goes on to its intermediate node instead.
    fn may_eject(&self, _at: SwitchId, _state: &RouteState) -> bool {
        true
    }

    /// True when a packet's route may cross its destination switch before
    /// it is done (multi-phase routes); the engine then asks
    /// [`Routing::may_eject`] there. False (the default) saves the question.
    fn passes_destination(&self) -> bool {
        false
    }

    /// Every route state [`Routing::at_source`] can give this packet, for
    /// exhaustive checks (the channel-dependency test walks them all);
    /// `None` when the routing does not enumerate them.
    fn source_states(&self, _pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        None
    }

    /// True when [`Routing::route`] reads [`Hop::in_vc`] (DRB learns its
    /// step class from it): exhaustive checks then follow every VC a
    /// candidate allows as a route of its own. False by default.
    fn learns_vc(&self) -> bool {
        false
    }

    /// The VCs (lowest, highest) the routing uses as Duato's *adaptive*
    /// channels, every other data VC being an *escape* channel: its
    /// deadlock freedom rests on the escape VCs' extended dependency graph
    /// ([`crate::analysis::dependency_graph`] builds that one). `None` (the
    /// default): every VC counts.
    fn adaptive_vcs(&self) -> Option<(u8, u8)> {
        None
    }

    /// A per-channel quantity the routing itself defines, e.g. crossing
    /// paths of its chosen tables (Villalobos et al. §3): a label and one
    /// value per network channel id (a shorter vector means zero for the
    /// channels after it). `None` when the routing defines none.
    fn channel_values(&self) -> Option<(String, Vec<f64>)> {
        None
    }

    /// For switch models that decide once per time slice
    /// ([`crate::sim::TimeSlice`]): the order in which a switch sends the
    /// messages it holds and its per-neighbour quota
    /// ([`fattree::SlicePolicy`]). `None` (the default): arrival order, no
    /// quota. The weighted-path paper's greedy balancer sets one.
    fn slice_policy(&self) -> Option<&dyn fattree::SlicePolicy> {
        None
    }
}
