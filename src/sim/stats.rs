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
use serde::Serialize;

/// One running-window sample for live curves.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct WindowSample {
    /// Cycle at the end of the window.
    pub cycle: u64,
    /// Flits delivered per host per cycle in the window.
    pub accepted: f64,
    /// Flits generated per host per cycle in the window.
    pub offered: f64,
    /// Mean latency of packets delivered in the window (0 if none).
    pub avg_latency: f64,
    /// Packets in the network at the end of the window.
    pub in_flight_packets: u64,
    /// Packets waiting in source queues at the end of the window.
    pub queued_packets: u64,
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

/// Accumulators.
#[derive(Clone, Debug)]
pub struct Stats {
    pub(crate) measure_start: u64,
    pub(crate) latency: Histogram,
    pub(crate) generated_flits: u64,
    pub(crate) delivered_flits: u64,
    pub(crate) delivered_packets: u64,
    pub(crate) injected_packets: u64,
    pub(crate) hops_sum: u64,
    /// Per channel id (one struct: the hot path touches one cache line).
    pub(crate) channels: Vec<ChannelCounters>,
    pub(crate) by_dst_switch: Vec<(u64, u64)>,
    pub(crate) by_src_switch: Vec<(u64, u64)>,
    // Lifetime counters (never reset).
    pub(crate) total_injected_packets: u64,
    pub(crate) total_delivered_packets: u64,
    pub(crate) total_injected_flits: u64,
    pub(crate) total_delivered_flits: u64,
    // Current window.
    pub(crate) win_delivered_flits: u64,
    pub(crate) win_generated_flits: u64,
    pub(crate) win_latency_sum: u64,
    pub(crate) win_packets: u64,
    pub(crate) windows: Vec<WindowSample>,
}

/// Most window samples kept (older ones are dropped in halves).
pub const MAX_WINDOWS: usize = 20_000;

impl Stats {
    pub fn new(channels: usize, switches: usize) -> Self {
        Stats {
            measure_start: 0,
            latency: Histogram::default(),
            generated_flits: 0,
            delivered_flits: 0,
            delivered_packets: 0,
            injected_packets: 0,
            hops_sum: 0,
            channels: vec![ChannelCounters::default(); channels],
            by_dst_switch: vec![(0, 0); switches],
            by_src_switch: vec![(0, 0); switches],
            total_injected_packets: 0,
            total_delivered_packets: 0,
            total_injected_flits: 0,
            total_delivered_flits: 0,
            win_delivered_flits: 0,
            win_generated_flits: 0,
            win_latency_sum: 0,
            win_packets: 0,
            windows: Vec::new(),
        }
    }

    /// Start measuring at `now`: clear the measured counters.
    pub(crate) fn reset(&mut self, now: u64) {
        let channels = self.channels.len();
        let switches = self.by_dst_switch.len();
        let keep = Stats {
            total_injected_packets: self.total_injected_packets,
            total_delivered_packets: self.total_delivered_packets,
            total_injected_flits: self.total_injected_flits,
            total_delivered_flits: self.total_delivered_flits,
            windows: std::mem::take(&mut self.windows),
            win_delivered_flits: self.win_delivered_flits,
            win_generated_flits: self.win_generated_flits,
            win_latency_sum: self.win_latency_sum,
            win_packets: self.win_packets,
            ..Stats::new(channels, switches)
        };
        *self = keep;
        self.measure_start = now;
    }

    pub(crate) fn close_window(&mut self, sample: WindowSample) {
        if self.windows.len() >= MAX_WINDOWS {
            self.windows.drain(..MAX_WINDOWS / 2);
        }
        self.windows.push(sample);
        self.win_delivered_flits = 0;
        self.win_generated_flits = 0;
        self.win_latency_sum = 0;
        self.win_packets = 0;
    }

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
}
