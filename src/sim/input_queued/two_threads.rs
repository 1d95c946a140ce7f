//! One cycle's switch allocation on two threads (native builds only; off
//! unless asked for: [`InputQueued::set_engine_threads`]).
//!
//! The switches are cut into a lower and an upper half at an arrival-block
//! boundary ([`InputQueued::block_bits`]). After the sequential part of the
//! cycle (credits, flits reaching hosts, injection), the calling thread
//! writes the lower half's arrivals and allocates its switches while a
//! helper thread ([`HelperThread`]) does the same for the upper half; then
//! the upper half's sends join the calling thread's time wheels behind the
//! lower half's, which is where one thread would have put them (it
//! allocates in switch order). So the results are the same, bit for bit,
//! as with one thread (`two_threads_change_no_result`).
//!
//! **Why the halves never touch the same element.** A switch's allocation
//! reads and writes only its own input channels' buffers and records, its
//! own output channels' VCs, arbiters and counters, and its own busy-port
//! word and round-robin pointer (`allocation.rs`); a flit's arrival writes
//! only the records of the switch it reaches, and each half writes the
//! arrivals of its own switches (each block's are taken off its wheel
//! before the halves start). Credits come back in the sequential part. In
//! the endpoint layer a hop writes only its packet's record (a head is at
//! one switch at a time) and its output channel's counters
//! ([`SharedHops`]). Both halves hold the router's arrays as
//! [`Lane`]s, never as `&mut` slices, while they run. Each half has its
//! own time wheels and scratch.
//!
//! **When it applies:** the deterministic wormhole router
//! ([`InputQueued::allocate`]'s `FAST`) with every answer from a table and
//! no blocked cycles counted ([`Endpoints::hops_can_be_shared`]); other
//! cycles run on one thread, with the same blocks. A routing fault (a
//! table without an answer) stops the run with the same error as one
//! thread reports, but the upper half's switches may have moved in that
//! last cycle.
//!
//! **What it gives** (docs/performance.md, "Two threads per cycle"): the
//! hand-off and the work that stays on one thread cost about a
//! microsecond a cycle, so it pays on large networks (a `torus:32x32`
//! cycle is about 100 µs) and not on small ones (a `torus:8x8` cycle is
//! about 6 µs).

use super::allocation::{Hot, Wiring, allocate_span};
use super::lane::{Lane, Shared};
use super::unchecked::at;
use super::{
    Flit, FlitEvent, InChannel, InputQueued, InputVc, Inputs, OutChannel, OutputVc, Proposal,
    Settings, arrive,
};
use crate::routing::Candidates;
use crate::sim::endpoints::{Endpoints, Faulted};
use crate::sim::helper_thread::HelperThread;
use crate::sim::shared_hops::{SharedHops, end_shared_hops};
use crate::sim::timewheel::TimeWheel;
use crate::topology::Endpoint;

/// Flits in the network from which cycles are split between two threads,
/// and below which, once split, they go back to one (the results are the
/// same either way). A cycle's work follows the flits in flight, and the
/// hand-off and the cache lines the threads pass each other cost a few
/// microseconds a cycle. On this project's machine (one thread against two,
/// alternating; docs/performance.md, "Two threads per cycle"), two threads
/// ran `torus:8x8` at load 0.3 (about 230 flits in the network) at 0.6-0.8
/// times one thread's speed and `torus:16x16` at 0.2 (about 950) at
/// 0.6-0.8, and `torus:32x32` at 0.05 (about 1 800) at 1.3-1.7 times, at 0.1
/// (about 3 800) at 1.4-1.6 times. The gap between the two counts keeps a
/// run near the threshold from switching every few cycles.
pub(super) const FROM_FLITS: u64 = 1536;
/// See [`FROM_FLITS`].
pub(super) const DOWN_TO_FLITS: u64 = 1024;

