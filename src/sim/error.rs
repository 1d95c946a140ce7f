//! Why a simulation stopped ([`SimError`]).

use crate::topology::PortId;

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
    /// The run's queues grew past [`crate::limits::MAX_RUN_QUEUE_BYTES`]
    /// (far past saturation, source queues grow without bound). The run
    /// cannot go on.
    #[error("stopped at cycle {cycle}: {what}")]
    Limit { cycle: u64, what: String },
    /// A routing offered no next hop for a packet. The run cannot go on.
    #[error(
        "routing `{routing}` offered no next hop at switch {switch} for a packet to switch {dst}"
    )]
    NoRoute {
        routing: String,
        switch: u32,
        dst: u32,
    },
    /// A routing offered a port the switch does not have or virtual
    /// channels outside the packet's class. The run cannot go on.
    #[error(
        "routing `{routing}` offered port {port} VCs {vc_lo}..={vc_hi} at switch {switch}; accepted ports 0..{ports} and VCs inside 0..{vcs}"
    )]
    BadCandidate {
        routing: String,
        switch: u32,
        port: PortId,
        vc_lo: u8,
        vc_hi: u8,
        ports: usize,
        vcs: u8,
    },
}
