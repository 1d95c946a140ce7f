//! DRB's latency surface (Franco, Garcés and Luque §4, Fig. 9): over the grid
//! of a 2-D torus (or mesh), each node's value — the unweighted mean
//! queueing delay of its outgoing switch-to-switch links, an idle link
//! counting 0 ([`Simulation::node_link_delay`]) — drawn as a 3-D surface
//! with contour lines projected on its floor and a colour legend; one
//! surface per run (static routing and DRB side by side when comparing), on
//! one scale, updating as the simulation runs. egui has no 3-D plot: the
//! projected mesh is built here as painter shapes (quads sorted back to
//! front, a wireframe, marching-squares contours). Dragging rotates the
//! view, dragging with the secondary button (or scrolling) zooms. Other
//! topologies get a flat per-node heatmap in the same place, each node where
//! the Network tab draws it (a midimew's brick rows, a hypercube's Gray-code
//! grid, an irregular network's spring layout), so a hot region is found
//! at the same place in both tabs.

use super::theme::Theme;
use crate::sim::Simulation;
use crate::topology::Shape;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape as EShape, Stroke, pos2, vec2};

/// The camera: rotation about the vertical axis, elevation above the
/// floor, and zoom. Runtime state of the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceView {
    /// Radians about the vertical axis.
    pub yaw: f32,
    /// Radians above the floor: 0 looks from the side, π/2 from the top.
    pub pitch: f32,
    pub zoom: f32,
}

impl Default for SurfaceView {
    fn default() -> Self {
        SurfaceView {
            yaw: -0.7,
            pitch: 0.6,
            zoom: 1.0,
        }
    }
}

impl SurfaceView {
    /// Radians per dragged point.
    const TURN: f32 = 0.008;
    /// Rotate by a drag of `delta` points.
    pub fn rotate(&mut self, delta: egui::Vec2) {
        self.yaw = (self.yaw + delta.x * Self::TURN).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + delta.y * Self::TURN).clamp(0.05, 1.55);
    }
    /// Zoom by a factor (clamped to 0.3..=4).
    pub fn zoom_by(&mut self, factor: f32) {
        self.zoom = (self.zoom * factor).clamp(0.3, 4.0);
    }
    /// Yaw and pitch in whole degrees, for the view's caption.
    pub fn angles_deg(&self) -> (i32, i32) {
        (
            self.yaw.to_degrees().round() as i32,
            self.pitch.to_degrees().round() as i32,
        )
    }
}

/// Per-node values on a grid, row-major (`values[y · cols + x]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
    pub values: Vec<f64>,
    /// True when the grid is the topology's own 2-D layout (a torus or a
    /// mesh): drawn as a surface; otherwise drawn flat.
    pub surface: bool,
    /// For a flat map: each node's drawing position (the network view's
    /// coordinates, one per value); empty to place the nodes by id on the
    /// near-square grid.
    pub positions: Vec<[f32; 2]>,
}

impl Grid {
    /// The node values of `sim` laid out on its 2-D torus or mesh grid, or
    /// by id on a near-square grid for every other topology.
    pub fn of(sim: &Simulation) -> Grid {
        let net = sim.network();
        let mut grid = Grid::from_values(net.shape(), sim.node_link_delay());
        if !grid.surface && net.switch_positions().len() == grid.values.len() {
            grid.positions = net.switch_positions().to_vec();
        }
        grid
    }

    /// `values` (one per switch) on the shape's grid.
    pub fn from_values(shape: &Shape, values: Vec<f64>) -> Grid {
        if let Shape::Cube { radix, .. } = shape
            && radix.len() == 2
        {
            // Switch id = x + k0·y: already row-major.
            return Grid {
                cols: radix[0] as usize,
                rows: radix[1] as usize,
                values,
                surface: true,
                positions: Vec::new(),
            };
        }
        let n = values.len().max(1);
        let cols = (n as f64).sqrt().ceil() as usize;
        Grid {
            cols,
            rows: n.div_ceil(cols),
            values,
            surface: false,
            positions: Vec::new(),
        }
    }

    fn at(&self, x: usize, y: usize) -> f64 {
        self.values.get(y * self.cols + x).copied().unwrap_or(0.0)
    }

