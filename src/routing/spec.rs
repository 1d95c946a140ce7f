//! Routing spec strings: `minimal` (the topology's own minimal routing),
//! `dor[:tie=plus|random|parity]`, `updown[:root=N]`, `dmodk`, and static
//! path-selection tables `paths:LEGAL:SELECT[:opts]` ([`crate::paths`]).

use super::{
    CubeDor, DModK, Ecube, MidimewMinimal, Routing, SourceRouted, TieRule, UpDown, UpDownTables,
    VcClasses,
};
use crate::paths::PathsSpec;
use crate::topology::{Network, Shape};
use std::fmt;
use std::str::FromStr;

/// The accepted forms, quoted in every error.
pub const ACCEPTED: &str = "minimal, dor[:tie=plus|random|parity][:classes=strict|balanced], updown[:root=N], dmodk, \
paths:updown-bfs|updown-dfs|udwm:random|lowport|maxcp|hpcf|lvcf|lpcf|ga|sa\
[:root=N][:objective=sd|max|sumsq][:seed=S][:budget=N][:init=random|maxcp][:cap=N]";

/// A routing that cannot be parsed or built.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("routing `{spec}`: {problem}; accepted: {accepted}")]
pub struct RoutingError {
    pub spec: String,
    pub problem: String,
    pub accepted: String,
}

fn err(spec: &str, problem: impl Into<String>) -> RoutingError {
    RoutingError {
        spec: spec.into(),
        problem: problem.into(),
        accepted: ACCEPTED.into(),
    }
}

/// A parsed routing spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutingSpec {
    /// The topology's minimal static routing: DOR on tori and meshes, e-cube
    /// on hypercubes, the minimal rule on midimew, D-mod-k on fat trees,
    /// up*/down* on irregular networks.
    Minimal,
    /// Dimension order (tori, meshes, hypercubes, midimew).
    Dor { tie: TieRule, classes: VcClasses },
    /// up*/down* with a BFS tree from `root`.
    UpDown { root: u32 },
    /// D-mod-k on fat trees.
    DModK,
    /// Static tables from path selection (`paths:updown-bfs:maxcp`).
    Paths(PathsSpec),
}

impl FromStr for RoutingSpec {
    type Err = RoutingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some(rest) = s
            .strip_prefix("paths:")
            .or(if s == "paths" { Some("") } else { None })
        {
            let parts: Vec<&str> = rest.split(':').collect();
            return PathsSpec::parse_parts(&parts)
                .map(RoutingSpec::Paths)
                .map_err(|problem| err(s, problem));
        }
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or("");
        let mut opts = Vec::new();
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| err(s, format!("option `{p}` is not key=value")))?;
            opts.push((k, v));
        }
        let no_opts = |r: RoutingSpec| {
            if let Some((k, _)) = opts.first() {
                Err(err(s, format!("`{name}` takes no option `{k}`")))
            } else {
                Ok(r)
            }
        };
        match name {
            "minimal" | "default" => no_opts(RoutingSpec::Minimal),
            "dmodk" => no_opts(RoutingSpec::DModK),
            "dor" => {
                let mut tie = TieRule::Plus;
                let mut classes = VcClasses::Strict;
                for (k, v) in opts {
                    match k {
                        "classes" => {
                            classes = VcClasses::parse(v).ok_or_else(|| {
                                err(
                                    s,
                                    format!("classes `{v}`; accepted {}", VcClasses::ACCEPTED),
                                )
                            })?
                        }
                        "tie" => {
                            tie = TieRule::parse(v).ok_or_else(|| {
                                err(s, format!("tie `{v}`; accepted {}", TieRule::ACCEPTED))
                            })?
                        }
                        _ => return Err(err(s, format!("`dor` takes no option `{k}`"))),
                    }
                }
                Ok(RoutingSpec::Dor { tie, classes })
            }
            "updown" => {
                let mut root = 0;
                for (k, v) in opts {
                    match k {
                        "root" => {
                            root = v
                                .parse()
                                .map_err(|_| err(s, format!("root `{v}` is not a switch number")))?
                        }
                        _ => return Err(err(s, format!("`updown` takes no option `{k}`"))),
                    }
                }
                Ok(RoutingSpec::UpDown { root })
            }
            _ => Err(err(s, format!("unknown routing `{name}`"))),
        }
    }
}

