//! Routing on the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008, §4):
//! MIN, the minimal route (a local hop to the router with the global
//! channel to the destination's group, that global channel, a local hop
//! to the destination's router), and VAL, Valiant's (minimal to a random
//! intermediate group, §4.1's VAL, or router, BookSim2's draw, then
//! minimal to the destination), and the adaptive routings that choose
//! between them per packet: UGAL-L and UGAL-G (§4.2) and PAR (Jiang, Kim
//! and Dally, ISCA 2009). `routing` holds MIN and VAL and their exact path
//! law, `adaptive` the adaptive routings, `spec` the registry's side
//! (`min`, an alias of `rdor` that is MIN here, `val` extended, `minimal`
//! resolving to MIN, and `ugal-l`, `ugal-g`, `par`).

pub(in crate::routing) mod adaptive;
pub(in crate::routing) mod routing;
pub(in crate::routing) mod spec;

pub use adaptive::{AdaptiveParams, Adaptivity, Decisions, DragonflyAdaptive};
pub use routing::{DragonflyRouting, Intermediate, Mode};
