//! Every routing routelab has, by name: how its spec is parsed and built
//! (each in the routing's own file), which topologies it applies to, the
//! virtual channels it needs, and which family it belongs to (what
//! `--compare` runs). A routing joins the CLI, scenario files, the app, the
//! `--compare` sets and the crate's property tests by being listed in
//! [`KINDS`].

pub use super::kind::{Family, ParseFn, RoutingBuild, RoutingKind};
use crate::topology::Network;

/// Every routing.
pub const KINDS: &[RoutingKind] = &[
    super::minimal::KIND,
    super::dor::KIND,
    super::updown::KIND,
    super::dmodk::KIND,
    super::source_routed::KIND,
    super::oblivious::RDOR,
    super::oblivious::VAL,
    super::oblivious::ROMM,
    super::oblivious::RLB,
    super::oblivious::RLBTH,
    super::adaptive::KIND,
    super::dragonfly::spec::UGAL_L,
    super::dragonfly::spec::UGAL_G,
    super::dragonfly::spec::PAR,
    super::drb::KIND,
    super::fattree::GREEDY_KIND,
    super::fattree::ECMP_KIND,
    super::fattree::DRILL_KIND,
];

/// The routing named `name`, if any.
pub fn kind(name: &str) -> Option<&'static RoutingKind> {
    KINDS
        .iter()
        .find(|k| k.name == name || k.aliases.contains(&name))
}

/// The accepted forms of every routing, for error messages.
pub fn accepted() -> String {
    KINDS
        .iter()
        .map(|k| format!("{}{}", k.name, k.options))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every routing's name, in registry order.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// The registered names nearest to an unknown `name` (a newcomer's typo:
/// `rbl` for `rlb`, `adaptiv`, `ecmp` for `fattree-ecmp`), nearest first,
/// at most three; none when nothing is close.
pub fn nearest(name: &str) -> Vec<&'static str> {
    let typed = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &'static str)> = KINDS
        .iter()
        .flat_map(|k| std::iter::once(k.name).chain(k.aliases.iter().copied()))
        .filter_map(|candidate| {
            let d = strsim::damerau_levenshtein(&typed, candidate);
            // One edit in a short name (`rbl`), a third of a longer one
            // (`adaptiv`): `foo` is two edits from `dor` and not close.
            let close = d <= 1.max(typed.len() / 3);
            let part = typed.len() >= 3
                && (candidate.contains(typed.as_str()) || typed.contains(candidate));
            (close || part).then_some((if close { d } else { 3 }, candidate))
        })
        .collect();
    scored.sort();
    // Only the nearest: `rbl` is one step from `rlb` and two from `drb`
    // and `val`, and a list of three would hide the one meant.
    let best = scored.first().map_or(0, |s| s.0);
    let mut out: Vec<&'static str> = Vec::new();
    for (_, c) in scored.into_iter().filter(|s| s.0 == best) {
        // An alias suggests its routing's own name.
        let c = kind(c).map_or(c, |k| k.name);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out.truncate(3);
    out
}

/// `--routing`'s help: every routing with its options, from [`KINDS`].
pub fn help() -> String {
    format!(
        "Routing spec: {}. Repeat the flag to run several routings on the same \
         traffic and seed (`--routing dor --routing updown`).",
        accepted()
    )
}

/// Every spec in `family` that applies to `net`, in registry order,
/// without repeats: what `--compare` runs.
pub fn family_members(family: Family, net: &Network, like: &dyn RoutingBuild) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in KINDS.iter().filter(|k| k.families.contains(&family)) {
        let variants = if let Ok(b) = (k.parse)(&[]) {
            if b.applies_to(net).is_err() {
                continue;
            }
            b.variants(net)
        } else {
            Vec::new()
        };
        for v in variants {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    // Families whose members are variants of the given spec (path selection:
    // every algorithm on the given legal paths).
    for v in like.variants(net) {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn typos_find_their_routing_and_strangers_find_none() {
        assert_eq!(nearest("rbl"), vec!["rlb"]);
        assert_eq!(nearest("adaptiv"), vec!["adaptive"]);
        assert_eq!(nearest("ecmp"), vec!["fattree-ecmp"]);
        assert!(nearest("foo").is_empty(), "{:?}", nearest("foo"));
    }
}
