//! Routing on the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008, §4):
//! MIN, the minimal route (a local hop to the router with the global
//! channel to the destination's group, that global channel, a local hop
//! to the destination's router), and VAL, Valiant's (minimal to a random
//! intermediate group, §4.1's VAL, or router, BookSim2's draw, then
//! minimal to the destination). `routing` holds the routing and its
//! exact path law, `spec` the registry's side (`min`, an alias of `rdor`
//! that is MIN here, `val` extended, and `minimal` resolving to MIN).

pub(in crate::routing) mod routing;
pub(in crate::routing) mod spec;

pub use routing::{DragonflyRouting, Intermediate, Mode};
