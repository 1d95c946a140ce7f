//! One cycle of one input-queued switch: routing, VC allocation, separable
//! switch allocation and traversal (Dally and Towles ch. 16-19; the order
//! and policies are described on [`InputQueued`]).
//!
//! This is the simulator's hot path (docs/performance.md has the
//! measurements behind each choice):
//! - the switch's state is borrowed field by field into local slices once
//!   per call ([`Hot`]), so the compiler keeps slice pointers in registers
//!   instead of reloading them from `self` after every store;
//! - only the input ports that hold flits are visited (a per-switch bit
//!   set), in one pass that routes, allocates VCs and proposes for switch
//!   allocation ([`route_port`], [`propose_port`]), then the winners send
//!   ([`grant_switch`]);
//! - decisions whose outcome is a coin toss under random traffic are
//!   written as selects rather than branches;
//! - the router's own indices skip bounds checks ([`super::unchecked`]);
//! - on large networks, the records of a switch two ahead are prefetched
//!   ([`crate::sim::prefetch`]).

use super::unchecked::{Family, Owned, Slots, at, at_mut, prefetch_at, range};
use super::{
    ACTIVE, Ahead, Flit, FlitEvent, HEAD, IDLE, InChannel, InputQueued, InputVc, NONE, OutChannel,
    OutputVc, Proposal, ROUTED, Settings, TAIL, View,
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
    /// on a network of one arrival block, [`allocate_span`] over all
    /// switches (their arrivals are written already); with more, each
    /// block's arrivals and then the block ([`InputQueued::block_bits`]).
    /// After a routing fault the later blocks' arrivals are still written,
    /// so no flit is lost from the state the fault is reported on.
    /// The const parameters are [`allocate_span`]'s.
    pub(super) fn allocate<
        const FAST: bool,
        const ACKS: bool,
        const AGE: bool,
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
            None => allocate_span::<FAST, ACKS, AGE, TABLES, LOOK, VCS, DEPTH, Owned, E>(
                self.hot(),
                now,
                0..switches,
                ep,
            ),
            Some(bits) => self
                .allocate_in_blocks::<FAST, ACKS, AGE, TABLES, LOOK, VCS, DEPTH, E>(now, bits, ep),
        }
    }

    /// [`InputQueued::allocate`] with blocks of `1 << bits` switches. Out
    /// of line and cold, so that the call without blocks is compiled as it
    /// was before they existed.
    #[inline(never)]
    #[cold]
    fn allocate_in_blocks<
        const FAST: bool,
        const ACKS: bool,
        const AGE: bool,
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
            let r = allocate_span::<FAST, ACKS, AGE, TABLES, LOOK, VCS, DEPTH, Owned, E>(
                self.hot(),
                now,
                span,
                ep,
            );
            if let Err(e) = r {
                for later in b + 1..blocks {
                    self.arrivals(now, Some(later), ep);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// The allocation loop's state ([`Hot`]), borrowed field by field:
    /// slices, not `&mut Vec`s, so that their pointers and lengths stay in
    /// registers.
    #[inline(always)]
    fn hot(&mut self) -> Hot<'_, Owned> {
        let InputQueued {
            set,
            in_ports,
            in_start,
            sw_out,
            out_start,
            block_of,
            inch,
            busy,
            flits,
            ivc,
            cands,
            ovc,
            outch,
            sw_rr,
            flit_wheel,
            switch_wheel,
            block_wheels,
            credit_wheel,
            proposal,
            order,
            block_bits,
            ..
        } = self;
        Hot {
            set: *set,
            wiring: Wiring {
                in_ports,
                in_start,
                sw_out,
                out_start,
                block_of,
            },
            inch: &mut inch[..],
            busy: &mut busy[..],
            flits: &flits[..],
            ivcs: &mut ivc[..],
            cands: &mut cands[..],
            outch: &mut outch[..],
            sw_rr: &mut sw_rr[..],
            // The output VCs as cells: the routing's view of their credits
            // is made once per switch and stays valid while allocation sets
            // their owners (a `Cell` of a `Copy` value costs nothing).
            ovc: Cell::from_mut(&mut ovc[..]).as_slice_of_cells(),
            flit_wheel,
            switch_wheel: block_bits.is_none().then_some(switch_wheel),
            block_wheels: &mut block_wheels[..],
            credit_wheel,
            proposal: &mut proposal[..],
            order,
        }
    }
}

