//! Traffic: who sends to whom ([`pattern`]) and when ([`injection`]).

pub mod clocks;
pub mod injection;
pub mod pattern;

pub use clocks::HostClocks;
pub use injection::{Arrivals, Process};
pub use pattern::{Pattern, PatternSpec, TrafficError};
