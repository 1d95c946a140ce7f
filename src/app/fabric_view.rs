//! Imported fabrics ([`crate::topology::import`]) in the app: parallel
//! cables drawn as a fan, so that a hot cable among its siblings shows,
//! and the file's names (descriptions, GUIDs, LIDs, port numbers, link
//! speed) in the details panel.

use crate::topology::import::parallel_groups;
use crate::topology::{ChannelId, ChannelKind, Endpoint, HostId, Network, SwitchId};

/// Per switch-to-switch channel, its cable's place in a group of parallel
/// cables, centred on 0 (`-2.5, -1.5, .. 2.5` for six), the same for both
/// directions of a cable; 0 for a cable with no sibling. Empty for networks
/// not read from a fabric file (their drawing is unchanged).
pub fn parallel_fan(net: &Network) -> Vec<f32> {
    if net.fabric().is_none() {
        return Vec::new();
    }
    let mut fan = vec![0.0f32; net.num_network_channels()];
    for g in parallel_groups(net) {
        let m = g.links.len() as f32;
        for (i, &link) in g.links.iter().enumerate() {
            let f = i as f32 - (m - 1.0) / 2.0;
            for c in [2 * link as usize, 2 * link as usize + 1] {
                if let Some(x) = fan.get_mut(c) {
                    *x = f;
                }
            }
        }
    }
    fan
}

/// The file's name of a switch, for tooltips (`None`: not a fabric).
pub fn switch_label(net: &Network, s: SwitchId) -> Option<String> {
    let f = net.fabric()?;
    ((s as usize) < f.switches.len()).then(|| f.switch_label(s))
}

/// What the fabric file says about a switch.
pub fn switch_details_ui(ui: &mut egui::Ui, net: &Network, s: SwitchId) {
    let Some(f) = net.fabric() else { return };
    let Some(sw) = f.switches.get(s as usize) else {
        return;
    };
    ui.label(egui::RichText::new(&sw.name).monospace());
    if let Some(d) = &sw.description {
        ui.label(d);
    }
    let mut ids = Vec::new();
    if let Some(g) = &sw.guid {
        ids.push(format!("GUID {g}"));
    }
    if let Some(l) = sw.lid {
        ids.push(format!("LID {l}"));
    }
    ids.push(format!("{} ports", sw.ports));
    ui.label(ids.join(" · "));
    let hosts: Vec<HostId> = net.hosts_of(s).collect();
    let cables = net.neighbours(s).count();
    ui.label(format!(
        "{cables} switch cables, {} adapters ({} file line {})",
        hosts.len(),
        f.format,
        sw.line
    ));
    if !hosts.is_empty() {
        egui::CollapsingHeader::new(format!("{} adapters", hosts.len()))
            .id_salt(("fabric-hosts", s))
            .show(ui, |ui| {
                for h in hosts {
                    let port = f.file_port(net.host(h).port);
                    let lid = f.hosts[h as usize]
                        .lid
                        .map(|l| format!(", LID {l}"))
                        .unwrap_or_default();
                    ui.label(format!("[{port}] {}{lid}", f.host_label(h)));
                }
            });
    }
}

/// What the fabric file says about a channel: its cable's ends with the
/// file's port numbers and link speed, or the adapter of a host channel.
pub fn channel_details_ui(ui: &mut egui::Ui, net: &Network, c: ChannelId) {
    let Some(f) = net.fabric() else { return };
    let ch = net.channel(c);
    match ch.kind {
        ChannelKind::Network => {
            let Some(cable) = f.cables.get(c as usize / 2) else {
                return;
            };
            let (from, from_port, to, to_port) = if c.is_multiple_of(2) {
                (cable.a, cable.a_port, cable.b, cable.b_port)
            } else {
                (cable.b, cable.b_port, cable.a, cable.a_port)
            };
            ui.label(format!(
                "{} [{from_port}] -> {} [{to_port}]",
                f.switch_label(from),
                f.switch_label(to)
            ));
            if let Some(link) = &cable.link {
                let rate = cable
                    .gbps
                    .map(|g| format!(", {g} Gb/s"))
                    .unwrap_or_default();
                ui.label(format!(
                    "{link}{rate}, {:.2} of the fastest cable (shown only: every channel carries one flit per cycle)",
                    cable.relative_bandwidth
                ));
            }
            if let Some(l) = cable.latency {
                ui.label(format!("anynet latency {l} cycles (shown only)"));
            }
            let siblings = net.channels()[..net.num_network_channels()]
                .chunks(2)
                .filter(|p| {
                    let ends = |e: Endpoint| match e {
                        Endpoint::Switch { switch, .. } => Some(switch),
                        Endpoint::Host { .. } => None,
                    };
                    let (x, y) = (ends(p[0].src), ends(p[0].dst));
                    (x, y) == (Some(cable.a), Some(cable.b))
                        || (x, y) == (Some(cable.b), Some(cable.a))
                })
                .count();
            if siblings > 1 {
                ui.label(format!(
                    "one of {siblings} parallel cables between these switches"
                ));
            }
            ui.label(format!("{} file line {}", f.format, cable.line));
        }
        ChannelKind::Injection | ChannelKind::Ejection => {
            let h = match (ch.src, ch.dst) {
                (Endpoint::Host { host }, _) | (_, Endpoint::Host { host }) => host,
                _ => return,
            };
            let Some(host) = f.hosts.get(h as usize) else {
                return;
            };
            ui.label(f.host_label(h));
            let mut ids = vec![host.adapter.clone()];
            if let Some(g) = &host.port_guid {
                ids.push(format!("port GUID {g}"));
            }
            if let Some(l) = host.lid {
                ids.push(format!("LID {l}"));
            }
            if let Some(link) = &host.link {
                ids.push(link.clone());
            }
            ui.label(ids.join(" · "));
            let at = net.host(h);
            ui.label(format!(
                "on {} [{}]",
                f.switch_label(at.switch),
                f.file_port(at.port)
            ));
        }
    }
}
