//! Exact channel-load analysis of oblivious routing on k-ary n-cubes
//! (issue 11): the *ideal* throughput each routing allows on a traffic
//! pattern, on its worst-case traffic and on average over random
//! permutations, as in Singh's thesis (A. Singh, *Load-Balanced Routing in
//! Interconnection Networks*, Stanford 2005: §2.2 performance measures,
//! §2.3 DOR, VAL and ROMM, §3.1 RLB on a ring with Theorems 3 and 4,
//! §3.2 RLB in higher dimensions, §3.3 RLBth) and Towles and Dally
//! ("Worst-case traffic for oblivious routing functions", 2002).
//!
//! No simulation: everything is a closed computation, exact in rational
//! arithmetic (integer numerators over derived common denominators), so the
//! thesis's fractions come out exactly: tornado on an 8-node ring gives
//! MIN 1/3, VAL 1/2 and RLB 8/15 of capacity. Nothing here imports the
//! simulator (`crate::sim`) or egui.
//!
//! ## What is computed
//! - [`Law`]: an oblivious routing's exact law, handed out by its entry
//!   in the routing registry ([`crate::routing::RoutingBuild::law`]; the
//!   law itself, [`ObliviousLaw`], lives with the routing): DOR, RDOR, VAL,
//!   ROMM, RLB, RLBth, and any routing that declares one. Parsed from a
//!   routing spec through the registry (`"rlb".parse::<Law>()`), compared
//!   by [`Law::compared`], enumerated as probability distributions over
//!   paths ([`Law::paths`]) for checking the simulator's routings against.
//! - [`ChannelWeights`]: w_c(s,d), the expected crossings of channel c by
//!   one s → d packet, through the per-dimension product form.
//! - [`TrafficMatrix`]: every traffic pattern of the simulator as a rate
//!   matrix λ_sd.
//! - [`channel_loads`]: γ_c = Σ λ_sd·w_c(s,d); [`ChannelLoads`] gives
//!   max_c γ_c, the ideal throughput 1/(Θ·max γ) and the mean hop count.
//!   [`LoadSum`] is the same sum run in steps (the app runs it a time slice
//!   per frame); [`channel_loads`] runs it to the end.
//! - [`worst_case`]: Towles and Dally's worst case, a maximum-weight
//!   perfect matching per channel class, with the permutation achieving it.
//! - [`random_permutation_average`]: mean, minimum, 5th percentile and
//!   standard error over seeded random permutations; [`AverageSum`] draws
//!   them in steps.
//! - [`quadrants`]: RLB's quadrant probabilities and intermediate boxes.
//! - [`dependency_graph`]: the channel-dependency graph of any routing,
//!   over every route it can take, to prove deadlock freedom.
//! - [`network_loads`]: the same γ_c on any network whose routing hands
//!   out an exact path law ([`crate::routing::PathLaw`]: the dragonfly's
//!   MIN and VAL), host channels included, the throughput in flits per
//!   host per cycle.
//!
//! ## Definitions (decided by the team; they reproduce the thesis)
//! - **Capacity Θ** ([`Cube::capacity`]): the ideal throughput of uniform
//!   random traffic per node, 8/k for even k and 8k/(k²-1) for odd k on a
//!   torus (4/k and 4k/(k²-1) on a mesh), k the largest radix. It is *not*
//!   capped at the host link (the simulator's capacity is). Every
//!   throughput here is a fraction of Θ.
//! - **Uniform**: the analysis's `uniform` is λ_sd = 1/N *including* s = d
//!   (the thesis's UR; it is what makes uniform DOR with random ties reach
//!   exactly 1). The simulator's `uniform` never sends to itself; here it
//!   is `uniform-other` (λ = 1/(N-1), s ≠ d). Outputs say which one.
//! - **Ties** at an offset of exactly k/2: VAL, RDOR, ROMM, RLB and RLBth
//!   take either direction with probability 1/2 per packet and dimension.
//!   DOR keeps [`crate::routing::TieRule`] as a parameter
//!   (`plus|random|parity`); its default is `plus`, like the simulator's,
//!   and every output writes it (`dor:tie=plus`).
//! - **Intermediate box**: in dimension i, q_i is uniform over the
//!   coordinates from s_i to d_i *inclusive*, walking in the chosen
//!   direction: Δ_i + 1 values the short way, k - Δ_i + 1 the long way;
//!   Δ_i = 0 means no move (q_i = s_i). ROMM uses the same box in the
//!   minimal directions.
//! - **Dimension orders**: DOR 0, 1, ...; RDOR one uniformly random order;
//!   VAL, RLB and RLBth an independent uniformly random order per phase;
//!   ROMM `order=xy` (default: 0, 1, ... in both phases) or `order=random`
//!   (independent per phase). VAL's phases are minimal with uniform ties —
//!   RDOR from s to q, then RDOR from q to d — which a simulator routing can
//!   do by drawing q and two orders at the source.
//! - **Hosts**: one host per switch (node = switch = host).
//!
//! ## Where routelab differs from the thesis, and why
//! - §3.2's worked example lists the long-way box of x as
//!   `[3,4,5,6,7,0]` (k - Δ values, s included, d excluded) and the short-way
//!   box of y as `[1,2,3]` (Δ values, s excluded, d included): the two ends
//!   are treated inconsistently. routelab includes both ends in every
//!   dimension (the team's definition). On a ring the box does not matter
//!   (without backtracking every q gives the same path), so the ring
//!   results are unaffected; in two or more dimensions it changes how
//!   traffic spreads over rows and columns. Both exclusive readings were
//!   tried: either lowers RLB's worst case on 8x8 from 0.3128 to 0.286 (no
//!   better than RDOR), so the RLB paper's "25% more than DOR" no longer
//!   holds; the inclusive box reproduces it (`docs/analysis.md`).
//! - Theorem 4 (RLB's worst case on a ring is optimal, 1/2 of capacity)
//!   comes out exactly 1/2 for every k from 4 to 16, odd k included (there
//!   with Θ = 8k/(k²-1); `tests/analysis.rs`).
//! - The reading gives only ring numbers, Theorems 3-4 and the quadrant
//!   example; the 2D figures in `docs/analysis.md` are routelab's own. They
//!   agree with the ratios the RLB paper's abstract states (Singh, Dally,
//!   Towles, Gupta, SPAA 2002, the reading's reference `[4]`) on the 8-ary
//!   2-cube: RLB's worst case 25% above DOR's and 50% above 2-phase ROMM's,
//!   and 4.6 times VAL's throughput on nearest-neighbour traffic. Its "4%
//!   reduction" of RLBth's worst case against RLB's comes out as 4.6% here
//!   (0.2984 against 0.3128).
//! - DOR's tie rule matters: with the default `plus`, the analysis's
//!   uniform traffic on an even torus reaches only k/(k+2) of capacity
//!   (the plus channels carry every tie); `tie=random` reaches 1, and so
//!   does `tie=parity` when 4 divides k (9/10 on a 6-ring).
//! - The uniform matrix matters too: the simulator's uniform (no self
//!   traffic) loads each channel N/(N-1) times more, so minimal routing
//!   reaches (N-1)/N of capacity on it (63/64 on 8x8), not 1.
//!
//! ## Exactness and size
//! Probabilities are `Ratio<i128>` (num-rational). Channel weights are
//! integers over a common denominator D = n!·Π_j den_j derived from the
//! routing's per-dimension laws ([`ChannelWeights`]); traffic matrices are
//! integers over their own common denominator L. The analysis accepts up
//! to [`MAX_NODES`] nodes of radix at most [`MAX_RADIX`]; the worst case's
//! matchings are limited by [`MAX_MATCHING_WORK`].

