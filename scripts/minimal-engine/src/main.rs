//! A measuring stick for routelab's engine: the smallest program that
//! simulates what `routelab sim --topology torus:8x8 --routing dor
//! --traffic uniform --packet-flits F --buffer-flits D` simulates, cycle
//! for cycle, with none of routelab's generality, so that the time routelab
//! spends on that generality can be measured (`scripts/compare-minimal.sh`,
//! docs/performance.md, "The minimal engine"). `F` is 1 or 16 and
//! `D` 8 or 32: one-flit packets in 8-flit buffers are the `engine` bench's
//! and BookSim2 comparison's shape, 16-flit packets in 32-flit buffers the
//! CAMINOS comparison's.
//!
//! It is not part of routelab and shares no code with it. It was written
//! from routelab's documented semantics, and its results are the same as
//! routelab's bit for bit: accepted load, average and maximum latency,
//! average hops, delivered packets and every network channel's
//! utilisation (`--channels`), which the script checks at three loads.
//! What it simulates:
//!
//! - an 8-ary 2-cube (port `2d` is +d, `2d + 1` is -d, port 4 the host's),
//!   one host a switch;
//! - dimension-order routing, ties to +, dateline classes: VC 0 while the
//!   rest of the path in the current dimension crosses the wrap-around
//!   link, VC 1 otherwise (routelab's `dor`, strict classes);
//! - routelab's default input-queued router: wormhole, 2 VCs of `D` flits,
//!   credits, link latency 1, switch delay 1, a head's VC allocation needs
//!   an output VC that is free and has a credit, rotating input-port
//!   priority per switch, round-robin VC proposal per input port,
//!   round-robin output arbitration (Dally and Towles ch. 16-19);
//! - Bernoulli arrivals drawn as geometric gaps and uniform destinations
//!   (never the source), from routelab's traffic stream of the seed;
//! - routelab's statistics: accepted flits, and for packets generated in
//!   the measured window their latency (histogram, maximum, per source and
//!   per destination sums), hops, and the per-channel flit and wait counts.
//!
//! Everything is a constant of this one network and router; the hot arrays
//! are indexed without bounds checks (`at!`, every index below its array's
//! length by construction, checked in debug builds); and the decisions
//! that are coin tosses under random traffic (which hosts have an arrival
//! due, which VC proposes, whether a flit leaves for a host or a switch)
//! are selects, not branches. It was measured to be the fastest of the
//! versions tried (docs/performance.md, "The minimal engine").

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::VecDeque;
use std::process::ExitCode;

/// Radix of the torus.
const K: usize = 8;
/// Switches (and hosts).
const N: usize = K * K;
/// Ports a switch: +x, -x, +y, -y, then its host's.
const P: usize = 5;
/// The host's port.
const HOST: u8 = 4;
/// Virtual channels per channel.
const V: usize = 2;
/// A flit as the buffers and wheels keep it: its packet's id, with its
/// head and tail flags in the top bits (packets of more than one flit).
const HEAD_FLIT: u32 = 1 << 31;
const TAIL_FLIT: u32 = 1 << 30;
const ID: u32 = TAIL_FLIT - 1;
const NONE: u32 = u32::MAX;
/// The output VC of an input VC that holds none: an extra credit counter
/// that stays 0, so the VC proposal reads both VCs' credits with no test
/// of which VCs hold output VCs.
const DUMMY: u32 = (N * P * V + N * V) as u32;
/// Credits of the VCs toward hosts, which always accept: never spent
/// (`MAX_CYCLES` sends at most from each).
const HOST_CREDITS: i32 = i32::MAX / 2;
/// Longest run accepted (warm-up included), so that [`HOST_CREDITS`] never
/// run out.
const MAX_CYCLES: u64 = 1_000_000_000;
/// Output VCs toward switches are named by the input VC they feed
/// (`(switch * P + port) * V + vc`); those toward hosts come after them.
const TO_HOSTS: usize = N * P * V;
/// Largest latency the histogram keeps exactly (the rest in its last bin).
const HIST: usize = 4096;

/// Element `i` of `v` without a bounds check: every index here is below
/// its array's length by construction (the arrays are sized by the
/// constants above), which debug builds check.
#[inline(always)]
fn slot<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: in bounds (above).
    unsafe { v.get_unchecked_mut(i) }
}

