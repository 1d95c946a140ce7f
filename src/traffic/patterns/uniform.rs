//! `uniform`: every *other* host equally likely (a host never picks
//! itself, so every packet enters the network; Dally and Towles §3.2).

use crate::traffic::fixed::fixed;
use crate::traffic::kind::TrafficKind;
use crate::traffic::pattern::Pattern;

/// `uniform`.
pub const KIND: TrafficKind = TrafficKind {
    name: "uniform",
    aliases: &[],
    form: "uniform",
    summary: "every other host equally likely (Dally and Towles §3.2)",
    example: "uniform",
    parse: |spec| {
        fixed(spec, "uniform", |net, _, _| {
            Ok(Pattern::Uniform {
                hosts: net.num_hosts() as u32,
            })
        })
    },
};
