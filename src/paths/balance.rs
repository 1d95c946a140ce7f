//! The counter-based path-selection algorithms: Sancho's traffic balancing
//! (MaxCp) and Koibuchi et al.'s three variants (§3).
//!
//! All four share one procedure (Koibuchi et al. §2 steps 1-4): every kept
//! shortest legal path starts as a candidate; a **counter** per channel holds
//! the number of candidate paths crossing it; a channel is picked by its
//! counter, and either one path on it is removed (MaxCp, hpcf) or one path
//! on it is fixed, which removes the other candidates of its pair (lvcf,
//! lpcf); the counters of every channel of every removed path are updated;
//! repeat until every pair has one path left. Counters exist per virtual
//! channel ("vchannel" = physical channel × VC) and per physical channel
//! (sum of its vchannels). The **cost** of a path is the sum of the counters
//! of its hops (Villalobos et al. §2), on the level named below. Everything
//! is deterministic; remaining ties go to the lowest channel id, the lowest
//! VC, and the lowest path id.
//!
//! Speed: counters only fall, a channel that once has no removable (or no
//! unfixed) path never gets one again, so channels sit in a lazy max-heap
//! (removal) or a bucket queue (fixing), each channel's list of crossing
//! paths is compacted as it is scanned, and in the removal family each
//! channel's candidates sit in a lazy max-heap of their removal keys (keys
//! only fall, so a popped key that is still current is the true maximum).

use super::pathset::PathSet;
use super::search::Choice;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Shared state: candidate flags, counters and the inverse index.
struct Work<'a> {
    set: &'a PathSet,
    v: usize,
    alive: Vec<bool>,
    remaining: Vec<u32>,
    cnt_vc: Vec<u32>,
    cnt_ph: Vec<u32>,
    inv_start: Vec<usize>,
    inv_len: Vec<u32>,
    inv: Vec<u32>,
}

