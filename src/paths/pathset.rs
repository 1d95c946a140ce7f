//! All shortest legal paths between every ordered pair of switches
//! (Villalobos et al. §2, stage 1 "computing routing paths"; Koibuchi et al.
//! §2 step 1).
//!
//! For each destination `t`, a breadth-first search over the reversed state
//! graph of [`Legality`] gives the legal distance of every (switch, vc,
//! phase) state, and a pass in BFS order counts the shortest continuations
//! from each state. A pair's shortest legal length is the minimum over its
//! first hops; its **path count** is exact (saturating at `u64::MAX`, which
//! only huge UDWM networks approach).
//!
//! **Explosion.** Counts grow exponentially with the hop count (an 8x8 torus
//! under UDWM has pairs with thousands of paths), so a pair keeps at most
//! `cap` of them ([`DEFAULT_CAP`] = 64; `cap = 0` means no cap). When a pair
//! has more, the kept ones are those of rank `⌊i·count/cap⌋`, `i = 0..cap`,
//! in the lexicographic (port, vc) order of their hops, each produced by
//! unranking with the counts (no enumeration of the rest): rank 0 (the
//! low-port-first path) is always kept and the sample is spread evenly over
//! the whole set. Every algorithm then chooses among the kept paths only;
//! [`PathSet::capped_pairs`] says how many pairs were cut and
//! [`PathSet::paths_total`] how many paths there were.
//!
//! Paths are sequences of hops; a hop is stored as one `u32`,
//! `channel · V + vc` (`channel` a switch-to-switch channel id, `vc` the
//! virtual channel the path uses on it). All paths of a pair have the same
//! length. Pairs are numbered source-major: [`pair_index`].

use super::error::PathError;
use super::legal::{LegalKind, Legality};
use crate::topology::{ChannelId, Endpoint, Network, PortId, SwitchId};
use std::ops::Range;

/// Paths kept per pair unless told otherwise.
pub const DEFAULT_CAP: usize = 64;

/// Ordered pairs of distinct switches among `n`.
pub fn pair_count(n: usize) -> usize {
    n * n.saturating_sub(1)
}
/// Index of the pair (s, t), s != t, source-major.
#[inline]
pub fn pair_index(n: usize, s: SwitchId, t: SwitchId) -> usize {
    let (s, t) = (s as usize, t as usize);
    s * (n - 1) + if t > s { t - 1 } else { t }
}
/// The pair (s, t) of an index.
#[inline]
pub fn pair_of(n: usize, p: usize) -> (SwitchId, SwitchId) {
    let s = p / (n - 1);
    let r = p % (n - 1);
    let t = if r >= s { r + 1 } else { r };
    (s as SwitchId, t as SwitchId)
}

/// One hop of a path, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hop {
    /// Switch the hop leaves from.
    pub switch: SwitchId,
    /// Output port at that switch.
    pub port: PortId,
    /// Virtual channel used on the link.
    pub vc: u8,
    /// Switch-to-switch channel id.
    pub channel: ChannelId,
}

/// The kept shortest legal paths of every pair.
#[derive(Clone, Debug)]
pub struct PathSet {
    legal: Legality,
    topology: String,
    n: usize,
    nch: usize,
    cap: usize,
    chan_src: Vec<(SwitchId, PortId)>,
    chan_dst: Vec<SwitchId>,
    /// Path ids of pair p: `pair_first[p]..pair_first[p + 1]`.
    pair_first: Vec<u32>,
    pair_len: Vec<u8>,
    pair_total: Vec<u64>,
    pair_hop: Vec<u64>,
    path_pair: Vec<u32>,
    hops: Vec<u32>,
}

/// Per-destination scratch: distances, counts and the BFS queue.
struct Scratch {
    dist: Vec<u16>,
    cnt: Vec<u64>,
    queue: Vec<usize>,
    moves: Vec<(u32, usize)>,
}

