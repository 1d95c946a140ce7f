//! One cycle of one input-queued switch: routing, VC allocation, separable
//! switch allocation and traversal (Dally and Towles ch. 16-19; the order
//! and policies are described on [`InputQueued`]).
//!
//! This is the simulator's hot path (docs/performance.md has the
//! measurements behind each choice):
//! - the switch's state is borrowed field by field into local slices once
//!   per call, so the compiler keeps slice pointers in registers instead of
//!   reloading them from `self` after every store;
//! - only the input ports that hold flits are visited (a per-switch bit
//!   set), in one pass that routes, allocates VCs and proposes for switch
//!   allocation;
//! - decisions whose outcome is a coin toss under random traffic are
//!   written as selects rather than branches;
//! - the router's own indices skip bounds checks ([`super::unchecked`]);
//! - on large networks, the records of a switch two ahead are prefetched
//!   ([`crate::sim::prefetch`]).

use super::unchecked::{Family, Owned, Slots, at, at_mut, prefetch_at, range};
use super::{
    ACTIVE, Ahead, Flit, FlitEvent, HEAD, IDLE, InChannel, InputQueued, InputVc, NONE, OutChannel,
    OutputVc, Proposal, ROUTED, TAIL, View,
};
use crate::routing::{Candidates, Selection};
use crate::sim::config::{PortPriority, Switching};
use crate::sim::endpoints::Faulted;
use crate::sim::hop_calls::HopCalls;
use crate::sim::timewheel::{Sends, TimeWheel};
use crate::topology::PortId;
use std::cell::Cell;

impl InputQueued {
    /// Advance every switch that holds flits by one cycle, in switch order:
    /// on a network of one arrival block, [`InputQueued::allocate`] over
    /// all switches (their arrivals are written already); with more, each
    /// block's arrivals and then the block ([`InputQueued::block_bits`]).
    /// After a routing fault the later blocks' arrivals are still written,
    /// so no flit is lost from the state the fault is reported on.
    /// The const parameters are [`InputQueued::allocate`]'s.
    pub(super) fn allocate_blocks<
        const ACKS: bool,
        const AGE: bool,
        const FAST: bool,
        const PREFETCH: bool,
        const TABLES: bool,
        const LOOK: bool,
        const VCS: usize,
        const DEPTH: usize,
        E: HopCalls,
    >(
        &mut self,
        now: u64,
        ep: &mut E,
    ) -> Result<(), Faulted> {
        let switches = self.switches();
        match self.block_bits {
            None => self.allocate::<ACKS, AGE, FAST, PREFETCH, TABLES, LOOK, false, VCS, DEPTH, _>(
                now,
                0..switches,
                ep,
            ),
            Some(bits) => self
                .allocate_in_blocks::<ACKS, AGE, FAST, PREFETCH, TABLES, LOOK, VCS, DEPTH, _>(
                    now, bits, ep,
                ),
        }
    }

