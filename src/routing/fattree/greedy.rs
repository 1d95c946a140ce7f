//! `fattree-greedy:step=N`: the weighted-path paper's next-hop balancer,
//! built step by step ("Model building"), so that each step can be run and
//! compared on its own. Each step adds to the one before:
//!
//! 1. Random among the neighbours that decrease the hop distance to the
//!    target ("In the first approximation...").
//! 2. Greedy: among those, the one with the most free buffer, as the
//!    switch knows it (neighbours' fill at the start of the slice, its own
//!    sends in the slice subtracted).
//! 3. Buffer limiting: a non-access switch i counts as
//!    `limited_i = min(k_buffer·buffer_size_i, k_bw_out·bw_out_i,
//!    k_bw_in·bw_in_i) − occupancy_i` (possibly negative), and only
//!    neighbours whose value is > 0 are sent to; if none is, the message
//!    waits.
//! 4. Weighted distance: "closer" is by the weighted distance of
//!    [`super::weights`] instead of hops.
//! 5. Oldest first: a switch sends in order of request begin time, ties to
//!    the larger remaining distance ([`SlicePolicy::send_key`]). Steps 1-4 try
//!    messages in a fresh random order each slice, as the paper's did
//!    before this step ([`SlicePolicy::shuffle_sends`]).
//! 6. Top-two randomisation: with the two largest values max_1 >= max_2,
//!    if `max_1 < k_diff · max_2` the larger is taken with probability p and
//!    the second otherwise. Option `score=size` takes the paper's variation
//!    instead: the largest `value / (weight_distance + 1)^(distance ·
//!    k_deg)`, no randomisation.
//! 7. Access-buffer reservation: an access switch j with `free_j` free slots
//!    at the start of the slice takes at most
//!    `in_accept = max(0, ⌊(free_j − k_access_buff) / deg⌋)` messages from
//!    each of its `deg = k/2` aggregate switches in the slice
//!    ([`SlicePolicy::neighbour_quota`], [`in_accept`]).
//!
//! The paper gives no values for its constants ("selected based on the test
//! results"); [`GreedyParams::DEFAULT`] says why each default was chosen.

use super::policy::SlicePolicy;
use super::table::{FatTreeTable, applies, nth_bit};
use super::weights::WeightedDistances;
use crate::rng::{below, unit};
use crate::routing::kind::given_options;
use crate::routing::kind::{Family, RoutingBuild, RoutingKind};
use crate::routing::{Candidates, Hop, PacketInfo, RouteState, Routing};
use crate::topology::fat_tree_params::Level;
use crate::topology::{Network, SwitchId};

pub(in crate::routing) const KIND: RoutingKind = RoutingKind {
    name: "fattree-greedy",
    aliases: &["greedy"],
    options: "[:step=1..7][:k_buffer=F][:k_bw_out=F][:k_bw_in=F][:k_level=A,G,C][:k_diff=F][:p=F][:score=buffer|size][:k_deg=F][:k_access_buff=N]",
    summary: "the weighted-path paper's fat-tree balancer, step 1 (random) to 7 (full); time-slice model",
    families: &[Family::FatTree],
    parse: |parts| Ok(Box::new(GreedySpec::parse(parts)?)),
    examples: &[
        "fattree-greedy:step=1",
        "fattree-greedy:step=2",
        "fattree-greedy:step=3",
        "fattree-greedy:step=4",
        "fattree-greedy:step=5",
        "fattree-greedy:step=6",
        "fattree-greedy:step=6:score=size",
        "fattree-greedy:step=7",
    ],
};

/// What step 6 maximises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// The (limited) free buffer, with top-two randomisation.
    Buffer,
    /// The paper's variation `buffer / (weight_distance + 1)^(distance ·
    /// k_deg)`, taken greedily.
    Size,
}

/// The balancer's step and constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyParams {
    /// 1..=7.
    pub step: u8,
    pub k_buffer: f64,
    pub k_bw_out: f64,
    pub k_bw_in: f64,
    /// k_level for access, aggregate and core switches.
    pub k_level: [f64; 3],
    pub k_diff: f64,
    pub p: f64,
    pub score: Score,
    pub k_deg: f64,
    pub k_access_buff: u32,
}

