//! The metapath of one source-destination pair (Franco et al. §2,
//! Definition 3) and DRB Routing's per-pair work (§3): latency monitoring
//! results, metapath configuration and multi-step path selection.
//!
//! ## Quantities
//! - An MSP's latency (eq. 3) is "the transmission time plus the waiting
//!   time spent by one message ... on router's queues due to message
//!   contention", over every node of the MSP: by default
//!   (`latency=network`) routelab takes the last acknowledged message's
//!   latency from head injection to tail delivery
//!   ([`Feedback::network_latency`](crate::routing::Feedback::network_latency)):
//!   the cycles its head was blocked at the routers it crossed
//!   ([`Feedback::blocked_cycles`](crate::routing::Feedback::blocked_cycles))
//!   and the rest of its trip. (With one-flit buffers this router's
//!   contention shows mostly as slower streaming of the body, not as
//!   blocked heads; the blocked cycles alone stay near zero up to
//!   saturation, so they cannot be the measure.) `latency=total` adds the
//!   wait in the source's queue
//!   ([`Feedback::latency`](crate::routing::Feedback::latency)); past
//!   saturation that wait, shared by every MSP of the source, dominates. An
//!   MSP never acknowledged holds its *canonical* latency, the zero-load
//!   time of its own route ([`Timing::zero_load`]); otherwise it holds its
//!   last acknowledged value. Its bandwidth is the inverse (eq. 4).
//! - Metapath latency is the parallel combination of its MSPs' latencies
//!   (eq. 7), its bandwidth their sum (eq. 8). The *canonical* latency L_c of
//!   the pair is the zero-load time of its minimal static path; the
//!   canonical bandwidth is BW_c = 1/L_c.
//!
//! ## Configuration (eqs. 9 and 10, as routelab reads them)
//! The paper's equations cannot be implemented as printed: their two
//! conditions (`BW < BWc·Tol` and `BW > BWc·Tol`) are complementary, so
//! there is no dead band; Tol is used both as a bandwidth fraction and as
//! a latency offset (`Thl ± Tol`); and k is undefined. routelab reads them
//! so (τ and Tol are the spec's `tau` and `tolerance`):
//! - the pair's threshold is ThL = L_c·(1 + τ), τ fixed per preset (the
//!   latency over zero-load latency at the knee of a DOR sweep, §2:
//!   "the point of the curve with the minimum radius of curvature");
//! - the value compared with it is L̄ = w·Latency(P*) (eq. 7), the harmonic
//!   mean of the w MSP latencies (so a metapath of w equal MSPs compares
//!   like one of them);
//! - if L̄ > ThL·(1 + Tol), w grows by the smallest Δ ≥ 1 for which eq. 9's
//!   predicted bandwidth reaches the canonical bandwidth:
//!   `BW + BWc·Tol·(1/k)·Σ_{i=1..Δ} i ≥ BWc`, with k = 1 (the paper calls k
//!   "a parameter which defines the channel use" and gives no value; with
//!   k = 1 the i-th added MSP is credited i·Tol·BWc, so the further BW has
//!   fallen below BWc the more MSPs are added at once);
//! - if L̄ < ThL·(1 − Tol), w shrinks by 1 (eq. 10's direction; the band
//!   [ThL(1 − Tol), ThL(1 + Tol)] is the dead band where nothing changes);
//! - w stays within 1..=max-width and the MSPs the supernodes can offer.
//!
//! ## Stability (routelab's addition)
//! With last-value latencies the rule above oscillates whenever expansion
//! works (expanded → latency falls below the band → shrink → congested →
//! grow), and a single unlucky message would trigger it. Five guards:
//! - *fresh evidence*: after a change, no decision until every MSP of the
//!   new metapath has been acknowledged (a fresh MSP's canonical latency
//!   would otherwise pull L̄ down);
//! - *persistence*: a change needs [`PERSIST`] consecutive acknowledgements
//!   out of the band on the same side;
//! - *prediction*: a shrink also needs the metapath without its last MSP
//!   to be predicted at or below ThL ([`Metapath::narrowed_latency`]: the
//!   others take its share, their queueing growing in proportion);
//! - *load has fallen*: a shrink also needs the pair's rate of messages (a
//!   running average of the cycles between them, [`Metapath::sent_at`]) to
//!   have fallen below [`SHRINK_RATE`] of its rate when the metapath last
//!   grew. Latency below the band right after a growth is the growth
//!   working, not the load going away; without this guard the rule narrows
//!   the metapath, congests it and widens it again, over and over;
//! - *shrink back-off*: a shrink needs a hold of acknowledgements since the
//!   last change, [`HOLD_START`] at first and doubled each time a growth
//!   undoes a shrink.
//!
//! A metapath so widens as soon as it is congested and narrows only once its
//! traffic has gone down; under constant load its width settles
//! (`tests/drb.rs` counts the changes after a warm-up).