    /// [`InputQueued::allocate_blocks`] with blocks of `1 << bits`
    /// switches. Out of line and cold, so that the loop without blocks is
    /// compiled as it was before they existed (with this one inlined beside
    /// it, it executed 2.6 % more instructions on `torus:8x8`).
    #[inline(never)]
    #[cold]
    fn allocate_in_blocks<
        const ACKS: bool,
        const AGE: bool,
        const FAST: bool,
        const PREFETCH: bool,
        const TABLES: bool,
        const LOOK: bool,
        const VCS: usize,
        const DEPTH: usize,
        E: HopCalls,
    >(
        &mut self,
        now: u64,
        bits: u32,
        ep: &mut E,
    ) -> Result<(), Faulted> {
        let switches = self.switches();
        let blocks = switches.div_ceil(1 << bits);
        for b in 0..blocks {
            self.arrivals(now, Some(b), ep);
            let span = b << bits..((b + 1) << bits).min(switches);
            if let Err(e) = self
                .allocate::<ACKS, AGE, FAST, PREFETCH, TABLES, LOOK, true, VCS, DEPTH, _>(
                    now, span, ep,
                )
            {
                for later in b + 1..blocks {
                    self.arrivals(now, Some(later), ep);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Advance the switches of `span` that hold flits by one cycle, in
    /// switch order.
    /// The error (rare) is a routing's bad answer; the caller turns it into
    /// a [`SimError`](crate::sim::SimError) (kept small so the common `Ok`
    /// return costs nothing).
    ///
    /// `ACKS`: whether an acknowledgement class is reserved. The run without
    /// one (every routing but feedback ones) is compiled without the
    /// acknowledgement selects. `AGE`: age-based arbitration
    /// ([`PortPriority::Oldest`]); the other priorities are compiled
    /// without it. `FAST`: the deterministic wormhole router, routelab's
    /// default (no acknowledgement class, rotating priorities, wormhole
    /// switching without waiting for the tail credit, [`Selection::Fixed`],
    /// at most 64 input ports a switch), compiled with those settings as
    /// constants: fewer live values in the loop (the busy-port iterator
    /// keeps one word) and no tests of them per VC (−4 % instructions,
    /// docs/performance.md). The caller picks it only when the router is so
    /// configured, so the results are the same either way; with `TABLES`
    /// it also requires [`Endpoints::only_tables`](crate::sim::endpoints::Endpoints::only_tables), and routes a fresh head
    /// from its table's one candidate ([`Endpoints::table_route`](crate::sim::endpoints::Endpoints::table_route), the same
    /// answers, no routing called, no candidate list). `PREFETCH`
    /// (taken with `FAST` on large networks, [`InputQueued::prefetch`]):
    /// before a switch, ask the cache for the records of the switch
    /// [`SWITCHES_AHEAD`] on. `TABLES`: some routing epoch's answers are
    /// looked up in a table ([`Endpoints::route`](crate::sim::endpoints::Endpoints::route)); the runs without one
    /// are compiled without the lookup. `LOOK` (read only with `FAST` and
    /// `TABLES`): a head granted to a switch takes its answer there along
    /// ([`super::Ahead`], lookahead routing); runs of longer packets are
    /// compiled without it ([`super::looks_ahead`]). `BLOCKS`: the network has more
    /// than one arrival block ([`InputQueued::block_bits`]), `span` is one
    /// of them and flits to switches go to their blocks' wheels; the runs
    /// with one are compiled without them.
    #[inline(always)]
    pub(super) fn allocate<
        const ACKS: bool,
        const AGE: bool,
        const FAST: bool,
        const PREFETCH: bool,
        const TABLES: bool,
        const LOOK: bool,
        const BLOCKS: bool,
        const VCS: usize,
        const DEPTH: usize,
        E: HopCalls,
    >(
        &mut self,
        now: u64,
        span: std::ops::Range<usize>,
        ep: &mut E,
    ) -> Result<(), Faulted> {
        let InputQueued {
            v,
            depth,
            packet_flits,
            switching,
            selection,
            port_priority,
            wait_for_tail_credit,
            link_latency,
            switch_delay,
            first_ejection,
            in_ports,
            in_start,
            sw_out,
            out_start,
            inch,
            port_words,
            busy,
            flits,
            ivc: ivcs,
            cands,
            ovc,
            outch,
            sw_rr,
            flit_wheel,
            switch_wheel,
            block_wheels,
            block_of,
            credit_wheel,
            proposal,
            order,
            ..
        } = self;
        // Slices, not `&mut Vec`s: their pointers and lengths stay in
        // registers.
        let hot = Hot::<Owned> {
            v: *v,
            depth: *depth,
            packet_flits: *packet_flits,
            switching: *switching,
            selection: *selection,
            port_priority: *port_priority,
            wait_for_tail_credit: *wait_for_tail_credit,
            link_latency: *link_latency,
            switch_delay: *switch_delay,
            first_ejection: *first_ejection,
            port_words: *port_words,
            in_ports,
            in_start,
            sw_out,
            out_start,
            block_of,
            inch: &mut inch[..],
            busy: &mut busy[..],
            flits: &flits[..],
            ivcs: &mut ivcs[..],
            cands: &mut cands[..],
            outch: &mut outch[..],
            sw_rr: &mut sw_rr[..],
            // The output VCs as cells: the routing's view of their credits
            // is made once per switch and stays valid while allocation sets
            // their owners (a `Cell` of a `Copy` value costs nothing).
            ovc: Cell::from_mut(&mut ovc[..]).as_slice_of_cells(),
            flit_wheel,
            switch_wheel: Some(switch_wheel),
            block_wheels: &mut block_wheels[..],
            credit_wheel,
            proposal: &mut proposal[..],
            order,
        };
        // (One thread looks ahead only for one-flit packets: `SINGLE` is
        // `LOOK`.)
        allocate_span::<ACKS, AGE, FAST, PREFETCH, TABLES, LOOK, LOOK, BLOCKS, VCS, DEPTH, Owned, E>(
            hot, now, span, ep,
        )
    }
}

/// What one thread's allocation loop reads and writes: the router's
/// settings, its tables, its per-channel and per-switch state (as slices
/// with one thread, as lanes with two, `super::lane::Lane`,
/// [`super::two_threads`]), the wheels its sends go to and its scratch.
pub(super) struct Hot<'a, F: Family> {
    pub(super) v: usize,
    pub(super) depth: usize,
    pub(super) packet_flits: u16,
    pub(super) switching: Switching,
    pub(super) selection: Selection,
    pub(super) port_priority: PortPriority,
    pub(super) wait_for_tail_credit: bool,
    pub(super) link_latency: u64,
    pub(super) switch_delay: u64,
    pub(super) first_ejection: u32,
    pub(super) port_words: usize,
    pub(super) in_ports: &'a [(PortId, u32)],
    pub(super) in_start: &'a [u32],
    pub(super) sw_out: &'a [u32],
    pub(super) out_start: &'a [u32],
    pub(super) block_of: &'a [u32],
    pub(super) inch: &'a mut F::Arr<InChannel>,
    pub(super) busy: &'a mut F::Arr<u64>,
    pub(super) flits: &'a F::Arr<Flit>,
    pub(super) ivcs: &'a mut F::Arr<InputVc>,
    pub(super) cands: &'a mut F::Arr<Candidates>,
    pub(super) outch: &'a mut F::Arr<OutChannel>,
    pub(super) sw_rr: &'a mut F::Arr<u32>,
    pub(super) ovc: &'a [Cell<OutputVc>],
    pub(super) flit_wheel: &'a mut TimeWheel<FlitEvent>,
    /// The wheel of flits to switches with one arrival block (the model's
    /// `switch_wheel`); None with more (each block's own wheel).
    pub(super) switch_wheel: Option<&'a mut TimeWheel<FlitEvent>>,
    pub(super) block_wheels: &'a mut [TimeWheel<FlitEvent>],
    pub(super) credit_wheel: &'a mut TimeWheel<u32>,
    pub(super) proposal: &'a mut [Proposal],
    pub(super) order: &'a mut Vec<(u64, u32)>,
}

/// [`InputQueued::allocate`]'s loop over the switches of `span`, on one
/// thread's [`Hot`] state (the whole router's with one thread, with two
/// the same arrays shared as lanes, each thread on its own switches) and
/// its endpoint calls ([`HopCalls`]). The const parameters are
/// [`InputQueued::allocate`]'s, and `SINGLE`: every packet is one flit,
/// so every flit is its packet's head and tail, which the grant then
/// need not read from the flit (one thread passes its `LOOK`, chosen only
/// for one-flit packets, [`super::looks_ahead`]; split cycles, which look
/// ahead whatever the packets' length, pass false; 1.2 % fewer
/// instructions on `torus:8x8` at 0.3). Out of line: compiled inside its callers it
/// executed 2-3 % more instructions on the tori (callgrind; its own
/// function keeps the loop's values in registers).
#[inline(never)]
#[allow(clippy::too_many_lines)]
pub(super) fn allocate_span<
    const ACKS: bool,
    const AGE: bool,
    const FAST: bool,
    const PREFETCH: bool,
    const TABLES: bool,
    const LOOK: bool,
    const SINGLE: bool,
    const BLOCKS: bool,
    const VCS: usize,
    const DEPTH: usize,
    F: Family,
    E: HopCalls,
>(
    hot: Hot<'_, F>,
    now: u64,
    span: std::ops::Range<usize>,
    ep: &mut E,
) -> Result<(), Faulted> {
    {
        let Hot {
            v,
            depth,
            packet_flits,
            switching,
            selection,
            port_priority,
            wait_for_tail_credit,
            link_latency,
            switch_delay,
            first_ejection,
            port_words,
            in_ports,
            in_start,
            sw_out,
            out_start,
            block_of,
            inch,
            busy,
            flits,
            ivcs,
            cands,
            outch,
            sw_rr,
            ovc,
            flit_wheel,
            switch_wheel,
            block_wheels,
            credit_wheel,
            proposal,
            order,
        } = hot;
        let (v, depth) = super::shape::<VCS, DEPTH>(v, depth);
        // The deterministic wormhole router with the VCs' number a
        // constant keeps a proposal's input VC alone: the grant finds its
        // channel and VC by a shift and a mask.
        let lean = FAST && VCS > 0;
        let w = if FAST { 1 } else { port_words };
        let (switching, selection, port_priority) = if FAST {
            (
                Switching::Wormhole,
                Selection::Fixed,
                PortPriority::Rotating,
            )
        } else {
            (switching, selection, port_priority)
        };
        let need = if FAST {
            1
        } else if wait_for_tail_credit {
            depth as i32
        } else if switching == Switching::Wormhole {
            1
        } else {
            packet_flits as i32
        };
        // The acknowledgement class (VCs `ack_lo..v`, one-flit packets);
        // with none reserved `ack_lo == v` and every select below takes its
        // data side.
        let ack_lo = ep.data_vcs() as usize;
        let ack_mask = ((1u32 << v) - 1) & !((1u32 << ack_lo) - 1);
        let vcs = v as u8;
        let mut scratch = Candidates::default();
        debug_assert!(out_start.len() == in_start.len());
        let switches = in_start.len() - 1;
        let ahead_end = if F::SHARED { span.end } else { switches };
        // Every send of the cycle goes to one of these buckets (or, with
        // arrival blocks, a flit to a switch to its block's wheel): looked
        // up once, not per flit.
        // (Flits to hosts on the flit wheel, to switches on the switch
        // wheel, or with arrival blocks on their blocks' wheels.)
        let (near, far) = (now + link_latency, now + link_latency + switch_delay);
        debug_assert!(
            BLOCKS || switch_wheel.is_some(),
            "no wheel for flits to switches"
        );
        let mut sends = match switch_wheel {
            Some(to_switches) if !BLOCKS => Sends::split(flit_wheel, near, to_switches, far),
            _ => flit_wheel.sends(near, far),
        };
        let credit_bucket = credit_wheel.bucket_mut(now + link_latency);
        for s in span {
            // (Two threads: only switches of this span, which are this
            // thread's; another's busy words may be being written.)
            if PREFETCH && s + SWITCHES_AHEAD < ahead_end {
                prefetch_switch::<F>(
                    s + SWITCHES_AHEAD,
                    w,
                    v,
                    busy,
                    in_ports,
                    in_start,
                    inch,
                    ivcs,
                );
            }
            // A switch holds flits when one of its input ports does.
            let words = range(busy, s * w, (s + 1) * w);
            if words.iter().all(|&word| word == 0) {
                continue;
            }
            let first = *at(in_start, s) as usize;
            let np = *at(in_start, s + 1) as usize - first;
            let ports = range(in_ports, first, first + np);
            let out = range(
                sw_out,
                *at(out_start, s) as usize,
                *at(out_start, s + 1) as usize,
            );
            // (A switch visited holds flits, so it has an input port.)
            debug_assert!(np > 0);
            let np16 = np as u16;
            let view = View {
                credits: ovc,
                out,
                v,
            };

            // One pass over the busy input ports (holding flits) in
            // round-robin order: from the switch's pointer on, then those
            // before it. Each port first routes its new head flits and
            // allocates output VCs, then proposes one VC for switch
            // allocation. Proposing right away is the same as proposing in a
            // second pass: a port's proposal depends only on its own VCs and
            // on output credits, which VC allocation elsewhere does not change.
            let start = match port_priority {
                PortPriority::Rotating | PortPriority::Oldest => *at(sw_rr, s) as usize,
                PortPriority::Random => random_port(now, s, np),
            };
            let mut busy_ports = BusyPorts::new(words, start);
            if AGE {
                order_by_age::<F, E>(
                    order,
                    &mut busy_ports,
                    ports,
                    inch,
                    ivcs,
                    flits,
                    v,
                    depth,
                    ep,
                );
            }
            let mut sorted = order.iter();
            let mut n = 0;
            // Where the proposals wrap past the last port (for the
            // traversal below, which goes in ascending port order): ports
            // from `start` up come first, so it is their count.
            let mut split = 0;
            // `FAST` (at most 64 input ports): the proposals are kept by
            // input port instead, `proposal[pi]`, and this word has a bit
            // for each port that proposed, so that the grants walk it in
            // ascending port order with no count, split or wrap.
            let mut proposed = 0u64;
            loop {
                let next = if AGE {
                    sorted.next().map(|&(_, pi)| pi as usize)
                } else {
                    busy_ports.next()
                };
                let Some(pi) = next else { break };
                let (p, c) = *at(ports, pi);
                let c = c as usize;
                let InChannel {
                    nonempty,
                    mut active,
                    rr,
                    ..
                } = *at(inch, c);
                let mut waiting = nonempty & !active;
                while waiting != 0 {
                    let x = waiting.trailing_zeros() as usize;
                    waiting &= waiting - 1;
                    let i = c * v + x;
                    let q = at_mut(ivcs, i);
                    // A head flit just reaching the front routes into the
                    // scratch list; only if it then fails to get an output
                    // VC is the list stored for its retries (`cands[i]`,
                    // 66 bytes a VC, mostly untouched: smaller working set).
                    let fresh = q.state == IDLE;
                    if FAST && TABLES && fresh {
                        // The deterministic wormhole router with every
                        // answer from a table: the one candidate as it is.
                        match route_from_table::<F, E>(
                            q, i, x, s, flits, depth, vcs, out, ovc, v, cands, ep,
                        ) {
                            Ok(bit) => active |= bit,
                            Err(e) => {
                                withdraw::<FAST, F>(proposal, n, proposed, outch, ivcs);
                                return Err(e);
                            }
                        }
                        continue;
                    }
                    if fresh {
                        let f = *at(flits, i * depth + q.head as usize);
                        debug_assert!(
                            f.flags() & HEAD != 0,
                            "non-head flit at the front of an idle VC"
                        );
                        let cand = &mut scratch;
                        cand.clear();
                        // (The answer it may have come with, `Ahead`, is
                        // dropped: this router asks the routing.)
                        q.ahead = Ahead::NONE;
                        if let Err(e) = ep.route::<TABLES>(
                            f.packet,
                            s as u32,
                            p,
                            x as u8,
                            now,
                            &view,
                            out.len(),
                            vcs,
                            cand,
                        ) {
                            withdraw::<FAST, F>(proposal, n, proposed, outch, ivcs);
                            return Err(e);
                        }
                        q.state = ROUTED;
                    }
                    // Acknowledgements are one flit long (selects).
                    let ack = ACKS && x >= ack_lo;
                    let (need, len) = if ack {
                        (1, 1)
                    } else {
                        (need, packet_flits as usize)
                    };
                    let ready = switching != Switching::StoreAndForward
                        || whole_packet_here(flits, q, i, depth, len);
                    active |= allocate_vc::<F>(
                        q, i, x, ready, fresh, &scratch, cands, ovc, out, v, need, selection,
                    );
                }
                at_mut(inch, c).active = active;

                // Switch allocation, input stage: the port proposes one
                // VC (round-robin from its pointer) whose output VC has a
                // credit, an acknowledgement VC before data VCs...
                let ready = (nonempty & active) as u32;
                if ready == 0 {
                    continue;
                }
                let acks_ready = if ACKS { ready & ack_mask } else { 0 };
                let offer = |mask: u32| {
                    if AGE {
                        propose_oldest(mask, v, c, ivcs, ovc, flits, depth, ep)
                    } else {
                        propose(mask, rr as u32, v, c, ivcs, ovc)
                    }
                };
                let mut chosen = offer(if acks_ready != 0 { acks_ready } else { ready });
                if chosen.is_none() && acks_ready != 0 {
                    chosen = offer(ready & !ack_mask);
                }
                if let Some(x) = chosen {
                    let i = c * v + x;
                    let q = *at(ivcs, i);
                    // (Age-based: grants go in visiting order, split 0.)
                    if FAST {
                        proposed |= 1 << pi;
                    } else {
                        split += usize::from(!AGE && pi >= start);
                    }
                    if lean {
                        at_mut(proposal, pi).ivc = i as u32;
                    } else {
                        *at_mut(proposal, if FAST { pi } else { n }) = Proposal {
                            ivc: i as u32,
                            ch: c as u32,
                            next_port: if pi + 1 >= np { 0 } else { pi as u16 + 1 },
                            vc: x as u8,
                            next_vc: if x + 1 == v { 0 } else { x as u8 + 1 },
                        };
                    }
                    if !FAST {
                        n += 1;
                    }
                    // ...and each output port keeps the proposal that comes
                    // first after its own round-robin pointer (out rr <= np:
                    // it is only ever set by this switch, and np reads as 0),
                    // acknowledgements before data (bit 15).
                    let g = at_mut(outch, q.out_ch as usize);
                    let pi16 = pi as u16;
                    let pos = if AGE {
                        // Age-based: the port visited first wins.
                        n as u16 - 1
                    } else if pi16 >= g.rr {
                        pi16 - g.rr
                    } else {
                        pi16 + np16 - g.rr
                    };
                    let prio = if ACKS {
                        pos | (u16::from(x < ack_lo) << 15)
                    } else {
                        pos
                    };
                    if g.ivc == NONE || prio < g.prio {
                        g.prio = prio;
                        g.ivc = i as u32;
                    }
                }
            }
            *at_mut(sw_rr, s) = if start + 1 >= np { 0 } else { start as u32 + 1 };

            // Grants and traversal, in ascending input-port order (the
            // proposals were made from the round-robin pointer on): winners
            // send one flit; it reaches the next switch after link latency +
            // switch delay (a host after the link latency), and a credit
            // returns upstream after the link latency.
            let made = proposed;
            let mut j = if split == n { 0 } else { split };
            let mut left = n;
            loop {
                let (pr, pi) = if FAST {
                    if proposed == 0 {
                        break;
                    }
                    let pi = proposed.trailing_zeros() as usize;
                    proposed &= proposed - 1;
                    (*at(proposal, pi), pi)
                } else {
                    if left == 0 {
                        break;
                    }
                    left -= 1;
                    let pr = *at(proposal, j);
                    j = if j + 1 == n { 0 } else { j + 1 };
                    (pr, 0)
                };
                let i = pr.ivc as usize;
                let q: &mut InputVc = at_mut(ivcs, i);
                let oc = q.out_ch;
                let g = at_mut(outch, oc as usize);
                if g.ivc != i as u32 {
                    continue;
                }
                grant::<FAST, TABLES, LOOK, SINGLE, BLOCKS, F, E>(
                    pr,
                    pi,
                    lean,
                    Cycle {
                        now,
                        s,
                        w,
                        v,
                        depth,
                        vcs,
                        first_ejection,
                        link_latency,
                        switch_delay,
                    },
                    Grant {
                        q,
                        g,
                        inch,
                        busy,
                        flits,
                        ovc,
                        credit_bucket,
                        sends: &mut sends,
                        block_of,
                        block_wheels,
                    },
                    ep,
                );
            }
            // Every port proposed to had a winner, whose grant cleared it.
            debug_assert!(
                made_proposals::<FAST>(proposal, n, made).all(|pr| at(
                    outch,
                    at(ivcs, pr.ivc as usize).out_ch as usize
                )
                .ivc == NONE),
                "a proposal outlived its switch's allocation"
            );
            // (A proposal is always granted to some port: the switch sent
            // if it proposed.)
            if made != 0 || n > 0 {
                ep.progress(now);
            }
        }
        Ok(())
    }
}

/// VC allocation for a head just reaching the front of input VC `i` (VC
/// `x` of its channel, at switch `s`) under the deterministic wormhole
/// router with every answer from a table ([`allocate_span`]'s `FAST` and
/// `TABLES`): its table's one candidate as it is, no list to fill and
/// walk (the same choice as [`choose_out_vc`]'s `Fixed` on a list of
/// one). Returns the VC's bit for the port's active set if it got an
/// output VC, 0 if it waits with its candidate kept, or the routing fault.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn route_from_table<F: Family, E: HopCalls>(
    q: &mut InputVc,
    i: usize,
    x: usize,
    s: usize,
    flits: &F::Arr<Flit>,
    depth: usize,
    vcs: u8,
    out: &[u32],
    ovc: &[Cell<OutputVc>],
    v: usize,
    cands: &mut F::Arr<Candidates>,
    ep: &mut E,
) -> Result<u16, Faulted> {
    let f = *at(flits, i * depth + q.head as usize);
    debug_assert!(
        f.flags() & HEAD != 0,
        "non-head flit at the front of an idle VC"
    );
    // (Its answer came with it, `Ahead`, unless it has none: then the
    // table is asked here, and reports a missing answer.)
    let cand = match std::mem::replace(&mut q.ahead, Ahead::NONE).get() {
        Some(cand) => {
            ep.count_switch(f.packet);
            Ok(cand)
        }
        None => ep.table_route(f.packet, s as u32, vcs),
    }?;
    let oc = *at(out, cand.port as usize);
    let pick = if oc == NONE {
        None
    } else {
        free_vc(ovc, oc, v, cand.vc_lo, cand.vc_hi, 1)
    };
    match pick {
        Some(o) => {
            set_owner(at(ovc, o as usize), i as u32);
            q.out = o;
            q.out_ch = oc;
            q.state = ACTIVE;
            Ok(1 << x)
        }
        None => {
            q.state = ROUTED;
            let kept = at_mut(cands, i);
            kept.clear();
            kept.push(cand.port, cand.vc_lo, cand.vc_hi);
            Ok(0)
        }
    }
}

/// [`PortPriority::Oldest`]: the busy ports left in `busy_ports` into
/// `order`, by the generation cycle of the oldest packet at the front of
/// their VCs (a stable sort, so ties keep the rotating order).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn order_by_age<F: Family, E: HopCalls>(
    order: &mut Vec<(u64, u32)>,
    busy_ports: &mut BusyPorts<'_>,
    ports: &[(PortId, u32)],
    inch: &F::Arr<InChannel>,
    ivcs: &F::Arr<InputVc>,
    flits: &F::Arr<Flit>,
    v: usize,
    depth: usize,
    ep: &E,
) {
    order.clear();
    for pi in busy_ports.by_ref() {
        let c = at(ports, pi).1 as usize;
        let mut bits = at(inch, c).nonempty;
        let mut age = u64::MAX;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            age = age.min(front_age(c * v + x, ivcs, flits, depth, ep));
        }
        order.push((age, pi as u32));
    }
    order.sort_by_key(|&(age, _)| age);
}

