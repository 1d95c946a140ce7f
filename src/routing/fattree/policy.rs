//! What a routing tells a switch model that decides once per time slice
//! ([`crate::sim::TimeSlice`]) beyond its next hops: in which order a
//! switch sends the messages it holds, and how many it accepts from each
//! neighbour. The weighted-path paper's greedy balancer (file 001 of
//! `../shared/papers/`, §3) is the one that sets them: step 5 ("oldest
//! first") orders by begin time, steps 1-4 try messages in random order,
//! and step 7 reserves access-switch buffer per neighbour (`in_accept`). A
//! routing hands its policy out through
//! [`Routing::slice_policy`](crate::routing::Routing::slice_policy); with
//! none the model keeps arrival order and sets no quota.

use crate::routing::{PacketInfo, RouteState};
use crate::topology::SwitchId;

/// The time-slice model's per-switch policy of a routing.
pub trait SlicePolicy {
    /// The key by which switch `at` orders the packets it holds before
    /// sending them (lowest first; equal keys keep arrival order), asked
    /// once per switch the packet enters (when it is offered to `at`).
    /// `None` keeps arrival order. The paper's "oldest first" step orders
    /// by generation time, then by larger remaining distance.
    fn send_key(
        &self,
        _at: SwitchId,
        _pkt: &PacketInfo,
        _state: &RouteState,
        _gen_cycle: u64,
    ) -> Option<u64> {
        None
    }

    /// How many packets switch `at` accepts from each neighbour in one
    /// slice, given its free buffer space at the start of the slice and
    /// its number of neighbours. `None`: no per-neighbour limit. The
    /// paper's access-buffer reservation is such a quota.
    fn neighbour_quota(&self, _at: SwitchId, _free: u32, _neighbours: u32) -> Option<u32> {
        None
    }

    /// When [`SlicePolicy::send_key`] gives no key: `true` to try a
    /// switch's packets in a fresh random order every slice (the paper's
    /// order before its "oldest first" step), `false` for arrival order.
    fn shuffle_sends(&self) -> bool {
        false
    }
}
