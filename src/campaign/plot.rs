//! A campaign's figures, as a paper shows them: latency against offered
//! load and accepted against offered load, one panel per value of one
//! input (the traffic pattern by default), one curve per value of another
//! (the routing), the mean over seeds with its 95 % confidence band, as
//! SVG and PNG (plotters; the PNG's text in egui's embedded Ubuntu font,
//! so no system font is needed).
//!
//! Latency curves stop at saturation ([`crate::sim::saturated`]): past it
//! the latency measures how long the run lasted, not the network. Inputs
//! other than the panel, curve and load axes make one pair of figures per
//! combination.

use super::file::plain;
use super::merge::Table;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Which inputs make the panels and the curves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct By {
    /// One panel per value of this input.
    pub panel: String,
    /// One curve per value of this input.
    pub curve: String,
}

impl Default for By {
    fn default() -> Self {
        By {
            panel: "traffic".into(),
            curve: "routing".into(),
        }
    }
}

impl By {
    /// `PANEL,CURVE` (`traffic,routing`).
    pub fn parse(s: &str) -> Result<By, String> {
        match s.split(',').map(str::trim).collect::<Vec<_>>()[..] {
            [p, c] if !p.is_empty() && !c.is_empty() && p != c => Ok(By {
                panel: p.into(),
                curve: c.into(),
            }),
            _ => Err(format!(
                "--by `{s}`; accepted PANEL,CURVE: two different scenario fields, like traffic,routing"
            )),
        }
    }
}

/// Colours a reader tells apart (Tableau 10), in curve order.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// One curve of one panel: (load, mean, ci half-width) points.
type Curve = (String, Vec<(f64, f64, Option<f64>)>);

/// Register the embedded font for the PNG backend (once).
fn fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            let _ = plotters::style::register_font(
                "sans-serif",
                style,
                epaint_default_fonts::UBUNTU_LIGHT,
            );
        }
    });
}

/// Draw every figure of `table` into `out`; the files written.
pub fn plot(table: &Table, title: &str, by: &By, out: &Path) -> Result<Vec<PathBuf>, String> {
    fonts();
    let load = table
        .column("load")
        .ok_or("the campaign has no load axis; accepted: a campaign whose axes include \"load\" (the figures plot against the offered load)")?;
    let input = |name: &str| -> Option<usize> {
        table
            .inputs
            .iter()
            .any(|i| i == name)
            .then(|| table.column(name))
            .flatten()
    };
    let panel = input(&by.panel);
    let curve = input(&by.curve);
    for (what, name) in [("panel", &by.panel), ("curve", &by.curve)] {
        if input(name).is_none() && !table.fixed.iter().any(|(k, _)| k == name) {
            return Err(format!(
                "--by: {what} `{name}` is not a scenario field; accepted: {}",
                table.inputs.join(", ")
            ));
        }
    }
    let others: Vec<usize> = table
        .inputs
        .iter()
        .filter(|i| *i != "load" && *i != &by.panel && *i != &by.curve)
        .filter_map(|i| table.column(i))
        .collect();
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create `{}`: {e}", out.display()))?;
    // Groups of the other inputs, in row order.
    let mut groups: Vec<Vec<Value>> = Vec::new();
    for r in &table.rows {
        let g: Vec<Value> = others.iter().map(|&i| r[i].clone()).collect();
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    // The units of the campaign's switch model (the registry's entry).
    let unit = table
        .fixed
        .iter()
        .find(|(k, _)| k == "switch_model")
        .and_then(|(_, v)| crate::sim::SwitchModelKind::parse(v.as_str()?))
        .unwrap_or_default()
        .unit();
    let (load_unit, latency_unit) = (unit.load_short, unit.step);
    let mut written = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        let rows: Vec<&Vec<Value>> = table
            .rows
            .iter()
            .filter(|r| others.iter().zip(g).all(|(&i, v)| &r[i] == v))
            .collect();
        let suffix = if groups.len() > 1 {
            format!("-{}", gi + 1)
        } else {
            String::new()
        };
        let mut subtitle = subtitle(table);
        for (&i, v) in others.iter().zip(g) {
            subtitle.push_str(&format!(", {} {}", table.columns[i], plain(v)));
        }
        let panels = panels(&rows, panel, curve, load);
        let figures = [
            (
                "latency",
                "avg_latency",
                format!("Average latency ({latency_unit})"),
                true,
            ),
            (
                "throughput",
                "accepted",
                format!("Accepted load ({load_unit})"),
                false,
            ),
        ];
        for (stem, metric, ylabel, stop_at_saturation) in figures {
            let (mean, ci) = match (
                table.column(&format!("{metric}_mean")),
                table.column(&format!("{metric}_ci95")),
            ) {
                (Some(m), Some(c)) => (m, c),
                _ => return Err(format!("the results have no `{metric}`")),
            };
            let sat = table.column("saturated");
            let data: Vec<(String, Vec<Curve>)> = panels
                .iter()
                .map(|(name, curves)| {
                    let cs = curves
                        .iter()
                        .map(|(cname, rs)| {
                            let pts = rs
                                .iter()
                                .filter(|r| {
                                    !stop_at_saturation
                                        || sat.is_none_or(|s| r[s] != Value::Bool(true))
                                })
                                .filter_map(|r| {
                                    Some((r[load].as_f64()?, r[mean].as_f64()?, r[ci].as_f64()))
                                })
                                .collect();
                            (cname.clone(), pts)
                        })
                        .collect();
                    (name.clone(), cs)
                })
                .collect();
            let full_title = format!(
                "{}: {}",
                if title.is_empty() { "Campaign" } else { title },
                if stop_at_saturation {
                    "latency against offered load"
                } else {
                    "accepted against offered load"
                }
            );
            let xlabel = format!("Offered load ({load_unit})");
            let labels = Labels {
                title: &full_title,
                subtitle: &subtitle,
                x: &xlabel,
                y: &ylabel,
                diagonal: !stop_at_saturation,
            };
            let mut names: Vec<String> = Vec::new();
            for (_, cs) in &data {
                for (c, _) in cs {
                    if !names.contains(c) {
                        names.push(c.clone());
                    }
                }
            }
            let (w, h) = size(data.len(), &names);
            let svg = out.join(format!("{stem}{suffix}.svg"));
            {
                let root = SVGBackend::new(&svg, (w, h)).into_drawing_area();
                draw(&root, &data, &labels).map_err(|e| format!("{}: {e}", svg.display()))?;
            }
            let png = out.join(format!("{stem}{suffix}.png"));
            {
                let root = BitMapBackend::new(&png, (w, h)).into_drawing_area();
                draw(&root, &data, &labels).map_err(|e| format!("{}: {e}", png.display()))?;
            }
            written.push(svg);
            written.push(png);
        }
    }
    Ok(written)
}

