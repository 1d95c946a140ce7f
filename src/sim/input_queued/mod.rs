//! The input-queued virtual-channel switch (Dally and Towles ch. 16-19).
//!
//! Each switch input port has V virtual channels with `buffer_flits` slots
//! each; credit (stop-and-go) flow control keeps every buffer within its
//! capacity. Per cycle, at every switch:
//! 1. **Routing**: the head flit at the front of an idle input VC asks the
//!    packet's routing for candidates (once per switch visited).
//! 2. **VC allocation**: input VCs, visited in round-robin order, each take
//!    the output VC their [`Selection`] prefers among those that are free
//!    and have room (wormhole: free; VCT: room for the whole packet; SAF:
//!    room for the whole packet and the whole packet buffered here; with
//!    `wait_for_tail_credit`, an empty buffer whatever the switching).
//! 3. **Switch allocation**, separable input-first with round-robin
//!    arbiters: each input port picks one of its VCs that holds a flit and
//!    a credit, then each output port grants one requesting input port.
//! 4. **Traversal**: winners send one flit; it reaches the next switch after
//!    `link_latency + switch_delay` cycles (the host after `link_latency`),
//!    and a credit returns upstream after `link_latency`.
//!
//! With [`PortPriority::Oldest`] (age-based arbitration) the order in 2
//! is the age of the oldest packet at the front of each input port, and in
//! 3 each input port offers its oldest ready packet and each output grants
//! the port visited first: the oldest packet wins wherever it competes.
//!
//! Zero-load latency of an L-flit packet crossing H switches (wormhole and
//! VCT) is therefore `H·(link_latency + switch_delay) + link_latency + L - 1`
//! cycles; store-and-forward adds `L - 1` per switch.
//!
//! Acknowledgement packets (when a routing asks for them,
//! [`crate::routing::Acknowledgement::Packet`]) use the top VCs of every
//! port, one flit each; they go first at their host, an input port proposes
//! an acknowledgement VC before its data VCs in switch allocation, and an
//! output port grants acknowledgements before data.

mod allocation;
mod in_channel;
mod invariants;
#[cfg(not(target_arch = "wasm32"))]
mod lane;
#[cfg(test)]
mod tests;
#[cfg(not(target_arch = "wasm32"))]
mod two_threads;
mod unchecked;
mod wait_cycle;

use super::bits::ones;
use super::config::{PortPriority, RouterConfig, Switching};
use super::endpoints::{Endpoints, Faulted};
use super::error::SimError;
use super::hop_calls::HopCalls;
use super::model::{PortOccupancy, SwitchModel};
use super::model_kind::{CYCLES, SwitchModelEntry, per_cycle_routing, same_router};
use super::prefetch::prefetch;
use super::shared_hops::{SharedHops, end_shared_hops};
use super::timewheel::TimeWheel;
use crate::routing::{BufferView, Candidate, Candidates, Selection};
use crate::topology::{ChannelId, ChannelKind, Endpoint, Network, PortId};
use in_channel::InChannel;
use std::sync::Arc;
use unchecked::{Family, Owned, at, at_mut, prefetch_at};

/// How many events ahead the arrival and credit loops prefetch the records
/// an event will touch ([`super::prefetch`]).
const AHEAD: usize = 8;
/// The per-channel state (bytes, [`InputQueued::hot_state_bytes`]) above
/// which the model prefetches: below it the state stays in the cache and
/// the prefetches only cost instructions (measured on this project's
/// machine, whose L2 is 2 MB: `torus:16x16` 19 % slower with them,
/// `torus:32x32` and `torus:48x48` the same, `torus:64x64` about twice as
/// fast; docs/performance.md, "Prefetching on large networks").
const PREFETCH_ABOVE: usize = 2 << 20;

/// Switches per arrival block ([`InputQueued::block_bits`]) on networks
/// whose per-channel state is above [`PREFETCH_ABOVE`] (below it the state
/// stays in the cache and blocks only cost instructions): 256 switches'
/// input buffers and records take about 230 kB with 2 VCs of 8 flits and 5
/// ports, a quarter of this machine's 1 MB L2 per core (docs/performance.md,
/// "Time wheels and arrival blocks").
const BLOCK_SWITCHES: usize = 256;

/// `$body` compiled for the router's shape, `($vcs, $depth)`: with `$V`
/// and `$D` the constants 2 and 8 (routelab's defaults: the `engine` bench,
/// the CAMINOS script), 4 and 8 (the BookSim2 script) or 2 and 32 (the
/// CAMINOS script with 16-flit packets, issue 24's configuration), else
/// both 0 (the copy that reads them at run time, [`shape`]). With them as
/// constants the index arithmetic is shifts and the VC loops unroll
/// (docs/performance.md, "The compiled copies"); the code is the same
/// either way, so the results are. The one list of compiled shapes.
macro_rules! with_shape {
    ($vcs:expr, $depth:expr, |$V:ident, $D:ident| $body:expr) => {
        match ($vcs, $depth) {
            (2, 8) => {
                const $V: usize = 2;
                const $D: usize = 8;
                $body
            }
            (4, 8) => {
                const $V: usize = 4;
                const $D: usize = 8;
                $body
            }
            (2, 32) => {
                const $V: usize = 2;
                const $D: usize = 32;
                $body
            }
            _ => {
                const $V: usize = 0;
                const $D: usize = 0;
                $body
            }
        }
    };
}

/// The number of VCs and the buffer depth as a loop compiled by
/// [`with_shape!`] uses them: its constants `VCS` and `DEPTH`, or (0) the
/// router's `v` and `depth` as read.
#[inline(always)]
fn shape<const VCS: usize, const DEPTH: usize>(v: usize, depth: usize) -> (usize, usize) {
    debug_assert!((VCS == 0 || v == VCS) && (DEPTH == 0 || depth == DEPTH));
    (
        if VCS > 0 { VCS } else { v },
        if DEPTH > 0 { DEPTH } else { depth },
    )
}

const NONE: u32 = u32::MAX;
const IDLE: u8 = 0;
const ROUTED: u8 = 1;
const ACTIVE: u8 = 2;
const HEAD: u8 = 1;
const TAIL: u8 = 2;
/// Credits of an ejection channel: hosts always accept.
const SINK_CREDITS: i32 = 1 << 30;

/// A flit in a buffer or on a link: 8 bytes, so the flit rings (the
/// largest per-cycle working set) stay small.
#[derive(Clone, Copy, Debug, Default)]
struct Flit {
    packet: u32,
    /// Bits 30-31: HEAD and TAIL flags; bits 0-29: the cycle the flit
    /// entered its current buffer, modulo 2^30 (queueing waits are measured
    /// modulo 2^30 cycles, far beyond any wait a run sees).
    meta: u32,
}

