//! Traffic: who sends to whom ([`pattern`]) and when ([`injection`]).

pub mod clocks;
pub mod fixed;
pub mod injection;
pub mod kind;
pub mod pattern;
pub mod patterns;
pub mod registry;
pub mod spec;

pub use clocks::HostClocks;
pub use injection::{Arrivals, Process};
pub use kind::{TrafficBuild, TrafficKind};
pub use pattern::{Pattern, TrafficError};
pub use spec::PatternSpec;
