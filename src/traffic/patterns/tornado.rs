//! `tornado` (Dally and Towles §3.2; Singh's thesis §2): on tori and
//! meshes every radix-k digit of the switch moves by ceil(k/2) - 1 (every
//! dimension shifts; 3 hops for k = 8); elsewhere the host id moves by
//! ceil(N/2) - 1 mod N.

use crate::topology::Shape;
use crate::traffic::fixed::fixed;
use crate::traffic::kind::TrafficKind;
use crate::traffic::pattern::{Pattern, map_digits, per_switch};

/// `tornado`.
pub const KIND: TrafficKind = TrafficKind {
    name: "tornado",
    aliases: &[],
    form: "tornado",
    summary: "every digit moves ceil(k/2)-1 the same way round (Dally and Towles §3.2)",
    example: "tornado",
    parse: |spec| {
        fixed(spec, "tornado", |net, _, _| {
            Ok(match net.shape() {
                Shape::Cube { radix, .. } => per_switch(net, |s| {
                    vec![map_digits(radix, s, |k, x| (x + k.div_ceil(2) - 1) % k)]
                }),
                _ => {
                    let n = net.num_hosts() as u32;
                    Pattern::Permutation((0..n).map(|s| (s + n.div_ceil(2) - 1) % n).collect())
                }
            })
        })
    },
};
