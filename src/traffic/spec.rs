//! The traffic pattern spec string (`uniform`, `tornado`,
//! `hotspot:fraction=0.2:nodes=0`): its kind, looked up in the registry
//! ([`super::registry`]), and what the kind parsed; instantiating it on a
//! network ([`Pattern::build`]). Errors carry the registry's accepted
//! forms.

use super::kind::{TrafficBuild, TrafficKind};
use super::pattern::{Pattern, TrafficError, err};
use super::registry;
use crate::rng::SimRng;
use crate::spec_options::Spec;
use crate::topology::Network;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The accepted forms, quoted in every error ([`registry::accepted`]).
pub fn accepted() -> String {
    registry::accepted()
}

/// A parsed traffic pattern spec: its kind and what the kind parsed.
#[derive(Clone)]
pub struct PatternSpec {
    kind: &'static TrafficKind,
    build: Arc<dyn TrafficBuild>,
}

impl PartialEq for PatternSpec {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl fmt::Debug for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PatternSpec({})", self.build.canonical())
    }
}

impl FromStr for PatternSpec {
    type Err = TrafficError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let name = Spec::split(s).name();
        let kind = registry::lookup(name)
            .ok_or_else(|| err(s, format!("unknown pattern `{name}`")).with_accepted(accepted))?;
        Ok(PatternSpec {
            kind,
            build: Arc::from((kind.parse)(s).map_err(|e| e.with_accepted(accepted))?),
        })
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.build.canonical())
    }
}

impl PatternSpec {
    /// The pattern named `name` with its default options (`uniform`,
    /// `tornado`); for code and tests that name a built-in pattern.
    ///
    /// # Panics
    /// When `name` is not a registered pattern that parses without
    /// options: a mistake in the calling code, not in input.
    pub fn named(name: &str) -> PatternSpec {
        name.parse()
            .unwrap_or_else(|e| panic!("PatternSpec::named({name:?}): {e}"))
    }
    /// The pattern's registry entry.
    pub fn kind(&self) -> &'static TrafficKind {
        self.kind
    }
    /// Whether this is the pattern `name` (any options).
    pub fn is(&self, name: &str) -> bool {
        self.kind.name == name
    }
}

impl Pattern {
    /// Instantiate for a network; `rng` is the traffic stream (randperm).
    pub fn build(
        spec: &PatternSpec,
        net: &Network,
        rng: &mut SimRng,
    ) -> Result<Pattern, TrafficError> {
        if net.num_hosts() < 2 {
            return Err(err(&spec.to_string(), "needs at least two hosts").with_accepted(accepted));
        }
        spec.build
            .build(net, rng)
            .map_err(|e| e.with_accepted(accepted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        for s in [
            "uniform",
            "hotspot:fraction=0.2:nodes=0,21",
            "tornado",
            "randperm",
        ] {
            assert_eq!(s.parse::<PatternSpec>().unwrap().to_string(), s);
        }
        for (s, canonical) in [
            ("hotspot", "hotspot:fraction=0.1:nodes=0"),
            ("hotspot:nodes=3, 4", "hotspot:fraction=0.1:nodes=3,4"),
            ("neighbour", "neighbor"),
        ] {
            assert_eq!(s.parse::<PatternSpec>().unwrap().to_string(), canonical);
        }
    }

    #[test]
    fn bad_specs_name_the_option() {
        for (s, needle) in [
            ("uniform:x", "`uniform` takes no options; got `x`"),
            (
                "hotspot:fraction=2",
                "fraction `2`; accepted a number in [0, 1]",
            ),
            (
                "hotspot:nodes=1,a",
                "nodes `1,a`; accepted host ids like 0,5,9",
            ),
            ("hotspot:nodes=1:nodes=2", "option `nodes` is given twice"),
            ("hotspot:0.5", "option `0.5` is not key=value"),
            (
                "hotspot:hot=1",
                "unknown option `hot` for `hotspot`; accepted fraction, nodes",
            ),
            ("zigzag", "unknown pattern `zigzag`"),
        ] {
            let e = s.parse::<PatternSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted: uniform"), "{s}: {e}");
        }
    }
}