impl GreedyParams {
    /// The defaults, and why:
    /// - `step = 7`: the paper's full model.
    /// - `k_buffer = 1`: the buffer itself never binds before the two
    ///   bandwidth terms on the presets; a value below 1 would only keep
    ///   room that the receiver's own limits already keep.
    /// - `k_bw_out = 3`: a switch holds at most about three slices of its
    ///   output, so a message waits at most ~3 slices per hop; four such
    ///   hops plus the 5-slice path stay inside the 20-slice deadline. This
    ///   is what caps the paper's slow aggregate (1000 / 20) at 60.
    /// - `k_bw_in = 3`: the same bound on what arrives, so a switch whose
    ///   input outruns its output is not flooded by one slice's decisions
    ///   taken on start-of-slice information.
    /// - `k_level = (1, 2, 3)`: the paper only says the coefficient grows
    ///   with the level; 1, 2, 3 are its levels, which makes
    ///   bw_in / (k·bw_out) about 1, 1/2 and 1/3 for balanced switches, so
    ///   a lower level weighs more and a switch whose output lags its input
    ///   weighs more still.
    /// - `k_diff = 1.1`, `p = 0.7`: two neighbours within 10% of each other
    ///   (the paper's 480 and 500) are nearly alike; taking the larger 70%
    ///   of the time still favours it while spreading a slice's burst.
    /// - `score = buffer`, `k_deg = 1`: the top-two rule is the paper's
    ///   main text; the `size` variation with exponent distance · 1.
    /// - `k_access_buff = 150`: the value the paper's own example implies
    ///   (Figure 3: deg 4, free 350 → 50 per aggregate). On the `paper`
    ///   preset's access buffers (400-800 messages) it binds only once an
    ///   access switch is 60-80 % full, several slices of its servers'
    ///   requests.
    pub const DEFAULT: GreedyParams = GreedyParams {
        step: 7,
        k_buffer: 1.0,
        k_bw_out: 3.0,
        k_bw_in: 3.0,
        k_level: [1.0, 2.0, 3.0],
        k_diff: 1.1,
        p: 0.7,
        score: Score::Buffer,
        k_deg: 1.0,
        k_access_buff: 150,
    };

    /// Step 3's limit of a switch with these parameters at `level`, before
    /// its occupancy is subtracted (`None` for access switches, which are
    /// not limited).
    pub fn limit(&self, level: Level, buffer: u32, bw_in: u32, bw_out: u32) -> Option<f64> {
        (level != Level::Access).then(|| {
            (self.k_buffer * buffer as f64)
                .min(self.k_bw_out * bw_out as f64)
                .min(self.k_bw_in * bw_in as f64)
        })
    }
}

/// Step 7's quota (the paper's `in_accept`): how many messages an access
/// switch with `free` free slots at the start of the slice takes from each
/// of its `deg` aggregate switches in the slice.
///
/// ```
/// use routelab::routing::fattree::in_accept;
/// // The paper's Figure 3: deg 4, free 100, 350, 500, 200.
/// let q: Vec<u32> = [100, 350, 500, 200].iter().map(|&f| in_accept(f, 150, 4)).collect();
/// assert_eq!(q, [0, 50, 87, 12]);
/// ```
pub fn in_accept(free: u32, k_access_buff: u32, deg: u32) -> u32 {
    free.saturating_sub(k_access_buff) / deg.max(1)
}

/// The parsed `fattree-greedy` spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedySpec {
    pub params: GreedyParams,
}

fn number(key: &str, v: &str, ok: impl Fn(f64) -> bool, accepted: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && ok(*x))
        .ok_or_else(|| format!("{key} `{v}`; accepted {accepted}"))
}

