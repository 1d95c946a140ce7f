//! The time-slice model's registry entry ([`MODEL`]): what it accepts and
//! the set-up it needs. The fat-tree balancers decide once per time slice
//! from their neighbours' buffer fill, so they run only here; the model is
//! the weighted-path paper's fat tree, and it takes no acknowledgement
//! packets (it has no virtual channels to carry them apart). A message is a
//! one-flit packet, and requests count with the admission limit R and the
//! deadline D.

use super::super::config::RouterConfig;
use super::super::model_kind::{StepUnit, SwitchModelEntry};
use super::TimeSlice;
use crate::routing::fattree::MAX_K;
use crate::routing::{Acknowledgement, RoutingSpec};
use crate::topology::Network;
use crate::topology::fat_tree_params::fat_tree_k;

/// Most requests per server per slice a time-slice scenario may offer.
const MAX_SLICE_LOAD: f64 = 1000.0;

/// `switch_model = timeslice` in the switch-model registry.
pub const MODEL: SwitchModelEntry = SwitchModelEntry {
    name: "timeslice",
    aliases: &["time-slice", "time_slice"],
    summary: "the weighted-path paper's fat tree of unlike switches, one step = one time slice",
    unit: StepUnit {
        step: "slices",
        one: "Slice",
        load: "requests per server per slice",
        load_short: "requests/server/slice",
        max_load: MAX_SLICE_LOAD,
    },
    accepts,
    router: one_message_per_packet,
    deadlines: true,
    per_switch_params: true,
    router_params: false,
    build: |net, _router, seed| Ok(Box::new(TimeSlice::new(net, seed)?)),
};

/// A message is a one-flit packet.
fn one_message_per_packet(router: RouterConfig) -> RouterConfig {
    RouterConfig {
        packet_flits: 1,
        ..router
    }
}

/// The fat tree's k, when `net` is one the model takes (k <= [`MAX_K`]),
/// else why not.
pub(super) fn fat_tree_of(net: &Network) -> Result<u32, String> {
    match fat_tree_k(net) {
        Some(k) if k <= MAX_K => Ok(k),
        Some(k) => Err(format!(
            "switch_model = timeslice takes fat trees up to k={MAX_K} (got fattree:{k})"
        )),
        None => Err(format!(
            "switch_model = timeslice models the weighted-path paper's fat tree and needs topology fattree:K (got {})",
            net.spec()
        )),
    }
}

/// A fat tree the model takes, and a routing without acknowledgement
/// packets.
fn accepts(net: &Network, routing: &RoutingSpec) -> Result<(), String> {
    fat_tree_of(net)?;
    if routing.acknowledgement() == Acknowledgement::Packet {
        return Err(format!(
            "routing `{routing}` asks for acknowledgement packets, which switch_model = timeslice does not carry (it has no virtual channels)"
        ));
    }
    Ok(())
}
