//! Delivery feedback: what a source routing hears back about a delivered
//! packet, and how the acknowledgement travels.
//!
//! DRB's latency monitoring (Franco, Garcés and Luque §3.1) is the model:
//! a message records the cycles it is blocked by contention at every node
//! it crosses (equation 3's queueing delays); at the destination that
//! latency "is sent back to the sender by an acknowledge message" with
//! maximum priority. The engine offers the two readings of that sentence
//! ([`Acknowledgement`]); a routing asks for one with
//! [`Routing::acknowledgement`](super::Routing::acknowledgement) and hears
//! of each delivery in [`Routing::on_feedback`](super::Routing::on_feedback).

use super::state::{PacketInfo, RouteState};
use crate::topology::SwitchId;
use serde::{Deserialize, Serialize};

/// How a delivery is acknowledged to the source's routing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Acknowledgement {
    /// No feedback (every static and oblivious routing).
    #[default]
    None,
    /// A modelled delay, no traffic: the source hears of a delivery at
    /// `t_tail + H·(switch_delay + link_latency) + 1`, where `t_tail` is the
    /// cycle the tail flit reached the destination host and H the number of
    /// switches on the topology's static minimal route from the destination
    /// switch back to the source switch (both ends included). With one-cycle
    /// links this is exactly the zero-load latency of a one-flit
    /// acknowledgement packet, so the two modes agree on an idle network.
    Delay,
    /// A real one-flit acknowledgement packet from the destination host to
    /// the source host, on a virtual-channel class of its own (the top VCs
    /// of every port: two on tori and midimew for the dateline, one
    /// elsewhere), routed by the topology's static minimal routing, first
    /// in line at its host and first in switch allocation. Its flits load
    /// the channels (per-channel counters include them); it is not counted
    /// in the data statistics. The source hears of the delivery in the
    /// cycle the acknowledgement reaches the source host.
    Packet,
}

impl Acknowledgement {
    pub const ACCEPTED: &'static str = "delay, packet";
    pub fn as_str(&self) -> &'static str {
        match self {
            Acknowledgement::None => "none",
            Acknowledgement::Delay => "delay",
            Acknowledgement::Packet => "packet",
        }
    }
}

/// What the source routing hears about one delivered packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feedback {
    pub pkt: PacketInfo,
    /// The packet's route state as delivered: [`RouteState::path`] tells
    /// which of the routing's paths it took.
    pub state: RouteState,
    /// Cycle the packet was generated (entered its source queue).
    pub gen_cycle: u64,
    /// Cycle its head left the source host.
    pub inject_cycle: u64,
    /// Cycle its tail reached the destination host.
    pub delivered_cycle: u64,
    /// Cycle the source hears of it (the cycle `on_feedback` is called).
    pub heard_cycle: u64,
    /// Cycles the packet's head spent blocked inside the network: over every
    /// switch it crossed, the cycles from entering the input buffer to
    /// leaving on the output channel, beyond the cycle it could have left
    /// at the earliest (source queueing excluded). The sum over packets
    /// equals the sum of the per-channel `queueing_delay` counters.
    pub blocked_cycles: u64,
    /// Switches the packet crossed (source and destination switch included).
    pub switches: u16,
}

impl Feedback {
    /// Generation to tail delivery (source queueing included), the
    /// simulator's packet latency.
    pub fn latency(&self) -> u64 {
        self.delivered_cycle - self.gen_cycle
    }
    /// Head injection to tail delivery (source queueing excluded).
    pub fn network_latency(&self) -> u64 {
        self.delivered_cycle - self.inject_cycle
    }
    /// The destination switch, which sends the acknowledgement.
    pub fn from_switch(&self) -> SwitchId {
        self.pkt.dst_switch
    }
}
