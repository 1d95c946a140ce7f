//! The dragonfly (Kim, Dally, Scott and Abts, "Technology-Driven, Highly
//! Scalable Dragonfly Topology", ISCA 2008, §3): groups of `a` routers,
//! every group a clique of *local* channels, every router with `p` hosts
//! and `h` *global* channels to other groups; at most `g = a·h + 1` groups,
//! and then exactly one global channel joins every pair of groups (§3.1).
//! The *balanced* dragonfly (§3.1) has `a = 2p = 2h`: `dragonfly:p=2` is
//! `dragonfly:p=2:a=4:h=2` (g = 9, 36 routers, 72 hosts).
//!
//! **Numbering.** Router `r` of group `i` is switch `i·a + r`. Its ports:
//! `0..a-1` local, port `q` leading to router `q` of its group when
//! `q < r` and to router `q + 1` otherwise (BookSim2's order); then `h`
//! global ports `a-1 .. a-1+h`; then its `p` hosts (host `s·p + x` is host
//! `x` of switch `s`, so group `i` holds hosts `i·a·p .. (i+1)·a·p`).
//!
//! **Global arrangement** (which router port of a group carries the link
//! to which other group). Group `i` has `m = a·h` *group ports*; group port
//! `j` is global port `j mod h` of router `j / h`. The arrangements order a
//! group's links to the other groups and give the j-th of them port j:
//! - `consecutive` (the default, and BookSim2's `dragonflynew`,
//!   `src/networks/dragonfly.cpp`, and Camarero et al.'s "consecutive"
//!   arrangement): by the other group's number, so with one link per pair
//!   group port `j` goes to group `j` when `j < i` and to `j + 1`
//!   otherwise;
//! - `palmtree` (García's arrangement, as in CAMINOS): by the offset
//!   `(i - T - 1) mod g` of the other group `T`, so group port `j` goes to
//!   group `i - j - 1 (mod g)` and arrives there on group port `m - 1 - j`;
//! - `random:seed=S`: the consecutive order shuffled by a `Pcg64Mcg`
//!   seeded with `S` (Fisher-Yates from the last place down), per group in
//!   group order: which router holds which link is random; how many links
//!   join each pair is the rule below.
//!
//! **Fewer groups** (`g < a·h + 1`, §3.1's smaller configurations): the
//! `L = ⌊g·m/2⌋` global links are spread as evenly as possible over the
//! `g(g-1)/2` pairs of groups: every pair gets `b = ⌊m/(g-1)⌋` links, and
//! the `r = m mod (g-1)` ports a group has left join the pairs of a
//! circulant: groups `i` and `i ± δ` for `δ = 1..⌊r/2⌋`, and, when `r` is
//! odd, `i` and `i + g/2` (even `g`) or a maximum matching of the cycle of
//! step `(g-1)/2` (odd `g`: one group then keeps one global port
//! unconnected, as `g·m` is odd). Pairs so get `b` or `b + 1` links. A
//! pair's second and later links come after every group's first in the
//! port order (the sort key is the copy number, then the arrangement's
//! order).
//!
//! **Channel latency per class** (`:host=H:local=L:global=G`, §3's long
//! global cables): parsed and checked, but the simulator gives every
//! channel the router's one link latency (`RouterConfig`), so a value other
//! than 1 is refused, saying so.
//!
//! [`DragonflyWiring`] is the one place that reads groups, routers and the
//! global links back from a built network; the dragonfly's routings, its
//! adversarial traffic and the analysis use it.

use super::kind::{TopologyBuild, TopologyKind, TopologyParam, size_of};
use super::spec_parts::{invalid, option_error};
use super::{Network, NetworkBuilder, Peer, PortId, Shape, SwitchId, TopologyError, layout};
use crate::limits::{self, NetworkSize};
use crate::spec_options::Spec;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// How a group's global links are laid on its routers' global ports
/// (module docs).
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arrangement {
    /// BookSim2's `dragonflynew`: links in the order of the other group's
    /// number (Camarero, Vallejo and Beivide's "consecutive").
    Consecutive,
    /// García's palm tree: links in the order of the offset to the other
    /// group.
    Palmtree,
    /// The consecutive order shuffled with a seed.
    Random,
}

crate::spec_options::keyword_enum!(Arrangement, Display);

