//! `routelab topo`: what a topology spec builds.

use super::CliError;
use crate::topology::import::{FabricInfo, WiringSummary, wiring_summary};
use crate::topology::{
    Channel, DistanceStats, HostId, Network, SwitchId, TopologySpec, capacity_per_host,
};
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct TopoArgs {
    /// Topology spec, e.g. torus:8x8 or irregular:16:seed=3.
    #[arg(long)]
    pub topology: String,
    /// Print one JSON object (with every channel).
    #[arg(long)]
    pub json: bool,
}

/// `topo --json` output.
#[derive(Debug, Serialize)]
pub struct TopoReport {
    pub topology: String,
    pub switches: usize,
    pub hosts: usize,
    pub network_channels: usize,
    pub diameter: u32,
    pub avg_distance: f64,
    pub avg_host_distance: f64,
    /// Uniform-traffic capacity, flits per host per cycle.
    pub capacity: f64,
    /// Cables, parallel groups and hosts per switch.
    pub wiring: WiringSummary,
    /// Switch of each host.
    pub host_switch: Vec<SwitchId>,
    pub channels: Vec<Channel>,
    /// An imported fabric's descriptions, GUIDs, LIDs, file port numbers
    /// and link speeds (`ibnetdiscover:`, `ibsim:`, `anynet:` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fabric: Option<FabricInfo>,
}

pub fn report(net: &Network) -> TopoReport {
    let d = DistanceStats::of(net);
    TopoReport {
        topology: net.spec().to_string(),
        switches: net.num_switches(),
        hosts: net.num_hosts(),
        network_channels: net.num_network_channels(),
        diameter: d.diameter,
        avg_distance: d.avg_switch_distance,
        avg_host_distance: d.avg_host_distance,
        capacity: capacity_per_host(net),
        wiring: wiring_summary(net),
        host_switch: (0..net.num_hosts() as HostId)
            .map(|h| net.host(h).switch)
            .collect(),
        channels: net.channels().to_vec(),
        fabric: net.fabric().cloned(),
    }
}

/// `48 x 4xEDR (100 Gb/s), 2 x 4xHDR (200 Gb/s)` over switch-to-switch
/// cables, fastest first; `None` when the file gives no speeds.
fn speeds_text(f: &FabricInfo) -> Option<String> {
    let mut by: Vec<(String, Option<f64>, usize)> = Vec::new();
    for c in &f.cables {
        let Some(link) = &c.link else { continue };
        match by.iter_mut().find(|(l, _, _)| l == link) {
            Some(e) => e.2 += 1,
            None => by.push((link.clone(), c.gbps, 1)),
        }
    }
    if by.is_empty() {
        return None;
    }
    by.sort_by(|a, b| {
        b.1.unwrap_or(0.0)
            .total_cmp(&a.1.unwrap_or(0.0))
            .then(a.0.cmp(&b.0))
    });
    Some(
        by.iter()
            .map(|(l, g, n)| match g {
                Some(g) => format!("{n} x {l} ({g} Gb/s)"),
                None => format!("{n} x {l}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
    )
}

pub fn run(a: TopoArgs) -> Result<(), CliError> {
    let spec: TopologySpec = a
        .topology
        .parse()
        .map_err(|e: crate::topology::TopologyError| CliError::Input(e.to_string()))?;
    let net = spec.build().map_err(|e| CliError::Input(e.to_string()))?;
    let r = report(&net);
    if a.json {
        super::emit(&(serde_json::to_string(&r).unwrap_or_default() + "\n"))?;
    } else {
        super::emit(&format!(
            "{}: {} switches, {} hosts, {} switch-to-switch channels\n\
             diameter {}, average distance {:.3} (between hosts {:.3})\n\
             capacity {:.4} flits/host/cycle under uniform traffic\n",
            r.topology,
            r.switches,
            r.hosts,
            r.network_channels,
            r.diameter,
            r.avg_distance,
            r.avg_host_distance,
            r.capacity
        ))?;
        let w = &r.wiring;
        let parallel = if w.parallel_groups == 0 {
            "no parallel cables".to_string()
        } else {
            format!(
                "{} parallel group{} ({} cables, up to {} between two switches)",
                w.parallel_groups,
                if w.parallel_groups == 1 { "" } else { "s" },
                w.parallel_cables,
                w.max_parallel
            )
        };
        let hosts = if w.min_hosts_per_switch == w.max_hosts_per_switch {
            format!("{} hosts on every switch", w.max_hosts_per_switch)
        } else {
            format!(
                "{}..{} hosts per switch ({} without hosts)",
                w.min_hosts_per_switch, w.max_hosts_per_switch, w.switches_without_hosts
            )
        };
        super::emit(&format!(
            "{} switch-to-switch cables, {parallel}; {hosts}\n",
            w.cables
        ))?;
        if let Some(f) = &r.fabric {
            let mut text = format!(
                "{} file {}: {} switch records, {} adapter ports cabled",
                f.format,
                f.path,
                f.switches.len(),
                f.hosts.len()
            );
            if f.uncabled_adapters > 0 {
                text += &format!(", {} adapters without a cable", f.uncabled_adapters);
            }
            text += "\n";
            if let Some(speeds) = speeds_text(f) {
                text += &format!(
                    "links: {speeds} (shown only: every simulated channel carries one flit per cycle)\n"
                );
            }
            super::emit(&text)?;
        }
    }
    Ok(())
}
