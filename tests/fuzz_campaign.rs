//! Fuzzing campaign files: every file in `assets/campaigns/` with its text
//! mutated (awkward numbers, characters inserted, deleted or repeated) and
//! with axes, `set` fields and `exclude` entries replaced by values of any
//! type, misspelled axes and huge ranges. Every one is accepted, with at
//! most [`routelab::limits::MAX_CAMPAIGN_POINTS`] points and unique ids,
//! or refused with one message per problem, each naming the field, the
//! axis or the point it is about; nothing panics.

use crate::fuzz_support;

use fuzz_support::{AWKWARD_NUMBERS, fuzz, near_miss, routing_examples};
use proptest::prelude::*;
use routelab::campaign::Campaign;
use serde_json::{Map, Value};

fn campaign_texts() -> &'static [&'static str] {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/campaigns");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    let texts: Vec<&'static str> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .map(|t| &*Box::leak(t.into_boxed_str()))
        .collect();
    Box::leak(texts.into_boxed_slice())
}

/// Does `problem` say what it is about?
fn names_something(problem: &str) -> bool {
    [
        "not valid JSON",
        "a campaign is a JSON object",
        "unknown field `",
        "unknown axis `",
        "field `",
        "axis `",
        "set: ",
        "exclude[",
        "point ",
        "the axes make ",
        "base and set: ",
    ]
    .iter()
    .any(|p| problem.starts_with(p))
}

fn value() -> BoxedStrategy<Value> {
    let routings: &'static [&'static str] = Box::leak(routing_examples().into_boxed_slice());
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)),
        prop::sample::select(AWKWARD_NUMBERS).prop_map(Value::from),
        "[0-9.:]{0,12}".prop_map(Value::from),
        near_miss(routings).prop_map(Value::from),
        Just(Value::Array(vec![])),
        Just(serde_json::json!({"a": 1})),
        Just(Value::from("0:1e12:1e-9")),
        Just(Value::from("0.1:0.3:0.1")),
    ]
    .boxed()
}

#[derive(Clone, Debug)]
enum Edit {
    /// Replace (or add) an axis with a list of values or one value.
    Axis(String, Vec<Value>, bool),
    /// Set a `set` field.
    Set(String, Value),
    /// Add an exclusion.
    Exclude(String, Value),
    /// Replace a top-level field.
    Top(String, Value),
}

fn edit() -> impl Strategy<Value = Edit> {
    let names = prop::sample::select(
        &[
            "routing",
            "traffic",
            "load",
            "seed",
            "vcs",
            "topology",
            "cycles",
            "warmup",
            "buffer_flits",
            "switch_model",
            "packet_flits",
            "rooting",
            "name",
            "colour",
        ][..],
    )
    .prop_map(String::from);
    prop_oneof![
        (
            names.clone(),
            prop::collection::vec(value(), 0..4),
            any::<bool>()
        )
            .prop_map(|(n, v, list)| Edit::Axis(n, v, list)),
        (names.clone(), value()).prop_map(|(n, v)| Edit::Set(n, v)),
        (names.clone(), value()).prop_map(|(n, v)| Edit::Exclude(n, v)),
        (
            prop::sample::select(&["base", "set", "axes", "exclude", "name", "extra"][..]),
            value()
        )
            .prop_map(|(n, v)| Edit::Top(n.to_string(), v)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(text) else {
        return text.to_string();
    };
    for e in edits {
        match e {
            Edit::Axis(n, v, list) => {
                let axes = m.entry("axes").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(a) = axes {
                    let val = if *list || v.is_empty() {
                        Value::Array(v.clone())
                    } else {
                        v[0].clone()
                    };
                    a.insert(n.clone(), val);
                }
            }
            Edit::Set(n, v) => {
                let set = m.entry("set").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(s) = set {
                    s.insert(n.clone(), v.clone());
                }
            }
            Edit::Exclude(n, v) => {
                let ex = m.entry("exclude").or_insert_with(|| Value::Array(vec![]));
                if let Value::Array(list) = ex {
                    list.push(serde_json::json!({ n.clone(): v.clone() }));
                }
            }
            Edit::Top(n, v) => {
                m.insert(n.clone(), v.clone());
            }
        }
    }
    Value::Object(m).to_string()
}

fn check(text: &str) -> Result<(), String> {
    match Campaign::from_json(text, None, &Map::new()) {
        Ok(c) => {
            if c.points.len() as u64 > routelab::limits::MAX_CAMPAIGN_POINTS {
                return Err(format!("{} points accepted", c.points.len()));
            }
            let mut ids = std::collections::HashSet::new();
            for p in &c.points {
                if p.id.len() != 16 || !p.id.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(format!("id `{}`", p.id));
                }
                if !ids.insert(p.id.clone()) {
                    return Err(format!("id `{}` twice", p.id));
                }
            }
            Ok(())
        }
        Err(e) => {
            if e.problems.is_empty() {
                return Err("refused without a message".into());
            }
            match e.problems.iter().find(|p| !names_something(p)) {
                Some(p) => Err(format!("a message that names nothing: {p}")),
                None => Ok(()),
            }
        }
    }
}

#[test]
fn campaign_files() {
    let texts = campaign_texts();
    assert!(
        texts.len() >= 5,
        "assets/campaigns has {} files",
        texts.len()
    );
    let structured = (
        prop::sample::select(texts),
        prop::collection::vec(edit(), 1..4),
    )
        .prop_map(|(t, e)| apply(t, &e));
    let strategy = prop_oneof![structured, near_miss(texts)];
    let n = fuzz("campaign_files", 200, strategy, |text| check(text));
    assert!(n > 0);
}
