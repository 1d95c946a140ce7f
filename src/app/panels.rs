//! The app's side panels in one list ([`Panels`]): static path selection
//! (Villalobos §3-4, Koibuchi §3), the oblivious-routing analysis (Singh
//! §2-3), DRB's metapaths (DRB §2-3) and the dragonfly's adaptive
//! decisions (Kim et al. §4.2), each a [`Panel`], and any panel added at
//! run time. The View menu, the docking rule, the draw, the
//! frame's background work, the sampling as cycles run, what the panels
//! add to the network views and the tours read the list; the three keep
//! their own fields for the tests and tours that read their state.

use super::dragonfly_panel::AdaptiveDecisions;
use super::drb_panel::DrbPanel;
use super::network_view::Selected;
use super::oblivious::ObliviousAnalysis;
use super::panel::{Panel, shown};
use super::path_selection::PathSelection;
use super::session::Session;
use crate::sim::Simulation;

/// Every side panel.
pub struct Panels {
    pub path_selection: PathSelection,
    pub oblivious: ObliviousAnalysis,
    pub drb: DrbPanel,
    /// Panels added at run time ([`Panels::add`]); a new built-in panel
    /// that needs nothing of the others is one more line here, in
    /// `Default`.
    pub extra: Vec<Box<dyn Panel>>,
    /// The panels shown last frame, by id (the docking rule).
    docked: Vec<&'static str>,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            path_selection: PathSelection::default(),
            oblivious: ObliviousAnalysis::default(),
            drb: DrbPanel::default(),
            extra: vec![Box::new(AdaptiveDecisions::default())],
            docked: Vec::new(),
        }
    }
}

impl Panels {
    /// Every panel, in the View menu's order.
    pub fn list(&self) -> Vec<&dyn Panel> {
        let mut v: Vec<&dyn Panel> = vec![&self.path_selection, &self.oblivious, &self.drb];
        v.extend(self.extra.iter().map(|p| p.as_ref()));
        v
    }

    /// The same, to change.
    pub fn list_mut(&mut self) -> Vec<&mut dyn Panel> {
        let mut v: Vec<&mut dyn Panel> =
            vec![&mut self.path_selection, &mut self.oblivious, &mut self.drb];
        v.extend(self.extra.iter_mut().map(|p| p.as_mut() as &mut dyn Panel));
        v
    }

    /// Every panel's id (what a tour's `panel` action may name).
    pub fn ids(&self) -> Vec<&'static str> {
        self.list().iter().map(|p| p.id()).collect()
    }

    /// Add a panel (a test's toy, a plug-in); an id already taken is
    /// refused.
    pub fn add(&mut self, panel: Box<dyn Panel>) -> Result<(), String> {
        if self.ids().contains(&panel.id()) {
            return Err(format!("a panel `{}` is already there", panel.id()));
        }
        self.extra.push(panel);
        Ok(())
    }

    /// The panel `id`.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut dyn Panel> {
        self.list_mut().into_iter().find(|p| p.id() == id)
    }

    /// The ids of the panels shown now (open and applying).
    pub fn shown(&self, session: &Session) -> Vec<&'static str> {
        self.list()
            .into_iter()
            .filter(|p| shown(*p, session))
            .map(|p| p.id())
            .collect()
    }

    /// One right-hand panel at a time: when panels are shown that were
    /// not last frame, the last of them in the list stays and the others
    /// close (a panel that does not apply is left as it is).
    pub fn dock(&mut self, session: &Session) {
        let now = self.shown(session);
        let opened: Vec<&'static str> = now
            .iter()
            .copied()
            .filter(|id| !self.docked.contains(id))
            .collect();
        if let Some(&keep) = opened.last() {
            for p in self.list_mut() {
                if p.id() != keep && shown(p, session) {
                    p.set_open(false, session);
                }
            }
        }
        self.docked = self.shown(session);
    }

    /// Every panel's sample of the runs ([`Panel::sample`]).
    pub fn sample(&mut self, sims: &[&Simulation]) {
        for p in self.list_mut() {
            p.sample(sims);
        }
    }

    /// Every panel's look at the runs after a frame's cycles
    /// ([`Panel::observe`]).
    pub fn observe(&mut self, sims: &[&Simulation]) {
        for p in self.list_mut() {
            p.observe(sims);
        }
    }

    /// Hand the user's pick on the network to the panels, in list order.
    pub fn take_selection(&mut self, selected: &mut Option<Selected>) {
        for p in self.list_mut() {
            p.take_selection(selected);
        }
    }

    /// Background work of every panel this frame; true while any has more.
    pub fn tick(&mut self, session: &Session) -> bool {
        self.list_mut()
            .into_iter()
            .fold(false, |busy, p| p.tick(session) | busy)
    }
}
