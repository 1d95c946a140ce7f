//! The exact law of an oblivious routing on a k-ary n-cube (Singh's thesis
//! §3.2, Fig. 3.3): what the channel-load analysis ([`crate::analysis`])
//! computes with and what the simulated routing ([`super::Oblivious`])
//! draws from. One law per routing, in the routing's own file; its
//! registry entry hands it out ([`super::RoutingBuild::law`]), so a routing
//! joins `routelab load`, `--compare`, the `worst` traffic and the app's
//! oblivious panel by declaring its law there and nothing else.
//!
//! Every such routing is a two-phase route through an intermediate node q:
//! in each dimension j it draws, independently of the other dimensions, a
//! direction and a coordinate q_j ([`DimStep`]); then it routes s → q in a
//! dimension order drawn for phase 1 and q → d in one drawn for phase 2
//! ([`DimOrder`]), each phase moving only in the drawn directions.
//! One-phase routings (DOR, RDOR) are the case q = s.
//!
//! [`ObliviousLaw`] states the law; [`Law`] is the cheap cloneable handle
//! the analysis and the app pass around (equal and printed by its canonical
//! spec). Parsing a spec into a [`Law`] goes through the routing registry
//! (`"val".parse::<Law>()`, implemented in [`crate::analysis`], which may
//! import the registry; this file may not, the registry's vocabulary
//! imports it).

use crate::rng::{SimRng, below, unit};
use crate::topology::cube::Geometry;
use num_rational::Ratio;
use std::fmt;
use std::sync::Arc;

/// A direction along one dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards +1 (port `2d`).
    Plus,
    /// Towards -1 (port `2d+1`).
    Minus,
}

impl Dir {
    /// 0 for +, 1 for - (the port offset within a dimension).
    pub fn index(self) -> usize {
        match self {
            Dir::Plus => 0,
            Dir::Minus => 1,
        }
    }
    /// The other direction.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Plus => Dir::Minus,
            Dir::Minus => Dir::Plus,
        }
    }
    /// `+1` or `-1`.
    pub fn sign(self) -> i32 {
        match self {
            Dir::Plus => 1,
            Dir::Minus => -1,
        }
    }
}

/// The order in which a phase corrects the dimensions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DimOrder {
    /// Dimension 0 first, then 1, 2, ... (the thesis's "xy" order).
    #[default]
    Xy,
    /// Uniform over the n! orders, drawn independently per phase (§3.2).
    Random,
}

impl DimOrder {
    /// The accepted values of `order=`.
    pub const ACCEPTED: &'static str = "xy, random";
    /// Parse `xy` or `random`.
    pub fn parse(s: &str) -> Option<DimOrder> {
        match s {
            "xy" => Some(DimOrder::Xy),
            "random" => Some(DimOrder::Random),
            _ => None,
        }
    }
    /// The spec word (`xy`, `random`).
    pub fn as_str(self) -> &'static str {
        match self {
            DimOrder::Xy => "xy",
            DimOrder::Random => "random",
        }
    }
}

/// One option of a routing in one dimension (§3.2's per-dimension draw):
/// with `probability`, phase 1 moves from s_j to `intermediate` in
/// direction `first` and phase 2 from `intermediate` to d_j in direction
/// `second` (`None`: no move in that phase).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimStep {
    pub probability: Ratio<i128>,
    pub first: Option<Dir>,
    pub intermediate: u32,
    pub second: Option<Dir>,
}

/// One dimension's draw as the simulated routing stores it: (phase-1
/// direction is +, q_j, phase-2 direction is +). A direction of a phase
/// that does not move is never read.
pub type DimDraw = (bool, u32, bool);

