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
    /// The unit of `cycles` and of the latencies: `cycles` for the
    /// cycle-level models, `slices` for the time-slice model.
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
    /// The DRB paper's metrics and per-pair uniformity, when the run
    /// gathers pair statistics (absent otherwise, so the output of other
    /// runs is unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper: Option<PaperMetrics>,
}

/// The DRB paper's own metrics (Franco, Garcés and Luque §4) and the
/// uniformity of latency over source-destination pairs, DRB's stated goal
/// ([`crate::sim::PairStats`] defines each).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PaperMetrics {
    /// The paper's latency: mean cycles waiting (source queue plus blocked
    /// in the network), without the transmission time.
    pub wait_latency: f64,
    /// Of which blocked in the network.
    pub blocked_latency: f64,
    /// The paper's throughput: accepted over applied (generated) load.
    pub accepted_over_applied: f64,
    /// Coefficient of variation of the per-pair mean latency.
    pub pair_latency_cv: f64,
    /// Pairs with a measured packet.
    pub pairs: u64,
    /// Measured packets delivered out of order, in all.
    pub out_of_order: u64,
    /// Pairs with at least one out-of-order delivery.
    pub pairs_out_of_order: u64,
    /// Most out-of-order deliveries of one pair.
    pub max_out_of_order_per_pair: u64,
    /// Hot-spot traffic only: accepted throughput (flits per host per
    /// cycle) and p99 latency of the packets to hosts that are not hot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_accepted: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_p99_latency: Option<u64>,
    /// DRB's latency surface (Fig. 9): the highest and the mean per-switch
    /// value ([`Simulation::node_link_delay`](super::Simulation::node_link_delay)).
    pub surface_peak: f64,
    pub surface_mean: f64,
}

impl PaperMetrics {
    fn of(st: &Stats, surface: &[f64], denom: f64) -> Option<PaperMetrics> {
        let p = st.pairs()?;
        let pairs = p.pairs();
        let generated = st.generated_flits();
        Some(PaperMetrics {
            wait_latency: p.mean_wait(),
            blocked_latency: p.mean_blocked(),
            accepted_over_applied: if generated > 0 {
                st.delivered_flits() as f64 / generated as f64
            } else {
                0.0
            },
            pair_latency_cv: p.latency_cv(),
            pairs: pairs.len() as u64,
            out_of_order: pairs.iter().map(|(_, _, c)| c.out_of_order as u64).sum(),
            pairs_out_of_order: pairs.iter().filter(|(_, _, c)| c.out_of_order > 0).count() as u64,
            max_out_of_order_per_pair: pairs
                .iter()
                .map(|(_, _, c)| c.out_of_order as u64)
                .max()
                .unwrap_or(0),
            background_accepted: p
                .has_hot_spot()
                .then(|| p.background_flits() as f64 / denom),
            background_p99_latency: p
                .has_hot_spot()
                .then(|| p.background_latency().quantile(0.99)),
            surface_peak: surface.iter().copied().fold(0.0, f64::max),
            surface_mean: if surface.is_empty() {
                0.0
            } else {
                surface.iter().sum::<f64>() / surface.len() as f64
            },
        })
    }
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
    /// The unit of a step: `cycles`, or `slices` for the time-slice model.
    pub latency_unit: &'static str,
    /// The time-slice model's request counts, where the run keeps them.
    pub requests: Option<RequestCounts>,
    /// Per switch, the latency surface's value
    /// ([`crate::sim::Simulation::node_link_delay`]); empty when the run
    /// gathers no pair statistics.
    pub node_link_delay: Vec<f64>,
}

/// The time-slice model's request outcomes (see the matching fields of
/// [`Summary`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestCounts {
    pub success_rate: f64,
    pub measured_requests: u64,
    pub rejected_requests: u64,
    pub late_requests: u64,
    pub refused_transmissions: u64,
}

/// The share of the generated flits a run must deliver not to count as
/// saturated: a load point is saturated when its accepted throughput falls
/// below 95 % of the flits generated in the measured cycles (its source
/// queues grow without bound). `routelab sweep`, the app's sweeps and
/// `routelab campaign merge` all use this rule ([`saturated`]).
pub const SATURATION_ACCEPTED_SHARE: f64 = 0.95;

/// Whether a load point that generated `generated` and accepted `accepted`
/// flits per host per cycle is saturated ([`SATURATION_ACCEPTED_SHARE`]).
pub fn saturated(accepted: f64, generated: f64) -> bool {
    accepted < SATURATION_ACCEPTED_SHARE * generated
}

impl Summary {
    /// Whether this run is saturated ([`saturated`]).
    pub fn is_saturated(&self) -> bool {
        saturated(self.accepted, self.generated)
    }

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
            paper: PaperMetrics::of(st, &run.node_link_delay, denom),
            latency_unit: run.latency_unit,
            success_rate: run.requests.map(|r| r.success_rate),
            measured_requests: run.requests.map(|r| r.measured_requests),
            rejected_requests: run.requests.map(|r| r.rejected_requests),
            late_requests: run.requests.map(|r| r.late_requests),
            refused_transmissions: run.requests.map(|r| r.refused_transmissions),
        }
    }
}
