//! `routelab topo`: what a topology spec builds.

use super::CliError;
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
    /// Switch of each host.
    pub host_switch: Vec<SwitchId>,
    pub channels: Vec<Channel>,
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
        host_switch: (0..net.num_hosts() as HostId)
            .map(|h| net.host(h).switch)
            .collect(),
        channels: net.channels().to_vec(),
    }
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
    }
    Ok(())
}
