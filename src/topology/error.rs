//! The error of a topology that cannot be parsed or built, shared by the
//! spec parser and the builders it calls (a leaf, so they need not import
//! each other).

/// A topology that could not be built.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TopologyError {
    #[error("topology `{spec}`: {problem}; accepted: {accepted}")]
    Invalid {
        spec: String,
        problem: String,
        accepted: String,
    },
    #[error("topology file `{path}` line {line}: {problem}")]
    File {
        path: String,
        line: usize,
        problem: String,
    },
}