const ARRIVAL_BITS: u32 = (1 << 30) - 1;

impl Flit {
    #[inline]
    fn new(packet: u32, flags: u8) -> Flit {
        Flit {
            packet,
            meta: (flags as u32) << 30,
        }
    }

    #[inline]
    fn flags(self) -> u8 {
        (self.meta >> 30) as u8
    }
    #[inline]
    fn set_arrival(&mut self, now: u64) {
        self.meta = (self.meta & !ARRIVAL_BITS) | (now as u32 & ARRIVAL_BITS);
    }
    /// Cycles since it entered its buffer.
    #[inline]
    fn waited(self, now: u64) -> u64 {
        ((now as u32).wrapping_sub(self.meta) & ARRIVAL_BITS) as u64
    }
}

#[derive(Clone, Copy, Debug)]
struct FlitEvent {
    /// Destination channel and virtual channel.
    ch: u32,
    vc: u8,
    flit: Flit,
    /// A head's answer at the switch it goes to, looked up one switch
    /// ahead ([`Ahead`]).
    ahead: Ahead,
}

/// Lookahead routing: the answer a head will get at the switch it is sent
/// to, looked up from the table by the deterministic wormhole router with
/// table routes while it sends the head there (or the host while it
/// injects it), and kept by the input VC the head reaches if it arrives
/// there first in line ([`InputVc::ahead`]). That switch then takes it
/// instead of asking the table (the same answer: both are the table's;
/// the switch is counted there either way), so the packet's record and
/// the table leave the chain of loads the head's routing waits on, and the
/// lookup overlaps the rest of the sending switch's work
/// (docs/performance.md, "Tables and lookahead routing"). Packed in 2 bytes,
/// which fit in the padding of [`FlitEvent`] and [`InputVc`] (neither
/// grows): the port in the low byte, the lowest and highest VC in a
/// nibble each (at most 16 VCs). [`Ahead::NONE`] for none: a body flit, a
/// flit to a host, another router, no answer, a head that had to queue,
/// or an answer that does not fit (a port above 254: the table is asked
/// at the switch, as without lookahead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ahead(u16);

/// Whether heads look their answers up one switch ahead ([`Ahead`]) in a
/// run of `packet_flits`-flit packets on one thread: only for one-flit
/// packets. With longer packets heads are few, and the lookahead's code
/// around every body flit cost more than it saved (16-flit packets ran
/// 4.8 % faster without it, docs/performance.md, "Tables and lookahead
/// routing"), so their loop is compiled without it (`allocate_span`'s
/// `LOOK`). Split cycles (two threads) always look ahead. Either way every
/// answer is the table's: only the speed changes.
#[inline(always)]
fn looks_ahead(packet_flits: u16) -> bool {
    packet_flits == 1
}

// [`Ahead`] costs no room: a flit on a link and an input VC stay 16 bytes.
const _: () = assert!(size_of::<FlitEvent>() == 16 && size_of::<InputVc>() == 16);

