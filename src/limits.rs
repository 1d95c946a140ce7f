//! Every size limit routelab enforces, in one place, each with its reason.
//!
//! A request beyond a limit is refused at once, before anything is built,
//! with a message that names the limit; nothing the CLI, a scenario file, a
//! share link or the app's scenario panel accepts takes gigabytes of memory
//! or minutes of work before the first simulated cycle. The CLI and the app
//! apply the same checks ([`crate::scenario::Scenario::problems`] and the
//! spec parsers).
//!
//! The numbers are chosen so that building a network, its routing tables
//! and the simulation state at the limit takes a few seconds and well under
//! [`MAX_STATE_BYTES`] of memory (measurements in `docs/reliability.md`).
//!
//! This file imports nothing from the crate (a leaf of the module graph):
//! the limits are plain numbers and the estimates plain arithmetic.

use std::ops::RangeInclusive;

/// Most switches of a torus, mesh, hypercube or midimew (2^18: a 512x512
/// torus). The network and the state of a default simulation on it take
/// about 0.7 GB; more is refused by [`MAX_STATE_BYTES`] anyway.
pub const MAX_SWITCHES: u64 = 1 << 18;

/// Most hosts of any network (2^20). Each host has two channels, a source
/// queue and per-host statistics.
pub const MAX_HOSTS: u64 = 1 << 20;

/// Most channels (switch-to-switch, injection and ejection) of any network
/// (2^22). Every per-channel structure (buffers, credits, counters, the
/// drawing) scales with it.
pub const MAX_CHANNELS: u64 = 1 << 22;

/// Most switches of a random irregular network or an edge-list file
/// (2048). Their drawing is a force-directed layout, quadratic in the
/// switches, and their capacity needs the distances between every pair of
/// switches: a few seconds at 2048.
pub const MAX_IRREGULAR_SWITCHES: u64 = 2048;

/// Most ports of one switch in an edge-list file or an irregular network
/// (links and hosts together): 255, as `irregular:N:ports=P` accepts.
pub const MAX_PORTS: u64 = 255;

/// Most links an edge-list file may list (1 << 20 lines).
pub const MAX_FILE_LINKS: u64 = 1 << 20;

/// Largest edge-list file read, in bytes (64 MiB): a bigger file is refused
/// before it is read.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Dimension of a hypercube (`hypercube:N`): 1..=16 (65536 switches).
pub const HYPERCUBE_DIMENSIONS: RangeInclusive<u32> = 1..=16;

/// k of a fat tree (`fattree:K`): even, 2..=64 (5120 switches, 65536 hosts).
pub const FAT_TREE_K: RangeInclusive<u32> = 2..=64;

/// Hosts per switch of the cube-like kinds and of edge-list files.
pub const HOSTS_PER_SWITCH: RangeInclusive<u32> = 1..=64;

/// Virtual channels per port: 1..=16 (the router keeps one bit per VC in a
/// 16-bit set).
pub const VCS: RangeInclusive<u8> = 1..=16;

/// Buffer depth per virtual channel, in flits.
pub const BUFFER_FLITS: RangeInclusive<u16> = 1..=1024;

/// Flits per packet.
pub const PACKET_FLITS: RangeInclusive<u16> = 1..=1024;

/// Link latency and switch delay, in cycles (the event wheels are sized by
/// their sum).
pub const DELAY_CYCLES: RangeInclusive<u16> = 1..=64;

/// Most measured cycles, and most warm-up cycles, a scenario may ask for
/// (10^12: days of simulation; a run reports no results before it ends).
pub const MAX_CYCLES: u64 = 1_000_000_000_000;

/// Largest memory estimate of a simulation's state before it starts
/// (1 GiB natively, 256 MiB in the browser, whose 32-bit WebAssembly
/// memory also holds the app): network, buffers, per-VC state and
/// per-channel counters ([`simulation_bytes`]). Beyond it the scenario is
/// refused with the estimate and the numbers behind it.
pub const MAX_STATE_BYTES: u64 = if cfg!(target_arch = "wasm32") {
    1 << 28
} else {
    1 << 30
};

/// Largest memory a run may grow to while it runs (1 GiB): past saturation
/// the source queues (and the output-queued model's queues) grow without
/// bound, so a run that reaches this many bytes of queued packets stops
/// with an error naming the cycle, instead of exhausting the machine.
pub const MAX_RUN_QUEUE_BYTES: u64 = 1 << 30;

/// Bytes a queued packet costs while it waits in a source queue.
pub const QUEUED_PACKET_BYTES: u64 = 16;

/// Bytes a packet costs while it is in the network (one cache line).
pub const LIVE_PACKET_BYTES: u64 = 64;

/// Most switches path selection (`paths:` routings, `routelab paths`) works
/// on (1024: a million ordered pairs).
pub const MAX_PATH_SWITCHES: u64 = 1024;

/// Most hops stored over all kept paths of a path set (2^26, 256 MiB): the
/// path set is refused before its paths are enumerated when the kept paths
/// would need more (lower `cap`).
pub const MAX_PATH_HOPS: u64 = 1 << 26;