/// The router's read-only tables: each switch's connected input ports
/// and output channels, and each channel's arrival block.
#[derive(Clone, Copy)]
pub(super) struct Wiring<'a> {
    /// Switch s's input ports as (port, input channel):
    /// `in_ports[in_start[s]..in_start[s + 1]]`.
    pub(super) in_ports: &'a [(PortId, u32)],
    pub(super) in_start: &'a [u32],
    /// Switch s's output channel by port (or NONE):
    /// `sw_out[out_start[s]..out_start[s + 1]]`.
    pub(super) sw_out: &'a [u32],
    pub(super) out_start: &'a [u32],
    /// Per channel, the arrival block of the switch it reaches (NONE, or
    /// empty with one block).
    pub(super) block_of: &'a [u32],
}

/// What one thread's allocation loop reads and writes: the router's
/// settings and tables, its per-channel and per-switch state (as slices
/// with one thread, as lanes with two, `super::lane::Lane`,
/// [`super::two_threads`]), the wheels its sends go to and its scratch.
pub(super) struct Hot<'a, F: Family> {
    pub(super) set: Settings,
    pub(super) wiring: Wiring<'a>,
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
    /// `switch_wheel`); None with more (each block's own wheel, through
    /// [`Wiring::block_of`]).
    pub(super) switch_wheel: Option<&'a mut TimeWheel<FlitEvent>>,
    pub(super) block_wheels: &'a mut [TimeWheel<FlitEvent>],
    pub(super) credit_wheel: &'a mut TimeWheel<u32>,
    pub(super) proposal: &'a mut [Proposal],
    pub(super) order: &'a mut Vec<(u64, u32)>,
}

/// The router's settings as one call of [`allocate_span`] uses them, the
/// kernel's constants in place (`FAST`, `VCS`, `DEPTH`), and what follows
/// from them.
#[derive(Clone, Copy)]
struct Cycle {
    now: u64,
    v: usize,
    depth: usize,
    /// Busy-port words a switch.
    w: usize,
    vcs: u8,
    switching: Switching,
    selection: Selection,
    port_priority: PortPriority,
    /// An acknowledgement class is reserved (`ACKS`).
    acks: bool,
    /// Age-based arbitration ([`PortPriority::Oldest`]).
    age: bool,
    /// Credits an output VC needs to be allocated to a data packet's head.
    need: i32,
    packet_flits: usize,
    /// The acknowledgement class: VCs `ack_lo..v` (one-flit packets), as
    /// a mask; with none reserved `ack_lo == v`, the mask is 0 and every
    /// select on them takes its data side.
    ack_lo: usize,
    ack_mask: u32,
    first_ejection: u32,
    link_latency: u64,
    switch_delay: u64,
    /// More than one arrival block: flits to switches go to their blocks'
    /// wheels.
    blocks: bool,
    prefetch: bool,
    /// The deterministic wormhole router with the VCs' number a constant
    /// keeps a proposal's input VC alone: the grant finds its channel and
    /// VC by a shift and a mask.
    lean: bool,
}

impl Cycle {
    /// `set` as a kernel compiled with `FAST`, `ACKS`, `AGE`, `VCS` and `DEPTH` reads it,
    /// with `data_vcs` data VCs (the rest an acknowledgement class).
    #[inline(always)]
    fn of<
        const FAST: bool,
        const ACKS: bool,
        const AGE: bool,
        const VCS: usize,
        const DEPTH: usize,
    >(
        set: Settings,
        now: u64,
        blocks: bool,
        data_vcs: u8,
    ) -> Cycle {
        let (v, depth) = super::shape::<VCS, DEPTH>(set.v, set.depth);
        // `FAST`: the deterministic wormhole router (no acknowledgement
        // class, rotating priorities, wormhole switching without waiting
        // for the tail credit, `Selection::Fixed`, at most 64 input ports
        // a switch). Those settings are read here as every kernel reads
        // them: as constants they saved 1.2-2.3 % of the instructions,
        // under the 3 % a specialisation must earn (docs/performance.md).
        let (switching, selection, port_priority) =
            (set.switching, set.selection, set.port_priority);
        let need = if set.wait_for_tail_credit {
            depth as i32
        } else if switching == Switching::Wormhole {
            1
        } else {
            i32::from(set.packet_flits)
        };
        let ack_lo = if FAST || !ACKS { v } else { data_vcs as usize };
        Cycle {
            now,
            v,
            depth,
            w: if FAST { 1 } else { set.port_words },
            vcs: v as u8,
            switching,
            selection,
            port_priority,
            acks: ACKS && !FAST,
            age: AGE,
            need,
            packet_flits: usize::from(set.packet_flits),
            ack_lo,
            ack_mask: ((1u32 << v) - 1) & !((1u32 << ack_lo) - 1),
            first_ejection: set.first_ejection,
            link_latency: set.link_latency,
            switch_delay: set.switch_delay,
            blocks,
            prefetch: set.prefetch,
            lean: FAST && VCS > 0,
        }
    }
}