impl Ahead {
    /// No answer looked up (port 255, which [`Ahead::of`] never packs).
    const NONE: Ahead = Ahead(u16::MAX);
    #[inline(always)]
    fn of(answer: Option<Candidate>) -> Ahead {
        match answer {
            Some(c) if c.port < 255 && c.vc_hi < 16 => {
                Ahead(c.port | u16::from(c.vc_lo) << 8 | u16::from(c.vc_hi) << 12)
            }
            _ => Ahead::NONE,
        }
    }
    #[inline(always)]
    fn get(self) -> Option<Candidate> {
        (self != Ahead::NONE).then_some(Candidate {
            port: self.0 & 0xFF,
            vc_lo: (self.0 >> 8) as u8 & 0xF,
            vc_hi: (self.0 >> 12) as u8,
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct Sending {
    packet: u32,
    vc: u8,
    sent: u16,
    /// The packet's length in flits.
    len: u16,
}

/// The router's settings: fixed for a run, read by every loop of a cycle
/// (one copy each, in registers).
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    /// VCs per port and flits per VC buffer.
    pub(super) v: usize,
    pub(super) depth: usize,
    pub(super) packet_flits: u16,
    pub(super) switching: Switching,
    pub(super) selection: Selection,
    pub(super) port_priority: PortPriority,
    /// Output VCs are allocated only when empty (all credits back).
    pub(super) wait_for_tail_credit: bool,
    pub(super) link_latency: u64,
    pub(super) switch_delay: u64,
    /// The first ejection channel (channels below it reach switches).
    pub(super) first_ejection: u32,
    /// Words of the per-switch busy-port bit set (`ceil(max ports / 64)`).
    pub(super) port_words: usize,
    /// Whether the per-channel state is large enough to prefetch it
    /// ([`PREFETCH_ABOVE`]): the arrival and credit loops ask for the
    /// records of the event 8 places ahead, and the deterministic wormhole
    /// router's allocation for the busy input ports' records of the switch
    /// 2 places ahead ([`super::prefetch`]).
    pub(super) prefetch: bool,
}

/// Input-queued VC switches with credit flow control.
pub struct InputQueued {
    net: Arc<Network>,
    /// The router's settings, fixed for a run.
    set: Settings,
    /// Channels with a switch at their downstream end (network + injection).
    num_in: usize,
    /// Per switch: connected input ports as (port, input channel).
    in_ports: Vec<(PortId, u32)>,
    /// Switch s owns `in_ports[in_start[s]..in_start[s + 1]]`.
    in_start: Vec<u32>,
    /// Per switch, per port: output channel or NONE; switch s owns
    /// `sw_out[out_start[s]..out_start[s + 1]]` (one flat array: no pointer
    /// to chase per switch).
    sw_out: Vec<u32>,
    out_start: Vec<u32>,
    /// Per input channel (channels < num_in): its switch, its index there
    /// and its VC bit sets.
    inch: Vec<InChannel>,
    /// Per switch, `port_words` words: bit i set when input port
    /// `in_ports[in_start[s] + i]` holds flits, so allocation visits only
    /// busy ports instead of scanning every port of every busy switch.
    busy: Vec<u64>,
    // Input buffers, indexed by channel · V + vc (channels < num_in).
    flits: Vec<Flit>,
    ivc: Vec<InputVc>,
    cands: Vec<Candidates>,
    // Output side, indexed by channel · V + vc (all channels).
    ovc: Vec<OutputVc>,
    /// Per channel: switch-allocation state of the output port.
    outch: Vec<OutChannel>,
    /// Per switch: the round-robin pointer of its input ports. (Whether a
    /// switch holds flits is whether its busy-port words are not all
    /// zero; no count is kept.)
    sw_rr: Vec<u32>,
    // Hosts.
    sending: Vec<Option<Sending>>,
    /// Bit h set while host h is part-way through a packet (`sending[h]`
    /// is `Some`): with the endpoint layer's ready hosts, the hosts the
    /// injection visits.
    sending_bits: Vec<u64>,
    host_rr: Vec<u8>,
    // Events.
    /// Flits on links to hosts.
    flit_wheel: TimeWheel<FlitEvent>,
    /// Flits on links to switches with one arrival block (with more, on
    /// their blocks' wheels, and this one is empty;
    /// [`InputQueued::block_bits`]). Apart from those to hosts, so that
    /// the arrival loop does not test each flit for where it goes (a coin
    /// toss: a fifth of a `torus:8x8`'s flits go to hosts).
    switch_wheel: TimeWheel<FlitEvent>,
    /// With more than one arrival block, the flits to block b's switches
    /// are in `block_wheels[b]`; else empty.
    block_wheels: Vec<TimeWheel<FlitEvent>>,
    /// Per channel: the block of the switch it reaches, or NONE (a
    /// channel to a host, or one arrival block).
    block_of: Vec<u32>,
    credit_wheel: TimeWheel<u32>,
    in_network: u64,
    /// Switch allocation scratch: the proposals of the switch being
    /// processed, in the order they were made (one slot per input port),
    /// or, for the deterministic wormhole router, at their input ports'
    /// places (`allocation.rs`).
    proposal: Vec<Proposal>,
    /// Age-based arbitration scratch ([`PortPriority::Oldest`]): the busy
    /// input ports of the switch being processed as (generation cycle of
    /// the oldest packet at the front of one of their VCs, port index), in
    /// visiting order.
    order: Vec<(u64, u32)>,
    /// Arrivals by block: with more than one block, switch `s` is in block
    /// `s >> block_bits`, the flits that reach it travel on that block's
    /// wheel (`block_wheels`), and the allocation loop
    /// writes a block's arrivals into their buffers just before it
    /// allocates the block's first switch, so the records an arrival
    /// touches are still in the cache when the switch reads them (on a
    /// network larger than the cache, writing every arrival first and then
    /// allocating every switch brought each record in twice). A switch's
    /// allocation reads only its own input buffers, so when its arrivals
    /// are written, as long as it is before it is allocated, changes
    /// nothing. `None`: one block (all arrivals first, from `switch_wheel`).
    block_bits: Option<u32>,
    /// Allocation on two threads ([`InputQueued::set_engine_threads`]).
    #[cfg(not(target_arch = "wasm32"))]
    two: Option<Box<two_threads::TwoThreads>>,
    /// The allocator's variant ([`Kernel`]), and what the endpoint layer
    /// said when it was chosen (None: not yet chosen).
    kernel: Kernel,
    kernel_for: Option<KernelKey>,
}

/// One compiled variant of a cycle's switch allocation
/// ([`InputQueued::allocate`]'s const parameters fixed), chosen by
/// [`InputQueued::choose_kernel`] from the router's settings and the
/// endpoint layer's routing, so that a cycle calls it without a match.
#[derive(Clone, Copy)]
struct Kernel {
    /// Heads take their answers one switch ahead, from the hosts' sends on
    /// (lookahead routing, [`Ahead`]).
    look: bool,
    /// The allocation of the cycle's switches.
    run: fn(&mut InputQueued, u64, &mut Endpoints) -> Result<(), Faulted>,
}

/// What a [`Kernel`] depends on in the endpoint layer: its data VCs (an
/// acknowledgement class), whether some routing epoch answers from a table,
/// and whether every one does. The router's own settings are fixed for a
/// run; these change only when a routing is swapped in, and the kernel is
/// chosen again then.
type KernelKey = (u8, bool, bool);

/// One of the model's wheels of flits on links
/// ([`InputQueued::arrivals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wheel {
    /// `flit_wheel`: flits to hosts.
    Hosts,
    /// `switch_wheel`: flits to switches, with one arrival block.
    Switches,
    /// `block_wheels[b]`: flits to block `b`'s switches.
    Block(usize),
}

/// One input port's proposal in switch allocation, with what its grant
/// needs at hand (no port lookup or multiply when it is granted). The
/// deterministic wormhole router with its VCs' number a constant keeps
/// `ivc` alone and derives the rest when it grants.
#[derive(Clone, Copy, Debug)]
struct Proposal {
    /// The input VC (channel · V + vc).
    ivc: u32,
    /// Its channel.
    ch: u32,
    /// The output port's round-robin pointer after a grant to it: the
    /// next input port's index at the switch.
    next_port: u16,
    /// The VC's index at the port.
    vc: u8,
    /// The input port's VC pointer after a grant: the next VC.
    next_vc: u8,
}

/// Switch-allocation state of one output port (channel).
#[derive(Clone, Copy, Debug)]
struct OutChannel {
    /// Round-robin pointer of the output arbiter: an input-port index, or
    /// the switch's input-port count, which means 0 (the deterministic
    /// wormhole router does not wrap it, `allocation.rs`).
    rr: u16,
    /// Priority and input VC of the best proposal made to the port while
    /// its switch is allocated; `ivc` is NONE between allocations (the
    /// grant clears it, and so does a routing fault part-way through a
    /// switch), so no cycle stamp is kept: 8 bytes a port, a third of what
    /// they were with one (fewer cache lines on large networks).
    prio: u16,
    ivc: u32,
}

/// State of one input virtual channel (kept together: one bounds check and
/// one cache line per access on the hot path).
#[derive(Clone, Copy, Debug)]
struct InputVc {
    /// Index of the front flit in the VC's ring buffer.
    head: u16,
    /// Flits buffered.
    len: u16,
    /// IDLE, ROUTED or ACTIVE.
    state: u8,
    /// Output VC (channel · V + vc) held while ACTIVE (NONE until the
    /// first; left as it was when the VC goes back to IDLE, since only
    /// an ACTIVE VC's is read).
    out: u32,
    /// Its channel (`out / V`, kept to avoid a division per flit).
    out_ch: u32,
    /// The answer looked up one switch ahead for the head at the front
    /// ([`Ahead`]): set when a flit arrives at an empty VC (the flit's
    /// own, none for a body flit), taken (and left none) when the head is
    /// routed. So it is never a queued head's, nor one already routed.
    ahead: Ahead,
}

/// The upstream side of one virtual channel: free slots downstream and the
/// input VC that holds it.
#[derive(Clone, Copy, Debug)]
struct OutputVc {
    credits: i32,
    owner: u32,
}

struct View<'a> {
    credits: &'a [std::cell::Cell<OutputVc>],
    out: &'a [u32],
    v: usize,
    /// Flits per VC buffer (what a channel's credits start at).
    depth: i32,
}

impl View<'_> {
    /// Credits in use on channel `c`, over its VCs.
    fn used(&self, c: usize) -> u32 {
        (0..self.v)
            .map(|vc| (self.depth - self.credits[c * self.v + vc].get().credits).max(0) as u32)
            .sum()
    }
}