use crate::routing::Timing;
use crate::topology::SwitchId;

/// Consecutive out-of-band acknowledgements needed for a change.
pub const PERSIST: u32 = 8;
/// Acknowledgements a shrink waits after a change, before any reversal.
pub const HOLD_START: u32 = 256;
/// A shrink needs the pair's rate of messages below this fraction of its
/// rate when it last grew.
pub const SHRINK_RATE: f64 = 0.5;
/// Weight of a new inter-message interval in its running average.
const RATE_WEIGHT: f64 = 1.0 / 64.0;

/// DRB Routing's parameters (the spec's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// τ: ThL = L_c·(1 + τ).
    pub tau: f64,
    /// Tol: the dead band is [ThL(1 - Tol), ThL(1 + Tol)].
    pub tolerance: f64,
    /// Most MSPs in a metapath.
    pub max_width: u8,
}

/// One multi-step path A → X → Y → B of a metapath.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Msp {
    /// The intermediate node in the source supernode.
    pub x: SwitchId,
    /// The intermediate node in the destination supernode.
    pub y: SwitchId,
    /// Eq. 2: hops over the three steps.
    pub length: u32,
    /// Its canonical latency: the zero-load time of its route.
    pub canonical: f64,
    /// Latency(MSP), eq. 3: the canonical latency until acknowledged, then
    /// the last acknowledged value.
    pub latency: f64,
    /// Acknowledged since the metapath last changed.
    pub fresh: bool,
    /// Messages sent on it and acknowledgements heard from it.
    pub sent: u64,
    pub heard: u64,
}

impl Msp {
    /// An MSP not yet acknowledged.
    pub fn new(x: SwitchId, y: SwitchId, length: u32, canonical: f64) -> Msp {
        Msp {
            x,
            y,
            length,
            canonical,
            latency: canonical,
            fresh: false,
            sent: 0,
            heard: 0,
        }
    }
    /// Eq. 4.
    pub fn bandwidth(&self) -> f64 {
        1.0 / self.latency.max(1e-9)
    }
}

/// The last change of a metapath's width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Change {
    #[default]
    None,
    Grow,
    Shrink,
}

/// What the configuration decided on one acknowledgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Keep,
    /// Widen by this many MSPs.
    Grow(u8),
    /// Narrow by one MSP.
    Shrink,
}

/// The metapath of one pair and its configuration state.
#[derive(Clone, Debug, PartialEq)]
pub struct Metapath {
    /// The first w MSPs of the pair's candidates (w = `msps.len()`), the
    /// canonical path first.
    pub msps: Vec<Msp>,
    /// The supernode size the candidates come from (both supernodes).
    pub size: u8,
    /// L_c: the canonical latency of the pair.
    pub canonical: f64,
    /// Most MSPs the supernodes can offer (known once the configuration
    /// has asked for more than there were).
    pub available: Option<u8>,
    /// Acknowledgements heard in all, and width changes made.
    pub acks: u64,
    pub changes: u32,
    /// Acknowledgements since the last change.
    pub acks_since_change: u32,
    /// Consecutive out-of-band acknowledgements: positive above the band,
    /// negative below.
    streak: i32,
    shrink_hold: u32,
    last_change: Change,
    /// Running average of the cycles between the pair's messages, the
    /// cycle of the last one, and the average when the metapath last grew.
    interval: f64,
    last_sent: Option<u64>,
    grow_interval: f64,
}