/// The upper half's own time wheels and scratch, and where the halves
/// meet.
pub(super) struct TwoThreads {
    /// The thread that allocates the upper half.
    helper: HelperThread,
    /// Whether the last cycle was split, and the flits in the network from
    /// which cycles split and down to which they stay split
    /// ([`FROM_FLITS`], [`DOWN_TO_FLITS`] unless set for measuring or
    /// tests: [`TwoThreads::split_from`]).
    split: bool,
    from_flits: u64,
    down_to_flits: u64,
    /// The first block of the upper half.
    first_upper_block: usize,
    flit_wheel: TimeWheel<FlitEvent>,
    block_wheels: Vec<TimeWheel<FlitEvent>>,
    credit_wheel: TimeWheel<u32>,
    proposal: Vec<Proposal>,
    order: Vec<(u64, u32)>,
    /// Each block's arrivals of the cycle, taken off the calling thread's
    /// wheel (the hosts' and the lower half's sends) and off this one's
    /// (the upper half's) before the halves start, in that order (switch
    /// order); kept for their allocations.
    due: Vec<[Vec<FlitEvent>; 2]>,
    /// Per output VC (channel · V + vc): which thread adds the credits
    /// that come back to it, [`LOWER`] or [`UPPER`] (its channel's
    /// upstream switch's half, which alone reads and writes it in
    /// allocation), or [`HOSTS`] (an injection channel: the calling
    /// thread, before the hosts inject).
    credit_owner: Vec<u8>,
    /// Debug builds: which half owns each element of the lanes, checked on
    /// every access ([`Lane::owned_by`]).
    #[cfg(debug_assertions)]
    owners: Owners,
}

/// Which half ([`LOWER`], [`UPPER`] or [`HOSTS`], touched by neither) owns
/// each input channel (its downstream switch's), output channel (its
/// upstream switch's) and switch: the invariant the module's documentation
/// argues, checked in debug builds by the lanes themselves.
#[cfg(debug_assertions)]
struct Owners {
    by_in: Vec<u8>,
    by_out: Vec<u8>,
    by_switch: Vec<u8>,
}

/// [`TwoThreads::credit_owner`]: the lower half's thread.
const LOWER: u8 = 0;
/// The upper half's thread.
const UPPER: u8 = 1;
/// The calling thread, before injection.
const HOSTS: u8 = 2;

/// The router's per-channel and per-switch arrays as both halves hold them
/// while they run.
#[derive(Clone, Copy)]
struct Lanes {
    inch: Lane<InChannel>,
    busy: Lane<u64>,
    flits: Lane<Flit>,
    ivcs: Lane<InputVc>,
    cands: Lane<Candidates>,
    outch: Lane<OutChannel>,
    sw_rr: Lane<u32>,
    ovc: Lane<OutputVc>,
}

#[cfg(debug_assertions)]
impl Lanes {
    /// The lanes as half `me` holds them: each checks that every element
    /// it indexes is `me`'s ([`Owners`]).
    fn owned_by(self, o: &Owners, v: usize, depth: usize, w: usize, me: u8) -> Lanes {
        Lanes {
            inch: self.inch.owned_by(&o.by_in, 1, me),
            busy: self.busy.owned_by(&o.by_switch, w, me),
            flits: self.flits.owned_by(&o.by_in, v * depth, me),
            ivcs: self.ivcs.owned_by(&o.by_in, v, me),
            cands: self.cands.owned_by(&o.by_in, v, me),
            outch: self.outch.owned_by(&o.by_out, 1, me),
            sw_rr: self.sw_rr.owned_by(&o.by_switch, 1, me),
            ovc: self.ovc.owned_by(&o.by_out, v, me),
        }
    }
}

/// What a half needs beside the lanes: the router's settings and tables,
/// and its own wheels and scratch.
struct Half<'a> {
    m: &'a Router<'a>,
    flit_wheel: &'a mut TimeWheel<FlitEvent>,
    block_wheels: &'a mut [TimeWheel<FlitEvent>],
    credit_wheel: &'a mut TimeWheel<u32>,
    proposal: &'a mut [Proposal],
    order: &'a mut Vec<(u64, u32)>,
    /// Its blocks and their arrivals.
    blocks: std::ops::Range<usize>,
    due: &'a [[Vec<FlitEvent>; 2]],
    /// The credits due now, and which of them are its own
    /// ([`TwoThreads::credit_owner`]).
    credits: &'a [u32],
    credit_owner: &'a [u8],
    me: u8,
}