impl BufferView for View<'_> {
    fn free_slots(&self, port: PortId, vc: u8) -> u32 {
        match self.out.get(port as usize) {
            Some(&c) if c != NONE => self.credits[c as usize * self.v + vc as usize]
                .get()
                .credits
                .max(0) as u32,
            _ => 0,
        }
    }
    fn queued(&self, port: PortId) -> u32 {
        match self.out.get(port as usize) {
            Some(&c) if c != NONE => self.used(c as usize),
            _ => 0,
        }
    }
    fn channel_queued(&self, channel: ChannelId) -> Option<u32> {
        ((channel as usize + 1) * self.v <= self.credits.len()).then(|| self.used(channel as usize))
    }
}

impl InputQueued {
    /// The model for `net` with the switches `cfg` describes. The
    /// measuring knobs `ROUTELAB_PREFETCH` and `ROUTELAB_ARRIVAL_BLOCK`
    /// ([`crate::env_knobs`]; they change no result) override the choices
    /// made by the network's size; a knob set to a value it does not
    /// accept is the error, before anything is built.
    pub fn new(net: Arc<Network>, cfg: &RouterConfig) -> Result<Self, String> {
        let prefetch_knob = crate::env_knobs::prefetch()?;
        let block_knob = crate::env_knobs::arrival_block()?;
        let v = cfg.vcs as usize;
        let depth = cfg.buffer_flits as usize;
        let nc = net.num_channels();
        let num_in = net.num_network_channels() + net.num_hosts();
        let first_ejection = num_in as u32;
        let mut in_ports = Vec::new();
        let mut in_start = vec![0u32];
        for s in 0..net.num_switches() as u32 {
            in_ports.extend(
                net.ports(s)
                    .iter()
                    .enumerate()
                    .filter_map(|(p, port)| port.in_channel.map(|c| (p as PortId, c))),
            );
            in_start.push(in_ports.len() as u32);
        }
        let mut sw_out = Vec::new();
        let mut out_start = vec![0u32];
        for s in 0..net.num_switches() as u32 {
            sw_out.extend(net.ports(s).iter().map(|p| p.out_channel.unwrap_or(NONE)));
            out_start.push(sw_out.len() as u32);
        }
        let mut inch = vec![
            InChannel {
                nonempty: 0,
                active: 0,
                rr: 0,
                switch: NONE,
                index: NONE,
            };
            num_in
        ];
        for c in net.channels() {
            if let Endpoint::Switch { switch, .. } = c.dst {
                inch[c.id as usize].switch = switch;
            }
        }
        let mut max_in = 0;
        for s in 0..net.num_switches() {
            let ports = &in_ports[in_start[s] as usize..in_start[s + 1] as usize];
            max_in = max_in.max(ports.len());
            for (i, &(_, c)) in ports.iter().enumerate() {
                inch[c as usize].index = i as u32;
            }
        }
        let port_words = max_in.div_ceil(64).max(1);
        let mut credits = vec![depth as i32; nc * v];
        for c in net.channels() {
            if c.kind == ChannelKind::Ejection {
                for x in 0..v {
                    credits[c.id as usize * v + x] = SINK_CREDITS;
                }
            }
        }
        let max_delay = (cfg.link_latency + cfg.switch_delay) as u64;
        let mut model = InputQueued {
            set: Settings {
                v,
                depth,
                packet_flits: cfg.packet_flits,
                switching: cfg.switching,
                selection: cfg.selection,
                port_priority: cfg.port_priority,
                wait_for_tail_credit: cfg.wait_for_tail_credit,
                link_latency: cfg.link_latency as u64,
                switch_delay: cfg.switch_delay as u64,
                first_ejection,
                port_words,
                prefetch: false,
            },
            num_in,
            in_ports,
            in_start,
            sw_out,
            out_start,
            inch,
            busy: vec![0; net.num_switches() * port_words],
            flits: vec![Flit::default(); num_in * v * depth],
            ivc: vec![
                InputVc {
                    head: 0,
                    len: 0,
                    state: IDLE,
                    out: NONE,
                    out_ch: NONE,
                    ahead: Ahead::NONE,
                };
                num_in * v
            ],
            cands: vec![Candidates::default(); num_in * v],
            ovc: credits
                .into_iter()
                .map(|credits| OutputVc {
                    credits,
                    owner: NONE,
                })
                .collect(),
            outch: vec![
                OutChannel {
                    rr: 0,
                    prio: 0,
                    ivc: NONE,
                };
                nc
            ],
            sw_rr: vec![0; net.num_switches()],
            sending: vec![None; net.num_hosts()],
            sending_bits: vec![0; net.num_hosts().div_ceil(64)],
            host_rr: vec![0; net.num_hosts()],
            flit_wheel: TimeWheel::new(max_delay),
            switch_wheel: TimeWheel::new(max_delay),
            block_wheels: Vec::new(),
            block_of: Vec::new(),
            credit_wheel: TimeWheel::new(max_delay),
            in_network: 0,
            proposal: vec![
                Proposal {
                    ivc: NONE,
                    ch: NONE,
                    next_port: 0,
                    vc: 0,
                    next_vc: 0,
                };
                max_in
            ],
            order: Vec::with_capacity(max_in),
            block_bits: None,
            #[cfg(not(target_arch = "wasm32"))]
            two: None,
            kernel: Kernel {
                look: false,
                run: |_, _, _| unreachable!("the kernel is chosen before the first cycle"),
            },
            kernel_for: None,
            net,
        };
        let big = model.hot_state_bytes() > PREFETCH_ABOVE;
        model.set.prefetch = prefetch_knob.unwrap_or(big) && cfg!(target_arch = "x86_64");
        let block = block_knob.unwrap_or(if big { BLOCK_SWITCHES } else { 0 });
        model.use_blocks(block, max_delay);
        Ok(model)
    }