impl Scratch {
    fn prepare(&mut self, legal: &Legality, t: SwitchId) {
        legal.distances_to(t, &mut self.dist, &mut self.queue);
        self.cnt.clear();
        self.cnt.resize(legal.num_states(), 0);
        for i in 0..self.queue.len() {
            let x = self.queue[i];
            let d = self.dist[x];
            if d == 0 {
                self.cnt[x] = 1;
                continue;
            }
            let mut c = 0u64;
            let (dist, cnt) = (&self.dist, &self.cnt);
            legal.moves(x, |_, _, y| {
                if dist[y] != u16::MAX && dist[y] + 1 == d {
                    c = c.saturating_add(cnt[y]);
                }
            });
            self.cnt[x] = c;
        }
    }

    /// Shortest legal length from `s` and the number of such paths.
    fn source(&self, legal: &Legality, s: SwitchId) -> Option<(u16, u64)> {
        let mut best = u16::MAX;
        legal.first_moves(s, |_, _, y| {
            if self.dist[y] != u16::MAX {
                best = best.min(self.dist[y] + 1);
            }
        });
        if best == u16::MAX {
            return None;
        }
        let mut c = 0u64;
        legal.first_moves(s, |_, _, y| {
            if self.dist[y] != u16::MAX && self.dist[y] + 1 == best {
                c = c.saturating_add(self.cnt[y]);
            }
        });
        Some((best, c))
    }

    /// Append the hops of the path of rank `k` from `s` (length `d`).
    fn unrank(&mut self, legal: &Legality, s: SwitchId, d: u16, mut k: u64, out: &mut Vec<u32>) {
        let vcs = legal.vcs() as u32;
        let mut here: Option<usize> = None;
        let mut left = d;
        while left > 0 {
            self.moves.clear();
            let (dist, moves) = (&self.dist, &mut self.moves);
            let mut push = |l: &super::legal::Link, v: u8, y: usize| {
                if dist[y] != u16::MAX && dist[y] + 1 == left {
                    moves.push((l.channel * vcs + v as u32, y));
                }
            };
            match here {
                None => legal.first_moves(s, &mut push),
                Some(x) => legal.moves(x, &mut push),
            }
            let last = self.moves.len() - 1;
            let mut pick = self.moves[last];
            for (i, &(code, y)) in self.moves.iter().enumerate() {
                let c = self.cnt[y];
                if k < c || i == last {
                    pick = (code, y);
                    break;
                }
                k -= c;
            }
            out.push(pick.0);
            here = Some(pick.1);
            left -= 1;
        }
    }
}

/// Ranks kept out of `total` paths with a cap (0 = no cap).
fn kept_ranks(total: u64, cap: usize) -> impl Iterator<Item = u64> {
    let keep = kept_count(total, cap);
    (0..keep).map(move |i| {
        if keep == total {
            i
        } else {
            ((i as u128 * total as u128) / keep as u128) as u64
        }
    })
}

/// How many of `total` paths a cap keeps (0 = no cap), without counting
/// them one by one (a saturated total is 2^64).
fn kept_count(total: u64, cap: usize) -> u64 {
    if cap == 0 {
        total
    } else {
        total.min(cap as u64)
    }
}

impl PathSet {
    /// Every shortest legal path of every pair under `kind` rooted at `root`
    /// with `vcs` virtual channels, keeping at most `cap` per pair (0: all).
    pub fn build(
        net: &Network,
        kind: LegalKind,
        root: SwitchId,
        vcs: u8,
        cap: usize,
    ) -> Result<PathSet, PathError> {
        let n = net.num_switches();
        if n < 2 {
            return Err(PathError(format!(
                "topology `{}` has {n} switch(es); path selection needs at least 2",
                net.spec()
            )));
        }
        if n as u64 > crate::limits::MAX_PATH_SWITCHES {
            return Err(PathError(format!(
                "topology `{}` has {n} switches; path selection works on at most {} ({} ordered pairs)",
                net.spec(),
                crate::limits::MAX_PATH_SWITCHES,
                crate::limits::MAX_PATH_SWITCHES * (crate::limits::MAX_PATH_SWITCHES - 1)
            )));
        }
        if root as usize >= n {
            return Err(PathError(format!("root {root}; accepted 0..{}", n - 1)));
        }
        if !(1..=16).contains(&vcs) {
            return Err(PathError(format!("vcs {vcs}; accepted 1..=16")));
        }
        Self::from_legality(net, Legality::new(net, kind, root, vcs), cap)
    }

