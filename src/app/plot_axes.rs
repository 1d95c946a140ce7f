//! The axes of every routelab plot: grids at 1, 2, 2.5 and 5 times a power
//! of ten whose labelled step is chosen first and always fits (so any span
//! and any height from 60 points shows three numbers), short tick labels,
//! units on the axes or, on a short plot, in its title; and [`plot`], the
//! plot builder every view starts from.

use egui_plot::{AxisHints, GridInput, GridMark, Plot};

/// Tick labels need this much room between them (points): egui_plot
/// labels a mark only when its step is wider than the axis's label spacing
/// and taller (on y) than the label's text, and fades the label in over
/// the spacing's range. The labelled step is chosen at least this wide,
/// and [`axis_hints`] sets the range to end here, so every labelled tick
/// is drawn at full strength (the stage issue: a step of 11 points on y
/// was too short for 11-point text, and the axis showed no number).
const X_LABEL_POINTS: f64 = 64.0;
const Y_LABEL_POINTS: f64 = 16.0;
/// The same on a short plot's y axis, whose tick font is smaller.
const Y_LABEL_POINTS_SHORT: f64 = 12.5;

/// Grid lines and tick labels at 1, 2 and 5 times a power of ten, on x.
pub fn x_grid(input: GridInput) -> Vec<GridMark> {
    nice_grid_labelled(input, X_LABEL_POINTS)
}

/// The same on y.
pub fn y_grid(input: GridInput) -> Vec<GridMark> {
    nice_grid_labelled(input, Y_LABEL_POINTS)
}

/// The spacing of a plot's y labels: 12.5 points on a short plot, else
/// 16 or a seventh of its data height, whichever is more (egui_plot
/// numbers every mark whose step is at least the spacing, so a tall plot
/// with 16 would number every 16 points: a dense column nobody at the
/// back of a room reads).
pub fn y_label_points(height: f32) -> f64 {
    if height < SHORT_PLOT {
        Y_LABEL_POINTS_SHORT
    } else {
        Y_LABEL_POINTS.max(f64::from(height - 40.0) / 7.0)
    }
}

/// The same on a short plot's y axis ([`SHORT_PLOT`]).
pub fn y_grid_short(input: GridInput) -> Vec<GridMark> {
    nice_grid_labelled(input, Y_LABEL_POINTS_SHORT)
}

/// [`nice_grid_labelled`] for an axis whose labels need 60 points.
pub fn nice_grid(input: GridInput) -> Vec<GridMark> {
    nice_grid_labelled(input, X_LABEL_POINTS)
}

/// Grid lines at 1, 2 and 5 times a power of ten, in three strengths: the
/// finest step at least `input.base_step_size` (egui_plot's 8 points), the
/// strongest the smallest 1-2-5 step at least `label_points` wide, so that
/// it is labelled at any span and height (the stage issue: the x axis had
/// no numbers at spans near 3 380 or 19 000 cycles when the three steps
/// nested too closely, 50/100/200, and none was wide enough to label), and
/// one between. Each step a multiple of the one below, so labels read 0,
/// 20, 40, never 40 beside 50.
pub fn nice_grid_labelled(input: GridInput, label_points: f64) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let base = input.base_step_size;
    if !(base.is_finite() && base > 0.0 && lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    // egui_plot's base step spans 8 points.
    let per_point = base / 8.0;
    // The 1-2-2.5-5 steps from the smallest at least `from` (2.5 so that
    // no step is more than twice the one below: with 1-2-5 alone a
    // 40-point axis from 0 to 7 could number only 0 and 5).
    let ladder = |from: f64| {
        let mut decade = 10f64.powi(from.log10().floor() as i32);
        std::iter::from_fn(move || {
            let out = [1.0, 2.0, 2.5, 5.0].map(|m| m * decade);
            decade *= 10.0;
            Some(out)
        })
        .flatten()
        .filter(move |s| *s >= from * (1.0 - 1e-9))
    };
    let divides = |a: f64, b: f64| ((b / a).round() * a - b).abs() < a * 1e-9;
    // The labelled step first: the smallest 1-2-5 step wide enough. Then
    // the finest step at least egui_plot's base that divides it (before, the fine step came first and the labelled step had to be
    // its multiple: a fine 0.02 forced a labelled 0.1 where 0.05 fitted,
    // and a 100-point throughput plot from 0 to 0.13 was numbered 0.0 and
    // 0.1 only).
    let coarse = ladder((label_points * per_point).max(base))
        .next()
        .unwrap_or(base);
    let fine = ladder(base)
        .take_while(|s| *s <= coarse * (1.0 + 1e-9))
        .find(|s| divides(*s, coarse))
        .unwrap_or(coarse);
    // One step between, when one nests.
    let mid = ladder(fine)
        .take_while(|s| *s < coarse)
        .filter(|s| *s > fine && divides(fine, *s) && divides(*s, coarse))
        .last()
        .unwrap_or(fine);
    // Too many marks would mean a degenerate range; egui_plot's own limit.
    if (hi - lo) / fine > 10_000.0 {
        return Vec::new();
    }
    let on = |v: f64, s: f64| ((v / s).round() * s - v).abs() < fine * 1e-6;
    let first = (lo / fine).ceil() as i64;
    let last = (hi / fine).floor() as i64;
    (first..=last)
        .map(|i| {
            let value = i as f64 * fine;
            let step_size = if on(value, coarse) {
                coarse
            } else if on(value, mid) {
                mid
            } else {
                fine
            };
            GridMark { value, step_size }
        })
        .collect()
}