/// An oblivious routing's exact law on a k-ary n-cube (Singh's thesis §3.2:
/// an intermediate node drawn per dimension, then two dimension-ordered
/// phases). Implemented once per routing, next to the routing; the
/// analysis computes exact channel loads from [`Self::dim_steps`] and
/// [`Self::phase_orders`], the simulated routing ([`super::Oblivious`])
/// draws from [`Self::draw_dim`].
pub trait ObliviousLaw: Send + Sync + fmt::Debug {
    /// The canonical spec the analysis prints, every option written
    /// (`dor:tie=plus`, `romm:order=xy`): parsing it gives the same law.
    fn spec(&self) -> String;
    /// The routing's spec as the registry prints it (defaults left out,
    /// `romm`), the simulated routing's name. Defaults to [`Self::spec`].
    fn name(&self) -> String {
        self.spec()
    }
    /// The law of one dimension of radix `k` (`wrap`: a torus ring) for a
    /// packet going from coordinate `a` to `b`: [`DimStep`]s whose
    /// probabilities sum to 1. `side` is the packet's tie side
    /// ([`Self::tie_side`]).
    fn dim_steps(&self, k: u32, wrap: bool, side: Dir, a: u32, b: u32) -> Vec<DimStep>;
    /// Dimension orders of phase 1 (s → q) and phase 2 (q → d).
    fn phase_orders(&self) -> (DimOrder, DimOrder);
    /// False for one-phase routings (q = s always: DOR, RDOR); the
    /// simulated routing then draws no phase-1 order.
    fn two_phase(&self) -> bool {
        true
    }
    /// Why the routing needs a torus (e.g. RLB: "chooses between the short
    /// and the long way round, which only a torus has"), or `None` when it
    /// also runs on meshes.
    fn torus_only(&self) -> Option<&'static str> {
        None
    }
    /// True when q_j is uniform over the box the drawn directions span
    /// (ROMM, RLB, RLBth): the pair then has §3.2's quadrants.
    fn intermediate_in_box(&self) -> bool {
        false
    }
    /// True when the law depends on the source (DOR with `tie=parity`): it
    /// is then not invariant under every translation.
    fn depends_on_source(&self) -> bool {
        false
    }
    /// The tie side of a packet from node `s` (DOR `tie=parity`: + from an
    /// even switch id, - from an odd one). Others ignore it: `Plus`.
    fn tie_side(&self, _s: u32) -> Dir {
        Dir::Plus
    }
    /// Draw one dimension for a simulated packet. The default draws a step
    /// of [`Self::dim_steps`] (tie side +) with one uniform number; the
    /// routings of [`super::Oblivious`] override it with their own draws.
    fn draw_dim(&self, k: u32, wrap: bool, a: u32, b: u32, rng: &mut SimRng) -> DimDraw {
        let steps = self.dim_steps(k, wrap, Dir::Plus, a, b);
        let den = steps.iter().fold(1i128, |acc, s| {
            num_integer::Integer::lcm(&acc, s.probability.denom())
        });
        let pick = if den <= u32::MAX as i128 {
            Ratio::new(below(rng, den as u32) as i128, den)
        } else {
            Ratio::new((unit(rng) * (1u64 << 52) as f64) as i128, 1 << 52)
        };
        let mut acc = Ratio::from_integer(0);
        let mut chosen = steps.last().expect("a law has at least one step");
        for s in &steps {
            acc += s.probability;
            if pick < acc {
                chosen = s;
                break;
            }
        }
        sim_draw(chosen)
    }
    /// Every draw [`Self::draw_dim`] can make (its support), for exhaustive
    /// checks; the default lists the steps of [`Self::dim_steps`].
    fn support(&self, k: u32, wrap: bool, a: u32, b: u32) -> Vec<DimDraw> {
        self.dim_steps(k, wrap, Dir::Plus, a, b)
            .iter()
            .filter(|s| *s.probability.numer() != 0)
            .map(sim_draw)
            .collect()
    }
}

fn sim_draw(s: &DimStep) -> DimDraw {
    (
        s.first == Some(Dir::Plus),
        s.intermediate,
        s.second == Some(Dir::Plus),
    )
}

/// A shared oblivious-routing law with its canonical spec: cheap to clone,
/// equal and printed by the spec ([`ObliviousLaw::spec`]).
#[derive(Clone)]
pub struct Law {
    spec: Arc<str>,
    law: Arc<dyn ObliviousLaw>,
}

impl Law {
    /// Share `law`.
    pub fn new(law: impl ObliviousLaw + 'static) -> Law {
        Law::from_arc(Arc::new(law))
    }
    /// Share an already shared law.
    pub fn from_arc(law: Arc<dyn ObliviousLaw>) -> Law {
        Law {
            spec: law.spec().into(),
            law,
        }
    }
    /// The canonical spec (`dor:tie=plus`).
    pub fn spec(&self) -> &str {
        &self.spec
    }
    /// The routing's registry name, the spec up to its first option
    /// (`dor`, `romm`).
    pub fn kind_name(&self) -> &str {
        self.spec.split(':').next().unwrap_or_default()
    }
}

