//! The endpoint layer: everything about packets that is not moving them
//! between buffers, shared by every switch model.
//!
//! It owns the hosts' traffic sources and source queues, the packets in
//! flight, the routing epochs and their random stream, the statistics, the
//! delivery feedback ([`super::acknowledge`]) and the deadlock watchdog. A
//! switch model asks it what a host would send next ([`Endpoints::next_at`]),
//! starts packets ([`Endpoints::start`]), routes heads
//! ([`Endpoints::route`]) and reports traversals and deliveries through its
//! recording methods; it never touches a packet's statistics itself.

pub(crate) use super::route_fault::{Faulted, RouteFault, table_answer, table_lookup};

use super::acknowledge::{Acks, Pending};
use super::bits::ones;
use super::deadline::Deadlines;
use super::error::SimError;
use super::packet::{ACK_EPOCH, Packet, PacketSlab};
use super::stats::{DeliveredPacket, Stats};
use super::watchdog::Watchdog;
use crate::rng::{SimRng, Stream, stream};
use crate::routing::{
    Acknowledgement, BufferView, Candidate, Candidates, Feedback, Hop, PacketInfo, PairTable,
    RouteState, Routing, Source,
};
use crate::topology::{Network, PortId, SwitchId};
use crate::traffic::{HostClocks, Pattern, Process};
use std::collections::VecDeque;
use std::sync::Arc;

/// A packet waiting in a host's source queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPacket {
    pub dst: u32,
    pub gen_cycle: u64,
}

/// Traffic parameters of a run.
#[derive(Clone, Debug)]
pub struct TrafficConfig {
    pub pattern: Pattern,
    pub process: Process,
    /// Offered load in flits per host per cycle (0..=1).
    pub load: f64,
}

/// What a host would send next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Next {
    /// An acknowledgement (first in line) rather than a data packet.
    pub ack: bool,
    /// Its length in flits.
    pub flits: u16,
}

/// What two threads allocating one cycle's switches at once use of the
/// endpoint layer (`sim/shared_hops.rs`): the packet records and channel
/// counters they write (each its own), and what they only read.
pub(crate) struct HopParts<'a> {
    pub(crate) packets: &'a mut [Packet],
    pub(crate) channels: &'a mut [super::stats::ChannelCounters],
    pub(crate) net: &'a Network,
    pub(crate) tables: &'a [Option<Arc<PairTable>>],
    pub(crate) data_vcs: u8,
    pub(crate) measuring: bool,
}

/// Hosts, packets, routings, statistics, feedback and the watchdog.
pub struct Endpoints {
    net: Arc<Network>,
    packet_flits: u16,
    traffic: TrafficConfig,
    /// Every host's arrival clock (generation visits the hosts due).
    clocks: HostClocks,
    traffic_rng: SimRng,
    sources: Vec<VecDeque<QueuedPacket>>,
    /// Bit h set when host h may have something to send: set whenever a
    /// packet or an acknowledgement is queued there, cleared when its last
    /// queued packet starts ([`Endpoints::start`]) or when the switch model
    /// finds nothing there ([`Endpoints::host_idle`]). A superset
    /// of the hosts [`Endpoints::next_at`] answers for, so a model that
    /// visits its set bits in order visits every host with something to
    /// send, in host order, without testing the idle ones.
    ready: Vec<u64>,
    packets: PacketSlab,
    /// Routings by epoch; new packets use the last one.
    routings: Vec<Box<dyn Routing>>,
    /// The last epoch's [`Routing::fixed_source_state`]: new packets get
    /// a copy of it instead of a call of its `at_source`.
    source_state: Option<RouteState>,
    /// Per epoch: does its routing pass destinations (ask `may_eject`)?
    transit: Vec<bool>,
    /// Per epoch: its routing's answers as a table, when it offers one
    /// that fits ([`Routing::pair_table`]): a hop is then a lookup, not a
    /// call, with no route state to pass and no answer to check
    /// (`torus:8x8` at 0.3: 6.6 % fewer instructions than calling
    /// [`crate::routing::TabulatedDor`]'s `route`, docs/performance.md,
    /// "Tables and lookahead routing").
    tables: Vec<Option<Arc<PairTable>>>,
    /// Whether any entry of `tables` is set.
    any_table: bool,
    /// Every epoch's answers come from its table: see
    /// [`Endpoints::only_tables`].
    only_tables: bool,
    /// Some epoch sends acknowledgement packets (their epoch has no table).
    ack_packets: bool,
    /// The routing random stream.
    rng: SimRng,
    stats: Stats,
    measuring: bool,
    acks: Acks,
    /// VCs data routings may use (cached from `acks`).
    data_vcs: u8,
    /// True when some routing epoch asks for feedback (else the delivery
    /// path skips the feedback work entirely).
    any_feedback: bool,
    /// True when something reads a packet's blocked cycles: feedback (some
    /// epoch asks for it) or the per-pair statistics. Without a reader the
    /// count is not kept, and a head leaving a switch does not touch its
    /// packet record (1.5-1.9 % fewer instructions on DOR runs,
    /// docs/performance.md, "What was tried", pass 7).
    count_blocked: bool,
    watchdog: Watchdog,
    /// Request success with admission and deadline limits, for the switch
    /// models that enable it (the time-slice model).
    deadlines: Option<Deadlines>,
    /// The last routing fault, until the switch model reports it.
    fault: Option<RouteFault>,
}