/// The proposals a switch has made so far in switch allocation.
#[derive(Clone, Copy, Default)]
struct Made {
    /// How many, in `proposal[..n]` in the order they were made, and how
    /// many of those from the round-robin pointer on (for the grants,
    /// which go in ascending port order).
    n: usize,
    split: usize,
    /// `FAST` (at most 64 input ports): the proposals are kept by input
    /// port instead, `proposal[pi]`, and this word has a bit for each port
    /// that proposed, so that the grants walk it in ascending port order
    /// with no count, split or wrap.
    proposed: u64,
}

/// [`InputQueued::allocate`]'s loop over the switches of `span`, on one
/// thread's [`Hot`] state (the whole router's with one thread, with two
/// the same arrays shared as lanes, each thread on its own switches) and
/// its endpoint calls ([`HopCalls`]): at each switch that holds flits,
/// one pass over its busy input ports in round-robin order (from the
/// switch's pointer on, then those before it), each port routing its new
/// heads and allocating them output VCs ([`route_port`]), then proposing
/// one VC for switch allocation ([`propose_port`]); then the grants
/// ([`grant_switch`]). Proposing right away is the same as proposing in
/// a second pass: a port's proposal depends only on its own VCs and on
/// output credits, which VC allocation elsewhere does not change.
///
/// The error (rare) is a routing's bad answer; the caller turns it into
/// a [`SimError`](crate::sim::SimError).
///
/// `FAST`: the deterministic wormhole router, routelab's default
/// ([`InputQueued::fast_router`]), at most 64 input ports a switch: its
/// proposals are kept by input port and the busy-port iterator keeps one
/// word (its settings are read at run time: as constants they saved
/// under 3 %). `ACKS` (never with `FAST`): an
/// acknowledgement class is reserved; the runs without one are compiled
/// without its selects (+4 % instructions on the general router with it a
/// run-time test). `AGE` (never with `FAST`):
/// age-based arbitration ([`PortPriority::Oldest`]); the other priorities
/// are compiled without it (+9 % instructions on the general router with
/// it a run-time test). `TABLES` (only with `FAST`):
/// every answer comes from a table
/// ([`Endpoints::only_tables`](crate::sim::endpoints::Endpoints::only_tables)),
/// and a fresh head takes its table's one candidate ([`route_from_table`]).
/// `LOOK` (only with both): a head granted to a switch takes its answer
/// there along ([`super::Ahead`], lookahead routing). `VCS` and `DEPTH`:
/// the router's shape as constants, or 0 (`with_shape!`).
///
/// Out of line: compiled inside its callers it executed 2-3 % more
/// instructions on the tori (callgrind; its own function keeps the loop's
/// values in registers).
#[inline(never)]
pub(super) fn allocate_span<
    const FAST: bool,
    const ACKS: bool,
    const AGE: bool,
    const TABLES: bool,
    const LOOK: bool,
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
    // (Moved into locals: the slices' pointers stay in registers.)
    let Hot {
        set,
        wiring,
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
    let k =
        Cycle::of::<FAST, ACKS, AGE, VCS, DEPTH>(set, now, switch_wheel.is_none(), ep.data_vcs());
    let Wiring {
        in_ports,
        in_start,
        sw_out,
        out_start,
        block_of,
    } = wiring;
    debug_assert!(out_start.len() == in_start.len());
    let switches = in_start.len() - 1;
    // (Two threads: only switches of this span, which are this thread's;
    // another's busy words may be being written.)
    let ahead_end = if F::SHARED { span.end } else { switches };
    let mut scratch = Candidates::default();
    // Every send of the cycle goes to one of these buckets (flits to hosts
    // on the flit wheel, to switches on the switch wheel, or with arrival
    // blocks on their blocks' wheels): looked up once, not per flit.
    let (near, far) = (now + k.link_latency, now + k.link_latency + k.switch_delay);
    let mut sends = match switch_wheel {
        Some(to_switches) => Sends::split(flit_wheel, near, to_switches, far),
        None => flit_wheel.sends(near, far),
    };
    let credit_bucket = credit_wheel.bucket_mut(now + k.link_latency);
    for s in span {
        if k.prefetch && s + SWITCHES_AHEAD < ahead_end {
            prefetch_switch::<F>(s + SWITCHES_AHEAD, &k, busy, wiring, inch, ivcs);
        }
        // A switch holds flits when one of its input ports does.
        let words = range(busy, s * k.w, (s + 1) * k.w);
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
        let view = View {
            credits: ovc,
            out,
            v: k.v,
            depth: k.depth as i32,
        };
        let start = match k.port_priority {
            PortPriority::Rotating | PortPriority::Oldest => *at(sw_rr, s) as usize,
            PortPriority::Random => random_port(now, s, np),
        };
        let mut busy_ports = BusyPorts::new(words, start);
        if k.age {
            order_by_age::<F, E>(&k, order, &mut busy_ports, ports, inch, ivcs, flits, ep);
        }
        let mut sorted = order.iter();
        let mut made = Made::default();
        loop {
            let next = if k.age {
                sorted.next().map(|&(_, pi)| pi as usize)
            } else {
                busy_ports.next()
            };
            let Some(pi) = next else { break };
            let (p, c) = *at(ports, pi);
            let c = c as usize;
            let ch = *at(inch, c);
            let routed = route_port::<FAST, TABLES, F, E>(
                &k,
                s,
                p,
                c,
                ch,
                &view,
                out,
                ovc,
                &mut scratch,
                ivcs,
                flits,
                cands,
                ep,
            );
            let active = match routed {
                Ok(active) => active,
                Err(e) => {
                    withdraw::<FAST, F>(proposal, made, outch, ivcs);
                    return Err(e);
                }
            };
            at_mut(inch, c).active = active;
            let ready = (ch.nonempty & active) as u32;
            if ready != 0 {
                let pr = (pi, np, start, c, ready, ch.rr);
                propose_port::<FAST, F, E>(
                    &k, pr, &mut made, ivcs, ovc, flits, outch, proposal, ep,
                );
            }
        }
        *at_mut(sw_rr, s) = if start + 1 >= np { 0 } else { start as u32 + 1 };
        grant_switch::<FAST, TABLES, LOOK, F, E>(
            &k,
            s,
            made,
            proposal,
            ivcs,
            outch,
            Traversal {
                inch,
                busy,
                flits,
                ovc,
                block_of,
                block_wheels,
                credit_bucket: &mut *credit_bucket,
                sends: &mut sends,
            },
            ep,
        );
        // (A proposal is always granted to some port: the switch sent if it
        // proposed.)
        if made.proposed != 0 || made.n > 0 {
            ep.progress(now);
        }
    }
    Ok(())
}