/// The accepted spec form, as errors and help quote it.
const FORM: &str = "dragonfly:p=P[:a=A][:h=H][:g=G] (p, h >= 1, a >= 1, 2 <= g <= a*h+1)\
[:arrangement=consecutive|palmtree|random[:seed=S]]";

const KEYS: &[&str] = &[
    "p",
    "a",
    "h",
    "g",
    "arrangement",
    "seed",
    "host",
    "local",
    "global",
];

const PARAMS: &[TopologyParam] = &[
    TopologyParam {
        key: "p",
        accepted: "1..=64",
        default: "",
        meaning: "hosts per router (Kim et al.'s p)",
    },
    TopologyParam {
        key: "a",
        accepted: "1..=255, with a-1+h+p ports per router at most 255",
        default: "2h",
        meaning: "routers per group, a clique of local channels",
    },
    TopologyParam {
        key: "h",
        accepted: "1..=255",
        default: "p",
        meaning: "global channels per router",
    },
    TopologyParam {
        key: "g",
        accepted: "2..=a*h+1",
        default: "a*h+1 (one global channel between every pair of groups)",
        meaning: "groups",
    },
    TopologyParam {
        key: "arrangement",
        accepted: "consecutive, palmtree, random",
        default: "consecutive (BookSim2's dragonflynew)",
        meaning: "which router port carries the link to which group",
    },
    TopologyParam {
        key: "seed",
        accepted: "a whole number (arrangement=random only)",
        default: "1",
        meaning: "the random arrangement's seed",
    },
    TopologyParam {
        key: "host, local, global",
        accepted: "1 (per-class channel latency is not simulated yet)",
        default: "1",
        meaning: "cycles on host, local and global channels",
    },
];

/// `dragonfly:p=P[:a=A][:h=H][:g=G]`.
pub const KIND: TopologyKind = TopologyKind {
    name: "dragonfly",
    aliases: &[],
    form: FORM,
    summary: "groups of a fully connected routers joined by global channels (Kim et al., ISCA 2008)",
    params: PARAMS,
    example: "dragonfly:p=2",
    from_file: false,
    contrasts: &["min", "val", "ugal-l", "ugal-g", "par"],
    parse,
};

/// A parsed dragonfly spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DragonflySpec {
    p: u32,
    a: u32,
    h: u32,
    g: u32,
    arrangement: Arrangement,
    seed: u64,
}

fn parse(spec: &str) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    let opts = Spec::split(spec)
        .options(0, KEYS)
        .map_err(|e| invalid(spec, e.to_string()))?;
    let e = option_error(spec);
    let p = opts
        .u32("p", limits::HOSTS_PER_SWITCH)
        .map_err(&e)?
        .ok_or_else(|| {
            invalid(
                spec,
                "`dragonfly` needs p= (hosts per router, 1..=64); `dragonfly:p=2` is the balanced a=2p=2h",
            )
        })?;
    let max_ports = limits::MAX_PORTS as u32;
    let h = opts.u32("h", 1..=max_ports).map_err(&e)?.unwrap_or(p);
    let a = opts.u32("a", 1..=max_ports).map_err(&e)?.unwrap_or(2 * h);
    let ports = (a - 1) as u64 + h as u64 + p as u64;
    if ports > limits::MAX_PORTS {
        return Err(invalid(
            spec,
            format!(
                "a-1+h+p = {ports} ports per router; at most {}",
                limits::MAX_PORTS
            ),
        ));
    }
    let most = a as u64 * h as u64 + 1;
    let g = match opts.get("g") {
        None => most,
        Some(_) => opts
            .u64("g", 2..=most)
            .map_err(|_| {
                invalid(
                    spec,
                    format!(
                        "g `{}`; accepted a whole number in 2..={most} (a*h+1: each of a*h group ports reaches another group)",
                        opts.get("g").unwrap_or_default()
                    ),
                )
            })?
            .unwrap_or(most),
    };
    if g > limits::MAX_SWITCHES {
        return Err(invalid(
            spec,
            format!("{g} groups; at most {} switches", limits::MAX_SWITCHES),
        ));
    }
    let arrangement = opts
        .keyword::<Arrangement>("arrangement")
        .map_err(&e)?
        .unwrap_or(Arrangement::Consecutive);
    let seed = opts.u64("seed", 0..=u64::MAX).map_err(&e)?;
    if seed.is_some() && arrangement != Arrangement::Random {
        return Err(invalid(
            spec,
            "seed= draws the random arrangement; accepted with arrangement=random only",
        ));
    }
    for key in ["host", "local", "global"] {
        if let Some(l) = opts.u32(key, 1..=1_000_000).map_err(&e)?
            && l != 1
        {
            return Err(invalid(
                spec,
                format!(
                    "{key}={l}: the simulator gives every channel the router's one link latency, \
                     so per-class latency is not simulated yet; accepted {key}=1"
                ),
            ));
        }
    }
    Ok(Box::new(DragonflySpec {
        p,
        a,
        h,
        g: g as u32,
        arrangement,
        seed: seed.unwrap_or(1),
    }))
}

