//! The time-slice switch model of the weighted-path paper
//! (`switch_model = timeslice`): a k-ary fat tree of unlike switches, each
//! with a buffer of `buffer` messages, taking in at most `bw_in` and
//! sending at most `bw_out` messages per slice
//! ([`crate::topology::fat_tree_params`]). One [`SwitchModel::step`] is one
//! time slice; a message is a one-flit packet of the endpoint layer, and a
//! request's begin time is its packet's generation slice.
//!
//! A slice is synchronous: every decision uses the state at its start.
//! 1. Requests that waited more than R slices at their server are dropped
//!    there (failed; [`crate::sim::Deadlines`]).
//! 2. Every switch notes its neighbours' fill (the paper's SwitchStatsInfo,
//!    once per slice) and each access switch's quota per aggregate for the
//!    slice ([`crate::routing::fattree::SlicePolicy::neighbour_quota`]).
//! 3. Every switch goes through its messages, in the order its balancer
//!    asks for ([`crate::routing::fattree::SlicePolicy::send_key`],
//!    [`crate::routing::fattree::SlicePolicy::shuffle_sends`]; arrival order otherwise),
//!    routes each ([`super::Endpoints::route_slice`]) and offers it on the
//!    first candidate port whose quota is not used up, until it has made
//!    `bw_out` offers. A balancer may answer nothing: the message waits. The
//!    switch lowers its own copy of a neighbour's free space for every
//!    message it offers there ([`view::SliceView`]). Servers offer every
//!    request they hold to their access switch, without limit.
//! 4. Every receiver takes, in a seeded random order, as many offers as
//!    `bw_in` and its buffer allow: its free space at the start of the slice
//!    plus the slots freed by its own messages leaving in the slice, so that
//!    two full switches can still exchange messages (without that, a full
//!    access switch and a full aggregate waiting on each other freeze the
//!    network, which ECMP and D-mod-k hit on the presets). Servers take
//!    everything. A refused offer stays where it was and still used its
//!    sender's `bw_out`; refusals between switches are counted.
//! 5. Accepted messages move one hop. Nothing is lost.
//!
//! So a message moves at most one hop per slice. Latency runs from the
//! request's begin slice to its delivery slice and so leaves out the
//! server-to-access edge, as the paper counts it: a request that enters its
//! access switch in its begin slice and meets no queue reaches a server in
//! another pod 5 slices later (access, aggregate, core, aggregate, access),
//! one in its pod after 3, one on its own access switch after 1.

mod entry;
mod view;

pub use entry::MODEL;

use super::endpoints::{Endpoints, RouteFault};
use super::error::SimError;
use super::model::SwitchModel;
use crate::rng::{SimRng, Stream, below, stream};
use crate::routing::Candidates;
use crate::topology::fat_tree_params::{SwitchParams, fat_tree_k, params_of, uniform_load};
use crate::topology::{Network, Peer, PortId};
use std::collections::VecDeque;
use std::sync::Arc;
use view::{HOST, SliceView};

const NONE: u32 = u32::MAX;
/// Marks a message that left its switch this slice.
const GONE: u32 = u32::MAX;
/// Occupancy samples kept (one per window; older ones dropped in halves).
const MAX_HISTORY: usize = 4096;

/// A message held by a switch.
#[derive(Clone, Copy, Debug)]
struct Msg {
    /// Its packet.
    id: u32,
    /// The port it arrived on.
    in_port: PortId,
    /// Slice it arrived (for queueing-delay counters).
    arrived: u64,
    /// Its send key at this switch (0 without one).
    key: u64,
    /// Switches it entered so far (written to its packet on delivery, so
    /// that a hop touches no packet).
    switches: u16,
}

/// One message offered to a receiver in this slice.
#[derive(Clone, Copy, Debug)]
struct Offer {
    /// Sending switch, or `HOST | host`.
    from: u32,
    /// Index in the sending switch's messages (switches only).
    slot: u32,
    /// Receiving switch, or `HOST | host`.
    to: u32,
    /// The packet (switches only; a server's request becomes a packet when
    /// taken).
    id: u32,
    /// The channel it crosses.
    channel: u32,
    /// The port it arrives on at the receiver.
    in_port: PortId,
    /// Slices it waited at the sender (saturating).
    waited: u32,
    /// Its send key at the receiver (asked when offered, while its packet
    /// is at hand) and the switches it entered so far.
    key: u64,
    switches: u16,
    accepted: bool,
}

