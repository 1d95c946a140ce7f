//! The measured results of a run, as printed by `routelab sim`.

use super::stats::Stats;
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
    /// The smallest share of a source's measured packets delivered, over
    /// sources (Dally and Towles' throughput is a minimum over sources;
    /// [`super::Stats::min_source_delivery`]).
    pub min_source_delivery: f64,
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
}

/// What a summary needs of a run besides its statistics.
pub struct RunInfo<'a> {
    pub topology: &'a str,
    pub routing: String,
    /// Offered load, flits per host per cycle.
    pub offered: f64,
    /// Capacity, flits per host per cycle.
    pub capacity: f64,
    pub hosts: usize,
    /// Cycles simulated.
    pub now: u64,
    pub in_flight_packets: u64,
    pub queued_packets: u64,
}

impl Summary {
    /// The summary of a run's statistics.
    pub fn of(st: &Stats, run: RunInfo<'_>) -> Summary {
        let measured = run.now.saturating_sub(st.measure_start());
        let denom = (run.hosts as f64 * measured as f64).max(1.0);
        let accepted = st.delivered_flits() as f64 / denom;
        Summary {
            topology: run.topology.to_string(),
            routing: run.routing,
            offered: run.offered,
            generated: st.generated_flits() as f64 / denom,
            accepted,
            accepted_fraction: accepted / run.capacity,
            min_source_delivery: st.min_source_delivery(),
            capacity: run.capacity,
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
            in_flight_packets: run.in_flight_packets,
            queued_packets: run.queued_packets,
            cycles: run.now,
            measured_cycles: measured,
        }
    }
}