    /// Build on explicit link directions (tests, custom trees).
    pub fn from_legality(net: &Network, legal: Legality, cap: usize) -> Result<PathSet, PathError> {
        let n = net.num_switches();
        let nch = net.num_network_channels();
        let pairs = pair_count(n);
        let mut sc = Scratch {
            dist: Vec::new(),
            cnt: Vec::new(),
            queue: Vec::new(),
            moves: Vec::new(),
        };
        // Pass 1: lengths and counts.
        let mut pair_len = vec![0u8; pairs];
        let mut pair_total = vec![0u64; pairs];
        for t in 0..n as SwitchId {
            sc.prepare(&legal, t);
            for s in 0..n as SwitchId {
                if s == t {
                    continue;
                }
                let p = pair_index(n, s, t);
                let (d, c) = sc.source(&legal, s).ok_or_else(|| {
                    PathError(format!(
                        "switch {s} cannot reach switch {t} under {} (the network is disconnected)",
                        legal.kind()
                    ))
                })?;
                if d > u8::MAX as u16 {
                    return Err(PathError(format!(
                        "pair {s}->{t} needs {d} hops; at most 255 are supported"
                    )));
                }
                pair_len[p] = d as u8;
                pair_total[p] = c;
            }
        }
        let mut pair_first = Vec::with_capacity(pairs + 1);
        let mut pair_hop = Vec::with_capacity(pairs);
        let (mut paths, mut hops) = (0u64, 0u64);
        for p in 0..pairs {
            pair_first.push(paths as u32);
            pair_hop.push(hops);
            let k = kept_count(pair_total[p], cap);
            paths = paths.saturating_add(k);
            hops = hops.saturating_add(k.saturating_mul(pair_len[p] as u64));
        }
        if hops > crate::limits::MAX_PATH_HOPS {
            return Err(PathError(format!(
                "{paths} paths of {hops} hops in all would be kept; at most {} hops ({}): lower the cap (now {})",
                crate::limits::MAX_PATH_HOPS,
                crate::limits::human_bytes(crate::limits::MAX_PATH_HOPS * 4),
                if cap == 0 {
                    "none".to_string()
                } else {
                    cap.to_string()
                }
            )));
        }
        if paths >= u32::MAX as u64 {
            return Err(PathError(format!(
                "{paths} paths kept; at most {} fit (lower the cap)",
                u32::MAX - 1
            )));
        }
        pair_first.push(paths as u32);
        let mut path_pair = vec![0u32; paths as usize];
        for p in 0..pairs {
            for id in pair_first[p]..pair_first[p + 1] {
                path_pair[id as usize] = p as u32;
            }
        }
        // Pass 2: the paths themselves.
        let mut flat = vec![0u32; hops as usize];
        let mut buf = Vec::new();
        for t in 0..n as SwitchId {
            sc.prepare(&legal, t);
            for s in 0..n as SwitchId {
                if s == t {
                    continue;
                }
                let p = pair_index(n, s, t);
                buf.clear();
                for k in kept_ranks(pair_total[p], cap) {
                    sc.unrank(&legal, s, pair_len[p] as u16, k, &mut buf);
                }
                let base = pair_hop[p] as usize;
                flat[base..base + buf.len()].copy_from_slice(&buf);
            }
        }
        let mut chan_src = vec![(0, 0); nch];
        let mut chan_dst = vec![0; nch];
        for (c, ch) in net.channels().iter().take(nch).enumerate() {
            if let Endpoint::Switch { switch, port } = ch.src {
                chan_src[c] = (switch, port);
            }
            if let Endpoint::Switch { switch, .. } = ch.dst {
                chan_dst[c] = switch;
            }
        }
        Ok(PathSet {
            legal,
            topology: net.spec().to_string(),
            n,
            nch,
            cap,
            chan_src,
            chan_dst,
            pair_first,
            pair_len,
            pair_total,
            pair_hop,
            path_pair,
            hops: flat,
        })
    }