impl GreedySpec {
    /// Parse the options after `fattree-greedy`.
    pub fn parse(parts: &[&str]) -> Result<GreedySpec, String> {
        let mut p = GreedyParams::DEFAULT;
        let keys = [
            "step",
            "k_buffer",
            "k_bw_out",
            "k_bw_in",
            "k_level",
            "k_diff",
            "p",
            "score",
            "k_deg",
            "k_access_buff",
        ];
        for (k, v) in given_options("fattree-greedy", parts, &keys)? {
            match k {
                "step" => {
                    p.step = v
                        .parse::<u8>()
                        .ok()
                        .filter(|s| (1..=7).contains(s))
                        .ok_or_else(|| format!("step `{v}`; accepted 1..=7"))?
                }
                "k_buffer" => p.k_buffer = number(k, v, |x| x > 0.0, "a number > 0")?,
                "k_bw_out" => p.k_bw_out = number(k, v, |x| x > 0.0, "a number > 0")?,
                "k_bw_in" => p.k_bw_in = number(k, v, |x| x > 0.0, "a number > 0")?,
                "k_level" => {
                    let xs: Vec<f64> = v
                        .split(',')
                        .map(|x| x.trim().parse::<f64>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| {
                            format!("k_level `{v}`; accepted three numbers > 0 like 1,2,3")
                        })?;
                    match xs.as_slice() {
                        &[a, g, c] if [a, g, c].iter().all(|x| x.is_finite() && *x > 0.0) => {
                            p.k_level = [a, g, c]
                        }
                        _ => {
                            return Err(format!(
                                "k_level `{v}`; accepted three numbers > 0 (access, aggregate, core) like 1,2,3"
                            ));
                        }
                    }
                }
                "k_diff" => p.k_diff = number(k, v, |x| x >= 1.0, "a number >= 1")?,
                "p" => p.p = number(k, v, |x| (0.0..=1.0).contains(&x), "a number in 0..=1")?,
                "score" => {
                    p.score = match v {
                        "buffer" => Score::Buffer,
                        "size" => Score::Size,
                        _ => return Err(format!("score `{v}`; accepted buffer, size")),
                    }
                }
                "k_deg" => p.k_deg = number(k, v, |x| x >= 0.0, "a number >= 0")?,
                "k_access_buff" => {
                    p.k_access_buff = v
                        .parse::<u32>()
                        .map_err(|_| format!("k_access_buff `{v}`; accepted a whole number >= 0"))?
                }
                _ => {
                    return Err(format!(
                        "`fattree-greedy` takes no option `{k}`; accepted step, k_buffer, k_bw_out, k_bw_in, k_level, k_diff, p, score, k_deg, k_access_buff"
                    ));
                }
            }
        }
        Ok(GreedySpec { params: p })
    }

    /// The spec of step `step` with the default constants.
    pub fn step(step: u8) -> String {
        format!("fattree-greedy:step={step}")
    }
}

impl RoutingBuild for GreedySpec {
    fn canonical(&self) -> String {
        let (p, d) = (&self.params, &GreedyParams::DEFAULT);
        let mut s = format!("fattree-greedy:step={}", p.step);
        for (name, v, dv) in [
            ("k_buffer", p.k_buffer, d.k_buffer),
            ("k_bw_out", p.k_bw_out, d.k_bw_out),
            ("k_bw_in", p.k_bw_in, d.k_bw_in),
        ] {
            if v != dv {
                s.push_str(&format!(":{name}={v}"));
            }
        }
        if p.k_level != d.k_level {
            let [a, g, c] = p.k_level;
            s.push_str(&format!(":k_level={a},{g},{c}"));
        }
        for (name, v, dv) in [("k_diff", p.k_diff, d.k_diff), ("p", p.p, d.p)] {
            if v != dv {
                s.push_str(&format!(":{name}={v}"));
            }
        }
        if p.score == Score::Size {
            s.push_str(":score=size");
        }
        if p.k_deg != d.k_deg {
            s.push_str(&format!(":k_deg={}", p.k_deg));
        }
        if p.k_access_buff != d.k_access_buff {
            s.push_str(&format!(":k_access_buff={}", p.k_access_buff));
        }
        s
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        applies(net, "fattree-greedy").map(|_| ())
    }
    /// One virtual channel: the time-slice model has none.
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, _vcs: u8) -> Result<Box<dyn Routing>, String> {
        Ok(Box::new(Greedy::new(net, self.params)?))
    }
    /// The family: the seven steps, then the baselines ECMP, D-mod-k and
    /// DRILL.
    fn variants(&self, _net: &Network) -> Vec<String> {
        let mut v: Vec<String> = (1..=7).map(GreedySpec::step).collect();
        v.extend(["fattree-ecmp", "dmodk", "fattree-drill"].map(String::from));
        v
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn time_slice_only(&self) -> bool {
        true
    }
}

