//! Statistics gathered after the warm-up, and running windows for live
//! curves.
//!
//! Measurement: counters reset when the warm-up ends. Accepted throughput is
//! the flits delivered to hosts during the measured cycles divided by hosts
//! and cycles. Latency (generation to delivery of the tail, source queueing
//! included) is taken over packets generated after the warm-up and
//! delivered by the end of the run. Channel utilization is flits sent on the
//! channel per measured cycle; channel queueing delay is the mean number of
//! cycles a packet's head waited at the switch before leaving on that
//! channel (0 when it left in the cycle it arrived).

use super::histogram::Histogram;
use super::pairs::{PairSample, PairStats};
use serde::Serialize;

/// One running-window sample for live curves: the cycles `start..cycle`.
///
/// Windows end on the multiples of the measurement's `window_cycles`, and
/// also where the routing is swapped ([`crate::sim::Simulation::set_routing`]),
/// so that every window was measured under one routing. A window cut by a
/// swap is shorter than `window_cycles` ([`WindowSample::cycles`]); its rates
/// are still per cycle of its own length.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct WindowSample {
    /// Cycle at the start of the window (the first cycle it counts).
    pub start: u64,
    /// Cycle at the end of the window (one past the last cycle it counts).
    pub cycle: u64,
    /// Flits delivered per host per cycle in the window.
    pub accepted: f64,
    /// Flits generated per host per cycle in the window.
    pub offered: f64,
    /// Mean latency of packets delivered in the window (0 if none:
    /// [`WindowSample::latency`] says which).
    pub avg_latency: f64,
    /// Data packets delivered in the window (whose latencies
    /// `avg_latency` averages).
    pub delivered_packets: u64,
    /// Packets in the network at the end of the window.
    pub in_flight_packets: u64,
    /// Packets waiting in source queues at the end of the window.
    pub queued_packets: u64,
}

impl WindowSample {
    /// The cycles the window counts.
    pub fn cycles(&self) -> u64 {
        self.cycle - self.start
    }
    /// The window's mean packet latency, `None` when no packet was
    /// delivered in it (a mean over no packets is not a latency of 0).
    pub fn latency(&self) -> Option<f64> {
        (self.delivered_packets > 0).then_some(self.avg_latency)
    }
}

/// Per-channel counters since measurement started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelCounters {
    /// Flits sent on the channel.
    pub flits: u64,
    /// Sum over head flits of the cycles each waited in the buffer feeding
    /// the channel (from arriving there to leaving on the channel).
    pub wait_sum: u64,
    /// Head flits sent on the channel.
    pub heads: u64,
}

impl ChannelCounters {
    /// A flit left on the channel; `waited` is the cycles a head flit
    /// spent in the buffer feeding it (ignored for body flits).
    #[inline(always)]
    pub(crate) fn traversal(&mut self, head: bool, waited: u64) {
        self.flits += 1;
        if head {
            self.wait_sum += waited;
            self.heads += 1;
        }
    }
}

/// Accumulators. Written only through the recording methods, which the
/// endpoint layer and the switch models call.
#[derive(Clone, Debug)]
pub struct Stats {
    measure_start: u64,
    latency: Histogram,
    generated_flits: u64,
    delivered_flits: u64,
    delivered_packets: u64,
    injected_packets: u64,
    hops_sum: u64,
    /// Cycles the measured packets delivered waited in their source queue,
    /// in all (for their network latency, [`Stats::mean_network_latency`]).
    queued_sum: u64,
    /// Per channel id (one struct: the hot path touches one cache line).
    channels: Vec<ChannelCounters>,
    by_dst_switch: Vec<(u64, u64)>,
    by_src_switch: Vec<(u64, u64)>,
    /// Per source host: packets generated since measurement started, and
    /// how many of those have been delivered.
    generated_by_source: Vec<u64>,
    delivered_by_source: Vec<u64>,
    // Lifetime counters (never reset).
    total_injected_packets: u64,
    total_delivered_packets: u64,
    total_injected_flits: u64,
    total_delivered_flits: u64,
    total_acks: u64,
    // Current window.
    win_delivered_flits: u64,
    win_generated_flits: u64,
    win_latency_sum: u64,
    win_packets: u64,
    /// The cycle the current window started.
    win_start: u64,
    windows: Vec<WindowSample>,
    /// Per-pair statistics, when the run asks for them.
    pairs: Option<PairStats>,
}

/// Most window samples kept (older ones are dropped in halves).
pub const MAX_WINDOWS: usize = 20_000;

