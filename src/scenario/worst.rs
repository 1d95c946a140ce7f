//! The `worst` traffic pattern: the permutation that loads an oblivious
//! routing's busiest channel most (Towles and Dally's worst case, computed
//! exactly by [`crate::analysis::worst_case`]), so `sim`, `sweep` and the
//! app can run it.
//!
//! Forms: `worst` (the worst case of the scenario's own routing) and
//! `worst:routing=SPEC` (of another routing, e.g. `worst:routing=rlb` or
//! `worst:routing=dor:tie=random`; everything after `routing=` is the
//! routing spec). Tori and meshes with one host per switch, within the
//! analysis's limits. Node s sends to `permutation[s]`; fixed points send
//! to themselves, as in the analysis (they load no channel).

use crate::analysis::{ChannelWeights, Cube, Law, worst_case};
use crate::topology::Network;
use crate::traffic::Pattern;

/// The accepted forms, quoted in errors: `worst` and `worst:routing=` any
/// routing the analysis knows (from the routing registry,
/// [`crate::analysis::accepted_routings`]).
pub fn accepted() -> String {
    format!(
        "worst, worst:routing=SPEC with SPEC one of {}",
        crate::analysis::accepted_routings()
    )
}

/// The routing spec a `worst` traffic spec names (`own` for plain
/// `worst`), or `None` when the spec is not a `worst` one.
pub fn routing_of<'a>(traffic: &'a str, own: &'a str) -> Option<Result<&'a str, String>> {
    let t = traffic.trim();
    if t == "worst" {
        return Some(Ok(own));
    }
    let rest = t.strip_prefix("worst:")?;
    Some(rest.strip_prefix("routing=").ok_or_else(|| {
        format!(
            "traffic `{t}`: `worst` takes `routing=SPEC`; accepted: {}",
            accepted()
        )
    }))
}

/// The oblivious routing whose worst case `traffic` asks for. Plain
/// `worst` takes the scenario's own routing; when that is not an oblivious
/// torus routing (a newcomer's `sim --traffic worst` runs `minimal`), the
/// message says so and names the ones that are, rather than reporting the
/// routing the user never typed as unknown.
fn oblivious(traffic: &str, own: &str) -> Option<Result<Law, String>> {
    let routing = routing_of(traffic, own)?;
    Some(routing.and_then(|r| {
        r.parse::<Law>().map_err(|e| {
            if traffic.trim() == "worst" {
                let names: Vec<String> = Law::compared()
                    .iter()
                    .map(|l| l.kind_name().to_string())
                    .collect();
                format!(
                    "traffic `worst`: the worst case is defined for an oblivious torus \
                     routing, and the scenario's routing is `{own}`; choose one with \
                     --routing ({}) or name it in the traffic; accepted: {}",
                    names.join(", "),
                    accepted()
                )
            } else {
                format!("traffic `{traffic}`: {e}")
            }
        })
    }))
}

/// Check the spec's form (without a network).
pub fn check(traffic: &str, own: &str) -> Option<Result<(), String>> {
    Some(oblivious(traffic, own)?.map(|_| ()))
}

/// The worst-case permutation as a traffic pattern on `net`, or `None`
/// when `traffic` is not a `worst` spec.
pub fn pattern(traffic: &str, own: &str, net: &Network) -> Option<Result<Pattern, String>> {
    let routing = oblivious(traffic, own)?;
    Some((|| {
        let r = routing?;
        let cube = Cube::from_network(net).map_err(|e| format!("traffic `{traffic}`: {e}"))?;
        let w = ChannelWeights::new(&cube, r).map_err(|e| format!("traffic `{traffic}`: {e}"))?;
        let wc = worst_case(&w).map_err(|e| format!("traffic `{traffic}`: {e}"))?;
        Ok(Pattern::Permutation(wc.permutation))
    })())
}