impl<'a> Work<'a> {
    fn new(set: &'a PathSet) -> Work<'a> {
        let v = set.vcs() as usize;
        let nv = set.num_vchannels();
        let mut cnt_vc = vec![0u32; nv];
        for id in 0..set.num_paths() as u32 {
            for &h in set.hops(id) {
                cnt_vc[h as usize] += 1;
            }
        }
        let mut inv_start = Vec::with_capacity(nv + 1);
        let mut acc = 0usize;
        for &c in &cnt_vc {
            inv_start.push(acc);
            acc += c as usize;
        }
        inv_start.push(acc);
        let mut inv = vec![0u32; acc];
        let mut fill = vec![0u32; nv];
        for id in 0..set.num_paths() as u32 {
            for &h in set.hops(id) {
                let h = h as usize;
                inv[inv_start[h] + fill[h] as usize] = id;
                fill[h] += 1;
            }
        }
        let cnt_ph = (0..set.num_channels())
            .map(|c| cnt_vc[c * v..(c + 1) * v].iter().sum())
            .collect();
        Work {
            set,
            v,
            alive: vec![true; set.num_paths()],
            remaining: (0..set.num_pairs()).map(|p| set.kept(p)).collect(),
            inv_len: cnt_vc.clone(),
            cnt_vc,
            cnt_ph,
            inv_start,
            inv,
        }
    }

    /// Remove a candidate path; `touched(vchannel)` is called per hop.
    fn remove(&mut self, id: u32, mut touched: impl FnMut(usize)) {
        debug_assert!(self.alive[id as usize]);
        self.alive[id as usize] = false;
        self.remaining[self.set.pair_of_path(id)] -= 1;
        for &h in self.set.hops(id) {
            let h = h as usize;
            self.cnt_vc[h] -= 1;
            self.cnt_ph[h / self.v] -= 1;
            touched(h);
        }
    }

    fn cost_vc(&self, id: u32) -> u64 {
        self.set
            .hops(id)
            .iter()
            .map(|&h| self.cnt_vc[h as usize] as u64)
            .sum()
    }
    /// Compact vchannel `h`'s list to entries that `keep` and return them.
    fn live(&mut self, h: usize, keep: impl Fn(&Self, u32) -> bool) -> &[u32] {
        let start = self.inv_start[h];
        let mut len = self.inv_len[h] as usize;
        let mut i = 0;
        while i < len {
            let id = self.inv[start + i];
            if keep(self, id) {
                i += 1;
            } else {
                len -= 1;
                self.inv[start + i] = self.inv[start + len];
            }
        }
        self.inv_len[h] = len as u32;
        &self.inv[start..start + len]
    }

    fn removable(&self, id: u32) -> bool {
        self.alive[id as usize] && self.remaining[self.set.pair_of_path(id)] > 1
    }

    /// The unfixed path to fix among `ids`: lowest cost (vchannel counters),
    /// then lowest id.
    fn pick_fix(&self, ids: &[u32]) -> Option<u32> {
        ids.iter()
            .map(|&id| (self.cost_vc(id), id))
            .min()
            .map(|b| b.1)
    }

    fn choice(&self) -> Choice {
        (0..self.set.num_pairs())
            .map(|p| {
                let r = self.set.paths_of(p);
                let first = r.start;
                r.into_iter()
                    .find(|&id| self.alive[id as usize])
                    .map(|id| id - first)
                    .unwrap_or(0)
            })
            .collect()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Removal {
    MaxCp,
    Hpcf,
}

/// Removal key of a path on channel `x`: (remaining paths of its pair, cost
/// without `x`'s own counter, lowest id first). Leaving out the counter all
/// candidates on `x` share keeps the order and makes the key change only
/// when another channel's counter falls.
type Key = (u32, u64, Reverse<u32>);

/// Candidates of one channel in a lazy max-heap: keys only fall (counters
/// and remaining counts only fall), so a popped entry whose stored key is
/// still current is the true maximum; a stale one is pushed back with its
/// current key.
struct Lazy {
    heaps: Vec<Option<BinaryHeap<Key>>>,
}

impl Lazy {
    fn key(w: &Work, id: u32, x: usize, phys: bool) -> Key {
        let r = w.remaining[w.set.pair_of_path(id)];
        let c: u64 = if phys {
            w.set
                .hops(id)
                .iter()
                .map(|&h| h as usize / w.v)
                .filter(|&c| c != x)
                .map(|c| w.cnt_ph[c] as u64)
                .sum()
        } else {
            w.set
                .hops(id)
                .iter()
                .map(|&h| h as usize)
                .filter(|&h| h != x)
                .map(|h| w.cnt_vc[h] as u64)
                .sum()
        };
        (r, c, Reverse(id))
    }

    /// Pop the path to remove from channel `x` (physical when `phys`, else
    /// a vchannel): the removable path of highest key.
    fn pick(&mut self, w: &mut Work, x: usize, phys: bool) -> Option<u32> {
        if self.heaps[x].is_none() {
            let mut heap = BinaryHeap::new();
            let range = if phys {
                x * w.v..(x + 1) * w.v
            } else {
                x..x + 1
            };
            for h in range {
                let ids = w.live(h, |w, id| w.removable(id)).to_vec();
                for id in ids {
                    heap.push(Self::key(w, id, x, phys));
                }
            }
            self.heaps[x] = Some(heap);
        }
        let heap = self.heaps[x].as_mut()?;
        let mut stale = 0usize;
        let mut rebuilt = false;
        while let Some(top) = heap.pop() {
            let id = top.2.0;
            if !w.removable(id) {
                continue;
            }
            let now = Self::key(w, id, x, phys);
            if now == top {
                return Some(id);
            }
            heap.push(now);
            stale += 1;
            // Many stale keys (counters of shared channels fell): refresh
            // them all at once, which costs one scan, instead of popping
            // them one by one.
            if !rebuilt && stale > 16 && stale * 4 > heap.len() {
                let mut keys = std::mem::take(heap).into_vec();
                keys.retain(|k| w.removable(k.2.0));
                for k in keys.iter_mut() {
                    *k = Self::key(w, k.2.0, x, phys);
                }
                *heap = BinaryHeap::from(keys);
                rebuilt = true;
            }
        }
        None
    }
}

fn removal(set: &PathSet, mode: Removal) -> Choice {
    let mut w = Work::new(set);
    let mut multi = (0..set.num_pairs()).filter(|&p| set.kept(p) > 1).count();
    let mut heap: BinaryHeap<(u32, Reverse<u32>)> = (0..set.num_channels())
        .filter(|&c| w.cnt_ph[c] > 0)
        .map(|c| (w.cnt_ph[c], Reverse(c as u32)))
        .collect();
    let v = w.v;
    let mut lazy = Lazy {
        heaps: vec![
            None;
            match mode {
                Removal::MaxCp => set.num_channels(),
                Removal::Hpcf => set.num_vchannels(),
            }
        ],
    };
    let mut order: Vec<usize> = Vec::with_capacity(v);
    while multi > 0 {
        let Some((key, Reverse(ch))) = heap.pop() else {
            break;
        };
        let ch = ch as usize;
        let now = w.cnt_ph[ch];
        if key != now {
            if now > 0 {
                heap.push((now, Reverse(ch as u32)));
            }
            continue;
        }
        let victim = match mode {
            Removal::MaxCp => lazy.pick(&mut w, ch, true),
            Removal::Hpcf => {
                order.clear();
                order.extend(ch * v..(ch + 1) * v);
                order.sort_by_key(|&h| (Reverse(w.cnt_vc[h]), h));
                let mut best = None;
                for &h in &order {
                    if let Some(id) = lazy.pick(&mut w, h, false) {
                        best = Some(id);
                        break;
                    }
                }
                best
            }
        };
        let Some(id) = victim else {
            continue; // no removable path on this channel, ever again
        };
        let p = set.pair_of_path(id);
        w.remove(id, |_| {});
        if w.remaining[p] == 1 {
            multi -= 1;
        }
        if w.cnt_ph[ch] > 0 {
            heap.push((w.cnt_ph[ch], Reverse(ch as u32)));
        }
    }
    w.choice()
}

/// Sancho's traffic balancing, called MaxCp by Villalobos et al. (§2;
/// Koibuchi et al. §2). Counters are per **physical** channel. Repeatedly
/// take the channel with the highest counter (ties: lowest id) and remove
/// one of its removable paths (a path whose pair still has more than one);
/// among those, the path whose pair has the most remaining paths, then the
/// highest cost (sum of the physical counters along it, i.e. the path over
/// the most crowded channels), then the lowest id. A channel with no
/// removable path is skipped for the next one. Stops when every
/// pair has one path.
pub fn maxcp(set: &PathSet) -> Choice {
    removal(set, Removal::MaxCp)
}

/// High physical channel first (Koibuchi et al. §3): take the physical
/// channel with the highest counter (sum of its virtual channels'
/// counters), then on it the virtual channel with the highest counter that
/// has a removable path (ties: lowest VC), and remove from that virtual
/// channel the path whose pair has the most remaining paths, then the
/// highest cost (sum of virtual-channel counters), then the lowest id. With
/// one virtual channel it is MaxCp.
pub fn hpcf(set: &PathSet) -> Choice {
    removal(set, Removal::Hpcf)
}

/// A min bucket queue with lazy deletion (keys only fall or stay).
struct Buckets {
    b: Vec<Vec<u32>>,
    cur: usize,
}

impl Buckets {
    fn new(max_key: usize) -> Buckets {
        Buckets {
            b: vec![Vec::new(); max_key + 1],
            cur: max_key + 1,
        }
    }
    fn push(&mut self, key: u32, item: u32) {
        let k = key as usize;
        self.b[k].push(item);
        self.cur = self.cur.min(k);
    }
    fn pop(&mut self) -> Option<(u32, u32)> {
        while self.cur < self.b.len() {
            if let Some(x) = self.b[self.cur].pop() {
                return Some((self.cur as u32, x));
            }
            self.cur += 1;
        }
        None
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fixing {
    Lvcf,
    Lpcf,
}

fn fixing(set: &PathSet, mode: Fixing) -> Choice {
    let mut w = Work::new(set);
    let v = w.v;
    let mut fixed: Vec<bool> = (0..set.num_pairs()).map(|p| set.kept(p) <= 1).collect();
    let mut unfixed = fixed.iter().filter(|f| !**f).count();
    let max_key = match mode {
        Fixing::Lvcf => w.cnt_vc.iter().copied().max().unwrap_or(0),
        Fixing::Lpcf => w.cnt_ph.iter().copied().max().unwrap_or(0),
    } as usize;
    let mut q = Buckets::new(max_key);
    match mode {
        Fixing::Lvcf => {
            for h in 0..w.cnt_vc.len() {
                if w.cnt_vc[h] > 0 {
                    q.push(w.cnt_vc[h], h as u32);
                }
            }
        }
        Fixing::Lpcf => {
            for c in 0..w.cnt_ph.len() {
                if w.cnt_ph[c] > 0 {
                    q.push(w.cnt_ph[c], c as u32);
                }
            }
        }
    }
    let mut order: Vec<usize> = Vec::with_capacity(v);
    let mut touched: Vec<usize> = Vec::new();
    while unfixed > 0 {
        let Some((key, item)) = q.pop() else {
            break;
        };
        let item = item as usize;
        let now = match mode {
            Fixing::Lvcf => w.cnt_vc[item],
            Fixing::Lpcf => w.cnt_ph[item],
        };
        if key != now || now == 0 {
            continue; // stale: the current key was pushed when it fell
        }
        let unfixed_on = |w: &Work, id: u32| w.alive[id as usize] && !fixed[set.pair_of_path(id)];
        let pick = match mode {
            Fixing::Lvcf => {
                let ids = w.live(item, unfixed_on).to_vec();
                w.pick_fix(&ids)
            }
            Fixing::Lpcf => {
                order.clear();
                order.extend(item * v..(item + 1) * v);
                order.sort_by_key(|&h| (w.cnt_vc[h], h));
                let mut best = None;
                for &h in &order {
                    let ids = w.live(h, unfixed_on).to_vec();
                    if let Some(id) = w.pick_fix(&ids) {
                        best = Some(id);
                        break;
                    }
                }
                best
            }
        };
        let Some(id) = pick else {
            continue; // nothing left to fix here, ever again
        };
        let p = set.pair_of_path(id);
        touched.clear();
        for other in set.paths_of(p) {
            if other != id && w.alive[other as usize] {
                w.remove(other, |h| touched.push(h));
            }
        }
        fixed[p] = true;
        unfixed -= 1;
        match mode {
            Fixing::Lvcf => {
                touched.push(item);
                for &h in &touched {
                    if w.cnt_vc[h] > 0 {
                        q.push(w.cnt_vc[h], h as u32);
                    }
                }
            }
            Fixing::Lpcf => {
                touched.push(item * v);
                for &h in &touched {
                    let c = h / v;
                    if w.cnt_ph[c] > 0 {
                        q.push(w.cnt_ph[c], c as u32);
                    }
                }
            }
        }
    }
    w.choice()
}

/// Low virtual channel first (Koibuchi et al. §3): take the virtual channel
/// with the lowest counter that still carries an unfixed path (one of a pair
/// with more than one candidate left; ties: lowest vchannel id) and **fix**
/// one path on it, removing the other candidates of its pair. Among the
/// unfixed paths on it, the paper picks "a routing path crossing the
/// channel with the lowest value of counter"; routelab reads that as the
/// path of lowest cost (sum of virtual-channel counters along it), then the
/// lowest id.
pub fn lvcf(set: &PathSet) -> Choice {
    fixing(set, Fixing::Lvcf)
}

/// Low physical channel first (Koibuchi et al. §3): take the physical
/// channel with the lowest counter (sum of its virtual channels) that
/// carries an unfixed path, then on it the virtual channel with the lowest
/// counter that carries one (ties: lowest VC), and fix its unfixed path of
/// lowest cost (sum of virtual-channel counters), then lowest id. With one
/// virtual channel it is lvcf.
pub fn lpcf(set: &PathSet) -> Choice {
    fixing(set, Fixing::Lpcf)
}