/// [`slot`] as a place: `at!(v, i)` reads or writes `v[i]`.
macro_rules! at {
    ($v:expr, $i:expr) => {
        (*slot(&mut $v[..], $i))
    };
}

/// The table's answer at a switch for a destination: output port and VC
/// range.
#[derive(Clone, Copy, Default)]
struct Route {
    port: u8,
    lo: u8,
    hi: u8,
}

#[derive(Clone, Copy, Default)]
struct Packet {
    src: u16,
    dst: u16,
    born: u64,
    /// Switch-to-switch hops so far.
    hops: u16,
}

#[derive(Clone, Copy)]
struct InputVc {
    head: u8,
    len: u8,
    /// Output port and VC of the packet at the front, once allocated.
    port: u8,
    out: u32,
}

#[derive(Clone, Copy, Default)]
struct InChannel {
    nonempty: u8,
    /// VCs whose front packet holds an output VC.
    active: u8,
    /// Round-robin pointer of the VC proposal.
    rr: u8,
}

/// A flit (`flit`: packet id and flags) on its way to input VC `ivc`.
#[derive(Clone, Copy, Default)]
struct Arrival {
    ivc: u32,
    flit: u32,
}

/// A host part-way through sending a packet (packets of more than one
/// flit).
#[derive(Clone, Copy)]
struct Sending {
    packet: u32,
    vc: u8,
    sent: u16,
}

/// Events due in one cycle, at most `cap` of them (fixed arrays: a push
/// is a store).
struct Bucket<T: Copy + Default> {
    items: Vec<T>,
    len: usize,
}

impl<T: Copy + Default> Bucket<T> {
    fn new(cap: usize) -> Self {
        Bucket {
            items: vec![T::default(); cap],
            len: 0,
        }
    }
    #[inline(always)]
    fn push(&mut self, x: T) {
        assert!(self.len < self.items.len(), "bucket overflow");
        at!(self.items, self.len) = x;
        self.len += 1;
    }
    #[inline(always)]
    fn get(&mut self, k: usize) -> T {
        at!(self.items, k)
    }
}

/// routelab's `rng::stream(seed, Stream::Traffic)`.
fn traffic_stream(seed: u64) -> Pcg64Mcg {
    let mut z = seed ^ 2u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    Pcg64Mcg::seed_from_u64(z)
}