impl std::ops::Deref for Law {
    type Target = dyn ObliviousLaw;
    fn deref(&self) -> &Self::Target {
        self.law.as_ref()
    }
}

impl PartialEq for Law {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}
impl Eq for Law {}

impl fmt::Display for Law {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec)
    }
}

impl fmt::Debug for Law {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Law({})", self.spec)
    }
}

/// Hops from `a` to `b` walking in `dir` on a ring of `k` (a torus
/// dimension; on a mesh only the direction towards b is ever asked).
pub fn distance(k: u32, a: u32, b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::Plus => Geometry::plus_offset(k, a, b),
        Dir::Minus => Geometry::plus_offset(k, b, a),
    }
}

/// The coordinates from `a` to `b` inclusive walking in `dir`: the
/// per-dimension box of ROMM and RLB (§3.2), `distance + 1` values.
pub fn box_coords(k: u32, a: u32, b: u32, dir: Dir) -> Vec<u32> {
    let len = distance(k, a, b, dir);
    (0..=len)
        .map(|i| match dir {
            Dir::Plus => (a + i) % k,
            Dir::Minus => (a + k - i % k) % k,
        })
        .collect()
}

/// Minimal directions from `a` to `b` with their probabilities (`None`:
/// a = b, no move). On a tie (torus offset k/2) `tie` picks one, `None`
/// takes both with 1/2.
pub fn minimal_dirs(
    k: u32,
    wrap: bool,
    a: u32,
    b: u32,
    tie: Option<Dir>,
) -> Vec<(Option<Dir>, Ratio<i128>)> {
    let one = Ratio::from_integer(1);
    if a == b {
        return vec![(None, one)];
    }
    if !wrap {
        return vec![(Some(if b > a { Dir::Plus } else { Dir::Minus }), one)];
    }
    let plus = distance(k, a, b, Dir::Plus);
    if 2 * plus < k {
        vec![(Some(Dir::Plus), one)]
    } else if 2 * plus > k {
        vec![(Some(Dir::Minus), one)]
    } else if let Some(t) = tie {
        vec![(Some(t), one)]
    } else {
        let half = Ratio::new(1, 2);
        vec![(Some(Dir::Plus), half), (Some(Dir::Minus), half)]
    }
}

/// The steps of a one-phase routing (q = a) taking `dirs`.
pub fn one_phase(a: u32, dirs: &[(Option<Dir>, Ratio<i128>)]) -> Vec<DimStep> {
    dirs.iter()
        .map(|&(dir, p)| DimStep {
            probability: p,
            first: None,
            intermediate: a,
            second: dir,
        })
        .collect()
}

/// q uniform over the box from `a` to `b` in `dir`, given that direction
/// (probability `p`): appended to `out`.
pub fn in_box(out: &mut Vec<DimStep>, k: u32, a: u32, b: u32, dir: Dir, p: Ratio<i128>) {
    let coords = box_coords(k, a, b, dir);
    let pq = p / coords.len() as i128;
    for q in coords {
        out.push(DimStep {
            probability: pq,
            first: (q != a).then_some(dir),
            intermediate: q,
            second: (q != b).then_some(dir),
        });
    }
}

/// All n! orders of 0..n, lexicographic: the orders a [`DimOrder::Random`]
/// phase takes, each with probability 1/n!.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn rec(rest: &mut Vec<usize>, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if rest.is_empty() {
            out.push(cur.clone());
            return;
        }
        for i in 0..rest.len() {
            let x = rest.remove(i);
            cur.push(x);
            rec(rest, cur, out);
            cur.pop();
            rest.insert(i, x);
        }
    }
    let mut out = Vec::new();
    rec(&mut (0..n).collect(), &mut Vec::new(), &mut out);
    out
}

/// A dimension that does not move: q_j = a with probability 1.
pub fn stay(a: u32) -> Vec<DimStep> {
    vec![DimStep {
        probability: Ratio::from_integer(1),
        first: None,
        intermediate: a,
        second: None,
    }]
}
