//! The parts of a topology spec every kind's entry parses the same way
//! (the size after the kind, `:hosts=H`, `PREFIX:PATH`) and the error
//! they give. A leaf: the kinds' files import it, and the spec parser
//! (`spec.rs`, [`super::TopologySpec`]), which reads the registry of those kinds, adds the
//! accepted forms to the errors.

use super::TopologyError;
use crate::limits;
use crate::spec_options::{OptionError, Options, Spec};

/// The error of `spec`: `problem`. The accepted forms are the
/// registry's, which this file does not read (every kind's entry uses it,
/// and the registry lists the entries): [`super::TopologySpec`]'s parser
/// fills them in ([`with_accepted`]).
pub fn invalid(spec: &str, problem: impl Into<String>) -> TopologyError {
    TopologyError::Invalid {
        spec: spec.to_string(),
        problem: problem.into(),
        accepted: String::new(),
    }
}

/// `e` with `accepted` as its accepted forms, when it has none yet.
pub fn with_accepted(e: TopologyError, accepted: impl FnOnce() -> String) -> TopologyError {
    match e {
        TopologyError::Invalid {
            spec,
            problem,
            accepted: a,
        } if a.is_empty() => TopologyError::Invalid {
            spec,
            problem,
            accepted: accepted(),
        },
        e => e,
    }
}

/// A whole number, or an error naming `what`.
pub fn parse_u32(spec: &str, what: &str, s: &str) -> Result<u32, TopologyError> {
    s.parse::<u32>()
        .map_err(|_| invalid(spec, format!("{what} `{s}` is not a whole number")))
}

/// `spec`'s options (after its kind and `positional` positional parts),
/// taking only `keys`, and its first positional part (the size), which
/// every kind of this form needs.
pub fn options_and_size<'a>(
    spec: &'a str,
    keys: &[&str],
) -> Result<(Options<'a>, &'a str), TopologyError> {
    let parts = Spec::split(spec);
    let kind = parts.name();
    let opts = parts
        .options(1, keys)
        .map_err(|e| invalid(spec, e.to_string()))?;
    let size = opts
        .positional(0)
        .ok_or_else(|| invalid(spec, format!("`{kind}` needs a size after `:`")))?;
    Ok((opts, size))
}

/// An option's error as the spec's.
pub fn option_error(spec: &str) -> impl Fn(OptionError) -> TopologyError + '_ {
    move |e| invalid(spec, e.to_string())
}

/// `:hosts=H` of the cube-like kinds: 1..=64, default 1.
pub fn cube_hosts(spec: &str, opts: &Options<'_>) -> Result<u32, TopologyError> {
    Ok(opts
        .u32("hosts", limits::HOSTS_PER_SWITCH)
        .map_err(option_error(spec))?
        .unwrap_or(1))
}

/// `:hosts=H` as the canonical spec writes it (nothing for 1).
pub fn hosts_suffix(h: u32) -> String {
    if h == 1 {
        String::new()
    } else {
        format!(":hosts={h}")
    }
}

/// `PREFIX:PATH`'s path, or an error when it is empty.
pub fn path_of<'a>(spec: &'a str, prefix: &str) -> Result<&'a str, TopologyError> {
    let path = spec.split_once(':').map(|(_, p)| p).unwrap_or_default();
    if path.is_empty() {
        return Err(invalid(spec, format!("{prefix}: needs a path")));
    }
    Ok(path)
}