impl TopologyBuild for DragonflySpec {
    fn canonical(&self) -> String {
        let mut s = format!("dragonfly:p={}:a={}:h={}", self.p, self.a, self.h);
        if self.g != self.a * self.h + 1 {
            s += &format!(":g={}", self.g);
        }
        match self.arrangement {
            Arrangement::Consecutive => {}
            Arrangement::Palmtree => s += ":arrangement=palmtree",
            Arrangement::Random => s += &format!(":arrangement=random:seed={}", self.seed),
        }
        s
    }
    fn size(&self) -> Option<NetworkSize> {
        let (a, h, g) = (self.a as u64, self.h as u64, self.g as u64);
        let switches = a.saturating_mul(g);
        let local = g.saturating_mul(a.saturating_mul(a.saturating_sub(1)));
        // ⌊g·a·h/2⌋ global links, two channels each.
        let global = (g.saturating_mul(a).saturating_mul(h) / 2).saturating_mul(2);
        Some(size_of(
            switches,
            self.p as u64,
            local.saturating_add(global),
            a - 1 + h,
        ))
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        Ok(build(spec, self))
    }
}

/// How many global links join groups `i` and `t` (module docs: `b` each,
/// plus one on the pairs of the circulant of the `r` ports left).
fn links_between(g: u32, m: u32, i: u32, t: u32) -> u32 {
    let b = m / (g - 1);
    let r = m % (g - 1);
    let step = (t + g - i) % g;
    let delta = step.min(g - step);
    let extra = if delta <= r / 2 {
        true
    } else if r.is_multiple_of(2) {
        false
    } else if g.is_multiple_of(2) {
        delta == g / 2
    } else {
        // The cycle of step (g-1)/2 visits group k·(g-1)/2 mod g k-th; the
        // inverse of (g-1)/2 mod g is g-2. Its edges (2u, 2u+1), u <
        // (g-1)/2, match every group but the last one visited.
        let at = |x: u32| (x as u64 * (g as u64 - 2) % g as u64) as u32;
        let (lo, hi) = (at(i).min(at(t)), at(i).max(at(t)));
        lo.is_multiple_of(2) && hi == lo + 1 && hi < g - 1
    };
    b + extra as u32
}

fn build(spec: String, d: &DragonflySpec) -> Network {
    let (p, a, h, g) = (d.p, d.a, d.h, d.g);
    let m = a * h;
    let n = (a * g) as usize;
    let mut b = NetworkBuilder::new(n);
    for s in 0..n as SwitchId {
        b.reserve_ports(s, (a - 1 + h) as usize);
    }
    // Local channels: a clique per group.
    for i in 0..g {
        for r in 0..a {
            for t in r + 1..a {
                b.link_ports(i * a + r, (t - 1) as PortId, i * a + t, r as PortId);
            }
        }
    }
    // Global channels: each group's link ends in the arrangement's order.
    let mut rng = Pcg64Mcg::seed_from_u64(d.seed);
    // port_of[i][(t, copy)] as a flat vector per group: (t, copy, group port).
    let mut ends: Vec<Vec<(u32, u32)>> = Vec::with_capacity(g as usize);
    for i in 0..g {
        let mut list: Vec<(u32, u32)> = Vec::with_capacity(m as usize);
        for t in (0..g).filter(|&t| t != i) {
            for copy in 0..links_between(g, m, i, t) {
                list.push((t, copy));
            }
        }
        match d.arrangement {
            Arrangement::Consecutive => list.sort_by_key(|&(t, copy)| (copy, t)),
            Arrangement::Palmtree => list.sort_by_key(|&(t, copy)| (copy, (i + g - t - 1) % g)),
            Arrangement::Random => {
                list.sort_by_key(|&(t, copy)| (copy, t));
                for k in (1..list.len()).rev() {
                    let j = crate::rng::below(&mut rng, k as u32 + 1) as usize;
                    list.swap(k, j);
                }
            }
        }
        ends.push(list);
    }
    let port_of = |i: u32, t: u32, copy: u32| -> (SwitchId, PortId) {
        let j = ends[i as usize]
            .iter()
            .position(|&e| e == (t, copy))
            .unwrap_or(0) as u32;
        (i * a + j / h, (a - 1 + j % h) as PortId)
    };
    for i in 0..g {
        for &(t, copy) in &ends[i as usize] {
            if i < t {
                let (s, ps) = port_of(i, t, copy);
                let (u, pu) = port_of(t, i, copy);
                b.link_ports(s, ps, u, pu);
            }
        }
    }
    b.hosts_per_switch(p as usize);
    let pos = positions(a, g);
    b.finish(spec, Shape::Dragonfly { p, a, h, g }, pos)
}