/// The router's settings and read-only tables, shared by both halves.
struct Router<'a> {
    set: Settings,
    wiring: Wiring<'a>,
    switches: usize,
    /// Switches per arrival block, as a shift.
    bits: u32,
}

impl TwoThreads {
    /// Cut `m`'s switches in two halves at an arrival-block boundary,
    /// keeping its blocks if it has some (large networks), else with
    /// blocks chosen here; `None` for a network of one switch, an error if
    /// the second thread could not be started.
    pub(super) fn new(m: &mut InputQueued) -> Result<Option<TwoThreads>, String> {
        let n = m.switches();
        if n < 2 {
            return Ok(None);
        }
        let helper = HelperThread::new()?;
        let max_delay = m.set.link_latency + m.set.switch_delay;
        if m.block_bits.is_none() {
            // The largest power of two that divides n / 2 (the halves then
            // are equal), unless that makes more than 64 blocks: then
            // blocks of n / 64 and halves within a block of equal.
            let half = n / 2;
            let even = 1usize << half.trailing_zeros();
            let block = if even * 64 >= n {
                even
            } else {
                (n / 64).next_power_of_two()
            };
            m.use_blocks(block.max(1), max_delay);
        }
        let Some(bits) = m.block_bits else {
            return Ok(None);
        };
        let blocks = m.block_wheels.len();
        // The block boundary nearest n / 2.
        let first_upper_block = ((n as f64 / 2.0) / f64::from(1u32 << bits)).round() as usize;
        let first_upper_block = first_upper_block.clamp(1, blocks - 1);
        let split = first_upper_block << bits;
        let credit_owner = m
            .net
            .channels()
            .iter()
            .flat_map(|c| {
                let owner = match c.src {
                    Endpoint::Switch { switch, .. } if (switch as usize) < split => LOWER,
                    Endpoint::Switch { .. } => UPPER,
                    Endpoint::Host { .. } => HOSTS,
                };
                std::iter::repeat_n(owner, m.set.v)
            })
            .collect();
        #[cfg(debug_assertions)]
        let owners = {
            let half = |s: u32| if (s as usize) < split { LOWER } else { UPPER };
            Owners {
                by_in: m.inch.iter().map(|c| half(c.switch)).collect(),
                by_out: m
                    .net
                    .channels()
                    .iter()
                    .map(|c| match c.src {
                        Endpoint::Switch { switch, .. } => half(switch),
                        Endpoint::Host { .. } => HOSTS,
                    })
                    .collect(),
                by_switch: (0..n as u32).map(half).collect(),
            }
        };
        Ok(Some(TwoThreads {
            helper,
            split: false,
            from_flits: FROM_FLITS,
            down_to_flits: DOWN_TO_FLITS,
            first_upper_block,
            flit_wheel: TimeWheel::new(max_delay),
            block_wheels: vec![TimeWheel::new(max_delay); blocks],
            credit_wheel: TimeWheel::new(max_delay),
            proposal: m.proposal.clone(),
            order: Vec::with_capacity(m.order.capacity()),
            due: vec![[Vec::new(), Vec::new()]; blocks],
            credit_owner,
            #[cfg(debug_assertions)]
            owners,
        }))
    }

    /// Whether cycle `now`, with `in_network` flits in the network, is
    /// split ([`FROM_FLITS`]); remembered for the next.
    pub(super) fn split_now(&mut self, in_network: u64) -> bool {
        self.split = in_network
            >= if self.split {
                self.down_to_flits
            } else {
                self.from_flits
            };
        self.split
    }

    /// Split cycles from `flits` flits in the network on (0: every cycle),
    /// and go back to one thread below two thirds of it.
    pub(super) fn split_from(&mut self, flits: u64) {
        self.from_flits = flits;
        self.down_to_flits = flits / 3 * 2;
    }

    /// Move the upper half's pending sends to switches onto `m`'s wheels,
    /// behind the calling thread's in every bucket (switch order): before
    /// a cycle on one thread, or when two threads stop.
    pub(super) fn merge_pending(&mut self, m: &mut InputQueued) {
        for (mine, theirs) in m.block_wheels.iter_mut().zip(&mut self.block_wheels) {
            mine.append_all_from(theirs);
        }
    }