    pub fn legality(&self) -> &Legality {
        &self.legal
    }
    pub fn kind(&self) -> LegalKind {
        self.legal.kind()
    }
    pub fn root(&self) -> SwitchId {
        self.legal.root()
    }
    /// Virtual channels of the path model.
    pub fn vcs(&self) -> u8 {
        self.legal.vcs()
    }
    /// The topology spec the set was built on.
    pub fn topology(&self) -> &str {
        &self.topology
    }
    pub fn num_switches(&self) -> usize {
        self.n
    }
    /// Physical switch-to-switch channels.
    pub fn num_channels(&self) -> usize {
        self.nch
    }
    /// Virtual channels over all switch-to-switch channels (`channels · V`).
    pub fn num_vchannels(&self) -> usize {
        self.nch * self.vcs() as usize
    }
    pub fn num_pairs(&self) -> usize {
        self.pair_len.len()
    }
    /// Kept paths over all pairs.
    pub fn num_paths(&self) -> usize {
        *self.pair_first.last().unwrap_or(&0) as usize
    }
    /// The cap per pair (0: none).
    pub fn cap(&self) -> usize {
        self.cap
    }
    /// Path ids of a pair.
    #[inline]
    pub fn paths_of(&self, p: usize) -> Range<u32> {
        self.pair_first[p]..self.pair_first[p + 1]
    }
    /// Kept paths of a pair.
    #[inline]
    pub fn kept(&self, p: usize) -> u32 {
        self.pair_first[p + 1] - self.pair_first[p]
    }
    /// Exact number of shortest legal paths of a pair (saturating).
    pub fn total(&self, p: usize) -> u64 {
        self.pair_total[p]
    }
    /// Hops of every path of a pair.
    pub fn pair_len(&self, p: usize) -> usize {
        self.pair_len[p] as usize
    }
    /// Sum of the exact path counts (saturating).
    pub fn paths_total(&self) -> u128 {
        self.pair_total.iter().map(|&c| c as u128).sum()
    }
    /// Pairs with more paths than the cap.
    pub fn capped_pairs(&self) -> usize {
        (0..self.num_pairs())
            .filter(|&p| self.pair_total[p] > self.kept(p) as u64)
            .count()
    }
    /// Pair of a path id.
    #[inline]
    pub fn pair_of_path(&self, id: u32) -> usize {
        self.path_pair[id as usize] as usize
    }
    /// Hop codes (`channel · V + vc`) of a path id.
    #[inline]
    pub fn hops(&self, id: u32) -> &[u32] {
        let p = self.path_pair[id as usize] as usize;
        let l = self.pair_len[p] as usize;
        let j = (id - self.pair_first[p]) as usize;
        let start = self.pair_hop[p] as usize + j * l;
        &self.hops[start..start + l]
    }
    /// Hop codes of the `j`-th path of pair `p`.
    #[inline]
    pub fn pair_path(&self, p: usize, j: u32) -> &[u32] {
        self.hops(self.pair_first[p] + j)
    }
    /// Physical channel of a hop code.
    #[inline]
    pub fn channel_of(&self, code: u32) -> usize {
        (code / self.vcs() as u32) as usize
    }
    /// Decoded hops of a path id.
    pub fn hop_details(&self, id: u32) -> Vec<Hop> {
        let v = self.vcs() as u32;
        self.hops(id)
            .iter()
            .map(|&code| {
                let c = (code / v) as usize;
                let (switch, port) = self.chan_src[c];
                Hop {
                    switch,
                    port,
                    vc: (code % v) as u8,
                    channel: c as ChannelId,
                }
            })
            .collect()
    }
    /// Switches visited by a path id, source first.
    pub fn switches(&self, id: u32) -> Vec<SwitchId> {
        let v = self.vcs() as u32;
        let h = self.hops(id);
        let mut out = Vec::with_capacity(h.len() + 1);
        if let Some(&first) = h.first() {
            out.push(self.chan_src[(first / v) as usize].0);
        }
        out.extend(h.iter().map(|&c| self.chan_dst[(c / v) as usize]));
        out
    }
    /// Source switch and port of a channel.
    pub fn channel_src(&self, c: usize) -> (SwitchId, PortId) {
        self.chan_src[c]
    }
    /// Destination switch of a channel.
    pub fn channel_dst(&self, c: usize) -> SwitchId {
        self.chan_dst[c]
    }
    /// Pairs with more than one kept path (the genes of GA and SA).
    pub fn variable_pairs(&self) -> Vec<u32> {
        (0..self.num_pairs())
            .filter(|&p| self.kept(p) > 1)
            .map(|p| p as u32)
            .collect()
    }
}