/// Routing and VC allocation at one busy input port (port `p` of switch
/// `s`, input channel `c`, whose record is `ch`): each VC holding flits
/// but no output VC routes its head if it just reached the front (into
/// `scratch`; only if it then fails to get an output VC is the list
/// stored for its retries, `cands[i]`, 66 bytes a VC, mostly untouched:
/// a smaller working set), then asks for an output VC. Returns the
/// port's active VCs (those holding an output VC), or the routing's fault.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn route_port<const FAST: bool, const TABLES: bool, F: Family, E: HopCalls>(
    k: &Cycle,
    s: usize,
    p: PortId,
    c: usize,
    ch: InChannel,
    view: &View<'_>,
    out: &[u32],
    ovc: &[Cell<OutputVc>],
    scratch: &mut Candidates,
    ivcs: &mut F::Arr<InputVc>,
    flits: &F::Arr<Flit>,
    cands: &mut F::Arr<Candidates>,
    ep: &mut E,
) -> Result<u16, Faulted> {
    let (v, depth) = (k.v, k.depth);
    let mut active = ch.active;
    let mut waiting = ch.nonempty & !active;
    while waiting != 0 {
        let x = waiting.trailing_zeros() as usize;
        waiting &= waiting - 1;
        let i = c * v + x;
        let q = at_mut(ivcs, i);
        let fresh = q.state == IDLE;
        if FAST && TABLES && fresh {
            // The deterministic wormhole router with every answer from a
            // table: the one candidate as it is.
            active |= route_from_table::<F, E>(q, i, x, s, flits, k, out, ovc, cands, ep)?;
            continue;
        }
        if fresh {
            let f = *at(flits, i * depth + q.head as usize);
            debug_assert!(
                f.flags() & HEAD != 0,
                "non-head flit at the front of an idle VC"
            );
            scratch.clear();
            // (The answer it may have come with, `Ahead`, is dropped: this
            // router asks the routing.)
            q.ahead = Ahead::NONE;
            let (at_switch, vc) = (s as u32, x as u8);
            ep.route::<true>(
                f.packet,
                at_switch,
                p,
                vc,
                k.now,
                view,
                out.len(),
                k.vcs,
                scratch,
            )?;
            q.state = ROUTED;
        }
        // Acknowledgements are one flit long (selects).
        let (need, len) = if k.acks && x >= k.ack_lo {
            (1, 1)
        } else {
            (k.need, k.packet_flits)
        };
        let ready =
            k.switching != Switching::StoreAndForward || whole_packet_here(flits, q, i, depth, len);
        active |= allocate_vc::<F>(
            q,
            i,
            x,
            ready,
            fresh,
            scratch,
            cands,
            ovc,
            out,
            v,
            need,
            k.selection,
        );
    }
    Ok(active)
}