/// Each panel's name and curves, each curve's name and rows.
type PanelRows<'a> = Vec<(String, Vec<(String, Vec<&'a Vec<Value>>)>)>;

/// The rows of each panel and curve, in row order.
fn panels<'a>(
    rows: &[&'a Vec<Value>],
    panel: Option<usize>,
    curve: Option<usize>,
    load: usize,
) -> PanelRows<'a> {
    let mut out: PanelRows<'a> = Vec::new();
    for &r in rows {
        let p = panel.map(|i| plain(&r[i])).unwrap_or_default();
        let c = curve.map(|i| plain(&r[i])).unwrap_or_default();
        let pi = match out.iter().position(|(n, _)| *n == p) {
            Some(i) => i,
            None => {
                out.push((p, Vec::new()));
                out.len() - 1
            }
        };
        let curves = &mut out[pi].1;
        match curves.iter_mut().find(|(n, _)| *n == c) {
            Some((_, v)) => v.push(r),
            None => curves.push((c, vec![r])),
        }
    }
    for (_, curves) in &mut out {
        for (_, v) in curves.iter_mut() {
            v.sort_by(|a, b| {
                let (x, y) = (a[load].as_f64(), b[load].as_f64());
                x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
            });
        }
    }
    out
}

/// The fixed inputs a reader needs: topology, switch, packets, buffers,
/// run length.
fn subtitle(t: &Table) -> String {
    let get = |k: &str| t.fixed.iter().find(|(f, _)| f == k).map(|(_, v)| plain(v));
    let mut parts = Vec::new();
    for (k, fmt) in [
        ("topology", "{}"),
        ("routing", "routing {}"),
        ("traffic", "traffic {}"),
        ("switch_model", "{}"),
        ("packet_flits", "{}-flit packets"),
        ("vcs", "{} VCs"),
        ("buffer_flits", "{}-flit buffers"),
        ("cycles", "{} cycles"),
    ] {
        if let Some(v) = get(k) {
            parts.push(fmt.replace("{}", &v));
        }
    }
    let seeds = t
        .column("seeds")
        .and_then(|i| t.rows.first().and_then(|r| r[i].as_u64()))
        .unwrap_or(1);
    parts.push(if seeds > 1 {
        format!("mean of {seeds} seeds, 95 % CI")
    } else {
        "one seed".to_string()
    });
    parts.join(", ")
}

