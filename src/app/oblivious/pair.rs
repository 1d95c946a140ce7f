//! A source and a destination on a torus or mesh ([`PairInfo`]): Singh's
//! thesis §3.2's quadrant probabilities and the boxes the intermediate node
//! q is drawn from ([`QuadrantView`]), the law of q over the switches, a
//! few paths sampled from the simulator's own routing ([`sample_paths`]),
//! and the pair's expected crossings w_c(s,d) per channel; and what the
//! panel caches a pair's numbers by (`PairKey`).

use super::compare::value;
use super::expected::{Expected, ExpectedKey};
use super::spec::spec_of;
use crate::analysis::{Cube, Law, quadrants};
use crate::rng::{Stream, stream};
use crate::routing::{Oblivious, ObliviousSpec, RoutingSpec, walk};
use crate::topology::{ChannelId, SwitchId};
use num_rational::Ratio;

/// Most paths sampled for one pair.
pub const MAX_SAMPLES: usize = 16;

/// One of §3.2's quadrants of a pair, ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct QuadrantView {
    /// The direction per dimension, `(+,-)`; `0` where a dimension does
    /// not move.
    pub directions: String,
    pub probability: Ratio<i128>,
    /// Per dimension, the coordinates q_j may take (each equally likely).
    pub boxes: Vec<Vec<u32>>,
    /// Every switch of the box.
    pub switches: Vec<SwitchId>,
}

/// One path sampled from the simulator's routing.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledPath {
    /// The channels in order.
    pub channels: Vec<ChannelId>,
    /// The intermediate node the packet drew (two-phase routings).
    pub intermediate: Option<SwitchId>,
}

/// Everything shown for one source and destination.
#[derive(Clone, Debug)]
pub struct PairInfo {
    pub routing: Law,
    pub source: SwitchId,
    pub destination: SwitchId,
    pub source_coords: Vec<u32>,
    pub destination_coords: Vec<u32>,
    /// §3.2's quadrants (RLB, RLBth, ROMM), or what the routing does
    /// instead.
    pub quadrants: Result<Vec<QuadrantView>, String>,
    /// P(q = y) for every switch y; empty for one-phase routings (q = s).
    pub intermediate: Vec<f64>,
    pub samples: Vec<SampledPath>,
    /// Why sampling failed, if it did.
    pub sample_error: Option<String>,
    /// w_c(s,d) per network channel id: expected crossings of the channel
    /// by one packet from s to d.
    pub load: Vec<f64>,
    /// Σ_c w_c(s,d), the expected hops.
    pub expected_hops: f64,
}

