//! The compact topology spec string used by the CLI, scenario files and URLs:
//! `torus:8x8`, `mesh:4x4`, `torus:4x4x4`, `hypercube:6`, `midimew:64`,
//! `fattree:4`, `irregular:16:seed=3`, `irregular:32:ports=8:hosts=4:seed=1`,
//! `file:PATH`. Cube-like kinds accept `:hosts=H` (hosts per switch, default 1).

use super::fat_tree_params::HeteroSpec;
use super::{Network, cube, fat_tree, hypercube, irregular, midimew};
use std::fmt;
use std::str::FromStr;

/// The accepted forms, quoted in every error.
pub const ACCEPTED: &str = "torus:KxK[xK..] (k>=3), mesh:KxK[xK..] (k>=2), hypercube:N (1..=16), \
midimew:N (N>=5), fattree:K (even K, 2..=64)[:hetero=equal|paper][:seed=S][:LEVEL_FIELD=LO-HI], irregular:N[:ports=P][:hosts=H][:seed=S], file:PATH; \
torus/mesh/hypercube/midimew also take :hosts=H";

/// A topology that could not be built.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TopologyError {
    #[error("topology `{spec}`: {problem}; accepted: {accepted}")]
    Invalid {
        spec: String,
        problem: String,
        accepted: String,
    },
    #[error("topology file `{path}` line {line}: {problem}")]
    File {
        path: String,
        line: usize,
        problem: String,
    },
}

/// A parsed topology spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopologySpec {
    Torus {
        radix: Vec<u32>,
        hosts: u32,
    },
    Mesh {
        radix: Vec<u32>,
        hosts: u32,
    },
    Hypercube {
        n: u32,
        hosts: u32,
    },
    Midimew {
        n: u32,
        hosts: u32,
    },
    FatTree {
        k: u32,
        /// Per-switch time-slice parameters (`hetero=...`).
        hetero: Option<HeteroSpec>,
    },
    Irregular {
        n: u32,
        ports: u32,
        hosts: u32,
        seed: u64,
    },
    File {
        path: String,
    },
}

fn invalid(spec: &str, problem: impl Into<String>) -> TopologyError {
    TopologyError::Invalid {
        spec: spec.to_string(),
        problem: problem.into(),
        accepted: ACCEPTED.to_string(),
    }
}

fn parse_u32(spec: &str, what: &str, s: &str) -> Result<u32, TopologyError> {
    s.parse::<u32>()
        .map_err(|_| invalid(spec, format!("{what} `{s}` is not a whole number")))
}