impl Stats {
    pub fn new(channels: usize, switches: usize, hosts: usize) -> Self {
        Stats {
            measure_start: 0,
            latency: Histogram::default(),
            generated_flits: 0,
            delivered_flits: 0,
            delivered_packets: 0,
            injected_packets: 0,
            hops_sum: 0,
            queued_sum: 0,
            channels: vec![ChannelCounters::default(); channels],
            by_dst_switch: vec![(0, 0); switches],
            by_src_switch: vec![(0, 0); switches],
            generated_by_source: vec![0; hosts],
            delivered_by_source: vec![0; hosts],
            total_injected_packets: 0,
            total_delivered_packets: 0,
            total_injected_flits: 0,
            total_delivered_flits: 0,
            total_acks: 0,
            win_delivered_flits: 0,
            win_generated_flits: 0,
            win_latency_sum: 0,
            win_packets: 0,
            win_start: 0,
            windows: Vec::new(),
            pairs: None,
        }
    }

    /// Gather per-pair statistics from now on ([`PairStats`]); `hot` lists
    /// the hot-spot hosts of the traffic, if any.
    pub(crate) fn enable_pairs(&mut self, hosts: usize, hot: &[u32]) {
        if self.pairs.is_none() {
            self.pairs = Some(PairStats::new(hosts, hot));
        }
    }

    /// Start measuring at `now`: clear the measured counters.
    pub(crate) fn reset(&mut self, now: u64) {
        let channels = self.channels.len();
        let switches = self.by_dst_switch.len();
        let hosts = self.generated_by_source.len();
        let keep = Stats {
            total_injected_packets: self.total_injected_packets,
            total_delivered_packets: self.total_delivered_packets,
            total_injected_flits: self.total_injected_flits,
            total_delivered_flits: self.total_delivered_flits,
            total_acks: self.total_acks,
            windows: std::mem::take(&mut self.windows),
            win_delivered_flits: self.win_delivered_flits,
            win_generated_flits: self.win_generated_flits,
            win_latency_sum: self.win_latency_sum,
            win_packets: self.win_packets,
            win_start: self.win_start,
            pairs: self.pairs.as_ref().map(PairStats::cleared),
            ..Stats::new(channels, switches, hosts)
        };
        *self = keep;
        self.measure_start = now;
    }

    // --- Recording -------------------------------------------------------

    /// `packets` packets of `flits` flits in all generated at host `src`
    /// this cycle.
    #[inline]
    pub(crate) fn generated(&mut self, src: u32, packets: u64, flits: u64, measuring: bool) {
        self.win_generated_flits += flits;
        if measuring {
            self.generated_flits += flits;
            self.generated_by_source[src as usize] += packets;
        }
    }

    /// A packet left its source host (acknowledgements included in the
    /// lifetime count, not in the measured one).
    #[inline]
    pub(crate) fn injected_packet(&mut self, measuring: bool, data: bool) {
        self.total_injected_packets += 1;
        if measuring & data {
            self.injected_packets += 1;
        }
    }

    /// A flit entered the network from a host.
    #[inline]
    pub(crate) fn injected_flit(&mut self) {
        self.total_injected_flits += 1;
    }

    /// A flit of a data packet reached its destination host.
    #[inline]
    pub(crate) fn delivered_flit(&mut self, measuring: bool) {
        self.total_delivered_flits += 1;
        self.win_delivered_flits += 1;
        if measuring {
            self.delivered_flits += 1;
        }
    }

    /// An acknowledgement packet (one flit) reached its host.
    #[inline]
    pub(crate) fn delivered_ack(&mut self) {
        self.total_delivered_flits += 1;
        self.total_delivered_packets += 1;
        self.total_acks += 1;
    }

    /// A data packet's tail reached its destination host.
    #[inline]
    pub(crate) fn delivered_packet(&mut self, d: DeliveredPacket, measuring: bool) {
        self.total_delivered_packets += 1;
        self.win_packets += 1;
        self.win_latency_sum += d.latency;
        if measuring && d.gen_cycle >= self.measure_start {
            self.delivered_packets += 1;
            self.latency.record(d.latency);
            self.hops_sum += d.hops;
            self.queued_sum += d.queued;
            let x = &mut self.by_dst_switch[d.dst_switch as usize];
            x.0 += d.latency;
            x.1 += 1;
            let x = &mut self.by_src_switch[d.src_switch as usize];
            x.0 += d.latency;
            x.1 += 1;
            if let Some(p) = &mut self.pairs {
                p.record(PairSample {
                    src_host: d.src_host,
                    dst_host: d.dst_host,
                    gen_cycle: d.gen_cycle,
                    latency: d.latency,
                    queued: d.queued,
                    blocked: d.blocked,
                    flits: d.flits,
                });
            }
            self.delivered_by_source[d.src_host as usize] += 1;
        }
    }

    /// A flit left on `channel`; `waited` is the cycles a head flit spent
    /// in the buffer feeding it (ignored for body flits). Call only while
    /// measuring.
    #[inline]
    pub(crate) fn channel_traversal(&mut self, channel: usize, head: bool, waited: u64) {
        self.channels[channel].traversal(head, waited);
    }

    /// The per-channel counters, for the two threads of one cycle's
    /// allocation to update each its own channels'
    /// ([`crate::sim::shared_hops::SharedHops`]).
    pub(crate) fn channels_mut(&mut self) -> &mut [ChannelCounters] {
        &mut self.channels
    }

