//! Which analysis law a simulator routing stands for, and back: the
//! analysis's specs are simulator specs. Both follow the routing registry
//! ([`crate::analysis::law_of`]).

use crate::analysis::{Law, law_of};
use crate::routing::RoutingSpec;

/// A routing's analysis spec (`dor:tie=plus`, `romm:order=xy`, ...), which
/// is also a simulator routing spec.
pub fn spec_of(r: &Law) -> String {
    r.to_string()
}

/// The analysis law a simulator routing spec or name stands for: every
/// routing whose registry entry hands out a law (DOR with its tie rule, VC
/// classes do not change paths; RDOR, VAL, ROMM, RLB, RLBth); `None` for
/// every other routing (`minimal` included: ask with the running routing's
/// name, which names what it resolved to).
pub fn analysed_routing(spec: &str) -> Option<Law> {
    let s: RoutingSpec = spec.parse().ok()?;
    law_of(&s)
}
