//! An oblivious routing's exact law on any network, as the channel-load
//! analysis reads it when the per-dimension product form of the tori
//! ([`super::Law`]) does not apply: for a pair of switches, the paths a
//! packet may take with their probabilities over one common denominator
//! (a leaf: the registry's vocabulary and the routings import it).

use crate::topology::{ChannelId, SwitchId};

/// The exact distribution over switch-to-switch paths of an oblivious
/// routing, per (source switch, destination switch). The analysis sums it
/// against a traffic matrix ([`crate::analysis::network_loads`]).
pub trait PathLaw: Send + Sync + std::fmt::Debug {
    /// The routing's name, as the simulator's routing gives it.
    fn name(&self) -> String;
    /// The denominator D every path weight is over.
    fn denominator(&self) -> i128;
    /// Every path from switch `s` to switch `d` (`s != d`) with its weight
    /// w (probability w/D, the weights summing to D), as the network's
    /// channel ids crossed in order. The same path may appear more than
    /// once (weights add).
    fn paths(&self, s: SwitchId, d: SwitchId) -> Vec<(i128, Vec<ChannelId>)>;
}