impl fmt::Display for RoutingSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoutingSpec::Minimal => write!(f, "minimal"),
            RoutingSpec::Dor { tie, classes } => {
                write!(f, "dor")?;
                if *tie != TieRule::Plus {
                    write!(f, ":tie={}", tie.as_str())?;
                }
                if *classes != VcClasses::Strict {
                    write!(f, ":classes={}", classes.as_str())?;
                }
                Ok(())
            }
            RoutingSpec::UpDown { root } => {
                if *root == 0 {
                    write!(f, "updown")
                } else {
                    write!(f, "updown:root={root}")
                }
            }
            RoutingSpec::DModK => write!(f, "dmodk"),
            RoutingSpec::Paths(p) => write!(f, "{p}"),
        }
    }
}

impl RoutingSpec {
    /// Build the routing for a network with `vcs` virtual channels per port.
    pub fn build(&self, net: &Network, vcs: u8) -> Result<Box<dyn Routing>, RoutingError> {
        let spec = self.to_string();
        if vcs == 0 {
            return Err(err(&spec, "needs at least 1 virtual channel"));
        }
        let dateline = |what: &str| {
            if vcs < 2 {
                Err(err(
                    &spec,
                    format!(
                        "{what} needs at least 2 virtual channels for its dateline classes (got {vcs})"
                    ),
                ))
            } else {
                Ok(())
            }
        };
        match (self, net.shape()) {
            (RoutingSpec::Paths(p), _) => {
                if p.root as usize >= net.num_switches() {
                    return Err(err(
                        &spec,
                        format!("root {}; accepted 0..{}", p.root, net.num_switches()),
                    ));
                }
                let tables = p.tables(net, vcs).map_err(|e| err(&spec, e.to_string()))?;
                Ok(Box::new(SourceRouted::new(spec.clone(), &tables, vcs)))
            }
            (RoutingSpec::Minimal, Shape::FatTree { k })
            | (RoutingSpec::DModK, Shape::FatTree { k }) => Ok(Box::new(DModK::new(*k, vcs))),
            (RoutingSpec::Minimal, Shape::Irregular) => {
                RoutingSpec::UpDown { root: 0 }.build(net, vcs)
            }
            (RoutingSpec::Minimal, _) => RoutingSpec::Dor {
                tie: TieRule::Plus,
                classes: VcClasses::Strict,
            }
            .build(net, vcs),
            (RoutingSpec::Dor { tie, classes }, Shape::Cube { radix, wrap }) => {
                if *wrap {
                    dateline("DOR on a torus")?;
                }
                Ok(Box::new(CubeDor::new(
                    radix.clone(),
                    *wrap,
                    vcs,
                    *tie,
                    *classes,
                )))
            }
            (RoutingSpec::Dor { .. }, Shape::Hypercube { .. }) => Ok(Box::new(Ecube::new(vcs))),
            (RoutingSpec::Dor { .. }, Shape::Midimew { n, b }) => {
                dateline("minimal routing on midimew")?;
                Ok(Box::new(MidimewMinimal::new(*n, *b, vcs)))
            }
            (RoutingSpec::Dor { .. }, _) => Err(err(
                &spec,
                format!(
                    "{} has no dimensions; use updown (or dmodk on fat trees)",
                    net.spec()
                ),
            )),
            (RoutingSpec::DModK, _) => Err(err(&spec, "dmodk needs a fattree topology")),
            (RoutingSpec::UpDown { root }, _) => {
                if *root as usize >= net.num_switches() {
                    return Err(err(
                        &spec,
                        format!("root {root}; accepted 0..{}", net.num_switches()),
                    ));
                }
                if net.num_switches() > UpDownTables::MAX_SWITCHES {
                    return Err(err(
                        &spec,
                        format!(
                            "{} switches; up*/down* tables are built for at most {}",
                            net.num_switches(),
                            UpDownTables::MAX_SWITCHES
                        ),
                    ));
                }
                Ok(Box::new(UpDown::new(net, *root, vcs)))
            }
        }
    }
}
