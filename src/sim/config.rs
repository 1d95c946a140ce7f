//! Parameters of a run, in two parts: the router's ([`RouterConfig`]:
//! what the switch is) and the measurement's ([`MeasureConfig`]: how the
//! run is observed). Which switch model runs is the registry's
//! ([`super::SwitchModelKind`]).

use crate::routing::{RoutingSpec, Selection};
use serde::{Deserialize, Serialize};

/// How a packet's flits cross a switch (Dally and Towles ch. 12-13).
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Switching {
    /// The whole packet is buffered at a switch before its head leaves, and
    /// the next buffer must have room for all of it.
    #[serde(rename = "saf", alias = "store_and_forward")]
    #[strum(
        to_string = "saf",
        serialize = "store-and-forward",
        serialize = "store_and_forward"
    )]
    StoreAndForward,
    /// The head may leave before the tail arrives, but only into a buffer
    /// with room for the whole packet.
    #[serde(rename = "vct", alias = "virtual_cut_through")]
    #[strum(
        to_string = "vct",
        serialize = "virtual-cut-through",
        serialize = "virtual_cut_through"
    )]
    VirtualCutThrough,
    /// Flit by flit: a free virtual channel is enough; the packet may span
    /// several switches.
    #[default]
    #[serde(rename = "wormhole")]
    #[strum(to_string = "wormhole", serialize = "wh")]
    Wormhole,
}

crate::spec_options::keyword_enum!(Switching);

/// Which input port a switch serves first each cycle in VC allocation, and
/// so which port wins an output VC that several want. Dally and Towles
/// (ch. 18, arbitration) describe several priority rules; which one a
/// router uses is a design choice the papers do not state.
///
/// - `rotating` (default): the first port advances by one every cycle,
///   whatever was granted. Cheap and fair on average, but a perfectly
///   periodic pattern can phase-lock with it: on an 8-node ring under
///   tornado with `dor:classes=balanced`, the through port of one switch
///   never comes first when the lower VC of the next channel frees, and
///   five of the eight hosts starve (accepted 0.125 at load 0.6; see
///   `routing::dor`).
/// - `random`: a pseudo-random first port per switch and cycle, hashed from
///   the cycle and the switch (no random-number stream is consumed, so
///   traffic and routing draws are unchanged). No pattern can lock onto it;
///   the same ring holds 0.23.
/// - `oldest`: age-based arbitration (Dally and Towles §18.5, "age-based
///   priority"; BookSim's `priority = age`). The switch visits its input
///   ports in order of the oldest packet at the front of any of their VCs
///   (by generation cycle; ties from the rotating pointer on), so in VC
///   allocation the oldest packet's port asks first; in switch allocation
///   each port offers its oldest ready packet and each output grants the
///   port visited first (acknowledgements still first). Past saturation
///   round-robin arbiters starve the sources far from a hot spot (the
///   parking-lot effect); age-based arbitration serves them in turn.
///
/// The choice changes results past saturation, hence a parameter.
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PortPriority {
    #[default]
    Rotating,
    Random,
    Oldest,
}

crate::spec_options::keyword_enum!(PortPriority);

/// The switch's parameters: what the router is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouterConfig {
    pub switching: Switching,
    /// Virtual channels per input port (1..=16).
    pub vcs: u8,
    /// Buffer depth per virtual channel in flits (1..=1024).
    pub buffer_flits: u16,
    /// Flits per packet (1..=1024).
    pub packet_flits: u16,
    /// Cycles a flit (and a credit) spends on a channel (1..=64).
    pub link_latency: u16,
    /// Cycles from a head's arrival at a switch to its earliest departure:
    /// routing, allocation and crossbar (1..=64).
    pub switch_delay: u16,
    /// How candidates are picked when allocating a virtual channel.
    pub selection: Selection,
    /// Which input port comes first in VC allocation ([`PortPriority`]).
    #[serde(default)]
    pub port_priority: PortPriority,
    /// Reallocate a virtual channel only once the previous packet's tail
    /// credit has come back, i.e. into an empty buffer (BookSim's
    /// `wait_for_tail_credit`; *conservative* reallocation). Off by default
    /// (*aggressive*: a new packet may follow the previous one's tail into
    /// the buffer). Duato's adaptive routing needs it with buffers deeper
    /// than one flit, where a packet could otherwise wait behind another
    /// packet's tail in an adaptive VC (with one-flit buffers the two rules
    /// coincide).
    #[serde(default)]
    pub wait_for_tail_credit: bool,
}

impl Default for RouterConfig {
    fn default() -> Self {
        RouterConfig {
            switching: Switching::Wormhole,
            vcs: 2,
            buffer_flits: 8,
            packet_flits: 4,
            link_latency: 1,
            switch_delay: 1,
            selection: Selection::Fixed,
            port_priority: PortPriority::Rotating,
            wait_for_tail_credit: false,
        }
    }
}