/// A tick label: whole numbers without a fraction, thousands as `k` from
/// 10 000 on (so `100k` fits between ticks), fractions with the digits
/// the step needs.
pub fn tick_label(mark: GridMark, range: &std::ops::RangeInclusive<f64>) -> String {
    let v = mark.value;
    let step = mark.step_size;
    // One style per axis: all in thousands once the axis reaches 10 000.
    let big = range.start().abs().max(range.end().abs()) >= 10_000.0;
    if step >= 1000.0 && big && v != 0.0 {
        let k = v / 1000.0;
        let digits = decimals(step / 1000.0).min(decimals(k));
        return format!("{k:.digits$}k");
    }
    let digits = decimals(step);
    format!("{v:.digits$}")
}

/// The decimals that write `x` exactly (a grid step: 2.5 needs one, 0.25
/// two, 0.05 two), at most 6.
fn decimals(x: f64) -> usize {
    (0..6)
        .find(|d| {
            let scaled = x.abs() * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
        })
        .unwrap_or(6)
}

/// Below this height (points) a plot drops its axis labels (the units go
/// into its title, [`plot_title`]) so that its data keeps room for three
/// numbered ticks on y: a 60-point plot with an x-axis label had 26 points
/// of data, room for 0 and 50 only.
pub const SHORT_PLOT: f32 = 120.0;

/// The axes of every routelab plot: `x_unit` and `y_unit` as axis labels
/// (none on a short plot), numbered ticks that fit, tick labels in a small
/// font so a short plot shows three.
pub fn axis_hints<'a>(x_unit: &str, y_unit: &str, height: f32) -> (AxisHints<'a>, AxisHints<'a>) {
    let short = height < SHORT_PLOT;
    let tick_font = egui::FontId::proportional(if short { 9.5 } else { 11.0 });
    let y_points = y_label_points(height) as f32;
    let x = AxisHints::new_x()
        .label(if short { "" } else { x_unit })
        .formatter(tick_label)
        .tick_label_font(tick_font.clone())
        .label_spacing(egui::Rangef::new(
            X_LABEL_POINTS as f32 - 0.5,
            X_LABEL_POINTS as f32,
        ));
    let y = AxisHints::new_y()
        .label(if short { "" } else { y_unit })
        .formatter(tick_label)
        .label_spacing(egui::Rangef::new(y_points - 0.5, y_points))
        .tick_label_font(tick_font);
    (x, y)
}

/// One y-axis width for a column of plots, so that their data areas
/// start at one x and a moment (a cycle, a swap marker, an offered load)
/// sits at one place on all of them. egui_plot sizes each plot's y axis to
/// its own tick labels (`5` beside `100`, `0.25` beside `1000`); this keeps
/// the widest axis of the column's last frame in the context's memory
/// under `name` and asks every plot for at least that width.
///
/// The width only grows while the column has data (a wider label widens
/// all axes at once); [`AlignedYAxes::forget`] starts over, when the
/// column has nothing to draw.
pub struct AlignedYAxes {
    id: egui::Id,
    /// The width asked for this frame: last frame's widest axis.
    width: f32,
    /// The widest axis drawn this frame.
    widest: f32,
}

