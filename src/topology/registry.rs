//! Every kind of network ([`KINDS`]), looked up by name, with the accepted
//! forms and help the parser's errors, `--topology`'s help, the app's
//! topology list, the swap order's contrasts and the tests read. A kind
//! defined outside the crate (a test's toy) joins with [`register`].

use super::kind::TopologyKind;
use super::{cube, dragonfly, edge_list, fat_tree, hypercube, import, irregular, midimew};
use crate::limits;
use std::sync::Mutex;

/// Every built-in topology kind, in the order help and menus list them.
pub const KINDS: &[&TopologyKind] = &[
    &cube::TORUS,
    &cube::MESH,
    &hypercube::KIND,
    &midimew::KIND,
    &fat_tree::KIND,
    &dragonfly::KIND,
    &irregular::KIND,
    &edge_list::KIND,
    &import::IBNETDISCOVER,
    &import::IBSIM,
    &import::ANYNET,
];

/// Kinds registered at run time ([`register`]).
static EXTRA: Mutex<Vec<&'static TopologyKind>> = Mutex::new(Vec::new());

/// Add a kind defined outside the registry (a test's toy, a plug-in), so
/// that specs, scenarios and the lists built from the registry take it.
/// A name or alias already taken is refused.
pub fn register(kind: &'static TopologyKind) -> Result<(), String> {
    let mut extra = EXTRA
        .lock()
        .map_err(|_| "the topology registry is poisoned")?;
    if extra.iter().any(|k| std::ptr::eq(*k, kind)) {
        return Ok(());
    }
    let names = |k: &TopologyKind| {
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
        return Err(format!("topology kind `{n}` is already registered"));
    }
    extra.push(kind);
    Ok(())
}

/// Every kind: the built-in ones, then the registered ones.
pub fn kinds() -> Vec<&'static TopologyKind> {
    let mut all: Vec<&'static TopologyKind> = KINDS.to_vec();
    if let Ok(extra) = EXTRA.lock() {
        all.extend(extra.iter().copied());
    }
    all
}

/// The kind named `name` (or one of its aliases).
pub fn lookup(name: &str) -> Option<&'static TopologyKind> {
    kinds()
        .into_iter()
        .find(|k| k.name == name || k.aliases.contains(&name))
}

/// The kind a spec names: its first part, before `:`.
pub fn kind_of(spec: &str) -> Option<&'static TopologyKind> {
    lookup(spec.trim().split(':').next().unwrap_or_default())
}

/// The accepted forms, quoted in every error: each kind's form, then the
/// limits every network is held to.
pub fn accepted() -> String {
    let forms: Vec<&str> = kinds().iter().map(|k| k.form).collect();
    format!(
        "{}; at most {} switches, {} hosts and {} channels",
        forms.join(", "),
        limits::MAX_SWITCHES,
        limits::MAX_HOSTS,
        limits::MAX_CHANNELS
    )
}

/// `--topology`'s help: every kind with its form and summary.
pub fn help() -> String {
    let mut s = String::from("Topology spec, one of:\n");
    for k in kinds() {
        s.push_str(&format!("  {}\n      {}\n", k.form, k.summary));
    }
    s.push_str(&format!(
        "(at most {} switches, {} hosts and {} channels)",
        limits::MAX_SWITCHES,
        limits::MAX_HOSTS,
        limits::MAX_CHANNELS
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind's example parses as that kind, spells itself back, and
    /// (unless read from a file) builds a network whose size is the one
    /// its spec computes; no name is taken twice.
    #[test]
    fn every_kind_parses_its_example_and_names_are_unique() {
        let mut names = Vec::new();
        for k in KINDS {
            names.push(k.name);
            names.extend(k.aliases);
            let spec: super::super::TopologySpec = k.example.parse().expect(k.example);
            assert_eq!(spec.kind().name, k.name, "{}", k.example);
            let again: super::super::TopologySpec = spec.to_string().parse().unwrap();
            assert_eq!(again, spec);
            if !k.from_file {
                assert!(spec.size().is_some(), "{}", k.name);
                spec.build().expect(k.example);
            }
            assert!(!k.contrasts.is_empty(), "{}", k.name);
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(register(&cube::TORUS).is_err(), "a built-in name is taken");
    }

    /// The arithmetic agrees with the networks the builders make.
    #[test]
    fn sizes_match_built_networks() {
        for spec in [
            "torus:8x8",
            "torus:3x4x5:hosts=2",
            "mesh:4x4",
            "mesh:2x3x4:hosts=3",
            "hypercube:5",
            "hypercube:3:hosts=2",
            "midimew:13",
            "midimew:64:hosts=2",
            "fattree:4",
            "fattree:8",
            "irregular:16:seed=3",
            "irregular:12:ports=6:hosts=2:seed=5",
            "dragonfly:p=2",
            "dragonfly:p=1:a=3:h=1:g=3",
            "dragonfly:p=3:a=2:h=3:g=5:arrangement=palmtree",
        ] {
            let parsed: super::super::TopologySpec = spec.parse().unwrap();
            let size = parsed.size().unwrap();
            let net = super::super::Network::from_spec(spec).unwrap();
            let max_ports = (0..net.num_switches() as u32)
                .map(|s| net.ports(s).len() as u64)
                .max()
                .unwrap();
            assert_eq!(
                size,
                crate::limits::NetworkSize {
                    switches: net.num_switches() as u64,
                    hosts: net.num_hosts() as u64,
                    network_channels: net.num_network_channels() as u64,
                    max_ports,
                },
                "{spec}"
            );
        }
    }
}
