//! The `routelab` binary: the CLI subcommands natively; without one, the
//! GUI (with the `gui` feature) or the help text.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::{CommandFactory, Parser};
    use routelab::cli::{Cli, run};
    let cli = Cli::parse();
    match cli.command {
        Some(cmd) => match run(cmd) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}", e.message());
                e.exit_code()
            }
        },
        None => {
            let _ = Cli::command().print_help();
            std::process::ExitCode::SUCCESS
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