    /// The upper half's wheels of pending sends to switches (invariant
    /// checks).
    pub(super) fn wheels(&self) -> impl Iterator<Item = &TimeWheel<FlitEvent>> {
        self.block_wheels.iter()
    }

    /// The credits due now (`credits`, output VCs) whose channels come
    /// from hosts (`hosts`) or from switches (`!hosts`): the former before
    /// the hosts inject, the latter when a cycle that began for two
    /// threads ends on one (credits add up: their order changes nothing).
    #[inline(never)]
    pub(super) fn add_credits(&self, credits: &[u32], ovc: &mut [OutputVc], hosts: bool) {
        for &o in credits {
            if (self.credit_owner[o as usize] == HOSTS) == hosts {
                ovc[o as usize].credits += 1;
            }
        }
    }

    /// Cycle `now`'s arrivals at switches and allocation, on two threads
    /// (see the module's documentation); `ep` must allow
    /// shared hops ([`Endpoints::hops_can_be_shared`]). The error is the first routing fault in
    /// switch order.
    /// `credits` are the credits due now; those to hosts' channels are
    /// added already ([`TwoThreads::add_credits`]), each half adds its own
    /// switches' before its first arrival.
    /// Out of line: inlined into `InputQueued::step` it changed how the
    /// one-thread loop beside it is compiled.
    #[inline(never)]
    pub(super) fn allocate<const PREFETCH: bool, const VCS: usize, const DEPTH: usize>(
        &mut self,
        m: &mut InputQueued,
        now: u64,
        credits: &[u32],
        ep: &mut Endpoints,
    ) -> Result<(), Faulted> {
        let blocks = m.block_wheels.len();
        debug_assert_eq!(self.due.len(), blocks);
        for (b, [lower, upper]) in self.due.iter_mut().enumerate() {
            *lower = m.block_wheels[b].take(now);
            *upper = self.block_wheels[b].take(now);
        }
        // SAFETY: the arrays are neither moved nor borrowed otherwise until
        // both halves are done (this function holds `m` and touches them
        // again only after the join), and each half touches only its own
        // switches' elements (the module's documentation).
        #[allow(unsafe_code)]
        let lanes = unsafe {
            Lanes {
                inch: Lane::new(&mut m.inch),
                busy: Lane::new(&mut m.busy),
                flits: Lane::new(&mut m.flits),
                ivcs: Lane::new(&mut m.ivc),
                cands: Lane::new(&mut m.cands),
                outch: Lane::new(&mut m.outch),
                sw_rr: Lane::new(&mut m.sw_rr),
                ovc: Lane::new(&mut m.ovc),
            }
        };
        let settings = Router {
            set: m.set,
            wiring: Wiring {
                in_ports: &m.in_ports,
                in_start: &m.in_start,
                sw_out: &m.sw_out,
                out_start: &m.out_start,
                block_of: &m.block_of,
            },
            switches: m.switches(),
            bits: m.block_bits.unwrap_or(0),
        };
        let (lower_due, upper_due) = self.due.split_at(self.first_upper_block);
        let lower = Half {
            m: &settings,
            flit_wheel: &mut m.flit_wheel,
            block_wheels: &mut m.block_wheels,
            credit_wheel: &mut m.credit_wheel,
            proposal: &mut m.proposal,
            order: &mut m.order,
            blocks: 0..self.first_upper_block,
            due: lower_due,
            credits,
            credit_owner: &self.credit_owner,
            me: LOWER,
        };
        let upper = Half {
            m: &settings,
            flit_wheel: &mut self.flit_wheel,
            block_wheels: &mut self.block_wheels,
            credit_wheel: &mut self.credit_wheel,
            proposal: &mut self.proposal,
            order: &mut self.order,
            blocks: self.first_upper_block..blocks,
            due: upper_due,
            credits,
            credit_owner: &self.credit_owner,
            me: UPPER,
        };
        // SAFETY: each half routes only the heads at its own switches and
        // counts only its own switches' output channels.
        #[allow(unsafe_code)]
        let Some([hops_lower, hops_upper]) = (unsafe { SharedHops::pair(ep) }) else {
            unreachable!("two threads only where the endpoint layer allows shared hops");
        };
        let (mut hops_lower, mut hops_upper) = (hops_lower, hops_upper);
        let mut r_upper = Ok(());
        #[cfg(debug_assertions)]
        let (lanes, upper_lanes) = (
            lanes.owned_by(&self.owners, m.set.v, m.set.depth, m.set.port_words, LOWER),
            lanes.owned_by(&self.owners, m.set.v, m.set.depth, m.set.port_words, UPPER),
        );
        #[cfg(not(debug_assertions))]
        let upper_lanes = lanes;
        let (upper_lanes, r_upper_slot, upper_hops) = (upper_lanes, &mut r_upper, &mut hops_upper);
        let r_lower = self.helper.join(
            move || {
                *r_upper_slot =
                    run_half::<PREFETCH, VCS, DEPTH>(upper, upper_lanes, now, upper_hops)
            },
            || run_half::<PREFETCH, VCS, DEPTH>(lower, lanes, now, &mut hops_lower),
        );
        let (out_lower, out_upper) = (hops_lower.outcome(), hops_upper.outcome());
        // The upper half's sends to hosts and its credits after the lower
        // half's (switch order, as one thread would have them); its sends
        // to switches stay on its own wheels, read after the calling
        // thread's ([`TwoThreads::due`]), so no thread reads the other's
        // records but at the halves' boundary.
        let l = m.set.link_latency;
        m.flit_wheel.append_from(&mut self.flit_wheel, now + l);
        m.credit_wheel.append_from(&mut self.credit_wheel, now + l);
        for (b, [lower, upper]) in self.due.iter_mut().enumerate() {
            m.block_wheels[b].give_back(now, std::mem::take(lower));
            self.block_wheels[b].give_back(now, std::mem::take(upper));
        }
        let ended = end_shared_hops(ep, now, &[out_lower, out_upper]);
        r_lower.and(r_upper).and(ended)
    }
}

