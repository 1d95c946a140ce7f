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
//! virtual-channel router, [`OutputQueued`] an ideal switch that leaves the
//! channels as the only limit, [`TimeSlice`] the weighted-path paper's fat
//! tree of unlike switches deciding once per time slice (one step = one
//! slice); a scenario chooses one in `switch_model`, by its name in the
//! switch-model registry ([`MODELS`]).

mod acknowledge;
mod bits;
mod config;
mod deadline;
mod digest;
mod endpoints;
mod engine;
mod error;
#[cfg(not(target_arch = "wasm32"))]
mod helper_thread;
mod histogram;
mod hop_calls;
mod input_queued;
pub mod knee;
mod model;
mod model_kind;
mod models;
mod output_queued;
mod packet;
mod pairs;
mod prefetch;
mod route_fault;
mod shared_hops;
mod stats;
mod summary;
mod timeslice;
mod timewheel;
mod watchdog;

pub use config::{DEFAULT_DEADLINE_SLICES, MeasureConfig, PortPriority, RouterConfig, Switching};
pub use deadline::{Deadlines, SuccessWindow};
pub use digest::{Digest, DigestMismatch};
pub use endpoints::{Endpoints, Next, QueuedPacket, TrafficConfig};
pub use engine::Simulation;
pub use error::SimError;
#[cfg(all(feature = "gui", not(target_arch = "wasm32")))]
pub(crate) use helper_thread::HelperThread;
pub use histogram::Histogram;
pub use input_queued::InputQueued;
pub use knee::{KneeJob, KneeProgress, KneeSetup, knee_for};
pub use model::{PortOccupancy, SwitchModel};
pub use model_kind::{CYCLES, StepUnit, SwitchModelEntry, SwitchModelKind, per_cycle_routing};
pub use models::MODELS;
pub use output_queued::OutputQueued;
pub use packet::{ACK_EPOCH, Packet, PacketSlab};
pub use pairs::{PairCounter, PairStats, coefficient_of_variation};
pub use stats::{ChannelCounters, Lifetime, Stats, WindowSample};
pub use summary::{
    PaperMetrics, RequestCounts, RunInfo, SATURATION_ACCEPTED_SHARE, Summary, saturated,
};
pub use timeslice::{SliceTraffic, TimeSlice};
pub use watchdog::Watchdog;
