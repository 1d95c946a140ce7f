//! How big a topology spec's network is, computed from the spec alone (no
//! building), so limits can refuse a network before any memory is spent
//! on it ([`crate::limits`]).

use super::spec::TopologySpec;
use crate::limits::NetworkSize;

impl TopologySpec {
    /// Switches, hosts, switch-to-switch channels and most ports per
    /// switch of the network this spec builds; `None` for `file:` and the fabric formats (known
    /// only once the file is read). Saturating arithmetic: a huge spec
    /// gives huge numbers, never an overflow.
    pub fn size(&self) -> Option<NetworkSize> {
        let size = |switches: u64, hosts_per: u64, channels: u64, ports: u64| NetworkSize {
            switches,
            hosts: switches.saturating_mul(hosts_per),
            network_channels: channels,
            max_ports: ports.saturating_add(hosts_per),
        };
        Some(match self {
            TopologySpec::Torus { radix, hosts } | TopologySpec::Mesh { radix, hosts } => {
                let wrap = matches!(self, TopologySpec::Torus { .. });
                let switches = radix
                    .iter()
                    .fold(1u64, |acc, &k| acc.saturating_mul(k as u64));
                // Links along dimension d: switches on a torus, switches ·
                // (k-1)/k on a mesh; two channels each.
                let channels = radix.iter().fold(0u64, |acc, &k| {
                    let k = (k as u64).max(1);
                    let links = if wrap {
                        switches
                    } else {
                        (switches / k).saturating_mul(k - 1)
                    };
                    acc.saturating_add(links.saturating_mul(2))
                });
                size(switches, *hosts as u64, channels, 2 * radix.len() as u64)
            }
            TopologySpec::Hypercube { n, hosts } => {
                let switches = 1u64 << (*n).min(63);
                size(
                    switches,
                    *hosts as u64,
                    switches.saturating_mul(*n as u64),
                    *n as u64,
                )
            }
            TopologySpec::Midimew { n, hosts } => {
                let n = *n as u64;
                size(n, *hosts as u64, n.saturating_mul(4), 4)
            }
            TopologySpec::FatTree { k, .. } => {
                let k = *k as u64;
                NetworkSize {
                    switches: 5 * k * k / 4,
                    hosts: k * k * k / 4,
                    network_channels: k * k * k,
                    max_ports: k,
                }
            }
            TopologySpec::Irregular {
                n, ports, hosts, ..
            } => {
                let n = *n as u64;
                let links_per = (*ports as u64).saturating_sub(*hosts as u64);
                NetworkSize {
                    switches: n,
                    hosts: n.saturating_mul(*hosts as u64),
                    network_channels: n.saturating_mul(links_per),
                    max_ports: *ports as u64,
                }
            }
            TopologySpec::File { .. } | TopologySpec::Fabric { .. } => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Network;

    /// The arithmetic agrees with the networks the builders make.
    #[test]
    fn sizes_match_built_networks() {
        for spec in [
            "torus:8x8",
            "torus:3x4x5:hosts=2",
            "mesh:4x4",
            "mesh:2x3x4:hosts=3",
            "hypercube:5",
            "hypercube:3:hosts=2",
            "midimew:13",
            "midimew:64:hosts=2",
            "fattree:4",
            "fattree:8",
            "irregular:16:seed=3",
            "irregular:12:ports=6:hosts=2:seed=5",
        ] {
            let parsed: TopologySpec = spec.parse().unwrap();
            let size = parsed.size().unwrap();
            let net = Network::from_spec(spec).unwrap();
            let max_ports = (0..net.num_switches() as u32)
                .map(|s| net.ports(s).len() as u64)
                .max()
                .unwrap();
            assert_eq!(
                size,
                NetworkSize {
                    switches: net.num_switches() as u64,
                    hosts: net.num_hosts() as u64,
                    network_channels: net.num_network_channels() as u64,
                    max_ports,
                },
                "{spec}"
            );
        }
    }
}