/// The balancer, built for one fat tree.
#[derive(Clone, Debug)]
pub struct Greedy {
    params: GreedyParams,
    name: String,
    t: FatTreeTable,
    /// Steps 4 and later.
    w: Option<WeightedDistances>,
    /// Step 3's limit per switch (infinite for access switches).
    limit: Vec<f64>,
    /// Per (switch, port), flat from `port_base[s]`: what the route loop
    /// reads of the switch behind the port.
    port_base: Vec<u32>,
    ports: Vec<PortInfo>,
}

/// The switch behind a port, as the route loop needs it.
#[derive(Clone, Copy, Debug)]
struct PortInfo {
    peer: SwitchId,
    /// Its buffer.
    cap: f64,
    /// Step 3's value before subtracting the occupancy: its limit, or its
    /// buffer for an access switch.
    limit: f64,
}

impl Greedy {
    pub fn new(net: &Network, params: GreedyParams) -> Result<Greedy, String> {
        let t = FatTreeTable::new(net, "fattree-greedy")?;
        let w = (params.step >= 4).then(|| WeightedDistances::new(&t, params.k_level));
        let limit: Vec<f64> = (0..t.num_switches as usize)
            .map(|s| {
                let p = t.params[s];
                params
                    .limit(t.level[s], p.buffer, p.bw_in, p.bw_out)
                    .unwrap_or(f64::INFINITY)
            })
            .collect();
        let (mut port_base, mut ports) = (Vec::new(), Vec::new());
        for s in 0..t.num_switches {
            port_base.push(ports.len() as u32);
            ports.extend(t.peers(s).iter().map(|&r| match t.params.get(r as usize) {
                Some(p) => PortInfo {
                    peer: r,
                    cap: p.buffer as f64,
                    limit: if limit[r as usize] == f64::INFINITY {
                        p.buffer as f64
                    } else {
                        limit[r as usize]
                    },
                },
                None => PortInfo {
                    peer: u32::MAX,
                    cap: 0.0,
                    limit: 0.0,
                },
            }));
        }
        Ok(Greedy {
            name: GreedySpec { params }.canonical(),
            params,
            t,
            w,
            limit,
            port_base,
            ports,
        })
    }

    /// Step 3's limit of every switch (`None` for access switches).
    pub fn limits(&self) -> Vec<Option<f64>> {
        self.limit
            .iter()
            .map(|&l| l.is_finite().then_some(l))
            .collect()
    }
}

impl Routing for Greedy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let (s, b) = (hop.at, hop.pkt.dst_switch);
        let p = &self.params;
        let t = &self.t;
        let mask = match &self.w {
            Some(w) => w.closer(t, s, b),
            None => t.closer(s, b),
        };
        if mask == 0 {
            return;
        }
        if p.step == 1 {
            let i = below(hop.rng, mask.count_ones());
            out.push(nth_bit(mask, i) as u16, 0, 0);
            return;
        }
        let limited = p.step >= 3;
        let size = p.step >= 6 && p.score == Score::Size;
        let base = self.port_base[s as usize] as usize;
        let ports = &self.ports[base..];
        // Score and port of the best and second best (NONE: none yet); ties
        // for the best are broken uniformly at random.
        const NONE: u16 = u16::MAX;
        let (mut b1, mut p1) = (f64::NEG_INFINITY, NONE);
        let (mut b2, mut p2) = (f64::NEG_INFINITY, NONE);
        let mut ties = 0u32;
        let mut m = mask;
        while m != 0 {
            let port = m.trailing_zeros() as u16;
            m &= m - 1;
            let Some(&PortInfo {
                peer: r,
                cap,
                limit,
            }) = ports.get(port as usize)
            else {
                continue;
            };
            let occ = match hop.view.occupancy(port) {
                Some(o) => o as f64,
                None => cap - hop.view.free_slots(port, 0) as f64,
            };
            let value = if limited { limit - occ } else { cap - occ };
            if limited && value <= 0.0 {
                continue;
            }
            let score = match (&self.w, size) {
                (Some(w), true) => {
                    let exp = t.distance(r, b) as f64 * p.k_deg;
                    value / libm::pow(w.distance(t, r, b) + 1.0, exp)
                }
                _ => value,
            };
            if p1 == NONE || score > b1 {
                (b2, p2) = (b1, p1);
                (b1, p1) = (score, port);
                ties = 1;
            } else if score == b1 {
                ties += 1;
                if below(hop.rng, ties) == 0 {
                    (b2, p2) = (b1, p1);
                    (b1, p1) = (score, port);
                } else if p2 == NONE || score > b2 {
                    (b2, p2) = (score, port);
                }
            } else if p2 == NONE || score > b2 {
                (b2, p2) = (score, port);
            }
        }
        if p1 == NONE {
            return; // step 3 and later: no neighbour with room; wait
        }
        let chosen = if p2 != NONE && p.step >= 6 && !size && b1 < p.k_diff * b2 {
            if unit(hop.rng) < p.p { p1 } else { p2 }
        } else {
            p1
        };
        out.push(chosen, 0, 0);
    }

    fn slice_policy(&self) -> Option<&dyn SlicePolicy> {
        Some(self)
    }
}

