//! Which analysis routing a simulator routing stands for, and back: the
//! analysis's specs are simulator specs.

use crate::analysis::{DimOrder, ObliviousRouting};
use crate::routing::{DorSpec, Law, ObliviousSpec, RoutingSpec};

/// A routing's analysis spec (`dor:tie=plus`, `romm:order=xy`, ...), which
/// is also a simulator routing spec.
pub fn spec_of(r: ObliviousRouting) -> String {
    r.to_string()
}

/// The analysis routing a simulator routing spec or name stands for: DOR
/// with its tie rule (VC classes do not change paths) and the five
/// oblivious laws; `None` for every other routing (`minimal` included: ask
/// with the running routing's name, which names what it resolved to).
pub fn analysed_routing(spec: &str) -> Option<ObliviousRouting> {
    let s: RoutingSpec = spec.parse().ok()?;
    if let Some(d) = s.downcast::<DorSpec>() {
        return Some(ObliviousRouting::Dor { tie: d.tie });
    }
    let o = s.downcast::<ObliviousSpec>()?;
    Some(match o.law {
        Law::Rdor => ObliviousRouting::Rdor,
        Law::Val => ObliviousRouting::Val,
        Law::Romm { random_order } => ObliviousRouting::Romm {
            order: if random_order {
                DimOrder::Random
            } else {
                DimOrder::Xy
            },
        },
        Law::Rlb => ObliviousRouting::Rlb,
        Law::RlbTh => ObliviousRouting::RlbTh,
    })
}
