//! The stepped, cycle-level simulation core.
//!
//! [`Simulation::step`] advances exactly one cycle; [`Simulation::run_for`]
//! and [`Simulation::run_until`] run many. The GUI steps a few cycles per
//! frame; the CLI runs flat out. The switch is a replaceable
//! [`SwitchModel`]; [`InputQueued`] is the virtual-channel router.

mod config;
mod engine;
mod histogram;
mod input_queued;
mod model;
mod packet;
mod stats;
mod summary;
mod timewheel;

pub use config::{PortPriority, SimConfig, Switching};
pub use engine::{Simulation, TrafficConfig};
pub use histogram::Histogram;
pub use input_queued::InputQueued;
pub use model::{PortOccupancy, QueuedPacket, SimError, StepIo, SwitchModel};
pub use packet::{Packet, PacketSlab};
pub use stats::{ChannelCounters, Stats, WindowSample};
pub use summary::Summary;