/// The paper's send order (steps 1-5) and access-buffer quota (step 7).
impl SlicePolicy for Greedy {
    /// Step 5: begin time first, then the larger remaining distance.
    fn send_key(
        &self,
        at: SwitchId,
        pkt: &PacketInfo,
        _state: &RouteState,
        gen_cycle: u64,
    ) -> Option<u64> {
        (self.params.step >= 5).then(|| {
            let d = self.t.distance(at, pkt.dst_switch).min(255) as u64;
            (gen_cycle << 8) | (255 - d)
        })
    }

    /// Steps 1-4 try a switch's messages in random order.
    fn shuffle_sends(&self) -> bool {
        self.params.step <= 4
    }

    /// Step 7: [`in_accept`] at access switches.
    fn neighbour_quota(&self, at: SwitchId, free: u32, neighbours: u32) -> Option<u32> {
        (self.params.step >= 7 && self.t.level.get(at as usize) == Some(&Level::Access))
            .then(|| in_accept(free, self.params.k_access_buff, neighbours))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_and_bad_options_are_named() {
        for s in [
            "fattree-greedy:step=7",
            "fattree-greedy:step=6:k_diff=1.25:p=0.5:score=size:k_deg=0.5",
            "fattree-greedy:step=4:k_bw_out=2.5:k_level=1,1.5,2",
            "fattree-greedy:step=7:k_access_buff=100",
        ] {
            let parts: Vec<&str> = s.split(':').skip(1).collect();
            assert_eq!(GreedySpec::parse(&parts).unwrap().canonical(), s);
        }
        // A default given explicitly is left out of the canonical form.
        let parts = ["step=7", "k_access_buff=150"];
        assert_eq!(
            GreedySpec::parse(&parts).unwrap().canonical(),
            "fattree-greedy:step=7"
        );
        for (opt, needle) in [
            ("step=8", "accepted 1..=7"),
            ("k_diff=0.5", "k_diff `0.5`; accepted a number >= 1"),
            ("k_level=1,2", "three numbers"),
            ("score=best", "accepted buffer, size"),
            ("k_access_buff=-1", "whole number"),
            (
                "zeta=1",
                "unknown option `zeta` for `fattree-greedy`; accepted step",
            ),
            ("p=2", "0..=1"),
        ] {
            let e = GreedySpec::parse(&[opt]).unwrap_err();
            assert!(e.contains(needle), "{opt}: {e}");
        }
    }

    /// The paper's Figure 3 through the routing's own hook: deg 4 and
    /// k_access_buff = 150.
    #[test]
    fn neighbour_quota_is_the_papers_in_accept() {
        let net = Network::from_spec("fattree:4").unwrap();
        let g = Greedy::new(&net, GreedyParams::DEFAULT).unwrap();
        let q: Vec<Option<u32>> = [100, 350, 500, 200]
            .iter()
            .map(|&f| g.neighbour_quota(0, f, 4))
            .collect();
        assert_eq!(q, [Some(0), Some(50), Some(87), Some(12)]);
        assert_eq!(g.neighbour_quota(8, 500, 4), None);
        let six = Greedy::new(
            &net,
            GreedyParams {
                step: 6,
                ..GreedyParams::DEFAULT
            },
        )
        .unwrap();
        assert_eq!(six.neighbour_quota(0, 500, 4), None);
    }
}
