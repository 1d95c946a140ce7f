//! Routing tables from a choice (Villalobos et al. §2 stage 3, "building
//! routing tables"): a **source route** per ordered switch pair (every host
//! on the source switch uses its switch's route, as Myrinet source routing
//! does) and, where the choice allows, **per-switch forwarding tables**
//! (destination-based, InfiniBand style): switch x has an entry for
//! destination t when every chosen path through x towards t leaves by the
//! same port (and, under UDWM, on the same virtual channel). Pairs of
//! (switch, destination) where chosen paths disagree are listed as
//! conflicts: those need source routing.

use super::legal::LegalKind;
use super::pathset::{Hop, PathSet, pair_count, pair_index, pair_of};
use super::search::Choice;
use crate::topology::{PortId, SwitchId};
use serde::Serialize;
use std::collections::BTreeMap;

/// The chosen route of every pair.
#[derive(Clone, Debug)]
pub struct RouteTables {
    n: usize,
    vcs: u8,
    kind: LegalKind,
    first: Vec<u32>,
    hops: Vec<Hop>,
}

/// One destination-based table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ForwardingEntry {
    pub switch: SwitchId,
    pub dst: SwitchId,
    pub port: PortId,
    pub vc: u8,
}

/// A (switch, destination) whose chosen paths use different outputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub switch: SwitchId,
    pub dst: SwitchId,
    /// Distinct (port, vc) used, sorted.
    pub outputs: Vec<(PortId, u8)>,
}

/// One pair's source route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RouteEntry {
    pub src: SwitchId,
    pub dst: SwitchId,
    /// `[switch, port, vc]` per hop.
    pub hops: Vec<[u32; 3]>,
}

/// The exported file (`paths --tables FILE`).
#[derive(Clone, Debug, Serialize)]
pub struct TablesFile {
    pub topology: String,
    pub routing: LegalKind,
    pub root: SwitchId,
    pub vcs: u8,
    pub select: String,
    pub objective: String,
    /// Hosts on a switch share the switch's route.
    pub routes: Vec<RouteEntry>,
    pub forwarding: Vec<ForwardingEntry>,
    pub forwarding_conflicts: Vec<Conflict>,
}

impl RouteTables {
    pub fn new(set: &PathSet, choice: &Choice) -> RouteTables {
        let n = set.num_switches();
        let mut first = Vec::with_capacity(pair_count(n) + 1);
        let mut hops = Vec::new();
        for (p, &j) in choice.iter().enumerate() {
            first.push(hops.len() as u32);
            let id = set.paths_of(p).start + j;
            hops.extend(set.hop_details(id));
        }
        first.push(hops.len() as u32);
        RouteTables {
            n,
            vcs: set.vcs(),
            kind: set.kind(),
            first,
            hops,
        }
    }
    /// Bytes the tables hold on the heap (their routes and offsets).
    pub fn heap_bytes(&self) -> usize {
        self.hops.len() * std::mem::size_of::<Hop>() + self.first.len() * 4
    }
    pub fn num_switches(&self) -> usize {
        self.n
    }
    pub fn vcs(&self) -> u8 {
        self.vcs
    }
    pub fn kind(&self) -> LegalKind {
        self.kind
    }
    /// Hops of the route from switch `s` to switch `t` (empty when s = t).
    pub fn route(&self, s: SwitchId, t: SwitchId) -> &[Hop] {
        if s == t {
            return &[];
        }
        let p = pair_index(self.n, s, t);
        &self.hops[self.first[p] as usize..self.first[p + 1] as usize]
    }
    /// Hops of pair index `p`.
    pub fn route_of_pair(&self, p: usize) -> &[Hop] {
        &self.hops[self.first[p] as usize..self.first[p + 1] as usize]
    }

    /// Destination-based tables where the choice allows, and the conflicts.
    pub fn forwarding(&self) -> (Vec<ForwardingEntry>, Vec<Conflict>) {
        let n = self.n;
        let with_vc = self.kind == LegalKind::Udwm;
        let mut entry: Vec<Option<(PortId, u8)>> = vec![None; n * n];
        let mut conflicts: BTreeMap<(SwitchId, SwitchId), Vec<(PortId, u8)>> = BTreeMap::new();
        for p in 0..pair_count(n) {
            let (_, t) = pair_of(n, p);
            for h in self.route_of_pair(p) {
                let out = (h.port, if with_vc { h.vc } else { 0 });
                let e = &mut entry[h.switch as usize * n + t as usize];
                match *e {
                    None => *e = Some(out),
                    Some(prev) if prev != out => {
                        let c = conflicts.entry((h.switch, t)).or_insert_with(|| vec![prev]);
                        if !c.contains(&out) {
                            c.push(out);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut table = Vec::new();
        for x in 0..n {
            for t in 0..n {
                if let Some((port, vc)) = entry[x * n + t]
                    && !conflicts.contains_key(&(x as SwitchId, t as SwitchId))
                {
                    table.push(ForwardingEntry {
                        switch: x as SwitchId,
                        dst: t as SwitchId,
                        port,
                        vc,
                    });
                }
            }
        }
        let conflicts = conflicts
            .into_iter()
            .map(|((switch, dst), mut outputs)| {
                outputs.sort_unstable();
                Conflict {
                    switch,
                    dst,
                    outputs,
                }
            })
            .collect();
        (table, conflicts)
    }

    /// Everything, ready to serialise.
    pub fn file(&self, set: &PathSet, select: &str, objective: &str) -> TablesFile {
        let (forwarding, forwarding_conflicts) = self.forwarding();
        TablesFile {
            topology: set.topology().to_string(),
            routing: self.kind,
            root: set.root(),
            vcs: self.vcs,
            select: select.to_string(),
            objective: objective.to_string(),
            routes: (0..pair_count(self.n))
                .map(|p| {
                    let (src, dst) = pair_of(self.n, p);
                    RouteEntry {
                        src,
                        dst,
                        hops: self
                            .route_of_pair(p)
                            .iter()
                            .map(|h| [h.switch, h.port as u32, h.vc as u32])
                            .collect(),
                    }
                })
                .collect(),
            forwarding,
            forwarding_conflicts,
        }
    }
}