    /// Highest value.
    pub fn peak(&self) -> f64 {
        self.values.iter().copied().fold(0.0, f64::max)
    }

    /// Mean value.
    pub fn mean(&self) -> f64 {
        if self.values.is_empty() {
            0.0
        } else {
            self.values.iter().sum::<f64>() / self.values.len() as f64
        }
    }
}

/// Contour levels drawn on the floor.
pub const CONTOURS: usize = 6;

/// Height of the scale's top value, as a fraction of the grid's half width.
const HEIGHT: f32 = 0.9;

/// A projected point: screen position and depth (larger is nearer).
#[derive(Clone, Copy)]
struct Projected {
    pos: Pos2,
    depth: f32,
}

struct Camera {
    center: Pos2,
    scale: f32,
    cos_yaw: f32,
    sin_yaw: f32,
    cos_pitch: f32,
    sin_pitch: f32,
}

impl Camera {
    fn new(view: &SurfaceView, rect: Rect) -> Camera {
        Camera {
            center: rect.center() + vec2(0.0, rect.height() * 0.08),
            scale: rect.width().min(rect.height() * 1.25) * 0.34 * view.zoom,
            cos_yaw: view.yaw.cos(),
            sin_yaw: view.yaw.sin(),
            cos_pitch: view.pitch.cos(),
            sin_pitch: view.pitch.sin(),
        }
    }
    /// World (u, v in -1..=1 over the grid, w up) to screen.
    fn project(&self, u: f32, v: f32, w: f32) -> Projected {
        let ur = u * self.cos_yaw - v * self.sin_yaw;
        let vr = u * self.sin_yaw + v * self.cos_yaw;
        let up = vr * self.sin_pitch + w * self.cos_pitch;
        Projected {
            pos: self.center + vec2(ur, -up) * self.scale,
            depth: -vr * self.cos_pitch + w * self.sin_pitch,
        }
    }
}

fn grid_uv(grid: &Grid, x: f32, y: f32) -> (f32, f32) {
    let u = if grid.cols > 1 {
        x / (grid.cols - 1) as f32 * 2.0 - 1.0
    } else {
        0.0
    };
    let v = if grid.rows > 1 {
        y / (grid.rows - 1) as f32 * 2.0 - 1.0
    } else {
        0.0
    };
    (u, v)
}

fn shade(c: Color32, f: f32) -> Color32 {
    let f = f.clamp(0.0, 1.2);
    let m = |x: u8| ((x as f32) * f).min(255.0) as u8;
    Color32::from_rgb(m(c.r()), m(c.g()), m(c.b()))
}

