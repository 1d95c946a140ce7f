//! What every subcommand writes and how it fails: standard output that
//! tolerates a closed pipe, files that say where they went, and
//! [`CliError`] with its exit codes.

use std::io::Write;
use std::process::ExitCode;

/// Write a command's output to standard output. A reader that has gone
/// away (`routelab sim --json | head -c 100`) is not an error: the output
/// simply has nowhere to go, as with any Unix filter. Other write failures
/// (a full disk) are reported.
pub(crate) fn emit(text: &str) -> Result<(), CliError> {
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

/// Refuse an output file that cannot be written before anything runs (a
/// run of minutes whose results then had nowhere to go, or one of two
/// files written and the other not): its directory must exist and it must
/// not be a directory itself. `flag` names it in the message.
pub(crate) fn check_output(flag: &str, path: &std::path::Path) -> Result<(), CliError> {
    let shown = path.display();
    if path.is_dir() {
        return Err(CliError::Input(format!(
            "{flag} `{shown}` is a directory; accepted: a file name in an existing directory"
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        return Err(CliError::Input(format!(
            "{flag} `{shown}`: directory `{}` does not exist; accepted: a file name in an existing directory",
            dir.display()
        )));
    }
    Ok(())
}

/// Refuse an output directory (created if missing, with its parents) that
/// names an existing file, before anything runs or is written. `flag`
/// names it in the message.
pub(crate) fn check_out_dir(flag: &str, path: &std::path::Path) -> Result<(), CliError> {
    if path.exists() && !path.is_dir() {
        return Err(CliError::Input(format!(
            "{flag} `{}` is a file; accepted: a directory (created if missing)",
            path.display()
        )));
    }
    Ok(())
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

/// The per-channel CSV that `sim --channels` and `load --channels` both
/// write: id, name, kind, ends, then the two values `values` gives each
/// channel (utilization and queueing delay; the analysis has no delay).
pub(crate) fn channels_csv(
    net: &crate::topology::Network,
    values: impl Fn(&crate::topology::Channel) -> (String, String),
) -> Result<String, CliError> {
    use crate::topology::{ChannelKind, Network};
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| CliError::Run(e.to_string());
    w.write_record([
        "channel",
        "name",
        "kind",
        "src",
        "dst",
        "utilization",
        "queueing_delay",
    ])
    .map_err(err)?;
    for c in net.channels() {
        let kind = match c.kind {
            ChannelKind::Network => "network",
            ChannelKind::Injection => "injection",
            ChannelKind::Ejection => "ejection",
        };
        let (utilization, delay) = values(c);
        w.write_record([
            c.id.to_string(),
            net.channel_name(c.id),
            kind.to_string(),
            Network::endpoint_name(c.src),
            Network::endpoint_name(c.dst),
            utilization,
            delay,
        ])
        .map_err(err)?;
    }
    let bytes = w.into_inner().map_err(|e| CliError::Run(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