impl Endpoints {
    pub(crate) fn new(
        net: Arc<Network>,
        traffic: TrafficConfig,
        packet_flits: u16,
        acks: Acks,
        watchdog_cycles: u64,
        seed: u64,
    ) -> Endpoints {
        let mut traffic_rng = stream(seed, Stream::Traffic);
        let rate = traffic.load / packet_flits as f64;
        let clocks = HostClocks::new(net.num_hosts(), traffic.process, rate, 0, &mut traffic_rng);
        Endpoints {
            stats: Stats::new(net.num_channels(), net.num_switches(), net.num_hosts()),
            sources: vec![VecDeque::new(); net.num_hosts()],
            ready: vec![0; net.num_hosts().div_ceil(64)],
            clocks,
            traffic_rng,
            packets: PacketSlab::default(),
            routings: Vec::new(),
            source_state: None,
            transit: Vec::new(),
            tables: Vec::new(),
            any_table: false,
            only_tables: false,
            ack_packets: false,
            rng: stream(seed, Stream::Routing),
            measuring: false,
            acks,
            any_feedback: false,
            count_blocked: false,
            data_vcs: 0,
            watchdog: Watchdog::new(watchdog_cycles),
            deadlines: None,
            fault: None,
            packet_flits,
            traffic,
            net,
        }
    }

    // --- Driven by the engine ----------------------------------------------

    /// Add a routing epoch (the run's first routing, or a live swap).
    pub(crate) fn push_routing(&mut self, routing: Box<dyn Routing>) -> Result<(), String> {
        let mode = routing.acknowledgement();
        self.acks.prepare(&self.net, mode)?;
        let before = self.data_vcs;
        self.data_vcs = self.acks.data_vcs();
        self.any_feedback |= mode != Acknowledgement::None;
        self.ack_packets |= mode == Acknowledgement::Packet;
        self.count_blocked |= self.any_feedback;
        self.transit.push(routing.passes_destination());
        self.source_state = routing.fixed_source_state();
        self.routings.push(routing);
        // The new epoch's table is checked. The earlier epochs' are checked
        // again only if the new epoch changed the data VCs the tables must
        // fit (by reserving VCs for acknowledgements): checking a table is
        // linear in the network (50 M answers on `torus:64x64x64`), so
        // checking every epoch's at every swap made a run's swaps
        // quadratic in their number.
        let (net, vcs) = (&self.net, self.data_vcs);
        let fitting = |r: &dyn Routing| r.pair_table().filter(|t| t.fits(net, vcs));
        if vcs == before && self.tables.len() + 1 == self.routings.len() {
            let last = self.routings.last().and_then(|r| fitting(r.as_ref()));
            self.tables.push(last);
        } else {
            self.tables = (self.routings.iter())
                .map(|r| fitting(r.as_ref()))
                .collect();
        }
        self.any_table = self.tables.iter().any(Option::is_some);
        self.only_tables = self.tables.iter().all(Option::is_some)
            && !self.transit.iter().any(|&t| t)
            && !self.ack_packets;
        Ok(())
    }

    /// Whether some routing epoch's answers are looked up in a table
    /// ([`Routing::pair_table`]): a switch model calls
    /// [`Endpoints::route`] with `TABLES` set if so.
    #[inline]
    pub(crate) fn has_tables(&self) -> bool {
        self.any_table
    }