/// Most SA moves or GA generations a path selection may be given (10^8):
/// SA makes a few million moves per second on small networks, and the GA's
/// generations cost more each.
pub const MAX_SEARCH_BUDGET: u64 = 100_000_000;

/// Most genes over a GA population (population × pairs with a choice,
/// 2^25): the population's memory.
pub const MAX_GA_GENES: u64 = 1 << 25;

/// GA population size.
pub const GA_POPULATION: RangeInclusive<u64> = 2..=100_000;

/// Most points of a campaign (the product of its axes, 100 000): each point
/// is a result file in one directory and a row the merge reads back, and
/// every point is checked as a scenario before any runs (a few seconds at
/// this size). The product is refused before it is expanded; a bigger study
/// is several campaigns. The DRB comparison is 4 500 points.
pub const MAX_CAMPAIGN_POINTS: u64 = 100_000;

/// How big a network is, without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkSize {
    pub switches: u64,
    pub hosts: u64,
    /// Switch-to-switch channels (two per link).
    pub network_channels: u64,
    /// Most ports of one switch.
    pub max_ports: u64,
}

impl NetworkSize {
    /// Every channel: switch-to-switch, then one injection and one ejection
    /// per host.
    pub fn channels(&self) -> u64 {
        self.network_channels
            .saturating_add(self.hosts.saturating_mul(2))
    }

    /// The network limits this size breaks, one message each.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.hosts > MAX_HOSTS {
            p.push(format!("{} hosts; at most {MAX_HOSTS}", self.hosts));
        }
        if self.channels() > MAX_CHANNELS {
            p.push(format!(
                "{} channels; at most {MAX_CHANNELS}",
                self.channels()
            ));
        }
        p
    }

    /// Approximate memory of the network itself: ports, channels, the
    /// graph view and drawing coordinates.
    pub fn network_bytes(&self) -> u64 {
        let ports = self.network_channels.saturating_add(self.hosts);
        ports
            .saturating_mul(32)
            .saturating_add(self.channels().saturating_mul(40))
            .saturating_add(self.switches.saturating_mul(96))
            .saturating_add(self.hosts.saturating_mul(16))
    }
}

/// The router parameters a memory estimate needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateParams {
    pub vcs: u64,
    pub buffer_flits: u64,
}

/// Estimated bytes of a simulation on a network of `size` before its first
/// cycle: the network, then per input virtual channel (a channel into a
/// switch) its flit buffer (8 bytes a flit), its state and its routing
/// candidates (82 bytes); per channel and VC its credits (8 bytes); per
/// channel its arbiter and counters (64 bytes); per switch and host their
/// queues and counters. Measured within 10 % of the resident memory of
/// `sim` on tori from 8x8 to 512x512 (the input-queued model, the largest;
/// the output-queued model needs less).
pub fn simulation_bytes(size: &NetworkSize, p: StateParams) -> u64 {
    let inputs = size.network_channels.saturating_add(size.hosts);
    let per_input_vc = p.buffer_flits.saturating_mul(8).saturating_add(82);
    let buffers = inputs.saturating_mul(p.vcs).saturating_mul(per_input_vc);
    let per_channel = p.vcs.saturating_mul(8).saturating_add(64);
    let channels = size.channels().saturating_mul(per_channel);
    let per_node = size
        .switches
        .saturating_mul(64)
        .saturating_add(size.hosts.saturating_mul(128));
    size.network_bytes()
        .saturating_add(buffers)
        .saturating_add(channels)
        .saturating_add(per_node)
}

/// The problem with a simulation of `size` and `p`, if its state would
/// exceed [`MAX_STATE_BYTES`]: the estimate and what it is made of.
pub fn simulation_problem(size: &NetworkSize, p: StateParams) -> Option<String> {
    let bytes = simulation_bytes(size, p);
    (bytes > MAX_STATE_BYTES).then(|| {
        format!(
            "the simulation would need about {} of memory before its first cycle ({} switches, {} hosts, {} channels, {} VCs x {} flits of buffer per input); at most {}: use a smaller topology, fewer vcs or a smaller buffer_flits",
            human_bytes(bytes),
            size.switches,
            size.hosts,
            size.channels(),
            p.vcs,
            p.buffer_flits,
            human_bytes(MAX_STATE_BYTES)
        )
    })
}

/// `1.5 GiB`, `640 MiB`, `12 KiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else if x >= 100.0 {
        format!("{x:.0} {}", UNITS[u])
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_scale_and_refuse_gigabytes() {
        // torus:1000x1000 with the default router: millions of inputs.
        let big = NetworkSize {
            switches: 1_000_000,
            hosts: 1_000_000,
            network_channels: 4_000_000,
            max_ports: 5,
        };
        let p = StateParams {
            vcs: 2,
            buffer_flits: 8,
        };
        let msg = simulation_problem(&big, p).unwrap();
        assert!(
            msg.contains("GiB") && msg.contains("at most 1.0 GiB"),
            "{msg}"
        );
        let small = NetworkSize {
            switches: 64,
            hosts: 64,
            network_channels: 256,
            max_ports: 5,
        };
        assert_eq!(simulation_problem(&small, p), None);
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
