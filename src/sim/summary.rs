//! The measured results of a run, as printed by `routelab sim`.

use super::engine::Simulation;
use serde::Serialize;

/// Results over the measured cycles (after the warm-up).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub topology: String,
    pub routing: String,
    /// Offered load, flits per host per cycle (as configured).
    pub offered: f64,
    /// Flits generated per host per measured cycle.
    pub generated: f64,
    /// Accepted throughput, flits delivered per host per measured cycle.
    pub accepted: f64,
    /// Accepted throughput as a fraction of the uniform-traffic capacity.
    pub accepted_fraction: f64,
    /// Uniform-traffic capacity, flits per host per cycle.
    pub capacity: f64,
    pub avg_latency: f64,
    pub p50_latency: u64,
    pub p99_latency: u64,
    pub max_latency: u64,
    /// Mean switch-to-switch hops of measured packets.
    pub avg_hops: f64,
    /// Packets that left their source during the measured cycles.
    pub injected_packets: u64,
    /// Measured packets delivered.
    pub delivered_packets: u64,
    /// Packets in the network at the end.
    pub in_flight_packets: u64,
    /// Packets waiting in source queues at the end.
    pub queued_packets: u64,
    /// Cycles simulated in all (warm-up included).
    pub cycles: u64,
    /// Cycles measured.
    pub measured_cycles: u64,
    /// The unit of `cycles` and of the latencies: `slices` for the
    /// time-slice model. Left out of the JSON for `cycles` (the cycle-level
    /// models), so their output stays as it was.
    #[serde(skip_serializing_if = "is_cycles")]
    pub latency_unit: &'static str,
    /// Time-slice model: the share of the requests begun in
    /// `[warm-up, T − D]` that their access switch took within R slices and
    /// that were delivered within D slices (the paper's success rate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success_rate: Option<f64>,
    /// Time-slice model: those requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured_requests: Option<u64>,
    /// Time-slice model: measured requests dropped at their server (no room
    /// at their access switch within R slices).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected_requests: Option<u64>,
    /// Time-slice model: measured requests delivered later than D.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_requests: Option<u64>,
    /// Time-slice model: offers between switches refused (receiver full or
    /// out of bw_in) since the warm-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_transmissions: Option<u64>,
}

fn is_cycles(unit: &&'static str) -> bool {
    *unit == "cycles"
}

impl Summary {
    pub fn of(sim: &Simulation) -> Summary {
        let st = sim.stats();
        let measured = sim.now().saturating_sub(st.measure_start());
        let denom = (sim.network().num_hosts() as f64 * measured as f64).max(1.0);
        let accepted = st.delivered_flits() as f64 / denom;
        Summary {
            topology: sim.network().spec().to_string(),
            routing: sim.routing_name(),
            offered: sim.load(),
            generated: st.generated_flits() as f64 / denom,
            accepted,
            accepted_fraction: accepted / sim.capacity(),
            capacity: sim.capacity(),
            avg_latency: st.latency().mean(),
            p50_latency: st.latency().quantile(0.5),
            p99_latency: st.latency().quantile(0.99),
            max_latency: st.latency().max(),
            avg_hops: if st.delivered_packets() > 0 {
                st.hops_sum() as f64 / st.delivered_packets() as f64
            } else {
                0.0
            },
            injected_packets: st.injected_packets(),
            delivered_packets: st.delivered_packets(),
            in_flight_packets: sim.in_flight_packets() as u64,
            queued_packets: sim.queued_packets(),
            cycles: sim.now(),
            measured_cycles: measured,
            latency_unit: sim.latency_unit(),
            success_rate: sim
                .deadlines()
                .map(|d| d.success_rate().unwrap_or(f64::NAN)),
            measured_requests: sim.deadlines().map(|d| d.measured()),
            rejected_requests: sim.deadlines().map(|d| d.rejected_requests()),
            late_requests: sim.deadlines().map(|d| d.late_requests()),
            refused_transmissions: sim.time_slice().map(|t| t.refused_transmissions()),
        }
    }
}