impl Metapath {
    /// The canonical metapath of a pair (its minimal static path, w = 1).
    pub fn canonical(a: SwitchId, b: SwitchId, length: u32, timing: &Timing) -> Metapath {
        let lc = timing.zero_load(length + 1) as f64;
        Metapath {
            msps: vec![Msp::new(a, b, length, lc)],
            size: 0,
            canonical: lc,
            available: None,
            acks: 0,
            changes: 0,
            acks_since_change: 0,
            streak: 0,
            shrink_hold: HOLD_START,
            last_change: Change::None,
            interval: 0.0,
            last_sent: None,
            grow_interval: 0.0,
        }
    }

    /// The pair sent a message at cycle `now` (its rate's running average).
    pub fn sent_at(&mut self, now: u64) {
        if let Some(t) = self.last_sent {
            let gap = now.saturating_sub(t) as f64;
            self.interval = if self.interval == 0.0 {
                gap
            } else {
                self.interval + RATE_WEIGHT * (gap - self.interval)
            };
        }
        self.last_sent = Some(now);
    }

    /// The running average of the cycles between the pair's messages (0
    /// before two have been sent).
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// True when the pair's rate has fallen below [`SHRINK_RATE`] of its
    /// rate when the metapath last grew.
    pub fn load_fell(&self) -> bool {
        self.grow_interval > 0.0 && self.interval * SHRINK_RATE > self.grow_interval
    }

    /// Metapath width w.
    pub fn width(&self) -> usize {
        self.msps.len()
    }

    /// Eq. 8: the metapath bandwidth, the sum of its MSPs' bandwidths.
    pub fn bandwidth(&self) -> f64 {
        self.msps.iter().map(Msp::bandwidth).sum()
    }

    /// Eq. 7: the metapath latency, its MSPs' latencies in parallel.
    pub fn latency(&self) -> f64 {
        1.0 / self.bandwidth().max(1e-12)
    }

    /// L̄ = w·Latency(P*): the harmonic mean of the MSP latencies, the
    /// value the configuration compares with the threshold.
    pub fn mean_latency(&self) -> f64 {
        self.width() as f64 * self.latency()
    }

    /// ThL = L_c·(1 + τ).
    pub fn threshold(&self, p: &Params) -> f64 {
        self.canonical * (1.0 + p.tau)
    }

    /// The last change made.
    pub fn last_change(&self) -> Change {
        self.last_change
    }

    /// Acknowledgements a shrink must wait since the last change.
    pub fn shrink_hold(&self) -> u32 {
        self.shrink_hold
    }

    /// Eqs. 11 and 12: the MSP whose interval of the cumulative
    /// distribution of MSP bandwidths holds `r` (uniform in [0, 1)).
    pub fn select(&self, r: f64) -> usize {
        let total = self.bandwidth();
        let target = r * total;
        let mut acc = 0.0;
        for (i, m) in self.msps.iter().enumerate() {
            acc += m.bandwidth();
            if target < acc {
                return i;
            }
        }
        self.msps.len() - 1
    }

    /// Eq. 9 (k = 1): the smallest Δ ≥ 1 with
    /// `BW + BWc·Tol·Δ(Δ+1)/2 ≥ BWc`, at most `room`.
    pub fn growth(&self, p: &Params, room: u8) -> u8 {
        let bwc = 1.0 / self.canonical;
        let bw = self.bandwidth();
        let mut delta = 1u8;
        while delta < room {
            let d = delta as f64;
            if bw + bwc * p.tolerance * d * (d + 1.0) / 2.0 >= bwc {
                break;
            }
            delta += 1;
        }
        delta.min(room.max(1))
    }