/// Groups evenly round a circle, each group's routers on a small circle
/// round its centre (first group at the top).
fn positions(a: u32, g: u32) -> Vec<[f32; 2]> {
    let inner = (a as f32 / std::f32::consts::TAU).max(0.5);
    let spacing = 2.0 * inner + 1.5;
    let outer = (g as f32 * spacing / std::f32::consts::TAU).max(inner + 1.0);
    let centres = layout::circle(g as usize, outer);
    let routers = layout::circle(a as usize, if a > 1 { inner } else { 0.0 });
    centres
        .iter()
        .flat_map(|c| routers.iter().map(move |r| [c[0] + r[0], c[1] + r[1]]))
        .collect()
}

/// One global link as a routing sees it: the router and port it leaves
/// from, and the router it arrives at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalLink {
    pub from: SwitchId,
    pub port: PortId,
    pub to: SwitchId,
}

/// A dragonfly's groups and global links read back from a built network
/// (any arrangement): what the routings, the adversarial traffic and the
/// analysis ask of it.
#[derive(Clone, Debug)]
pub struct DragonflyWiring {
    pub p: u32,
    pub a: u32,
    pub h: u32,
    pub g: u32,
    /// `links[i·g + t]`: the global links from group `i` to group `t`, in
    /// port order (lowest switch, then port).
    links: Vec<Vec<GlobalLink>>,
}

impl DragonflyWiring {
    /// The wiring of a dragonfly network; `None` for any other shape.
    pub fn of(net: &Network) -> Option<DragonflyWiring> {
        let Shape::Dragonfly { p, a, h, g } = *net.shape() else {
            return None;
        };
        let mut links = vec![Vec::new(); (g * g) as usize];
        for s in 0..net.num_switches() as SwitchId {
            for port in a - 1..a - 1 + h {
                if let Peer::Switch { switch: to, .. } = net.port(s, port as PortId).peer {
                    links[((s / a) * g + to / a) as usize].push(GlobalLink {
                        from: s,
                        port: port as PortId,
                        to,
                    });
                }
            }
        }
        Some(DragonflyWiring { p, a, h, g, links })
    }

    /// The group of switch `s`.
    pub fn group(&self, s: SwitchId) -> u32 {
        s / self.a
    }

    /// The local port of switch `from` that leads to switch `to` of the
    /// same group (`from != to`).
    pub fn local_port(&self, from: SwitchId, to: SwitchId) -> PortId {
        let (r, t) = (from % self.a, to % self.a);
        (if t < r { t } else { t - 1 }) as PortId
    }

    /// True when `port` of a router is a global port.
    pub fn is_global_port(&self, port: PortId) -> bool {
        let port = port as u32;
        port >= self.a - 1 && port < self.a - 1 + self.h
    }

