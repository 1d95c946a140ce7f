//! The stepped, cycle-level simulation core.
//!
//! [`Simulation::step`] advances exactly one cycle; [`Simulation::run_for`]
//! and [`Simulation::run_until`] run many. The GUI steps a few cycles per
//! frame; the CLI runs flat out.
//!
//! Two layers: the endpoint layer ([`Endpoints`]: traffic sources, packets,
//! routing calls at the source and at every hop, statistics, delivery
//! feedback, the deadlock watchdog) and a switch model ([`SwitchModel`])
//! that only moves flits between buffers. [`InputQueued`] is the
//! virtual-channel router; a scenario chooses it in `switch_model`.

mod acknowledge;
mod config;
mod endpoints;
mod engine;
mod histogram;
mod input_queued;
mod model;
mod packet;
mod pairs;
mod stats;
mod summary;
mod timewheel;
mod watchdog;

pub use config::{MeasureConfig, PortPriority, RouterConfig, SwitchModelKind, Switching};
pub use endpoints::{Endpoints, Next, TrafficConfig};
pub use engine::Simulation;
pub use histogram::Histogram;
pub use input_queued::InputQueued;
pub use model::{PortOccupancy, QueuedPacket, SimError, SwitchModel};
pub use packet::{ACK_EPOCH, Packet, PacketSlab};
pub use pairs::{PairCounter, PairStats, coefficient_of_variation};
pub use stats::{ChannelCounters, Lifetime, Stats, WindowSample};
pub use summary::{PaperMetrics, Summary};
pub use watchdog::Watchdog;
