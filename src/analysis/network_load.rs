//! Exact channel loads of an oblivious routing on any network whose
//! routing hands out a path law ([`crate::routing::PathLaw`], through
//! [`crate::routing::RoutingBuild::path_law`]): the dragonfly's MIN and
//! VAL today. The same sum as on the tori (Singh's thesis §2.2), γ_c =
//! Σ_sd λ_sd · w_c(s,d), but with w_c(s,d) read from the routing's exact
//! distribution over paths between the hosts' switches instead of the
//! per-dimension product form, and over every channel: switch to switch,
//! and the hosts' injection and ejection channels.
//!
//! **Units.** The traffic matrix's rows sum to 1 (every host injects one
//! flit per cycle), so γ_c is channel c's load in flits per cycle at an
//! offered load of 1 flit per host per cycle, and the ideal throughput
//! 1 / max_c γ_c is in flits per host per cycle: a fraction of the host
//! link (no capacity Θ here; the host channels are in the max, so it is
//! at most 1). A packet to its own host crosses nothing.
//!
//! Exact: integers over the common denominator L·D (L the matrix's, D the
//! law's). The host matrix is first summed per pair of switches, so the
//! work is one law per pair of switches with traffic.

use super::AnalysisError;
use super::matrix::TrafficMatrix;
use crate::routing::PathLaw;
use crate::topology::{ChannelId, Network, SwitchId};
use num_rational::Ratio;
use std::collections::BTreeMap;

/// Exact loads of every channel of a network (ids as the network's).
#[derive(Clone, Debug)]
pub struct NetworkLoads {
    /// γ_c·den per channel id.
    numer: Vec<i128>,
    den: i128,
    /// Σ_sd λ_sd over pairs of distinct hosts.
    injected: Ratio<i128>,
    /// Switch-to-switch channels are ids `0..network`.
    network: usize,
}

/// γ_c of every channel of `net` for `law` under `m` (module docs).
pub fn network_loads(
    net: &Network,
    law: &dyn PathLaw,
    m: &TrafficMatrix,
) -> Result<NetworkLoads, AnalysisError> {
    if m.nodes() != net.num_hosts() {
        return Err(AnalysisError::Traffic {
            spec: "matrix".into(),
            problem: format!(
                "{} nodes, the network has {} hosts",
                m.nodes(),
                net.num_hosts()
            ),
            accepted: super::matrix::accepted(),
        });
    }
    let d = law.denominator();
    let den = m
        .denominator()
        .checked_mul(d)
        .ok_or_else(|| AnalysisError::Overflow {
            spec: net.spec().to_string(),
            routing: law.name(),
            what: "L·D".into(),
        })?;
    let mut numer = vec![0i128; net.num_channels()];
    let mut pairs: BTreeMap<(SwitchId, SwitchId), i128> = BTreeMap::new();
    let mut injected = 0i128;
    for &(s, t, x) in m.entries() {
        if s == t {
            continue;
        }
        injected += x;
        numer[net.injection_channel(s) as usize] += x * d;
        numer[net.ejection_channel(t) as usize] += x * d;
        let (a, b) = (net.host(s).switch, net.host(t).switch);
        if a != b {
            *pairs.entry((a, b)).or_insert(0) += x;
        }
    }
    for (&(a, b), &x) in &pairs {
        let mut total = 0i128;
        for (w, path) in law.paths(a, b) {
            total += w;
            for ch in path {
                numer[ch as usize] += x * w;
            }
        }
        debug_assert_eq!(total, d, "{}: {a}->{b} weights", law.name());
    }
    Ok(NetworkLoads {
        numer,
        den,
        injected: Ratio::new(injected, m.denominator()),
        network: net.num_network_channels(),
    })
}

impl NetworkLoads {
    /// γ_c of channel `ch` (flits per cycle at one flit per host per cycle).
    pub fn load(&self, ch: ChannelId) -> Ratio<i128> {
        Ratio::new(self.numer[ch as usize], self.den)
    }
    /// γ_c of every channel as floats.
    pub fn loads_f64(&self) -> Vec<f64> {
        self.numer
            .iter()
            .map(|&x| x as f64 / self.den as f64)
            .collect()
    }
    /// The largest load of a switch-to-switch channel, and a channel
    /// carrying it (the lowest id).
    pub fn max_network_load(&self) -> (Ratio<i128>, ChannelId) {
        let net = &self.numer[..self.network];
        let max = net.iter().copied().max().unwrap_or(0);
        let at = net.iter().position(|&x| x == max).unwrap_or(0);
        (Ratio::new(max, self.den), at as ChannelId)
    }
    /// The largest load of any channel, host channels included.
    pub fn max_load(&self) -> Ratio<i128> {
        Ratio::new(self.numer.iter().copied().max().unwrap_or(0), self.den)
    }
    /// The ideal throughput 1 / max_c γ_c in flits per host per cycle;
    /// `None` when nothing is sent.
    pub fn ideal_throughput(&self) -> Option<Ratio<i128>> {
        let max = self.max_load();
        (max != Ratio::from_integer(0)).then(|| max.recip())
    }
    /// Mean switch-to-switch hops per packet.
    pub fn avg_hops(&self) -> Ratio<i128> {
        if self.injected == Ratio::from_integer(0) {
            return Ratio::from_integer(0);
        }
        Ratio::new(self.numer[..self.network].iter().sum(), self.den) / self.injected
    }
}