    /// Allocate each cycle's switches on `threads` threads: 1 (the
    /// default) or 2 (`input_queued/two_threads.rs`: native builds, before the first
    /// cycle). The results are the same either way; only the speed
    /// changes.
    pub fn set_engine_threads(&mut self, threads: usize) -> Result<(), String> {
        match threads {
            1 => {
                #[cfg(not(target_arch = "wasm32"))]
                if let Some(mut two) = self.two.take() {
                    two.merge_pending(self);
                }
                Ok(())
            }
            #[cfg(not(target_arch = "wasm32"))]
            2 => {
                // Mid-run too: the pending sends are all on this model's
                // wheels, which the first split cycle reads first, as a
                // cycle after one on one thread does (`use_blocks` files
                // them by block if the network had none).
                if self.two.is_none() {
                    self.two = two_threads::TwoThreads::new(self)?.map(Box::new);
                }
                Ok(())
            }
            #[cfg(target_arch = "wasm32")]
            2 => Err("engine threads: the web build runs on one thread".into()),
            n => Err(format!("engine threads: {n} is not accepted (1 or 2)")),
        }
    }

    /// With two engine threads, split cycles from `flits` flits in the
    /// network on (0: every cycle) instead of the measured default
    /// (`two_threads::FROM_FLITS`); for measuring and tests. The results
    /// are the same whatever it is.
    pub fn set_engine_split_from(&mut self, flits: u64) -> Result<(), String> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(two) = &mut self.two {
            two.split_from(flits);
            return Ok(());
        }
        let _ = flits;
        Err("engine split: only with two engine threads (set_engine_threads(2))".into())
    }

    /// Whether this cycle's allocation is the deterministic wormhole
    /// router's ([`InputQueued::allocate`]'s `FAST`): no acknowledgement
    /// class, rotating priorities, wormhole switching without waiting for
    /// the tail credit, [`Selection::Fixed`], at most 64 input ports a
    /// switch, and every epoch's routing answering from its table or none
    /// (a run that mixes them, after a live swap, takes the general loop,
    /// which asks the routings without a table).
    #[inline(always)]
    fn fast_router(&self, ep: &Endpoints) -> bool {
        (ep.data_vcs() as usize) >= self.set.v
            && self.set.port_priority == PortPriority::Rotating
            && self.set.switching == Switching::Wormhole
            && !self.set.wait_for_tail_credit
            && self.set.selection == Selection::Fixed
            && self.set.port_words == 1
            && (!ep.has_tables() || ep.only_tables())
    }

    /// The allocator's variant for this router and `ep`'s routing: the
    /// deterministic wormhole router with every answer from a table (with
    /// lookahead for one-flit packets), the same router asking its
    /// routing, or the general router (with an acknowledgement class or
    /// without, with age-based arbitration or without). The first takes
    /// its heads' answers one switch ahead (`Ahead`), from the hosts' sends
    /// on.
    fn choose_kernel(&self, ep: &Endpoints) -> Kernel {
        let fast = self.fast_router(ep);
        let tables = fast && ep.has_tables();
        let look = tables && looks_ahead(self.set.packet_flits);
        type Run = fn(&mut InputQueued, u64, &mut Endpoints) -> Result<(), Faulted>;
        let acks = (ep.data_vcs() as usize) < self.set.v;
        let age = self.set.port_priority == PortPriority::Oldest;
        let run: Run = match (fast, tables, look, acks, age) {
            (_, _, true, ..) => Self::allocate_tables::<true>,
            (_, true, false, ..) => Self::allocate_tables::<false>,
            (true, false, ..) => {
                Self::allocate::<true, false, false, false, false, 0, 0, Endpoints>
            }
            (false, .., false, false) => Self::general::<false, false>,
            (false, .., false, true) => Self::general::<false, true>,
            (false, .., true, false) => Self::general::<true, false>,
            (false, .., true, true) => Self::general::<true, true>,
        };
        Kernel { look, run }
    }

    /// The general router's allocation, with an acknowledgement class
    /// (`ACKS`) and age-based arbitration (`AGE`) or without.
    fn general<const ACKS: bool, const AGE: bool>(
        &mut self,
        now: u64,
        ep: &mut Endpoints,
    ) -> Result<(), Faulted> {
        self.allocate::<false, ACKS, AGE, false, false, 0, 0, Endpoints>(now, ep)
    }

    /// The deterministic wormhole router's allocation with every answer
    /// from a table ([`allocate_span`](allocation::allocate_span)'s `FAST`
    /// and `TABLES`): through the endpoint layer's view
    /// ([`SharedHops::sole`]) when no blocked cycles are counted, compiled
    /// for the router's shape ([`with_shape!`]); else through the endpoint
    /// layer itself.
    #[inline(always)]
    fn allocate_tables<const LOOK: bool>(
        &mut self,
        now: u64,
        ep: &mut Endpoints,
    ) -> Result<(), Faulted> {
        let Some(mut hops) = SharedHops::sole(ep) else {
            // Blocked cycles counted: the endpoint layer itself, compiled
            // for any shape.
            return self.allocate::<true, false, false, true, LOOK, 0, 0, _>(now, ep);
        };
        let view = &mut hops;
        let r = with_shape!(self.set.v, self.set.depth, |V, D| {
            self.allocate::<true, false, false, true, LOOK, V, D, _>(now, view)
        });
        let out = hops.outcome();
        r.and(end_shared_hops(ep, now, &[out]))
    }

    /// One cycle with the switch allocation on two threads
    /// ([`InputQueued::set_engine_threads`], `two_threads`), or None (and
    /// nothing done) when this cycle's router or endpoint layer does not
    /// allow it, or when too few flits are in the network for a second
    /// thread to pay (`two_threads::FROM_FLITS`). Out of line, so that the one-thread loop in
    /// [`SwitchModel::step`] is compiled as it was without it.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(never)]
    fn step_on_two_threads(
        &mut self,
        now: u64,
        ep: &mut Endpoints,
    ) -> Option<Result<(), SimError>> {
        let in_network = self.in_network;
        if !(self.two.as_mut()?.split_now(in_network)
            && self.fast_router(ep)
            && ep.has_tables()
            && ep.hops_can_be_shared())
        {
            return None;
        }
        let mut two = self.two.take()?;
        // The credits to hosts' channels now, those to switches by the
        // halves (each its own switches').
        let credits = self.credit_wheel.take(now);
        two.add_credits(&credits, &mut self.ovc, true);
        self.arrivals(now, None, ep);
        // (Split cycles are the deterministic wormhole router's with table
        // routes: heads carry their answers, `Ahead`.)
        self.inject(now, ep, true);
        let pf = self.set.prefetch;
        let r = if ep.hops_can_be_shared() {
            with_shape!(self.set.v, self.set.depth, |V, D| if pf {
                two.allocate::<true, V, D>(self, now, &credits, ep)
            } else {
                two.allocate::<false, V, D>(self, now, &credits, ep)
            })
        } else {
            // The deliveries changed what the endpoint layer allows: this
            // cycle ends on one thread.
            two.add_credits(&credits, &mut self.ovc, false);
            two.merge_pending(self);
            self.allocate_tables::<true>(now, ep)
        };
        self.two = Some(two);
        self.credit_wheel.give_back(now, credits);
        Some(r.map_err(|_| ep.take_fault()))
    }

    /// Arrival blocks of `block` switches (a power of two; 0: none) if the
    /// network has more than one ([`InputQueued::block_bits`]).
    fn use_blocks(&mut self, block: usize, max_delay: u64) {
        debug_assert!(
            self.block_bits.is_none() || self.in_network == 0,
            "blocks are changed only before a run"
        );
        self.block_bits = None;
        self.block_wheels.clear();
        self.block_of.clear();
        let switches = self.switches();
        if block == 0 || switches <= block {
            return;
        }
        debug_assert!(block.is_power_of_two());
        let bits = block.trailing_zeros();
        self.block_bits = Some(bits);
        self.block_wheels = vec![TimeWheel::new(max_delay); switches.div_ceil(block)];
        self.block_of = vec![NONE; self.net.num_channels()];
        for c in self.net.channels() {
            if let Endpoint::Switch { switch, .. } = c.dst {
                self.block_of[c.id as usize] = switch >> bits;
            }
        }
        // Mid-run (two engine threads asked for on a running network):
        // the flits on their way to switches go to their blocks' wheels,
        // each block's in the order they were sent, which is the order
        // they would be on those wheels had the run had blocks from its
        // start (sends go in switch order either way).
        let block_of = &self.block_of;
        self.switch_wheel.move_where(&mut self.block_wheels, |ev| {
            Some(block_of[ev.ch as usize] as usize)
        });
        debug_assert_eq!(self.switch_wheel.len(), 0);
    }

    /// The number of switches.
    fn switches(&self) -> usize {
        self.in_start.len() - 1
    }

    /// Switch `s`'s connected input ports as (port, input channel), in
    /// the order of its busy-port bits.
    fn in_ports_of(&self, s: usize) -> &[(PortId, u32)] {
        &self.in_ports[self.in_start[s] as usize..self.in_start[s + 1] as usize]
    }

    /// The input VCs of channel `c` (below `num_in`).
    fn vcs_of(&self, c: u32) -> &[InputVc] {
        &self.ivc[c as usize * self.set.v..(c as usize + 1) * self.set.v]
    }

    /// Bytes of the per-channel state that flits touch on every hop: flit
    /// rings, input and output VC records, input and output channel
    /// records (not the retry candidate lists, rarely touched).
    fn hot_state_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.flits[..])
            + size_of_val(&self.ivc[..])
            + size_of_val(&self.ovc[..])
            + size_of_val(&self.inch[..])
            + size_of_val(&self.outch[..])
    }

    #[inline]
    fn front(&self, ivc: usize) -> Flit {
        self.flits[ivc * self.set.depth + self.ivc[ivc].head as usize]
    }

    /// The flits due now reach their hosts, and with one arrival block the
    /// input buffers of their switches (`block` None: the flit wheel, then
    /// the switch wheel), or those on block `block`'s wheel reach their
    /// switches ([`arrive`]). Flits to hosts and flits to switches touch
    /// different state (the endpoint layer's, the buffers), so taking all
    /// of the first before the second is the same as taking them as they
    /// were sent.
    fn arrivals<E: HopCalls>(&mut self, now: u64, block: Option<usize>, ep: &mut E) {
        self.arrivals_on(now, block.map_or(Wheel::Hosts, Wheel::Block), ep);
        if block.is_none() && self.block_bits.is_none() {
            self.arrivals_on(now, Wheel::Switches, ep);
        }
    }

    /// [`InputQueued::arrivals`] from one wheel.
    fn arrivals_on<E: HopCalls>(&mut self, now: u64, on: Wheel, ep: &mut E) {
        let InputQueued {
            set,
            ivc,
            flits,
            inch,
            busy,
            in_network,
            flit_wheel,
            switch_wheel,
            block_wheels,
            ..
        } = self;
        let wheel = match on {
            Wheel::Hosts => flit_wheel,
            Wheel::Switches => switch_wheel,
            Wheel::Block(b) => &mut block_wheels[b],
        };
        let due = wheel.take(now);
        let inputs = Inputs::<Owned> {
            set: *set,
            ivcs: &mut ivc[..],
            flits: &mut flits[..],
            inch: &mut inch[..],
            busy: &mut busy[..],
            in_network,
        };
        with_shape!(set.v, set.depth, |V, D| if set.prefetch {
            arrive::<true, V, D, Owned, E>(now, &due, inputs, ep)
        } else {
            arrive::<false, V, D, Owned, E>(now, &due, inputs, ep)
        });
        wheel.give_back(now, due);
    }

    /// A host's flit onto its injection channel; with `lookahead` (this
    /// cycle's router is the deterministic wormhole router with table
    /// routes) a head carries its answer at the host's switch
    /// ([`Ahead`]). Inlined into its two callers in `inject_at`: as a
    /// call it cost some 30 instructions a packet on its own (−1.2 % of
    /// `torus:8x8` at 0.3, docs/performance.md).
    #[inline(always)]
    fn send_from_host(
        &mut self,
        now: u64,
        h: usize,
        s: Sending,
        ep: &mut Endpoints,
        lookahead: bool,
    ) {
        let c = self.net.injection_channel(h as u32) as usize;
        let ovc = c * self.set.v + s.vc as usize;
        self.ovc[ovc].credits -= 1;
        let mut flags = 0;
        if s.sent == 0 {
            flags |= HEAD;
        }
        if s.sent + 1 == s.len {
            flags |= TAIL;
        }
        let ahead = if lookahead && s.sent == 0 {
            let at = self.inch[c].switch;
            Ahead::of(ep.table_lookup(s.packet, at, self.set.v as u8))
        } else {
            Ahead::NONE
        };
        let wheel = match self.block_of.get(c) {
            Some(&b) if b != NONE => &mut self.block_wheels[b as usize],
            _ => &mut self.switch_wheel,
        };
        wheel.schedule(
            now + self.set.link_latency + self.set.switch_delay,
            FlitEvent {
                ch: c as u32,
                vc: s.vc,
                flit: Flit::new(s.packet, flags),
                ahead,
            },
        );
        self.in_network += 1;
        ep.flit_injected();
        let next = Sending {
            sent: s.sent + 1,
            ..s
        };
        let more = next.sent < s.len;
        self.sending[h] = more.then_some(next);
        // (A one-flit packet is never part-way.)
        if s.len > 1 {
            let bit = 1u64 << (h % 64);
            if more {
                self.sending_bits[h / 64] |= bit;
            } else {
                self.sending_bits[h / 64] &= !bit;
            }
        }
    }

    /// Hosts send: those part-way through a packet send its next flit if
    /// their VC has a credit; the others start the packet (or
    /// acknowledgement) at the front of their queue on a free VC. Only the
    /// hosts with something to send are visited (the endpoint layer's ready
    /// hosts and those sending), in host order, as a scan of every host
    /// would visit them. Out of line: it runs once a cycle, and inlined
    /// into `step` it changed how the allocation loop beside it is compiled.
    /// `lookahead`: [`InputQueued::send_from_host`]'s.
    #[inline(never)]
    fn inject(&mut self, now: u64, ep: &mut Endpoints, lookahead: bool) {
        debug_assert_eq!(ep.ready_words(), self.sending_bits.len());
        // (Cycles on two threads look ahead whatever the packets' length.)
        if lookahead && looks_ahead(self.set.packet_flits) {
            self.inject_one_flit(now, ep);
            return;
        }
        for k in 0..self.sending_bits.len() {
            for h in ones(ep.ready_hosts(k) | self.sending_bits[k], k * 64) {
                self.inject_at(now, h, ep, lookahead);
            }
        }
    }

    /// [`InputQueued::inject`] with lookahead: the fast router (wormhole,
    /// no acknowledgement class, one credit to start a packet) with every
    /// answer from a table and one-flit packets, so that no host is ever
    /// part-way through a packet. The hosts are visited as `inject_at`
    /// visits them and do what it does, in the same order: a host with
    /// nothing queued leaves the ready set, one with no credit on any VC
    /// waits, the others send their front packet on the first VC with a
    /// credit from their round-robin pointer on, its head carrying its
    /// answer at the host's switch.
    #[inline(always)]
    fn inject_one_flit(&mut self, now: u64, ep: &mut Endpoints) {
        debug_assert!(looks_ahead(self.set.packet_flits) && self.fast_router(ep));
        let v = self.set.v;
        let first = self.net.injection_channel(0) as usize;
        let arrive_at = now + self.set.link_latency + self.set.switch_delay;
        for k in 0..self.sending_bits.len() {
            debug_assert_eq!(self.sending_bits[k], 0);
            for h in ones(ep.ready_hosts(k), k * 64) {
                debug_assert!(self.sending[h].is_none());
                if !ep.has_queued(h) {
                    ep.host_idle(h);
                    continue;
                }
                // (Every index below is in range by construction: `h` is
                // a host, `c` its injection channel, `vc` below `v`.)
                let c = first + h;
                let start = (*at(&self.host_rr[..], h) as usize).min(v - 1);
                let mut vc = start;
                while at(&self.ovc[..], c * v + vc).credits < 1 {
                    vc = if vc + 1 == v { 0 } else { vc + 1 };
                    if vc == start {
                        break;
                    }
                }
                if at(&self.ovc[..], c * v + vc).credits < 1 {
                    continue;
                }
                let at_switch = at(&self.inch[..], c).switch;
                let Some((id, answer)) = ep.start_one_flit(h, now, at_switch, v as u8) else {
                    continue;
                };
                *at_mut(&mut self.host_rr[..], h) = if vc + 1 == v { 0 } else { vc as u8 + 1 };
                at_mut(&mut self.ovc[..], c * v + vc).credits -= 1;
                let wheel = match self.block_of.get(c) {
                    Some(&b) if b != NONE => &mut self.block_wheels[b as usize],
                    _ => &mut self.switch_wheel,
                };
                wheel.schedule(
                    arrive_at,
                    FlitEvent {
                        ch: c as u32,
                        vc: vc as u8,
                        flit: Flit::new(id, HEAD | TAIL),
                        ahead: Ahead::of(answer),
                    },
                );
                self.in_network += 1;
            }
        }
    }

    #[inline(always)]
    fn inject_at(&mut self, now: u64, h: usize, ep: &mut Endpoints, lookahead: bool) {
        let wormhole = self.set.switching == Switching::Wormhole;
        let data_vcs = ep.data_vcs() as usize;
        {
            if let Some(s) = self.sending[h] {
                let c = self.net.injection_channel(h as u32) as usize;
                if self.ovc[c * self.set.v + s.vc as usize].credits > 0 {
                    self.send_from_host(now, h, s, ep, lookahead);
                }
                return;
            }
            let Some(next) = ep.next_at(h) else {
                ep.host_idle(h);
                return;
            };
            let need = if self.set.wait_for_tail_credit {
                self.set.depth as i32
            } else if wormhole {
                1
            } else {
                next.flits as i32
            };
            let c = self.net.injection_channel(h as u32) as usize;
            let vcs = &self.ovc[c * self.set.v..(c + 1) * self.set.v];
            let vc = if next.ack {
                // The acknowledgement class: the first VC with room.
                (data_vcs..self.set.v).find(|&x| vcs[x].credits >= need)
            } else {
                // Round-robin over the data VCs (no division: this runs for
                // every packet).
                let start = (self.host_rr[h] as usize).min(data_vcs - 1);
                (start..data_vcs)
                    .chain(0..start)
                    .find(|&x| vcs[x].credits >= need)
            };
            let Some(vc) = vc else {
                return;
            };
            let Some(id) = ep.start(h, now) else {
                return;
            };
            if !next.ack {
                self.host_rr[h] = if vc + 1 == data_vcs { 0 } else { vc as u8 + 1 };
            }
            self.send_from_host(
                now,
                h,
                Sending {
                    packet: id,
                    vc: vc as u8,
                    sent: 0,
                    len: next.flits,
                },
                ep,
                lookahead,
            );
        }
    }
}

