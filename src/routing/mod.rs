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
//! routing ([`MidimewMinimal`]), D-mod-k on fat trees ([`DModK`]), up*/down*
//! ([`UpDown`]) and path-selection tables ([`SourceRouted`]). Every one is
//! listed in [`registry::KINDS`].
//!
//! The contract also carries what multi-phase and feedback routings need:
//! the cycle at the source and at every hop ([`Source::now`], [`Hop::now`]),
//! route state with two waypoints and a path index ([`RouteState`]),
//! delivery feedback after a modelled delay or a real acknowledgement
//! packet ([`Acknowledgement`], [`Feedback`]), and hooks for switch
//! models that decide once per time slice ([`Routing::send_key`],
//! [`Routing::shuffle_sends`], [`Routing::neighbour_quota`],
//! [`BufferView::occupancy`]). The fat-tree balancers ([`fattree`]) use
//! them.
//!
//! Ejection is not the routing's business: at the destination switch the
//! simulator sends the packet to its host.

mod candidates;
mod dmodk;
mod dor;
pub mod fattree;
mod feedback;
mod kind;
mod midimew;
mod minimal;
mod oblivious;
pub mod registry;
mod source_routed;
mod spec;
mod state;
mod updown;
mod walk;

pub use candidates::{Candidate, Candidates, MAX_CANDIDATES};
pub use dmodk::DModK;
pub use dor::{CubeDor, DorSpec, Ecube, TieRule, VcClasses};
pub use feedback::{Acknowledgement, Feedback};
pub use midimew::MidimewMinimal;
pub use oblivious::{Law, Oblivious, ObliviousSpec, Plan};
pub use registry::{Family, RoutingBuild, RoutingKind};
pub use source_routed::SourceRouted;
pub use spec::{RoutingError, RoutingSpec};
pub use state::{PacketInfo, RouteState};
pub use updown::{UpDown, UpDownSpec, UpDownTables};
pub use walk::{Step, WalkError, walk};

use crate::rng::SimRng;
use crate::topology::{PortId, SwitchId};

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
    /// The current cycle.
    pub now: u64,
    pub pkt: &'a PacketInfo,
    pub state: &'a mut RouteState,
    /// Buffer state of the switch's output ports.
    pub view: &'a dyn BufferView,
    /// The routing random stream.
    pub rng: &'a mut SimRng,
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

    /// Called exactly once per switch the packet visits (other than its
    /// destination switch), when its head flit reaches the front of its input
    /// virtual channel. Pushes the allowed next hops in preference order.
    /// State changes must not depend on which candidate the selection later
    /// picks. A candidate must name an existing port and a VC range inside
    /// `0..V`; the engine refuses anything else with a named error
    /// ([`SimError::BadCandidate`](crate::sim::SimError::BadCandidate)).
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates);

    /// How this routing wants to hear of deliveries (none by default: the
    /// engine then does no feedback work at all).
    fn acknowledgement(&self) -> Acknowledgement {
        Acknowledgement::None
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

    /// A per-channel quantity the routing itself defines, e.g. crossing
    /// paths of its chosen tables (Villalobos et al. §3): a label and one
    /// value per network channel id (a shorter vector means zero for the
    /// channels after it). `None` when the routing defines none.
    fn channel_values(&self) -> Option<(String, Vec<f64>)> {
        None
    }

    /// For switch models that decide once per time slice: the key by which
    /// switch `at` orders the packets it holds before sending them (lowest
    /// first; equal keys keep arrival order), asked once per switch the
    /// packet enters (when it is offered to `at`). `None` (the default)
    /// keeps arrival order. The
    /// fat-tree paper's "oldest first" step orders by generation time, then
    /// by larger remaining distance.
    fn send_key(
        &self,
        _at: SwitchId,
        _pkt: &PacketInfo,
        _state: &RouteState,
        _gen_cycle: u64,
    ) -> Option<u64> {
        None
    }

    /// For switch models that decide once per time slice: how many packets
    /// switch `at` accepts from each neighbour in one slice, given its free
    /// buffer space at the start of the slice and its number of
    /// neighbours. `None` (the default): no per-neighbour limit. The
    /// fat-tree paper's access-buffer reservation is such a quota.
    fn neighbour_quota(&self, _at: SwitchId, _free: u32, _neighbours: u32) -> Option<u32> {
        None
    }

    /// For switch models that decide once per time slice, when
    /// [`Routing::send_key`] gives no key: `true` to try a switch's packets
    /// in a fresh random order every slice (the fat-tree paper's order
    /// before its "oldest first" step), `false` (the default) for arrival
    /// order.
    fn shuffle_sends(&self) -> bool {
        false
    }
}
