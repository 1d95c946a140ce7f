//! Helpers shared by the integration tests that run the `routelab` binary
//! (a module of `tests/all.rs`; a test file brings it in with
//! `use crate::support;`).

use std::process::Command;

mod bin;
#[cfg(feature = "gui")]
pub mod plots;
pub use bin::routelab_bin;

/// Run the `routelab` binary with `args` from the package root, as a user
/// would: its exit code (-1 when killed by a signal), standard output and
/// standard error.
pub fn routelab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(routelab_bin())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