/// What a flit's arrival writes: the input buffers, the per-switch
/// busy-port bits, and the count of flits in the network,
/// borrowed field by field by [`InputQueued::arrivals`] so that the slice
/// pointers stay in registers across the stores (this runs for every
/// flit-hop).
struct Inputs<'a, F: Family> {
    set: Settings,
    ivcs: &'a mut F::Arr<InputVc>,
    flits: &'a mut F::Arr<Flit>,
    inch: &'a mut F::Arr<InChannel>,
    busy: &'a mut F::Arr<u64>,
    in_network: &'a mut u64,
}

/// The flits `due` now reach the input buffers of their channels'
/// downstream switches, or (on an ejection channel) their hosts.
/// `PREFETCH`: ask for the records of the event [`AHEAD`] places on
/// (large networks, [`Settings::prefetch`]).
#[inline(always)]
fn arrive<const PREFETCH: bool, const VCS: usize, const DEPTH: usize, F: Family, E: HopCalls>(
    now: u64,
    due: &[FlitEvent],
    inputs: Inputs<'_, F>,
    ep: &mut E,
) {
    let Inputs {
        set,
        ivcs,
        flits,
        inch,
        busy,
        in_network,
    } = inputs;
    let (v, depth) = shape::<VCS, DEPTH>(set.v, set.depth);
    let (w, first_ejection) = (set.port_words, set.first_ejection);
    for (k, &ev) in due.iter().enumerate() {
        if PREFETCH && let Some(&ahead) = due.get(k + AHEAD) {
            ep.prefetch_packet(ahead.flit.packet);
            if ahead.ch < first_ejection {
                let i = ahead.ch as usize * v + ahead.vc as usize;
                prefetch_at(ivcs, i);
                prefetch_at(inch, ahead.ch as usize);
                prefetch_at(flits, i * depth);
            }
        }
        if ev.ch >= first_ejection {
            *in_network -= 1;
            ep.flit_delivered(now, ev.flit.packet, ev.flit.flags() & TAIL != 0);
            continue;
        }
        let c = ev.ch as usize;
        let i = c * v + ev.vc as usize;
        let q = at_mut(ivcs, i);
        let mut slot = q.head as usize + q.len as usize;
        if slot >= depth {
            slot -= depth;
        }
        // (A flit first in line brings the answer looked up for it, if
        // any: `InputVc::ahead`. A select: whether the VC was empty is a
        // coin toss.)
        q.ahead = if q.len == 0 { ev.ahead } else { q.ahead };
        q.len += 1;
        let mut f = ev.flit;
        f.set_arrival(now);
        *at_mut(flits, i * depth + slot) = f;
        let ch = at_mut(inch, c);
        ch.nonempty |= 1 << ev.vc;
        let (s, k) = (ch.switch as usize, ch.index as usize);
        *at_mut(busy, s * w + k / 64) |= 1 << (k % 64);
    }
}