mod average;
mod dependency;
mod geometry;
mod load;
mod matrix;
mod network_load;
mod oblivious;
mod quadrant;
mod weights;
mod worst;

pub use crate::routing::{
    DimOrder, DimStep, Law, ObliviousLaw, box_coords, distance, rlb_directions,
};
pub use average::{AverageCase, AverageSum, DEFAULT_SAMPLES, random_permutation_average};
pub use dependency::{DependencyError, DependencyGraph, VcNode, dependency_graph};
pub use geometry::{Cube, Dir, MAX_NODES, MAX_RADIX};
pub use load::{ChannelLoads, LoadSum, LoadSummary, channel_loads, ideal_throughput};
pub use matrix::{MatrixSpec, TrafficMatrix, accepted as accepted_traffic, traffic_help};
pub use network_load::{NetworkLoads, network_loads};
pub use oblivious::{
    MAX_ENUMERATED_PATHS, PathDistribution, accepted as accepted_routings, law_of,
};
pub use quadrant::{Quadrant, quadrants};
pub use weights::ChannelWeights;
pub use worst::{
    ChannelSet, MAX_MATCHING_WORK, WorstCase, channel_worst, worst_case, worst_case_over,
};

/// The k-ary n-cubes the analysis accepts, quoted in errors: meshes name
/// the routings whose law runs there (from the routing registry).
pub fn accepted_topologies() -> String {
    format!(
        "torus:KxK[xK..] (every routing) or mesh:KxK[xK..] ({}), one host per switch, \
         at most {MAX_NODES} switches, radix at most {MAX_RADIX}",
        oblivious::mesh_routings().join(", ")
    )
}

