//! What a routing carries in a packet ([`RouteState`]) and knows about it
//! ([`PacketInfo`]).

use crate::topology::{HostId, SwitchId};

/// Routing state carried in a packet. Its meaning belongs to the routing
/// that created it; the engine only copies it into the packet's
/// [`Feedback`](super::Feedback). 24 bytes, so a packet stays within one cache line.
///
/// Room for a two-phase route on a torus of up to 8 dimensions (an
/// intermediate node in `via[0]`, a direction bit per dimension and two
/// dimension orders of 8 × 3 bits in `tag` and `aux`), or a three-step
/// route through two waypoints (`via[0]`, `via[1]`) with the index of the
/// path taken in `path`, which the routing gets back in its feedback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct RouteState {
    /// Phase or step of a multi-phase route.
    pub phase: u8,
    /// Hops taken so far (source routing).
    pub hop: u16,
    /// Which of the routing's paths the packet took.
    pub path: u16,
    pub tag: u32,
    pub aux: u32,
    /// Waypoints (intermediate nodes), routing-defined.
    pub via: [u32; 2],
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