/// `switch_model = input-queued` in the switch-model registry.
pub const MODEL: SwitchModelEntry = SwitchModelEntry {
    name: "input-queued",
    aliases: &["input_queued", "iq"],
    summary: "virtual-channel switches with credit flow control, Dally and Towles ch. 16-19",
    unit: CYCLES,
    accepts: |_, routing| per_cycle_routing("input-queued", routing),
    router: same_router,
    deadlines: false,
    per_switch_params: false,
    router_params: true,
    build: |net, router, _seed| Ok(Box::new(InputQueued::new(net, router)?)),
};

impl SwitchModel for InputQueued {
    fn step(&mut self, now: u64, ep: &mut Endpoints) -> Result<(), SimError> {
        #[cfg(not(target_arch = "wasm32"))]
        if self.two.is_some() {
            if let Some(r) = self.step_on_two_threads(now, ep) {
                return r;
            }
            // A cycle on one thread: the upper half's pending sends join
            // the wheels it reads.
            if let Some(mut two) = self.two.take() {
                two.merge_pending(self);
                self.two = Some(two);
            }
        }
        let credits = self.credit_wheel.take(now);
        if self.set.prefetch {
            for (k, &o) in credits.iter().enumerate() {
                if let Some(&ahead) = credits.get(k + AHEAD) {
                    prefetch(&self.ovc, ahead as usize);
                }
                at_mut(&mut self.ovc[..], o as usize).credits += 1;
            }
        } else {
            for &o in &credits {
                at_mut(&mut self.ovc[..], o as usize).credits += 1;
            }
        }
        self.credit_wheel.give_back(now, credits);
        // Lane 0: every arrival with one block, the arrivals at hosts with
        // more (the allocation loop writes each block's own).
        self.arrivals(now, None, ep);
        let key = (ep.data_vcs(), ep.has_tables(), ep.only_tables());
        if self.kernel_for != Some(key) {
            self.kernel = self.choose_kernel(ep);
            self.kernel_for = Some(key);
        }
        let kernel = self.kernel;
        self.inject(now, ep, kernel.look);
        let r = (kernel.run)(self, now, ep);
        r.map_err(|_| ep.take_fault())
    }