/// Per-channel counts of the last slice, for drawing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceTraffic {
    /// The slice they describe.
    pub slice: u64,
    /// Messages that crossed each channel.
    pub crossed: Vec<u32>,
    /// Offers refused on each channel (receiver full or out of bw_in).
    pub refused: Vec<u32>,
}

/// The time-slice model.
pub struct TimeSlice {
    net: Arc<Network>,
    params: Vec<SwitchParams>,
    num_switches: usize,
    held: Vec<Vec<Msg>>,
    /// Per (switch, port), flat from `port_start[s]`: the receiver (switch,
    /// `HOST | host` or NONE), the port it arrives on there, the channel,
    /// and the offers made on it this slice.
    port_start: Vec<u32>,
    port_to: Vec<u32>,
    port_in: Vec<PortId>,
    port_channel: Vec<u32>,
    sent: Vec<u32>,
    /// Per (switch, port): the receiver's fill at the start of the slice
    /// plus the offers made on the port since (what the sender knows).
    known: Vec<u32>,
    /// Per switch: its switch neighbours (the paper's deg for an access
    /// switch: its k/2 aggregates).
    degree: Vec<u32>,
    /// Per switch, this slice: fill at the start, quota per neighbour.
    occ_start: Vec<u32>,
    quota: Vec<u32>,
    /// Per switch, last slice: messages taken in, offers made.
    received: Vec<u32>,
    attempts: Vec<u32>,
    traffic: SliceTraffic,
    offers: Vec<Offer>,
    /// Offers grouped by receiver: `order[group[r]..group[r + 1]]`.
    order: Vec<u32>,
    group: Vec<u32>,
    fill: Vec<u32>,
    /// Per offer: its place in its receiver's order. Per switch: whether
    /// it has more offers than room, offers assumed to leave, offers that
    /// leave, offers that leave whatever happens, offers it takes. The
    /// offers to tight receivers.
    position: Vec<u32>,
    tight: Vec<bool>,
    departures: Vec<u32>,
    left: Vec<u32>,
    fixed: Vec<u32>,
    take: Vec<u32>,
    to_tight: Vec<u32>,
    cands: Candidates,
    rng: SimRng,
    in_network: u64,
    refused_measured: u64,
    refused_total: u64,
    /// Server requests an access switch could not take this slice (lifetime).
    admissions_refused: u64,
    /// Routing epochs seen (keys are recomputed after a swap).
    epochs: usize,
    history: VecDeque<(u64, Vec<u32>)>,
}

impl TimeSlice {
    /// The model of `net`, a fat tree with k <= 32 (its per-switch
    /// parameters from the network description). `seed` seeds the order in
    /// which receivers accept and switches shuffle.
    pub fn new(net: Arc<Network>, seed: u64) -> Result<TimeSlice, String> {
        entry::fat_tree_of(&net)?;
        let params = params_of(&net).unwrap_or_default();
        let n = net.num_switches();
        let mut port_start = Vec::with_capacity(n + 1);
        let (mut port_to, mut port_in, mut port_channel) = (Vec::new(), Vec::new(), Vec::new());
        let mut degree = Vec::with_capacity(n);
        for s in 0..n as u32 {
            port_start.push(port_to.len() as u32);
            let mut d = 0;
            for p in net.ports(s) {
                let (to, at) = match p.peer {
                    Peer::Switch { switch, port } => {
                        d += 1;
                        (switch, port)
                    }
                    Peer::Host { host } => (HOST | host, 0),
                    Peer::Unconnected => (NONE, 0),
                };
                port_to.push(to);
                port_in.push(at);
                port_channel.push(p.out_channel.unwrap_or(NONE));
            }
            degree.push(d);
        }
        port_start.push(port_to.len() as u32);
        let ports = port_to.len();
        let receivers = n + net.num_hosts();
        Ok(TimeSlice {
            params,
            num_switches: n,
            held: vec![Vec::new(); n],
            port_start,
            port_to,
            port_in,
            port_channel,
            sent: vec![0; ports],
            known: vec![0; ports],
            degree,
            occ_start: vec![0; n],
            quota: vec![u32::MAX; n],
            received: vec![0; n],
            attempts: vec![0; n],
            traffic: SliceTraffic {
                slice: 0,
                crossed: vec![0; net.num_channels()],
                refused: vec![0; net.num_channels()],
            },
            offers: Vec::new(),
            order: Vec::new(),
            group: vec![0; receivers + 1],
            fill: Vec::new(),
            position: Vec::new(),
            tight: vec![false; n],
            departures: vec![0; n],
            left: vec![0; n],
            fixed: vec![0; n],
            take: vec![0; n],
            to_tight: Vec::new(),
            cands: Candidates::default(),
            rng: stream(seed, Stream::Allocation),
            in_network: 0,
            refused_measured: 0,
            refused_total: 0,
            admissions_refused: 0,
            epochs: 0,
            history: VecDeque::new(),
            net,
        })
    }

