//! Drawing DRB's latency surface (Fig. 9) on a 16x16 torus, every frame:
//! building the painter shapes, and a whole egui frame (layout, shapes and
//! tessellation into triangles, what the GPU then draws) with two surfaces
//! side by side, as in compare mode; and the flat map other topologies get
//! (each node where the Network tab draws it) on a 4096-switch hypercube,
//! two side by side. The app must animate them: all well under a 16 ms
//! frame (docs/performance.md has the numbers).
//!
//!     cargo bench --bench latency_surface

use criterion::{Criterion, criterion_group, criterion_main};
use routelab::app::latency_surface::{Grid, SurfaceView, surface_shapes, surface_ui};
use routelab::app::theme::Theme;
use routelab::topology::Shape;
use std::hint::black_box;

fn grid16() -> Grid {
    // A hot spot's relief: a peak and a ridge along its row and column.
    let values = (0..256)
        .map(|i| {
            let (x, y) = ((i % 16) as f64, (i / 16) as f64);
            let d = ((x - 5.0).powi(2) + (y - 9.0).powi(2)).sqrt();
            18.0 / (1.0 + d) + if x == 5.0 || y == 9.0 { 3.0 } else { 0.5 }
        })
        .collect();
    Grid::from_values(
        &Shape::Cube {
            radix: vec![16, 16],
            wrap: true,
        },
        values,
    )
}

fn bench(c: &mut Criterion) {
    let g = grid16();
    let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(600.0, 450.0));
    let view = SurfaceView::default();
    c.bench_function("surface_shapes_16x16", |b| {
        b.iter(|| black_box(surface_shapes(&g, g.peak(), &view, rect, Theme::Dark)))
    });
    bench_frames(c, "surface_frame_two_16x16", &g, 0.01);
}

/// A flat map's values on `hypercube:12` (4096 switches at their Gray-code
/// grid positions), with a hot corner.
fn hypercube12() -> Grid {
    let net = routelab::topology::Network::from_spec("hypercube:12").expect("hypercube:12");
    let values: Vec<f64> = (0..net.num_switches())
        .map(|s| 1.0 / (1.0 + (s % 97) as f64) + if s < 64 { 5.0 } else { 0.0 })
        .collect();
    let mut g = Grid::from_values(net.shape(), values);
    g.positions = net.switch_positions().to_vec();
    g
}

fn bench_flat(c: &mut Criterion) {
    let g = hypercube12();
    assert!(!g.surface && g.positions.len() == 4096);
    bench_frames(c, "flat_frame_two_hypercube12", &g, 0.0);
}

/// A whole egui frame at 1400x900 with `g` drawn twice side by side (runs A
/// and B, as in compare mode), tessellated into triangles; the camera turns
/// by `turn` radians a frame, as while dragging (0 for a flat map, which
/// has no camera).
fn bench_frames(c: &mut Criterion, name: &str, g: &Grid, turn: f32) {
    let ctx = egui::Context::default();
    let runs = vec![
        ("A: dor".to_string(), g.clone()),
        ("B: drb".to_string(), g.clone()),
    ];
    let mut view = SurfaceView::default();
    c.bench_function(name, |b| {
        b.iter(|| {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(1400.0, 900.0),
                )),
                ..Default::default()
            };
            view.yaw += turn;
            let out = ctx.run_ui(input, |ui| {
                surface_ui(ui, &mut view, &runs, Theme::Dark);
            });
            let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
            black_box(prims.len())
        })
    });
}

criterion_group!(benches, bench, bench_flat);
criterion_main!(benches);