impl FromStr for TopologySpec {
    type Err = TopologyError;
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let spec = spec.trim();
        if let Some(path) = spec.strip_prefix("file:") {
            if path.is_empty() {
                return Err(invalid(spec, "file: needs a path"));
            }
            return Ok(TopologySpec::File {
                path: path.to_string(),
            });
        }
        let mut parts = spec.split(':');
        let kind = parts.next().unwrap_or("");
        let size = parts
            .next()
            .ok_or_else(|| invalid(spec, format!("`{kind}` needs a size after `:`")))?;
        let mut opts: Vec<(&str, &str)> = Vec::new();
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| invalid(spec, format!("option `{p}` is not key=value")))?;
            opts.push((k, v));
        }
        // Fat-tree switch options: parsed in fat_tree_params.rs.
        let mut hetero = None;
        if kind == "fattree" && opts.iter().all(|(k, _)| *k != "hosts") {
            hetero = HeteroSpec::parse(&opts).map_err(|p| invalid(spec, p))?;
            opts.clear();
        }
        let mut hosts = None;
        let mut ports = None;
        let mut seed = None;
        for &(k, v) in &opts {
            match k {
                "hosts" => hosts = Some(parse_u32(spec, "hosts", v)?),
                "ports" if kind == "irregular" => ports = Some(parse_u32(spec, "ports", v)?),
                "seed" if kind == "irregular" => {
                    seed =
                        Some(v.parse::<u64>().map_err(|_| {
                            invalid(spec, format!("seed `{v}` is not a whole number"))
                        })?)
                }
                _ => return Err(invalid(spec, format!("unknown option `{k}` for `{kind}`"))),
            }
        }
        if kind == "fattree" && hosts.is_some() {
            return Err(invalid(
                spec,
                "fattree has k/2 hosts per access switch; no hosts= option",
            ));
        }
        let hosts_cube = hosts.unwrap_or(1);
        if !(1..=64).contains(&hosts_cube) && kind != "irregular" {
            return Err(invalid(
                spec,
                format!("hosts={hosts_cube}; accepted 1..=64"),
            ));
        }
        let radix = |min: u32| -> Result<Vec<u32>, TopologyError> {
            let r: Vec<u32> = size
                .split('x')
                .map(|d| parse_u32(spec, "radix", d))
                .collect::<Result<_, _>>()?;
            if r.iter().any(|&k| k < min) {
                return Err(invalid(spec, format!("every radix must be at least {min}")));
            }
            let total: u64 = r.iter().map(|&k| k as u64).product();
            if total > 1 << 20 {
                return Err(invalid(spec, format!("{total} switches; at most 1048576")));
            }
            Ok(r)
        };
        let parsed = match kind {
            "torus" => TopologySpec::Torus {
                radix: radix(3)?,
                hosts: hosts_cube,
            },
            "mesh" => TopologySpec::Mesh {
                radix: radix(2)?,
                hosts: hosts_cube,
            },
            "hypercube" => {
                let n = parse_u32(spec, "dimension", size)?;
                if !(1..=16).contains(&n) {
                    return Err(invalid(spec, format!("dimension {n}; accepted 1..=16")));
                }
                TopologySpec::Hypercube {
                    n,
                    hosts: hosts_cube,
                }
            }
            "midimew" => {
                let n = parse_u32(spec, "node count", size)?;
                if !(5..=1 << 20).contains(&n) {
                    return Err(invalid(spec, format!("{n} nodes; accepted 5..=1048576")));
                }
                TopologySpec::Midimew {
                    n,
                    hosts: hosts_cube,
                }
            }
            "fattree" => {
                let k = parse_u32(spec, "k", size)?;
                if k % 2 != 0 || !(2..=64).contains(&k) {
                    return Err(invalid(
                        spec,
                        format!("k={k}; accepted an even number 2..=64"),
                    ));
                }
                if let Some(h) = &hetero {
                    h.check(k).map_err(|p| invalid(spec, p))?;
                }
                TopologySpec::FatTree { k, hetero }
            }
            "irregular" => {
                let n = parse_u32(spec, "switch count", size)?;
                let ports = ports.unwrap_or(8);
                let hosts = hosts.unwrap_or(4);
                if !(2..=65536).contains(&n) {
                    return Err(invalid(spec, format!("{n} switches; accepted 2..=65536")));
                }
                if ports > 255 || hosts >= ports {
                    return Err(invalid(
                        spec,
                        format!("ports={ports} hosts={hosts}; need hosts < ports <= 255"),
                    ));
                }
                let d = ports - hosts;
                if d >= n {
                    return Err(invalid(
                        spec,
                        format!("{d} switch ports per switch need more than {n} switches"),
                    ));
                }
                if (n as u64 * d as u64) % 2 == 1 {
                    return Err(invalid(
                        spec,
                        format!("switches x (ports - hosts) = {n} x {d} must be even"),
                    ));
                }
                TopologySpec::Irregular {
                    n,
                    ports,
                    hosts,
                    seed: seed.unwrap_or(1),
                }
            }
            _ => return Err(invalid(spec, format!("unknown kind `{kind}`"))),
        };
        Ok(parsed)
    }
}

