//! `randperm`: a random permutation of the hosts, drawn once from the
//! run's traffic stream (so a seed fixes it).

use crate::rng::below;
use crate::topology::HostId;
use crate::traffic::fixed::fixed;
use crate::traffic::kind::TrafficKind;
use crate::traffic::pattern::Pattern;

/// `randperm`.
pub const KIND: TrafficKind = TrafficKind {
    name: "randperm",
    aliases: &[],
    form: "randperm",
    summary: "a random permutation of the hosts, drawn once from the run's traffic stream",
    example: "randperm",
    parse: |spec| {
        fixed(spec, "randperm", |net, rng, _| {
            let n = net.num_hosts() as u32;
            // Fisher-Yates from the last place down.
            let mut p: Vec<HostId> = (0..n).collect();
            for i in (1..n as usize).rev() {
                let j = below(rng, i as u32 + 1) as usize;
                p.swap(i, j);
            }
            Ok(Pattern::Permutation(p))
        })
    },
};
