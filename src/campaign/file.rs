//! The campaign file: a base scenario, fields set for every point, and axes
//! whose product is the campaign's points.
//!
//! ```json
//! {"base": "assets/scenarios/torus-dor-uniform.json",
//!  "set": {"cycles": 20000, "warmup": 2000},
//!  "axes": {"routing": ["dor:tie=plus", "dor:tie=random"],
//!           "load": "0.1:0.3:0.1", "seed": [1, 2]},
//!  "exclude": [{"routing": "dor:tie=random", "load": 0.3}]}
//! ```
//!
//! - `base`: a scenario file (a path, tried as given, then beside the
//!   campaign file, then as `assets/scenarios/NAME.json`) or an inline
//!   scenario object. Optional: the default scenario.
//! - `set`: scenario fields fixed for every point (applied over the base).
//! - `axes`: scenario fields, each with a list of values or, for a numeric
//!   field, `"FROM:TO:STEP"` (inclusive, rounded to the step's decimals, so
//!   `0.1:0.3:0.1` is exactly 0.1, 0.2, 0.3). The points are the product,
//!   in the axes' alphabetical order (the last axis varies fastest).
//! - `exclude`: objects of axis values; a point matching every value of one
//!   of them is left out.
//! - `name`: an optional title for the figures.
//!
//! Every point is checked like a scenario file before any runs, and the
//! product is refused over [`crate::limits::MAX_CAMPAIGN_POINTS`] before it
//! is expanded. Each point's id is the FNV-1a hash of its canonical
//! scenario JSON ([`point_id`]): the same point has the same id whatever
//! the order of the axes, the machine or the task that runs it.

use crate::scenario::Scenario;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The fields a campaign file may hold.
pub const CAMPAIGN_FIELDS: &[&str] = &["name", "base", "set", "axes", "exclude"];

/// A campaign file with mistakes: every problem found, one per entry, each
/// naming the field or axis and what is accepted.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[error("{}", problems.join("\n"))]
pub struct CampaignError {
    /// One message per problem.
    pub problems: Vec<String>,
}

impl CampaignError {
    fn one(p: impl Into<String>) -> Self {
        CampaignError {
            problems: vec![p.into()],
        }
    }
}

/// One point of a campaign: its id and its scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// [`point_id`] of `scenario`.
    pub id: String,
    /// The scenario this point runs (name and description empty: they are
    /// labels and take no part in the identity).
    pub scenario: Scenario,
}

/// A campaign read from its file: the points, in their stable order.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// The title for the figures (`name`, else the base's name).
    pub name: String,
    /// The axes' names, in expansion order.
    pub axes: Vec<String>,
    /// Every point, in expansion order (exclusions left out, duplicates
    /// kept once).
    pub points: Vec<Point>,
}

