//! Crossing paths per channel and the value of each [`Objective`] on them.
//!
//! "Crossing paths" of a channel is the number of chosen routing paths that
//! cross it (Villalobos et al. §2; Koibuchi et al. §4.3.1 and Tables 2-4,
//! which report its standard deviation over the physical channels). Counts
//! are kept per **physical switch-to-switch channel**; every such channel
//! counts, used or not.
//!
//! [`Load`] updates the counts, their sum of squares and a histogram (for
//! the maximum) in O(1) per channel, so changing one pair's path costs
//! O(length of the old and new path), which is what lets simulated
//! annealing and the genetic algorithm evaluate a move without recounting
//! every channel.

use super::pathset::PathSet;
use super::search::{Choice, Objective};
use serde::Serialize;

/// Crossing paths per physical channel with incremental statistics.
#[derive(Clone, Debug)]
pub struct Load {
    counts: Vec<u32>,
    /// `hist[c]` = channels with count c.
    hist: Vec<u32>,
    max: u32,
    sum: u64,
    sumsq: u64,
}

impl Load {
    /// All zero over `channels` channels.
    pub fn new(channels: usize) -> Load {
        Load {
            counts: vec![0; channels],
            hist: vec![channels as u32],
            max: 0,
            sum: 0,
            sumsq: 0,
        }
    }

    /// The load of a complete choice.
    pub fn of(set: &PathSet, choice: &Choice) -> Load {
        let mut l = Load::new(set.num_channels());
        for (p, &j) in choice.iter().enumerate() {
            l.add_path(set, set.pair_path(p, j));
        }
        l
    }

    #[inline]
    pub fn inc(&mut self, ch: usize) {
        let c = self.counts[ch];
        self.hist[c as usize] -= 1;
        let c1 = c + 1;
        if self.hist.len() <= c1 as usize {
            self.hist.push(0);
        }
        self.hist[c1 as usize] += 1;
        self.counts[ch] = c1;
        self.sum += 1;
        self.sumsq += 2 * c as u64 + 1;
        if c1 > self.max {
            self.max = c1;
        }
    }

    #[inline]
    pub fn dec(&mut self, ch: usize) {
        let c = self.counts[ch];
        debug_assert!(c > 0);
        self.hist[c as usize] -= 1;
        self.hist[c as usize - 1] += 1;
        self.counts[ch] = c - 1;
        self.sum -= 1;
        self.sumsq -= 2 * c as u64 - 1;
        while self.max > 0 && self.hist[self.max as usize] == 0 {
            self.max -= 1;
        }
    }

    /// Add one path (hop codes of `set`).
    #[inline]
    pub fn add_path(&mut self, set: &PathSet, hops: &[u32]) {
        for &h in hops {
            self.inc(set.channel_of(h));
        }
    }
    /// Remove one path.
    #[inline]
    pub fn remove_path(&mut self, set: &PathSet, hops: &[u32]) {
        for &h in hops {
            self.dec(set.channel_of(h));
        }
    }

    pub fn counts(&self) -> &[u32] {
        &self.counts
    }
    pub fn max(&self) -> u32 {
        self.max
    }
    pub fn sum(&self) -> u64 {
        self.sum
    }
    pub fn sumsq(&self) -> u64 {
        self.sumsq
    }
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.counts.len().max(1) as f64
    }
    /// Population standard deviation over all channels.
    pub fn sd(&self) -> f64 {
        let m = self.counts.len().max(1) as f64;
        let mean = self.sum as f64 / m;
        (self.sumsq as f64 / m - mean * mean).max(0.0).sqrt()
    }

    /// The reported value of an objective.
    pub fn value(&self, o: Objective) -> f64 {
        match o {
            Objective::Sd => self.sd(),
            Objective::Max => self.max as f64,
            Objective::Sumsq => self.sumsq as f64,
        }
    }

    /// What a search minimises for an objective (see [`Objective::Max`]).
    #[inline]
    pub fn cost(&self, o: Objective) -> f64 {
        match o {
            Objective::Sd => self.sd(),
            Objective::Max => {
                let m = self.max as f64;
                m + self.sumsq as f64 / (self.counts.len() as f64 * m * m + 1.0)
            }
            Objective::Sumsq => self.sumsq as f64,
        }
    }

    /// Summary statistics.
    pub fn stats(&self) -> CrossingStats {
        CrossingStats {
            sd: self.sd(),
            max: self.max,
            mean: self.mean(),
            min: self.counts.iter().copied().min().unwrap_or(0),
            sumsq: self.sumsq,
            channels: self.counts.len(),
        }
    }
}

/// Crossing-path statistics over the physical switch-to-switch channels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CrossingStats {
    pub sd: f64,
    pub max: u32,
    pub mean: f64,
    pub min: u32,
    pub sumsq: u64,
    pub channels: usize,
}

impl CrossingStats {
    /// The reported value of an objective.
    pub fn value(&self, o: Objective) -> f64 {
        match o {
            Objective::Sd => self.sd,
            Objective::Max => self.max as f64,
            Objective::Sumsq => self.sumsq as f64,
        }
    }
}
