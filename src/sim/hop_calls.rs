//! The endpoint layer's calls on a flit's hop, as a switch model's
//! allocation loop makes them: on [`Endpoints`] itself when one thread
//! allocates every switch, or on a `SharedHops` per thread when two
//! threads allocate a cycle's switches at once, each its own half
//! (`sim/input_queued/two_threads.rs`, `sim/shared_hops.rs`).

use super::endpoints::Endpoints;
use super::route_fault::Faulted;
use crate::routing::{BufferView, Candidate, Candidates};
use crate::topology::{PortId, SwitchId};

/// What the allocation loop asks of the endpoint layer per hop. The
/// methods are [`Endpoints`]'s of the same names.
pub(crate) trait HopCalls {
    /// [`Endpoints::data_vcs`].
    fn data_vcs(&self) -> u8;
    /// [`Endpoints::route`].
    #[allow(clippy::too_many_arguments)]
    fn route<const TABLES: bool>(
        &mut self,
        id: u32,
        at: SwitchId,
        in_port: PortId,
        in_vc: u8,
        now: u64,
        view: &dyn BufferView,
        ports: usize,
        vcs: u8,
        out: &mut Candidates,
    ) -> Result<(), Faulted>;
    /// [`Endpoints::table_route`].
    fn table_route(&mut self, id: u32, at: SwitchId, vcs: u8) -> Result<Candidate, Faulted>;
    /// [`Endpoints::table_lookup`].
    fn table_lookup(&mut self, id: u32, at: SwitchId, vcs: u8) -> Option<Candidate>;
    /// [`Endpoints::count_switch`].
    fn count_switch(&mut self, id: u32);
    /// [`Endpoints::head_left`].
    fn head_left(&mut self, id: u32, waited: u64);
    /// [`Endpoints::channel_traversal`].
    fn channel_traversal(&mut self, channel: usize, head: bool, waited: u64);
    /// [`Endpoints::progress`].
    fn progress(&mut self, now: u64);
    /// [`Endpoints::prefetch_packet`].
    fn prefetch_packet(&self, id: u32);
    /// [`Endpoints::flit_delivered`].
    fn flit_delivered(&mut self, now: u64, id: u32, tail: bool);
    /// Packet `id`'s generation cycle (age-based arbitration).
    fn gen_cycle(&self, id: u32) -> u64;
}

impl HopCalls for Endpoints {
    #[inline(always)]
    fn data_vcs(&self) -> u8 {
        Endpoints::data_vcs(self)
    }
    #[inline(always)]
    fn route<const TABLES: bool>(
        &mut self,
        id: u32,
        at: SwitchId,
        in_port: PortId,
        in_vc: u8,
        now: u64,
        view: &dyn BufferView,
        ports: usize,
        vcs: u8,
        out: &mut Candidates,
    ) -> Result<(), Faulted> {
        Endpoints::route::<TABLES>(self, id, at, in_port, in_vc, now, view, ports, vcs, out)
    }
    #[inline(always)]
    fn table_route(&mut self, id: u32, at: SwitchId, vcs: u8) -> Result<Candidate, Faulted> {
        Endpoints::table_route(self, id, at, vcs)
    }
    #[inline(always)]
    fn table_lookup(&mut self, id: u32, at: SwitchId, vcs: u8) -> Option<Candidate> {
        Endpoints::table_lookup(self, id, at, vcs)
    }
    #[inline(always)]
    fn count_switch(&mut self, id: u32) {
        Endpoints::count_switch(self, id);
    }
    #[inline(always)]
    fn head_left(&mut self, id: u32, waited: u64) {
        Endpoints::head_left(self, id, waited);
    }
    #[inline(always)]
    fn channel_traversal(&mut self, channel: usize, head: bool, waited: u64) {
        Endpoints::channel_traversal(self, channel, head, waited);
    }
    #[inline(always)]
    fn progress(&mut self, now: u64) {
        Endpoints::progress(self, now);
    }
    #[inline(always)]
    fn prefetch_packet(&self, id: u32) {
        Endpoints::prefetch_packet(self, id);
    }
    #[inline(always)]
    fn flit_delivered(&mut self, now: u64, id: u32, tail: bool) {
        Endpoints::flit_delivered(self, now, id, tail);
    }
    #[inline(always)]
    fn gen_cycle(&self, id: u32) -> u64 {
        self.packet(id).gen_cycle
    }
}