/// `0.25`, `100`, `0.3`: an axis label without trailing zeros.
fn trim_number(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Width of a legend entry: its line, its label (about 8 pixels a
/// character at 15 px), a gap.
fn legend_item_width(label: &str) -> i32 {
    32 + 8 * label.chars().count() as i32 + 24
}

/// Legend rows `names` need in a figure `width` pixels wide.
fn legend_rows(names: &[String], width: u32) -> u32 {
    let mut rows = 1;
    let mut x = 14;
    for n in names {
        let w = legend_item_width(n);
        if x > 14 && x + w > width as i32 - 14 {
            rows += 1;
            x = 14;
        }
        x += w;
    }
    rows
}

/// Figure size for `n` panels (up to three a row, 460x340 each, at
/// least 980 wide) and a legend of `names`.
fn size(n: usize, names: &[String]) -> (u32, u32) {
    let cols = n.clamp(1, 3) as u32;
    let rows = n.max(1).div_ceil(3) as u32;
    let width = (cols * 460 + 20).max(980);
    let legend = legend_rows(names, width) * 24 + 32;
    (width, rows * 340 + 64 + legend + 8)
}

struct Labels<'a> {
    title: &'a str,
    subtitle: &'a str,
    x: &'a str,
    y: &'a str,
    /// Draw accepted = offered.
    diagonal: bool,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &[(String, Vec<Curve>)],
    labels: &Labels<'_>,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let (w, _) = root.dim_in_pixel();
    let mut names: Vec<String> = Vec::new();
    for (_, cs) in data {
        for (c, _) in cs {
            if !names.contains(c) {
                names.push(c.clone());
            }
        }
    }
    let panel_rows = data.len().max(1).div_ceil(3) as u32;
    let (head, rest) = root.split_vertically(64);
    let (body, legend) = rest.split_vertically(panel_rows * 340);
    head.draw(&Text::new(
        labels.title.to_string(),
        (14, 10),
        ("sans-serif", 22).into_font().color(&BLACK),
    ))
    .map_err(e)?;
    head.draw(&Text::new(
        labels.subtitle.to_string(),
        (14, 38),
        ("sans-serif", 15).into_font().color(&RGBColor(70, 70, 70)),
    ))
    .map_err(e)?;
    let n = data.len().max(1);
    let cols = n.clamp(1, 3);
    let rows = n.div_ceil(3);
    let cells = body.split_evenly((rows, cols));
    // Shared axes ranges over every panel, so panels compare at a glance.
    let all = data
        .iter()
        .flat_map(|(_, cs)| cs.iter().flat_map(|(_, p)| p.iter()));
    let xmax = all.clone().map(|p| p.0).fold(0.0f64, f64::max);
    let ymax = all.map(|p| p.1 + p.2.unwrap_or(0.0)).fold(0.0f64, f64::max);
    let xmax = if xmax > 0.0 { xmax * 1.05 } else { 1.0 };
    let ymax = if labels.diagonal {
        ymax.max(xmax).max(1e-9) * 1.05
    } else if ymax > 0.0 {
        ymax * 1.08
    } else {
        1.0
    };
    for (cell, (pname, curves)) in cells.iter().zip(data) {
        let mut chart = ChartBuilder::on(cell)
            .caption(pname, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(58)
            .build_cartesian_2d(0.0..xmax, 0.0..ymax)
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc(labels.x)
            .y_desc(labels.y)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .light_line_style(RGBColor(246, 246, 246))
            .bold_line_style(RGBColor(220, 220, 220))
            .x_labels(7)
            .y_labels(6)
            .x_label_formatter(&|x| trim_number(*x))
            .y_label_formatter(&|y| trim_number(*y))
            .draw()
            .map_err(e)?;
        if labels.diagonal {
            chart
                .draw_series(DashedLineSeries::new(
                    [(0.0, 0.0), (xmax, xmax)],
                    6,
                    4,
                    RGBColor(150, 150, 150).stroke_width(1),
                ))
                .map_err(e)?;
        }
        for (cname, pts) in curves {
            let i = names.iter().position(|n| n == cname).unwrap_or(0);
            let colour = COLOURS[i % COLOURS.len()];
            if pts.iter().any(|p| p.2.is_some()) {
                let mut band: Vec<(f64, f64)> = pts
                    .iter()
                    .map(|p| (p.0, p.1 + p.2.unwrap_or(0.0)))
                    .collect();
                band.extend(
                    pts.iter()
                        .rev()
                        .map(|p| (p.0, (p.1 - p.2.unwrap_or(0.0)).max(0.0))),
                );
                chart
                    .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.18))))
                    .map_err(e)?;
            }
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0, p.1)),
                    colour.stroke_width(2),
                ))
                .map_err(e)?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
                )
                .map_err(e)?;
        }
    }
    // One legend for every panel, below them: it hides no data.
    let mut x = 14i32;
    let mut y = 20i32;
    for (i, name) in names.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let label = if name.is_empty() { "mean" } else { name };
        let item = legend_item_width(label);
        if x > 14 && x + item > w as i32 - 14 {
            x = 14;
            y += 24;
        }
        legend
            .draw(&PathElement::new(
                vec![(x, y), (x + 26, y)],
                colour.stroke_width(3),
            ))
            .map_err(e)?;
        legend
            .draw(&Circle::new((x + 13, y), 3, colour.filled()))
            .map_err(e)?;
        legend
            .draw(&Text::new(
                label.to_string(),
                (x + 32, y - 8),
                ("sans-serif", 15).into_font().color(&BLACK),
            ))
            .map_err(e)?;
        x += item;
    }
    let note = if labels.diagonal {
        "line: mean over seeds; band: 95 % confidence interval; dashed: accepted = offered"
    } else {
        "line: mean over seeds; band: 95 % confidence interval; curves end at saturation"
    };
    legend
        .draw(&Text::new(
            note.to_string(),
            (14, y + 16),
            ("sans-serif", 13).into_font().color(&RGBColor(90, 90, 90)),
        ))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}
