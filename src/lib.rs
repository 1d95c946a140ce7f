//! # routelab
//!
//! A cycle-level interconnection-network simulator built to *show* load
//! balancing: where a path choice creates a hot spot, how a balancer removes
//! it, and what it costs in latency and throughput.
//!
//! The model, in prose. A [`topology::Network`] is switches with numbered
//! ports, hosts attached to switches and directed channels with stable ids.
//! A [`sim::Simulation`] advances it one cycle per [`sim::Simulation::step`]:
//! hosts generate packets ([`traffic`]) into unbounded source queues; packets
//! of L flits cross input-queued switches with V virtual channels per input
//! port and credit flow control; a [`routing::Routing`] decides, at the source
//! or at each hop, which output ports and virtual channels a packet may take;
//! a selection policy picks among them with local buffer state. Statistics
//! are gathered after a warm-up. Everything is seeded and deterministic.
//!
//! Nothing outside `app` (the GUI, behind the `gui` feature) imports egui.

// `unsafe` is denied crate-wide (Cargo.toml) and allowed only at the few
// engine sites that need it; each of those says, in a `SAFETY:` comment,
// what makes it sound.
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

pub mod analysis;
pub mod env_knobs;
pub mod limits;
pub mod paths;
pub mod rng;
pub mod routing;
pub mod scenario;
pub mod sim;
pub mod spec_options;
pub mod topology;
pub mod traffic;

#[cfg(feature = "gui")]
pub mod app;

#[cfg(not(target_arch = "wasm32"))]
pub mod campaign;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