    /// Whether every routing epoch's answers come from its table, no epoch
    /// lets a packet pass its destination switch
    /// ([`Routing::passes_destination`]) and none sends acknowledgement
    /// packets: then [`Endpoints::table_route`] answers without calling
    /// any routing (the same answers; fewer instructions
    /// in the switch model's loop around it).
    #[inline]
    pub(crate) fn only_tables(&self) -> bool {
        self.only_tables
    }

    /// Gather per-pair statistics ([`crate::sim::PairStats`]) from now on.
    pub(crate) fn enable_pair_stats(&mut self) {
        let hot: &[u32] = match &self.traffic.pattern {
            Pattern::HotSpot { hot, .. } => hot,
            _ => &[],
        };
        self.stats.enable_pairs(self.net.num_hosts(), hot);
        self.count_blocked = true;
    }

    /// Start measuring from `now` on.
    pub(crate) fn start_measuring(&mut self, now: u64) {
        self.measuring = true;
        self.stats.reset(now);
        if let Some(d) = &mut self.deadlines {
            d.reset(now);
        }
    }

    /// End the current success window of begin slices before slice `g`
    /// (a routing swap), when the run keeps them.
    pub(crate) fn split_success_windows(&mut self, g: u64) {
        if let Some(d) = &mut self.deadlines {
            d.split_before(g);
        }
    }

    /// Keep request success with admission and deadline limits (switch
    /// models that decide per time slice).
    pub(crate) fn enable_deadlines(&mut self, d: Deadlines) {
        self.deadlines = Some(d);
    }

    /// Generate the packets of cycle `now` into the source queues: the
    /// hosts whose clocks are due, in host order (the others draw nothing,
    /// [`HostClocks`]).
    pub(crate) fn generate(&mut self, now: u64) {
        self.clocks.advance(now);
        for base in (0..self.clocks.len()).step_by(64) {
            for h in ones(self.clocks.due_word(base, now), base) {
                self.generate_at(h, now);
            }
        }
    }

    /// Host `h`'s packets of cycle `now`, if any.
    #[inline]
    fn generate_at(&mut self, h: usize, now: u64) {
        let k = self.clocks.arrivals_at(h, now, &mut self.traffic_rng);
        if k == 0 {
            return;
        }
        for _ in 0..k {
            let dst = self
                .traffic
                .pattern
                .destination(h as u32, &mut self.traffic_rng);
            self.sources[h].push_back(QueuedPacket {
                dst,
                gen_cycle: now,
            });
        }
        self.mark_ready(h);
        let l = self.packet_flits as u64;
        self.stats
            .generated(h as u32, k as u64, k as u64 * l, self.measuring);
        if let Some(d) = &mut self.deadlines {
            d.begun(now, k as u64);
        }
    }

    /// Put one packet from host `src` to host `dst` in `src`'s source
    /// queue, generated at `now` (counted as generated traffic).
    pub(crate) fn enqueue(&mut self, src: u32, dst: u32, now: u64) {
        self.sources[src as usize].push_back(QueuedPacket {
            dst,
            gen_cycle: now,
        });
        self.mark_ready(src as usize);
        self.stats
            .generated(src, 1, self.packet_flits as u64, self.measuring);
        if let Some(d) = &mut self.deadlines {
            d.begun(now, 1);
        }
    }

    /// Hand the routings the feedback due at `now` (delay mode).
    pub(crate) fn deliver_due_feedback(&mut self, now: u64) {
        if !self.any_feedback {
            return;
        }
        while let Some(p) = self.acks.next_due(now) {
            self.hand_over(p);
        }
    }

    fn hand_over(&mut self, p: Pending) {
        if let Some(r) = self.routings.get_mut(p.epoch as usize) {
            r.on_feedback(&p.feedback);
        }
    }

    /// Change the offered load from cycle `now` on.
    pub(crate) fn set_load(&mut self, load: f64, now: u64) {
        self.traffic.load = load;
        let rate = load / self.packet_flits as f64;
        let n = self.clocks.len();
        self.clocks = HostClocks::new(n, self.traffic.process, rate, now, &mut self.traffic_rng);
    }

    pub(crate) fn watchdog(&mut self) -> &mut Watchdog {
        &mut self.watchdog
    }

    // --- For switch models -------------------------------------------------

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// True once the warm-up is over.
    #[inline]
    pub fn measuring(&self) -> bool {
        self.measuring
    }

    /// VCs data routings may use: `0..data_vcs()`; the acknowledgement class
    /// (if any) is `data_vcs()..V`.
    #[inline]
    pub fn data_vcs(&self) -> u8 {
        self.data_vcs
    }

