//! k-ary fat tree (Al-Fares et al.; the weighted-path paper's Figure 1).
//!
//! k pods; per pod k/2 access (edge) and k/2 aggregate switches, fully
//! connected inside the pod; (k/2)² core switches; k/2 servers per access
//! switch. Numbering (see [`super::Shape::FatTree`]): access switches
//! `0..k²/2` (access a of pod p is `p·k/2 + a`), aggregate switches
//! `k²/2 + p·k/2 + a`, core switch j is `k² + j` and links to aggregate
//! `j / (k/2)` of every pod through its port p = pod. Hosts are numbered
//! access-switch-major, so host h sits on access switch `h / (k/2)`.

use super::fat_tree_params::{HETERO_KEYS, HeteroSpec};
use super::kind::{TopologyBuild, TopologyKind, TopologyParam};
use super::spec_parts::{invalid, parse_u32};
use super::{Network, NetworkBuilder, Shape, TopologyError};
use crate::limits::{self, NetworkSize};
use crate::spec_options::{OptionError, Spec};

pub(super) fn build(spec: String, k: u32) -> Network {
    let h = k / 2;
    let access = k * h;
    let core = h * h;
    let total = 2 * access + core;
    let mut b = NetworkBuilder::new(total as usize);
    for s in 0..access {
        b.reserve_ports(s, h as usize);
    }
    for s in access..2 * access {
        b.reserve_ports(s, k as usize);
    }
    for s in 2 * access..total {
        b.reserve_ports(s, k as usize);
    }
    for p in 0..k {
        for a in 0..h {
            let edge = p * h + a;
            for g in 0..h {
                let agg = access + p * h + g;
                // access port g (up) <-> aggregate port a (down)
                b.link_ports(edge, g as u16, agg, a as u16);
            }
        }
    }
    for j in 0..core {
        let c = 2 * access + j;
        let g = j / h;
        for p in 0..k {
            let agg = access + p * h + g;
            // aggregate up port h + (j mod h) <-> core port p
            b.link_ports(agg, (h + j % h) as u16, c, p as u16);
        }
    }
    for s in 0..access {
        for _ in 0..h {
            b.add_host(s);
        }
    }
    // Layers: core on top (y = 0), aggregate y = 2, access y = 4.
    let width = (k * h) as f32;
    let mut pos = Vec::with_capacity(total as usize);
    for s in 0..access {
        pos.push([s as f32 + 0.5, 4.0]);
    }
    for s in 0..access {
        pos.push([s as f32 + 0.5, 2.0]);
    }
    for j in 0..core {
        pos.push([(j as f32 + 0.5) * width / core as f32, 0.0]);
    }
    b.finish(spec, Shape::FatTree { k }, pos)
}

/// The fat-tree paper's greedy steps, then its baselines.
pub const FAT_TREE_CONTRASTS: &[&str] = &[
    "fattree-greedy:step=1",
    "fattree-greedy:step=2",
    "fattree-greedy:step=3",
    "fattree-greedy:step=4",
    "fattree-greedy:step=5",
    "fattree-greedy:step=6",
    "fattree-greedy:step=7",
    "fattree-ecmp",
    "dmodk",
    "fattree-drill",
];

/// `fattree:K`: the k-ary fat tree, with per-switch parameters for the
/// time-slice model (`hetero=`, [`super::fat_tree_params`]).
pub const KIND: TopologyKind = TopologyKind {
    name: "fattree",
    aliases: &[],
    form: "fattree:K (even K, 2..=64)[:hetero=equal|paper][:seed=S][:LEVEL_FIELD=LO-HI][:weak_aggregates=N][:weak_cores=N]",
    summary: "k-ary fat tree (Al-Fares; the weighted-path paper's Fig. 1); for the time-slice model, unlike switches with hetero=paper:seed=S",
    params: &[
        TopologyParam {
            key: "K",
            accepted: "an even number 2..=64",
            default: "",
            meaning: "ports per switch: K pods, K^3/4 servers",
        },
        TopologyParam {
            key: "hetero",
            accepted: "equal, paper",
            default: "none (the switches' parameters are the model's)",
            meaning: "how the switches' buffer, bw_in and bw_out are drawn per level",
        },
        TopologyParam {
            key: "seed",
            accepted: "a whole number",
            default: "1",
            meaning: "the switches' own draw",
        },
    ],
    example: "fattree:4",
    from_file: false,
    contrasts: FAT_TREE_CONTRASTS,
    parse: parse_fat_tree,
};

fn parse_fat_tree(spec: &str) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    let parts = Spec::split(spec);
    let opts = parts.options(1, &HETERO_KEYS).map_err(|e| match e {
        OptionError::UnknownKey { key, .. } if key == "hosts" => invalid(
            spec,
            "fattree has k/2 hosts per access switch; no hosts= option",
        ),
        e => invalid(spec, e.to_string()),
    })?;
    let size = opts
        .positional(0)
        .ok_or_else(|| invalid(spec, "`fattree` needs a size after `:`"))?;
    let given: Vec<(&str, &str)> = HETERO_KEYS
        .iter()
        .filter_map(|&k| opts.get(k).map(|v| (k, v)))
        .collect();
    let hetero = HeteroSpec::parse(&given).map_err(|p| invalid(spec, p))?;
    let k = parse_u32(spec, "k", size)?;
    if k % 2 != 0 || !limits::FAT_TREE_K.contains(&k) {
        return Err(invalid(
            spec,
            format!("k={k}; accepted an even number 2..=64"),
        ));
    }
    if let Some(h) = &hetero {
        h.check(k).map_err(|p| invalid(spec, p))?;
    }
    Ok(Box::new(FatTreeSpec { k, hetero }))
}

/// A parsed `fattree:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FatTreeSpec {
    k: u32,
    /// Per-switch time-slice parameters (`hetero=...`).
    hetero: Option<HeteroSpec>,
}

impl TopologyBuild for FatTreeSpec {
    fn canonical(&self) -> String {
        match &self.hetero {
            None => format!("fattree:{}", self.k),
            Some(h) => format!("fattree:{}:{h}", self.k),
        }
    }
    fn size(&self) -> Option<NetworkSize> {
        let k = self.k as u64;
        Some(NetworkSize {
            switches: 5 * k * k / 4,
            hosts: k * k * k / 4,
            network_channels: k * k * k,
            max_ports: k,
        })
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        let mut net = build(spec, self.k);
        if let Some(h) = &self.hetero {
            net.set_switch_params(h.draw(self.k));
        }
        Ok(net)
    }
}