/// One half's blocks: each block's arrivals, then its switches. After a
/// routing fault the half's later blocks' arrivals are still written (as
/// [`InputQueued::allocate`] does), so no flit is lost.
fn run_half<const PREFETCH: bool, const VCS: usize, const DEPTH: usize>(
    half: Half<'_>,
    lanes: Lanes,
    now: u64,
    ep: &mut SharedHops<'_>,
) -> Result<(), Faulted> {
    let Half {
        m,
        flit_wheel,
        block_wheels,
        credit_wheel,
        proposal,
        order,
        blocks,
        due,
        credits,
        credit_owner,
        me,
    } = half;
    let mut l = lanes;
    let ovc = l.ovc.as_cells();
    for &o in credits {
        if credit_owner[o as usize] == me {
            let c = at(ovc, o as usize);
            let mut x = c.get();
            x.credits += 1;
            c.set(x);
        }
    }
    let mut result = Ok(());
    let mut in_network = 0u64;
    for b in blocks.clone() {
        for due in &due[b - blocks.start] {
            let inputs = Inputs::<Shared> {
                set: m.set,
                ivcs: &mut l.ivcs,
                flits: &mut l.flits,
                inch: &mut l.inch,
                busy: &mut l.busy,
                in_network: &mut in_network,
            };
            arrive::<PREFETCH, VCS, DEPTH, Shared, SharedHops>(now, due, inputs, ep);
        }
        if result.is_err() {
            continue;
        }
        let span = (b << m.bits)..((b + 1) << m.bits).min(m.switches);
        let hot = Hot::<Shared> {
            set: m.set,
            wiring: m.wiring,
            inch: &mut l.inch,
            busy: &mut l.busy,
            flits: &l.flits,
            ivcs: &mut l.ivcs,
            cands: &mut l.cands,
            outch: &mut l.outch,
            sw_rr: &mut l.sw_rr,
            ovc,
            flit_wheel: &mut *flit_wheel,
            switch_wheel: None,
            block_wheels: &mut *block_wheels,
            credit_wheel: &mut *credit_wheel,
            proposal: &mut *proposal,
            order: &mut *order,
        };
        // (Split cycles look ahead whatever the packets' length.)
        result = allocate_span::<true, false, false, true, true, VCS, DEPTH, Shared, SharedHops>(
            hot, now, span, ep,
        );
    }
    debug_assert_eq!(in_network, 0, "a flit to a host on a block's wheel");
    result
}
