//! Merging a campaign's result files into one table: one row per point
//! once the seeds are pooled, with every input that varies over the
//! campaign, and for each output the mean and the 95 % confidence
//! interval over the seeds (Student's t); and per curve (the rows that
//! differ only in their load) the saturation throughput as the sweeps
//! define it ([`crate::sim::saturated`], the largest accepted throughput
//! over the curve's loads).
//!
//! Timing fields (`elapsed_ms`, `cycles_per_second`) are left out: the
//! table of a campaign is the same whichever machine, task split or number
//! of interruptions made it.

use super::file::plain;
use super::run::{Manifest, PointResult};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Report fields that measure the machine, not the network.
pub const TIMING_FIELDS: &[&str] = &["elapsed_ms", "cycles_per_second"];

/// The outputs listed first, in this order; the report's other numbers
/// follow alphabetically.
const FIRST_OUTPUTS: &[&str] = &[
    "offered",
    "generated",
    "accepted",
    "accepted_fraction",
    "avg_latency",
    "p50_latency",
    "p99_latency",
    "max_latency",
    "avg_hops",
];

/// A merged table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, each a value per column (`Null` where there is none).
    pub rows: Vec<Vec<Value>>,
    /// Scenario fields that vary over the campaign (the input columns,
    /// seed excluded).
    pub inputs: Vec<String>,
    /// Points read, and of those failed.
    pub points: usize,
    /// Failed points.
    pub failed: usize,
    /// Points the manifest announces (when there is one).
    pub expected: Option<usize>,
    /// Fields every point shares, for titles (`topology torus:8x8`).
    pub fixed: Vec<(String, Value)>,
}

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom
/// (`t_{0.975, df}`): exact to three decimals for df ≤ 30 from the usual
/// table, then interpolated in 1/df towards the normal 1.960.
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    const TAIL: [(f64, f64); 4] = [(30.0, 2.042), (40.0, 2.021), (60.0, 2.000), (120.0, 1.980)];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        _ => {
            let x = 1.0 / df as f64;
            for w in TAIL.windows(2) {
                let ((d0, t0), (d1, t1)) = (w[0], w[1]);
                if df as f64 <= d1 {
                    let (x0, x1) = (1.0 / d0, 1.0 / d1);
                    return t1 + (t0 - t1) * (x - x1) / (x0 - x1);
                }
            }
            // Beyond 120: towards 1.960 at infinity (1/df = 0).
            let x1 = 1.0 / 120.0;
            1.960 + (1.980 - 1.960) * x / x1
        }
    }
}

/// Mean and half-width of the 95 % confidence interval of `xs` (`None`
/// for the interval of a single value).
pub fn mean_ci95(xs: &[f64]) -> (f64, Option<f64>) {
    let n = xs.len();
    if n == 0 {
        return (f64::NAN, None);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (mean, Some(t95(n - 1) * (var / n as f64).sqrt()))
}

/// Every point result in `dir/points`, ordered by id.
pub fn read_points(dir: &Path) -> Result<Vec<PointResult>, String> {
    const ACCEPTED: &str = "accepted: a directory written by `routelab campaign run --out DIR` \
                            (or `campaign slurm --out DIR`), with its `points` directory";
    if !dir.is_dir() {
        let what = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(format!("`{}` {what}; {ACCEPTED}", dir.display()));
    }
    let pdir = dir.join("points");
    let entries = std::fs::read_dir(&pdir)
        .map_err(|e| format!("cannot read `{}`: {e}; {ACCEPTED}", pdir.display()))?;
    let mut names: Vec<_> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut out = Vec::with_capacity(names.len());
    for n in names {
        let path = pdir.join(&n);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let p: PointResult = serde_json::from_str(&text)
            .map_err(|e| format!("`{}` is not a point result: {e}", path.display()))?;
        out.push(p);
    }
    Ok(out)
}

/// The numeric leaves of a report, `paper.wait_latency` for nested ones,
/// timing fields left out.
fn outputs(v: &Value) -> BTreeMap<String, f64> {
    fn walk(prefix: &str, v: &Value, out: &mut BTreeMap<String, f64>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if prefix.is_empty() && TIMING_FIELDS.contains(&k.as_str()) {
                        continue;
                    }
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, x, out);
                }
            }
            Value::Number(n) => {
                if let Some(x) = n.as_f64() {
                    out.insert(prefix.to_string(), x);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk("", v, &mut out);
    out
}

/// The merged table of the results in `dir`.
pub fn merge(dir: &Path) -> Result<Table, String> {
    let points = read_points(dir)?;
    if points.is_empty() {
        return Err(format!(
            "no point results in `{}`; run `routelab campaign run FILE --out {}` first",
            dir.join("points").display(),
            dir.display()
        ));
    }
    let manifest = Manifest::read(dir);
    let scenarios: Vec<Map<String, Value>> = points
        .iter()
        .map(|p| match serde_json::to_value(&p.scenario) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        })
        .collect();
    let (inputs, fixed) = inputs_of(&scenarios, manifest.as_ref());
    let groups = group(&scenarios, &inputs, manifest.as_ref());
    let reports: Vec<Option<BTreeMap<String, f64>>> = points
        .iter()
        .map(|p| p.result.as_ref().map(outputs))
        .collect();
    let names = output_names(&reports);
    let mut columns: Vec<String> = inputs.clone();
    columns.extend(["seeds", "failed", "saturated"].map(String::from));
    for n in &names {
        columns.push(format!("{n}_mean"));
        columns.push(format!("{n}_ci95"));
    }
    columns.extend(["curve_saturation_throughput", "curve_saturated_at"].map(String::from));
    let rows = summarise(groups, &points, &reports, &names);
    let failed_points = rows.iter().map(|r| r.failed).sum();
    let curves = Curves::new(&inputs, &names);
    let curve_sat = curves.saturation(&rows, points[0].scenario.load);
    let out_rows = rows.iter().map(|r| curves.out_row(r, &curve_sat)).collect();
    Ok(Table {
        columns,
        rows: out_rows,
        inputs,
        points: points.len(),
        failed: failed_points,
        expected: manifest.map(|m| m.points),
        fixed,
    })
}