/// VC allocation for the routed head of input VC `i` (VC `x` of its
/// port), `ready` to go (store-and-forward: its whole packet here): the
/// output VC its candidates (`scratch` if `fresh`, just routed, else those
/// kept in `cands`) and the [`Selection`] give, with at least `need`
/// credits. Returns the VC's bit for the port's active set if it got one,
/// else 0 (a fresh head's candidates are then kept for its retries).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn allocate_vc<F: Family>(
    q: &mut InputVc,
    i: usize,
    x: usize,
    ready: bool,
    fresh: bool,
    scratch: &Candidates,
    cands: &mut F::Arr<Candidates>,
    ovc: &[Cell<OutputVc>],
    out: &[u32],
    v: usize,
    need: i32,
    selection: Selection,
) -> u16 {
    let cand = if fresh { scratch } else { at(cands, i) };
    match ready
        .then(|| choose_out_vc(cand, ovc, out, v, need, selection))
        .flatten()
    {
        Some((o, oc)) => {
            set_owner(at(ovc, o as usize), i as u32);
            q.out = o;
            q.out_ch = oc;
            q.state = ACTIVE;
            1 << x
        }
        None if fresh => {
            *at_mut(cands, i) = *scratch;
            0
        }
        None => 0,
    }
}

/// What a grant needs that stays the same through a switch's allocation.
#[derive(Clone, Copy)]
struct Cycle {
    now: u64,
    /// The switch, and its busy-port words' count.
    s: usize,
    w: usize,
    v: usize,
    depth: usize,
    vcs: u8,
    first_ejection: u32,
    link_latency: u64,
    switch_delay: u64,
}