/// `--routing`'s help for the analysis: every routing with a law and its
/// options, from the routing registry, and the defaults of those options.
pub fn routing_help() -> String {
    let defaults: Vec<String> = Law::compared()
        .iter()
        .map(|l| l.to_string())
        .filter(|s| s.contains(':'))
        .collect();
    format!(
        "Routing: {} (defaults written out: {})",
        oblivious::accepted(),
        defaults.join(", ")
    )
}

/// Why an analysis cannot be done. Every message names the problem and
/// the accepted values.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// The topology spec does not parse or build.
    #[error("{0}")]
    Topology(String),
    /// Not a torus or mesh.
    #[error(
        "topology `{spec}`: the analysis covers k-ary n-cubes only; accepted: {}",
        accepted_topologies()
    )]
    NotACube { spec: String },
    /// More than one host per switch.
    #[error(
        "topology `{spec}`: {hosts} hosts per switch, the analysis models one; accepted: {}",
        accepted_topologies()
    )]
    HostsPerSwitch { spec: String, hosts: usize },
    /// A routing spec that does not parse.
    #[error("routing `{spec}`: {problem}; accepted: {accepted}")]
    Routing {
        spec: String,
        problem: String,
        accepted: String,
    },
    /// A traffic spec that does not parse or fit the network.
    #[error("traffic `{spec}`: {problem}; accepted: {accepted}")]
    Traffic {
        spec: String,
        problem: String,
        accepted: String,
    },
    /// The routing does not exist on this topology (RLB on a mesh).
    #[error("routing `{routing}` is not defined on `{topology}`: {reason}")]
    NotDefined {
        routing: String,
        topology: String,
        reason: String,
    },
    /// The network or the computation is beyond the analysis's limits.
    #[error("`{spec}`: {what} is too large for the exact analysis; accepted: {limit}")]
    TooLarge {
        spec: String,
        what: String,
        limit: String,
    },
    /// The exact denominators do not fit in 128 bits.
    #[error(
        "`{spec}` with `{routing}`: {what} does not fit in 128-bit integers; accepted: a smaller radix or fewer dimensions"
    )]
    Overflow {
        spec: String,
        routing: String,
        what: String,
    },
}
