//! The compact topology spec string used by the CLI, scenario files and URLs:
//! `torus:8x8`, `mesh:4x4`, `torus:4x4x4`, `hypercube:6`, `midimew:64`,
//! `fattree:4`, `irregular:16:seed=3`, `irregular:32:ports=8:hosts=4:seed=1`,
//! `file:PATH`, and fabrics read from other tools' files: `ibnetdiscover:PATH`,
//! `ibsim:PATH`, `anynet:PATH` ([`super::import`]). Cube-like kinds accept
//! `:hosts=H` (hosts per switch, default 1).

use super::error::TopologyError;
use super::fat_tree_params::{HETERO_KEYS, HeteroSpec};
use super::import::{self, FabricFormat};
use super::{Network, cube, fat_tree, hypercube, irregular, midimew};
use crate::limits;
use crate::spec_options::{OptionError, Spec};
use std::fmt;
use std::str::FromStr;

/// The accepted forms, quoted in every error.
pub const ACCEPTED: &str = "torus:KxK[xK..] (k>=3), mesh:KxK[xK..] (k>=2), at most 262144 switches; \
hypercube:N (1..=16), midimew:N (5..=262144), fattree:K (even K, 2..=64)[:hetero=equal|paper][:seed=S][:LEVEL_FIELD=LO-HI][:weak_aggregates=N][:weak_cores=N], \
irregular:N[:ports=P][:hosts=H][:seed=S] (N 2..=2048, P<=255), file:PATH (at most 2048 switches), \
ibnetdiscover:PATH, ibsim:PATH, anynet:PATH (a fabric file; at most 2048 switches, 255 ports each); \
torus/mesh/hypercube/midimew also take :hosts=H (1..=64); at most 1048576 hosts and 4194304 channels";

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
    /// A fabric read from another tool's file ([`super::import`]).
    Fabric {
        format: FabricFormat,
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
        if let Some((prefix, path)) = spec.split_once(':')
            && let Some(format) = FabricFormat::from_name(prefix)
        {
            if path.is_empty() {
                return Err(invalid(spec, format!("{prefix}: needs a path")));
            }
            return Ok(TopologySpec::Fabric {
                format,
                path: path.to_string(),
            });
        }
        let parts = Spec::split(spec);
        let kind = parts.name();
        let keys: &[&str] = match kind {
            "torus" | "mesh" | "hypercube" | "midimew" => &["hosts"],
            "irregular" => &["ports", "hosts", "seed"],
            "fattree" => &HETERO_KEYS,
            _ => return Err(invalid(spec, format!("unknown kind `{kind}`"))),
        };
        let opts = parts.options(1, keys).map_err(|e| match e {
            OptionError::UnknownKey { key, .. } if kind == "fattree" && key == "hosts" => invalid(
                spec,
                "fattree has k/2 hosts per access switch; no hosts= option",
            ),
            e => invalid(spec, e.to_string()),
        })?;
        let size = opts
            .positional(0)
            .ok_or_else(|| invalid(spec, format!("`{kind}` needs a size after `:`")))?;
        let opt = |e: OptionError| invalid(spec, e.to_string());
        // Fat-tree switch options: parsed in fat_tree_params.rs.
        let hetero = if kind == "fattree" {
            let given: Vec<(&str, &str)> = HETERO_KEYS
                .iter()
                .filter_map(|&k| opts.get(k).map(|v| (k, v)))
                .collect();
            HeteroSpec::parse(&given).map_err(|p| invalid(spec, p))?
        } else {
            None
        };
        // Hosts per switch of the cube-like kinds (irregular checks its own).
        let hosts_cube = || {
            Ok(opts
                .u32("hosts", limits::HOSTS_PER_SWITCH)
                .map_err(opt)?
                .unwrap_or(1))
        };
        let radix = |min: u32| -> Result<Vec<u32>, TopologyError> {
            let r: Vec<u32> = size
                .split('x')
                .map(|d| parse_u32(spec, "radix", d))
                .collect::<Result<_, _>>()?;
            if r.iter().any(|&k| k < min) {
                return Err(invalid(spec, format!("every radix must be at least {min}")));
            }
            let total = r
                .iter()
                .try_fold(1u64, |acc, &k| acc.checked_mul(k as u64))
                .filter(|&t| t <= limits::MAX_SWITCHES);
            if total.is_none() {
                return Err(invalid(
                    spec,
                    format!(
                        "{} switches; at most {}",
                        product_text(&r),
                        limits::MAX_SWITCHES
                    ),
                ));
            }
            Ok(r)
        };
        let parsed = match kind {
            "torus" => TopologySpec::Torus {
                radix: radix(3)?,
                hosts: hosts_cube()?,
            },
            "mesh" => TopologySpec::Mesh {
                radix: radix(2)?,
                hosts: hosts_cube()?,
            },
            "hypercube" => {
                let n = parse_u32(spec, "dimension", size)?;
                if !limits::HYPERCUBE_DIMENSIONS.contains(&n) {
                    return Err(invalid(
                        spec,
                        format!(
                            "dimension {n}; accepted {}..={}",
                            limits::HYPERCUBE_DIMENSIONS.start(),
                            limits::HYPERCUBE_DIMENSIONS.end()
                        ),
                    ));
                }
                TopologySpec::Hypercube {
                    n,
                    hosts: hosts_cube()?,
                }
            }
            "midimew" => {
                let n = parse_u32(spec, "node count", size)?;
                if !(5..=limits::MAX_SWITCHES).contains(&(n as u64)) {
                    return Err(invalid(
                        spec,
                        format!("{n} nodes; accepted 5..={}", limits::MAX_SWITCHES),
                    ));
                }
                TopologySpec::Midimew {
                    n,
                    hosts: hosts_cube()?,
                }
            }
            "fattree" => {
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
                TopologySpec::FatTree { k, hetero }
            }
            "irregular" => {
                let n = parse_u32(spec, "switch count", size)?;
                let ports = opts
                    .u32("ports", 1..=limits::MAX_PORTS as u32)
                    .map_err(opt)?
                    .unwrap_or(8);
                let hosts = opts.u32("hosts", 0..=u32::MAX).map_err(opt)?.unwrap_or(4);
                if !(2..=limits::MAX_IRREGULAR_SWITCHES).contains(&(n as u64)) {
                    return Err(invalid(
                        spec,
                        format!(
                            "{n} switches; accepted 2..={}",
                            limits::MAX_IRREGULAR_SWITCHES
                        ),
                    ));
                }
                if hosts >= ports {
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
                    seed: opts.u64("seed", 0..=u64::MAX).map_err(opt)?.unwrap_or(1),
                }
            }
            _ => return Err(invalid(spec, format!("unknown kind `{kind}`"))),
        };
        if let Some(size) = parsed.size() {
            let problems = size.problems();
            if !problems.is_empty() {
                return Err(invalid(spec, problems.join("; ")));
            }
        }
        Ok(parsed)
    }
}

