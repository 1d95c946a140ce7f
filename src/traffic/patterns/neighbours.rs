//! The neighbour patterns:
//! - `nn` (Singh's NN, thesis §2): uniform over the switch's 2n torus
//!   neighbours (on a mesh, the neighbours that exist; elsewhere, the
//!   neighbouring switches in the network graph), same host slot on that
//!   switch;
//! - `neighbor` (BookSim's): +1 in every dimension (mod k) on tori, meshes
//!   and hypercubes (a hypercube is a 2-ary n-cube, so this complements
//!   every bit); elsewhere the next switch id, same host slot.

use crate::topology::Shape;
use crate::traffic::fixed::fixed;
use crate::traffic::kind::TrafficKind;
use crate::traffic::pattern::{map_digits, per_switch};

/// `nn`.
pub const NN: TrafficKind = TrafficKind {
    name: "nn",
    aliases: &[],
    form: "nn",
    summary: "uniform over the switch's neighbours (Singh's NN)",
    example: "nn",
    parse: |spec| {
        fixed(spec, "nn", |net, _, _| {
            Ok(match net.shape() {
                Shape::Cube { radix, wrap } => per_switch(net, |s| {
                    let mut out = Vec::new();
                    let mut stride = 1;
                    for &k in radix {
                        let x = (s / stride) % k;
                        if *wrap || x + 1 < k {
                            out.push(s - x * stride + ((x + 1) % k) * stride);
                        }
                        if *wrap || x > 0 {
                            out.push(s - x * stride + ((x + k - 1) % k) * stride);
                        }
                        stride *= k;
                    }
                    out
                }),
                _ => per_switch(net, |s| net.neighbours(s).map(|(_, t)| t).collect()),
            })
        })
    },
};

/// `neighbor` (also `neighbour`).
pub const NEIGHBOR: TrafficKind = TrafficKind {
    name: "neighbor",
    aliases: &["neighbour"],
    form: "neighbor",
    summary: "+1 in every dimension (BookSim's neighbor)",
    example: "neighbor",
    parse: |spec| {
        fixed(spec, "neighbor", |net, _, _| {
            Ok(match net.shape() {
                Shape::Cube { radix, .. } => {
                    per_switch(net, |s| vec![map_digits(radix, s, |k, x| (x + 1) % k)])
                }
                Shape::Hypercube { n: dims } => {
                    per_switch(net, |s| vec![!s & ((1u32 << dims) - 1)])
                }
                _ => {
                    let sw = net.num_switches() as u32;
                    per_switch(net, |s| vec![(s + 1) % sw])
                }
            })
        })
    },
};
