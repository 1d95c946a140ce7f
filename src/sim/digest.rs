//! A canonical digest of a simulation's full statistics, to show that two
//! runs (the native CLI and the browser, two builds, two machines) computed
//! the same thing bit for bit.
//!
//! Every counter and every per-channel, per-switch and per-host value is
//! written as one `name=value` field in a fixed order; floats are written
//! by their bits (`f:` and 16 hex digits), so equal digests mean
//! bit-identical results. The hash is 64-bit FNV-1a over the fields (each
//! field's bytes, then a newline), an explicit algorithm that is the same on
//! every target. Two digests that differ are compared field by field, so
//! a mismatch names the first field that differs.

use super::engine::Simulation;
use serde::Serialize;

/// The fields and their hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Digest {
    /// FNV-1a 64 of the fields, 16 hex digits.
    pub digest: String,
    /// Cycles simulated.
    pub cycle: u64,
    /// `(name, value)` in their fixed order.
    pub fields: Vec<(String, String)>,
}

/// The first field in which two digests differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestMismatch {
    /// Index of the field (or the length of the shorter list).
    pub index: usize,
    pub field: String,
    pub left: String,
    pub right: String,
}

impl std::fmt::Display for DigestMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "field {} `{}` differs: {} != {}",
            self.index, self.field, self.left, self.right
        )
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The fields of a digest, in order.
#[derive(Default)]
struct Fields(Vec<(String, String)>);

impl Fields {
    fn int(&mut self, name: impl Into<String>, v: impl std::fmt::Display) {
        self.0.push((name.into(), v.to_string()));
    }
    fn float(&mut self, name: impl Into<String>, v: f64) {
        self.0
            .push((name.into(), format!("f:{:016x}", v.to_bits())));
    }
    fn text(&mut self, name: impl Into<String>, v: &str) {
        self.0.push((name.into(), v.to_string()));
    }
}

impl Digest {
    fn of(cycle: u64, fields: Vec<(String, String)>) -> Digest {
        let h = fnv1a(
            fields
                .iter()
                .flat_map(|(n, v)| n.bytes().chain([b'=']).chain(v.bytes()).chain([b'\n'])),
        );
        Digest {
            digest: format!("{h:016x}"),
            cycle,
            fields,
        }
    }

    /// The first field that differs from `other`'s, if any.
    pub fn first_difference(&self, other: &Digest) -> Option<DigestMismatch> {
        for (i, (a, b)) in self.fields.iter().zip(&other.fields).enumerate() {
            if a != b {
                return Some(DigestMismatch {
                    index: i,
                    field: if a.0 == b.0 {
                        a.0.clone()
                    } else {
                        format!("{} / {}", a.0, b.0)
                    },
                    left: a.1.clone(),
                    right: b.1.clone(),
                });
            }
        }
        let n = self.fields.len().min(other.fields.len());
        (self.fields.len() != other.fields.len()).then(|| DigestMismatch {
            index: n,
            field: "number of fields".into(),
            left: self.fields.len().to_string(),
            right: other.fields.len().to_string(),
        })
    }

