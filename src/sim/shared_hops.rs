//! The endpoint layer as each of two threads sees it while they allocate
//! one cycle's switches at once (`sim/input_queued/two_threads.rs`;
//! native builds), and as one thread sees it when the same runs allocate
//! on one ([`SharedHops::sole`]).

use super::endpoints::{Endpoints, HopParts};
use super::hop_calls::HopCalls;
use super::packet::Packet;
use super::route_fault::{Faulted, RouteFault, table_answer, table_lookup};
use super::stats::ChannelCounters;
use crate::routing::{BufferView, Candidate, Candidates, PairTable};
use crate::topology::{Network, PortId, SwitchId};
use std::sync::Arc;

/// The endpoint layer as each of two threads sees it while they allocate
/// one cycle's switches at once, each its own half: only runs whose every
/// answer comes from a table ([`Endpoints::only_tables`]) and that count no
/// blocked cycles (nothing reads them) get one. Per hop a thread writes
/// only the record of the packet whose head it routes (its hop count) and
/// the counters of its own switches' output channels; a head is at one
/// switch at a time and a channel has one upstream switch, so the two
/// threads never write the same record. What both would write (the
/// watchdog's progress, a routing fault) each keeps to itself until
/// [`end_shared_hops`] takes them in, in switch order.
///
/// The same runs on one thread allocate through one such view
/// ([`SharedHops::sole`]): what a hop needs of the endpoint layer (the
/// slab's and the counters' addresses, whether it is measuring) is then
/// in a small record of the loop's own, read where the loop needs it,
/// rather than behind the endpoint layer's pointer, and a hop neither
/// tests whether blocked cycles are counted nor tells the watchdog per
/// switch (1.1 % fewer instructions on `torus:8x8` at 0.3 and 0.05,
/// docs/performance.md, "What was tried", look 16). The results are the
/// same: the same answers, counters and faults, and the watchdog hears of
/// the cycle's progress once, at its end, as it did per switch.
pub(crate) struct SharedHops<'a> {
    packets: *mut Packet,
    packets_len: usize,
    channels: *mut ChannelCounters,
    channels_len: usize,
    net: &'a Network,
    tables: &'a [Option<Arc<PairTable>>],
    data_vcs: u8,
    measuring: bool,
    /// Something moved in this thread's half.
    progressed: bool,
    /// The first routing fault in this thread's half.
    fault: Option<RouteFault>,
}

// SAFETY: the pointers are the packet slab's and the channel counters',
// taken from the endpoint layer's unique borrow, which lasts as long as
// `'a`; the two threads write disjoint records through them (see the
// type's documentation), and `Network` and the tables are only read.
#[allow(unsafe_code)]
unsafe impl Send for SharedHops<'_> {}

/// What a thread's half of a cycle left for the endpoint layer to take in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HopsOutcome {
    progressed: bool,
    fault: Option<RouteFault>,
}

impl<'a> SharedHops<'a> {
    /// The two threads' views of the endpoint layer for one cycle, or None
    /// when [`Endpoints::hops_can_be_shared`] is false.
    ///
    /// # Safety
    ///
    /// The two threads route only heads at their own switches and count
    /// only their own switches' output channels (the type's documentation),
    /// so that no packet record or channel counter is written by both.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn pair(ep: &'a mut Endpoints) -> Option<[SharedHops<'a>; 2]> {
        let HopParts {
            packets,
            channels,
            net,
            tables,
            data_vcs,
            measuring,
        } = ep.hop_parts()?;
        let (packets, packets_len) = (packets.as_mut_ptr(), packets.len());
        let (channels, channels_len) = (channels.as_mut_ptr(), channels.len());
        let one = || SharedHops {
            packets,
            packets_len,
            channels,
            channels_len,
            net,
            tables,
            data_vcs,
            measuring,
            progressed: false,
            fault: None,
        };
        Some([one(), one()])
    }

    /// The one view of a thread that allocates every switch of the cycle
    /// alone, or None when [`Endpoints::hops_can_be_shared`] is false.
    /// Safe: the endpoint layer's unique borrow is this one view's.
    pub(crate) fn sole(ep: &'a mut Endpoints) -> Option<SharedHops<'a>> {
        // SAFETY: one view, so no packet record or channel counter is
        // written through another.
        #[allow(unsafe_code)]
        unsafe { Self::pair(ep) }.map(|[one, _]| one)
    }
}