/// The records a grant writes: the winning input VC `q` and the output
/// port `g` it won, and the arrays and sends the flit's traversal touches.
struct Grant<'g, 'w, F: Family + ?Sized> {
    q: &'g mut InputVc,
    g: &'g mut OutChannel,
    inch: &'g mut F::Arr<InChannel>,
    busy: &'g mut F::Arr<u64>,
    flits: &'g F::Arr<Flit>,
    ovc: &'g [Cell<OutputVc>],
    credit_bucket: &'g mut Vec<u32>,
    sends: &'g mut Sends<'w, FlitEvent>,
    block_of: &'g [u32],
    block_wheels: &'g mut [TimeWheel<FlitEvent>],
}

/// Switch allocation's grant to proposal `pr` (of input port `pi`), which
/// won its output port: the winner sends one flit, which reaches the next
/// switch after link latency + switch delay (a host after the link
/// latency), and a credit returns upstream after the link latency. The
/// const parameters are [`allocate_span`]'s; `lean`: the proposal kept
/// only its input VC.
#[inline(always)]
fn grant<
    const FAST: bool,
    const TABLES: bool,
    const LOOK: bool,
    const SINGLE: bool,
    const BLOCKS: bool,
    F: Family,
    E: HopCalls,
>(
    pr: Proposal,
    pi: usize,
    lean: bool,
    cy: Cycle,
    gr: Grant<'_, '_, F>,
    ep: &mut E,
) {
    let Cycle {
        now,
        s,
        w,
        v,
        depth,
        vcs,
        first_ejection,
        link_latency,
        switch_delay,
    } = cy;
    let Grant {
        q,
        g,
        inch,
        busy,
        flits,
        ovc,
        credit_bucket,
        sends,
        block_of,
        block_wheels,
    } = gr;
    let i = pr.ivc as usize;
    let oc = q.out_ch;
    // The winner's grant clears the port's proposal for the
    // next switch cycle; losers after it see NONE, not `i`.
    g.ivc = NONE;
    // (`lean`: what the proposal did not keep, from the port and
    // the input VC; both pointers left one past the last port or
    // VC rather than wrapped to 0, which their readers take
    // alike: no select.)
    let (c, x) = if lean {
        g.rr = pi as u16 + 1;
        (i / v, i % v)
    } else {
        g.rr = pr.next_port;
        (pr.ch as usize, pr.vc as usize)
    };
    let ch = at_mut(inch, c);
    ch.rr = if lean { x as u8 + 1 } else { pr.next_vc };

    let flit: Flit = *at(flits, i * depth + q.head as usize);
    let h = q.head as usize + 1;
    q.head = if h == depth { 0 } else { h as u16 };
    q.len -= 1;
    // Clear the VC's bit when it empties, and the port's busy bit
    // when the port does: selects, not branches (whether a
    // buffer just emptied is a coin toss).
    ch.nonempty &= !(u16::from(q.len == 0) << x);
    // (`FAST`: the port's index is its proposal's.)
    let k = if FAST { pi } else { ch.index as usize };
    *at_mut(busy, s * w + k / 64) &= !(u64::from(ch.nonempty == 0) << (k % 64));
    // Credit back upstream for the slot just freed.
    credit_bucket.push(i as u32);
    let o = q.out as usize;
    debug_assert!(
        !SINGLE || flit.flags() == HEAD | TAIL,
        "a flit of a longer packet in a one-flit run"
    );
    let head = SINGLE || flit.flags() & HEAD != 0;
    let waited = flit.waited(now);
    if head {
        ep.head_left(flit.packet, waited);
    }
    ep.channel_traversal(oc as usize, head, waited);
    let vc = (o - oc as usize * v) as u8;
    // Into a switch: spend a credit, and the flit also crosses
    // that switch (switch delay); into a host: neither (hosts
    // always accept). Selects, not branches.
    let to_switch = oc < first_ejection;
    let ov = at(ovc, o);
    let mut spent = ov.get();
    spent.credits -= i32::from(to_switch);
    ov.set(spent);
    let delay = if to_switch {
        link_latency + switch_delay
    } else {
        link_latency
    };
    // (With arrival blocks, flits to a switch go to its block's
    // wheel.)
    if SINGLE || flit.flags() & TAIL != 0 {
        set_owner(at(ovc, o), NONE);
        q.state = IDLE;
        ch.active &= !(1 << x);
    }
    // Lookahead routing (`Ahead`): with table routes, a head
    // going to a switch takes its answer there now (last: it
    // waits on the packet's record, which nothing above does).
    let ahead = if FAST && TABLES && LOOK && head && to_switch {
        let next = F::downstream_switch(inch, oc as usize);
        Ahead::of(ep.table_lookup(flit.packet, next, vcs))
    } else {
        Ahead::NONE
    };
    let ev = FlitEvent {
        ch: oc,
        vc,
        flit,
        ahead,
    };
    match if BLOCKS {
        *at(block_of, oc as usize)
    } else {
        NONE
    } {
        NONE => sends.push(to_switch, ev),
        b => at_mut(block_wheels, b as usize).schedule(now + delay, ev),
    }
}