    /// The global links from group `i` to group `t`.
    pub fn links(&self, i: u32, t: u32) -> &[GlobalLink] {
        &self.links[(i * self.g + t) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(spec: &str) -> Network {
        Network::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
    }

    /// Every pair of groups gets b or b+1 links, every group uses its
    /// ports (but one port when g·a·h is odd).
    #[test]
    fn links_are_spread_evenly_for_every_size() {
        for (a, h) in [
            (1, 1),
            (2, 1),
            (3, 1),
            (2, 2),
            (4, 2),
            (3, 3),
            (5, 1),
            (4, 3),
        ] {
            let m = a * h;
            for g in 2..=m + 1 {
                for arr in ["consecutive", "palmtree", "random:seed=4"] {
                    let spec = format!("dragonfly:p=1:a={a}:h={h}:g={g}:arrangement={arr}");
                    let n = net(&spec);
                    let w = DragonflyWiring::of(&n).unwrap();
                    let b = m / (g - 1);
                    let mut total = 0;
                    for i in 0..g {
                        let mut used = 0;
                        for t in (0..g).filter(|&t| t != i) {
                            let c = w.links(i, t).len() as u32;
                            assert!(c == b || c == b + 1, "{spec}: {i}-{t} has {c}");
                            assert_eq!(c, w.links(t, i).len() as u32, "{spec}");
                            used += c;
                        }
                        assert!(used == m || used + 1 == m, "{spec}: group {i} uses {used}");
                        total += used;
                    }
                    assert_eq!(total, (g * m) / 2 * 2, "{spec}");
                }
            }
        }
    }

    /// BookSim2's `dragonflynew` for p = 2: group port j of group i goes
    /// to group j (j < i) or j + 1; palm tree to i - j - 1.
    #[test]
    fn arrangements_match_their_definitions() {
        for (arr, target) in [
            (
                "consecutive",
                (|i: u32, j: u32, _g: u32| if j < i { j } else { j + 1 })
                    as fn(u32, u32, u32) -> u32,
            ),
            ("palmtree", |i, j, g| (i + g - j - 1) % g),
        ] {
            let n = net(&format!("dragonfly:p=2:arrangement={arr}"));
            let (a, h, g) = (4, 2, 9);
            for i in 0..g {
                for j in 0..a * h {
                    let s = i * a + j / h;
                    let port = (a - 1 + j % h) as PortId;
                    let Peer::Switch { switch, .. } = n.port(s, port).peer else {
                        panic!("{arr}: {s}.{port} unconnected");
                    };
                    assert_eq!(switch / a, target(i, j, g), "{arr}: group {i} port {j}");
                }
            }
        }
    }

    #[test]
    fn sizes_and_counts() {
        // p=2: 36 routers, 72 hosts, local 9·4·3 + global 9·8 channels.
        let n = net("dragonfly:p=2");
        assert_eq!(n.spec(), "dragonfly:p=2:a=4:h=2");
        assert_eq!((n.num_switches(), n.num_hosts()), (36, 72));
        assert_eq!(n.num_network_channels(), 9 * 4 * 3 + 9 * 8);
        assert_eq!(n.ports(0).len(), 3 + 2 + 2);
        // p=4: 264 routers, 1056 hosts.
        let n = net("dragonfly:p=4");
        assert_eq!((n.num_switches(), n.num_hosts()), (264, 1056));
        assert_eq!(n.num_network_channels(), 33 * 8 * 7 + 33 * 32);
        let n = net("dragonfly:p=1:a=3:h=1:g=3");
        assert_eq!(n.num_network_channels(), 3 * 3 * 2 + 8);
        assert!(crate::topology::is_connected(&n));
    }

    #[test]
    fn bad_specs_name_the_accepted_values() {
        for (s, needle) in [
            ("dragonfly", "needs p="),
            ("dragonfly:p=0", "p `0`; accepted a whole number in 1..=64"),
            ("dragonfly:p=2:g=10", "2..=9"),
            ("dragonfly:p=2:g=1", "2..=9"),
            (
                "dragonfly:p=2:arrangement=spiral",
                "consecutive, palmtree, random",
            ),
            ("dragonfly:p=2:seed=3", "arrangement=random only"),
            ("dragonfly:p=2:global=100", "accepted global=1"),
            ("dragonfly:p=2:local=0", "local `0`"),
            ("dragonfly:p=64:a=200", "ports per router"),
            ("dragonfly:p=2:x=1", "unknown option `x`"),
            ("dragonfly:p=2:a=0", "a `0`"),
        ] {
            let e = s
                .parse::<super::super::TopologySpec>()
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted"), "{s}: {e}");
        }
        let e = "dragonfly:p=64:a=128:h=64"
            .parse::<super::super::TopologySpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most"), "{e}");
    }
}