    /// Word `k` of the hosts that may have something to send (hosts
    /// `64k..64k + 64`, bit i for host 64k + i; see `ready`).
    #[inline]
    pub fn ready_hosts(&self, k: usize) -> u64 {
        self.ready[k]
    }

    /// Words of [`Endpoints::ready_hosts`].
    #[inline]
    pub fn ready_words(&self) -> usize {
        self.ready.len()
    }

    /// Host `h` has nothing to send ([`Endpoints::next_at`] is `None`):
    /// it leaves the ready set until something is queued there again.
    #[inline]
    pub fn host_idle(&mut self, h: usize) {
        debug_assert!(self.next_at(h).is_none());
        self.clear_ready(h);
    }

    #[inline]
    fn mark_ready(&mut self, h: usize) {
        self.ready[h / 64] |= 1 << (h % 64);
    }

    #[inline]
    fn clear_ready(&mut self, h: usize) {
        self.ready[h / 64] &= !(1 << (h % 64));
    }

    /// What host `h` would send next, if anything: a waiting
    /// acknowledgement first, then the front of its source queue.
    #[inline]
    pub fn next_at(&self, h: usize) -> Option<Next> {
        if self.acks.waiting_at(h) {
            return Some(Next {
                ack: true,
                flits: 1,
            });
        }
        self.sources[h].front().map(|_| Next {
            ack: false,
            flits: self.packet_flits,
        })
    }

    /// Host `h` sends what [`Endpoints::next_at`] named, its head leaving
    /// now: the packet is created and its routing's `at_source` called.
    /// Returns its id.
    pub fn start(&mut self, h: usize, now: u64) -> Option<u32> {
        if self.acks.waiting_at(h) {
            let p = self.acks.depart(h)?;
            let fb = &p.feedback;
            let info = PacketInfo {
                src_host: fb.pkt.dst_host,
                dst_host: fb.pkt.src_host,
                src_switch: fb.pkt.dst_switch,
                dst_switch: fb.pkt.src_switch,
                flits: 1,
            };
            let mut route = RouteState::default();
            if let Some((r, rng)) = self.acks.routing() {
                r.at_source(Source {
                    now,
                    pkt: &info,
                    state: &mut route,
                    rng,
                });
            }
            let id = self.packets.insert(Packet {
                info,
                blocked: 0,
                gen_cycle: now,
                route,
                epoch: ACK_EPOCH,
                switches: 0,
                queued: 0,
            });
            self.acks.carry(id, p);
            self.stats.injected_packet(self.measuring, false);
            return Some(id);
        }
        let packet = self.take_data_packet(h, now)?;
        let id = self.packets.insert(packet);
        self.stats.injected_packet(self.measuring, true);
        Some(id)
    }

    /// The packet at the front of host `h`'s source queue, leaving now: out
    /// of the queue (the host out of the ready set if it was the last), its
    /// route state set ([`Endpoints::source_state`]), not yet in the slab.
    #[inline(always)]
    fn take_data_packet(&mut self, h: usize, now: u64) -> Option<Packet> {
        let QueuedPacket { dst, gen_cycle } = self.sources[h].pop_front()?;
        // The last packet out: the host leaves the ready set now rather
        // than on the model's next visit.
        if self.sources[h].is_empty() && !self.acks.waiting_at(h) {
            self.clear_ready(h);
        }
        let src = self.net.host(h as u32);
        let info = PacketInfo {
            src_host: h as u32,
            dst_host: dst,
            src_switch: src.switch,
            dst_switch: self.net.host(dst).switch,
            flits: self.packet_flits,
        };
        let epoch = self.routings.len() - 1;
        let route = self.source_state(now, &info);
        Some(Packet {
            info,
            blocked: 0,
            gen_cycle,
            route,
            epoch: epoch as u16,
            switches: 0,
            queued: (now - gen_cycle).min(u32::MAX as u64) as u32,
        })
    }

    /// A new data packet's route state: the last epoch's fixed state, or
    /// what its routing's `at_source` leaves.
    #[inline(always)]
    fn source_state(&mut self, now: u64, info: &PacketInfo) -> RouteState {
        if let Some(fixed) = self.source_state {
            return fixed;
        }
        let mut route = RouteState::default();
        if let Some(routing) = self.routings.last_mut() {
            routing.at_source(Source {
                now,
                pkt: info,
                state: &mut route,
                rng: &mut self.rng,
            });
        }
        route
    }