/// A routing fault part-way through a switch: leave no proposal behind
/// (see [`OutChannel`]). Out of line and cold: it ends the run, and inside
/// the loop its code only kept values from registers.
#[cold]
#[inline(never)]
fn withdraw<const FAST: bool, F: Family>(
    proposal: &[Proposal],
    n: usize,
    proposed: u64,
    outch: &mut F::Arr<OutChannel>,
    ivcs: &F::Arr<InputVc>,
) {
    for pr in made_proposals::<FAST>(proposal, n, proposed) {
        at_mut(outch, at(ivcs, pr.ivc as usize).out_ch as usize).ivc = NONE;
    }
}

/// The proposals a switch has made so far: with `FAST` those of the input
/// ports whose bits `proposed` has (`proposal[pi]`), else the first `n`.
fn made_proposals<const FAST: bool>(
    proposal: &[Proposal],
    n: usize,
    proposed: u64,
) -> impl Iterator<Item = &Proposal> {
    let count = if FAST { proposal.len().min(64) } else { n };
    range(proposal, 0, count)
        .iter()
        .enumerate()
        .filter(move |&(k, _)| !FAST || proposed >> k & 1 != 0)
        .map(|(_, pr)| pr)
}

/// How many switches ahead the allocation loop prefetches (large networks).
const SWITCHES_AHEAD: usize = 2;