    /// Every switch's parameters.
    pub fn params(&self) -> &[SwitchParams] {
        &self.params
    }
    /// Offers between switches refused since measurement started.
    pub fn refused_transmissions(&self) -> u64 {
        self.refused_measured
    }
    /// Offers between switches ever refused, and server requests an access
    /// switch could not take in a slice (retried or dropped).
    pub fn refusals_lifetime(&self) -> (u64, u64) {
        (self.refused_total, self.admissions_refused)
    }
    /// Per-channel counts of the last slice.
    pub fn traffic(&self) -> &SliceTraffic {
        &self.traffic
    }
    /// Occupancy of every switch at the end of each window: (slice,
    /// messages per switch), oldest first.
    pub fn history(&self) -> impl Iterator<Item = &(u64, Vec<u32>)> {
        self.history.iter()
    }

    /// After a routing swap: the new balancer's keys for every message
    /// held (none when it shuffles).
    fn rekey(&mut self, ep: &Endpoints) {
        let Some(r) = ep.routings().last() else {
            return;
        };
        let policy = r.slice_policy();
        let shuffle = policy.is_some_and(|x| x.shuffle_sends());
        for (s, msgs) in self.held.iter_mut().enumerate() {
            for m in msgs.iter_mut() {
                let p = ep.packet(m.id);
                m.key = if shuffle {
                    0
                } else {
                    policy
                        .and_then(|x| x.send_key(s as u32, &p.info, &p.route, p.gen_cycle))
                        .unwrap_or(0)
                };
            }
            msgs.sort_by_key(|m| m.key);
        }
    }

    /// Switch `s` makes its offers for slice `now`.
    fn offers_of(
        &mut self,
        s: usize,
        now: u64,
        shuffle: bool,
        ep: &mut Endpoints,
    ) -> Result<(), SimError> {
        let n = self.held[s].len();
        let bw = self.params[s].bw_out;
        let (ps, pe) = (self.port_start[s] as usize, self.port_start[s + 1] as usize);
        let mut attempts = 0;
        let mut i = 0;
        while i < n && attempts < bw {
            if shuffle {
                let j = i + below(&mut self.rng, (n - i) as u32) as usize;
                self.held[s].swap(i, j);
            }
            let m = self.held[s][i];
            self.cands.clear();
            let view = SliceView {
                to: &self.port_to[ps..pe],
                known: &self.known[ps..pe],
                params: &self.params,
            };
            ep.route_slice(
                m.id,
                s as u32,
                m.in_port,
                now,
                &view,
                pe - ps,
                &mut self.cands,
            )
            .map_err(|f| ep.fault_error(f))?;
            let mut chosen = None;
            for c in self.cands.as_slice() {
                let q = ps + c.port as usize;
                let to = self.port_to[q];
                if to == NONE {
                    let f = RouteFault::BadCandidate {
                        switch: s as u32,
                        epoch: ep.packet(m.id).epoch,
                        candidate: *c,
                        ports: pe - ps,
                        vcs: ep.data_vcs(),
                    };
                    return Err(ep.fault_error(f));
                }
                if to & HOST == 0 && self.sent[q] >= self.quota[to as usize] {
                    continue;
                }
                chosen = Some(q);
                break;
            }
            if let Some(q) = chosen {
                self.sent[q] += 1;
                self.known[q] += 1;
                attempts += 1;
                let to = self.port_to[q];
                let key = if shuffle || to & HOST != 0 {
                    0
                } else {
                    let p = ep.packet(m.id);
                    ep.routings()
                        .last()
                        .and_then(|x| x.slice_policy())
                        .and_then(|x| x.send_key(to, &p.info, &p.route, p.gen_cycle))
                        .unwrap_or(0)
                };
                self.offers.push(Offer {
                    from: s as u32,
                    slot: i as u32,
                    to: self.port_to[q],
                    id: m.id,
                    channel: self.port_channel[q],
                    in_port: self.port_in[q],
                    waited: (now - m.arrived).min(u32::MAX as u64) as u32,
                    key,
                    switches: m.switches,
                    accepted: false,
                });
            }
            i += 1;
        }
        self.attempts[s] = attempts;
        Ok(())
    }