/// The inputs: fields that vary, in the manifest's axis order, then the
/// others alphabetically, the load last (the rows of a curve follow each
/// other, load rising); the seed is pooled. And the fields that do not
/// vary, with their values.
fn inputs_of(
    scenarios: &[Map<String, Value>],
    manifest: Option<&Manifest>,
) -> (Vec<String>, Vec<(String, Value)>) {
    let mut varying: Vec<String> = Vec::new();
    let mut fixed = Vec::new();
    for (k, v) in &scenarios[0] {
        if k == "name" || k == "description" {
            continue;
        }
        if scenarios.iter().any(|s| s.get(k) != Some(v)) {
            varying.push(k.clone());
        } else {
            fixed.push((k.clone(), v.clone()));
        }
    }
    let axis_order: Vec<String> = manifest
        .map(|m| m.axes.iter().map(|(a, _)| a.clone()).collect())
        .unwrap_or_default();
    varying.sort_by_key(|k| {
        (
            k == "load",
            axis_order.iter().position(|a| a == k).unwrap_or(usize::MAX),
            k.clone(),
        )
    });
    let inputs = varying.iter().filter(|k| *k != "seed").cloned().collect();
    (inputs, fixed)
}

/// Sort key (each input's rank) -> (the inputs' values, the points).
type Groups = BTreeMap<Vec<(usize, String)>, (Vec<Value>, Vec<usize>)>;

/// The points grouped by their inputs' values, the groups in the
/// manifest's order of each axis's values (numbers by value otherwise).
fn group(
    scenarios: &[Map<String, Value>],
    inputs: &[String],
    manifest: Option<&Manifest>,
) -> Groups {
    let key_of = |s: &Map<String, Value>| -> Vec<Value> {
        inputs
            .iter()
            .map(|k| s.get(k).cloned().unwrap_or(Value::Null))
            .collect()
    };
    let rank = |k: &str, v: &Value| -> (usize, String) {
        let pos = manifest
            .and_then(|m| m.axes.iter().find(|(a, _)| a == k))
            .and_then(|(_, vals)| vals.iter().position(|x| x == v))
            .unwrap_or(usize::MAX);
        let text = match v.as_f64() {
            // Numbers sort by value: a fixed-width key.
            Some(x) => format!("{:030.12}", x + 1e15),
            None => plain(v),
        };
        (pos, text)
    };
    let mut groups = Groups::new();
    for (i, s) in scenarios.iter().enumerate() {
        let key = key_of(s);
        let order: Vec<(usize, String)> =
            inputs.iter().zip(&key).map(|(k, v)| rank(k, v)).collect();
        groups
            .entry(order)
            .or_insert_with(|| (key, Vec::new()))
            .1
            .push(i);
    }
    groups
}

