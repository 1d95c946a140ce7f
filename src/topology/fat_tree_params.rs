//! Per-switch parameters of a fat tree for the time-slice model
//! (the weighted-path paper, "Analysis of the problem"): each switch has a
//! buffer of `buffer` messages (the paper's `buffer_size` capacity), takes in
//! at most `bw_in` messages per time slice and sends at most `bw_out`.
//!
//! They belong to the network description, in two places:
//! - the topology spec draws them per level from ranges with a seed of their
//!   own: `fattree:4:hetero=paper:seed=2`, with any range overridden, e.g.
//!   `fattree:4:hetero=paper:seed=2:aggregate_bw_out=30-60:weak_aggregates=0`
//!   ([`HeteroSpec`]);
//! - a scenario file may then set single switches ([`SwitchOverride`]).
//!
//! A fat tree without `hetero=` runs on the time-slice model with the
//! `equal` preset (every switch alike).
//!
//! Presets ([`PRESETS`]), all in messages and messages per slice:
//!
//! | preset | access buffer / bw_in / bw_out | aggregate | core | weak switches |
//! |---|---|---|---|---|
//! | `equal` | 600 / 80 / 80 | 600 / 80 / 80 | 600 / 80 / 80 | none |
//! | `paper` | 400-800 / 60-100 / 60-100 | 300-1000 / 40-100 / 40-100 | 200-1000 / 40-100 / 40-100 | ⌈k/4⌉ slow aggregates (1000 / 60 / 20), ⌈k/4⌉ small cores (100 / 60 / 60) |
//!
//! `paper`'s slow aggregate is the paper's own example ("an aggregate switch
//! with a buffer_size of 1000 and bw_out of 20": a message entering it may
//! wait buffer/bw_out = 50 slices); its small core is the other kind of weak
//! switch it discusses (little room, fast output). The other ranges put the
//! paper's other figures (free space 100-500 in its Figures 2 and 3) inside
//! the buffers' range and make bw_out 20 "very small" next to its
//! neighbours', as the paper says.
//!
//! Numbering: routelab numbers switches access `0..k²/2`, aggregate
//! `k²/2..k²`, core `k²..k²+k²/4`, and servers (hosts) apart from 0. The
//! paper's Figure 1 numbers servers first: its node `n` is server `n` for
//! `n < N` (N = k³/4 servers) and switch `n - N` otherwise; so its path
//! `18 - 26 - 33 - 28 - 20 - 9` is switches 2, 10, 17, 12, 4 then server 9
//! ([`paper_node`]).

use super::{Network, Shape};
use crate::rng::{SimRng, Stream, below, stream};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One switch's time-slice parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchParams {
    /// Buffer capacity in messages (the paper's `buffer_size`).
    pub buffer: u32,
    /// Messages it can receive per time slice (`bw_in`).
    pub bw_in: u32,
    /// Messages it can send per time slice (`bw_out`).
    pub bw_out: u32,
}

/// A switch's level in the fat tree (the paper's `level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Level 1: access (edge) switch, with servers below it.
    Access = 1,
    /// Level 2: aggregate switch.
    Aggregate = 2,
    /// Level 3: core switch.
    Core = 3,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Access, Level::Aggregate, Level::Core];
    pub fn name(self) -> &'static str {
        match self {
            Level::Access => "access",
            Level::Aggregate => "aggregate",
            Level::Core => "core",
        }
    }
    /// The level of switch `s` in `fattree:k`.
    pub fn of(k: u32, s: u32) -> Level {
        let access = k * k / 2;
        if s < access {
            Level::Access
        } else if s < 2 * access {
            Level::Aggregate
        } else {
            Level::Core
        }
    }
}

/// The paper's node number of a routelab node in `fattree:k` (servers
/// first, then access, aggregate and core switches): `Ok(host)` for a
/// server, `Err(switch)` for a switch.
pub fn paper_node(k: u32, node: u32) -> Result<u32, u32> {
    let servers = k * k * k / 4;
    if node < servers {
        Ok(node)
    } else {
        Err(node - servers)
    }
}

/// An inclusive range of whole numbers, `LO-HI` or `V` in a spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: u32,
    pub hi: u32,
}