/// The shapes of one surface in `rect`: the floor frame, contour lines on
/// the floor, the surface's quads from back to front and its wireframe.
/// Values are scaled by `top` (the shared scale's highest value). Cheap
/// enough to rebuild every frame (a 16x16 grid: 225 quads;
/// `benches/latency_surface.rs`).
pub fn surface_shapes(
    grid: &Grid,
    top: f64,
    view: &SurfaceView,
    rect: Rect,
    theme: Theme,
) -> Vec<EShape> {
    let mut shapes = Vec::new();
    if grid.cols < 2 || grid.rows < 2 {
        return shapes;
    }
    let cam = Camera::new(view, rect);
    let top = if top > 0.0 { top } else { 1.0 };
    let height = |v: f64| (v / top) as f32 * HEIGHT;
    let line = if theme.is_dark() {
        Color32::from_gray(150)
    } else {
        Color32::from_gray(90)
    };
    // Floor frame.
    let corners = [
        (-1.0, -1.0),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
        (-1.0, -1.0),
    ];
    let frame: Vec<Pos2> = corners
        .iter()
        .map(|&(u, v)| cam.project(u, v, 0.0).pos)
        .collect();
    shapes.push(EShape::line(
        frame,
        Stroke::new(1.0, line.gamma_multiply(0.6)),
    ));
    // Contours on the floor (marching squares).
    for k in 1..=CONTOURS {
        let level = top * k as f64 / (CONTOURS + 1) as f64;
        let color = theme.heat(k as f32 / (CONTOURS + 1) as f32);
        for seg in contour_segments(grid, level) {
            let a = grid_uv(grid, seg[0].0, seg[0].1);
            let b = grid_uv(grid, seg[1].0, seg[1].1);
            shapes.push(EShape::line_segment(
                [
                    cam.project(a.0, a.1, 0.0).pos,
                    cam.project(b.0, b.1, 0.0).pos,
                ],
                Stroke::new(1.2, color),
            ));
        }
    }
    // Project every grid point once.
    let pts: Vec<Projected> = (0..grid.rows)
        .flat_map(|y| (0..grid.cols).map(move |x| (x, y)))
        .map(|(x, y)| {
            let (u, v) = grid_uv(grid, x as f32, y as f32);
            cam.project(u, v, height(grid.at(x, y)))
        })
        .collect();
    let p = |x: usize, y: usize| pts[y * grid.cols + x];
    // Quads, farthest first.
    let mut quads: Vec<(f32, usize, usize)> = Vec::with_capacity((grid.cols - 1) * (grid.rows - 1));
    for y in 0..grid.rows - 1 {
        for x in 0..grid.cols - 1 {
            let d = p(x, y).depth + p(x + 1, y).depth + p(x, y + 1).depth + p(x + 1, y + 1).depth;
            quads.push((d, x, y));
        }
    }
    quads.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Each quad, then its outline, back to front: nearer quads hide the
    // farther ones and their lines (the painter's algorithm; no depth
    // buffer needed).
    let outline = Stroke::new(0.6, line.gamma_multiply(0.55));
    for &(_, x, y) in &quads {
        let corners = [p(x, y), p(x + 1, y), p(x + 1, y + 1), p(x, y + 1)];
        let (a, b, c, d) = (
            grid.at(x, y),
            grid.at(x + 1, y),
            grid.at(x + 1, y + 1),
            grid.at(x, y + 1),
        );
        // Steeper quads darker, so the relief reads without lighting.
        let slope = (((b - a + c - d).abs() + (d - a + c - b).abs()) / top) as f32;
        let color = shade(
            theme.heat(((a + b + c + d) / 4.0 / top) as f32),
            1.0 - 0.35 * slope.min(1.0),
        );
        let mut mesh = egui::Mesh::default();
        for q in corners {
            mesh.colored_vertex(q.pos, color);
        }
        mesh.add_triangle(0, 1, 2);
        mesh.add_triangle(0, 2, 3);
        shapes.push(EShape::mesh(mesh));
        shapes.push(EShape::line(
            vec![
                corners[0].pos,
                corners[1].pos,
                corners[2].pos,
                corners[3].pos,
                corners[0].pos,
            ],
            outline,
        ));
    }
    shapes
}

