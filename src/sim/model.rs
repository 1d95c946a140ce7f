//! The switch model interface: what the engine asks of a network of switches
//! each cycle. The input-queued virtual-channel router
//! ([`super::InputQueued`]) is the only model today; another one (such as
//! the fat-tree paper's node-level shared buffer with per-slice `bw_in` /
//! `bw_out`, not implemented) would implement this trait.

use super::packet::PacketSlab;
use super::stats::Stats;
use crate::rng::SimRng;
use crate::routing::Routing;
use std::collections::VecDeque;

/// A packet waiting in a host's source queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPacket {
    pub dst: u32,
    pub gen_cycle: u64,
}

/// Everything a model may touch during one cycle besides itself.
pub struct StepIo<'a> {
    /// Source queues, one per host (the model pops from them).
    pub sources: &'a mut [VecDeque<QueuedPacket>],
    /// Routings by epoch; new packets use the last one.
    pub routings: &'a mut [Box<dyn Routing>],
    /// The routing random stream.
    pub rng: &'a mut SimRng,
    pub stats: &'a mut Stats,
    pub packets: &'a mut PacketSlab,
    /// True once the warm-up is over.
    pub measuring: bool,
}

/// Why a simulation stopped.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum SimError {
    /// Flits in the network and none moved for the watchdog period. The run
    /// cannot go on.
    #[error("deadlock at cycle {cycle}: {flits} flits in the network and none moved for {idle} cycles; blocked: {}", blocked.join("; "))]
    Deadlock {
        cycle: u64,
        flits: u64,
        idle: u64,
        blocked: Vec<String>,
    },
    /// A routing offered no next hop for a packet. The run cannot go on.
    #[error(
        "routing `{routing}` offered no next hop at switch {switch} for a packet to switch {dst}"
    )]
    NoRoute {
        routing: String,
        switch: u32,
        dst: u32,
    },
}

/// Per-VC occupancy of one input port, for detail views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortOccupancy {
    pub channel: u32,
    /// Flits buffered per virtual channel.
    pub flits: Vec<u16>,
}

/// A network of switches that moves flits one cycle at a time.
pub trait SwitchModel: Send {
    /// Advance one cycle: deliver due flits and credits, inject from source
    /// queues, route, allocate and traverse.
    fn step(&mut self, now: u64, io: &mut StepIo<'_>) -> Result<(), SimError>;
    /// Flits inside the network (buffers and channels).
    fn flits_in_network(&self) -> u64;
    /// Flits buffered at the downstream end of each channel (all VCs).
    fn channel_occupancy(&self) -> Vec<u32>;
    /// Buffer occupancy of every input port of a switch.
    fn switch_occupancy(&self, switch: u32) -> Vec<PortOccupancy>;
    /// Check flow-control invariants; an error names the first violation.
    fn check_invariants(&self, packets: &PacketSlab) -> Result<(), String>;
}