impl AlignedYAxes {
    /// The column `name`'s width from the last frame (0 on the first).
    pub fn load(ui: &egui::Ui, name: &str) -> Self {
        let id = Self::key(name);
        let width = ui.data(|d| d.get_temp::<f32>(id)).unwrap_or(0.0);
        AlignedYAxes {
            id,
            width,
            widest: width,
        }
    }

    /// `plot` with its y axis at least the column's width.
    pub fn apply<'a>(&self, plot: Plot<'a>) -> Plot<'a> {
        if self.width > 0.0 {
            plot.y_axis_min_width(self.width)
        } else {
            plot
        }
    }

    /// Note a shown plot's y-axis width: from `left`, where the plot
    /// widget began (the layout's cursor before it), to its data area's
    /// left edge (egui_plot's response covers the data area only).
    pub fn record(&mut self, left: f32, data: egui::Rect) {
        self.widest = self.widest.max((data.left() - left).max(0.0));
    }

    /// Keep the widest axis for the next frame, and ask for that frame at
    /// once when it differs from this one's (a paused app draws no frame
    /// of its own).
    pub fn store(self, ui: &egui::Ui) {
        if self.widest > self.width + 0.5 {
            ui.ctx().request_repaint();
        }
        ui.data_mut(|d| d.insert_temp(self.id, self.widest));
    }

    /// Start the column `name` over (it has nothing to draw).
    pub fn forget(ui: &egui::Ui, name: &str) {
        ui.data_mut(|d| d.remove::<f32>(Self::key(name)));
    }

    /// Where the column `name`'s width is kept in the context's memory.
    fn key(name: &str) -> egui::Id {
        egui::Id::unique(("aligned y axes", name))
    }
}

/// A plot's title with its units when the plot is too short to label its
/// axes ([`SHORT_PLOT`]).
pub fn plot_title(title: &str, x_unit: &str, y_unit: &str, height: f32) -> String {
    if height < SHORT_PLOT {
        format!("{title} ({y_unit}) by {x_unit}")
    } else {
        title.to_string()
    }
}

