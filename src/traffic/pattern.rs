//! Traffic patterns: who sends to whom (Dally and Towles §3.2; DRB §5;
//! Singh's thesis §2). Each pattern is a registry entry in its own file
//! ([`super::patterns`], listed in [`super::registry::KINDS`]); this file
//! holds what they share (a leaf: they import it): the pattern
//! instantiated on a network ([`Pattern`], the destination law the
//! endpoint layer draws from and the analysis reads), the error, and the
//! helpers of the option-less and switch-level patterns. The spec type is
//! [`super::spec::PatternSpec`].
//!
//! Patterns act on host ids `0..N`. Hosts on the same switch keep their
//! slot: with H hosts per switch, host `h` is slot `h mod H` of switch
//! `h / H` for coordinate patterns.

use crate::rng::{SimRng, below, unit};
use crate::topology::{HostId, Network, SwitchId};

/// A traffic pattern that cannot be parsed or does not fit the network.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("traffic `{spec}`: {problem}; accepted: {accepted}")]
pub struct TrafficError {
    pub spec: String,
    pub problem: String,
    pub accepted: String,
}

/// The error of `spec`: `problem`. The accepted forms are the registry's,
/// which this file does not read (every pattern's entry uses it, and the
/// registry lists the entries): the spec parser ([`super::spec`]) fills
/// them in.
pub fn err(spec: &str, problem: impl Into<String>) -> TrafficError {
    TrafficError {
        spec: spec.into(),
        problem: problem.into(),
        accepted: String::new(),
    }
}

impl TrafficError {
    /// The error with `accepted` as its accepted forms, when it has none.
    pub fn with_accepted(mut self, accepted: impl FnOnce() -> String) -> TrafficError {
        if self.accepted.is_empty() {
            self.accepted = accepted();
        }
        self
    }
}

/// A pattern instantiated for one network.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Uniform over the other hosts.
    Uniform { hosts: u32 },
    /// Hot spot mix.
    HotSpot {
        hosts: u32,
        fraction: f64,
        hot: Vec<HostId>,
    },
    /// A fixed destination per source.
    Permutation(Vec<HostId>),
    /// Uniform over a per-source list of destinations.
    Choice(Vec<Vec<HostId>>),
}

impl Pattern {
    /// Destination of a packet from `src`.
    #[inline]
    pub fn destination(&self, src: HostId, rng: &mut SimRng) -> HostId {
        match self {
            Pattern::Uniform { hosts } => uniform_other(*hosts, src, rng),
            Pattern::HotSpot {
                hosts,
                fraction,
                hot,
            } => {
                if unit(rng) < *fraction {
                    let d = hot[below(rng, hot.len() as u32) as usize];
                    if d != src {
                        return d;
                    }
                    if hot.len() > 1 {
                        // Redraw among the other hot hosts.
                        let others: Vec<HostId> =
                            hot.iter().copied().filter(|&h| h != src).collect();
                        if !others.is_empty() {
                            return others[below(rng, others.len() as u32) as usize];
                        }
                    }
                }
                uniform_other(*hosts, src, rng)
            }
            Pattern::Permutation(p) => p[src as usize],
            Pattern::Choice(c) => {
                let list = &c[src as usize];
                list[below(rng, list.len() as u32) as usize]
            }
        }
    }
}

#[inline]
fn uniform_other(n: u32, src: HostId, rng: &mut SimRng) -> HostId {
    let d = below(rng, n - 1);
    if d >= src { d + 1 } else { d }
}

/// Apply `f(k, digit)` to every radix digit of switch `s`.
pub(crate) fn map_digits(radix: &[u32], s: SwitchId, f: impl Fn(u32, u32) -> u32) -> SwitchId {
    let mut out = 0;
    let mut stride = 1;
    let mut rest = s;
    for &k in radix {
        let x = rest % k;
        rest /= k;
        out += f(k, x) * stride;
        stride *= k;
    }
    out
}

/// Build a pattern from a switch-level map, keeping each host's slot.
pub(crate) fn per_switch(net: &Network, f: impl Fn(SwitchId) -> Vec<SwitchId>) -> Pattern {
    let slots: Vec<Vec<HostId>> = (0..net.num_switches() as SwitchId)
        .map(|s| net.hosts_of(s).collect())
        .collect();
    let mut choices: Vec<Vec<HostId>> = Vec::with_capacity(net.num_hosts());
    for h in 0..net.num_hosts() as HostId {
        let host = net.host(h);
        let slot = slots[host.switch as usize]
            .iter()
            .position(|&x| x == h)
            .unwrap_or(0);
        let dests: Vec<HostId> = f(host.switch)
            .into_iter()
            .filter_map(|t| {
                let l = &slots[t as usize];
                (!l.is_empty()).then(|| l[slot % l.len()])
            })
            .collect();
        choices.push(if dests.is_empty() { vec![h] } else { dests });
    }
    if choices.iter().all(|c| c.len() == 1) {
        Pattern::Permutation(choices.into_iter().map(|c| c[0]).collect())
    } else {
        Pattern::Choice(choices)
    }
}