/// `1000 x 1000 = 1000000` (saturating at a huge product).
fn product_text(r: &[u32]) -> String {
    let product = r
        .iter()
        .try_fold(1u128, |acc, &k| acc.checked_mul(k as u128))
        .map_or_else(|| "more than 2^128".to_string(), |p| p.to_string());
    if r.len() == 1 {
        product
    } else {
        format!("{} = {product}", dims(r).replace('x', " x "))
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
            TopologySpec::Fabric { format, path } => write!(f, "{format}:{path}"),
        }
    }
}

impl Network {
    /// Build a network from a spec string such as `torus:8x8`. (Here rather
    /// than beside the type so that the type does not depend on the
    /// builders, which depend on it.)
    pub fn from_spec(spec: &str) -> Result<Network, TopologyError> {
        spec.parse::<TopologySpec>()?.build()
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
                    let text = import::read_from_disk(path, None)?;
                    super::edge_list::parse(spec, path, &text)?
                }
            }
            TopologySpec::Fabric { format, path } => {
                let text = import::read(path)?;
                import::parse(*format, spec, path, &text)?
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
            ("torus:8x8:hosts=1:hosts=2", "`hosts` is given twice"),
            (
                "torus:8x8:hosts=65",
                "hosts `65`; accepted a whole number in 1..=64",
            ),
            ("torus:8x8:2", "option `2` is not key=value"),
            ("fattree:4:hosts=2", "no hosts= option"),
            ("fattree:4:foo=2", "unknown option `foo` for `fattree`"),
            (
                "fattree:4:hetero=odd",
                "hetero `odd`; accepted equal, paper",
            ),
            ("irregular:16:ports=256", "ports `256`"),
        ] {
            let e = s.parse::<TopologySpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
            assert!(e.contains("accepted"), "{s}: {e}");
        }
    }
}
