//! The keyword enums (strum-derived): every spelling accepted before still
//! parses, the canonical names and the accepted lists are the ones printed
//! before, and serde writes the same names (scenario files are unchanged).

use routelab::paths::{Algorithm, Init, LegalKind, Objective};
use routelab::routing::{Selection, TieRule, VcClasses};
use routelab::sim::{PortPriority, Switching};
use routelab::spec_options::Keyword;
use routelab::traffic::Process;
use std::fmt::Debug;

/// `all` in order has the canonical `names`; every alias parses to its
/// variant; anything else does not parse.
fn check<T: Keyword + Debug + PartialEq>(all: &[T], names: &[&str], aliases: &[(&str, T)]) {
    assert_eq!(T::ACCEPTED, names.join(", "));
    assert_eq!(all.len(), names.len());
    for (v, name) in all.iter().zip(names) {
        assert_eq!(v.as_str(), *name);
        assert_eq!(T::parse(name), Some(*v), "{name}");
    }
    for (alias, v) in aliases {
        assert_eq!(T::parse(alias), Some(*v), "{alias}");
    }
    for bad in ["", "Fixed", "SAF", " wormhole", "nope"] {
        assert_eq!(T::parse(bad), None, "{bad}");
    }
}

/// serde writes (and reads back) the canonical name of every variant.
fn check_serde<T>(all: &[T])
where
    T: Keyword + Debug + PartialEq + serde::Serialize + serde::de::DeserializeOwned,
{
    for v in all {
        let json = serde_json::to_string(v).unwrap();
        assert_eq!(json, format!("\"{}\"", v.as_str()));
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), *v);
    }
}

#[test]
fn simulation_keywords_keep_their_names_and_aliases() {
    check(
        &Selection::ALL,
        &["fixed", "first-free", "adaptive"],
        &[("first_free", Selection::FirstFree)],
    );
    check_serde(&Selection::ALL);
    check(
        &Switching::ALL,
        &["saf", "vct", "wormhole"],
        &[
            ("store-and-forward", Switching::StoreAndForward),
            ("store_and_forward", Switching::StoreAndForward),
            ("virtual-cut-through", Switching::VirtualCutThrough),
            ("virtual_cut_through", Switching::VirtualCutThrough),
            ("wh", Switching::Wormhole),
        ],
    );
    check_serde(&Switching::ALL);
    // serde's own aliases for scenario files.
    assert_eq!(
        serde_json::from_str::<Switching>("\"store_and_forward\"").unwrap(),
        Switching::StoreAndForward
    );
    assert_eq!(
        serde_json::from_str::<Switching>("\"virtual_cut_through\"").unwrap(),
        Switching::VirtualCutThrough
    );
    check(&PortPriority::ALL, &["rotating", "random", "oldest"], &[]);
    check_serde(&PortPriority::ALL);
    check(
        &Process::ALL,
        &["bernoulli", "exponential", "on_off"],
        &[
            ("poisson", Process::Exponential),
            ("onoff", Process::OnOff),
            ("on-off", Process::OnOff),
        ],
    );
    check_serde(&Process::ALL);
    check(&TieRule::ALL, &["plus", "random", "parity"], &[]);
    check(&VcClasses::ALL, &["balanced", "strict"], &[]);
}

#[test]
fn path_selection_keywords_keep_their_names_and_aliases() {
    check(
        &Algorithm::ALL,
        &[
            "random", "lowport", "maxcp", "hpcf", "lvcf", "lpcf", "ga", "sa",
        ],
        &[
            ("low-port", Algorithm::LowPort),
            ("sancho", Algorithm::MaxCp),
            ("traffic-balancing", Algorithm::MaxCp),
        ],
    );
    check(&Init::ALL, &["random", "maxcp"], &[]);
    check(
        &Objective::ALL,
        &["sd", "max", "sumsq"],
        &[("deviation", Objective::Sd)],
    );
    check(
        &LegalKind::ALL,
        &["updown-bfs", "updown-dfs", "udwm"],
        &[
            ("updown", LegalKind::UpDownBfs),
            ("bfs", LegalKind::UpDownBfs),
            ("dfs", LegalKind::UpDownDfs),
        ],
    );
    // Display is the canonical name too.
    assert_eq!(Algorithm::LowPort.to_string(), "lowport");
    assert_eq!(Objective::Sd.to_string(), "sd");
    assert_eq!(LegalKind::UpDownDfs.to_string(), "updown-dfs");
    // Serialize only (reports): the canonical names.
    for a in Algorithm::ALL {
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{a}\""));
    }
    for i in Init::ALL {
        assert_eq!(
            serde_json::to_string(&i).unwrap(),
            format!("\"{}\"", i.as_str())
        );
    }
    for o in Objective::ALL {
        assert_eq!(serde_json::to_string(&o).unwrap(), format!("\"{o}\""));
    }
    for k in LegalKind::ALL {
        assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
    }
}