/// Output names over every successful point, the first outputs first.
fn output_names(reports: &[Option<BTreeMap<String, f64>>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in reports.iter().flatten() {
        for k in r.keys() {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    names.sort_by_key(|k| {
        (
            FIRST_OUTPUTS
                .iter()
                .position(|f| f == k)
                .unwrap_or(usize::MAX),
            k.clone(),
        )
    });
    names
}

/// One group's row before its curve's columns: the inputs' values, its
/// points and failures, each output's mean and 95 % interval.
struct Row {
    key: Vec<Value>,
    seeds: usize,
    failed: usize,
    stats: Vec<(f64, Option<f64>)>,
}

/// Every group's row.
fn summarise(
    groups: Groups,
    points: &[PointResult],
    reports: &[Option<BTreeMap<String, f64>>],
    names: &[String],
) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (key, members) in groups.into_values() {
        // Seeds in increasing order: the sums do not depend on file order.
        let mut members = members;
        members.sort_by_key(|&i| points[i].scenario.seed);
        let ok: Vec<&BTreeMap<String, f64>> = members
            .iter()
            .filter_map(|&i| reports[i].as_ref())
            .collect();
        let failed = members.len() - ok.len();
        let stats = names
            .iter()
            .map(|n| {
                let xs: Vec<f64> = ok.iter().filter_map(|r| r.get(n).copied()).collect();
                if xs.is_empty() {
                    (f64::NAN, None)
                } else {
                    mean_ci95(&xs)
                }
            })
            .collect();
        rows.push(Row {
            key,
            seeds: members.len(),
            failed,
            stats,
        });
    }
    rows
}

/// The curves of the table: the inputs but the load, and where the
/// outputs that judge saturation are.
struct Curves {
    /// The inputs a curve is drawn over (all but the load), by position.
    inputs: Vec<usize>,
    /// The load's position among the inputs.
    load_at: Option<usize>,
    /// The accepted and generated outputs' positions.
    acc: Option<usize>,
    gen_: Option<usize>,
}

impl Curves {
    fn new(inputs: &[String], names: &[String]) -> Curves {
        let col = |n: &str| names.iter().position(|x| x == n);
        Curves {
            inputs: (0..inputs.len()).filter(|&i| inputs[i] != "load").collect(),
            load_at: inputs.iter().position(|k| k == "load"),
            acc: col("accepted"),
            gen_: col("generated"),
        }
    }

    /// Whether a row saturated (accepted below generated), when both are
    /// there.
    fn saturated(&self, r: &Row) -> Option<bool> {
        let a = r.stats.get(self.acc?)?.0;
        let g = r.stats.get(self.gen_?)?.0;
        (!a.is_nan() && !g.is_nan()).then(|| crate::sim::saturated(a, g))
    }

    /// A row's curve, as a key.
    fn key(&self, r: &Row) -> String {
        self.inputs
            .iter()
            .map(|&i| r.key[i].to_string())
            .collect::<Vec<_>>()
            .join("\u{1f}")
    }

    /// Per curve: the largest mean accepted, the lowest saturated load
    /// (`load` when the load does not vary).
    fn saturation(&self, rows: &[Row], load: f64) -> BTreeMap<String, (f64, Option<f64>)> {
        let mut curve_sat: BTreeMap<String, (f64, Option<f64>)> = BTreeMap::new();
        for r in rows {
            let e = curve_sat.entry(self.key(r)).or_insert((f64::NAN, None));
            if let Some(a) = self.acc.and_then(|i| r.stats.get(i)).map(|s| s.0)
                && !a.is_nan()
            {
                e.0 = if e.0.is_nan() { a } else { e.0.max(a) };
            }
            if self.saturated(r) == Some(true) || r.failed == r.seeds {
                let load = self.load_at.and_then(|i| r.key[i].as_f64()).or(Some(load));
                e.1 = match (e.1, load) {
                    (Some(x), Some(l)) => Some(x.min(l)),
                    (None, l) => l,
                    (x, None) => x,
                };
            }
        }
        curve_sat
    }

    /// A row as the table writes it, with its curve's columns.
    fn out_row(&self, r: &Row, curve_sat: &BTreeMap<String, (f64, Option<f64>)>) -> Vec<Value> {
        let num = |x: f64| {
            serde_json::Number::from_f64(x)
                .map(Value::Number)
                .unwrap_or(Value::Null)
        };
        let mut v = r.key.clone();
        v.push(Value::from(r.seeds));
        v.push(Value::from(r.failed));
        v.push(self.saturated(r).map(Value::from).unwrap_or(Value::Null));
        for (m, ci) in &r.stats {
            v.push(num(*m));
            v.push(ci.map(num).unwrap_or(Value::Null));
        }
        let (s, at) = curve_sat
            .get(&self.key(r))
            .copied()
            .unwrap_or((f64::NAN, None));
        v.push(num(s));
        v.push(at.map(num).unwrap_or(Value::Null));
        v
    }
}

impl Table {
    /// The table as CSV (empty cells where there is no value).
    pub fn to_csv(&self) -> Result<String, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.columns).map_err(|e| e.to_string())?;
        for r in &self.rows {
            w.write_record(r.iter().map(|v| match v {
                Value::Null => String::new(),
                other => plain(other),
            }))
            .map_err(|e| e.to_string())?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }

    /// The table as one JSON array of objects, one per row.
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                Value::Object(
                    self.columns
                        .iter()
                        .cloned()
                        .zip(r.iter().cloned())
                        .collect::<Map<String, Value>>(),
                )
            })
            .collect();
        serde_json::to_string_pretty(&Value::Array(rows)).unwrap_or_default() + "\n"
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_table_and_tend_to_the_normal() {
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(9), 2.262);
        assert!((t95(60) - 2.000).abs() < 1e-9);
        assert!(t95(1000) > 1.960 && t95(1000) < 1.963);
        assert!(t95(0).is_nan());
    }

    #[test]
    fn mean_and_interval_over_seeds() {
        let (m, ci) = mean_ci95(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        // sd 1, n 3: 4.303 / sqrt(3).
        assert!((ci.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(mean_ci95(&[5.0]), (5.0, None));
    }
}
