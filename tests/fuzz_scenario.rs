//! Fuzzing scenario JSON: valid-looking scenarios (the defaults and every
//! preset file) with fields removed, set to values of the wrong type or to
//! extreme numbers, unknown fields added, and the text itself mutated (NaN,
//! infinities, numbers past every integer type, truncation). Every one is
//! accepted, or refused with one message per problem, each naming its field;
//! an accepted one that fits a quick run runs with its invariants checked.

use crate::fuzz_support;

use fuzz_support::{
    AWKWARD_NUMBERS, fuzz, near_miss, routing_examples, switch_model_names, topologies, traffic,
};
use proptest::prelude::*;
use routelab::scenario::Scenario;
use routelab::sim::SimError;
use serde_json::{Map, Value};

/// The scenario's fields (what a message must name).
fn fields() -> Vec<String> {
    let mut out: Vec<String> = match serde_json::to_value(Scenario::default()) {
        Ok(Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    };
    // Fields written only when set (`pair_stats`, ...): the list the
    // scenario reader itself gives for an unknown field.
    if let Err(e) = Scenario::from_json(r#"{"no such field": 1}"#) {
        let e = e.to_string();
        if let Some(list) = e.split("accepted fields: ").nth(1) {
            out.extend(
                list.split([',', ';', '\n'])
                    .map(|f| f.trim().trim_matches('`').to_string())
                    .filter(|f| !f.is_empty() && !f.contains(' ')),
            );
        }
    }
    out
}

/// Does `problem` name a field (or the document as a whole)?
fn names_a_field(problem: &str, fields: &[String]) -> bool {
    problem.starts_with("not valid JSON")
        || problem.starts_with("a scenario is a JSON object")
        || problem.starts_with("unknown field `")
        || fields.iter().any(|f| {
            problem.contains(&format!("`{f}`"))
                || problem.starts_with(&format!("{f} ="))
                || problem.starts_with(&format!("{f} `"))
                || problem.starts_with(&format!("{f} needs"))
        })
        // Spec problems name the spec: `topology `torus:..`: ...`.
        || ["topology `", "routing `", "traffic `", "topology file `"]
            .iter()
            .any(|p| problem.starts_with(p))
}

fn base_scenarios() -> Vec<String> {
    let mut out = vec![Scenario::default().to_json()];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for f in files {
        if let Ok(text) = std::fs::read_to_string(f) {
            out.push(text);
        }
    }
    out
}

fn json_value() -> impl Strategy<Value = Value> {
    let examples: &'static [&'static str] = Box::leak(routing_examples().into_boxed_slice());
    let models: &'static [&'static str] = Box::leak(switch_model_names().into_boxed_slice());
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(
            &[
                0i64, 1, 2, 3, 16, 17, 64, 65, 255, 256, 1024, 1025, 65535, 65536, -1
            ][..]
        )
        .prop_map(Value::from),
        prop::sample::select(
            &[
                0.0f64, -0.0, 0.5, 1.0, 1.5, -0.5, 1e308, -1e308, 1e-300, 2.5e9
            ][..]
        )
        .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        near_miss(topologies()).prop_map(Value::from),
        near_miss(examples).prop_map(Value::from),
        near_miss(traffic()).prop_map(Value::from),
        near_miss(models).prop_map(Value::from),
        prop::sample::select(
            &[
                "wormhole",
                "vct",
                "saf",
                "fixed",
                "first-free",
                "adaptive",
                "rotating",
                "random",
                "bernoulli",
                "exponential",
                "poisson",
                "",
                "🙂",
            ][..]
        )
        .prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

#[derive(Clone, Debug)]
enum Edit {
    Remove(prop::sample::Index),
    Set(prop::sample::Index, Value),
    Unknown(String, Value),
}

