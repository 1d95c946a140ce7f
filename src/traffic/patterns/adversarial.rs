//! `adversarial[:shift=K]`: every host of group `i` sends to a uniformly
//! random host of group `i + K (mod G)`, K = 1 by default: Kim et al.'s
//! worst case ("WC", ISCA 2008 §4.2) and BookSim2's `bad_dragon`. Under
//! minimal routing a whole group's traffic then crosses the one global
//! channel to the next group, so a dragonfly with one channel per pair of
//! groups saturates at 1/(a·p) of a channel.
//!
//! It needs the network's groups ([`crate::topology::Shape::groups`]: the
//! dragonfly's); any other network is refused, naming the ones that have
//! them. A hierarchical topology joins by giving its shape groups.

use crate::rng::SimRng;
use crate::spec_options::Spec;
use crate::topology::{HostId, Network, SwitchId};
use crate::traffic::kind::{TrafficBuild, TrafficKind};
use crate::traffic::pattern::{Pattern, TrafficError, err};

/// `adversarial`.
pub const KIND: TrafficKind = TrafficKind {
    name: "adversarial",
    aliases: &["wc", "bad_dragon"],
    form: "adversarial[:shift=K] (dragonfly)",
    summary: "every host of group i to a random host of group i+K (Kim et al.'s WC, ISCA 2008 §4.2)",
    example: "adversarial",
    parse: |spec| {
        let opts = Spec::split(spec)
            .options(0, &["shift"])
            .map_err(|e| err(spec, e.to_string()))?;
        let shift = opts
            .u32("shift", 1..=u32::MAX)
            .map_err(|e| err(spec, e.to_string()))?
            .unwrap_or(1);
        Ok(Box::new(Adversarial { shift }))
    },
};

/// Most (source, destination) entries the per-source lists hold (256 MiB).
const MAX_LISTED: u64 = 1 << 26;

/// A parsed `adversarial` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Adversarial {
    shift: u32,
}

impl TrafficBuild for Adversarial {
    fn canonical(&self) -> String {
        if self.shift == 1 {
            "adversarial".into()
        } else {
            format!("adversarial:shift={}", self.shift)
        }
    }
    fn build(&self, net: &Network, _rng: &mut SimRng) -> Result<Pattern, TrafficError> {
        let groups = net.shape().groups().ok_or_else(|| {
            err(
                &self.canonical(),
                format!(
                    "{} has no groups; adversarial traffic runs on dragonflies",
                    net.spec()
                ),
            )
        })?;
        if self.shift.is_multiple_of(groups.count) {
            return Err(err(
                &self.canonical(),
                format!(
                    "shift {} is a multiple of the {} groups, so every group would send to itself; \
                     accepted a shift that is not a multiple of {}",
                    self.shift, groups.count, groups.count
                ),
            ));
        }
        let per_group = net.num_hosts() as u64 / groups.count.max(1) as u64;
        if net.num_hosts() as u64 * per_group > MAX_LISTED {
            return Err(err(
                &self.canonical(),
                format!(
                    "{} hosts with {per_group} destinations each are more than the {MAX_LISTED} \
                     the per-source lists hold; accepted a smaller dragonfly",
                    net.num_hosts()
                ),
            ));
        }
        let hosts_of_group = |g: u32| -> Vec<HostId> {
            (g * groups.size..(g + 1) * groups.size)
                .flat_map(|s: SwitchId| net.hosts_of(s))
                .collect()
        };
        let lists: Vec<Vec<HostId>> = (0..groups.count)
            .map(|g| hosts_of_group((g + self.shift % groups.count) % groups.count))
            .collect();
        Ok(Pattern::Choice(
            (0..net.num_hosts() as HostId)
                .map(|h| lists[(net.host(h).switch / groups.size) as usize].clone())
                .collect(),
        ))
    }
}