/// Take in what the views of cycle `now` left, in switch order (the two
/// threads' halves, the lower half's first, or the one view of
/// [`SharedHops::sole`]): the watchdog hears of progress if any moved a
/// flit, and the first fault in switch order is the one the run stops
/// with.
pub(crate) fn end_shared_hops(
    ep: &mut Endpoints,
    now: u64,
    halves: &[HopsOutcome],
) -> Result<(), Faulted> {
    if halves.iter().any(|h| h.progressed) {
        ep.progress(now);
    }
    match halves.iter().find_map(|h| h.fault) {
        Some(f) => {
            ep.record_fault(f);
            Err(Faulted)
        }
        None => Ok(()),
    }
}

impl SharedHops<'_> {
    /// What this thread's half left ([`end_shared_hops`]).
    pub(crate) fn outcome(&self) -> HopsOutcome {
        HopsOutcome {
            progressed: self.progressed,
            fault: self.fault,
        }
    }

    #[inline(always)]
    #[allow(unsafe_code)]
    fn packet_mut(&mut self, id: u32) -> &mut Packet {
        assert!(
            (id as usize) < self.packets_len,
            "packet {id} out of the slab"
        );
        // SAFETY: in bounds (checked); the packet's head is at one of this
        // thread's switches, so the other thread does not touch its record.
        unsafe { &mut *self.packets.add(id as usize) }
    }
}

impl HopCalls for SharedHops<'_> {
    #[inline(always)]
    fn data_vcs(&self) -> u8 {
        self.data_vcs
    }
    /// Table answers only ([`table_answer`]; no routing is called).
    /// Two threads allocate only runs whose every answer is a table's, and
    /// their loop routes through [`HopCalls::table_route`]; this is the
    /// same answer for the loop's general path.
    #[inline(always)]
    fn route<const TABLES: bool>(
        &mut self,
        id: u32,
        at: SwitchId,
        _in_port: PortId,
        _in_vc: u8,
        _now: u64,
        _view: &dyn BufferView,
        _ports: usize,
        vcs: u8,
        out: &mut Candidates,
    ) -> Result<(), Faulted> {
        debug_assert!(TABLES, "shared hops answer from tables only");
        let c = self.table_route(id, at, vcs)?;
        out.push(c.port, c.vc_lo, c.vc_hi);
        Ok(())
    }
    /// Table answers only ([`table_answer`]).
    #[inline(always)]
    fn table_route(&mut self, id: u32, at: SwitchId, vcs: u8) -> Result<Candidate, Faulted> {
        let (net, tables) = (self.net, self.tables);
        table_answer(self.packet_mut(id), at, net, tables, vcs).map_err(|f| {
            self.fault = Some(f);
            Faulted
        })
    }
    /// [`table_lookup`] (the packet's head is at this thread's switch,
    /// which sends it on).
    #[inline(always)]
    fn table_lookup(&mut self, id: u32, at: SwitchId, vcs: u8) -> Option<Candidate> {
        let (net, tables) = (self.net, self.tables);
        table_lookup(self.packet_mut(id), at, net, tables, vcs)
    }
    /// The packet's head is routed at one of this thread's switches.
    #[inline(always)]
    fn count_switch(&mut self, id: u32) {
        let p = self.packet_mut(id);
        p.switches = p.switches.saturating_add(1);
    }
    #[inline(always)]
    fn head_left(&mut self, _id: u32, _waited: u64) {
        // Shared only when no blocked cycles are counted.
    }
    #[inline(always)]
    #[allow(unsafe_code)]
    fn channel_traversal(&mut self, channel: usize, head: bool, waited: u64) {
        if self.measuring {
            assert!(
                channel < self.channels_len,
                "channel {channel} out of range"
            );
            // SAFETY: in bounds (checked); `channel` is an output channel of
            // one of this thread's switches, so the other thread does not
            // touch its counters.
            unsafe { (*self.channels.add(channel)).traversal(head, waited) };
        }
    }
    #[inline(always)]
    fn progress(&mut self, _now: u64) {
        self.progressed = true;
    }
    #[inline(always)]
    fn prefetch_packet(&self, id: u32) {
        if (id as usize) < self.packets_len {
            crate::sim::prefetch::prefetch_addr(self.packets.wrapping_add(id as usize));
        }
    }
    fn flit_delivered(&mut self, _now: u64, _id: u32, _tail: bool) {
        unreachable!(
            "flits reach hosts through the endpoint layer itself, before any view is made"
        );
    }
    #[inline(always)]
    #[allow(unsafe_code)]
    fn gen_cycle(&self, id: u32) -> u64 {
        assert!(
            (id as usize) < self.packets_len,
            "packet {id} out of the slab"
        );
        // SAFETY: in bounds (checked); read of a packet at this thread's
        // switch (see `packet_mut`).
        unsafe { (*self.packets.add(id as usize)).gen_cycle }
    }
}
