//! The headless command line: `routelab sim`, `routelab sweep`,
//! `routelab topo`, `routelab paths`, `routelab campaign`. Bad input exits with code 2 and a one-line message
//! naming the field and the accepted values; a run that fails (deadlock)
//! exits with 1.

mod app;
mod args;
mod campaign;
mod load;
mod paths;
mod progress;
mod saturation;
mod sim;
mod sweep;
mod topo;

pub use app::{AppArgs, StartFile, Startup, classify};
pub use args::{Cli, Command, ScenarioArgs};

use std::io::Write;
use std::process::ExitCode;

/// Write a command's output to standard output. A reader that has gone
/// away (`routelab sim --json | head -c 100`) is not an error: the output
/// simply has nowhere to go, as with any Unix filter. Other write failures
/// (a full disk) are reported.
fn emit(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Run(format!("cannot write the output: {e}"))),
    }
}

/// A CLI failure: bad input (exit 2), a failed run (exit 1) or a run
/// stopped by Ctrl-C (exit 130, as a shell reports SIGINT).
#[derive(Debug)]
pub enum CliError {
    Input(String),
    Run(String),
    Stopped(String),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Input(_) => ExitCode::from(2),
            CliError::Run(_) => ExitCode::from(1),
            CliError::Stopped(_) => ExitCode::from(130),
        }
    }
    pub fn message(&self) -> &str {
        match self {
            CliError::Input(m) | CliError::Run(m) | CliError::Stopped(m) => m,
        }
    }
}

impl From<crate::scenario::ScenarioError> for CliError {
    fn from(e: crate::scenario::ScenarioError) -> Self {
        CliError::Input(e.problems.join("; "))
    }
}

/// Run a parsed command.
pub fn run(cmd: Command) -> Result<(), CliError> {
    // Long runs report progress (`progress`); on a terminal a sweep's own
    // bar of loads stands in for the bar of cycles.
    progress::start(matches!(&cmd, Command::Sweep(a) if !a.json));
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

/// Write `text` to `path`, naming the file on failure.
pub(crate) fn write_file(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text)
        .map_err(|e| CliError::Input(format!("cannot write `{}`: {e}", path.display())))?;
    // Say what was written where (on stderr, so a piped table or JSON
    // stays clean): a newcomer's `--csv` and `--occupancy` confirmed
    // nothing.
    eprintln!(
        "routelab: wrote {} ({} lines)",
        path.display(),
        text.lines().count()
    );
    Ok(())
}
