//! The traffic patterns, one family a file, each with its registry entry
//! ([`super::registry::KINDS`]).

pub mod adversarial;
pub mod bits;
pub mod hotspot;
pub mod neighbours;
pub mod randperm;
pub mod tornado;
pub mod uniform;