impl Range {
    const fn new(lo: u32, hi: u32) -> Range {
        Range { lo, hi }
    }
    fn draw(self, rng: &mut SimRng) -> u32 {
        self.lo + below(rng, self.hi - self.lo + 1)
    }
    fn parse(v: &str) -> Option<Range> {
        let (lo, hi) = match v.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let x = v.trim().parse().ok()?;
                (x, x)
            }
        };
        (1 <= lo && lo <= hi && hi <= MAX_VALUE).then_some(Range { lo, hi })
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}-{}", self.lo, self.hi)
        }
    }
}

/// Largest buffer or bandwidth accepted (messages, messages per slice).
pub const MAX_VALUE: u32 = 1_000_000;

/// The ranges of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelRanges {
    pub buffer: Range,
    pub bw_in: Range,
    pub bw_out: Range,
}

/// A named set of ranges and weak switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    pub summary: &'static str,
    /// Access, aggregate, core.
    pub levels: [LevelRanges; 3],
    /// Whether it has weak switches (then ⌈k/4⌉ of each kind by default).
    pub weak: bool,
}

const fn lr(buffer: (u32, u32), bw_in: (u32, u32), bw_out: (u32, u32)) -> LevelRanges {
    LevelRanges {
        buffer: Range::new(buffer.0, buffer.1),
        bw_in: Range::new(bw_in.0, bw_in.1),
        bw_out: Range::new(bw_out.0, bw_out.1),
    }
}

/// Every preset, `equal` first (the default).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "equal",
        summary: "every switch alike: buffer 600, bw_in 80, bw_out 80",
        levels: [
            lr((600, 600), (80, 80), (80, 80)),
            lr((600, 600), (80, 80), (80, 80)),
            lr((600, 600), (80, 80), (80, 80)),
        ],
        weak: false,
    },
    Preset {
        name: "paper",
        summary: "unlike switches drawn per level, with slow aggregates (1000/60/20) and small cores (100/60/60)",
        levels: [
            lr((400, 800), (60, 100), (60, 100)),
            lr((300, 1000), (40, 100), (40, 100)),
            lr((200, 1000), (40, 100), (40, 100)),
        ],
        weak: true,
    },
];

/// The paper's slow aggregate switch: buffer 1000, bw_out 20.
pub const SLOW_AGGREGATE: SwitchParams = SwitchParams {
    buffer: 1000,
    bw_in: 60,
    bw_out: 20,
};
/// A core switch with little room and fast output.
pub const SMALL_CORE: SwitchParams = SwitchParams {
    buffer: 100,
    bw_in: 60,
    bw_out: 60,
};

/// The fields a spec may override, in canonical order.
const RANGE_KEYS: [(&str, Level, usize); 9] = [
    ("access_buffer", Level::Access, 0),
    ("access_bw_in", Level::Access, 1),
    ("access_bw_out", Level::Access, 2),
    ("aggregate_buffer", Level::Aggregate, 0),
    ("aggregate_bw_in", Level::Aggregate, 1),
    ("aggregate_bw_out", Level::Aggregate, 2),
    ("core_buffer", Level::Core, 0),
    ("core_bw_in", Level::Core, 1),
    ("core_bw_out", Level::Core, 2),
];

/// Every option of `fattree:K:...` (all about the switches), in canonical
/// order.
pub const HETERO_KEYS: [&str; 13] = [
    "hetero",
    "seed",
    "access_buffer",
    "access_bw_in",
    "access_bw_out",
    "aggregate_buffer",
    "aggregate_bw_in",
    "aggregate_bw_out",
    "core_buffer",
    "core_bw_in",
    "core_bw_out",
    "weak_aggregates",
    "weak_cores",
];

/// The accepted fat-tree options, for errors and help.
pub const ACCEPTED: &str = "fattree:K[:hetero=equal|paper][:seed=S][:LEVEL_FIELD=LO-HI]\
[:weak_aggregates=N][:weak_cores=N] with LEVEL access|aggregate|core and FIELD \
buffer|bw_in|bw_out";

/// How the switches of a fat tree are drawn: a preset, a seed and
/// overrides, as the topology spec gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeteroSpec {
    pub preset: &'static Preset,
    /// The switches' own seed (not the scenario's).
    pub seed: u64,
    /// Overridden ranges as (index in the canonical key list, range).
    pub ranges: Vec<(usize, Range)>,
    pub weak_aggregates: Option<u32>,
    pub weak_cores: Option<u32>,
}

