//! The stepped simulation: an endpoint layer (traffic, packets, routings,
//! statistics, feedback, watchdog) and a switch model, advanced one cycle
//! per [`Simulation::step`].

use super::acknowledge::Acks;
use super::config::{MeasureConfig, RouterConfig};
use super::deadline::Deadlines;
use super::endpoints::{Endpoints, TrafficConfig};
use super::error::SimError;
use super::model::{PortOccupancy, SwitchModel};
use super::model_kind::SwitchModelKind;
use super::stats::{Stats, WindowSample};
use super::summary::{RequestCounts, RunInfo, Summary};
use super::timeslice::TimeSlice;
use crate::routing::{Routing, RoutingError, RoutingSpec, Timing};
use crate::topology::{Network, capacity_per_host};
use std::sync::Arc;

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
    router: RouterConfig,
    measure: MeasureConfig,
    capacity: f64,
    ep: Endpoints,
    /// Cycles at which the routing was swapped (epoch starts), for curves.
    swaps: Vec<(u64, String)>,
    /// The switch model's registry entry, as the run was built with it.
    kind: SwitchModelKind,
    model: Box<dyn SwitchModel>,
    now: u64,
    failed: Option<SimError>,
}

impl Simulation {
    /// A simulation of `net` with the switch model `kind`. `routing` must
    /// have been built for the data VCs the run leaves it
    /// ([`Simulation::data_vcs_for`]); an error says why not.
    pub fn new(
        net: Arc<Network>,
        kind: SwitchModelKind,
        routing: Box<dyn Routing>,
        traffic: TrafficConfig,
        router: RouterConfig,
        measure: MeasureConfig,
        seed: u64,
    ) -> Result<Simulation, String> {
        let entry = kind.entry();
        let router = (entry.router)(router);
        let model = (entry.build)(net.clone(), &router, seed)?;
        let mut sim = Self::with_model(kind, net, model, routing, traffic, router, measure, seed)?;
        if entry.deadlines {
            let m = &sim.measure;
            let deadlines = Deadlines::new(m.admit_slices, m.deadline_slices, m.window_cycles);
            sim.ep.enable_deadlines(deadlines);
        }
        Ok(sim)
    }

