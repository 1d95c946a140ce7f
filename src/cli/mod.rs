//! The headless command line: `routelab sim`, `routelab sweep`,
//! `routelab topo`, `routelab paths`, `routelab campaign`. Bad input exits with code 2 and a one-line message
//! naming the field and the accepted values; a run that fails (deadlock)
//! exits with 1.

mod app;
mod args;
mod campaign;
mod command;
mod load;
mod load_network;
mod output;
mod paths;
mod progress;
mod saturation;
mod sim;
mod sweep;
mod topo;

pub use app::{AppArgs, StartFile, Startup, classify};
pub use args::ScenarioArgs;
pub use command::{Cli, Command};
pub use output::CliError;

use output::{check_out_dir, check_output, emit, write_file};

/// Run a parsed command.
pub fn run(cmd: Command) -> Result<(), CliError> {
    // Long runs report progress (`progress`); on a terminal a sweep's own
    // bar of loads stands in for the bar of cycles.
    // (`ROUTELAB_PROGRESS_INTERVAL_MS` is checked before anything runs.)
    let interval = crate::env_knobs::progress_interval().map_err(CliError::Input)?;
    progress::start(matches!(&cmd, Command::Sweep(a) if !a.json), interval);
    let result = match cmd {
        Command::Sim(a) => sim::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Saturation(a) => saturation::run(a),
        Command::Topo(a) => topo::run(a),
        Command::Paths(a) => paths::run(a),
        Command::Load(a) => load::run(a),
        // The binary opens the app itself when it has the GUI.
        Command::App(_) => Err(app::without_gui()),
        Command::Campaign(a) => campaign::run(a),
    };
    progress::finish();
    result
}