    /// Does host `h` have a data packet queued? (With no acknowledgement
    /// class, [`Endpoints::next_at`] is this.)
    #[inline(always)]
    pub(crate) fn has_queued(&self, h: usize) -> bool {
        !self.sources[h].is_empty()
    }

    /// [`Endpoints::start`] for the front packet of host `h`'s queue when
    /// no acknowledgement waits anywhere and every epoch's answers come
    /// from a table (the input-queued model's one-flit sends with
    /// lookahead routing): the packet is created as `start` creates it,
    /// its one flit counted as injected ([`Endpoints::flit_injected`]),
    /// and its head's answer at switch `at` looked up from the record
    /// before it goes into the slab ([`Endpoints::table_lookup`]'s
    /// answer). None if the host has nothing queued.
    #[inline(always)]
    pub(crate) fn start_one_flit(
        &mut self,
        h: usize,
        now: u64,
        at: SwitchId,
        vcs: u8,
    ) -> Option<(u32, Option<Candidate>)> {
        debug_assert!(self.only_tables && !self.acks.waiting_at(h));
        debug_assert_eq!(self.packet_flits, 1);
        let packet = self.take_data_packet(h, now)?;
        let ahead = table_lookup(&packet, at, &self.net, &self.tables, vcs);
        let id = self.packets.insert(packet);
        self.stats.injected_packet(self.measuring, true);
        self.stats.injected_flit();
        Some((id, ahead))
    }

    /// Ask the cache for packet `id`'s record, which a flit arriving soon
    /// will touch (routing or delivery).
    #[inline(always)]
    pub(crate) fn prefetch_packet(&self, id: u32) {
        self.packets.prefetch(id);
    }

    /// A packet in flight.
    #[inline]
    pub fn packet(&self, id: u32) -> &Packet {
        self.packets.get(id)
    }

    /// Packets in flight.
    pub fn live_packets(&self) -> usize {
        self.packets.live()
    }

    /// Whether each packet id is in flight (invariant checks: a flit of a
    /// packet that is not is a duplicate or a leftover).
    pub fn live_packet_mask(&self) -> Vec<bool> {
        self.packets.live_mask()
    }

    /// The head of packet `id`, at switch `at`, routed from its epoch's
    /// table when every epoch has one ([`Endpoints::only_tables`]): the
    /// one candidate [`Endpoints::route`] would push, for an allocation
    /// loop that takes it as it is.
    #[inline(always)]
    pub(crate) fn table_route(
        &mut self,
        id: u32,
        at: SwitchId,
        vcs: u8,
    ) -> Result<Candidate, Faulted> {
        debug_assert!(self.only_tables, "table_route without every epoch's table");
        let pkt = self.packets.get_mut(id);
        table_answer(pkt, at, &self.net, &self.tables, vcs).map_err(|f| {
            self.fault = Some(f);
            Faulted
        })
    }

    /// [`Endpoints::table_route`]'s answer without the count or a fault:
    /// the answer packet `id`'s head will get at switch `at`, looked up
    /// one switch ahead as it is sent there ([`table_lookup`]); None for
    /// none (`at` reports it when it routes the head).
    #[inline(always)]
    pub(crate) fn table_lookup(&mut self, id: u32, at: SwitchId, vcs: u8) -> Option<Candidate> {
        debug_assert!(self.only_tables, "table_lookup without every epoch's table");
        table_lookup(self.packets.get(id), at, &self.net, &self.tables, vcs)
    }

    /// [`Endpoints::table_route`]'s count without the lookup: packet
    /// `id`'s head is routed at one more switch, with the answer looked up
    /// one switch ahead.
    #[inline(always)]
    pub(crate) fn count_switch(&mut self, id: u32) {
        let p = self.packets.get_mut(id);
        p.switches = p.switches.saturating_add(1);
    }