/// Switch allocation, input stage, at one input port: `pr` is (its index
/// `pi` of the switch's `np`, the round-robin start, its channel `c`, its
/// VCs `ready` to send, its VC pointer). It proposes one VC (round-robin
/// from its pointer, or its oldest packet's) whose output VC has a
/// credit, an acknowledgement VC before data VCs; and each output port
/// keeps the proposal that comes first after its own round-robin pointer
/// (out rr <= np: it is only ever set by this switch, and np reads as 0),
/// acknowledgements before data (bit 15), or with age-based arbitration
/// the first visited.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn propose_port<const FAST: bool, F: Family, E: HopCalls>(
    k: &Cycle,
    pr: (usize, usize, usize, usize, u32, u8),
    made: &mut Made,
    ivcs: &F::Arr<InputVc>,
    ovc: &[Cell<OutputVc>],
    flits: &F::Arr<Flit>,
    outch: &mut F::Arr<OutChannel>,
    proposal: &mut [Proposal],
    ep: &E,
) {
    let (pi, np, start, c, ready, rr) = pr;
    let v = k.v;
    // (`FAST` has no acknowledgement class and rotating priorities.)
    let (age, ack_mask) = if FAST || !k.acks {
        (k.age && !FAST, 0)
    } else {
        (k.age, k.ack_mask)
    };
    let acks_ready = ready & ack_mask;
    let first = if acks_ready != 0 { acks_ready } else { ready };
    let mut chosen = offer::<F, E>(age, first, rr, v, c, ivcs, ovc, flits, k.depth, ep);
    if chosen.is_none() && acks_ready != 0 {
        let data = ready & !ack_mask;
        chosen = offer::<F, E>(age, data, rr, v, c, ivcs, ovc, flits, k.depth, ep);
    }
    let Some(x) = chosen else { return };
    let i = c * v + x;
    let q = *at(ivcs, i);
    // (Age-based: grants go in visiting order, split 0.)
    if FAST {
        made.proposed |= 1 << pi;
    } else {
        made.split += usize::from(!k.age && pi >= start);
    }
    if k.lean {
        at_mut(proposal, pi).ivc = i as u32;
    } else {
        *at_mut(proposal, if FAST { pi } else { made.n }) = Proposal {
            ivc: i as u32,
            ch: c as u32,
            next_port: if pi + 1 >= np { 0 } else { pi as u16 + 1 },
            vc: x as u8,
            next_vc: if x + 1 == v { 0 } else { x as u8 + 1 },
        };
    }
    if !FAST {
        made.n += 1;
    }
    let g = at_mut(outch, q.out_ch as usize);
    let (pi16, np16) = (pi as u16, np as u16);
    let pos = if k.age {
        // Age-based: the port visited first wins.
        made.n as u16 - 1
    } else if pi16 >= g.rr {
        pi16 - g.rr
    } else {
        pi16 + np16 - g.rr
    };
    let prio = if !k.acks {
        pos
    } else {
        pos | (u16::from(x < k.ack_lo) << 15)
    };
    if g.ivc == NONE || prio < g.prio {
        g.prio = prio;
        g.ivc = i as u32;
    }
}