/// Ask the cache for the records switch `t`'s allocation will touch first:
/// its busy input ports' channel and VC records ([`crate::sim::prefetch`]).
/// Not its output ports' (arbiter, credits, counters): a switch sends on
/// one or two of its five at light load, which ones is known only once
/// its heads are routed, and asking for all of them cost more than the
/// misses it saved (`torus:64x64` at 0.05, 10 % fewer instructions and
/// 3-10 % less time; docs/performance.md, "What was tried", look 14).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn prefetch_switch<F: Family>(
    t: usize,
    w: usize,
    v: usize,
    busy: &F::Arr<u64>,
    in_ports: &[(PortId, u32)],
    in_start: &[u32],
    inch: &F::Arr<InChannel>,
    ivcs: &F::Arr<InputVc>,
) {
    let mut bits = *at(busy, t * w);
    if bits == 0 {
        return;
    }
    let first = *at(in_start, t) as usize;
    while bits != 0 {
        let pi = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let c = at(in_ports, first + pi).1 as usize;
        prefetch_at(inch, c);
        prefetch_at(ivcs, c * v);
    }
}

/// The busy input ports of one switch (set bits of its busy-port words), in
/// round-robin order: from port `start` up, then from 0 up to `start`.
struct BusyPorts<'a> {
    words: &'a [u64],
    start: usize,
    /// Index of the current word and its remaining bits. With one word (up
    /// to 64 ports, the common case) the bits are the word rotated right by
    /// `start`, so one pass yields the ports in round-robin order.
    k: usize,
    bits: u64,
    /// Multi-word sets: words visited so far after the first; the first
    /// word is visited again last, for its ports below `start`.
    seg: usize,
}