    /// Route packet `id`'s head at switch `at` (arrived on `in_port`, VC
    /// `in_vc`):
    /// counts the switch, and at the destination switch offers the host's
    /// port (every VC); elsewhere asks the packet's routing. The answer is
    /// checked: every candidate must name one of the switch's `ports` and a
    /// VC range inside the packet's class (`0..data_vcs` for data, up to
    /// `vcs` for acknowledgements).
    ///
    /// `TABLES`: whether to look for the routing's table
    /// ([`Endpoints::has_tables`]); a switch model whose run has none
    /// compiles the lookup out (each test of it cost the runs without one
    /// about 1 % more instructions). A run whose every answer comes from a
    /// table ([`Endpoints::only_tables`]) is routed by
    /// [`Endpoints::table_route`] instead, with no routing called.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn route<const TABLES: bool>(
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
        let pkt = self.packets.get_mut(id);
        // Hops are counted here, where the packet is at hand anyway: once
        // per switch its head is routed at.
        pkt.switches = pkt.switches.saturating_add(1);
        let epoch = pkt.epoch;
        // What a head with no route reports, wherever it finds none.
        let no_route = RouteFault::NoRoute {
            switch: at,
            epoch,
            dst: pkt.info.dst_switch,
        };
        if pkt.info.dst_switch == at
            && (epoch == ACK_EPOCH
                || !self.transit[epoch as usize]
                || self.routings[epoch as usize].may_eject(at, &pkt.route))
        {
            out.push(self.net.host(pkt.info.dst_host).port, 0, vcs - 1);
            return Ok(());
        }
        // A routing's table (never the acknowledgements': their epoch is
        // past the end), checked when it was adopted.
        if TABLES && let Some(Some(table)) = self.tables.get(epoch as usize) {
            let Some(c) = table.get(at, pkt.info.dst_switch) else {
                self.fault = Some(no_route);
                return Err(Faulted);
            };
            out.push(c.port, c.vc_lo, c.vc_hi);
            return Ok(());
        }
        let (routing, rng, limit): (&mut dyn Routing, &mut SimRng, u8) = if epoch == ACK_EPOCH {
            match self.acks.routing() {
                Some((r, rng)) => (r, rng, vcs),
                None => {
                    self.fault = Some(no_route);
                    return Err(Faulted);
                }
            }
        } else {
            (
                self.routings[epoch as usize].as_mut(),
                &mut self.rng,
                self.data_vcs,
            )
        };
        routing.route(
            Hop {
                at,
                in_port,
                in_vc,
                now,
                pkt: &pkt.info,
                state: &mut pkt.route,
                view,
                rng,
            },
            out,
        );
        if out.is_empty() {
            {
                self.fault = Some(no_route);
                return Err(Faulted);
            }
        }
        if let Some(candidate) = out.first_invalid(ports, limit) {
            {
                self.fault = Some(RouteFault::BadCandidate {
                    switch: at,
                    epoch,
                    candidate,
                    ports,
                    vcs: limit,
                });
                return Err(Faulted);
            }
        }
        Ok(())
    }

    /// Whether two threads may allocate a cycle's switches at once
    /// (`sim/shared_hops.rs`): every answer from a table, and no blocked
    /// cycles to count (feedback and per-pair statistics read them).
    pub(crate) fn hops_can_be_shared(&self) -> bool {
        self.only_tables && !self.count_blocked
    }

    /// The parts two threads share while they allocate one cycle's
    /// switches at once, or None when [`Endpoints::hops_can_be_shared`] is
    /// false.
    pub(crate) fn hop_parts(&mut self) -> Option<HopParts<'_>> {
        if !self.hops_can_be_shared() {
            return None;
        }
        Some(HopParts {
            packets: self.packets.slots_mut(),
            channels: self.stats.channels_mut(),
            net: &self.net,
            tables: &self.tables,
            data_vcs: self.data_vcs,
            measuring: self.measuring,
        })
    }

    /// Stop the run with `f` ([`Endpoints::take_fault`]).
    pub(crate) fn record_fault(&mut self, f: RouteFault) {
        self.fault = Some(f);
    }

    /// The error the last routing fault stops the run with.
    pub(crate) fn take_fault(&mut self) -> SimError {
        match self.fault.take() {
            Some(f) => self.fault_error(f),
            None => SimError::NoRoute {
                routing: "unknown".into(),
                switch: 0,
                dst: 0,
            },
        }
    }

    pub(crate) fn fault_error(&self, f: RouteFault) -> SimError {
        let name = |epoch: u16| {
            if epoch == ACK_EPOCH {
                "acknowledgements".to_string()
            } else {
                self.routings
                    .get(epoch as usize)
                    .map(|r| r.name())
                    .unwrap_or_default()
            }
        };
        match f {
            RouteFault::NoRoute { switch, epoch, dst } => SimError::NoRoute {
                routing: name(epoch),
                switch,
                dst,
            },
            RouteFault::BadCandidate {
                switch,
                epoch,
                candidate,
                ports,
                vcs,
            } => SimError::BadCandidate {
                routing: name(epoch),
                switch,
                port: candidate.port,
                vc_lo: candidate.vc_lo,
                vc_hi: candidate.vc_hi,
                ports,
                vcs,
            },
        }
    }

    /// Packet `id`'s head leaves a switch after `waited` cycles in its
    /// input buffer (blocked cycles, [`Feedback::blocked_cycles`]), counted
    /// only while something reads them (feedback or per-pair statistics,
    /// both set before the packets they read are created: a routing asking
    /// for feedback is swapped in before its first packet starts, and
    /// pair statistics are enabled when the run is built).
    #[inline]
    pub fn head_left(&mut self, id: u32, waited: u64) {
        if !self.count_blocked {
            return;
        }
        // Waits are below 2^30 cycles (the flit's arrival stamp), so they fit.
        let p = self.packets.get_mut(id);
        p.blocked = p.blocked.saturating_add(waited as u32);
    }

    /// A flit left on `channel` (a head after `waited` cycles in its
    /// buffer): per-channel counters while measuring.
    #[inline]
    pub fn channel_traversal(&mut self, channel: usize, head: bool, waited: u64) {
        if self.measuring {
            self.stats.channel_traversal(channel, head, waited);
        }
    }

    /// A flit left a host.
    #[inline]
    pub fn flit_injected(&mut self) {
        self.stats.injected_flit();
    }

    /// Something moved in cycle `now` (for the watchdog).
    #[inline]
    pub fn progress(&mut self, now: u64) {
        self.watchdog.progress(now);
    }

    /// A flit of packet `id` reached its destination host in cycle `now`;
    /// `tail` for the last one. The packet's statistics are recorded, its
    /// feedback started, and it leaves the slab with its tail.
    #[inline]
    pub fn flit_delivered(&mut self, now: u64, id: u32, tail: bool) {
        self.watchdog.progress(now);
        let p = self.packets.get(id);
        if p.is_ack() {
            self.stats.delivered_ack();
            if let Some(mut pending) = self.acks.arrive(id) {
                pending.feedback.heard_cycle = now;
                self.hand_over(pending);
            }
            self.packets.remove(id);
            return;
        }
        self.stats.delivered_flit(self.measuring);
        if !tail {
            return;
        }
        let d = DeliveredPacket {
            latency: now - p.gen_cycle,
            gen_cycle: p.gen_cycle,
            hops: p.switches.saturating_sub(1) as u64,
            src_switch: p.info.src_switch,
            dst_switch: p.info.dst_switch,
            src_host: p.info.src_host,
            dst_host: p.info.dst_host,
            queued: p.queued as u64,
            blocked: p.blocked as u64,
            flits: p.info.flits as u64,
        };
        if let Some(dl) = &mut self.deadlines {
            dl.delivered(d.gen_cycle, now);
        }
        self.stats.delivered_packet(d, self.measuring);
        if self.any_feedback {
            let p = *self.packets.get(id);
            self.feedback(now, &p);
        }
        self.packets.remove(id);
    }

    fn feedback(&mut self, now: u64, p: &Packet) {
        let Some(r) = self.routings.get(p.epoch as usize) else {
            return;
        };
        let mode = r.acknowledgement();
        if mode == Acknowledgement::None {
            return;
        }
        let feedback = Feedback {
            pkt: p.info,
            state: p.route,
            gen_cycle: p.gen_cycle,
            inject_cycle: p.inject_cycle(),
            delivered_cycle: now,
            heard_cycle: 0,
            blocked_cycles: p.blocked as u64,
            switches: p.switches,
        };
        let pending = Pending {
            epoch: p.epoch,
            feedback,
        };
        match mode {
            Acknowledgement::Delay => {
                let heard =
                    self.acks
                        .heard_at(&self.net, p.info.dst_switch, p.info.src_switch, now);
                self.acks.schedule(heard, p.epoch, feedback);
            }
            Acknowledgement::Packet => {
                self.acks.enqueue(p.info.dst_host, pending);
                self.mark_ready(p.info.dst_host as usize);
            }
            Acknowledgement::None => {}
        }
    }

    // --- For switch models that decide per time slice ----------------------

    /// Requests waiting at host `h` (its source queue).
    #[inline]
    pub fn queued_at(&self, h: usize) -> usize {
        self.sources[h].len()
    }

    /// Drop the requests at host `h` that began more than R slices before
    /// `now` (R = [`Deadlines::admit_slices`]): their access switch did not
    /// take them in time. Returns how many; nothing happens without
    /// deadlines.
    pub(crate) fn expire(&mut self, h: usize, now: u64) -> u32 {
        let Some(d) = &mut self.deadlines else {
            return 0;
        };
        let r = d.admit_slices();
        let mut n = 0;
        while let Some(q) = self.sources[h].front() {
            if q.gen_cycle.saturating_add(r) >= now {
                break;
            }
            d.rejected(q.gen_cycle);
            self.sources[h].pop_front();
            n += 1;
        }
        n
    }

    /// Slice `now` has run: close the begin slices whose deadline passed.
    pub(crate) fn end_slice(&mut self, now: u64) {
        if let Some(d) = &mut self.deadlines {
            d.close(now);
        }
    }

    /// Packet `id` entered `n` more switches (counted as visited switches:
    /// its hops are one fewer than its switches).
    #[inline]
    pub(crate) fn entered_switches(&mut self, id: u32, n: u16) {
        let p = self.packets.get_mut(id);
        p.switches = p.switches.saturating_add(n);
    }

    /// Route packet `id` at switch `at` for one time slice, as
    /// [`Endpoints::route`] does, except that switches are not counted here
    /// ([`Endpoints::entered_switches`]: a packet may be routed at the same
    /// switch in several slices) and an empty answer is not an error: the
    /// packet holds this slice (a balancer that sees no neighbour worth
    /// sending to).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn route_slice(
        &mut self,
        id: u32,
        at: SwitchId,
        in_port: PortId,
        now: u64,
        view: &dyn BufferView,
        ports: usize,
        out: &mut Candidates,
    ) -> Result<(), RouteFault> {
        let pkt = self.packets.get_mut(id);
        if pkt.info.dst_switch == at {
            out.push(self.net.host(pkt.info.dst_host).port, 0, 0);
            return Ok(());
        }
        let epoch = pkt.epoch;
        let Some(routing) = self.routings.get_mut(epoch as usize) else {
            return Err(RouteFault::NoRoute {
                switch: at,
                epoch,
                dst: pkt.info.dst_switch,
            });
        };
        routing.route(
            Hop {
                at,
                in_port,
                // The time-slice model has no virtual channels.
                in_vc: 0,
                now,
                pkt: &pkt.info,
                state: &mut pkt.route,
                view,
                rng: &mut self.rng,
            },
            out,
        );
        if let Some(candidate) = out.first_invalid(ports, self.data_vcs) {
            return Err(RouteFault::BadCandidate {
                switch: at,
                epoch,
                candidate,
                ports,
                vcs: self.data_vcs,
            });
        }
        Ok(())
    }

    // --- Reading -------------------------------------------------------------

    /// Request success with admission and deadline limits, where the switch
    /// model keeps it.
    pub fn deadlines(&self) -> Option<&Deadlines> {
        self.deadlines.as_ref()
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }
    pub(crate) fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }
    pub fn routings(&self) -> &[Box<dyn Routing>] {
        &self.routings
    }
    /// Packets waiting in source queues.
    pub fn queued_packets(&self) -> u64 {
        self.sources.iter().map(|q| q.len() as u64).sum()
    }
    /// Per source host: its data packets generated at or after cycle
    /// `since` (and since measurement started) that have not been
    /// delivered yet, waiting in its source queue or in the network.
    /// Linear in the packets; for end-of-run accounting.
    pub fn undelivered_since(&self, since: u64) -> Vec<u64> {
        let since = since.max(self.stats.measure_start());
        let mut out: Vec<u64> = self
            .sources
            .iter()
            .map(|q| q.iter().filter(|p| p.gen_cycle >= since).count() as u64)
            .collect();
        for p in self.packets.live_packets() {
            if p.epoch != ACK_EPOCH && p.gen_cycle >= since {
                out[p.info.src_host as usize] += 1;
            }
        }
        out
    }
    /// Offered load, flits per host per cycle.
    pub fn load(&self) -> f64 {
        self.traffic.load
    }
    /// The hosts' inter-arrival process.
    pub fn process(&self) -> Process {
        self.traffic.process
    }
    /// Acknowledgements not yet heard by their sources.
    pub fn outstanding_acks(&self) -> usize {
        self.acks.outstanding()
    }
    /// VCs of the acknowledgement class (0 when none is reserved).
    pub fn ack_vcs(&self) -> u8 {
        self.acks.reserved()
    }
}
