//! Routing: which output ports and virtual channels a packet may take.
//!
//! The routings today: dimension order on tori and meshes and e-cube on
//! hypercubes ([`CubeDor`], [`Ecube`]), minimal midimew routing
//! ([`MidimewMinimal`]), D-mod-k on fat trees ([`DModK`]), up*/down*
//! ([`UpDown`]), and the static tables of path selection
//! ([`SourceRouted`]), each built from a spec string by [`RoutingSpec`].
//!
//! Two shapes share one trait:
//! - decided at the source ([`Routing::at_source`]), kept in the packet's
//!   [`RouteState`]: the chosen path of a path-selection table, DOR's
//!   per-packet tie and class draws, the midimew jump counts;
//! - decided per hop ([`Routing::route`]): the candidates a routing allows
//!   at this switch, in preference order; the simulator's [`Selection`]
//!   policy then picks one with local buffer state (`adaptive` takes the
//!   free output virtual channel with the most credits). A routing may also
//!   order the candidates itself by looking at the [`BufferView`]; none of
//!   today's does.
//!
//! [`Routing::on_delivery`] reports each delivered packet's latency back to
//! the routing, for routings that adapt to it; none of today's uses it.
//!
//! Ejection is not the routing's business: at the destination switch the
//! simulator sends the packet to its host.

mod dmodk;
mod dor;
mod midimew;
mod source_routed;
mod spec;
mod updown;

pub use dmodk::DModK;
pub use dor::{CubeDor, Ecube, TieRule, VcClasses};
pub use midimew::MidimewMinimal;
pub use source_routed::SourceRouted;
pub use spec::{RoutingError, RoutingSpec};
pub use updown::{UpDown, UpDownTables};

use crate::rng::SimRng;
use crate::topology::{HostId, PortId, SwitchId};

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
}

/// Routing state carried in a packet. Its meaning belongs to the routing
/// that created it (phase, intermediate node, path index, hop counter...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteState {
    pub phase: u8,
    pub hop: u16,
    pub tag: u32,
    pub aux: u32,
}

/// What a routing knows about a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketInfo {
    pub src_host: HostId,
    pub dst_host: HostId,
    pub src_switch: SwitchId,
    pub dst_switch: SwitchId,
    pub flits: u16,
}

/// Local state a per-hop decision may look at.
pub trait BufferView {
    /// Free buffer slots (credits) on the downstream side of `port`'s virtual
    /// channel `vc` at the current switch.
    fn free_slots(&self, port: PortId, vc: u8) -> u32;
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
    fn at_source(&mut self, _pkt: &PacketInfo, _state: &mut RouteState, _rng: &mut SimRng) {}

    /// Called exactly once per switch the packet visits (other than its
    /// destination switch), when its head flit reaches the front of its input
    /// virtual channel. Pushes the allowed next hops in preference order.
    /// `in_port` is the port the packet arrived on, so a routing can learn
    /// its last hop. State changes must not depend on which candidate the
    /// selection later picks.
    #[allow(clippy::too_many_arguments)]
    fn route(
        &mut self,
        at: SwitchId,
        in_port: PortId,
        pkt: &PacketInfo,
        state: &mut RouteState,
        view: &dyn BufferView,
        rng: &mut SimRng,
        out: &mut Candidates,
    );

    /// Delivery feedback (DRB's acknowledgement): the packet's latency in
    /// cycles, the cycle it was delivered.
    fn on_delivery(&mut self, _pkt: &PacketInfo, _state: &RouteState, _latency: u64, _now: u64) {}

    /// A per-channel quantity the routing itself defines, e.g. crossing
    /// paths of its chosen tables (Villalobos et al. §3): a label and one
    /// value per network channel id (a shorter vector means zero for the
    /// channels after it). `None` when the routing defines none.
    fn channel_values(&self) -> Option<(String, Vec<f64>)> {
        None
    }
}