    /// Group the offers by receiver and accept, per receiver, in a random
    /// order, as many as it can take: at most `bw_in`, and at most its free
    /// space at the start of the slice plus the slots its own accepted
    /// offers free in the slice (so full switches can exchange messages).
    /// Which offers leave depends on which are taken, so the counts are
    /// the greatest fixed point: start from every offer leaving, take a
    /// prefix of each receiver's random order, count what really left,
    /// repeat until nothing changes (each round can only take fewer).
    fn accept(&mut self, keyed: bool) {
        let n = self.num_switches;
        let receivers = self.group.len() - 1;
        self.group.fill(0);
        let index = |to: u32| {
            if to & HOST != 0 {
                n + (to & !HOST) as usize
            } else {
                to as usize
            }
        };
        for o in &self.offers {
            self.group[index(o.to) + 1] += 1;
        }
        for r in 0..receivers {
            self.group[r + 1] += self.group[r];
        }
        self.order.resize(self.offers.len(), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.group);
        for (i, o) in self.offers.iter().enumerate() {
            let r = index(o.to);
            self.order[self.fill[r] as usize] = i as u32;
            self.fill[r] += 1;
        }
        for r in 0..receivers {
            let (a, b) = (self.group[r] as usize, self.group[r + 1] as usize);
            let group = &mut self.order[a..b];
            for i in 0..group.len() {
                let j = i + below(&mut self.rng, (group.len() - i) as u32) as usize;
                group.swap(i, j);
            }
        }
        // Position of every offer in its receiver's order.
        self.position.resize(self.offers.len(), 0);
        for r in 0..receivers {
            let (a, b) = (self.group[r] as usize, self.group[r + 1] as usize);
            for (k, &i) in self.order[a..b].iter().enumerate() {
                self.position[i as usize] = k as u32;
            }
        }
        // A receiver whose offers all fit in its bw_in and start-of-slice
        // room takes them all whatever leaves; only the others (tight)
        // depend on departures.
        let mut any_tight = false;
        for r in 0..n {
            let offered = self.group[r + 1] - self.group[r];
            let p = self.params[r];
            let room = p.buffer.saturating_sub(self.occ_start[r]);
            self.tight[r] = offered > p.bw_in.min(room);
            self.take[r] = if self.tight[r] { 0 } else { offered };
            any_tight |= self.tight[r];
        }
        if any_tight {
            // Departures: fixed (to servers and to receivers that are not
            // tight), plus the offers to tight receivers taken this round;
            // at first all of them.
            self.fixed.fill(0);
            self.to_tight.clear();
            for (i, o) in self.offers.iter().enumerate() {
                if o.from & HOST != 0 {
                    continue;
                }
                if o.to & HOST == 0 && self.tight[o.to as usize] {
                    self.to_tight.push(i as u32);
                } else {
                    self.fixed[o.from as usize] += 1;
                }
            }
            self.departures.copy_from_slice(&self.fixed);
            for &i in &self.to_tight {
                self.departures[self.offers[i as usize].from as usize] += 1;
            }
            loop {
                for r in 0..n {
                    if self.tight[r] {
                        let p = self.params[r];
                        let room =
                            (p.buffer + self.departures[r]).saturating_sub(self.occ_start[r]);
                        self.take[r] = p.bw_in.min(room);
                    }
                }
                self.left.copy_from_slice(&self.fixed);
                for &i in &self.to_tight {
                    let o = &self.offers[i as usize];
                    if self.position[i as usize] < self.take[o.to as usize] {
                        self.left[o.from as usize] += 1;
                    }
                }
                if self.left == self.departures {
                    break;
                }
                std::mem::swap(&mut self.left, &mut self.departures);
            }
        }
        for (i, o) in self.offers.iter_mut().enumerate() {
            o.accepted = o.to & HOST != 0 || self.position[i] < self.take[o.to as usize];
        }
        if keyed {
            // Arrivals in key order, so that a receiver's messages mostly
            // append (equal keys keep the random order).
            for r in 0..n {
                let a = self.group[r] as usize;
                let b = (self.group[r + 1] as usize).min(a + self.take[r] as usize);
                let offers = &self.offers;
                self.order[a..b].sort_by_key(|&i| offers[i as usize].key);
            }
        }
    }

