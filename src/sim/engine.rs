//! The stepped simulation: traffic sources, routing epochs, a switch model and
//! statistics, advanced one cycle per [`Simulation::step`].

use super::config::SimConfig;
use super::input_queued::InputQueued;
use super::model::{PortOccupancy, QueuedPacket, SimError, StepIo, SwitchModel};
use super::packet::PacketSlab;
use super::stats::{Stats, WindowSample};
use super::summary::Summary;
use crate::rng::{SimRng, Stream, stream};
use crate::routing::Routing;
use crate::topology::{Network, capacity_per_host};
use crate::traffic::{Arrivals, Pattern, Process};
use std::collections::VecDeque;
use std::sync::Arc;

/// Traffic parameters of a run.
#[derive(Clone, Debug)]
pub struct TrafficConfig {
    pub pattern: Pattern,
    pub process: Process,
    /// Offered load in flits per host per cycle (0..=1).
    pub load: f64,
}

/// A running simulation.
///
/// ```
/// use routelab::scenario::Scenario;
/// let mut sim = Scenario::default().build().unwrap();
/// sim.run_for(100).unwrap();
/// assert_eq!(sim.now(), 100);
/// ```
pub struct Simulation {
    net: Arc<Network>,
    config: SimConfig,
    traffic: TrafficConfig,
    capacity: f64,
    arrivals: Vec<Arrivals>,
    sources: Vec<VecDeque<QueuedPacket>>,
    queued: u64,
    routings: Vec<Box<dyn Routing>>,
    /// Cycles at which the routing was swapped (epoch starts), for curves.
    swaps: Vec<(u64, String)>,
    model: Box<dyn SwitchModel>,
    traffic_rng: SimRng,
    routing_rng: SimRng,
    packets: PacketSlab,
    stats: Stats,
    now: u64,
    measuring: bool,
    failed: Option<SimError>,
}

impl Simulation {
    /// A simulation of `net` with the input-queued switch model.
    pub fn new(
        net: Arc<Network>,
        routing: Box<dyn Routing>,
        traffic: TrafficConfig,
        config: SimConfig,
        seed: u64,
    ) -> Simulation {
        let model = Box::new(InputQueued::new(net.clone(), &config));
        Self::with_model(net, model, routing, traffic, config, seed)
    }

    /// A simulation with any switch model.
    pub fn with_model(
        net: Arc<Network>,
        model: Box<dyn SwitchModel>,
        routing: Box<dyn Routing>,
        traffic: TrafficConfig,
        config: SimConfig,
        seed: u64,
    ) -> Simulation {
        let mut traffic_rng = stream(seed, Stream::Traffic);
        let rate = traffic.load / config.packet_flits as f64;
        let arrivals = (0..net.num_hosts())
            .map(|_| Arrivals::new(traffic.process, rate, 0, &mut traffic_rng))
            .collect();
        let name = routing.name();
        Simulation {
            capacity: capacity_per_host(&net),
            stats: Stats::new(net.num_channels(), net.num_switches()),
            sources: vec![VecDeque::new(); net.num_hosts()],
            queued: 0,
            arrivals,
            routings: vec![routing],
            swaps: vec![(0, name)],
            model,
            traffic_rng,
            routing_rng: stream(seed, Stream::Routing),
            packets: PacketSlab::default(),
            now: 0,
            measuring: config.warmup == 0,
            failed: None,
            net,
            config,
            traffic,
        }
    }