impl RouterConfig {
    /// Every problem with these parameters, one message each (the ranges
    /// are [`crate::limits`]'s).
    pub fn problems(&self) -> Vec<String> {
        use crate::limits::{BUFFER_FLITS, DELAY_CYCLES, PACKET_FLITS, VCS};
        let mut p = Vec::new();
        let range = |name: &str, value: u64, lo: u64, hi: u64| {
            format!("{name} = {value}; accepted {lo}..={hi}")
        };
        if !VCS.contains(&self.vcs) {
            p.push(range(
                "vcs",
                self.vcs as u64,
                *VCS.start() as u64,
                *VCS.end() as u64,
            ));
        }
        if !BUFFER_FLITS.contains(&self.buffer_flits) {
            p.push(range(
                "buffer_flits",
                self.buffer_flits as u64,
                *BUFFER_FLITS.start() as u64,
                *BUFFER_FLITS.end() as u64,
            ));
        }
        if !PACKET_FLITS.contains(&self.packet_flits) {
            p.push(range(
                "packet_flits",
                self.packet_flits as u64,
                *PACKET_FLITS.start() as u64,
                *PACKET_FLITS.end() as u64,
            ));
        }
        if self.switching != Switching::Wormhole && self.buffer_flits < self.packet_flits {
            p.push(format!(
                "buffer_flits = {} is smaller than packet_flits = {}; {} needs room for a whole packet (or use wormhole)",
                self.buffer_flits,
                self.packet_flits,
                self.switching.as_str()
            ));
        }
        for (name, value) in [
            ("link_latency", self.link_latency),
            ("switch_delay", self.switch_delay),
        ] {
            if !DELAY_CYCLES.contains(&value) {
                p.push(range(
                    name,
                    value as u64,
                    *DELAY_CYCLES.start() as u64,
                    *DELAY_CYCLES.end() as u64,
                ));
            }
        }
        p
    }
}

/// How a run is measured: warm-up, live windows and the deadlock watchdog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureConfig {
    /// Cycles before statistics start.
    pub warmup: u64,
    /// Cycles with flits in the network and none moving before the run is
    /// declared deadlocked.
    pub watchdog_cycles: u64,
    /// Length of the running windows for live curves, in cycles.
    pub window_cycles: u64,
    /// Time-slice model: a request fails when its access switch has not
    /// taken it within this many slices of its begin time (the paper's
    /// admission; 0 = in its begin slice). It is then dropped at its server.
    #[serde(default)]
    pub admit_slices: u64,
    /// Time-slice model: a request fails unless delivered within this many
    /// slices of its begin time (latency < D).
    #[serde(default = "default_deadline")]
    pub deadline_slices: u64,
    /// Also gather per source-destination pair statistics and the DRB
    /// paper's own metrics ([`crate::sim::PaperMetrics`]): per-pair mean
    /// latency and its coefficient of variation, out-of-order deliveries,
    /// latency as waiting time only, throughput as accepted over applied
    /// load. Off by default (it costs a table lookup per delivered packet).
    #[serde(default)]
    pub pair_stats: bool,
}

/// The time-slice model's default deadline D, in slices: the paper's
/// latency bar ("the biggest latency request is less than 20").
pub const DEFAULT_DEADLINE_SLICES: u64 = 20;

fn default_deadline() -> u64 {
    DEFAULT_DEADLINE_SLICES
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            warmup: 1000,
            watchdog_cycles: 10_000,
            window_cycles: 100,
            pair_stats: false,
            admit_slices: 0,
            deadline_slices: DEFAULT_DEADLINE_SLICES,
        }
    }
}

impl MeasureConfig {
    /// Every problem with these parameters, one message each.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.watchdog_cycles == 0 {
            p.push("watchdog_cycles = 0; accepted 1 or more".into());
        }
        if self.window_cycles == 0 {
            p.push("window_cycles = 0; accepted 1 or more".into());
        }
        if self.deadline_slices == 0 || self.deadline_slices > 1_000_000 {
            p.push(format!(
                "deadline_slices = {}; accepted 1..=1000000",
                self.deadline_slices
            ));
        }
        if self.admit_slices > 1_000_000 {
            p.push(format!(
                "admit_slices = {}; accepted 0..=1000000",
                self.admit_slices
            ));
        }
        p
    }
}

impl RouterConfig {
    /// Why `routing` cannot run on this router, if it cannot: a routing
    /// that needs the selection to take any free candidate (Duato's escape
    /// channel) with `selection = fixed`, or one that needs a VC to hold one
    /// packet at a time on a router that may let a packet follow another's
    /// tail into a buffer.
    pub fn routing_problem(&self, routing: &RoutingSpec) -> Option<String> {
        if routing.needs_free_choice() && self.selection == Selection::Fixed {
            return Some(format!(
                "routing `{routing}` needs selection first-free or adaptive (with fixed a packet waits for its first choice and never reaches the escape channel); got selection fixed"
            ));
        }
        if routing.needs_tail_credit() && self.buffer_flits > 1 && !self.wait_for_tail_credit {
            return Some(format!(
                "routing `{routing}` needs wait_for_tail_credit (--wait-for-tail-credit) or one-flit buffers: with buffer_flits = {} a packet may wait behind another packet's tail in an adaptive VC, outside Duato's theorem, and deadlock",
                self.buffer_flits
            ));
        }
        None
    }
}