    /// One JSON object: `digest`, `cycle` and `fields` as `[name, value]`
    /// pairs.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Simulation {
    /// The digest of everything this run has measured so far (module docs):
    /// the summary, the lifetime and measured counters, the latency
    /// histogram, the running windows, and per channel, switch and host
    /// every counter, plus the state now (packets in flight and queued,
    /// buffer occupancy per channel).
    pub fn digest(&self) -> Digest {
        let mut f = Fields::default();
        let st = self.stats();
        let s = self.summary();
        f.int("cycle", self.now());
        f.text("topology", &s.topology);
        f.text("routing", &s.routing);
        f.text("switch_model", self.switch_model());
        f.float("summary.offered", s.offered);
        f.float("summary.generated", s.generated);
        f.float("summary.accepted", s.accepted);
        f.float("summary.accepted_fraction", s.accepted_fraction);
        f.float("summary.min_source_delivery", s.min_source_delivery);
        f.float("summary.capacity", s.capacity);
        f.float("summary.avg_latency", s.avg_latency);
        f.int("summary.p50_latency", s.p50_latency);
        f.int("summary.p99_latency", s.p99_latency);
        f.int("summary.max_latency", s.max_latency);
        f.float("summary.avg_hops", s.avg_hops);
        f.int("summary.injected_packets", s.injected_packets);
        f.int("summary.delivered_packets", s.delivered_packets);
        f.int("summary.in_flight_packets", s.in_flight_packets);
        f.int("summary.queued_packets", s.queued_packets);
        f.int("summary.measured_cycles", s.measured_cycles);
        let life = st.lifetime();
        f.int("lifetime.injected_packets", life.injected_packets);
        f.int("lifetime.delivered_packets", life.delivered_packets);
        f.int("lifetime.injected_flits", life.injected_flits);
        f.int("lifetime.delivered_flits", life.delivered_flits);
        f.int("lifetime.acks_delivered", life.acks_delivered);
        f.int("measured.start", st.measure_start());
        f.int("measured.generated_flits", st.generated_flits());
        f.int("measured.delivered_flits", st.delivered_flits());
        f.int("measured.delivered_packets", st.delivered_packets());
        f.int("measured.injected_packets", st.injected_packets());
        f.int("measured.hops_sum", st.hops_sum());
        let h = st.latency();
        f.int("latency.count", h.count());
        f.int("latency.sum", h.sum());
        f.int("latency.max", h.max());
        for (low, count) in h.buckets() {
            f.int(format!("latency.bucket[{low}]"), count);
        }
        for (i, w) in st.windows().iter().enumerate() {
            f.int(format!("window[{i}].start"), w.start);
            f.int(format!("window[{i}].cycle"), w.cycle);
            f.int(
                format!("window[{i}].delivered_packets"),
                w.delivered_packets,
            );
            f.float(format!("window[{i}].accepted"), w.accepted);
            f.float(format!("window[{i}].offered"), w.offered);
            f.float(format!("window[{i}].avg_latency"), w.avg_latency);
            f.int(
                format!("window[{i}].in_flight_packets"),
                w.in_flight_packets,
            );
            f.int(format!("window[{i}].queued_packets"), w.queued_packets);
        }
        let net = self.network();
        let occupancy = self.channel_occupancy();
        for (c, k) in st.channels().iter().enumerate() {
            let name = net.channel_name(c as u32);
            f.int(format!("channel[{c} {name}].flits"), k.flits);
            f.int(format!("channel[{c} {name}].heads"), k.heads);
            f.int(format!("channel[{c} {name}].wait_sum"), k.wait_sum);
            f.int(
                format!("channel[{c} {name}].buffered"),
                occupancy.get(c).copied().unwrap_or(0),
            );
        }
        for (i, &(sum, n)) in st.by_dst_switch().iter().enumerate() {
            f.int(format!("switch[{i}].latency_sum_as_destination"), sum);
            f.int(format!("switch[{i}].packets_as_destination"), n);
        }
        for (i, &(sum, n)) in st.by_src_switch().iter().enumerate() {
            f.int(format!("switch[{i}].latency_sum_as_source"), sum);
            f.int(format!("switch[{i}].packets_as_source"), n);
        }
        for (i, (&g, &d)) in st
            .generated_by_source()
            .iter()
            .zip(st.delivered_by_source())
            .enumerate()
        {
            f.int(format!("host[{i}].generated_packets"), g);
            f.int(format!("host[{i}].delivered_packets"), d);
        }
        f.int("now.in_flight_flits", self.in_flight_flits());
        f.int("now.outstanding_acks", self.endpoints().outstanding_acks());
        Digest::of(self.now(), f.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn fnv1a_known_values() {
        assert_eq!(fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(*b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn equal_runs_equal_digests_and_a_difference_is_named() {
        let s = Scenario {
            topology: "torus:4x4".into(),
            warmup: 100,
            cycles: 400,
            ..Scenario::default()
        };
        let run = |s: &Scenario| {
            let mut sim = s.build().unwrap();
            sim.run_for(s.warmup + s.cycles).unwrap();
            sim.digest()
        };
        let a = run(&s);
        assert_eq!(a, run(&s));
        assert!(a.fields.iter().any(|(n, _)| n.starts_with("channel[")));
        let b = run(&Scenario { seed: 2, ..s });
        assert_ne!(a.digest, b.digest);
        let m = a.first_difference(&b).unwrap();
        assert!(m.to_string().contains(&m.field), "{m}");
        assert_eq!(a.first_difference(&a), None);
    }
}