impl PairInfo {
    /// The numbers of pair (`s`, `d`) under `expected`'s routing, with
    /// `samples` paths drawn from the simulator's routing with `seed`.
    pub fn compute(
        expected: &Expected,
        s: SwitchId,
        d: SwitchId,
        samples: usize,
        seed: u64,
    ) -> PairInfo {
        let w = &expected.weights;
        let cube = w.cube();
        let net = cube.network();
        let routing = &expected.routing;
        let two_phase = routing.two_phase();
        let quadrants = if routing.intermediate_in_box() {
            quadrants(cube, routing, s, d)
                .map(|qs| qs.into_iter().map(|q| quadrant_view(cube, q)).collect())
                .map_err(|e| e.to_string())
        } else if two_phase {
            Err(format!(
                "{routing} draws q outside any box of s and d (VAL: uniformly over all N \
                 nodes, its box is the whole torus, §2.3): no quadrants"
            ))
        } else {
            Err(format!(
                "{routing} routes in one phase, minimally: no intermediate node (q = s), no quadrants"
            ))
        };
        // The law of q: independent per dimension (thesis §3.2).
        let intermediate = if two_phase {
            let (sc, dc) = (cube.coords(s).to_vec(), cube.coords(d).to_vec());
            let per_dim: Vec<Vec<f64>> = (0..cube.dims())
                .map(|j| {
                    let k = cube.radix()[j];
                    let mut p = vec![0.0; k as usize];
                    for st in
                        routing.dim_steps(k, cube.is_torus(), routing.tie_side(s), sc[j], dc[j])
                    {
                        p[st.intermediate as usize] += value(st.probability);
                    }
                    p
                })
                .collect();
            (0..cube.num_nodes() as u32)
                .map(|y| {
                    cube.coords(y)
                        .iter()
                        .enumerate()
                        .map(|(j, &x)| per_dim[j][x as usize])
                        .product()
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut load = vec![0.0; net.num_channels()];
        let den = w.denominator() as f64;
        w.row(s, d, |ch, v| {
            if let Some(id) = cube.network_channel(ch) {
                load[id as usize] += v as f64 / den;
            }
        });
        let expected_hops = load.iter().sum();
        let (samples, sample_error) = match sample_paths(cube, routing, s, d, samples, seed) {
            Ok(v) => (v, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        PairInfo {
            routing: routing.clone(),
            source: s,
            destination: d,
            source_coords: cube.coords(s).to_vec(),
            destination_coords: cube.coords(d).to_vec(),
            quadrants,
            intermediate,
            samples,
            sample_error,
            load,
            expected_hops,
        }
    }

    /// The channels the pair may cross with their w_c(s,d), largest first.
    pub fn loaded_channels(&self) -> Vec<(ChannelId, f64)> {
        let mut v: Vec<(ChannelId, f64)> = self
            .load
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0.0)
            .map(|(c, &w)| (c as ChannelId, w))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}

fn quadrant_view(cube: &Cube, q: crate::analysis::Quadrant) -> QuadrantView {
    let directions: Vec<&str> = q
        .directions
        .iter()
        .map(|d| match d.map(|d| d.sign()) {
            Some(1) => "+",
            Some(_) => "-",
            None => "0",
        })
        .collect();
    // Every combination of the per-dimension coordinates.
    let mut switches: Vec<Vec<u32>> = vec![Vec::new()];
    for coords in &q.boxes {
        switches = switches
            .into_iter()
            .flat_map(|prefix| {
                coords.iter().map(move |&x| {
                    let mut p = prefix.clone();
                    p.push(x);
                    p
                })
            })
            .collect();
    }
    QuadrantView {
        directions: format!("({})", directions.join(",")),
        probability: q.probability,
        switches: switches.iter().map(|c| cube.node(c)).collect(),
        boxes: q.boxes,
    }
}

/// `n` paths from switch `s` to `d` walked with the simulator's own routing
/// (its first candidate at every hop, an idle network), drawing with
/// `seed`; each with the intermediate node the packet drew.
pub fn sample_paths(
    cube: &Cube,
    routing: &Law,
    s: SwitchId,
    d: SwitchId,
    n: usize,
    seed: u64,
) -> Result<Vec<SampledPath>, String> {
    let net = cube.network();
    let spec: RoutingSpec = spec_of(routing).parse().map_err(|e| format!("{e}"))?;
    let vcs = spec.min_vcs(net).max(1);
    let mut built = spec.build(net, vcs).map_err(|e| e.to_string())?;
    // The same law again, to read the intermediate node a packet draws:
    // `at_source` draws its plan first, from the same random stream.
    let drawer = spec
        .downcast::<ObliviousSpec>()
        .filter(|o| o.law.two_phase())
        .map(|o| Oblivious::new(o.law.clone(), cube.geometry().clone(), vcs));
    let host = |sw: SwitchId| {
        net.hosts_of(sw)
            .next()
            .ok_or_else(|| format!("switch {sw} has no host"))
    };
    let (hs, hd) = (host(s)?, host(d)?);
    let mut rng = stream(seed, Stream::Routing);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n.min(MAX_SAMPLES) {
        let intermediate = drawer.as_ref().map(|o| o.draw(s, d, &mut rng.clone()).q);
        let steps = walk(net, built.as_mut(), hs, hd, 0, &mut rng).map_err(|e| e.to_string())?;
        let channels = steps
            .iter()
            .filter_map(|st| {
                net.ports(st.at)
                    .get(st.taken.port as usize)
                    .and_then(|p| p.out_channel)
            })
            .collect();
        out.push(SampledPath {
            channels,
            intermediate,
        });
    }
    Ok(out)
}

/// Which pair's numbers are cached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PairKey {
    pub(super) expected: ExpectedKey,
    pub(super) source: SwitchId,
    pub(super) destination: SwitchId,
    pub(super) samples: usize,
    pub(super) seed: u64,
}
