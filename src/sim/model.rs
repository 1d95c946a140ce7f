//! The switch model interface: what the engine asks of a network of
//! switches each cycle. A model only moves flits between buffers and
//! channels; packets, routing calls, statistics, feedback and the watchdog
//! belong to the endpoint layer ([`super::Endpoints`]) it is handed.
//! [`super::InputQueued`] (the virtual-channel router),
//! [`super::OutputQueued`] (ideal, unbounded output queues) and
//! [`super::TimeSlice`] (the weighted-path paper's fat tree of unlike
//! switches, one step per time slice) implement it; a scenario names one
//! in `switch_model`, by its entry in the switch-model registry
//! ([`super::MODELS`]), which also holds its name and step unit.

use super::endpoints::Endpoints;
use super::error::SimError;

/// Per-VC occupancy of one input port, for detail views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortOccupancy {
    pub channel: u32,
    /// Flits buffered per virtual channel.
    pub flits: Vec<u16>,
}

/// A network of switches that moves flits (or messages) one step at a time.
pub trait SwitchModel: Send {
    /// Advance one cycle: deliver due flits and credits, inject from the
    /// hosts, route, allocate and traverse.
    fn step(&mut self, now: u64, ep: &mut Endpoints) -> Result<(), SimError>;
    /// Flits inside the network (buffers and channels).
    fn flits_in_network(&self) -> u64;
    /// Flits buffered at the downstream end of each channel (all VCs).
    fn channel_occupancy(&self) -> Vec<u32>;
    /// Flits buffered in each switch, by switch id.
    fn switch_occupancy(&self) -> Vec<u32>;
    /// Buffer space of each switch in flits (for drawing fill levels).
    fn switch_capacity(&self) -> Vec<u32>;
    /// Per-VC occupancy of every input port of a switch, where the model
    /// has virtual channels.
    fn port_occupancy(&self, _switch: u32) -> Option<Vec<PortOccupancy>> {
        None
    }
    /// What is blocked, for the deadlock message (a dozen lines at most).
    fn blocked_report(&self, ep: &Endpoints) -> Vec<String>;
    /// Check flow-control invariants; an error names the first violation.
    fn check_invariants(&self, ep: &Endpoints) -> Result<(), String>;
    /// A cycle of waits among buffers, for the deadlock message: input
    /// virtual channels as (channel id, vc), each waiting on the next (for
    /// room in its buffer, for the packet that holds it, or for the rest of
    /// its own packet upstream) and the last on the first. `None` where the
    /// model cannot wait in a cycle or none is found.
    fn wait_cycle(&self, _ep: &Endpoints) -> Option<Vec<(u32, u8)>> {
        None
    }
    /// Uniform-traffic capacity per host where the model defines its own
    /// (in its unit); `None`: the topology's channel capacity.
    fn capacity_per_host(&self) -> Option<f64> {
        None
    }
    /// Largest offered load per host per step the model accepts (1 flit
    /// per cycle by default).
    fn max_load(&self) -> f64 {
        1.0
    }
    /// Allocate each cycle on `threads` threads from the next cycle on
    /// (the results are the same, only the speed changes). Only
    /// [`super::InputQueued`] has a second thread; the others accept 1.
    fn set_engine_threads(&mut self, threads: usize) -> Result<(), String> {
        match threads {
            1 => Ok(()),
            n => Err(format!(
                "engine threads: {n} is not accepted by this switch model (1)"
            )),
        }
    }
    /// With two engine threads, split cycles from `flits` flits in the
    /// network on (measuring and tests; no result changes).
    fn set_engine_split_from(&mut self, _flits: u64) -> Result<(), String> {
        Err("engine split: only with two engine threads".into())
    }
    /// A measurement window closed at `now` (for the model's own curves).
    fn close_window(&mut self, _now: u64) {}
    /// The model itself, for views of what only it has (e.g.
    /// [`super::TimeSlice`]'s per-slice traffic).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}