impl HeteroSpec {
    /// Parse the options of `fattree:K:...` that are about switches (every
    /// one of them; none other is accepted on a fat tree). `None` when no
    /// option is given (a plain `fattree:K`).
    pub fn parse(opts: &[(&str, &str)]) -> Result<Option<HeteroSpec>, String> {
        if opts.is_empty() {
            return Ok(None);
        }
        let mut spec = HeteroSpec {
            preset: &PRESETS[0],
            seed: 1,
            ranges: Vec::new(),
            weak_aggregates: None,
            weak_cores: None,
        };
        for &(k, v) in opts {
            match k {
                "hetero" => {
                    spec.preset = PRESETS.iter().find(|p| p.name == v).ok_or_else(|| {
                        format!(
                            "hetero `{v}`; accepted {}",
                            PRESETS
                                .iter()
                                .map(|p| p.name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })?
                }
                "seed" => {
                    spec.seed = v
                        .parse()
                        .map_err(|_| format!("seed `{v}` is not a whole number"))?
                }
                "weak_aggregates" | "weak_cores" => {
                    let n: u32 = v
                        .parse()
                        .map_err(|_| format!("{k} `{v}` is not a whole number"))?;
                    if k == "weak_aggregates" {
                        spec.weak_aggregates = Some(n);
                    } else {
                        spec.weak_cores = Some(n);
                    }
                }
                _ => {
                    let i = RANGE_KEYS
                        .iter()
                        .position(|(name, ..)| *name == k)
                        .ok_or_else(|| format!("unknown option `{k}` for `fattree`"))?;
                    let r = Range::parse(v).ok_or_else(|| {
                        format!("{k} `{v}`; accepted LO-HI or V with 1 <= LO <= HI <= {MAX_VALUE}")
                    })?;
                    spec.ranges.retain(|(j, _)| *j != i);
                    spec.ranges.push((i, r));
                }
            }
        }
        spec.ranges.sort_by_key(|(i, _)| *i);
        Ok(Some(spec))
    }

    /// Check against `k` (weak switches must fit in their level).
    pub fn check(&self, k: u32) -> Result<(), String> {
        let per_level = k * k / 2;
        if let Some(n) = self.weak_aggregates
            && n > per_level
        {
            return Err(format!(
                "weak_aggregates={n}; fattree:{k} has {per_level} aggregate switches"
            ));
        }
        if let Some(n) = self.weak_cores
            && n > per_level / 2
        {
            return Err(format!(
                "weak_cores={n}; fattree:{k} has {} core switches",
                per_level / 2
            ));
        }
        Ok(())
    }

    /// The ranges in force per level (preset, then overrides).
    pub fn levels(&self) -> [LevelRanges; 3] {
        let mut levels = self.preset.levels;
        for &(i, r) in &self.ranges {
            let (_, level, field) = RANGE_KEYS[i];
            let l = &mut levels[level as usize - 1];
            match field {
                0 => l.buffer = r,
                1 => l.bw_in = r,
                _ => l.bw_out = r,
            }
        }
        levels
    }

    /// Weak aggregates and weak cores on `fattree:k`.
    pub fn weak_counts(&self, k: u32) -> (u32, u32) {
        let default = if self.preset.weak { k.div_ceil(4) } else { 0 };
        (
            self.weak_aggregates.unwrap_or(default),
            self.weak_cores.unwrap_or(default),
        )
    }

    /// Draw every switch of `fattree:k`: each field uniformly in its
    /// level's range (switches in id order, buffer then bw_in then bw_out),
    /// then the weak switches, distinct and chosen uniformly in their level.
    pub fn draw(&self, k: u32) -> Vec<SwitchParams> {
        let mut rng = stream(self.seed, Stream::Topology);
        let levels = self.levels();
        let n = k * k + k * k / 4;
        let mut out: Vec<SwitchParams> = (0..n)
            .map(|s| {
                let l = levels[Level::of(k, s) as usize - 1];
                let buffer = l.buffer.draw(&mut rng);
                let bw_in = l.bw_in.draw(&mut rng);
                let bw_out = l.bw_out.draw(&mut rng);
                SwitchParams {
                    buffer,
                    bw_in,
                    bw_out,
                }
            })
            .collect();
        let (wa, wc) = self.weak_counts(k);
        let half = k * k / 2;
        for (first, count, total, params) in [
            (half, wa, half, SLOW_AGGREGATE),
            (k * k, wc, half / 2, SMALL_CORE),
        ] {
            let mut ids: Vec<u32> = (first..first + total).collect();
            for i in 0..count.min(total) as usize {
                let j = i + below(&mut rng, (ids.len() - i) as u32) as usize;
                ids.swap(i, j);
                out[ids[i] as usize] = params;
            }
        }
        out
    }
}

impl fmt::Display for HeteroSpec {
    /// The canonical options, e.g. `hetero=paper:seed=2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hetero={}:seed={}", self.preset.name, self.seed)?;
        for &(i, r) in &self.ranges {
            write!(f, ":{}={r}", RANGE_KEYS[i].0)?;
        }
        if let Some(n) = self.weak_aggregates {
            write!(f, ":weak_aggregates={n}")?;
        }
        if let Some(n) = self.weak_cores {
            write!(f, ":weak_cores={n}")?;
        }
        Ok(())
    }
}

/// One switch set by hand in a scenario file (`"switches": [...]`); the
/// fields left out keep the drawn values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchOverride {
    /// routelab switch id (access `0..k²/2`, aggregate, then core).
    pub switch: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw_in: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw_out: Option<u32>,
}