/// Uniform in [0, 1) from 53 bits (routelab's `rng::unit`).
fn unit(rng: &mut Pcg64Mcg) -> f64 {
    ((rng.next_u64() >> 11) as i64) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Uniform in `0..n` by multiply-shift (routelab's `rng::below`).
fn below(rng: &mut Pcg64Mcg, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// The gap to a host's next Bernoulli arrival.
fn gap(rng: &mut Pcg64Mcg, log_q: f64) -> f64 {
    let u = 1.0 - unit(rng);
    1.0 + (libm::log(u) / log_q).floor()
}

/// The network and its state, for packets of `F` flits and buffers of `D`
/// flits a VC (a power of two), both constants of the compiled loop.
struct Sim<const F: usize, const D: usize> {
    route: Vec<Route>,
    /// Per switch and output port, the first of its output VCs (the input
    /// VCs they feed downstream, or the host's VCs): one lookup, no test
    /// of whether the port is the host's.
    out_base: Vec<u32>,
    ivc: Vec<InputVc>,
    /// Each input VC's ring of (flit, cycle it arrived).
    flits: Vec<(u32, u32)>,
    inch: Vec<InChannel>,
    /// Per switch, a bit per input port holding flits.
    busy: Vec<u8>,
    switch_rr: Vec<u8>,
    /// Per output channel, the round-robin pointer of its arbiter.
    out_rr: Vec<u8>,
    credits: Vec<i32>,
    owner: Vec<u32>,
    to_switches: [Bucket<Arrival>; 4],
    /// Flits on their way to hosts.
    to_hosts: [Bucket<u32>; 4],
    credit_wheel: [Bucket<u32>; 4],
    packets: Vec<Packet>,
    free: Vec<u32>,
    queues: Vec<VecDeque<(u16, u64)>>,
    /// Hosts whose queue holds packets.
    ready: u64,
    /// Hosts part-way through a packet, and where they are.
    sending_bits: u64,
    sending: Vec<Option<Sending>>,
    host_rr: Vec<u8>,
    arrival: Vec<f64>,
    log_q: f64,
    rng: Pcg64Mcg,
    stats: Stats,
}

#[derive(Default)]
struct Stats {
    measuring: bool,
    measure_start: u64,
    delivered_flits: u64,
    delivered_packets: u64,
    latency_sum: u64,
    latency_max: u64,
    hops_sum: u64,
    histogram: Vec<u64>,
    by_src: Vec<(u64, u64)>,
    by_dst: Vec<(u64, u64)>,
    delivered_by_source: Vec<u64>,
    generated_by_source: Vec<u64>,
    generated_flits: u64,
    injected_packets: u64,
    channel_flits: Vec<u64>,
    channel_heads: Vec<u64>,
    channel_wait: Vec<u64>,
}

impl<const F: usize, const D: usize> Sim<F, D> {
    fn new(load: f64, seed: u64) -> Self {
        let xy = |s: usize| (s % K, s / K);
        let id = |x: usize, y: usize| y * K + x;
        let next: Vec<[u32; 4]> = (0..N)
            .map(|s| {
                let (x, y) = xy(s);
                [
                    id((x + 1) % K, y) as u32,
                    id((x + K - 1) % K, y) as u32,
                    id(x, (y + 1) % K) as u32,
                    id(x, (y + K - 1) % K) as u32,
                ]
            })
            .collect();
        let mut route = vec![Route::default(); N * N];
        for s in 0..N {
            for d in 0..N {
                let ((sx, sy), (dx, dy)) = (xy(s), xy(d));
                route[s * N + d] = if s == d {
                    Route {
                        port: HOST,
                        lo: 0,
                        hi: V as u8 - 1,
                    }
                } else {
                    let (a, b, plus_port) = if sx != dx { (sx, dx, 0) } else { (sy, dy, 2) };
                    // Ties (K/2 either way) go +.
                    let (port, wraps) = if (b + K - a) % K <= K / 2 {
                        (plus_port, b < a)
                    } else {
                        (plus_port + 1, b > a)
                    };
                    let vc = u8::from(!wraps);
                    Route {
                        port,
                        lo: vc,
                        hi: vc,
                    }
                };
            }
        }
        let mut rng = traffic_stream(seed);
        // (Packets a host and cycle.)
        let log_q = libm::log1p(-load / F as f64);
        // Each host's first Bernoulli trial is cycle 0.
        let arrival = (0..N).map(|_| -1.0 + gap(&mut rng, log_q)).collect();
        let out_base = (0..N * P)
            .map(|sp| {
                let (s, port) = (sp / P, sp % P);
                if port == HOST as usize {
                    (TO_HOSTS + s * V) as u32
                } else {
                    // (Sent on port 2d, a flit arrives on port 2d + 1.)
                    ((next[s][port] as usize * P + (port ^ 1)) * V) as u32
                }
            })
            .collect();
        Sim {
            out_base,
            route,
            ivc: vec![
                InputVc {
                    head: 0,
                    len: 0,
                    port: 0,
                    out: DUMMY,
                };
                N * P * V
            ],
            flits: vec![(0, 0); N * P * V * D],
            inch: vec![InChannel::default(); N * P],
            busy: vec![0; N],
            switch_rr: vec![0; N],
            out_rr: vec![0; N * P],
            credits: (0..=DUMMY as usize)
                .map(|o| match o {
                    _ if o < TO_HOSTS => D as i32,
                    _ if o < DUMMY as usize => HOST_CREDITS,
                    _ => 0,
                })
                .collect(),
            owner: vec![NONE; TO_HOSTS + N * V],
            // (One spare slot: a grant writes to both wheels and counts
            // one.)
            to_switches: std::array::from_fn(|_| Bucket::new(N * P + 1)),
            to_hosts: std::array::from_fn(|_| Bucket::new(N + 1)),
            credit_wheel: std::array::from_fn(|_| Bucket::new(N * P + 1)),
            packets: Vec::new(),
            free: Vec::new(),
            queues: vec![VecDeque::new(); N],
            ready: 0,
            sending_bits: 0,
            sending: vec![None; N],
            host_rr: vec![0; N],
            arrival,
            log_q,
            rng,
            stats: Stats {
                histogram: vec![0; HIST],
                by_src: vec![(0, 0); N],
                by_dst: vec![(0, 0); N],
                delivered_by_source: vec![0; N],
                generated_by_source: vec![0; N],
                channel_flits: vec![0; N * P],
                channel_heads: vec![0; N * P],
                channel_wait: vec![0; N * P],
                ..Stats::default()
            },
        }
    }

    fn step(&mut self, now: u64) {
        self.generate(now);
        let b = (now % 4) as usize;
        let due = &mut self.credit_wheel[b];
        for k in 0..due.len {
            at!(self.credits, due.get(k) as usize) += 1;
        }
        due.len = 0;
        self.deliver(now, b);
        self.arrive(now, b);
        self.inject(now);
        self.allocate(now);
    }

    /// The hosts' arrivals of cycle `now`, into their queues: the count
    /// first, then each packet's destination.
    fn generate(&mut self, now: u64) {
        let limit = (now + 1) as f64;
        // The hosts with an arrival due (one compare each, no branch).
        let mut due = 0u64;
        for (h, &t) in self.arrival.iter().enumerate() {
            due |= u64::from(t < limit) << h;
        }
        while due != 0 {
            let h = due.trailing_zeros() as usize;
            due &= due - 1;
            let mut k = 0u64;
            while at!(self.arrival, h) < limit {
                k += 1;
                at!(self.arrival, h) += gap(&mut self.rng, self.log_q);
            }
            for _ in 0..k {
                let d = below(&mut self.rng, N as u32 - 1);
                let d = if d >= h as u32 { d + 1 } else { d };
                at!(self.queues, h).push_back((d as u16, now));
            }
            self.ready |= 1 << h;
            if self.stats.measuring {
                self.stats.generated_flits += k * F as u64;
                at!(self.stats.generated_by_source, h) += k;
            }
        }
    }

    /// Flits reaching their hosts; a packet is delivered with its tail.
    fn deliver(&mut self, now: u64, b: usize) {
        let due = &mut self.to_hosts[b];
        let st = &mut self.stats;
        for k in 0..due.len {
            let flit = due.get(k);
            st.delivered_flits += u64::from(st.measuring);
            if F > 1 && flit & TAIL_FLIT == 0 {
                continue;
            }
            let p = flit & ID;
            let pk = at!(self.packets, p as usize);
            let latency = now - pk.born;
            if st.measuring && pk.born >= st.measure_start {
                st.delivered_packets += 1;
                st.latency_sum += latency;
                st.latency_max = st.latency_max.max(latency);
                st.hops_sum += u64::from(pk.hops);
                at!(st.histogram, (latency as usize).min(HIST - 1)) += 1;
                let s = &mut at!(st.by_src, pk.src as usize);
                *s = (s.0 + latency, s.1 + 1);
                let d = &mut at!(st.by_dst, pk.dst as usize);
                *d = (d.0 + latency, d.1 + 1);
                at!(st.delivered_by_source, pk.src as usize) += 1;
            }
            self.free.push(p);
        }
        due.len = 0;
    }

    /// Flits reaching switches.
    fn arrive(&mut self, now: u64, b: usize) {
        let due = &mut self.to_switches[b];
        for k in 0..due.len {
            let Arrival { ivc: i, flit } = due.get(k);
            let i = i as usize;
            let q = &mut at!(self.ivc, i);
            let slot = (q.head as usize + q.len as usize) & (D - 1);
            q.len += 1;
            at!(self.flits, i * D + slot) = (flit, now as u32);
            let c = i / V;
            at!(self.inch, c).nonempty |= 1 << (i % V);
            at!(self.busy, c / P) |= 1 << (c % P);
        }
        due.len = 0;
    }

    /// Hosts send: one part-way through a packet its next flit if its VC
    /// has a credit; the others with packets queued the first packet's
    /// head, on a VC of their channel with a credit, round-robin.
    fn inject(&mut self, now: u64) {
        let mut hosts = self.ready | self.sending_bits;
        let bucket = ((now + 2) % 4) as usize;
        while hosts != 0 {
            let h = hosts.trailing_zeros() as usize;
            hosts &= hosts - 1;
            let c = h * P + HOST as usize;
            if F > 1
                && let Some(s) = at!(self.sending, h)
            {
                if at!(self.credits, c * V + s.vc as usize) > 0 {
                    self.send(h, s, bucket);
                }
                continue;
            }
            let first = at!(self.host_rr, h) as usize;
            let vc = if at!(self.credits, c * V + first) > 0 {
                first
            } else if at!(self.credits, c * V + (first ^ 1)) > 0 {
                first ^ 1
            } else {
                continue;
            };
            at!(self.host_rr, h) = (vc ^ 1) as u8;
            let q = &mut at!(self.queues, h);
            let Some((dst, born)) = q.pop_front() else {
                unreachable!("a ready host's queue is empty");
            };
            if q.is_empty() {
                self.ready &= !(1 << h);
            }
            let pk = Packet {
                src: h as u16,
                dst,
                born,
                hops: 0,
            };
            let id = match self.free.pop() {
                Some(id) => {
                    at!(self.packets, id as usize) = pk;
                    id
                }
                None => {
                    self.packets.push(pk);
                    (self.packets.len() - 1) as u32
                }
            };
            self.stats.injected_packets += u64::from(self.stats.measuring);
            let s = Sending {
                packet: id,
                vc: vc as u8,
                sent: 0,
            };
            self.send(h, s, bucket);
        }
    }

    /// Host `h` sends the next flit of the packet `s` says.
    #[inline(always)]
    fn send(&mut self, h: usize, s: Sending, bucket: usize) {
        let i = (h * P + HOST as usize) * V + s.vc as usize;
        at!(self.credits, i) -= 1;
        let flags = if F == 1 {
            0
        } else {
            (if s.sent == 0 { HEAD_FLIT } else { 0 })
                | (if s.sent as usize + 1 == F {
                    TAIL_FLIT
                } else {
                    0
                })
        };
        self.to_switches[bucket].push(Arrival {
            ivc: i as u32,
            flit: s.packet | flags,
        });
        if F > 1 {
            let sent = s.sent + 1;
            if (sent as usize) < F {
                at!(self.sending, h) = Some(Sending { sent, ..s });
                self.sending_bits |= 1 << h;
            } else {
                at!(self.sending, h) = None;
                self.sending_bits &= !(1 << h);
            }
        }
    }

    /// Every switch holding flits: VC allocation for the heads at the
    /// front of its input VCs, one proposal per input port, one grant per
    /// output port, and the winners' flits sent.
    fn allocate(&mut self, now: u64) {
        let (fb, hb) = (((now + 2) % 4) as usize, ((now + 1) % 4) as usize);
        let Sim {
            route,
            out_base,
            ivc,
            flits,
            inch,
            busy,
            switch_rr,
            out_rr,
            credits,
            owner,
            packets,
            stats,
            to_switches,
            to_hosts,
            credit_wheel,
            ..
        } = self;
        let (to_switches, to_hosts, credit_back) = (
            &mut to_switches[fb],
            &mut to_hosts[hb],
            &mut credit_wheel[hb],
        );
        let measuring = stats.measuring;
        for s in 0..N {
            let busy_ports = at!(busy, s);
            if busy_ports == 0 {
                continue;
            }
            let start = at!(switch_rr, s) as usize;
            let mut best = [NONE; P];
            let mut best_pos = [u8::MAX; P];
            let mut proposal = [0u32; P];
            let mut proposed = 0u8;
            // The busy ports from `start` on, then those before it.
            let mut order = (u32::from(busy_ports) | (u32::from(busy_ports) << P)) >> start;
            while order & ((1 << P) - 1) != 0 {
                let k = order.trailing_zeros() as usize;
                order &= order - 1;
                let p = if start + k >= P {
                    start + k - P
                } else {
                    start + k
                };
                let c = s * P + p;
                let InChannel {
                    nonempty,
                    mut active,
                    rr,
                } = at!(inch, c);
                let mut waiting = nonempty & !active;
                while waiting != 0 {
                    let x = waiting.trailing_zeros() as usize;
                    waiting &= waiting - 1;
                    let i = c * V + x;
                    let q = at!(ivc, i);
                    // (At the front of a VC holding no output VC: a head.)
                    let pk = (at!(flits, i * D + q.head as usize).0 & ID) as usize;
                    let r = at!(route, s * N + at!(packets, pk).dst as usize);
                    let base = at!(out_base, s * P + r.port as usize) as usize;
                    for vc in r.lo..=r.hi {
                        let o = base + vc as usize;
                        if (at!(owner, o) == NONE) & (at!(credits, o) > 0) {
                            at!(owner, o) = i as u32;
                            let q = &mut at!(ivc, i);
                            q.out = o as u32;
                            q.port = r.port;
                            active |= 1 << x;
                            break;
                        }
                    }
                }
                at!(inch, c).active = active;
                let ready = nonempty & active;
                if ready == 0 {
                    continue;
                }
                // One VC proposes: the pointer's if it is ready and its
                // output VC has a credit, else the other if that one is
                // (both read, then picked: no loop, no coin-toss branch).
                let ok0 = u8::from(at!(credits, at!(ivc, c * V).out as usize) > 0);
                let ok1 = u8::from(at!(credits, at!(ivc, c * V + 1).out as usize) > 0);
                let ok = ready & (ok0 | (ok1 << 1));
                if ok == 0 {
                    continue;
                }
                let x = if ok & (1 << rr) != 0 {
                    rr as usize
                } else {
                    rr as usize ^ 1
                };
                let i = c * V + x;
                proposal[p] = i as u32;
                proposed |= 1 << p;
                // Each output port keeps the proposal that comes first
                // after its round-robin pointer.
                let op = at!(ivc, i).port as usize;
                let orr = at!(out_rr, s * P + op) as usize;
                let pos = if p >= orr { p - orr } else { p + P - orr } as u8;
                if pos < best_pos[op] {
                    best_pos[op] = pos;
                    best[op] = i as u32;
                }
            }
            at!(switch_rr, s) = if start + 1 == P { 0 } else { start as u8 + 1 };
            // Grants, in port order.
            while proposed != 0 {
                let p = proposed.trailing_zeros() as usize;
                proposed &= proposed - 1;
                let i = proposal[p] as usize;
                let q = &mut at!(ivc, i);
                let (o, op) = (q.out as usize, q.port as usize);
                if best[op] != i as u32 {
                    continue;
                }
                at!(out_rr, s * P + op) = p as u8 + 1;
                let (c, x) = (i / V, i % V);
                let (flit, arrived) = at!(flits, i * D + q.head as usize);
                let head = F == 1 || flit & HEAD_FLIT != 0;
                let tail = F == 1 || flit & TAIL_FLIT != 0;
                q.head = (q.head + 1) & (D as u8 - 1);
                q.len -= 1;
                let ch = &mut at!(inch, c);
                ch.rr = (x ^ 1) as u8;
                ch.nonempty &= !(u8::from(q.len == 0) << x);
                // The tail gives the output VC back.
                if tail {
                    q.out = DUMMY;
                    ch.active &= !(1 << x);
                    at!(owner, o) = NONE;
                }
                at!(busy, s) &= !(u8::from(ch.nonempty == 0) << p);
                credit_back.push(i as u32);
                if measuring {
                    let oc = s * P + op;
                    at!(stats.channel_flits, oc) += 1;
                    at!(stats.channel_heads, oc) += u64::from(head);
                    at!(stats.channel_wait, oc) += if head {
                        u64::from(now as u32 - arrived)
                    } else {
                        0
                    };
                }
                // To a host or to a switch: written to both wheels and
                // counted on one, a select rather than a branch (whether a
                // flit leaves for its host is a coin toss).
                let to_host = op == HOST as usize;
                at!(packets, (flit & ID) as usize).hops += u16::from(head & !to_host);
                at!(credits, o) -= 1;
                at!(to_hosts.items, to_hosts.len) = flit;
                to_hosts.len += usize::from(to_host);
                at!(to_switches.items, to_switches.len) = Arrival {
                    ivc: o as u32,
                    flit,
                };
                to_switches.len += usize::from(!to_host);
            }
        }
    }
}

/// A flag's value, parsed, or a message naming the flag and what it takes.
fn parse<T: std::str::FromStr>(flag: &str, value: Option<String>, what: &str) -> Result<T, String> {
    let v = value.ok_or(format!("{flag} needs a value ({what})"))?;
    v.parse()
        .map_err(|_| format!("{flag}: {v:?} is not {what}"))
}

struct Args {
    load: f64,
    warmup: u64,
    cycles: u64,
    seed: u64,
    /// Where to write each network channel's utilisation.
    channels: Option<String>,
    packet_flits: usize,
    buffer_flits: usize,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        load: 0.3,
        warmup: 1000,
        cycles: 10_000,
        seed: 1,
        channels: None,
        packet_flits: 1,
        buffer_flits: 8,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--load" => a.load = parse(&flag, it.next(), "a load in [0, 1)")?,
            "--warmup" => a.warmup = parse(&flag, it.next(), "a number of cycles")?,
            "--cycles" => a.cycles = parse(&flag, it.next(), "a number of cycles")?,
            "--seed" => a.seed = parse(&flag, it.next(), "an unsigned integer")?,
            "--channels" => a.channels = Some(parse(&flag, it.next(), "a file name")?),
            "--packet-flits" => a.packet_flits = parse(&flag, it.next(), "1 or 16")?,
            "--buffer-flits" => a.buffer_flits = parse(&flag, it.next(), "8 or 32")?,
            _ => {
                return Err(format!(
                    "unknown argument {flag:?}; accepted: --load L --warmup W --cycles C --seed S \
                     --packet-flits 1|16 --buffer-flits 8|32 --channels FILE"
                ));
            }
        }
    }
    if !(0.0..1.0).contains(&a.load) {
        return Err(format!(
            "--load {} is out of range: accepted [0, 1)",
            a.load
        ));
    }
    // (The shapes compiled: each is a constant of its loop.)
    if ![1, 16].contains(&a.packet_flits) || ![8, 32].contains(&a.buffer_flits) {
        return Err(format!(
            "--packet-flits {} --buffer-flits {}: accepted --packet-flits 1 or 16 \
             and --buffer-flits 8 or 32",
            a.packet_flits, a.buffer_flits
        ));
    }
    if a.cycles == 0 {
        return Err("--cycles must be at least 1".into());
    }
    if a.warmup.saturating_add(a.cycles) > MAX_CYCLES {
        return Err(format!(
            "--warmup + --cycles is {}: accepted up to {MAX_CYCLES}",
            a.warmup.saturating_add(a.cycles)
        ));
    }
    Ok(a)
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("minimal-engine: {e}");
            return ExitCode::from(2);
        }
    };
    let run = match (a.packet_flits, a.buffer_flits) {
        (1, 8) => run::<1, 8>,
        (1, _) => run::<1, 32>,
        (_, 8) => run::<16, 8>,
        _ => run::<16, 32>,
    };
    match run(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minimal-engine: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The run `a` asks for, with packets of `F` flits and buffers of `D`:
/// its results on standard output (and the channels' file, if asked).
fn run<const F: usize, const D: usize>(a: &Args) -> Result<(), String> {
    let mut sim = Sim::<F, D>::new(a.load, a.seed);
    let t0 = std::time::Instant::now();
    for now in 0..a.warmup {
        sim.step(now);
    }
    sim.stats.measuring = true;
    sim.stats.measure_start = a.warmup;
    for now in a.warmup..a.warmup + a.cycles {
        sim.step(now);
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let st = &sim.stats;
    let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    // (The same names as `routelab sim --json`'s fields.)
    println!(
        "{{\"accepted\":{},\"avg_latency\":{},\"avg_hops\":{},\"max_latency\":{},\"delivered_packets\":{},\"cycles\":{},\"cycles_per_second\":{}}}",
        per(st.delivered_flits, a.cycles * N as u64),
        per(st.latency_sum, st.delivered_packets),
        per(st.hops_sum, st.delivered_packets),
        st.latency_max,
        st.delivered_packets,
        a.warmup + a.cycles,
        (a.warmup + a.cycles) as f64 / elapsed,
    );
    if let Some(path) = &a.channels {
        // `routelab sim --channels`'s `src` and `utilization` columns, for
        // the network channels.
        let mut out = String::from("src,utilization\n");
        for s in 0..N {
            for p in 0..HOST as usize {
                let flits = st.channel_flits[s * P + p];
                out += &format!("s{s}.p{p},{:.6}\n", flits as f64 / a.cycles as f64);
            }
        }
        std::fs::write(path, out).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}
