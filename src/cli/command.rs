//! The command line's shape: [`Cli`] and its subcommands ([`Command`]),
//! each subcommand's arguments in its own file.

use clap::{Parser, Subcommand};

/// routelab: see load balancing in interconnection networks.
#[derive(Debug, Parser)]
#[command(name = "routelab", version, about, long_about = None)]
#[cfg_attr(
    not(feature = "gui"),
    command(
        about = "See load balancing in interconnection networks: a cycle-level simulator. \
                 This build has no GUI (--no-default-features, as scripts/test.sh builds \
                 the core); `cargo run --release` builds and opens the app."
    )
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one scenario and print its summary.
    Sim(super::sim::SimArgs),
    /// Run one scenario over a range of offered loads.
    Sweep(super::sweep::SweepArgs),
    /// Find the saturation throughput by bisection over offered loads.
    Saturation(super::saturation::SaturationArgs),
    /// Describe a topology: switches, hosts, channels, diameter, capacity.
    Topo(super::topo::TopoArgs),
    /// Path selection on up*/down* and UDWM: crossing paths per channel.
    Paths(super::paths::PathsArgs),
    /// Exact channel-load analysis of oblivious routing on tori: IDEAL (ANALYTIC) throughput.
    Load(super::load::LoadArgs),
    /// Open the desktop app on a scenario, preset, tour or recorded demo.
    App(super::app::AppArgs),
    /// Campaigns: a file of axes over a scenario, run on all cores or as a
    /// Slurm job array, resumed, merged and plotted.
    Campaign(super::campaign::CampaignArgs),
}