/// [`propose_port`]'s pick among the VCs of `mask`: the oldest packet's
/// with `age`, else round-robin from `rr` ([`propose_oldest`],
/// [`propose`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn offer<F: Family, E: HopCalls>(
    age: bool,
    mask: u32,
    rr: u8,
    v: usize,
    c: usize,
    ivcs: &F::Arr<InputVc>,
    ovc: &[Cell<OutputVc>],
    flits: &F::Arr<Flit>,
    depth: usize,
    ep: &E,
) -> Option<usize> {
    if age {
        propose_oldest(mask, v, c, ivcs, ovc, flits, depth, ep)
    } else {
        propose(mask, u32::from(rr), v, c, ivcs, ovc)
    }
}

/// The arrays and sends a switch's grants and traversals touch, beside
/// the winner's input VC and output port.
struct Traversal<'g, 'w, F: Family + ?Sized> {
    inch: &'g mut F::Arr<InChannel>,
    busy: &'g mut F::Arr<u64>,
    flits: &'g F::Arr<Flit>,
    ovc: &'g [Cell<OutputVc>],
    block_of: &'g [u32],
    block_wheels: &'g mut [TimeWheel<FlitEvent>],
    credit_bucket: &'g mut Vec<u32>,
    sends: &'g mut Sends<'w, FlitEvent>,
}

/// Grants and traversal at switch `s`, in ascending input-port order (the
/// proposals `made` were made from the round-robin pointer on): each
/// output port's winner sends one flit ([`grant`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn grant_switch<const FAST: bool, const TABLES: bool, const LOOK: bool, F: Family, E: HopCalls>(
    k: &Cycle,
    s: usize,
    made: Made,
    proposal: &[Proposal],
    ivcs: &mut F::Arr<InputVc>,
    outch: &mut F::Arr<OutChannel>,
    mut t: Traversal<'_, '_, F>,
    ep: &mut E,
) {
    let Made {
        n,
        split,
        mut proposed,
    } = made;
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
        let g = at_mut(outch, q.out_ch as usize);
        if g.ivc != i as u32 {
            continue;
        }
        grant::<FAST, TABLES, LOOK, F, E>(k, s, pr, pi, q, g, &mut t, ep);
    }
    // Every port proposed to had a winner, whose grant cleared it.
    debug_assert!(
        made_proposals::<FAST>(proposal, made).all(|pr| at(
            outch,
            at(ivcs, pr.ivc as usize).out_ch as usize
        )
        .ivc == NONE),
        "a proposal outlived its switch's allocation"
    );
}