    /// An acknowledgement for MSP `index` with latency `latency`: record it
    /// and decide (eqs. 9-10 and the stability guards, module docs).
    pub fn hear(&mut self, index: usize, latency: f64, p: &Params) -> Decision {
        self.acks += 1;
        self.acks_since_change = self.acks_since_change.saturating_add(1);
        if let Some(m) = self.msps.get_mut(index) {
            m.latency = latency;
            m.fresh = true;
            m.heard += 1;
        }
        if !self.msps.iter().all(|m| m.fresh) {
            return Decision::Keep;
        }
        let thl = self.threshold(p);
        let lbar = self.mean_latency();
        if lbar > thl * (1.0 + p.tolerance) {
            self.streak = self.streak.max(0) + 1;
        } else if lbar < thl * (1.0 - p.tolerance) {
            self.streak = self.streak.min(0) - 1;
        } else {
            self.streak = 0;
        }
        let w = self.width() as u8;
        let cap = self.available.unwrap_or(p.max_width).min(p.max_width);
        if self.streak >= PERSIST as i32 && w < cap {
            return Decision::Grow(self.growth(p, cap - w));
        }
        if self.streak <= -(PERSIST as i32)
            && w > 1
            && self.acks_since_change >= self.shrink_hold
            && self.load_fell()
            && self.narrowed_latency() <= thl
        {
            return Decision::Shrink;
        }
        Decision::Keep
    }

    /// The L̄ predicted for this metapath without its last MSP: the others
    /// take its share of the traffic, and their queueing (latency beyond
    /// the canonical) grows in proportion to their share, by w/(w - 1).
    pub fn narrowed_latency(&self) -> f64 {
        let w = self.width();
        if w < 2 {
            return self.mean_latency();
        }
        let rest = &self.msps[..w - 1];
        let n = rest.len() as f64;
        let lbar = n / rest.iter().map(|m| 1.0 / m.latency.max(1e-9)).sum::<f64>();
        let base = n / rest
            .iter()
            .map(|m| 1.0 / m.canonical.max(1e-9))
            .sum::<f64>();
        base + (lbar - base).max(0.0) * w as f64 / n
    }

