//! Static routing over path-selection tables ([`crate::paths`]): every
//! packet follows its switch pair's chosen path, as Myrinet source routing
//! does (Villalobos et al. §5; hosts on a switch share its routes).
//!
//! [`Routing::at_source`] stores the pair index in `RouteState::tag` and
//! resets `RouteState::hop`; each [`Routing::route`] call returns the next
//! hop's port and advances `hop`. The virtual channel: under UDWM the one
//! the path dictates (its VC rule is what makes it deadlock-free); under
//! plain up*/down* any virtual channel (every class is deadlock-free).

use super::kind::{Family, RoutingBuild, RoutingKind};
use super::{Candidates, Hop, Routing, Source};
use crate::paths::{Algorithm, LegalKind, PathsSpec, RouteTables, pair_index};
use crate::topology::{Network, PortId};

pub(super) const KIND: RoutingKind = RoutingKind {
    name: "paths",
    aliases: &[],
    options: ":updown-bfs|updown-dfs|udwm:random|lowport|maxcp|hpcf|lvcf|lpcf|ga|sa\
[:root=N][:objective=sd|max|sumsq][:seed=S][:budget=N][:init=random|maxcp][:cap=N]",
    summary: "static tables chosen by path selection on up*/down* or UDWM",
    families: &[Family::PathSelection],
    parse: |parts| Ok(Box::new(PathsSpec::parse_parts(parts)?)),
    examples: &[
        "paths:updown-bfs:lowport",
        "paths:updown-dfs:maxcp",
        "paths:udwm:lvcf",
        "paths:updown-bfs:sa:budget=2000",
        "paths:updown-dfs:ga:budget=5",
    ],
};

impl RoutingBuild for PathsSpec {
    fn canonical(&self) -> String {
        self.to_string()
    }
    fn applies_to(&self, net: &Network) -> Result<(), String> {
        if self.root as usize >= net.num_switches() {
            return Err(format!(
                "root {}; accepted 0..{}",
                self.root,
                net.num_switches()
            ));
        }
        Ok(())
    }
    /// up*/down* paths are deadlock-free on one virtual channel; UDWM uses
    /// as many as it is given.
    fn min_vcs(&self, _net: &Network) -> u8 {
        1
    }
    fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, String> {
        // Kept tables when the same were selected before (a sweep's loads,
        // the CLI's check before the run): selection takes seconds.
        let tables = crate::paths::memo::tables(self, net, vcs).map_err(|e| e.to_string())?;
        Ok(Box::new(SourceRouted::new(self.to_string(), &tables, vcs)))
    }
    /// Every selection algorithm on the same legal paths.
    fn variants(&self, _net: &Network) -> Vec<String> {
        Algorithm::ALL
            .iter()
            .map(|&a| {
                PathsSpec {
                    select: a,
                    ..self.clone()
                }
                .to_string()
            })
            .collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Routing that follows fixed per-pair paths.
#[derive(Clone, Debug)]
pub struct SourceRouted {
    name: String,
    n: usize,
    first: Vec<u32>,
    hops: Vec<(PortId, u8)>,
    path_vcs: bool,
    vcs: u8,
    /// Chosen paths crossing each switch-to-switch channel (by channel id,
    /// up to the highest channel a path uses).
    crossing: Vec<u32>,
}

impl SourceRouted {
    /// Follow `tables` with `vcs` virtual channels per port (at least the
    /// tables' own under UDWM).
    pub fn new(name: String, tables: &RouteTables, vcs: u8) -> SourceRouted {
        let n = tables.num_switches();
        let mut first = Vec::with_capacity(n * n.saturating_sub(1) + 1);
        let mut hops = Vec::new();
        let mut crossing: Vec<u32> = Vec::new();
        for p in 0..n * n.saturating_sub(1) {
            first.push(hops.len() as u32);
            for h in tables.route_of_pair(p) {
                hops.push((h.port, h.vc));
                let c = h.channel as usize;
                if crossing.len() <= c {
                    crossing.resize(c + 1, 0);
                }
                crossing[c] += 1;
            }
        }
        first.push(hops.len() as u32);
        SourceRouted {
            name,
            n,
            first,
            hops,
            path_vcs: tables.kind() == LegalKind::Udwm,
            vcs: vcs.max(1),
            crossing,
        }
    }

    /// Chosen paths (one per ordered switch pair) crossing each
    /// switch-to-switch channel, by channel id; the same counts as
    /// [`crate::paths::Load`] of the choice, up to the highest channel used.
    pub fn crossing_paths(&self) -> &[u32] {
        &self.crossing
    }
}

impl Routing for SourceRouted {
    fn source_states(&self, pkt: &super::PacketInfo) -> Option<Vec<super::RouteState>> {
        let mut st = super::RouteState::default();
        if pkt.src_switch != pkt.dst_switch {
            st.tag = pair_index(self.n, pkt.src_switch, pkt.dst_switch) as u32;
        }
        Some(vec![st])
    }

    fn name(&self) -> String {
        self.name.clone()
    }
    fn at_source(&mut self, src: Source<'_>) {
        let (pkt, state) = (src.pkt, src.state);
        state.hop = 0;
        if pkt.src_switch != pkt.dst_switch {
            state.tag = pair_index(self.n, pkt.src_switch, pkt.dst_switch) as u32;
        }
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let state = hop.state;
        let p = state.tag as usize;
        let i = self.first[p] as usize + state.hop as usize;
        if i >= self.first[p + 1] as usize {
            return;
        }
        let (port, vc) = self.hops[i];
        state.hop += 1;
        if self.path_vcs {
            out.push(port, vc, vc);
        } else {
            out.push(port, 0, self.vcs - 1);
        }
    }
    fn channel_values(&self) -> Option<(String, Vec<f64>)> {
        Some((
            "crossing paths".to_string(),
            self.crossing.iter().map(|&c| c as f64).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::{Load, PathsSpec};
    use crate::topology::TopologySpec;

    #[test]
    fn channel_values_are_the_crossing_paths_of_the_choice() {
        let spec: TopologySpec = "irregular:8:seed=3".parse().unwrap();
        let net = spec.build().unwrap();
        let paths: PathsSpec = PathsSpec::parse_parts(&["updown-dfs", "maxcp"]).unwrap();
        let (set, choice) = paths.compute(&net, 1).unwrap();
        let r = SourceRouted::new(paths.to_string(), &RouteTables::new(&set, &choice), 1);
        let (label, values) = r.channel_values().unwrap();
        assert_eq!(label, "crossing paths");
        let load = Load::of(&set, &choice);
        for (c, &n) in load.counts().iter().enumerate() {
            assert_eq!(
                values.get(c).copied().unwrap_or(0.0),
                n as f64,
                "channel {c}"
            );
        }
        assert!(values.len() <= net.num_network_channels());
    }
}
