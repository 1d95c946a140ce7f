//! Latency histogram: exact below 4096 cycles, then 64 log-spaced buckets per
//! power of two (relative error under 1.6 %). Constant memory however many
//! packets are delivered.

const EXACT: u64 = 4096;
const SUB: u64 = 64;

/// Counts of latencies.
#[derive(Clone, Debug)]
pub struct Histogram {
    exact: Vec<u64>,
    log: Vec<u64>,
    count: u64,
    sum: u128,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            exact: vec![0; EXACT as usize],
            log: vec![0; (64 * SUB) as usize],
            count: 0,
            sum: 0,
            max: 0,
        }
    }
}

fn log_bucket(v: u64) -> usize {
    let p = 63 - v.leading_zeros() as u64; // >= 12
    let frac = (v >> (p - 6)) & (SUB - 1);
    (p * SUB + frac) as usize
}

fn log_bucket_low(i: usize) -> u64 {
    let p = i as u64 / SUB;
    let frac = i as u64 % SUB;
    (1 << p) + (frac << (p - 6))
}

impl Histogram {
    #[inline]
    pub fn record(&mut self, v: u64) {
        self.count += 1;
        self.sum += v as u128;
        self.max = self.max.max(v);
        if v < EXACT {
            self.exact[v as usize] += 1;
        } else {
            self.log[log_bucket(v)] += 1;
        }
    }
    pub fn count(&self) -> u64 {
        self.count
    }
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }
    pub fn max(&self) -> u64 {
        self.max
    }
    /// Sum of the recorded values.
    pub fn sum(&self) -> u128 {
        self.sum
    }
    /// Every non-empty bucket as (its lowest value, count), lowest first.
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let exact = self.exact.iter().enumerate().map(|(v, &c)| (v as u64, c));
        let log = self
            .log
            .iter()
            .enumerate()
            .filter(|&(i, _)| i as u64 >= 12 * SUB)
            .map(|(i, &c)| (log_bucket_low(i), c));
        exact.chain(log).filter(|&(_, c)| c > 0)
    }
    /// Smallest recorded value v such that at least `q` of the values are
    /// <= v (lower edge of its bucket above 4096).
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let target = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (v, &c) in self.exact.iter().enumerate() {
            seen += c;
            if seen >= target {
                return v as u64;
            }
        }
        for (i, &c) in self.log.iter().enumerate() {
            seen += c;
            if seen >= target {
                return log_bucket_low(i).min(self.max);
            }
        }
        self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn quantiles_exact_and_log() {
        let mut h = Histogram::default();
        for v in 1..=100 {
            h.record(v);
        }
        assert_eq!(h.quantile(0.5), 50);
        assert_eq!(h.quantile(0.99), 99);
        assert_eq!(h.max(), 100);
        assert!((h.mean() - 50.5).abs() < 1e-12);
        let mut h = Histogram::default();
        h.record(10_000);
        let q = h.quantile(0.5);
        assert!(q <= 10_000 && q as f64 >= 10_000.0 * 0.984, "{q}");
    }
}
