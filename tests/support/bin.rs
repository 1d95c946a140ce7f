//! The `routelab` binary the integration tests run.
//!
//! Cargo's own build of it by default. `ROUTELAB_TEST_BIN` names another
//! one: `scripts/test.sh` builds the headless binary (no egui) once and runs
//! the command-line tests against it, instead of building every test and
//! every dev-dependency a second time without the GUI.

use std::path::PathBuf;

/// The binary: `$ROUTELAB_TEST_BIN` if set (it must be a file), else the one
/// Cargo built with these tests.
pub fn routelab_bin() -> PathBuf {
    match std::env::var_os("ROUTELAB_TEST_BIN") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            assert!(
                p.is_file(),
                "ROUTELAB_TEST_BIN={} is not a file: name a built `routelab` binary, or unset it to run Cargo's",
                p.display()
            );
            p
        }
        _ => PathBuf::from(env!("CARGO_BIN_EXE_routelab")),
    }
}
