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
    #[error("topology file `{path}`{}: {problem}", at_line(.line))]
    File {
        path: String,
        /// The line the problem is on, from 1; 0 for a problem of the whole
        /// file (it cannot be read, is too large, or fails a check of the
        /// whole, such as being connected), shown without a line.
        line: usize,
        problem: String,
    },
}

/// ` line N`, or nothing for a problem of the whole file (line 0).
fn at_line(line: &usize) -> String {
    if *line == 0 {
        String::new()
    } else {
        format!(" line {line}")
    }
}