    pub(crate) fn close_window(&mut self, sample: WindowSample) {
        if self.windows.len() >= MAX_WINDOWS {
            self.windows.drain(..MAX_WINDOWS / 2);
        }
        self.win_start = sample.cycle;
        self.windows.push(sample);
        self.win_delivered_flits = 0;
        self.win_generated_flits = 0;
        self.win_latency_sum = 0;
        self.win_packets = 0;
    }

    // --- Reading ---------------------------------------------------------

    /// Running-window samples, oldest first.
    pub fn windows(&self) -> &[WindowSample] {
        &self.windows
    }
    /// Per-channel counters (by channel id) since measurement started.
    pub fn channels(&self) -> &[ChannelCounters] {
        &self.channels
    }
    /// Cycle measurement started.
    pub fn measure_start(&self) -> u64 {
        self.measure_start
    }
    /// Latencies of measured packets.
    pub fn latency(&self) -> &Histogram {
        &self.latency
    }
    /// Flits generated at the sources since measurement started.
    pub fn generated_flits(&self) -> u64 {
        self.generated_flits
    }
    /// Data flits delivered since measurement started.
    pub fn delivered_flits(&self) -> u64 {
        self.delivered_flits
    }
    /// Measured packets delivered.
    pub fn delivered_packets(&self) -> u64 {
        self.delivered_packets
    }
    /// Data packets that left their source since measurement started.
    pub fn injected_packets(&self) -> u64 {
        self.injected_packets
    }
    /// Switch-to-switch hops of the measured packets delivered.
    pub fn hops_sum(&self) -> u64 {
        self.hops_sum
    }
    /// Cycles the measured packets delivered spent in their source queues,
    /// in all.
    pub fn queued_sum(&self) -> u64 {
        self.queued_sum
    }
    /// Mean network latency of the measured packets delivered: head
    /// injection to tail delivery, the mean latency less the mean wait in
    /// the source queue (0 when none was delivered).
    pub fn mean_network_latency(&self) -> f64 {
        if self.delivered_packets == 0 {
            return 0.0;
        }
        self.latency.mean() - self.queued_sum as f64 / self.delivered_packets as f64
    }
    /// Per-pair statistics, when the run gathers them.
    pub fn pairs(&self) -> Option<&PairStats> {
        self.pairs.as_ref()
    }
    /// Per source host: measured packets generated.
    pub fn generated_by_source(&self) -> &[u64] {
        &self.generated_by_source
    }
    /// Per source host: measured packets delivered.
    pub fn delivered_by_source(&self) -> &[u64] {
        &self.delivered_by_source
    }
    /// Per destination switch: (latency sum, packets).
    pub fn by_dst_switch(&self) -> &[(u64, u64)] {
        &self.by_dst_switch
    }
    /// Per source switch: (latency sum, packets).
    pub fn by_src_switch(&self) -> &[(u64, u64)] {
        &self.by_src_switch
    }
    /// The smallest share, over source hosts that generated packets since
    /// measurement started, of those packets already delivered (1 when
    /// none generated). The network is saturated for some flow when it
    /// falls: Dally and Towles measure throughput as the minimum over
    /// sources, since past saturation some sources are served less than
    /// others.
    pub fn min_source_delivery(&self) -> f64 {
        self.generated_by_source
            .iter()
            .zip(&self.delivered_by_source)
            .filter(|(g, _)| **g > 0)
            .map(|(&g, &d)| d as f64 / g as f64)
            .fold(1.0, f64::min)
    }
    /// Packets (data and acknowledgements) ever injected and delivered, and
    /// flits ever injected and delivered: for conservation checks.
    pub fn lifetime(&self) -> Lifetime {
        Lifetime {
            injected_packets: self.total_injected_packets,
            delivered_packets: self.total_delivered_packets,
            injected_flits: self.total_injected_flits,
            delivered_flits: self.total_delivered_flits,
            acks_delivered: self.total_acks,
        }
    }
    /// The cycle the current window started.
    pub(crate) fn window_start(&self) -> u64 {
        self.win_start
    }
    /// The current window's counters: (delivered flits, generated flits,
    /// latency sum, packets).
    pub(crate) fn window_counters(&self) -> (u64, u64, u64, u64) {
        (
            self.win_delivered_flits,
            self.win_generated_flits,
            self.win_latency_sum,
            self.win_packets,
        )
    }
}

/// Lifetime counters (never reset), data and acknowledgements together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetime {
    pub injected_packets: u64,
    pub delivered_packets: u64,
    pub injected_flits: u64,
    pub delivered_flits: u64,
    pub acks_delivered: u64,
}

/// What the statistics record of a delivered data packet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeliveredPacket {
    pub latency: u64,
    pub gen_cycle: u64,
    pub hops: u64,
    pub src_switch: u32,
    pub dst_switch: u32,
    pub src_host: u32,
    pub dst_host: u32,
    /// Cycles in the source queue and blocked in the network.
    pub queued: u64,
    pub blocked: u64,
    pub flits: u64,
}
