//! The expected channel load of an oblivious routing under run A's own
//! traffic (Singh's thesis §2.2, γ_c = Σ_sd λ_sd·w_c(s,d)): [`Expected`],
//! what it is cached by ([`ExpectedKey`]), the job that computes it for
//! several routings a routing at a time ([`ExpectedJob`]), and the colour
//! scale it shares with the simulated utilization ([`shared_scale`]).

use super::background::Job;
use super::compare::value;
use super::loads::{LoadSum, Loads, SLICE};
use super::spec::spec_of;
use crate::analysis::{ChannelWeights, Cube, Law, TrafficMatrix, channel_loads};
use crate::scenario::Scenario;
use crate::topology::{ChannelKind, Endpoint, Network};
use num_rational::Ratio;
use std::sync::Arc;

/// The top of the colour scale shared by the expected-load view and the
/// simulated utilization: the largest finite value on any switch-to-switch
/// channel (ids `0..network_channels`) of any of `views` (0 when all idle).
pub fn shared_scale(views: &[&[f64]], network_channels: usize) -> f64 {
    views
        .iter()
        .flat_map(|v| v.iter().take(network_channels))
        .copied()
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max)
}

/// What an expected load is cached by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExpectedKey {
    pub topology: String,
    /// The scenario's traffic spec.
    pub traffic: String,
    /// The scenario's routing (plain `worst` traffic is its worst case).
    pub scenario_routing: String,
    /// The scenario's seed (`randperm` draws with it).
    pub seed: u64,
    /// The routing analysed ([`spec_of`]).
    pub routing: String,
}

impl ExpectedKey {
    pub(super) fn new(scenario: &Scenario, net: &Network, routing: &Law) -> Self {
        ExpectedKey {
            topology: net.spec().to_string(),
            traffic: scenario.traffic.trim().to_string(),
            scenario_routing: scenario.routing.trim().to_string(),
            seed: scenario.seed,
            routing: spec_of(routing),
        }
    }
}

/// The expected load of one routing under one run's traffic (Singh §2.2).
#[derive(Clone, Debug)]
pub struct Expected {
    pub routing: Law,
    /// γ_c per network channel id: flits per cycle on the channel per
    /// flit per host per cycle offered. Switch-to-switch channels from the
    /// analysis; injection and ejection channels carry the traffic
    /// matrix's row and column sums (as `routelab load --channels`).
    pub gamma: Vec<f64>,
    /// Ideal throughput 1/(Θ·max γ) as a fraction of capacity (None: no
    /// packet crosses a channel).
    pub ideal: Option<Ratio<i128>>,
    /// Θ, flits per node per cycle (not capped at the host link).
    pub capacity: Ratio<i128>,
    /// max_c γ_c.
    pub max_gamma: Ratio<i128>,
    /// Mean switch-to-switch hops per packet.
    pub avg_hops: Ratio<i128>,
    /// The busiest channel, `(x,y)+d0` style.
    pub busiest: String,
    /// w_c(s,d) of the routing, for the per-pair numbers.
    pub weights: Arc<ChannelWeights>,
}

impl Expected {
    /// Compute γ for `routing` under `matrix` on `cube` at once.
    pub fn compute(cube: &Cube, matrix: &TrafficMatrix, routing: Law) -> Result<Expected, String> {
        let w = ChannelWeights::new(cube, routing).map_err(|e| e.to_string())?;
        let loads = Loads::from(&channel_loads(&w, matrix).map_err(|e| e.to_string())?);
        Ok(Expected::from_loads(cube, matrix, w, &loads))
    }

    /// The expected load from summed channel loads.
    pub fn from_loads(
        cube: &Cube,
        matrix: &TrafficMatrix,
        weights: ChannelWeights,
        loads: &Loads,
    ) -> Expected {
        let net = cube.network();
        let mut gamma = vec![0.0; net.num_channels()];
        for (ch, &g) in loads.gamma.iter().enumerate() {
            if let Some(id) = cube.network_channel(ch as u32) {
                gamma[id as usize] = g;
            }
        }
        let rows = matrix.row_sums();
        let cols = matrix.column_sums();
        for c in net.channels() {
            let sum = match (c.kind, c.src, c.dst) {
                (ChannelKind::Injection, Endpoint::Host { host }, _) => rows.get(host as usize),
                (ChannelKind::Ejection, _, Endpoint::Host { host }) => cols.get(host as usize),
                _ => None,
            };
            if let Some(r) = sum {
                gamma[c.id as usize] = value(*r);
            }
        }
        Expected {
            routing: weights.routing().clone(),
            gamma,
            ideal: loads.ideal,
            capacity: cube.capacity(),
            max_gamma: loads.max,
            avg_hops: loads.avg_hops,
            busiest: cube.channel_label(loads.busiest),
            weights: Arc::new(weights),
        }
    }

