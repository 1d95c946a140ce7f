//! Every central network view in one list ([`VIEWS`]), and the one a run
//! gets ([`for_run`]): the fat tree under the time-slice model
//! (`fat_tree_view.rs`), an imported fabric (`network_view/fabric.rs`), and
//! the switch graph every other network is drawn as (`network_view`), last
//! because it draws anything. The central panel, the details panel and the
//! curves' clock all ask this one question.

use super::view::{Clock, NetworkView};
use crate::sim::Simulation;

/// The views, most particular first.
pub static VIEWS: &[&dyn NetworkView] = &[
    &super::fat_tree_view::VIEW,
    &super::network_view::FABRIC,
    &super::network_view::GRAPH,
];

/// The view that draws `sim`: the first in [`VIEWS`] that applies.
pub fn for_run(sim: &Simulation) -> &'static dyn NetworkView {
    VIEWS
        .iter()
        .copied()
        .find(|v| v.applies(sim))
        .unwrap_or(&super::network_view::GRAPH)
}

/// Whether any of `runs` is drawn against time slices.
pub fn in_slices<'a>(mut runs: impl Iterator<Item = &'a Simulation>) -> bool {
    runs.any(|s| for_run(s).clock() == Clock::Slices)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in preset gets the view of what it is: the fat tree on
    /// the time-slice model, an imported fabric, or the switch graph; and
    /// each of the three is some preset's view.
    #[test]
    fn every_preset_gets_the_view_of_what_it_is() {
        let (presets, problems) = crate::app::presets::all();
        assert!(problems.is_empty(), "{problems:?}");
        let mut seen = std::collections::BTreeSet::new();
        for p in &presets {
            let sim = p.scenario.build().unwrap();
            let want = if sim.time_slice().is_some() {
                "fat_tree"
            } else if sim.network().fabric().is_some() {
                "fabric"
            } else {
                "graph"
            };
            let view = for_run(&sim);
            assert_eq!(view.id(), want, "{}", p.source);
            assert_eq!(
                view.clock() == Clock::Slices,
                sim.deadlines().is_some(),
                "{}: the curves' clock",
                p.source
            );
            seen.insert(view.id());
        }
        assert_eq!(
            seen.into_iter().collect::<Vec<_>>(),
            ["fabric", "fat_tree", "graph"]
        );
    }
}