#[derive(Clone, Debug)]
enum TextEdit {
    /// Replace the i-th number in the text.
    Number(prop::sample::Index, &'static str),
    Truncate(prop::sample::Index),
    None,
}

fn scenario_text() -> impl Strategy<Value = String> {
    let bases: &'static [String] = Box::leak(base_scenarios().into_boxed_slice());
    let edit = prop_oneof![
        1 => any::<prop::sample::Index>().prop_map(Edit::Remove),
        4 => (any::<prop::sample::Index>(), json_value()).prop_map(|(i, v)| Edit::Set(i, v)),
        1 => ("[a-z_]{1,12}", json_value()).prop_map(|(k, v)| Edit::Unknown(k, v)),
    ];
    let text_edit = prop_oneof![
        6 => Just(TextEdit::None),
        2 => (any::<prop::sample::Index>(), prop::sample::select(&[
            "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "-0", "18446744073709551616",
            "-9223372036854775809", "0.30000000000000004", "1E400", "00", "-", "+1",
        ][..])).prop_map(|(i, n)| TextEdit::Number(i, n)),
        1 => any::<prop::sample::Index>().prop_map(TextEdit::Truncate),
    ];
    let _ = AWKWARD_NUMBERS;
    (
        prop::sample::select(bases),
        prop::collection::vec(edit, 0..5),
        text_edit,
    )
        .prop_map(|(base, edits, text_edit)| {
            let mut v: Value = serde_json::from_str(&base).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                let keys: Vec<String> = m.keys().cloned().collect();
                for e in edits {
                    match e {
                        Edit::Remove(i) if !keys.is_empty() => {
                            m.remove(&keys[i.index(keys.len())]);
                        }
                        Edit::Set(i, val) if !keys.is_empty() => {
                            m.insert(keys[i.index(keys.len())].clone(), val);
                        }
                        Edit::Unknown(k, val) => {
                            m.insert(k, val);
                        }
                        _ => {}
                    }
                }
            }
            let text = serde_json::to_string(&v).unwrap_or_default();
            match text_edit {
                TextEdit::None => text,
                TextEdit::Truncate(i) => {
                    let cut = i.index(text.len() + 1);
                    text.char_indices()
                        .take_while(|&(k, _)| k < cut)
                        .map(|(_, c)| c)
                        .collect()
                }
                TextEdit::Number(i, n) => {
                    // The i-th JSON number literal (after a ':').
                    let spots: Vec<usize> = text
                        .match_indices(':')
                        .map(|(k, _)| k + 1)
                        .filter(|&k| {
                            text[k..].starts_with(|c: char| c.is_ascii_digit() || c == '-')
                        })
                        .collect();
                    if spots.is_empty() {
                        return text;
                    }
                    let k = spots[i.index(spots.len())];
                    let end = text[k..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
                        .map_or(text.len(), |e| k + e);
                    format!("{}{n}{}", &text[..k], &text[end..])
                }
            }
        })
}

/// Parse, validate, build and (when small) run a scenario text; every
/// refusal names its field.
pub fn check_scenario_text(text: &str) -> Result<(), String> {
    let fields = fields();
    let check = |problems: &[String]| -> Result<(), String> {
        match problems.iter().find(|p| !names_a_field(p, &fields)) {
            Some(p) => Err(format!("a problem that names no field: {p}")),
            None => Ok(()),
        }
    };
    let s = match Scenario::from_json(text) {
        Ok(s) => s,
        Err(e) => return check(&e.problems),
    };
    let problems = s.problems();
    if !problems.is_empty() {
        return check(&problems);
    }
    // Path selection (balancing, SA, GA) on larger networks takes seconds
    // in a debug build; the short pass leaves it to the long runs.
    let long = std::env::var_os("ROUTELAB_FUZZ_SECONDS").is_some();
    let switches = s
        .topology
        .parse::<routelab::topology::TopologySpec>()
        .ok()
        .and_then(|t| t.size())
        .map_or(u64::MAX, |z| z.switches);
    if !long && s.routing.starts_with("paths") && switches > 16 {
        return Ok(());
    }
    let built = match s.prepare() {
        Ok(b) => b,
        Err(e) => return check(&e.problems),
    };
    if built.network.num_hosts() > 512 || built.network.num_channels() > 4096 {
        return Ok(());
    }
    let mut sim = match s.build() {
        Ok(sim) => sim,
        Err(e) => return check(&e.problems),
    };
    for _ in 0..4 {
        match sim.run_for(50) {
            Ok(()) => {}
            Err(SimError::Deadlock { .. }) if sim.wait_cycle().is_some() => return Ok(()),
            Err(e) => return Err(format!("the run failed: {e}")),
        }
        sim.check_invariants()?;
    }
    Ok(())
}

#[test]
fn scenario_json() {
    fuzz("scenario_json", 300, scenario_text(), |text| {
        check_scenario_text(text)
    });
}

#[test]
fn known_bad_scenarios_name_their_fields() {
    for text in [
        r#"{"load": NaN}"#,
        r#"{"load": 1e999}"#,
        r#"{"vcs": 300}"#,
        r#"{"vcs": -1}"#,
        r#"{"cycles": 18446744073709551616}"#,
        r#"{"topology": 5}"#,
        r#"{"topology": "torus:1000x1000"}"#,
        r#"{"topology": "torus:300x300", "vcs": 16, "buffer_flits": 1024}"#,
        r#"{"watchdog_cycles": 1}"#,
        r#"{"routing": "paths:udwm:sa:budget=99999999999"}"#,
        r#"{"switch_model": "crossbar"}"#,
        r#"[1, 2]"#,
        r#"{"load": 0.3"#,
    ] {
        let fields = fields();
        let problems = match Scenario::from_json(text) {
            Err(e) => e.problems,
            Ok(s) => {
                let p = s.problems();
                if p.is_empty() {
                    s.prepare().err().map(|e| e.problems).unwrap_or_default()
                } else {
                    p
                }
            }
        };
        assert!(!problems.is_empty(), "{text} was accepted");
        for p in &problems {
            assert!(names_a_field(p, &fields), "{text}: {p}");
        }
    }
}
