//! Every traffic pattern ([`KINDS`]), looked up by name, with the accepted
//! forms and help the parser's errors, `--traffic`'s help, the analysis'
//! help, the app's traffic list and the tests read. A pattern defined
//! outside the crate (a test's toy) joins with [`register`].

use super::kind::TrafficKind;
use super::patterns::{adversarial, bits, hotspot, neighbours, randperm, tornado, uniform};
use std::sync::Mutex;

/// Every built-in pattern, in the order help and menus list them.
pub const KINDS: &[&TrafficKind] = &[
    &uniform::KIND,
    &hotspot::KIND,
    &bits::BITREV,
    &bits::BITCOMP,
    &bits::BUTTERFLY,
    &bits::SHUFFLE,
    &bits::TRANSPOSE,
    &tornado::KIND,
    &neighbours::NN,
    &neighbours::NEIGHBOR,
    &randperm::KIND,
    &adversarial::KIND,
];

/// Patterns registered at run time ([`register`]).
static EXTRA: Mutex<Vec<&'static TrafficKind>> = Mutex::new(Vec::new());

/// Add a pattern defined outside the registry (a test's toy, a plug-in),
/// so that specs, scenarios and the lists built from the registry take it.
/// A name or alias already taken is refused.
pub fn register(kind: &'static TrafficKind) -> Result<(), String> {
    let mut extra = EXTRA
        .lock()
        .map_err(|_| "the traffic registry is poisoned")?;
    if extra.iter().any(|k| std::ptr::eq(*k, kind)) {
        return Ok(());
    }
    let names = |k: &TrafficKind| {
        std::iter::once(k.name)
            .chain(k.aliases.iter().copied())
            .collect::<Vec<_>>()
    };
    let taken: Vec<&str> = KINDS
        .iter()
        .chain(extra.iter())
        .flat_map(|k| names(k))
        .collect();
    if let Some(n) = names(kind).into_iter().find(|n| taken.contains(n)) {
        return Err(format!("traffic pattern `{n}` is already registered"));
    }
    extra.push(kind);
    Ok(())
}

/// Every pattern: the built-in ones, then the registered ones.
pub fn kinds() -> Vec<&'static TrafficKind> {
    let mut all: Vec<&'static TrafficKind> = KINDS.to_vec();
    if let Ok(extra) = EXTRA.lock() {
        all.extend(extra.iter().copied());
    }
    all
}

/// The pattern named `name` (or one of its aliases).
pub fn lookup(name: &str) -> Option<&'static TrafficKind> {
    kinds()
        .into_iter()
        .find(|k| k.name == name || k.aliases.contains(&name))
}

/// The accepted forms, quoted in every error.
pub fn accepted() -> String {
    kinds()
        .iter()
        .map(|k| k.form)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The examples the app's traffic list offers, one per pattern.
pub fn examples() -> Vec<&'static str> {
    kinds().iter().map(|k| k.example).collect()
}

/// `--traffic`'s help: every pattern with its form and summary.
pub fn help() -> String {
    let mut s = String::from("Traffic pattern, one of:\n");
    for k in kinds() {
        s.push_str(&format!("  {}\n      {}\n", k.form, k.summary));
    }
    s.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::PatternSpec;

    /// Every pattern's example parses as it, spells itself back and builds
    /// on an 8x8 torus, or, for a pattern of groups (`adversarial`), on
    /// the balanced dragonfly; no name is taken twice.
    #[test]
    fn every_pattern_parses_its_example_and_names_are_unique() {
        let net = crate::topology::Network::from_spec("torus:8x8").unwrap();
        let mut names = Vec::new();
        for k in KINDS {
            names.push(k.name);
            names.extend(k.aliases);
            let spec: PatternSpec = k.example.parse().expect(k.example);
            assert_eq!(spec.kind().name, k.name);
            assert_eq!(spec.to_string().parse::<PatternSpec>().unwrap(), spec);
            let mut rng = crate::rng::stream(1, crate::rng::Stream::Pattern);
            if crate::traffic::Pattern::build(&spec, &net, &mut rng).is_err() {
                let dragonfly = crate::topology::Network::from_spec("dragonfly:p=2").unwrap();
                crate::traffic::Pattern::build(&spec, &dragonfly, &mut rng).expect(k.example);
            }
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(
            register(&uniform::KIND).is_err(),
            "a built-in name is taken"
        );
    }
}