    /// The expected utilization of every channel at offered load `load`
    /// (flits per host per cycle): L·γ_c flits per cycle, the unit of
    /// [`Simulation::channel_utilization`](crate::sim::Simulation::channel_utilization).
    /// Valid below saturation.
    pub fn utilization(&self, load: f64) -> Vec<f64> {
        self.gamma.iter().map(|g| g * load).collect()
    }

    /// The ideal throughput as an offered load in flits per host per
    /// cycle: ideal × Θ (the routing saturates a channel there).
    pub fn ideal_load(&self) -> Option<f64> {
        self.ideal.map(|t| value(t * self.capacity))
    }
}

/// Expected loads of several routings under one run's traffic, one routing
/// a step (the first step builds the traffic matrix).
pub struct ExpectedJob {
    net: Arc<Network>,
    scenario: Scenario,
    routings: Vec<Law>,
    prepared: Option<Result<(Cube, TrafficMatrix), String>>,
    /// The routing being summed: its weights and the sum so far.
    current: Option<(ChannelWeights, LoadSum)>,
    results: Vec<(Law, Result<Arc<Expected>, String>)>,
}

impl ExpectedJob {
    pub fn new(scenario: &Scenario, net: Arc<Network>, routings: Vec<Law>) -> Self {
        ExpectedJob {
            net,
            scenario: scenario.clone(),
            routings,
            prepared: None,
            current: None,
            results: Vec::new(),
        }
    }

    /// The run's traffic as a matrix: the very pattern it draws from.
    fn prepare(&self) -> Result<(Cube, TrafficMatrix), String> {
        let cube = Cube::from_network(&self.net).map_err(|e| e.to_string())?;
        let pattern = self
            .scenario
            .pattern_on(&self.net)
            .map_err(|e| format!("traffic `{}`: {e}", self.scenario.traffic))?;
        let m = TrafficMatrix::from_pattern(&pattern, self.net.num_hosts())
            .map_err(|e| e.to_string())?;
        Ok((cube, m))
    }
}

impl Job for ExpectedJob {
    type Snapshot = Vec<(Law, Result<Arc<Expected>, String>)>;

    /// First the matrix, then per routing its weights, then its loads a
    /// [`SLICE`] a step.
    fn step(&mut self) -> bool {
        let Some(prepared) = &self.prepared else {
            self.prepared = Some(self.prepare());
            return self.routings.is_empty();
        };
        let Some(r) = self.routings.get(self.results.len()).cloned() else {
            return true;
        };
        match (prepared, self.current.take()) {
            (Err(e), _) => {
                let e = e.clone();
                let rest: Vec<_> = self.routings[self.results.len()..].to_vec();
                self.results
                    .extend(rest.into_iter().map(|r| (r, Err(e.clone()))));
            }
            (Ok((cube, m)), None) => {
                let started = ChannelWeights::new(cube, r.clone())
                    .map_err(|e| e.to_string())
                    .and_then(|w| LoadSum::new(&w, m).map(|sum| (w, sum)));
                match started {
                    Ok(c) => self.current = Some(c),
                    Err(e) => self.results.push((r, Err(e))),
                }
            }
            (Ok((cube, m)), Some((w, mut sum))) => {
                if sum.advance(&w, m, SLICE) {
                    let loads = sum.finish();
                    let e = Expected::from_loads(cube, m, w, &loads);
                    self.results.push((r, Ok(Arc::new(e))));
                } else {
                    self.current = Some((w, sum));
                }
            }
        }
        self.results.len() >= self.routings.len()
    }

    fn snapshot(&self) -> Self::Snapshot {
        self.results.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_scale_is_the_largest_network_channel_value() {
        let expected = [0.2, 0.5, 0.1, 9.0];
        let simulated = [0.3, 0.45, f64::NAN, 9.0];
        assert_eq!(shared_scale(&[&expected, &simulated], 3), 0.5);
        assert_eq!(shared_scale(&[&[0.0, 0.0]], 2), 0.0);
    }
}
