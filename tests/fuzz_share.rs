//! Fuzzing the URL fragment the web app reads (`#scenario=<percent-encoded
//! JSON>`, also `?scenario=`): arbitrary text, broken percent escapes,
//! invalid UTF-8, other keys, and percent-encoded scenario JSON near valid
//! ones. Every fragment gives no scenario, a scenario, or an error that says
//! what in the link is wrong (and which field); never a panic. A valid
//! scenario survives encode then decode unchanged.
#![cfg(feature = "gui")]

use crate::fuzz_support;

use fuzz_support::fuzz;
use proptest::prelude::*;
use routelab::app::share::{decode_fragment, encode_fragment, percent_encode};
use routelab::scenario::Scenario;

fn fragment() -> impl Strategy<Value = String> {
    let json = prop_oneof![
        Just(Scenario::default().to_json()),
        "\\PC{0,40}",
        "\\{\"[a-z_]{1,12}\": ?(1|-1|\"x\"|null|1e999|NaN|\\[\\]|\\{\\})\\}",
    ];
    prop_oneof![
        // A well-formed link with near-valid JSON.
        3 => json.prop_map(|j| format!("#scenario={}", percent_encode(&j))),
        // Raw text after the key (broken escapes, '+', '&', '#').
        2 => "[#?]?(scenario=)?[%0-9A-Fa-fgz+&#=;/ -]{0,40}",
        // Escapes that decode to invalid UTF-8.
        1 => "#scenario=(%[89A-F][0-9A-F]){1,6}",
        1 => "\\PC{0,30}",
        1 => "[#?](other=1&)?scenario=%7B%22vcs%22%3A%22two%22%7D(&x=1)?",
    ]
}

#[test]
fn url_fragments() {
    fuzz(
        "url_fragments",
        1000,
        fragment(),
        |f| match decode_fragment(f) {
            None | Some(Ok(_)) => Ok(()),
            Some(Err(e)) => {
                if e.starts_with("the link's scenario") {
                    Ok(())
                } else {
                    Err(format!("the message does not say the link is wrong: {e}"))
                }
            }
        },
    );
}

#[test]
fn valid_scenarios_survive_a_share_link() {
    let strategy = (
        prop::sample::select(&["torus:4x4", "mesh:3x3", "fattree:4", "irregular:8:seed=2"][..]),
        0.0f64..=1.0,
        any::<u64>(),
        "\\PC{0,20}",
    );
    fuzz(
        "share_round_trip",
        300,
        strategy,
        |(topology, load, seed, name)| {
            let s = Scenario {
                name: name.clone(),
                topology: topology.to_string(),
                load: *load,
                seed: *seed,
                ..Scenario::default()
            };
            let f = encode_fragment(&s);
            match decode_fragment(&format!("#{f}")) {
                Some(Ok(back)) if back == s => Ok(()),
                other => Err(format!("{s:?} came back as {other:?}")),
            }
        },
    );
}