    /// Move the accepted messages and count the refused ones. Keys order
    /// the receivers' messages unless the balancer shuffles.
    fn apply(&mut self, now: u64, shuffle: bool, ep: &mut Endpoints) {
        let measuring = ep.measuring();
        for o in &self.offers {
            if o.accepted && o.from & HOST == 0 {
                self.held[o.from as usize][o.slot as usize].id = GONE;
            }
        }
        for (s, msgs) in self.held.iter_mut().enumerate() {
            if self.attempts[s] > 0 {
                msgs.retain(|m| m.id != GONE);
            }
        }
        let mut moved = false;
        for k in 0..self.order.len() {
            let o = self.offers[self.order[k] as usize];
            let ch = o.channel as usize;
            if !o.accepted {
                if o.from & HOST == 0 {
                    self.refused_total += 1;
                    if measuring {
                        self.refused_measured += 1;
                    }
                    self.traffic.refused[ch] += 1;
                } else {
                    self.admissions_refused += 1;
                }
                continue;
            }
            if o.to & HOST != 0 {
                moved = true;
                self.traffic.crossed[ch] += 1;
                self.in_network -= 1;
                ep.channel_traversal(ch, true, o.waited as u64);
                ep.entered_switches(o.id, o.switches);
                ep.flit_delivered(now, o.id, true);
                continue;
            }
            let r = o.to as usize;
            let (id, waited, key) = if o.from & HOST != 0 {
                let h = (o.from & !HOST) as usize;
                let Some(id) = ep.start(h, now) else {
                    continue;
                };
                ep.flit_injected();
                self.in_network += 1;
                let p = ep.packet(id);
                let key = if shuffle {
                    None
                } else {
                    ep.routings()
                        .last()
                        .and_then(|x| x.slice_policy())
                        .and_then(|x| x.send_key(r as u32, &p.info, &p.route, p.gen_cycle))
                };
                (id, now - p.gen_cycle, key.unwrap_or(0))
            } else {
                (o.id, o.waited as u64, o.key)
            };
            moved = true;
            self.traffic.crossed[ch] += 1;
            ep.channel_traversal(ch, true, waited);
            self.received[r] += 1;
            let m = Msg {
                id,
                in_port: o.in_port,
                arrived: now,
                key,
                switches: o.switches + 1,
            };
            let msgs = &mut self.held[r];
            if msgs.last().is_none_or(|l| l.key <= key) {
                msgs.push(m);
            } else {
                let at = msgs.partition_point(|x| x.key <= key);
                msgs.insert(at, m);
            }
        }
        if moved {
            ep.progress(now);
        }
    }
}

impl SwitchModel for TimeSlice {
    fn step(&mut self, now: u64, ep: &mut Endpoints) -> Result<(), SimError> {
        if ep.routings().len() != self.epochs {
            self.epochs = ep.routings().len();
            self.rekey(ep);
        }
        for h in 0..self.net.num_hosts() {
            ep.expire(h, now);
        }
        for s in 0..self.num_switches {
            self.occ_start[s] = self.held[s].len() as u32;
            self.received[s] = 0;
            self.attempts[s] = 0;
        }
        self.sent.fill(0);
        for (k, &to) in self.known.iter_mut().zip(&self.port_to) {
            *k = if to & HOST == 0 && to != NONE {
                self.occ_start[to as usize]
            } else {
                0
            };
        }
        self.traffic.slice = now;
        self.traffic.crossed.fill(0);
        self.traffic.refused.fill(0);
        let shuffle = match ep.routings().last().and_then(|r| r.slice_policy()) {
            Some(r) => {
                for s in 0..self.num_switches {
                    let free = self.params[s].buffer.saturating_sub(self.occ_start[s]);
                    self.quota[s] = r
                        .neighbour_quota(s as u32, free, self.degree[s])
                        .unwrap_or(u32::MAX);
                }
                r.shuffle_sends()
            }
            None => {
                self.quota.fill(u32::MAX);
                false
            }
        };
        self.offers.clear();
        for s in 0..self.num_switches {
            if !self.held[s].is_empty() {
                self.offers_of(s, now, shuffle, ep)?;
            }
        }
        for h in 0..self.net.num_hosts() {
            let host = self.net.host(h as u32);
            let channel = self.net.injection_channel(h as u32);
            for _ in 0..ep.queued_at(h) {
                self.offers.push(Offer {
                    from: HOST | h as u32,
                    slot: 0,
                    to: host.switch,
                    id: NONE,
                    channel,
                    in_port: host.port,
                    waited: 0,
                    key: 0,
                    switches: 0,
                    accepted: false,
                });
            }
        }
        self.accept(!shuffle);
        self.apply(now, shuffle, ep);
        ep.end_slice(now);
        Ok(())
    }