/// The id of a scenario as a campaign point: the 64-bit FNV-1a hash of its
/// canonical JSON (compact, fields in the struct's order, floats in their
/// shortest round-trip spelling), as 16 hex digits. The name and the
/// description are emptied first.
pub fn point_id(s: &Scenario) -> String {
    let canonical = Scenario {
        name: String::new(),
        description: String::new(),
        ..s.clone()
    };
    let text = serde_json::to_string(&canonical).unwrap_or_default();
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// 64-bit FNV-1a (the same hash as the simulation's digest).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Campaign {
    /// Read and check a campaign file; `overrides` are `set` fields given
    /// on the command line (they win over the file's `set`).
    pub fn load(path: &Path, overrides: &Map<String, Value>) -> Result<Campaign, CampaignError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CampaignError::one(format!("cannot read campaign `{}`: {e}", path.display()))
        })?;
        Campaign::from_json(&text, path.parent(), overrides)
    }

    /// Parse and check a campaign; `dir` is where a relative `base` path
    /// is also looked for (the campaign file's directory).
    pub fn from_json(
        text: &str,
        dir: Option<&Path>,
        overrides: &Map<String, Value>,
    ) -> Result<Campaign, CampaignError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| CampaignError::one(format!("not valid JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(CampaignError::one(
                "a campaign is a JSON object like {\"base\": \"assets/scenarios/torus-dor-uniform.json\", \"set\": {...}, \"axes\": {\"load\": \"0.1:0.5:0.1\", \"seed\": [1, 2]}}",
            ));
        };
        let mut problems = Vec::new();
        for k in map.keys() {
            if !CAMPAIGN_FIELDS.contains(&k.as_str()) {
                problems.push(format!(
                    "unknown field `{k}`; accepted fields: {}",
                    CAMPAIGN_FIELDS.join(", ")
                ));
            }
        }
        let name = match map.get("name") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                problems.push("field `name`: accepted a string".into());
                None
            }
        };
        let base = match read_base(map.get("base"), dir) {
            Ok(b) => Some(b),
            Err(p) => {
                problems.push(p);
                None
            }
        };
        let fields = scenario_fields();
        let mut set = Map::new();
        match map.get("set") {
            None => {}
            Some(Value::Object(m)) => set.extend(m.clone()),
            Some(_) => problems.push(
                "field `set`: accepted an object of scenario fields like {\"cycles\": 20000}"
                    .into(),
            ),
        }
        set.extend(overrides.clone());
        for k in set.keys() {
            if !fields.contains(k) {
                problems.push(format!(
                    "set: unknown scenario field `{k}`; accepted: {}",
                    fields.join(", ")
                ));
            }
        }
        let mut axes: Vec<(String, Vec<Value>)> = Vec::new();
        match map.get("axes") {
            None => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    if !fields.contains(k) {
                        problems.push(format!(
                            "unknown axis `{k}`; accepted: any scenario field ({})",
                            fields.join(", ")
                        ));
                        continue;
                    }
                    match axis_values(k, v) {
                        Ok(values) => axes.push((k.clone(), values)),
                        Err(p) => problems.push(p),
                    }
                }
            }
            Some(_) => problems.push(
                "field `axes`: accepted an object of lists like {\"routing\": [\"dor\", \"val\"], \"load\": \"0.1:0.5:0.1\"}"
                    .into(),
            ),
        }
        let exclude = match map.get("exclude") {
            None => Vec::new(),
            Some(Value::Array(list)) => {
                let mut out = Vec::new();
                for (i, e) in list.iter().enumerate() {
                    match e {
                        Value::Object(m) => {
                            for k in m.keys() {
                                if !axes.iter().any(|(a, _)| a == k) {
                                    problems.push(format!(
                                        "exclude[{i}]: `{k}` is not an axis; accepted: {}",
                                        axis_names(&axes)
                                    ));
                                }
                            }
                            out.push(m.clone());
                        }
                        _ => problems.push(format!(
                            "exclude[{i}]: accepted an object of axis values like {{\"routing\": \"val\", \"load\": 0.9}}"
                        )),
                    }
                }
                out
            }
            Some(_) => {
                problems.push("field `exclude`: accepted a list of objects of axis values".into());
                Vec::new()
            }
        };
        // Without a base nothing else can be checked; otherwise the axes
        // are checked value by value below, with the problems so far.
        let Some(base) = base else {
            return Err(CampaignError { problems });
        };
        // The product, refused over the limit before it is expanded.
        let product = axes
            .iter()
            .fold(1u64, |p, (_, v)| p.saturating_mul(v.len() as u64));
        if product > crate::limits::MAX_CAMPAIGN_POINTS {
            problems.push(format!(
                "the axes make {} points ({}); at most {}: split the campaign or shorten an axis",
                product,
                axes.iter()
                    .map(|(k, v)| format!("{k} {}", v.len()))
                    .collect::<Vec<_>>()
                    .join(" x "),
                crate::limits::MAX_CAMPAIGN_POINTS
            ));
            return Err(CampaignError { problems });
        }
        let mut base_value = serde_json::to_value(&base).unwrap_or_default();
        if let Value::Object(b) = &mut base_value {
            // Unknown fields are reported above, once.
            b.extend(set.clone().into_iter().filter(|(k, _)| fields.contains(k)));
        }
        // Every field of `set` and every axis value alone, with the
        // scenario's own messages.
        let base_scenario = match scenario_from(&base_value) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("base and set: {e}"));
                return Err(CampaignError { problems });
            }
        };
        // Each value is tried with the other axes at their first values
        // (a value such as `worst` traffic may need the axes' routings
        // rather than the base's); combinations are checked point by
        // point in [`Campaign::check`].
        let mut first = base_value.clone();
        if let Value::Object(m) = &mut first {
            for (k, values) in &axes {
                m.insert(k.clone(), values[0].clone());
            }
        }
        for (k, values) in &axes {
            // What this axis's values add to the problems of the same
            // probe with the base's own value.
            let mut reference = first.clone();
            if let (Value::Object(m), Some(b)) = (&mut reference, base_value.get(k)) {
                m.insert(k.clone(), b.clone());
            }
            let base_problems = match scenario_from(&reference) {
                Ok(s) => s.problems(),
                Err(_) => base_scenario.problems(),
            };
            let mut bad = Vec::new();
            for v in values {
                let mut probe = first.clone();
                if let Value::Object(m) = &mut probe {
                    m.insert(k.clone(), v.clone());
                }
                match scenario_from(&probe) {
                    // The scenario's own checks, for what this value adds
                    // (an unknown routing, a load out of range).
                    Ok(s) => {
                        for p in s.problems() {
                            if !base_problems.contains(&p) {
                                bad.push(format!("axis `{k}` value {v}: {p}"));
                            }
                        }
                    }
                    Err(e) => bad.push(format!("axis `{k}` value {v}: {e}")),
                }
            }
            problems.extend(bad);
        }
        if !problems.is_empty() {
            return Err(CampaignError { problems });
        }
        let name = name.unwrap_or_else(|| base.name.clone());
        let points = expand(&base_value, &axes, &exclude, &mut problems);
        if !problems.is_empty() {
            return Err(CampaignError { problems });
        }
        Ok(Campaign {
            name,
            axes: axes.into_iter().map(|(k, _)| k).collect(),
            points,
        })
    }

    /// Check every point as a scenario, building each distinct network and
    /// routing once (the load, seed and run lengths do not change what is
    /// built): all problems, before any point runs.
    pub fn check(&self) -> Result<(), CampaignError> {
        let mut problems = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        // One message per distinct problem, with the first point it hits
        // and how many more.
        let mut found: Vec<(String, String, usize)> = Vec::new();
        let mut note = |what: &str, id: &str, text: String| match found
            .iter_mut()
            .find(|(t, _, _)| *t == text)
        {
            Some(f) => f.2 += 1,
            None => found.push((text, format!("point {id} ({what})"), 0)),
        };
        for p in &self.points {
            let issues = p.scenario.problems();
            if !issues.is_empty() {
                note(&self.describe(&p.scenario), &p.id, issues.join("; "));
                continue;
            }
            let shape = Scenario {
                load: 0.0,
                seed: 0,
                cycles: 1,
                warmup: 0,
                ..p.scenario.clone()
            };
            if seen.insert(serde_json::to_string(&shape).unwrap_or_default())
                && let Err(e) = p.scenario.prepare()
            {
                note(&self.describe(&p.scenario), &p.id, e.problems.join("; "));
            }
        }
        for (text, first, more) in found {
            let more = if more > 0 {
                format!(" and {more} more points")
            } else {
                String::new()
            };
            problems.push(format!("{first}{more}: {text}"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(CampaignError { problems })
        }
    }

    /// `routing=dor load=0.3 seed=2`: the point's axis values.
    pub fn describe(&self, s: &Scenario) -> String {
        let v = serde_json::to_value(s).unwrap_or_default();
        self.axes
            .iter()
            .map(|a| format!("{a}={}", plain(&v[a.as_str()])))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The points task `task` of `tasks` runs: every `tasks`-th point of
    /// the stable order, starting at `task` (the same split on every
    /// machine).
    pub fn share(&self, task: usize, tasks: usize) -> Vec<&Point> {
        self.points
            .iter()
            .enumerate()
            .filter(|(i, _)| tasks == 0 || i % tasks == task)
            .map(|(_, p)| p)
            .collect()
    }
}

/// A JSON value as text without quotes around strings.
pub fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The scenario fields an axis or `set` may name.
fn scenario_fields() -> Vec<String> {
    let mut f: Vec<String> = serde_json::to_value(Scenario::default())
        .ok()
        .and_then(|v| v.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    for extra in ["pair_stats", "wait_for_tail_credit"] {
        if !f.iter().any(|x| x == extra) {
            f.push(extra.to_string());
        }
    }
    f.retain(|k| k != "name" && k != "description");
    f.sort();
    f
}

fn axis_names(axes: &[(String, Vec<Value>)]) -> String {
    if axes.is_empty() {
        "no axes".into()
    } else {
        axes.iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A scenario from a JSON value, with the scenario file's messages.
fn scenario_from(v: &Value) -> Result<Scenario, String> {
    Scenario::from_json(&v.to_string()).map_err(|e| e.problems.join("; "))
}

/// Resolve `base`: a path or an inline scenario.
fn read_base(v: Option<&Value>, dir: Option<&Path>) -> Result<Scenario, String> {
    match v {
        None => Ok(Scenario::default()),
        Some(Value::Object(_)) => scenario_from(v.unwrap_or(&Value::Null))
            .map_err(|e| format!("field `base` (inline scenario): {e}")),
        Some(Value::String(p)) => {
            let path = base_path(p, dir).ok_or_else(|| {
                format!(
                    "field `base`: no scenario file `{p}` (looked in the current directory{}, and assets/scenarios/); accepted a scenario file path or an inline scenario object",
                    dir.map(|d| format!(", in `{}`", d.display())).unwrap_or_default()
                )
            })?;
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("field `base`: cannot read `{}`: {e}", path.display()))?;
            Scenario::from_json(&text).map_err(|e| {
                format!(
                    "field `base`: scenario `{}`: {}",
                    path.display(),
                    e.problems.join("; ")
                )
            })
        }
        Some(_) => {
            Err("field `base`: accepted a scenario file path or an inline scenario object".into())
        }
    }
}

fn base_path(p: &str, dir: Option<&Path>) -> Option<PathBuf> {
    let direct = PathBuf::from(p);
    let mut tries = vec![direct.clone()];
    if let Some(d) = dir
        && direct.is_relative()
    {
        tries.push(d.join(p));
    }
    tries.push(PathBuf::from("assets/scenarios").join(format!("{p}.json")));
    tries.into_iter().find(|t| t.is_file())
}

/// An axis's values: a non-empty list, or `FROM:TO:STEP`.
fn axis_values(axis: &str, v: &Value) -> Result<Vec<Value>, String> {
    let accepted = "accepted a non-empty list of values or, for a number, \"FROM:TO:STEP\" like \"0.1:0.5:0.1\"";
    match v {
        Value::Array(list) if !list.is_empty() => {
            if list.len() as u64 > crate::limits::MAX_CAMPAIGN_POINTS {
                return Err(format!(
                    "axis `{axis}`: {} values; at most {}",
                    list.len(),
                    crate::limits::MAX_CAMPAIGN_POINTS
                ));
            }
            Ok(list.clone())
        }
        Value::String(s) if s.contains(':') && axis_is_numeric(axis) => range(axis, s),
        _ => Err(format!("axis `{axis}`: {v}; {accepted}")),
    }
}

fn axis_is_numeric(axis: &str) -> bool {
    serde_json::to_value(Scenario::default())
        .ok()
        .is_some_and(|v| v[axis].is_number())
}

/// `FROM:TO:STEP`, inclusive, each value rounded to the decimals written.
fn range(axis: &str, s: &str) -> Result<Vec<Value>, String> {
    let bad = |why: &str| {
        format!(
            "axis `{axis}`: \"{s}\" {why}; accepted \"FROM:TO:STEP\" with FROM <= TO and STEP > 0, like \"0.1:0.5:0.1\", or a list"
        )
    };
    let parts: Vec<&str> = s.split(':').map(str::trim).collect();
    let [a, b, c] = parts[..] else {
        return Err(bad("is not three numbers"));
    };
    let nums: Vec<f64> = [a, b, c]
        .iter()
        .map(|x| x.parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("is not three numbers"))?;
    let (from, to, step) = (nums[0], nums[1], nums[2]);
    if !(from.is_finite() && to.is_finite() && step.is_finite()) || step <= 0.0 || to < from {
        return Err(bad("is not a range"));
    }
    let count = ((to - from) / step + 1e-9).floor() + 1.0;
    if count > crate::limits::MAX_CAMPAIGN_POINTS as f64 {
        return Err(format!(
            "axis `{axis}`: \"{s}\" makes {count} values; at most {}",
            crate::limits::MAX_CAMPAIGN_POINTS
        ));
    }
    let decimals = [a, b, c]
        .iter()
        .map(|x| x.split_once('.').map_or(0, |(_, f)| f.len()))
        .max()
        .unwrap_or(0);
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as u64 {
        let x = from + i as f64 * step;
        if decimals == 0 && x >= 0.0 {
            out.push(Value::from(x.round() as u64));
        } else {
            let r: f64 = format!("{x:.decimals$}").parse().unwrap_or(x);
            out.push(Value::from(r));
        }
    }
    Ok(out)
}

/// The product of the axes over the base, without the excluded points and
/// without repeats.
fn expand(
    base: &Value,
    axes: &[(String, Vec<Value>)],
    exclude: &[Map<String, Value>],
    problems: &mut Vec<String>,
) -> Vec<Point> {
    let mut points = Vec::new();
    let mut ids = std::collections::HashSet::new();
    let mut index = vec![0usize; axes.len()];
    loop {
        let chosen: Vec<(&str, &Value)> = axes
            .iter()
            .zip(&index)
            .map(|((k, v), &i)| (k.as_str(), &v[i]))
            .collect();
        let excluded = exclude.iter().any(|e| {
            e.iter()
                .all(|(k, v)| chosen.iter().any(|(a, x)| a == k && same(x, v)))
        });
        if !excluded {
            let mut value = base.clone();
            if let Value::Object(m) = &mut value {
                for (k, v) in &chosen {
                    m.insert(k.to_string(), (*v).clone());
                }
                m.insert("name".into(), Value::from(""));
                m.insert("description".into(), Value::from(""));
            }
            match serde_json::from_value::<Scenario>(value) {
                Ok(scenario) => {
                    let id = point_id(&scenario);
                    if ids.insert(id.clone()) {
                        points.push(Point { id, scenario });
                    }
                }
                Err(e) => problems.push(e.to_string()),
            }
        }
        // Next index, the last axis fastest.
        let mut d = axes.len();
        loop {
            if d == 0 {
                return points;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < axes[d].1.len() {
                break;
            }
            index[d] = 0;
        }
    }
}

/// Two axis values equal as JSON, numbers by value (0.3 and 0.30).
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