    fn flits_in_network(&self) -> u64 {
        self.in_network
    }

    fn set_engine_threads(&mut self, threads: usize) -> Result<(), String> {
        InputQueued::set_engine_threads(self, threads)
    }

    fn set_engine_split_from(&mut self, flits: u64) -> Result<(), String> {
        InputQueued::set_engine_split_from(self, flits)
    }

    fn channel_occupancy(&self) -> Vec<u32> {
        let mut out = vec![0u32; self.net.num_channels()];
        for (i, x) in self.ivc.iter().enumerate() {
            out[i / self.set.v] += x.len as u32;
        }
        out
    }

    fn switch_occupancy(&self) -> Vec<u32> {
        (0..self.switches())
            .map(|s| {
                self.in_ports_of(s)
                    .iter()
                    .flat_map(|&(_, c)| self.vcs_of(c))
                    .map(|q| q.len as u32)
                    .sum()
            })
            .collect()
    }

    fn switch_capacity(&self) -> Vec<u32> {
        (0..self.net.num_switches())
            .map(|s| (self.in_ports_of(s).len() * self.set.v * self.set.depth) as u32)
            .collect()
    }

    fn port_occupancy(&self, switch: u32) -> Option<Vec<PortOccupancy>> {
        let s = switch as usize;
        Some(
            self.in_ports_of(s)
                .iter()
                .map(|&(_, c)| PortOccupancy {
                    channel: c,
                    flits: self.vcs_of(c).iter().map(|q| q.len).collect(),
                })
                .collect(),
        )
    }

    fn blocked_report(&self, ep: &Endpoints) -> Vec<String> {
        self.blocked(ep)
    }

    fn wait_cycle(&self, _ep: &Endpoints) -> Option<Vec<(u32, u8)>> {
        let v = self.set.v;
        self.find_wait_cycle().map(|c| {
            c.into_iter()
                .map(|x| ((x / v) as u32, (x % v) as u8))
                .collect()
        })
    }

    fn check_invariants(&self, ep: &Endpoints) -> Result<(), String> {
        self.check_packets(ep)?;
        self.check_wheels()?;
        self.check_proposals()?;
        self.check_buffers()
    }
}
