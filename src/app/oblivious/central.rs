//! The views the central area shows beside the simulation while the
//! oblivious-routing panel is open ([`CentralViews`]): the analysis view
//! left of the runs (run A's expected load L·γ_c at its offered load, or
//! the picked pair's w_c(s,d), with the pair's box or law of q shaded, its
//! sampled paths and s, d and each path's q marked), and the runs coloured
//! by simulated utilization on the same colour scale ([`shared_scale`]).

use super::panel::{coords_text, palette};
use super::{ObliviousAnalysis, shared_scale};
use crate::app::network_view::{Colouring, Metric, Overlay};
use crate::app::theme::Theme;
use crate::sim::Simulation;
use crate::topology::SwitchId;

/// What the central area shows for the panel: the analysis view (left of
/// the runs) and the colouring of the runs when they share its scale.
pub struct CentralViews {
    pub expected: Colouring,
    pub expected_overlay: Overlay,
    pub title: String,
    /// The runs' colourings (simulated utilization) when they share the
    /// expected load's scale; `None`: the runs keep the View menu's metric.
    pub runs: Option<Vec<Colouring>>,
    /// The runs' overlay (the shared scale).
    pub runs_overlay: Overlay,
}

impl ObliviousAnalysis {
    /// The shared colour scale of the expected load at the run's offered
    /// load and the simulated utilization of `runs`, when both are shown.
    pub fn scale(&self, runs: &[&Simulation]) -> Option<f64> {
        let ctx = self.context()?;
        let e = self.expected()?.as_ref().ok()?;
        let expected = e.utilization(ctx.load);
        let simulated: Vec<Vec<f64>> = runs.iter().map(|s| s.channel_utilization()).collect();
        let mut views: Vec<&[f64]> = vec![&expected];
        views.extend(simulated.iter().map(|v| v.as_slice()));
        let n = runs.first()?.network().num_network_channels();
        Some(shared_scale(&views, n))
    }

    /// The views of the central area, when the panel is open, the expected
    /// load is computed and asked for.
    pub fn central_views(&self, runs: &[&Simulation], theme: Theme) -> Option<CentralViews> {
        if !(self.open && self.show_expected) {
            return None;
        }
        let ctx = self.context()?;
        let e = self.expected()?.as_ref().ok()?;
        let net = runs.first()?.network();
        if e.gamma.len() != net.num_channels() || ctx.topology != net.spec() {
            return None;
        }
        let overlay = self.pair_overlay(theme);
        let routing = e.routing.clone();
        if self.show_pair_load
            && let Some(p) = self.pair()
        {
            return Some(CentralViews {
                expected: Colouring {
                    label: format!(
                        "Expected crossings w_c(s,d) of one {routing} packet from {} to {}",
                        coords_text(&p.source_coords),
                        coords_text(&p.destination_coords)
                    ),
                    unit: "crossings per packet".into(),
                    values: p.load.clone(),
                },
                expected_overlay: overlay,
                title: format!("{} · Pair load: {routing} (analysis)", net.spec()),
                runs: None,
                runs_overlay: Overlay::default(),
            });
        }
        let scale = self.scale(runs)?;
        let runs_colouring = runs
            .iter()
            .map(|s| Colouring {
                label: "Simulated utilization (shared scale)".into(),
                unit: Metric::Utilization.unit().into(),
                values: s.channel_utilization(),
            })
            .collect();
        Some(CentralViews {
            expected: Colouring {
                label: format!("Expected load L·γ_c, L = {:.3} (shared scale)", ctx.load),
                unit: Metric::Utilization.unit().into(),
                values: e.utilization(ctx.load),
            },
            expected_overlay: Overlay {
                scale_max: Some(scale),
                ..overlay
            },
            title: format!("{} · Expected: {routing} (analysis)", net.spec()),
            runs: Some(runs_colouring),
            runs_overlay: Overlay {
                scale_max: Some(scale),
                ..Overlay::default()
            },
        })
    }

    /// The pair drawn on the analysis view: the box (or the law of q)
    /// shaded, the sampled paths, s, d and each path's q marked.
    fn pair_overlay(&self, theme: Theme) -> Overlay {
        let mut o = Overlay::default();
        let (Some(s), d) = (self.source, self.destination) else {
            return o;
        };
        let shade = theme.selection();
        if let Some(p) = self.pair() {
            let chosen = self
                .quadrant
                .and_then(|i| p.quadrants.as_ref().ok()?.get(i));
            match chosen {
                Some(q) => {
                    for &y in &q.switches {
                        o.shaded.push((y, shade.gamma_multiply(0.45)));
                    }
                }
                None => {
                    let top = p.intermediate.iter().copied().fold(0.0, f64::max);
                    for (y, &pq) in p.intermediate.iter().enumerate() {
                        if pq > 0.0 && top > 0.0 {
                            let a = 0.12 + 0.5 * (pq / top) as f32;
                            o.shaded.push((y as SwitchId, shade.gamma_multiply(a)));
                        }
                    }
                }
            }
            for (i, path) in p.samples.iter().enumerate() {
                let c = palette(theme, i);
                o.paths.push((path.channels.clone(), c));
                if let Some(q) = path.intermediate
                    && q != p.source
                    && q != p.destination
                {
                    o.marks.push((q, format!("q{}", i + 1), c));
                }
            }
        }
        o.marks.push((s, "s".into(), theme.selection()));
        if let Some(d) = d {
            o.marks.push((d, "d".into(), theme.error()));
        }
        o
    }
}