impl<'a> BusyPorts<'a> {
    #[inline(always)]
    fn new(words: &'a [u64], start: usize) -> Self {
        let k = start / 64;
        let bits = if words.len() == 1 {
            words[0].rotate_right(start as u32)
        } else {
            words[k] & (!0u64 << (start % 64))
        };
        BusyPorts {
            words,
            start,
            k,
            bits,
            seg: 0,
        }
    }
}

impl Iterator for BusyPorts<'_> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        let w = self.words.len();
        if w == 1 {
            if self.bits == 0 {
                return None;
            }
            let pi = (self.bits.trailing_zeros() as usize + self.start) & 63;
            self.bits &= self.bits - 1;
            return Some(pi);
        }
        loop {
            if self.bits != 0 {
                let pi = self.k * 64 + self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                return Some(pi);
            }
            if self.seg == w {
                return None;
            }
            self.seg += 1;
            self.k = if self.k + 1 == w { 0 } else { self.k + 1 };
            self.bits = self.words[self.k];
            if self.seg == w {
                self.bits &= (1u64 << (self.start % 64)) - 1;
            }
        }
    }
}

/// [`PortPriority::Random`]: a port in `0..np` from the cycle and the
/// switch alone (SplitMix64's finaliser, then a multiply-shift into range),
/// the same on every platform and independent of the random streams.
#[inline]
fn random_port(now: u64, switch: usize, np: usize) -> usize {
    let mut z = now.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ switch as u64;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (((z >> 32) * np as u64) >> 32) as usize
}

/// Switch allocation, input stage, for one input port (channel `c`): the
/// first VC of `mask` from the port's round-robin pointer `rr` on whose
/// output VC has a credit (its index at the port).
#[inline(always)]
fn propose<S: Slots<InputVc> + ?Sized>(
    mask: u32,
    rr: u32,
    v: usize,
    c: usize,
    ivcs: &S,
    ovc: &[Cell<OutputVc>],
) -> Option<usize> {
    // One VC (the common case): the pointer does not matter.
    if mask.is_power_of_two() {
        let x = mask.trailing_zeros() as usize;
        return (at(ovc, at(ivcs, c * v + x).out as usize).get().credits > 0).then_some(x);
    }
    // Rotate the mask so that bit 0 is the pointer (`rr == v` rotates by
    // nothing, as 0 does).
    let rot = (mask >> rr) | (mask << (v as u32 - rr));
    let mut pending = rot & ((1u32 << v) - 1);
    while pending != 0 {
        let k = pending.trailing_zeros();
        pending &= pending - 1;
        // (rr + k) mod v, without a branch.
        let x = (rr + k) as usize;
        let x = x - v * usize::from(x >= v);
        if at(ovc, at(ivcs, c * v + x).out as usize).get().credits > 0 {
            return Some(x);
        }
    }
    None
}