    /// A simulation with switch model `model`, built from `kind`'s entry.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn with_model(
        kind: SwitchModelKind,
        net: Arc<Network>,
        model: Box<dyn SwitchModel>,
        routing: Box<dyn Routing>,
        traffic: TrafficConfig,
        router: RouterConfig,
        measure: MeasureConfig,
        seed: u64,
    ) -> Result<Simulation, String> {
        let per_switch = (router.switch_delay + router.link_latency) as u64;
        let acks = Acks::new(&net, router.vcs, per_switch, seed);
        let mut ep = Endpoints::new(
            net.clone(),
            traffic,
            router.packet_flits,
            acks,
            measure.watchdog_cycles,
            seed,
        );
        let name = routing.name();
        let mut routing = routing;
        routing.set_timing(timing(&router));
        ep.push_routing(routing)?;
        if measure.pair_stats {
            ep.enable_pair_stats();
        }
        if measure.warmup == 0 {
            ep.start_measuring(0);
        }
        Ok(Simulation {
            capacity: model
                .capacity_per_host()
                .unwrap_or_else(|| capacity_per_host(&net)),
            ep,
            swaps: vec![(0, name)],
            kind,
            model,
            now: 0,
            failed: None,
            net,
            router,
            measure,
        })
    }

    /// The VCs a routing built from `spec` may use on a run with `vcs`
    /// virtual channels: all of them, or all but the acknowledgement class
    /// when it asks for acknowledgement packets.
    pub fn data_vcs_for(spec: &RoutingSpec, net: &Network, vcs: u8) -> u8 {
        vcs.saturating_sub(Acks::class_size(net, spec.acknowledgement()))
    }

    /// The virtual channels a run on `net` needs for `spec`: its classes
    /// and, when it asks for acknowledgement packets, their class.
    pub fn vcs_needed(spec: &RoutingSpec, net: &Network) -> u8 {
        let acks = Acks::class_size(net, spec.acknowledgement());
        spec.min_vcs(net).max(1).saturating_add(acks)
    }

    /// Build `spec` for a run on `net` with `vcs` virtual channels, leaving
    /// room for its acknowledgement class; too few VCs is an error naming
    /// the minimum.
    pub fn build_routing(
        spec: &RoutingSpec,
        net: &Network,
        vcs: u8,
    ) -> Result<Box<dyn Routing>, RoutingError> {
        let acks = Acks::class_size(net, spec.acknowledgement());
        if acks > 0 {
            let min = spec.min_vcs(net).max(1) + acks;
            if vcs < min {
                return Err(crate::routing::too_few_vcs(
                    &spec.to_string(),
                    format!(
                        "needs at least {min} virtual channels on {} ({} for its data and {acks} for acknowledgement packets; got {vcs})",
                        net.spec(),
                        min - acks
                    ),
                    min,
                ));
            }
        }
        spec.build(net, vcs - acks)
    }

    /// Advance exactly one cycle.
    pub fn step(&mut self) -> Result<(), SimError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let now = self.now;
        if !self.ep.measuring() && now >= self.measure.warmup {
            self.ep.start_measuring(now);
        }
        self.ep.generate(now);
        self.ep.deliver_due_feedback(now);
        let mut r = self.model.step(now, &mut self.ep);
        if r.is_ok() {
            let in_network = self.model.flits_in_network();
            if let Some(idle) = self.ep.watchdog().check(now, in_network) {
                r = Err(SimError::Deadlock {
                    cycle: now,
                    flits: in_network,
                    idle,
                    blocked: self.model.blocked_report(&self.ep),
                });
            } else if now & 1023 == 1023 {
                r = self.check_growth(now, in_network);
            }
        }
        self.now += 1;
        if self.now.is_multiple_of(self.measure.window_cycles) {
            self.close_window();
        }
        if let Err(e) = r {
            self.failed = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    /// Past saturation the source queues (and unbounded switch queues)
    /// grow every cycle: stop before they hold
    /// [`crate::limits::MAX_RUN_QUEUE_BYTES`] (checked every 1024 cycles).
    fn check_growth(&self, now: u64, in_network: u64) -> Result<(), SimError> {
        use crate::limits::{
            LIVE_PACKET_BYTES, MAX_RUN_QUEUE_BYTES, QUEUED_PACKET_BYTES, human_bytes,
        };
        let queued = self.ep.queued_packets();
        let live = self.ep.live_packets() as u64;
        let bytes = queued
            .saturating_mul(QUEUED_PACKET_BYTES)
            .saturating_add(live.saturating_mul(LIVE_PACKET_BYTES))
            .saturating_add(in_network.saturating_mul(8));
        if bytes <= MAX_RUN_QUEUE_BYTES {
            return Ok(());
        }
        Err(SimError::Limit {
            cycle: now,
            what: format!(
                "{queued} packets wait in source queues and {live} are in the network ({} of queues; at most {}): the offered load is far past saturation; lower the load or the cycles",
                human_bytes(bytes),
                human_bytes(MAX_RUN_QUEUE_BYTES)
            ),
        })
    }

    /// Close the running window early, at a swap: the statistics' window
    /// and the success windows of begin slices end at this cycle (the
    /// switch model's own history keeps its regular windows).
    fn cut_window(&mut self) {
        self.ep.split_success_windows(self.now);
        self.close_stats_window();
    }

    /// Close the current running window at `now`, a multiple of
    /// `window_cycles`, and start the next.
    fn close_window(&mut self) {
        self.close_stats_window();
        self.model.close_window(self.now);
    }

    /// Close the statistics' running window at `now` (a multiple of
    /// `window_cycles`, or a swap) and start the next.
    fn close_stats_window(&mut self) {
        let start = self.ep.stats().window_start();
        let w = self.now.saturating_sub(start).max(1) as f64;
        let hosts = self.net.num_hosts().max(1) as f64;
        let (delivered, generated, latency_sum, packets) = self.ep.stats().window_counters();
        let sample = WindowSample {
            start,
            cycle: self.now,
            accepted: delivered as f64 / (hosts * w),
            offered: generated as f64 / (hosts * w),
            avg_latency: if packets > 0 {
                latency_sum as f64 / packets as f64
            } else {
                0.0
            },
            delivered_packets: packets,
            in_flight_packets: self.ep.live_packets() as u64,
            queued_packets: self.ep.queued_packets(),
        };
        self.ep.stats_mut().close_window(sample);
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
    /// with the routing they started with; new packets use `routing`. It
    /// must use only the data VCs ([`Simulation::data_vcs`]); a routing that
    /// asks for acknowledgement packets reserves their class now if the run
    /// has none yet (an error when the VCs do not suffice).
    pub fn set_routing(&mut self, mut routing: Box<dyn Routing>) -> Result<(), String> {
        routing.set_timing(timing(&self.router));
        let name = routing.name();
        self.ep.push_routing(routing)?;
        // The running window ends here, so that each window is measured
        // under one routing (a window cut short is marked by its length;
        // the time-slice model's success windows are cut at the same
        // slice).
        if self.ep.stats().window_start() < self.now {
            self.cut_window();
        }
        self.swaps.push((self.now, name));
        Ok(())
    }

    /// The routing `spec` builds for a live swap on this run, or why the
    /// run refuses it (its router, its switch model or its VCs). The
    /// spec's router-dependent defaults are taken as they are:
    /// [`Simulation::swap_routing`] (in `knee.rs`, which runs simulations
    /// of its own and so sits above this file) resolves them first.
    pub fn routing_for_swap(&self, spec: &RoutingSpec) -> Result<Box<dyn Routing>, String> {
        if let Some(p) = self.router.routing_problem(spec) {
            return Err(p);
        }
        self.kind.check(&self.net, spec)?;
        Self::build_routing(spec, &self.net, self.router.vcs - self.ep.ack_vcs())
            .map_err(|e| e.to_string())
    }

    /// Send one packet from host `src` to host `dst`, generated now, on top
    /// of the traffic pattern (for tests, tours and hand-made examples).
    /// Hosts out of range are an error naming the range.
    pub fn send(&mut self, src: u32, dst: u32) -> Result<(), String> {
        let n = self.net.num_hosts() as u32;
        if src >= n || dst >= n {
            return Err(format!("hosts {src} -> {dst}; accepted 0..{n}"));
        }
        self.ep.enqueue(src, dst, self.now);
        Ok(())
    }

    /// The largest offered load per host per step the model takes (1 flit
    /// per cycle for the cycle-level models; the fastest access switch's
    /// rate for the time-slice model).
    pub fn max_load(&self) -> f64 {
        self.model.max_load()
    }

    /// Allocate each cycle on `threads` threads: 1 (the default), or 2 with
    /// the input-queued model on a native build, from the next cycle on
    /// (before the first, or mid-run: the app's run A when a comparison
    /// ends). The results are bit for bit the same either way
    /// (docs/performance.md, "Two threads per cycle"); an unaccepted
    /// count is the error, and nothing changes.
    pub fn set_engine_threads(&mut self, threads: usize) -> Result<(), String> {
        self.model.set_engine_threads(threads)
    }

    /// With two engine threads, split each cycle between them from `flits`
    /// flits in the network on (0: every cycle) instead of the measured
    /// default (1 536, and back to one thread below 1 024); for measuring
    /// and tests. The results are the same whatever it is.
    pub fn set_engine_split_from(&mut self, flits: u64) -> Result<(), String> {
        self.model.set_engine_split_from(flits)
    }

    /// Change the offered load from the current cycle on.
    pub fn set_load(&mut self, load: f64) {
        self.ep
            .set_load(load.clamp(0.0, self.model.max_load()), self.now);
    }

    /// Restart measurement now (statistics and channel counters cleared).
    pub fn reset_stats(&mut self) {
        self.ep.start_measuring(self.now);
    }

    pub fn now(&self) -> u64 {
        self.now
    }
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }
    /// The router's timing, as the routing sees it
    /// ([`Timing::zero_load`] gives an idle network's latencies).
    pub fn timing(&self) -> Timing {
        timing(&self.router)
    }
    /// The router's parameters.
    pub fn router(&self) -> &RouterConfig {
        &self.router
    }
    /// The measurement's parameters.
    pub fn measure(&self) -> &MeasureConfig {
        &self.measure
    }
    /// The switch model's name, e.g. `input-queued`.
    pub fn switch_model(&self) -> &'static str {
        self.kind.as_str()
    }
    /// The switch model's registry handle.
    pub fn switch_model_kind(&self) -> SwitchModelKind {
        self.kind
    }
    /// The unit of a step and of latencies: `cycles`, or `slices` for the
    /// time-slice model.
    pub fn latency_unit(&self) -> &'static str {
        self.kind.unit().step
    }
    /// The time-slice model, when it is the one running.
    pub fn time_slice(&self) -> Option<&TimeSlice> {
        self.model.as_any()?.downcast_ref::<TimeSlice>()
    }
    /// Request success with admission limit R and deadline D (time-slice
    /// model only).
    pub fn deadlines(&self) -> Option<&Deadlines> {
        self.ep.deadlines()
    }
    /// VCs data routings may use (all but the acknowledgement class).
    pub fn data_vcs(&self) -> u8 {
        self.ep.data_vcs()
    }
    pub fn load(&self) -> f64 {
        self.ep.load()
    }
    pub fn stats(&self) -> &Stats {
        self.ep.stats()
    }
    /// The endpoint layer (packets, routings, statistics).
    pub fn endpoints(&self) -> &Endpoints {
        &self.ep
    }
    /// Uniform-traffic capacity in flits per host per cycle.
    pub fn capacity(&self) -> f64 {
        self.capacity
    }
    /// The current routing's name.
    pub fn routing_name(&self) -> String {
        self.ep
            .routings()
            .last()
            .map(|r| r.name())
            .unwrap_or_default()
    }
    /// Routing swaps as (cycle, routing name), the first at cycle 0.
    pub fn swaps(&self) -> &[(u64, String)] {
        &self.swaps
    }
    /// Packets in the network (acknowledgements included).
    pub fn in_flight_packets(&self) -> usize {
        self.ep.live_packets()
    }
    /// Flits in the network.
    pub fn in_flight_flits(&self) -> u64 {
        self.model.flits_in_network()
    }
    /// Packets waiting in source queues.
    pub fn queued_packets(&self) -> u64 {
        self.ep.queued_packets()
    }
    /// [`Stats::min_source_delivery`] forgiving the packets still young at
    /// the end: the smallest share, over source hosts that generated
    /// measured packets, of those packets delivered or generated within
    /// the last `young` cycles and not delivered yet (1 when none were
    /// generated). With `young` 0 it is `min_source_delivery`. A run ends
    /// with some packets in flight whatever the load; with few packets per
    /// source (multi-flit packets, short runs) they alone put some source
    /// below 99 % on an idle network. A packet dropped or older than
    /// `young` still counts as not delivered, so a starved or overloaded
    /// flow still shows (`routelab saturation`'s per-source test).
    pub fn min_source_delivery_settled(&self, young: u64) -> f64 {
        let st = self.ep.stats();
        let forgiven = if young == 0 {
            vec![0; st.generated_by_source().len()]
        } else {
            self.ep.undelivered_since(self.now.saturating_sub(young))
        };
        st.generated_by_source()
            .iter()
            .zip(st.delivered_by_source())
            .zip(&forgiven)
            .filter(|((g, _), _)| **g > 0)
            .map(|((&g, &d), &f)| ((d + f) as f64 / g as f64).min(1.0))
            .fold(1.0, f64::min)
    }
    /// The error that stopped the run, if any.
    pub fn failure(&self) -> Option<&SimError> {
        self.failed.as_ref()
    }
    /// Flits buffered at the downstream end of each channel now.
    pub fn channel_occupancy(&self) -> Vec<u32> {
        self.model.channel_occupancy()
    }
    /// Flits buffered in each switch now, by switch id (model-neutral).
    pub fn switch_occupancy(&self) -> Vec<u32> {
        self.model.switch_occupancy()
    }
    /// Buffer space of each switch in flits.
    pub fn switch_capacity(&self) -> Vec<u32> {
        self.model.switch_capacity()
    }
    /// Per-VC buffer occupancy of a switch's input ports now, where the
    /// switch model has virtual channels.
    pub fn port_occupancy(&self, switch: u32) -> Option<Vec<PortOccupancy>> {
        self.model.port_occupancy(switch)
    }
    /// The cycle of waits the switch model finds now (input VCs as
    /// (channel, vc), each waiting on the next), if any: after a deadlock,
    /// the channels that block each other.
    pub fn wait_cycle(&self) -> Option<Vec<(u32, u8)>> {
        self.model.wait_cycle(&self.ep)
    }

    /// Check flow-control and conservation invariants.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.model.check_invariants(&self.ep)?;
        let life = self.ep.stats().lifetime();
        let in_net = self.model.flits_in_network();
        if life.injected_flits != life.delivered_flits + in_net {
            return Err(format!(
                "flits injected {} != delivered {} + in network {in_net}",
                life.injected_flits, life.delivered_flits
            ));
        }
        let live = self.ep.live_packets() as u64;
        if life.injected_packets != life.delivered_packets + live {
            return Err(format!(
                "packets injected {} != delivered {} + in flight {live}",
                life.injected_packets, life.delivered_packets
            ));
        }
        Ok(())
    }
    /// Per-channel utilization (flits per cycle) since measurement started.
    pub fn channel_utilization(&self) -> Vec<f64> {
        let cycles = self.now.saturating_sub(self.stats().measure_start()).max(1) as f64;
        self.stats()
            .channels()
            .iter()
            .map(|c| c.flits as f64 / cycles)
            .collect()
    }
    /// Per-channel mean head queueing delay (cycles) since measurement started.
    pub fn channel_queueing_delay(&self) -> Vec<f64> {
        self.stats()
            .channels()
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
    /// Per-switch mean head queueing delay (cycles) since measurement
    /// started: over the heads that left the switch on any channel, the
    /// cycles each waited in its input buffer (0 where none left).
    pub fn switch_queueing_delay(&self) -> Vec<f64> {
        let mut sums = vec![(0u64, 0u64); self.net.num_switches()];
        for (c, k) in self.stats().channels().iter().enumerate() {
            if let crate::topology::Endpoint::Switch { switch, .. } = self.net.channel(c as u32).src
            {
                let s = &mut sums[switch as usize];
                s.0 += k.wait_sum;
                s.1 += k.heads;
            }
        }
        mean_pairs(&sums)
    }
    /// Per switch, the unweighted mean head queueing delay (cycles) of its
    /// outgoing switch-to-switch channels since measurement started, an
    /// idle channel counting 0: the value of one grid point of DRB's
    /// latency surface (Franco et al. §4, Fig. 9: "the average latency of
    /// the links of a torus node"; on a k-ary n-cube its 2n links).
    pub fn node_link_delay(&self) -> Vec<f64> {
        let delay = self.channel_queueing_delay();
        let mut sums = vec![(0.0f64, 0u32); self.net.num_switches()];
        for c in self.net.channels() {
            if c.kind != crate::topology::ChannelKind::Network {
                continue;
            }
            if let crate::topology::Endpoint::Switch { switch, .. } = c.src {
                let s = &mut sums[switch as usize];
                s.0 += delay[c.id as usize];
                s.1 += 1;
            }
        }
        sums.iter()
            .map(|&(s, n)| if n > 0 { s / n as f64 } else { 0.0 })
            .collect()
    }

    /// Mean latency of packets by destination switch (0 where none).
    pub fn latency_by_destination_switch(&self) -> Vec<f64> {
        mean_pairs(self.stats().by_dst_switch())
    }
    /// Mean latency of packets by source switch (0 where none).
    pub fn latency_by_source_switch(&self) -> Vec<f64> {
        mean_pairs(self.stats().by_src_switch())
    }

    /// The measured results so far.
    pub fn summary(&self) -> Summary {
        Summary::of(
            self.stats(),
            RunInfo {
                topology: self.net.spec(),
                routing: self.routing_name(),
                offered: self.load(),
                capacity: self.capacity,
                hosts: self.net.num_hosts(),
                now: self.now,
                in_flight_packets: self.in_flight_packets() as u64,
                queued_packets: self.queued_packets(),
                // Only runs with pair statistics report the surface.
                node_link_delay: if self.stats().pairs().is_some() {
                    self.node_link_delay()
                } else {
                    Vec::new()
                },
                latency_unit: self.latency_unit(),
                requests: self.deadlines().map(|d| RequestCounts {
                    success_rate: d.success_rate().unwrap_or(f64::NAN),
                    measured_requests: d.measured(),
                    rejected_requests: d.rejected_requests(),
                    late_requests: d.late_requests(),
                    refused_transmissions: self
                        .time_slice()
                        .map_or(0, |t| t.refused_transmissions()),
                }),
            },
        )
    }

    /// The current routing's own per-channel quantity (e.g. crossing paths
    /// of path-selection tables, see [`Routing::channel_values`]): its label
    /// and one value per channel id (zero-padded to every channel), or
    /// `None` when the current routing (the last epoch's) defines none.
    pub fn routing_channel_values(&self) -> Option<(String, Vec<f64>)> {
        let (label, mut values) = self.ep.routings().last()?.channel_values()?;
        values.resize(self.net.num_channels(), 0.0);
        Some((label, values))
    }
}

/// The routing's view of the router's timing.
fn timing(router: &RouterConfig) -> Timing {
    Timing {
        link_latency: router.link_latency,
        switch_delay: router.switch_delay,
        packet_flits: router.packet_flits,
        buffer_flits: router.buffer_flits,
        wait_for_tail_credit: router.wait_for_tail_credit,
        store_and_forward: router.switching == super::config::Switching::StoreAndForward,
    }
}

fn mean_pairs(v: &[(u64, u64)]) -> Vec<f64> {
    v.iter()
        .map(|&(s, n)| if n > 0 { s as f64 / n as f64 } else { 0.0 })
        .collect()
}
