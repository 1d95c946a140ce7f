//! What the network view colours channels by ([`Metric`], [`Colouring`]),
//! what is drawn over it ([`Overlay`]) and what is selected in it
//! ([`Selected`]): shared by the network view,
//! the fat-tree view and the panels, so none of them imports another's
//! drawing code for its types.

use crate::sim::Simulation;
use crate::topology::{ChannelId, SwitchId};
use egui::Color32;
use serde::{Deserialize, Serialize};

/// The per-channel value the view colours by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Metric {
    #[default]
    Utilization,
    QueueingDelay,
    Occupancy,
    /// The current routing's own per-channel values
    /// ([`Simulation::routing_channel_values`]): crossing paths of
    /// path-selection tables.
    CrossingPaths,
}

impl Metric {
    pub const ALL: [Metric; 4] = [
        Metric::Utilization,
        Metric::QueueingDelay,
        Metric::Occupancy,
        Metric::CrossingPaths,
    ];
    /// The name tours and settings use.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Utilization => "utilization",
            Metric::QueueingDelay => "queueing_delay",
            Metric::Occupancy => "occupancy",
            Metric::CrossingPaths => "crossing_paths",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Metric::Utilization => "Utilization",
            Metric::QueueingDelay => "Queueing delay",
            Metric::Occupancy => "Buffer occupancy",
            Metric::CrossingPaths => "Crossing paths",
        }
    }
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Utilization => "flits/cycle",
            Metric::QueueingDelay => "cycles",
            Metric::Occupancy => "flits",
            Metric::CrossingPaths => "paths",
        }
    }
    pub fn help(self) -> &'static str {
        match self {
            Metric::Utilization => {
                "Flits sent on the channel per cycle since measurement started (1 = always busy)"
            }
            Metric::QueueingDelay => {
                "Mean cycles a packet's head waited at the switch before leaving on the channel"
            }
            Metric::Occupancy => "Flits buffered at the channel's downstream end right now",
            Metric::CrossingPaths => {
                "Chosen routing paths (one per switch pair) crossing the channel, from the routing's own tables (Villalobos et al. §3); only path-selection routings (paths:...) provide it"
            }
        }
    }
    /// Whether `sim`'s current routing provides this metric (only
    /// [`Metric::CrossingPaths`] may be missing).
    pub fn available(self, sim: &Simulation) -> bool {
        match self {
            Metric::CrossingPaths => sim.routing_channel_values().is_some(),
            _ => true,
        }
    }
    /// The value of every channel.
    /// Measured since the warm-up ended (rather than a snapshot or a
    /// property of the routing).
    pub fn since_warmup(self) -> bool {
        matches!(self, Metric::Utilization | Metric::QueueingDelay)
    }

    pub fn values(self, sim: &Simulation) -> Vec<f64> {
        match self {
            Metric::Utilization => sim.channel_utilization(),
            Metric::QueueingDelay => sim.channel_queueing_delay(),
            Metric::Occupancy => sim
                .channel_occupancy()
                .into_iter()
                .map(|x| x as f64)
                .collect(),
            Metric::CrossingPaths => sim
                .routing_channel_values()
                .map(|(_, v)| v)
                .unwrap_or_else(|| vec![0.0; sim.network().num_channels()]),
        }
    }
}

/// What the channels are coloured by: a label and unit for the legend and
/// tooltips, and one value per channel id.
#[derive(Clone, Debug, PartialEq)]
pub struct Colouring {
    pub label: String,
    pub unit: String,
    pub values: Vec<f64>,
}

impl Colouring {
    /// The smallest and largest finite values of `net`'s switch-to-switch
    /// channels (the colour range; hosts' channels are not drawn): `(0, 0)`
    /// without any, and the smallest never above the largest, which is at
    /// least 0.
    pub fn network_range(&self, net: &crate::topology::Network) -> (f64, f64) {
        let finite = || {
            self.values
                .iter()
                .take(net.num_network_channels())
                .copied()
                .filter(|v| v.is_finite())
        };
        let max = finite().fold(0.0f64, f64::max);
        let min = finite().fold(f64::MAX, f64::min).min(max);
        (min, max)
    }

    /// A metric of `sim` (a missing routing quantity colours everything 0
    /// and says so in the legend).
    pub fn of(metric: Metric, sim: &Simulation) -> Colouring {
        let warmup = sim.measure().warmup;
        let label = if !metric.available(sim) {
            format!("{} (none: routing {})", metric.label(), sim.routing_name())
        } else if metric.since_warmup() && sim.now() < warmup {
            // A grey network during a long warm-up reads as "nothing
            // moves"; say when the measurement starts.
            format!(
                "{} (from cycle {warmup}, after the warm-up)",
                metric.label()
            )
        } else {
            metric.label().to_string()
        };
        Colouring {
            label,
            unit: metric.unit().to_string(),
            values: metric.values(sim),
        }
    }
}

/// What is selected in the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selected {
    Switch(SwitchId),
    Channel(ChannelId),
}

/// What is drawn over a network view besides its colouring: a colour
/// scale shared with another view, shaded switches, paths and marked
/// switches (the oblivious-routing panel's box of intermediate nodes,
/// sampled paths, source and destination).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Top of the colour scale (None: the largest value shown), so that
    /// two views side by side read on one scale.
    pub scale_max: Option<f64>,
    /// Switches shaded behind their dots, each with its fill.
    pub shaded: Vec<(SwitchId, Color32)>,
    /// Paths, each a channel sequence in its colour, drawn over the
    /// colouring side by side where they share a channel.
    pub paths: Vec<(Vec<ChannelId>, Color32)>,
    /// Switches ringed and labelled (e.g. "s", "d", "q").
    pub marks: Vec<(SwitchId, String, Color32)>,
}