/// [`PortPriority::Oldest`]'s switch allocation, input stage: the VC of
/// `mask` whose front packet is the oldest (by generation cycle; ties to
/// the lower VC) among those whose output VC has a credit.
#[allow(clippy::too_many_arguments)]
fn propose_oldest<I, L, E>(
    mask: u32,
    v: usize,
    c: usize,
    ivcs: &I,
    ovc: &[Cell<OutputVc>],
    flits: &L,
    depth: usize,
    ep: &E,
) -> Option<usize>
where
    I: Slots<InputVc> + ?Sized,
    L: Slots<Flit> + ?Sized,
    E: HopCalls,
{
    let mut pending = mask & ((1u32 << v) - 1);
    let mut best: Option<(u64, usize)> = None;
    while pending != 0 {
        let x = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        if at(ovc, at(ivcs, c * v + x).out as usize).get().credits > 0 {
            let age = front_age(c * v + x, ivcs, flits, depth, ep);
            if best.is_none_or(|(a, _)| age < a) {
                best = Some((age, x));
            }
        }
    }
    best.map(|(_, x)| x)
}

/// The generation cycle of the packet at the front of input VC `i` (which
/// holds flits): its age for [`PortPriority::Oldest`].
#[inline(always)]
fn front_age<I, L, E>(i: usize, ivcs: &I, flits: &L, depth: usize, ep: &E) -> u64
where
    I: Slots<InputVc> + ?Sized,
    L: Slots<Flit> + ?Sized,
    E: HopCalls,
{
    let f = *at(flits, i * depth + at(ivcs, i).head as usize);
    ep.gen_cycle(f.packet)
}

/// SAF: is the whole front packet of input VC `i` in its buffer?
fn whole_packet_here<L: Slots<Flit> + ?Sized>(
    flits: &L,
    q: &InputVc,
    i: usize,
    depth: usize,
    l: usize,
) -> bool {
    if (q.len as usize) < l {
        return false;
    }
    let front = *at(flits, i * depth + q.head as usize);
    let f = *at(flits, i * depth + (q.head as usize + l - 1) % depth);
    f.packet == front.packet && f.flags() & TAIL != 0
}

/// VC allocation for one input VC: the output VC (channel · V + vc) its
/// [`Selection`] prefers among the candidates' free VCs with at least
/// `need` credits, and its channel (returned to spare a division), or
/// None. Candidates whose port is not connected are
/// skipped (so `Fixed` means the first connected candidate).
#[inline(always)]
fn choose_out_vc(
    cands: &Candidates,
    ovc: &[Cell<OutputVc>],
    out: &[u32],
    v: usize,
    need: i32,
    selection: Selection,
) -> Option<(u32, u32)> {
    // Every candidate was checked when the routing answered
    // (`Endpoints::route`): its port exists and its VCs are below `v`.
    let mut connected = cands.as_slice().iter().filter_map(|cand| {
        let c = *at(out, cand.port as usize);
        (c != NONE).then_some((c, cand.vc_lo, cand.vc_hi))
    });
    match selection {
        Selection::Fixed => {
            let (c, lo, hi) = connected.next()?;
            free_vc(ovc, c, v, lo, hi, need).map(|o| (o, c))
        }
        Selection::FirstFree => {
            connected.find_map(|(c, lo, hi)| free_vc(ovc, c, v, lo, hi, need).map(|o| (o, c)))
        }
        Selection::Adaptive => {
            let mut best: Option<(u32, u32, i32)> = None;
            for (c, lo, hi) in connected {
                for vc in lo as usize..hi as usize + 1 {
                    let o = c as usize * v + vc;
                    let ov = at(ovc, o).get();
                    if ov.owner == NONE
                        && ov.credits >= need
                        && best.is_none_or(|(_, _, cr)| ov.credits > cr)
                    {
                        best = Some((o as u32, c, ov.credits));
                    }
                }
            }
            best.map(|(o, c, _)| (o, c))
        }
    }
}

/// The first free output VC among VCs `lo..=hi` of channel `c` with at
/// least `need` credits.
#[inline(always)]
fn free_vc(ovc: &[Cell<OutputVc>], c: u32, v: usize, lo: u8, hi: u8, need: i32) -> Option<u32> {
    let base = c as usize * v;
    // One index walked up to the last VC (`lo <= hi`: `Endpoints::route`
    // refuses an empty range); a range iterator kept a second induction
    // variable and an exhaustion test (callgrind).
    debug_assert!(lo <= hi, "empty VC range {lo}..={hi}");
    let (mut o, last) = (base + lo as usize, base + hi as usize);
    loop {
        let ov = at(ovc, o).get();
        // `&`, not `&&`: one branch instead of two coin tosses.
        if (ov.owner == NONE) & (ov.credits >= need) {
            return Some(o as u32);
        }
        if o == last {
            return None;
        }
        o += 1;
    }
}

/// An output VC's owner (the input VC holding it, or `NONE`).
#[inline(always)]
fn set_owner(ov: &Cell<OutputVc>, owner: u32) {
    let mut x = ov.get();
    x.owner = owner;
    ov.set(x);
}