/// A plot with routelab's axes and grid: `x_unit` and `y_unit` on the
/// axes, no legend of egui_plot's (each view draws its own outside the
/// data), no scrolling.
pub fn plot<'a>(id: &str, x_unit: &str, y_unit: &str, height: f32) -> Plot<'a> {
    let (x, y) = axis_hints(x_unit, y_unit, height);
    let y_points = y_label_points(height);
    Plot::new(id)
        .x_grid_spacer(x_grid)
        .y_grid_spacer(move |input| nice_grid_labelled(input, y_points))
        .custom_x_axes(vec![x])
        .custom_y_axes(vec![y])
        .height(height)
        .allow_scroll(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(lo: f64, hi: f64, base: f64) -> Vec<GridMark> {
        nice_grid(GridInput {
            bounds: (lo, hi),
            base_step_size: base,
        })
    }

    /// The labelled (strongest) step is at least `points` wide, at any
    /// span: the marks at it are the ones egui_plot numbers.
    fn labelled(lo: f64, hi: f64, width_points: f64, points: f64) -> Vec<f64> {
        let base = (hi - lo) / width_points * 8.0;
        let m = nice_grid_labelled(
            GridInput {
                bounds: (lo, hi),
                base_step_size: base,
            },
            points,
        );
        let coarse = m.iter().map(|g| g.step_size).fold(0.0, f64::max);
        assert!(
            coarse / (hi - lo) * width_points >= points,
            "{coarse} too narrow"
        );
        m.iter()
            .filter(|g| g.step_size == coarse)
            .map(|g| g.value)
            .collect()
    }

    /// The stage issue's spans: 3 380, 5 100, 19 000, 25 900 and 100 000
    /// cycles on a 500-point-wide plot each get at least three numbered
    /// ticks (before, 3 380 cycles nested its steps as 50/100/200 and
    /// numbered none).
    #[test]
    fn every_span_gets_three_numbered_ticks_on_x() {
        for span in [3380.0, 5100.0, 19_000.0, 25_900.0, 100_000.0] {
            let v = labelled(0.0, span, 500.0, X_LABEL_POINTS);
            assert!(v.len() >= 3, "span {span}: {v:?}");
        }
    }

    /// A short latency plot (0..60 over 40 points of data height) still
    /// numbers three ticks on y.
    #[test]
    fn a_short_plot_gets_three_numbered_ticks_on_y() {
        let v = labelled(-2.0, 60.0, 40.0, Y_LABEL_POINTS_SHORT);
        assert!(v.len() >= 3, "{v:?}");
        assert_eq!(v[..3], [0.0, 20.0, 40.0]);
    }

    /// The labelled step is the smallest that fits, not a multiple of the
    /// fine one: a throughput plot from -0.01 to 0.13 over 100 points of
    /// data (1400x900, DRB hot spot) numbers at least three ticks, 0.05 or closer apart (before:
    /// 0.0 and 0.1, two numbers), and a metapath-width plot from 0 to 1.05
    /// over 65 points numbers 0, 0.5 and 1 (before: 0 and 1).
    #[test]
    fn the_labelled_step_is_the_smallest_that_fits() {
        let v = labelled(-0.01, 0.13, 100.0, Y_LABEL_POINTS);
        assert!(v.len() >= 3, "{v:?}");
        assert!(v[1] - v[0] <= 0.05 + 1e-12, "{v:?}");
        let w = labelled(0.0, 1.05, 65.0, Y_LABEL_POINTS_SHORT);
        assert!(w.len() >= 3, "{w:?}");
        // (At 60 points a short plot has 40 of data: three labels 12.5
        // points apart fit only where the range falls well on the ladder,
        // which `a_short_plot_gets_three_numbered_ticks_on_y` covers.)
        for h in [100.0, 140.0, 200.0, 400.0] {
            for hi in [0.013, 0.13, 1.05, 7.0, 23.0, 130.0, 870.0, 4400.0] {
                // A short plot has no x-axis label: 20 points under its data.
                let data = if h < f64::from(SHORT_PLOT) {
                    h - 20.0
                } else {
                    h - 40.0
                };
                let v = labelled(-0.05 * hi, 1.05 * hi, data, y_label_points(h as f32));
                assert!(v.len() >= 3, "height {h}, 0..{hi}: {v:?}");
            }
        }
    }

    /// Each step size is a multiple of the one below it.
    #[test]
    fn the_three_steps_nest() {
        for base in [0.003, 0.06, 1.0, 1.7, 4.0, 6.0, 33.0, 420.0] {
            let mut sizes: Vec<f64> = marks(0.0, base * 50.0, base)
                .iter()
                .map(|g| g.step_size)
                .collect();
            sizes.sort_by(f64::total_cmp);
            sizes.dedup();
            for w in sizes.windows(2) {
                let r = w[1] / w[0];
                assert!((r - r.round()).abs() < 1e-9, "base {base}: {sizes:?}");
            }
        }
    }

    #[test]
    fn tick_labels_are_short() {
        let l = |value, step_size| tick_label(GridMark { value, step_size }, &(0.0..=120_000.0));
        assert_eq!(l(100_000.0, 20_000.0), "100k");
        assert_eq!(
            l(5000.0, 5000.0),
            "5k",
            "one style on an axis that reaches 10k"
        );
        let small = tick_label(
            GridMark {
                value: 2000.0,
                step_size: 1000.0,
            },
            &(0.0..=8000.0),
        );
        assert_eq!(small, "2000");
        assert_eq!(l(0.25, 0.05), "0.25");
        assert_eq!(l(7500.0, 2500.0), "7.5k");
        assert_eq!(l(5000.0, 2500.0), "5k");
        assert_eq!(l(2.5, 2.5), "2.5");
        assert_eq!(l(5.0, 2.5), "5.0");
        assert_eq!(l(0.75, 0.25), "0.75");
        assert_eq!(l(40.0, 20.0), "40");
    }

    #[test]
    fn degenerate_ranges_give_no_marks() {
        assert!(marks(0.0, 0.0, 1.0).is_empty());
        assert!(marks(0.0, 1.0, 0.0).is_empty());
        assert!(marks(f64::NAN, 1.0, 0.1).is_empty());
        assert!(marks(0.0, 1e9, 1.0).is_empty());
    }

    #[test]
    fn small_fractions_step_in_one_two_two_and_a_half_five() {
        let m = marks(0.0, 0.5, 0.015);
        assert_eq!(m[1].value, 0.02);
        assert!(
            m.iter()
                .any(|g| (g.value - 0.1).abs() < 1e-12 && g.step_size == 0.1)
        );
    }
}