    /// Install the metapath's new MSP list after a decision (`grew` says
    /// which way): MSPs kept by (X, Y) keep their latency, new ones start
    /// at their canonical latency, and the guards restart.
    pub fn reconfigure(&mut self, msps: Vec<Msp>, size: u8, grew: bool) {
        let old = std::mem::take(&mut self.msps);
        self.msps = msps
            .into_iter()
            .map(|mut m| {
                if let Some(o) = old.iter().find(|o| o.x == m.x && o.y == m.y) {
                    m.latency = o.latency;
                    m.sent = o.sent;
                    m.heard = o.heard;
                }
                m.fresh = false;
                m
            })
            .collect();
        self.size = size;
        if old.len() == self.msps.len() {
            // Nothing changed after all (no more MSPs to offer).
            self.streak = 0;
            return;
        }
        let change = if grew { Change::Grow } else { Change::Shrink };
        if change == Change::Grow {
            if self.last_change == Change::Shrink {
                self.shrink_hold = self.shrink_hold.saturating_mul(2);
            }
            self.grow_interval = self.interval;
        }
        self.last_change = change;
        self.changes += 1;
        self.acks_since_change = 0;
        self.streak = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Params {
        Params {
            tau: 0.5,
            tolerance: 0.2,
            max_width: 3,
        }
    }

    /// The configuration rule by hand: L_c = 20 (9 switches at 2 cycles, a
    /// 1-cycle link, 1-flit packets... here set directly), τ = 0.5, Tol =
    /// 0.2: ThL = 30, the dead band [24, 36].
    #[test]
    fn the_configuration_rule_by_hand() {
        let p = params();
        let mut m = Metapath::canonical(0, 9, 4, &Timing::default());
        m.canonical = 20.0;
        m.msps[0].canonical = 20.0;
        m.msps[0].latency = 20.0;
        assert_eq!(m.threshold(&p), 30.0);
        // Inside the band: nothing, whatever the streak.
        for _ in 0..10 {
            assert_eq!(m.hear(0, 30.0, &p), Decision::Keep);
        }
        // Above it (40 > 36) PERSIST times in a row: grow. BW = 1/40, BWc =
        // 1/20: BW + BWc·0.2·Δ(Δ+1)/2 ≥ BWc needs Δ(Δ+1)/2 ≥ 2.5, Δ = 2.
        for _ in 0..PERSIST - 1 {
            assert_eq!(m.hear(0, 40.0, &p), Decision::Keep);
        }
        assert_eq!(m.hear(0, 40.0, &p), Decision::Grow(2));
        // A streak broken by an in-band value starts again.
        let mut n = m.clone();
        n.hear(0, 30.0, &p);
        assert_eq!(n.streak, 0);
        // Δ is capped by the room left.
        assert_eq!(m.growth(&p, 1), 1);
        // The pair sends every 10 cycles when it widens.
        for t in 0..50 {
            m.sent_at(10 * t);
        }
        // Widen to three MSPs; a new one holds its canonical latency.
        m.reconfigure(
            vec![
                Msp::new(0, 9, 4, 20.0),
                Msp::new(1, 9, 4, 20.0),
                Msp::new(8, 9, 6, 24.0),
            ],
            1,
            true,
        );
        assert_eq!(m.width(), 3);
        assert_eq!(m.msps[0].latency, 40.0, "kept by (X, Y)");
        assert_eq!(m.msps[2].latency, 24.0, "canonical until heard");
        // Eq. 7: 1 / (1/40 + 1/20 + 1/24) = 120/14.
        assert!((m.latency() - 120.0 / 14.0).abs() < 1e-9);
        // No decision before every MSP has been heard since the change.
        for _ in 0..10 {
            assert_eq!(m.hear(0, 10.0, &p), Decision::Keep);
            assert_eq!(m.hear(1, 10.0, &p), Decision::Keep);
        }
        // All three heard low (L̄ = 10 < 24), but the pair's traffic has not
        // fallen since the growth: no shrink.
        for _ in 0..(2 * HOLD_START) {
            assert_eq!(m.hear(2, 10.0, &p), Decision::Keep);
        }
        // Once its messages come twice as far apart or more, it shrinks (the
        // hold has passed).
        let mut t = 1000;
        for _ in 0..400 {
            m.sent_at(t);
            t += 100;
        }
        assert!(m.load_fell());
        assert_eq!(m.hear(2, 10.0, &p), Decision::Shrink);
        let mut m2 = m.clone();
        m2.acks_since_change = 0;
        // A shrink waits for the hold.
        let mut d = Decision::Keep;
        let mut acks = 0;
        while d == Decision::Keep {
            d = m2.hear(2, 10.0, &p);
            acks += 1;
            assert!(acks <= HOLD_START + 1);
        }
        assert_eq!(d, Decision::Shrink);
        assert!(m2.acks_since_change >= HOLD_START);
        let two = m.msps[..2].to_vec();
        m.reconfigure(two, 1, false);
        assert_eq!(
            (m.width(), m.changes, m.last_change()),
            (2, 2, Change::Shrink)
        );
        // A growth that undoes the shrink doubles the next hold.
        m.reconfigure(
            vec![
                Msp::new(0, 9, 4, 20.0),
                Msp::new(1, 9, 4, 20.0),
                Msp::new(8, 9, 6, 24.0),
            ],
            1,
            true,
        );
        assert_eq!(m.shrink_hold(), 2 * HOLD_START);
    }

    /// Eqs. 11-12: MSPs are drawn in proportion to their bandwidths.
    #[test]
    fn selection_follows_the_cumulative_bandwidths() {
        let mut m = Metapath::canonical(0, 9, 4, &Timing::default());
        m.msps = vec![
            Msp::new(0, 9, 4, 10.0),
            Msp::new(1, 9, 4, 20.0),
            Msp::new(2, 9, 4, 20.0),
        ];
        // Bandwidths 0.1, 0.05, 0.05: the cumulative distribution is
        // 0.5, 0.75, 1.
        assert_eq!(m.select(0.0), 0);
        assert_eq!(m.select(0.49), 0);
        assert_eq!(m.select(0.5), 1);
        assert_eq!(m.select(0.74), 1);
        assert_eq!(m.select(0.75), 2);
        assert_eq!(m.select(0.999), 2);
    }
}