/// The fat tree's `k`, if `net` is one.
pub fn fat_tree_k(net: &Network) -> Option<u32> {
    match net.shape() {
        Shape::FatTree { k } => Some(*k),
        _ => None,
    }
}

/// Every switch's parameters on `net`: the ones it was built or set with,
/// else the `equal` preset's. `None` when `net` is not a fat tree.
pub fn params_of(net: &Network) -> Option<Vec<SwitchParams>> {
    let k = fat_tree_k(net)?;
    Some(match net.switch_params() {
        Some(p) => p.to_vec(),
        None => equal(k),
    })
}

/// Every switch of `fattree:k` with the `equal` preset's values.
pub fn equal(k: u32) -> Vec<SwitchParams> {
    let l = PRESETS[0].levels[0];
    vec![
        SwitchParams {
            buffer: l.buffer.lo,
            bw_in: l.bw_in.lo,
            bw_out: l.bw_out.lo,
        };
        (k * k + k * k / 4) as usize
    ]
}

/// Apply a scenario's per-switch overrides to `net`; every bad entry is
/// named.
pub fn apply_overrides(net: &mut Network, list: &[SwitchOverride]) -> Result<(), Vec<String>> {
    if list.is_empty() {
        return Ok(());
    }
    let Some(mut params) = params_of(net) else {
        return Err(vec![format!(
            "switches: per-switch parameters need a fattree topology (got {})",
            net.spec()
        )]);
    };
    let mut problems = Vec::new();
    for (i, o) in list.iter().enumerate() {
        let Some(p) = params.get_mut(o.switch as usize) else {
            problems.push(format!(
                "switches[{i}]: switch {}; accepted 0..{} on {}",
                o.switch,
                params.len(),
                net.spec()
            ));
            continue;
        };
        for (name, v, field) in [
            ("buffer", o.buffer, &mut p.buffer),
            ("bw_in", o.bw_in, &mut p.bw_in),
            ("bw_out", o.bw_out, &mut p.bw_out),
        ] {
            match v {
                Some(v) if (1..=MAX_VALUE).contains(&v) => *field = v,
                Some(v) => problems.push(format!(
                    "switches[{i}].{name} = {v}; accepted 1..={MAX_VALUE}"
                )),
                None => {}
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    net.set_switch_params(params);
    Ok(())
}

impl Network {
    /// The per-switch time-slice parameters this network was built or set
    /// with, if any (see [`params_of`] for the defaults).
    pub fn switch_params(&self) -> Option<&[SwitchParams]> {
        self.switch_params.as_deref()
    }
    /// Set every switch's time-slice parameters (one entry per switch).
    pub fn set_switch_params(&mut self, params: Vec<SwitchParams>) {
        debug_assert_eq!(params.len(), self.num_switches());
        self.switch_params = Some(params);
    }
}

/// Expected messages per slice through each switch of `fattree:k` when
/// every server sends `lambda` requests per slice to uniformly drawn other
/// servers and every switch spreads its traffic uniformly over the next
/// hops that bring it closer (the paper's step 1): messages received per
/// slice, which equal the messages sent in steady state.
pub fn uniform_load(k: u32, lambda: f64) -> Vec<f64> {
    let h = k as f64 / 2.0;
    let n = k as f64 * h * h; // servers
    let others = (n - 1.0).max(1.0);
    let pod = h * h; // servers per pod
    // Fractions of a server's requests: to another access switch, and to
    // another pod.
    let leave_access = (n - h) / others;
    let leave_pod = (n - pod) / others;
    let access = h * lambda + h * lambda * leave_access;
    // Each aggregate takes 1/h of its pod's outgoing and incoming traffic.
    let aggregate = pod * lambda * leave_access / h + pod * lambda * leave_pod / h;
    let core = n * lambda * leave_pod / (h * h);
    let half = (k * k / 2) as usize;
    let mut out = vec![access; half];
    out.extend(std::iter::repeat_n(aggregate, half));
    out.extend(std::iter::repeat_n(core, half / 2));
    out
}

/// ρ of `params` on `fattree:k` at `lambda` requests per server per slice:
/// the largest expected load of a switch ([`uniform_load`]) over its
/// min(bw_in, bw_out).
pub fn rho(k: u32, params: &[SwitchParams], lambda: f64) -> f64 {
    uniform_load(k, lambda)
        .iter()
        .zip(params)
        .map(|(l, p)| l / p.bw_in.min(p.bw_out).max(1) as f64)
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> HeteroSpec {
        let opts: Vec<(&str, &str)> = s.split(':').map(|p| p.split_once('=').unwrap()).collect();
        HeteroSpec::parse(&opts).unwrap().unwrap()
    }

    #[test]
    fn draws_are_in_range_and_seeded() {
        let a = parse("hetero=paper:seed=2");
        let b = parse("hetero=paper:seed=3");
        let (pa, pb) = (a.draw(4), b.draw(4));
        assert_eq!(pa, parse("hetero=paper:seed=2").draw(4));
        assert_ne!(pa, pb);
        assert_eq!(pa.len(), 20);
        let levels = a.levels();
        let (mut slow, mut small) = (0, 0);
        for (s, p) in pa.iter().enumerate() {
            if *p == SLOW_AGGREGATE {
                slow += 1;
                assert_eq!(Level::of(4, s as u32), Level::Aggregate);
                continue;
            }
            if *p == SMALL_CORE {
                small += 1;
                assert_eq!(Level::of(4, s as u32), Level::Core);
                continue;
            }
            let l = levels[Level::of(4, s as u32) as usize - 1];
            assert!((l.buffer.lo..=l.buffer.hi).contains(&p.buffer));
            assert!((l.bw_in.lo..=l.bw_in.hi).contains(&p.bw_in));
            assert!((l.bw_out.lo..=l.bw_out.hi).contains(&p.bw_out));
        }
        assert_eq!((slow, small), (1, 1));
    }

    #[test]
    fn overrides_print_canonically() {
        let s = parse("core_bw_out=7:hetero=paper:access_buffer=100-200:weak_cores=0");
        assert_eq!(
            s.to_string(),
            "hetero=paper:seed=1:access_buffer=100-200:core_bw_out=7:weak_cores=0"
        );
        let l = s.levels();
        assert_eq!(l[0].buffer, Range { lo: 100, hi: 200 });
        assert_eq!(l[2].bw_out, Range { lo: 7, hi: 7 });
        assert_eq!(s.weak_counts(8), (2, 0));
    }

    #[test]
    fn bad_options_name_the_field() {
        for (opts, needle) in [
            (vec![("hetero", "wild")], "accepted equal, paper"),
            (vec![("access_buffer", "9-3")], "LO-HI"),
            (vec![("core_bw_in", "0")], "1 <= LO"),
            (vec![("colour", "red")], "unknown option `colour`"),
            (vec![("seed", "x")], "seed"),
        ] {
            let e = HeteroSpec::parse(&opts).unwrap_err();
            assert!(e.contains(needle), "{opts:?}: {e}");
        }
    }

    /// k=4, λ=1: an access switch takes 2 requests from its servers and
    /// 2·14/15 for them; an aggregate 4·14/15/2 up plus 4·12/15/2 down; a
    /// core 16·12/15/4.
    #[test]
    fn uniform_load_by_hand() {
        let l = uniform_load(4, 1.0);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(l[0], 2.0 + 28.0 / 15.0));
        assert!(close(l[8], 28.0 / 15.0 + 24.0 / 15.0));
        assert!(close(l[16], 16.0 * 12.0 / 15.0 / 4.0));
        let p = equal(4);
        assert!(close(rho(4, &p, 1.0), (2.0 + 28.0 / 15.0) / 80.0));
    }

    #[test]
    fn paper_numbering() {
        assert_eq!(paper_node(4, 9), Ok(9));
        assert_eq!(paper_node(4, 18), Err(2));
        assert_eq!(paper_node(4, 33), Err(17));
    }
}
