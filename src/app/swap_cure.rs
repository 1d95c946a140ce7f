//! A refused live swap that a change of the scenario cures: the way out a
//! refusal offers as a button ("Restart with 8 VCs and swap").
//!
//! A live swap keeps the run's network, router and switch model, so a
//! routing that needs more virtual channels than the run has, a free
//! choice among its candidates where the run's selection is `fixed`,
//! VCs reallocated only into empty buffers, or another switch model is
//! refused. Each of these is a scenario field: [`cure`] changes the fields
//! the routing needs, checks by building that the changed scenario runs
//! and accepts the swap, and says what it changed. The app then applies
//! the changed scenario (cycle 0), swaps at once, and keeps the scenario
//! it replaced for the scenario panel's Revert.

use crate::routing::{RoutingSpec, Selection};
use crate::scenario::Scenario;
use crate::sim::{Simulation, SwitchModelKind};
use crate::topology::Network;

/// A scenario that accepts a refused swap.
#[derive(Clone, Debug, PartialEq)]
pub struct Cure {
    /// The scenario to restart with (the running one with `changes`).
    pub scenario: Scenario,
    /// The routing to swap to once it runs.
    pub spec: String,
    /// What was changed, for the button and the notice: `8 VCs`,
    /// `selection first-free`, `the time-slice model`.
    pub changes: Vec<String>,
}

impl Cure {
    /// The button's label: "Restart with 8 VCs and swap".
    pub fn label(&self) -> String {
        let changes = self.changes.join(" and ");
        let with = if changes.starts_with("the ") {
            "on"
        } else {
            "with"
        };
        format!("Restart {with} {changes} and swap")
    }
}

/// The scenario changes that make `spec` swappable on a run of `running`,
/// or `None` when the swap needs none (it was refused for another reason)
/// or no change of the VCs, the selection, the tail-credit rule or the
/// switch model makes it run. `net` is the running network, `run_routing`
/// the routing of the run to swap (run A's, or run B's).
pub fn cure(running: &Scenario, net: &Network, spec: &str, run_routing: &str) -> Option<Cure> {
    let parsed: RoutingSpec = spec.parse().ok()?;
    let mut s = running.clone();
    let mut changes = Vec::new();
    // The switch model first: the others depend on the router it runs.
    if s.switch_model.check(net, &parsed).is_err() {
        let model = SwitchModelKind::ALL
            .iter()
            .find(|m| m.check(net, &parsed).is_ok())?;
        s.switch_model = *model;
        changes.push(format!("the {model} model"));
    }
    let need = Simulation::vcs_needed(&parsed, net);
    if s.switch_model.uses_router_params() && need > s.vcs {
        s.vcs = need;
        changes.push(format!("{need} VCs"));
    }
    if s.switch_model.uses_router_params() {
        if parsed.needs_free_choice() && s.selection == Selection::Fixed {
            s.selection = Selection::FirstFree;
            changes.push("selection first-free".into());
        }
        if parsed.needs_tail_credit() && s.buffer_flits > 1 && !s.wait_for_tail_credit {
            s.wait_for_tail_credit = true;
            changes.push("VCs reallocated only when empty".into());
        }
    }
    if changes.is_empty() {
        return None;
    }
    // It must run, and take the swap, as the click will do it.
    // (The swap is checked as it would be taken, without measuring a
    // threshold the routing reads on the router: the click's restart
    // measures it in the background, as every command does.)
    let trial = Scenario {
        routing: run_routing.to_string(),
        ..s.clone()
    }
    .build()
    .ok()?;
    trial.routing_for_swap(&parsed).ok()?;
    Some(Cure {
        scenario: s,
        spec: spec.to_string(),
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cure(s: &Scenario, spec: &str) -> Option<Cure> {
        let net = s.prepare().unwrap().network;
        super::cure(s, &net, spec, &s.routing)
    }

    fn preset(name: &str) -> Scenario {
        let text = std::fs::read_to_string(format!(
            "{}/assets/scenarios/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        Scenario::from_json(&text).unwrap()
    }

    /// The tornado preset has 2 VCs; RLB climbs through 8 classes.
    #[test]
    fn rlb_on_the_tornado_preset_needs_eight_vcs() {
        let s = preset("torus-dor-tornado.json");
        assert_eq!(s.vcs, 2);
        let c = cure(&s, "rlb").expect("a cure");
        assert_eq!(c.scenario.vcs, 8);
        assert_eq!(c.label(), "Restart with 8 VCs and swap");
        assert_eq!(
            Scenario {
                vcs: 2,
                ..c.scenario.clone()
            },
            s,
            "only the VCs changed"
        );
    }

    /// A swap refused for a reason no scenario field cures offers nothing,
    /// and a swap that needs nothing is not "cured".
    #[test]
    fn no_cure_without_a_curable_refusal() {
        let s = preset("torus-dor-tornado.json");
        assert_eq!(cure(&s, "dor:tie=random"), None);
        assert_eq!(cure(&s, "no-such-routing"), None);
        assert_eq!(cure(&s, "updown:root=0").map(|c| c.changes), None);
    }

    /// Minimal adaptive routing with a fixed selection would wait for its
    /// first choice forever: the cure picks a free choice.
    #[test]
    fn adaptive_routing_gets_a_free_choice() {
        let s = preset("torus-dor-uniform.json");
        assert_eq!(s.selection, Selection::Fixed);
        let c = cure(&s, "adaptive").expect("a cure");
        assert!(
            c.changes.contains(&"selection first-free".to_string()),
            "{:?}",
            c.changes
        );
        assert!(
            c.scenario
                .build()
                .unwrap()
                .swap_routing(&"adaptive".parse().unwrap())
                .is_ok()
        );
    }

    /// A fat-tree balancer that decides per time slice moves the run onto
    /// the time-slice model.
    #[test]
    fn a_time_slice_balancer_moves_the_run_to_its_model() {
        let s = preset("fattree-dmodk-uniform.json");
        assert_ne!(s.switch_model, SwitchModelKind::TIME_SLICE);
        let c = cure(&s, "fattree-greedy:step=7").expect("a cure");
        assert_eq!(c.scenario.switch_model, SwitchModelKind::TIME_SLICE);
        assert!(c.label().starts_with("Restart on the "), "{}", c.label());
    }
}