fn dims(r: &[u32]) -> String {
    r.iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

fn hosts_suffix(h: u32) -> String {
    if h == 1 {
        String::new()
    } else {
        format!(":hosts={h}")
    }
}

impl fmt::Display for TopologySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TopologySpec::Torus { radix, hosts } => {
                write!(f, "torus:{}{}", dims(radix), hosts_suffix(*hosts))
            }
            TopologySpec::Mesh { radix, hosts } => {
                write!(f, "mesh:{}{}", dims(radix), hosts_suffix(*hosts))
            }
            TopologySpec::Hypercube { n, hosts } => {
                write!(f, "hypercube:{n}{}", hosts_suffix(*hosts))
            }
            TopologySpec::Midimew { n, hosts } => write!(f, "midimew:{n}{}", hosts_suffix(*hosts)),
            TopologySpec::FatTree { k, hetero: None } => write!(f, "fattree:{k}"),
            TopologySpec::FatTree { k, hetero: Some(h) } => write!(f, "fattree:{k}:{h}"),
            TopologySpec::Irregular {
                n,
                ports,
                hosts,
                seed,
            } => write!(f, "irregular:{n}:ports={ports}:hosts={hosts}:seed={seed}"),
            TopologySpec::File { path } => write!(f, "file:{path}"),
        }
    }
}

impl TopologySpec {
    /// Build the network.
    pub fn build(&self) -> Result<Network, TopologyError> {
        let spec = self.to_string();
        Ok(match self {
            TopologySpec::Torus { radix, hosts } => {
                cube::build(spec, radix.clone(), true, *hosts as usize)
            }
            TopologySpec::Mesh { radix, hosts } => {
                cube::build(spec, radix.clone(), false, *hosts as usize)
            }
            TopologySpec::Hypercube { n, hosts } => hypercube::build(spec, *n, *hosts as usize),
            TopologySpec::Midimew { n, hosts } => midimew::build(spec, *n, *hosts as usize),
            TopologySpec::FatTree { k, hetero } => {
                let mut net = fat_tree::build(spec, *k);
                if let Some(h) = hetero {
                    net.set_switch_params(h.draw(*k));
                }
                net
            }
            TopologySpec::Irregular {
                n,
                ports,
                hosts,
                seed,
            } => irregular::build(spec, *n, *ports, *hosts, *seed)?,
            TopologySpec::File { path } => {
                #[cfg(target_arch = "wasm32")]
                {
                    return Err(invalid(
                        &spec,
                        format!("cannot read `{path}` in the browser"),
                    ));
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    let text = std::fs::read_to_string(path).map_err(|e| TopologyError::File {
                        path: path.clone(),
                        line: 0,
                        problem: e.to_string(),
                    })?;
                    super::edge_list::parse(spec, path, &text)?
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "torus:8x8",
            "mesh:4x4",
            "torus:4x4x4",
            "hypercube:6",
            "midimew:64",
            "fattree:4",
            "fattree:4:hetero=paper:seed=2",
            "irregular:16:ports=8:hosts=4:seed=3",
            "torus:8x8:hosts=2",
        ] {
            assert_eq!(s.parse::<TopologySpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "irregular:16:seed=3"
                .parse::<TopologySpec>()
                .unwrap()
                .to_string(),
            "irregular:16:ports=8:hosts=4:seed=3"
        );
    }

    #[test]
    fn bad_specs_name_the_problem() {
        for (s, needle) in [
            ("torus:2x2", "at least 3"),
            ("torus", "needs a size"),
            ("ring:8", "unknown kind"),
            ("fattree:5", "even"),
            ("hypercube:0", "1..=16"),
            ("irregular:3", "more than 3 switches"),
            ("irregular:5:ports=5:hosts=2", "must be even"),
            ("torus:8x8:foo=1", "unknown option"),
            ("torus:8xq", "not a whole number"),
        ] {
            let e = s.parse::<TopologySpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted"), "{s}: {e}");
        }
    }
}
