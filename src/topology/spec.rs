//! The compact topology spec string used by the CLI, scenario files and URLs:
//! `torus:8x8`, `mesh:4x4`, `torus:4x4x4`, `hypercube:6`, `midimew:64`,
//! `fattree:4`, `irregular:16:seed=3`, `irregular:32:ports=8:hosts=4:seed=1`,
//! `file:PATH`, and fabrics read from other tools' files: `ibnetdiscover:PATH`,
//! `ibsim:PATH`, `anynet:PATH` ([`super::import`]). Cube-like kinds accept
//! `:hosts=H` (hosts per switch, default 1).
//!
//! A spec names its kind first; the kind's registry entry
//! ([`super::registry`]) parses the rest, and the parsed spec
//! ([`TopologyBuild`]) says its size and builds. This file holds what every
//! kind shares: the spec type, the errors, and the parsing helpers the
//! kinds' entries use.

use super::kind::{TopologyBuild, TopologyKind};
use super::spec_parts::{invalid, with_accepted};
use super::{Network, TopologyError, registry};
use crate::limits::NetworkSize;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The accepted forms, quoted in every error ([`registry::accepted`]).
pub fn accepted() -> String {
    registry::accepted()
}

/// A parsed topology spec: its kind and what the kind parsed.
#[derive(Clone)]
pub struct TopologySpec {
    kind: &'static TopologyKind,
    build: Arc<dyn TopologyBuild>,
}

impl PartialEq for TopologySpec {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}
impl Eq for TopologySpec {}

impl fmt::Debug for TopologySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TopologySpec({})", self.build.canonical())
    }
}

impl FromStr for TopologySpec {
    type Err = TopologyError;
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let spec = spec.trim();
        let name = spec.split(':').next().unwrap_or_default();
        let parsed = registry::lookup(name)
            .ok_or_else(|| invalid(spec, format!("unknown kind `{name}`")))
            .and_then(|kind| Ok((kind, (kind.parse)(spec)?)))
            .and_then(|(kind, build)| {
                if let Some(size) = build.size() {
                    let problems = size.problems();
                    if !problems.is_empty() {
                        return Err(invalid(spec, problems.join("; ")));
                    }
                }
                Ok(TopologySpec {
                    kind,
                    build: Arc::from(build),
                })
            });
        parsed.map_err(|e| with_accepted(e, accepted))
    }
}

impl fmt::Display for TopologySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.build.canonical())
    }
}

impl Network {
    /// Build a network from a spec string such as `torus:8x8`. (Here rather
    /// than beside the type so that the type does not depend on the
    /// builders, which depend on it.)
    pub fn from_spec(spec: &str) -> Result<Network, TopologyError> {
        spec.parse::<TopologySpec>()?.build()
    }
}

impl TopologySpec {
    /// The kind's registry entry.
    pub fn kind(&self) -> &'static TopologyKind {
        self.kind
    }
    /// Build the network.
    pub fn build(&self) -> Result<Network, TopologyError> {
        self.build
            .build(self.to_string())
            .map_err(|e| with_accepted(e, accepted))
    }
    /// Switches, hosts, switch-to-switch channels and most ports per switch
    /// of the network this spec builds; `None` for `file:` and the fabric
    /// formats (known only once the file is read).
    pub fn size(&self) -> Option<NetworkSize> {
        self.build.size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "torus:8x8",
            "mesh:4x4",
            "torus:4x4x4",
            "hypercube:6",
            "midimew:64",
            "fattree:4",
            "fattree:4:hetero=paper:seed=2",
            "irregular:16:ports=8:hosts=4:seed=3",
            "torus:8x8:hosts=2",
        ] {
            assert_eq!(s.parse::<TopologySpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "irregular:16:seed=3"
                .parse::<TopologySpec>()
                .unwrap()
                .to_string(),
            "irregular:16:ports=8:hosts=4:seed=3"
        );
    }

    #[test]
    fn bad_specs_name_the_problem() {
        for (s, needle) in [
            ("torus:2x2", "at least 3"),
            ("torus", "needs a size"),
            ("ring:8", "unknown kind"),
            ("fattree:5", "even"),
            ("hypercube:0", "1..=16"),
            ("irregular:3", "more than 3 switches"),
            ("irregular:5:ports=5:hosts=2", "must be even"),
            ("torus:8x8:foo=1", "unknown option"),
            ("torus:8xq", "not a whole number"),
            ("torus:8x8:hosts=1:hosts=2", "`hosts` is given twice"),
            (
                "torus:8x8:hosts=65",
                "hosts `65`; accepted a whole number in 1..=64",
            ),
            ("torus:8x8:2", "option `2` is not key=value"),
            ("fattree:4:hosts=2", "no hosts= option"),
            ("fattree:4:foo=2", "unknown option `foo` for `fattree`"),
            (
                "fattree:4:hetero=odd",
                "hetero `odd`; accepted equal, paper",
            ),
            ("irregular:16:ports=256", "ports `256`"),
        ] {
            let e = s.parse::<TopologySpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted"), "{s}: {e}");
        }
    }
}