    /// Advance exactly one cycle.
    pub fn step(&mut self) -> Result<(), SimError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let now = self.now;
        if !self.measuring && now >= self.config.warmup {
            self.measuring = true;
            self.stats.reset(now);
        }
        // Generation.
        let l = self.config.packet_flits as u64;
        for h in 0..self.arrivals.len() {
            let k = self.arrivals[h].arrivals_at(now, &mut self.traffic_rng);
            for _ in 0..k {
                let dst = self
                    .traffic
                    .pattern
                    .destination(h as u32, &mut self.traffic_rng);
                self.sources[h].push_back(QueuedPacket {
                    dst,
                    gen_cycle: now,
                });
            }
            if k > 0 {
                self.stats.win_generated_flits += k as u64 * l;
                if self.measuring {
                    self.stats.generated_flits += k as u64 * l;
                }
            }
        }
        let mut io = StepIo {
            sources: &mut self.sources,
            routings: &mut self.routings,
            rng: &mut self.routing_rng,
            stats: &mut self.stats,
            packets: &mut self.packets,
            measuring: self.measuring,
        };
        let r = self.model.step(now, &mut io);
        self.now += 1;
        if (self.now).is_multiple_of(self.config.window_cycles) {
            self.close_window();
        }
        if let Err(e) = r {
            self.failed = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    fn close_window(&mut self) {
        let w = self.config.window_cycles as f64;
        let hosts = self.net.num_hosts().max(1) as f64;
        let st = &self.stats;
        let queued: u64 = self.sources.iter().map(|q| q.len() as u64).sum();
        self.queued = queued;
        let sample = WindowSample {
            cycle: self.now,
            accepted: st.win_delivered_flits as f64 / (hosts * w),
            offered: st.win_generated_flits as f64 / (hosts * w),
            avg_latency: if st.win_packets > 0 {
                st.win_latency_sum as f64 / st.win_packets as f64
            } else {
                0.0
            },
            in_flight_packets: self.packets.live() as u64,
            queued_packets: queued,
        };
        self.stats.close_window(sample);
    }

    /// Advance `n` cycles (stops at the first error).
    pub fn run_for(&mut self, n: u64) -> Result<(), SimError> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    /// Step until `done` holds or `max_cycles` more cycles have run; returns
    /// whether the condition was met.
    pub fn run_until(
        &mut self,
        mut done: impl FnMut(&Simulation) -> bool,
        max_cycles: u64,
    ) -> Result<bool, SimError> {
        for _ in 0..max_cycles {
            if done(self) {
                return Ok(true);
            }
            self.step()?;
        }
        Ok(done(self))
    }

    /// Swap the routing (balancer) live. Packets already injected finish
    /// with the routing they started with; new packets use `routing`.
    pub fn set_routing(&mut self, routing: Box<dyn Routing>) {
        self.swaps.push((self.now, routing.name()));
        self.routings.push(routing);
    }

    /// Change the offered load from the current cycle on.
    pub fn set_load(&mut self, load: f64) {
        self.traffic.load = load.clamp(0.0, 1.0);
        let rate = self.traffic.load / self.config.packet_flits as f64;
        for a in &mut self.arrivals {
            *a = Arrivals::new(self.traffic.process, rate, self.now, &mut self.traffic_rng);
        }
    }

    /// Restart measurement now (statistics and channel counters cleared).
    pub fn reset_stats(&mut self) {
        self.measuring = true;
        self.stats.reset(self.now);
    }

    pub fn now(&self) -> u64 {
        self.now
    }
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }
    pub fn config(&self) -> &SimConfig {
        &self.config
    }
    pub fn load(&self) -> f64 {
        self.traffic.load
    }
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
    /// Uniform-traffic capacity in flits per host per cycle.
    pub fn capacity(&self) -> f64 {
        self.capacity
    }
    /// The current routing's name.
    pub fn routing_name(&self) -> String {
        self.routings.last().map(|r| r.name()).unwrap_or_default()
    }
    /// Routing swaps as (cycle, routing name), the first at cycle 0.
    pub fn swaps(&self) -> &[(u64, String)] {
        &self.swaps
    }
    /// Packets in the network.
    pub fn in_flight_packets(&self) -> usize {
        self.packets.live()
    }
    /// Flits in the network.
    pub fn in_flight_flits(&self) -> u64 {
        self.model.flits_in_network()
    }
    /// Packets waiting in source queues.
    pub fn queued_packets(&self) -> u64 {
        self.sources.iter().map(|q| q.len() as u64).sum()
    }
    /// The error that stopped the run, if any.
    pub fn failure(&self) -> Option<&SimError> {
        self.failed.as_ref()
    }
    /// Flits buffered at the downstream end of each channel now.
    pub fn channel_occupancy(&self) -> Vec<u32> {
        self.model.channel_occupancy()
    }
    /// Per-VC buffer occupancy of a switch's input ports now.
    pub fn switch_occupancy(&self, switch: u32) -> Vec<PortOccupancy> {
        self.model.switch_occupancy(switch)
    }
    /// Check flow-control and conservation invariants.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.model.check_invariants(&self.packets)?;
        let st = &self.stats;
        let in_net = self.model.flits_in_network();
        if st.total_injected_flits != st.total_delivered_flits + in_net {
            return Err(format!(
                "flits injected {} != delivered {} + in network {in_net}",
                st.total_injected_flits, st.total_delivered_flits
            ));
        }
        if st.total_injected_packets != st.total_delivered_packets + self.packets.live() as u64 {
            return Err(format!(
                "packets injected {} != delivered {} + in flight {}",
                st.total_injected_packets,
                st.total_delivered_packets,
                self.packets.live()
            ));
        }
        Ok(())
    }
    /// Per-channel utilization (flits per cycle) since measurement started.
    pub fn channel_utilization(&self) -> Vec<f64> {
        let cycles = self.now.saturating_sub(self.stats.measure_start).max(1) as f64;
        self.stats
            .channels
            .iter()
            .map(|c| c.flits as f64 / cycles)
            .collect()
    }
    /// Per-channel mean head queueing delay (cycles) since measurement started.
    pub fn channel_queueing_delay(&self) -> Vec<f64> {
        self.stats
            .channels
            .iter()
            .map(|c| {
                if c.heads > 0 {
                    c.wait_sum as f64 / c.heads as f64
                } else {
                    0.0
                }
            })
            .collect()
    }
    /// Mean latency of packets by destination switch (0 where none).
    pub fn latency_by_destination_switch(&self) -> Vec<f64> {
        mean_pairs(&self.stats.by_dst_switch)
    }
    /// Mean latency of packets by source switch (0 where none).
    pub fn latency_by_source_switch(&self) -> Vec<f64> {
        mean_pairs(&self.stats.by_src_switch)
    }

    /// The measured results so far.
    pub fn summary(&self) -> Summary {
        Summary::of(self)
    }

    /// The current routing's own per-channel quantity (e.g. crossing paths
    /// of path-selection tables, see [`Routing::channel_values`]): its label
    /// and one value per channel id (zero-padded to every channel), or
    /// `None` when the current routing (the last epoch's) defines none.
    pub fn routing_channel_values(&self) -> Option<(String, Vec<f64>)> {
        let (label, mut values) = self.routings.last()?.channel_values()?;
        values.resize(self.net.num_channels(), 0.0);
        Some((label, values))
    }
}

fn mean_pairs(v: &[(u64, u64)]) -> Vec<f64> {
    v.iter()
        .map(|&(s, n)| if n > 0 { s as f64 / n as f64 } else { 0.0 })
        .collect()
}
