//! Which switch model, topology and routing go together: the fat-tree
//! balancers decide once per time slice from their neighbours' buffer fill,
//! so they run only on the time-slice model; the time-slice model is the
//! weighted-path paper's fat tree and takes no acknowledgement packets (it
//! has no virtual channels to carry them apart).

use super::super::config::SwitchModelKind;
use crate::routing::fattree::MAX_K;
use crate::routing::{Acknowledgement, RoutingSpec};
use crate::topology::Network;
use crate::topology::fat_tree_params::fat_tree_k;

/// `Ok` when `routing` can run on `net` with switch model `kind`, else why
/// not, naming what is accepted.
pub fn check_combination(
    kind: SwitchModelKind,
    net: &Network,
    routing: &RoutingSpec,
) -> Result<(), String> {
    match kind {
        SwitchModelKind::InputQueued | SwitchModelKind::OutputQueued
            if routing.time_slice_only() =>
        {
            Err(format!(
                "routing `{routing}` decides once per time slice from its neighbours' buffer fill and runs only on switch_model = timeslice (on {} switches use dmodk, minimal or updown)",
                kind.as_str()
            ))
        }
        SwitchModelKind::InputQueued | SwitchModelKind::OutputQueued => Ok(()),
        SwitchModelKind::TimeSlice => {
            match fat_tree_k(net) {
                Some(k) if k <= MAX_K => {}
                Some(k) => {
                    return Err(format!(
                        "switch_model = timeslice takes fat trees up to k={MAX_K} (got fattree:{k})"
                    ));
                }
                None => {
                    return Err(format!(
                        "switch_model = timeslice models the weighted-path paper's fat tree and needs topology fattree:K (got {})",
                        net.spec()
                    ));
                }
            }
            if routing.acknowledgement() == Acknowledgement::Packet {
                return Err(format!(
                    "routing `{routing}` asks for acknowledgement packets, which switch_model = timeslice does not carry (it has no virtual channels)"
                ));
            }
            Ok(())
        }
    }
}