/// Switch allocation's grant to proposal `pr` (of input port `pi`), whose
/// input VC `q` won its output port `g`: the winner sends one flit, which
/// reaches the next switch after link latency + switch delay (a host
/// after the link latency), and a credit returns upstream after the link
/// latency. The const parameters are [`allocate_span`]'s.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn grant<const FAST: bool, const TABLES: bool, const LOOK: bool, F: Family, E: HopCalls>(
    k: &Cycle,
    s: usize,
    pr: Proposal,
    pi: usize,
    q: &mut InputVc,
    g: &mut OutChannel,
    t: &mut Traversal<'_, '_, F>,
    ep: &mut E,
) {
    let (v, depth) = (k.v, k.depth);
    let i = pr.ivc as usize;
    let oc = q.out_ch;
    // The winner's grant clears the port's proposal for the next switch
    // cycle; losers after it see NONE, not `i`.
    g.ivc = NONE;
    // (`lean`: what the proposal did not keep, from the port and the input
    // VC; both pointers left one past the last port or VC rather than
    // wrapped to 0, which their readers take alike: no select.)
    let (c, x) = if k.lean {
        g.rr = pi as u16 + 1;
        (i / v, i % v)
    } else {
        g.rr = pr.next_port;
        (pr.ch as usize, pr.vc as usize)
    };
    let ch = at_mut(t.inch, c);
    ch.rr = if k.lean { x as u8 + 1 } else { pr.next_vc };

    let flit: Flit = *at(t.flits, i * depth + q.head as usize);
    let h = q.head as usize + 1;
    q.head = if h == depth { 0 } else { h as u16 };
    q.len -= 1;
    // Clear the VC's bit when it empties, and the port's busy bit when the
    // port does: selects, not branches (whether a buffer just emptied is a
    // coin toss).
    ch.nonempty &= !(u16::from(q.len == 0) << x);
    // (`FAST`: the port's index is its proposal's.)
    let kk = if FAST { pi } else { ch.index as usize };
    *at_mut(t.busy, s * k.w + kk / 64) &= !(u64::from(ch.nonempty == 0) << (kk % 64));
    // Credit back upstream for the slot just freed.
    t.credit_bucket.push(i as u32);
    let o = q.out as usize;
    let head = flit.flags() & HEAD != 0;
    let waited = flit.waited(k.now);
    if head {
        ep.head_left(flit.packet, waited);
    }
    ep.channel_traversal(oc as usize, head, waited);
    let vc = (o - oc as usize * v) as u8;
    // Into a switch: spend a credit, and the flit also crosses that switch
    // (switch delay); into a host: neither (hosts always accept). Selects,
    // not branches.
    let to_switch = oc < k.first_ejection;
    let ov = at(t.ovc, o);
    let mut spent = ov.get();
    spent.credits -= i32::from(to_switch);
    ov.set(spent);
    if flit.flags() & TAIL != 0 {
        set_owner(at(t.ovc, o), NONE);
        q.state = IDLE;
        ch.active &= !(1 << x);
    }
    // Lookahead routing (`Ahead`): with table routes, a head going to a
    // switch takes its answer there now (last: it waits on the packet's
    // record, which nothing above does).
    let ahead = if FAST && TABLES && LOOK && head && to_switch {
        let next = F::downstream_switch(t.inch, oc as usize);
        Ahead::of(ep.table_lookup(flit.packet, next, k.vcs))
    } else {
        Ahead::NONE
    };
    let ev = FlitEvent {
        ch: oc,
        vc,
        flit,
        ahead,
    };
    // (With arrival blocks, flits to a switch go to its block's wheel.)
    match if k.blocks {
        *at(t.block_of, oc as usize)
    } else {
        NONE
    } {
        NONE => t.sends.push(to_switch, ev),
        b => {
            let delay = k.link_latency + if to_switch { k.switch_delay } else { 0 };
            at_mut(t.block_wheels, b as usize).schedule(k.now + delay, ev);
        }
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
    k: &Cycle,
    out: &[u32],
    ovc: &[Cell<OutputVc>],
    cands: &mut F::Arr<Candidates>,
    ep: &mut E,
) -> Result<u16, Faulted> {
    let (v, depth, vcs) = (k.v, k.depth, k.vcs);
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
    k: &Cycle,
    order: &mut Vec<(u64, u32)>,
    busy_ports: &mut BusyPorts<'_>,
    ports: &[(PortId, u32)],
    inch: &F::Arr<InChannel>,
    ivcs: &F::Arr<InputVc>,
    flits: &F::Arr<Flit>,
    ep: &E,
) {
    let (v, depth) = (k.v, k.depth);
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

/// A routing fault part-way through a switch: leave no proposal behind
/// (see [`OutChannel`]). Out of line and cold: it ends the run, and inside
/// the loop its code only kept values from registers.
#[cold]
#[inline(never)]
fn withdraw<const FAST: bool, F: Family>(
    proposal: &[Proposal],
    made: Made,
    outch: &mut F::Arr<OutChannel>,
    ivcs: &F::Arr<InputVc>,
) {
    for pr in made_proposals::<FAST>(proposal, made) {
        at_mut(outch, at(ivcs, pr.ivc as usize).out_ch as usize).ivc = NONE;
    }
}

/// The proposals a switch has made so far: with `FAST` those of the input
/// ports whose bits `made.proposed` has (`proposal[pi]`), else the first
/// `made.n`.
fn made_proposals<const FAST: bool>(
    proposal: &[Proposal],
    made: Made,
) -> impl Iterator<Item = &Proposal> {
    let count = if FAST { proposal.len().min(64) } else { made.n };
    range(proposal, 0, count)
        .iter()
        .enumerate()
        .filter(move |&(k, _)| !FAST || made.proposed >> k & 1 != 0)
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
    k: &Cycle,
    busy: &F::Arr<u64>,
    wiring: Wiring<'_>,
    inch: &F::Arr<InChannel>,
    ivcs: &F::Arr<InputVc>,
) {
    let (w, v, in_ports, in_start) = (k.w, k.v, wiring.in_ports, wiring.in_start);
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