    fn flits_in_network(&self) -> u64 {
        self.in_network
    }

    /// Messages held by each channel's receiving switch that came in on it
    /// (servers' channels: 0).
    fn channel_occupancy(&self) -> Vec<u32> {
        let mut out = vec![0u32; self.net.num_channels()];
        for (s, msgs) in self.held.iter().enumerate() {
            for m in msgs {
                if let Some(c) = self.net.port(s as u32, m.in_port).in_channel {
                    out[c as usize] += 1;
                }
            }
        }
        out
    }

    fn switch_occupancy(&self) -> Vec<u32> {
        self.held.iter().map(|m| m.len() as u32).collect()
    }

    fn switch_capacity(&self) -> Vec<u32> {
        self.params.iter().map(|p| p.buffer).collect()
    }

    fn blocked_report(&self, _ep: &Endpoints) -> Vec<String> {
        let mut out: Vec<String> = self
            .held
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty())
            .map(|(s, m)| {
                format!(
                    "switch {s} holds {} of {} messages",
                    m.len(),
                    self.params[s].buffer
                )
            })
            .take(12)
            .collect();
        if out.len() == 12 {
            out.push("...".into());
        }
        out
    }

    /// Buffers within capacity, bw_in and bw_out respected in the last
    /// slice, every message held once by one switch, keys in order, and
    /// every request accounted for (begun = taken + dropped + waiting).
    fn check_invariants(&self, ep: &Endpoints) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        let mut held = 0u64;
        for (s, msgs) in self.held.iter().enumerate() {
            let p = self.params[s];
            if msgs.len() as u32 > p.buffer {
                return Err(format!(
                    "switch {s} holds {} messages, buffer {}",
                    msgs.len(),
                    p.buffer
                ));
            }
            if self.received[s] > p.bw_in {
                return Err(format!(
                    "switch {s} took {} messages in one slice, bw_in {}",
                    self.received[s], p.bw_in
                ));
            }
            if self.attempts[s] > p.bw_out {
                return Err(format!(
                    "switch {s} sent {} messages in one slice, bw_out {}",
                    self.attempts[s], p.bw_out
                ));
            }
            if msgs.windows(2).any(|w| w[0].key > w[1].key) {
                return Err(format!("switch {s}: messages out of send-key order"));
            }
            for m in msgs {
                if !seen.insert(m.id) {
                    return Err(format!("packet {} is held twice", m.id));
                }
                if ep.packet(m.id).info.dst_host as usize >= self.net.num_hosts() {
                    return Err(format!("switch {s} holds a bad packet {}", m.id));
                }
            }
            held += msgs.len() as u64;
        }
        if held != self.in_network {
            return Err(format!(
                "switches hold {held} messages, {} in the network",
                self.in_network
            ));
        }
        if held != ep.live_packets() as u64 {
            return Err(format!(
                "switches hold {held} messages, {} packets live",
                ep.live_packets()
            ));
        }
        if let Some(d) = ep.deadlines() {
            let (begun, dropped) = d.lifetime();
            let taken = ep.stats().lifetime().injected_packets;
            let waiting = ep.queued_packets();
            if begun != taken + dropped + waiting {
                return Err(format!(
                    "requests begun {begun} != taken {taken} + dropped {dropped} + waiting {waiting}"
                ));
            }
        }
        Ok(())
    }

    /// The λ at which ρ = 1: requests per server per slice under uniform
    /// traffic with uniform next-hop spreading
    /// ([`crate::topology::fat_tree_params::rho`]).
    fn capacity_per_host(&self) -> Option<f64> {
        let k = fat_tree_k(&self.net)?;
        let worst = uniform_load(k, 1.0)
            .iter()
            .zip(&self.params)
            .map(|(l, p)| l / p.bw_in.min(p.bw_out).max(1) as f64)
            .fold(0.0, f64::max);
        (worst > 0.0).then(|| 1.0 / worst)
    }

    /// Requests per server per slice: up to what the fastest access switch
    /// could take from its servers alone.
    fn max_load(&self) -> f64 {
        self.params
            .iter()
            .map(|p| p.bw_in)
            .max()
            .unwrap_or(1)
            .max(1) as f64
    }

    fn close_window(&mut self, now: u64) {
        if self.history.len() >= MAX_HISTORY {
            self.history.drain(..MAX_HISTORY / 2);
        }
        self.history.push_back((now, self.switch_occupancy()));
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