/// The segments (in grid coordinates) where the piecewise-linear grid
/// function crosses `level`: marching squares, saddles split by the cell's
/// mean.
pub fn contour_segments(grid: &Grid, level: f64) -> Vec<[(f32, f32); 2]> {
    let mut out = Vec::new();
    if grid.cols < 2 || grid.rows < 2 {
        return out;
    }
    for y in 0..grid.rows - 1 {
        for x in 0..grid.cols - 1 {
            // Corners counter-clockwise: (x,y) (x+1,y) (x+1,y+1) (x,y+1).
            let c = [
                (x as f32, y as f32, grid.at(x, y)),
                (x as f32 + 1.0, y as f32, grid.at(x + 1, y)),
                (x as f32 + 1.0, y as f32 + 1.0, grid.at(x + 1, y + 1)),
                (x as f32, y as f32 + 1.0, grid.at(x, y + 1)),
            ];
            let mut crossings = Vec::with_capacity(4);
            for e in 0..4 {
                let (a, b) = (c[e], c[(e + 1) % 4]);
                if (a.2 >= level) != (b.2 >= level) {
                    let t = ((level - a.2) / (b.2 - a.2)) as f32;
                    crossings.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
                }
            }
            match crossings.len() {
                2 => out.push([crossings[0], crossings[1]]),
                4 => {
                    // Saddle: pair the crossings so the segments separate
                    // the high corners when the centre is low, and the low
                    // corners when it is high.
                    let centre = (c[0].2 + c[1].2 + c[2].2 + c[3].2) / 4.0;
                    if (centre >= level) == (c[0].2 >= level) {
                        out.push([crossings[0], crossings[1]]);
                        out.push([crossings[2], crossings[3]]);
                    } else {
                        out.push([crossings[3], crossings[0]]);
                        out.push([crossings[1], crossings[2]]);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The shapes of a flat per-node heatmap (other topologies): one cell per
/// node ([`flat_cells`]), all in one mesh of plain quads. A rounded,
/// anti-aliased rectangle per node cost a frame of two 4096-switch maps
/// 23 ms to tessellate (`benches/latency_surface.rs`, docs/performance.md).
pub fn heatmap_shapes(grid: &Grid, top: f64, rect: Rect, theme: Theme) -> Vec<EShape> {
    let top = if top > 0.0 { top } else { 1.0 };
    let mut mesh = egui::Mesh::default();
    for (&v, r) in grid.values.iter().zip(flat_cells(grid, rect)) {
        mesh.add_colored_rect(r, theme.heat((v / top) as f32));
    }
    vec![EShape::mesh(mesh)]
}

/// Each node's cell of a flat map in `rect`, by node: at its drawing
/// position when the grid has them (the network view's layout,
/// [`placed_cells`]), else by id on the grid's near-square layout.
pub fn flat_cells(grid: &Grid, rect: Rect) -> Vec<Rect> {
    if !grid.positions.is_empty() && grid.positions.len() == grid.values.len() {
        return placed_cells(&grid.positions, rect);
    }
    let cell = (rect.width() / grid.cols.max(1) as f32)
        .min(rect.height() / grid.rows.max(1) as f32)
        .max(1.0);
    let origin = rect.center() - vec2(cell * grid.cols as f32, cell * grid.rows as f32) / 2.0;
    (0..grid.values.len())
        .map(|i| {
            let (x, y) = (i % grid.cols, i / grid.cols);
            Rect::from_min_size(origin + vec2(x as f32, y as f32) * cell, vec2(cell, cell))
                .shrink(cell * 0.06)
        })
        .collect()
}

/// The node of a flat map whose cell holds `p` (on screen, the map drawn
/// in `rect`), with its cell; `None` between cells and outside.
pub fn node_at(grid: &Grid, rect: Rect, p: Pos2) -> Option<(usize, Rect)> {
    if !rect.contains(p) {
        return None;
    }
    flat_cells(grid, rect)
        .into_iter()
        .enumerate()
        .find(|(_, r)| r.contains(p))
}

/// The screen cells of nodes at world `positions` (y down, as in the
/// network view), fitted into `rect` with the aspect kept, each centred on
/// its node and none overlapping another (see `cell_size`).
pub fn placed_cells(positions: &[[f32; 2]], rect: Rect) -> Vec<Rect> {
    let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
    for p in positions {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let span = [(hi[0] - lo[0]).max(0.0), (hi[1] - lo[1]).max(0.0)];
    let [cw, ch] = cell_size(positions).unwrap_or([1.0, 1.0]);
    // The whole drawing, half a cell beyond the outer nodes.
    let (w, h) = (span[0] + cw, span[1] + ch);
    let scale = (rect.width() / w).min(rect.height() / h).max(1e-6);
    let origin = rect.center() - vec2(w, h) * scale / 2.0 + vec2(cw, ch) * scale / 2.0;
    let size = vec2(cw, ch) * scale;
    let gap = size.min_elem() * 0.08;
    positions
        .iter()
        .map(|p| {
            let c = origin + vec2(p[0] - lo[0], p[1] - lo[1]) * scale;
            Rect::from_center_size(c, size).shrink(gap)
        })
        .collect()
}

/// The world size of a node's cell, or `None` for fewer than two distinct
/// positions. Nodes drawn in rows (a midimew's brick rows, a hypercube's
/// grid, a fat tree's levels: at most half as many distinct heights as
/// nodes) get cells as tall as the rows are apart and as wide as the
/// closest two nodes of a row, so bricks tile as the rows do; scattered
/// nodes (a spring layout) get squares as wide as the closest two nodes are
/// apart along the larger axis. Either way two cells never overlap.
fn cell_size(positions: &[[f32; 2]]) -> Option<[f32; 2]> {
    const EPS: f32 = 1e-4;
    let mut pts: Vec<[f32; 2]> = positions.to_vec();
    pts.sort_by(|a, b| a[1].total_cmp(&b[1]).then(a[0].total_cmp(&b[0])));
    let mut heights: Vec<f32> = Vec::new();
    for p in &pts {
        if heights.last().is_none_or(|&y| p[1] - y > EPS) {
            heights.push(p[1]);
        }
    }
    if heights.len() * 2 <= pts.len() {
        let row_gap = heights
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f32::MAX, f32::min);
        let col_gap = pts
            .windows(2)
            .filter(|w| w[1][1] - w[0][1] <= EPS)
            .map(|w| w[1][0] - w[0][0])
            .filter(|&d| d > EPS)
            .fold(f32::MAX, f32::min);
        let h = if row_gap < f32::MAX { row_gap } else { col_gap };
        let w = if col_gap < f32::MAX { col_gap } else { h };
        return (w < f32::MAX).then_some([w, h]);
    }
    // Scattered: the closest pair along the larger axis, sorted by x so a
    // pair is compared only while their x gap is below the best found.
    pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
    let mut best = f32::MAX;
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            let dx = pts[j][0] - pts[i][0];
            if dx >= best {
                break;
            }
            let d = dx.max((pts[j][1] - pts[i][1]).abs());
            if d > EPS {
                best = best.min(d);
            }
        }
    }
    (best < f32::MAX).then_some([best, best])
}

/// The smallest peak delay (cycles) the legend gives a scale for: the
/// legend prints two decimals.
const QUEUEING_SHOWN: f64 = 0.005;

/// One surface (or heatmap) per run, side by side in the available space,
/// on one scale, with a caption each and a shared colour legend. Returns
/// the drawing's response (labelled "Latency surface drawing" for accessibility).
pub fn surface_ui(
    ui: &mut egui::Ui,
    view: &mut SurfaceView,
    runs: &[(String, Grid)],
    theme: Theme,
) -> egui::Response {
    let legend_h = 40.0;
    let top = runs
        .iter()
        .map(|(_, g)| g.peak())
        .fold(0.0, f64::max)
        .max(1e-9);
    let (yaw, pitch) = view.angles_deg();
    // Flat maps only (no 2-D torus or mesh): no height, contours or camera
    // to explain.
    let surfaces = runs.iter().any(|(_, g)| g.surface);
    // Below a hundredth of a cycle the scale would read "0 to 0.00": say
    // what the flat floor means instead (nothing has queued yet).
    let scale = if top < QUEUEING_SHOWN {
        if surfaces {
            "no queueing measured yet: the floor stays flat until a flit waits".to_string()
        } else {
            "no queueing measured yet".to_string()
        }
    } else if surfaces {
        format!(
            "0 to {top:.2} cycles, one scale for every run; {CONTOURS} contour levels every {:.2} on the floor",
            top / (CONTOURS + 1) as f64
        )
    } else {
        format!("0 to {top:.2} cycles, one scale for every run; nodes placed as in the Network tab")
    };
    ui.horizontal_wrapped(|ui| {
        if !surfaces {
            ui.label(format!(
                "Legend: colour = mean queueing delay of a node's outgoing links, {scale}"
            ));
            return;
        }
        ui.label(format!(
            "Legend: colour and height = mean queueing delay of a node's outgoing links, {scale}"
        ));
        ui.label(format!(
            "View: yaw {yaw}°, pitch {pitch}°, zoom {:.1}",
            view.zoom
        ))
        .on_hover_text("Drag to turn; right-drag or scroll to zoom");
        if ui.small_button("Reset view").clicked() {
            *view = SurfaceView::default();
        }
    });
    let size = ui.available_size().max(vec2(160.0, 160.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Latency surface drawing")
    });
    let rect = response.rect;
    if response.dragged_by(egui::PointerButton::Primary) {
        view.rotate(response.drag_delta());
    }
    if response.dragged_by(egui::PointerButton::Secondary) {
        view.zoom_by((1.0 - response.drag_delta().y * 0.01).clamp(0.5, 2.0));
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            view.zoom_by((1.0 + scroll * 0.002).clamp(0.5, 2.0));
        }
    }
    let text = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let n = runs.len().max(1);
    let body = Rect::from_min_max(rect.min, pos2(rect.max.x, rect.max.y - legend_h));
    let w = body.width() / n as f32;
    for (i, (label, grid)) in runs.iter().enumerate() {
        let cell = Rect::from_min_size(
            pos2(body.min.x + w * i as f32, body.min.y),
            vec2(w, body.height()),
        )
        .shrink(6.0);
        let plot = Rect::from_min_max(cell.min + vec2(0.0, 36.0), cell.max);
        let clip = painter.with_clip_rect(cell);
        if grid.surface {
            clip.extend(surface_shapes(grid, top, view, plot, theme));
        } else {
            clip.extend(heatmap_shapes(grid, top, plot, theme));
            // Which node is that? Its id and value under the pointer.
            if let Some((node, r)) = response.hover_pos().and_then(|p| node_at(grid, plot, p)) {
                clip.rect_stroke(r, 1.0, Stroke::new(2.0, strong), egui::StrokeKind::Outside);
                response.clone().on_hover_text_at_pointer(format!(
                    "switch {node}: {:.2} cycles",
                    grid.values[node]
                ));
            }
        }
        painter.text(
            cell.min,
            Align2::LEFT_TOP,
            label,
            FontId::proportional(13.0),
            strong,
        );
        painter.text(
            cell.min + vec2(0.0, 17.0),
            Align2::LEFT_TOP,
            format!("peak {:.2}  mean {:.2} cycles", grid.peak(), grid.mean()),
            FontId::monospace(11.0),
            text,
        );
    }
    // The legend: the heat scale with its contour levels.
    let bar = Rect::from_min_size(
        pos2(rect.min.x + 12.0, rect.max.y - legend_h + 16.0),
        vec2((rect.width() - 24.0).min(320.0), 10.0),
    );
    super::colour_scale::paint_bar(&painter, bar, theme, false);
    for k in (1..=CONTOURS).filter(|_| surfaces) {
        let x = bar.min.x + bar.width() * k as f32 / (CONTOURS + 1) as f32;
        painter.line_segment(
            [pos2(x, bar.min.y - 2.0), pos2(x, bar.max.y + 2.0)],
            Stroke::new(1.0, text),
        );
    }
    painter.text(
        pos2(bar.min.x, bar.min.y - 14.0),
        Align2::LEFT_TOP,
        if surfaces {
            "Mean queueing delay of a node's outgoing links (cycles); ticks: contour levels"
        } else {
            "Mean queueing delay of a node's outgoing links (cycles)"
        },
        FontId::proportional(11.0),
        text,
    );
    super::colour_scale::paint_ends(&painter, bar, "0", &format!("{top:.2}"), text);
    if surfaces {
        painter.text(
            pos2(rect.max.x - 8.0, rect.max.y - 4.0),
            Align2::RIGHT_BOTTOM,
            "drag to turn · right-drag or scroll to zoom",
            FontId::proportional(10.0),
            text,
        );
    }
    response
}

/// The grids of the runs, labelled.
pub fn grids(runs: &[(String, &Simulation)]) -> Vec<(String, Grid)> {
    runs.iter().map(|(l, s)| (l.clone(), Grid::of(s))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(values: Vec<f64>, cols: usize) -> Grid {
        Grid {
            cols,
            rows: values.len() / cols,
            values,
            surface: true,
            positions: Vec::new(),
        }
    }

    #[test]
    fn contours_cross_where_the_level_lies() {
        // A single peak in the middle of a 3x3 grid: a level of half its
        // height crosses the four edges around it, one segment per cell.
        let g = grid(vec![0., 0., 0., 0., 2., 0., 0., 0., 0.], 3);
        let segs = contour_segments(&g, 1.0);
        assert_eq!(segs.len(), 4);
        for s in &segs {
            for &(x, y) in s {
                let d = ((x - 1.0).abs()).max((y - 1.0).abs());
                assert!((d - 0.5).abs() < 1e-6, "{s:?}");
            }
        }
        assert!(contour_segments(&g, 3.0).is_empty());
    }

    /// A midimew's flat map puts each node where the Network tab draws it
    /// (rows of consecutive nodes, offset like bricks), not by id on an
    /// 8x8 grid: the cells keep the layout's order on both axes, stay
    /// inside the drawing and never overlap; a torus stays a surface.
    #[test]
    fn a_flat_map_places_nodes_as_the_network_view_does() {
        use crate::scenario::Scenario;
        let build = |topology: &str| {
            Scenario {
                topology: topology.into(),
                routing: "minimal".into(),
                load: 0.1,
                warmup: 0,
                ..Scenario::default()
            }
            .build()
            .unwrap()
        };
        let sim = build("midimew:64");
        let g = Grid::of(&sim);
        assert!(!g.surface);
        let world = sim.network().switch_positions();
        assert_eq!(g.positions, world);
        let rect = Rect::from_min_size(pos2(10.0, 20.0), vec2(500.0, 300.0));
        let cells = placed_cells(&g.positions, rect);
        assert_eq!(cells.len(), 64);
        for (i, a) in cells.iter().enumerate() {
            assert!(
                rect.expand(0.5).contains_rect(*a),
                "cell {i} {a:?} outside {rect:?}"
            );
            assert!(a.width() > 10.0, "cell {i} is {a:?}");
            for (j, b) in cells.iter().enumerate().skip(i + 1) {
                assert!(!a.intersects(b.shrink(0.01)), "cells {i} and {j} overlap");
                let (ca, cb) = (a.center(), b.center());
                for (k, (wa, wb)) in world[i].iter().zip(&world[j]).enumerate() {
                    if wa < wb {
                        assert!(ca[k] < cb[k], "nodes {i} and {j} swapped on axis {k}");
                    }
                }
            }
        }
        // Node 0 and node 1 are neighbours in a row (consecutive ids), so
        // their cells sit side by side, one row above node b = 6; the rows
        // are bricks twice as wide as tall (a row's nodes are two units
        // apart, the rows one), so they cover most of the drawing.
        assert!((cells[0].center().y - cells[1].center().y).abs() < 0.5);
        assert!(cells[6].center().y > cells[0].center().y + 1.0);
        let (w, h) = (cells[0].width(), cells[0].height());
        assert!((w / h - 2.0).abs() < 0.2, "{w} x {h}");
        // A spring layout (scattered nodes): squares that still never overlap.
        let scattered = build("irregular:24:seed=3");
        let spring = Grid::of(&scattered);
        assert_eq!(spring.positions.len(), 24);
        let cells = placed_cells(&spring.positions, rect);
        for (i, a) in cells.iter().enumerate() {
            assert!((a.width() - a.height()).abs() < 0.01 && a.width() > 1.0);
            for b in &cells[i + 1..] {
                assert!(!a.intersects(b.shrink(0.01)));
            }
        }
        let shapes = heatmap_shapes(&g, 1.0, rect, Theme::Dark);
        let quads: usize = shapes
            .iter()
            .map(|s| match s {
                EShape::Mesh(m) => m.indices.len() / 6,
                _ => 0,
            })
            .sum();
        assert_eq!(quads, 64);
        // The pointer on a node's cell names that node; between cells and
        // outside the map, none.
        let cells = placed_cells(&g.positions, rect);
        for node in [0, 6, 37, 63] {
            assert_eq!(
                node_at(&g, rect, cells[node].center()),
                Some((node, cells[node]))
            );
        }
        let gap = pos2(
            cells[0].max.x + 0.5 * (cells[1].min.x - cells[0].max.x),
            cells[0].center().y,
        );
        assert_eq!(node_at(&g, rect, gap), None);
        assert_eq!(node_at(&g, rect, rect.max + vec2(5.0, 5.0)), None);
        assert!(Grid::of(&build("torus:4x4")).surface);
    }

    #[test]
    fn the_surface_builds_a_mesh_and_turns_with_the_view() {
        let g = grid((0..256).map(|i| (i % 7) as f64).collect(), 16);
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0));
        let a = surface_shapes(&g, g.peak(), &SurfaceView::default(), rect, Theme::Dark);
        let triangles: usize = a
            .iter()
            .map(|s| match s {
                EShape::Mesh(m) => m.indices.len() / 3,
                _ => 0,
            })
            .sum();
        assert_eq!(triangles, 15 * 15 * 2);
        let mut v = SurfaceView::default();
        v.rotate(vec2(50.0, 0.0));
        assert_ne!(v, SurfaceView::default());
        let b = surface_shapes(&g, g.peak(), &v, rect, Theme::Dark);
        assert_ne!(format!("{a:?}"), format!("{b:?}"));
        v.zoom_by(100.0);
        assert_eq!(v.zoom, 4.0);
    }
}
