//! The network models: counts, port numbering and determinism.

use routelab::topology::{
    ChannelKind, DistanceStats, Network, Peer, TopologySpec, capacity_per_host,
};

fn net(s: &str) -> Network {
    Network::from_spec(s).unwrap()
}

fn network_degree(n: &Network, s: u32) -> usize {
    n.neighbours(s).count()
}

#[test]
fn torus_and_mesh_ports_follow_dimensions() {
    let t = net("torus:4x4x4");
    assert_eq!((t.num_switches(), t.num_hosts()), (64, 64));
    assert_eq!(t.num_network_channels(), 64 * 6);
    // Switch 0 = (0,0,0): port 0 is +x -> 1, port 1 is -x -> 3,
    // port 2 is +y -> 4, port 5 is -z -> 48.
    let peer = |p| match t.port(0, p).peer {
        Peer::Switch { switch, .. } => switch,
        other => panic!("{other:?}"),
    };
    assert_eq!([peer(0), peer(1), peer(2), peer(5)], [1, 3, 4, 48]);
    let m = net("mesh:4x4");
    assert_eq!(m.num_network_channels(), 2 * (3 * 4 * 2));
    assert_eq!(
        m.port(0, 1).peer,
        Peer::Unconnected,
        "no -x neighbour at x=0"
    );
    assert_eq!(
        m.port(0, 4).peer,
        Peer::Host { host: 0 },
        "hosts after the 2n ports"
    );
    assert_eq!(network_degree(&m, 5), 4);
    assert_eq!(network_degree(&m, 0), 2);
    let r = net("torus:8:hosts=2");
    assert_eq!((r.num_switches(), r.num_hosts()), (8, 16));
    assert_eq!(r.host(3).switch, 1);
}

#[test]
fn hypercube_links_flip_one_bit() {
    let h = net("hypercube:6");
    assert_eq!(h.num_switches(), 64);
    for s in 0..64 {
        for (p, t) in h.neighbours(s) {
            assert_eq!(s ^ t, 1 << p);
        }
    }
    assert_eq!(DistanceStats::of(&h).diameter, 6);
}

#[test]
fn midimew_jumps_and_diameter() {
    // N = 64: b = ceil(sqrt(32)) = 6; links +-6 and +-5; N <= 2b²-2b+1 = 61
    // does not hold, so the diameter is b = 6... check against the formula.
    for n in [13u32, 32, 50, 64, 100] {
        let m = net(&format!("midimew:{n}"));
        let mut b = 1u32;
        while 2 * b * b < n {
            b += 1;
        }
        for s in 0..n {
            let mut nb: Vec<u32> = m.neighbours(s).map(|(_, t)| t).collect();
            nb.sort();
            let mut want = vec![
                (s + b) % n,
                (s + n - b) % n,
                (s + b - 1) % n,
                (s + n - b + 1) % n,
            ];
            want.sort();
            assert_eq!(nb, want, "midimew:{n} switch {s}");
        }
        let diameter = if n <= 2 * b * b - 2 * b + 1 { b - 1 } else { b };
        assert_eq!(DistanceStats::of(&m).diameter, diameter, "midimew:{n}");
    }
}

#[test]
fn fat_tree_k4_has_the_al_fares_counts() {
    let f = net("fattree:4");
    assert_eq!(f.num_hosts(), 16);
    assert_eq!(f.num_switches(), 8 + 8 + 4);
    // Access switches hold 2 hosts and 2 uplinks; aggregates 2 down, 2 up;
    // core switches one link per pod.
    for s in 0..8 {
        assert_eq!(f.hosts_of(s).count(), 2);
        assert_eq!(network_degree(&f, s), 2);
    }
    for s in 8..16 {
        assert_eq!(f.hosts_of(s).count(), 0);
        assert_eq!(network_degree(&f, s), 4);
    }
    for s in 16..20 {
        assert_eq!(network_degree(&f, s), 4);
        let pods: Vec<u32> = f.neighbours(s).map(|(_, t)| (t - 8) / 2).collect();
        assert_eq!(pods, vec![0, 1, 2, 3]);
    }
    assert_eq!(capacity_per_host(&f), 1.0, "full bisection");
    let f8 = net("fattree:8");
    assert_eq!((f8.num_hosts(), f8.num_switches()), (128, 32 + 32 + 16));
}

#[test]
fn irregular_networks_follow_the_papers_and_the_seed() {
    let a = net("irregular:32:seed=1");
    assert_eq!((a.num_switches(), a.num_hosts()), (32, 128));
    for s in 0..32 {
        assert_eq!(a.ports(s).len(), 8);
        assert_eq!(a.hosts_of(s).count(), 4);
        let mut nb: Vec<u32> = a.neighbours(s).map(|(_, t)| t).collect();
        assert_eq!(nb.len(), 4);
        assert!(!nb.contains(&s), "self-link");
        nb.dedup();
        nb.sort();
        nb.dedup();
        assert_eq!(nb.len(), 4, "parallel link at {s}");
    }
    assert!(routelab::topology::is_connected(&a));
    let b = net("irregular:32:ports=8:hosts=4:seed=1");
    assert_eq!(a.channels(), b.channels(), "same seed, same network");
    let c = net("irregular:32:seed=2");
    assert_ne!(a.channels(), c.channels());
    let d = net("irregular:1024:seed=7");
    assert!(routelab::topology::is_connected(&d));
}

#[test]
fn channels_are_numbered_network_injection_ejection() {
    let t = net("torus:4x4");
    let n = t.num_network_channels();
    assert!(
        t.channels()[..n]
            .iter()
            .all(|c| c.kind == ChannelKind::Network)
    );
    assert_eq!(
        t.channel(t.injection_channel(5)).kind,
        ChannelKind::Injection
    );
    assert_eq!(t.channel(t.ejection_channel(5)).kind, ChannelKind::Ejection);
    assert_eq!(t.num_channels(), n + 2 * 16);
    // Each physical link is two consecutive, opposite channels.
    for pair in t.channels()[..n].chunks(2) {
        assert_eq!(pair[0].src, pair[1].dst);
        assert_eq!(pair[0].dst, pair[1].src);
    }
    assert_eq!(t.switch_positions().len(), 16);
    assert_eq!(t.host_positions().len(), 16);
}

#[test]
fn edge_list_files_load_and_report_bad_lines() {
    let dir = std::env::temp_dir().join(format!("routelab-edges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("ring.txt");
    std::fs::write(&good, "# a ring\nhosts 2\n0 1\n1 2\n2 3\n3 0\n").unwrap();
    let n = net(&format!("file:{}", good.display()));
    assert_eq!((n.num_switches(), n.num_hosts()), (4, 8));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0 1\n1 x\n").unwrap();
    let e = Network::from_spec(&format!("file:{}", bad.display()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2"), "{e}");
    let split = dir.join("split.txt");
    std::fs::write(&split, "0 1\n2 3\n").unwrap();
    let e = Network::from_spec(&format!("file:{}", split.display()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not connected") && e.contains("cannot reach switch 2") && !e.contains("line"),
        "{e}"
    );
    // Checks made once the whole file is read still name the line that
    // fails them.
    let read = |name: &str, text: &str| {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        Network::from_spec(&format!("file:{}", f.display()))
            .unwrap_err()
            .to_string()
    };
    let e = read("past.txt", "switches 3\n0 1\n1 2\n2 5\n0 2\n");
    assert!(
        e.contains("line 4:") && e.contains("link 2 5") && e.contains("(line 1)"),
        "{e}"
    );
    let e = read("hosts.txt", "0 1\n\nhosts 65\n");
    assert!(
        e.contains("line 3:") && e.contains("accepted 0..=64"),
        "{e}"
    );
    // 64 hosts leave 191 ports for links: the 192nd link of switch 0 (file
    // line 193, after the `hosts` line) is the one refused.
    let star: String = (1..=200).map(|k| format!("0 {k}\n")).collect();
    let e = read("star.txt", &format!("hosts 64\n{star}"));
    assert!(
        e.contains("line 193:") && e.contains("link 0 192") && e.contains("at most 255 ports"),
        "{e}"
    );
    let e = read("empty.txt", "# nothing\n");
    assert!(
        e.contains("no links") && e.contains("expected") && !e.contains("line 0"),
        "{e}"
    );
    let e = "file:/no/such/file"
        .parse::<TopologySpec>()
        .unwrap()
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("/no/such/file"));
}

/// A midimew is drawn as the mesh with wrap-around links it is
/// (`topology::layout::midimew`): every switch at its own point, links
/// inside the drawing one row down and half a step aside (unit
/// diagonals), only the wrap-arounds long, and the whole a near-square.
#[test]
fn midimew_is_drawn_as_a_mesh_with_wrap_around_links() {
    for n in [5u32, 13, 50, 64, 100, 200] {
        let t = net(&format!("midimew:{n}"));
        let pos = t.switch_positions();
        assert_eq!(pos.len(), n as usize);
        let mut seen = std::collections::HashSet::new();
        for p in pos {
            assert!(
                seen.insert((p[0].to_bits(), p[1].to_bits())),
                "midimew:{n}: two switches at {p:?}"
            );
        }
        let (mut unit, mut links) = (0, 0);
        for c in &t.channels()[..t.num_network_channels()] {
            let (
                routelab::topology::Endpoint::Switch { switch: a, .. },
                routelab::topology::Endpoint::Switch { switch: b, .. },
            ) = (c.src, c.dst)
            else {
                panic!("network channel without two switches");
            };
            let (pa, pb) = (pos[a as usize], pos[b as usize]);
            links += 1;
            unit += usize::from((pa[0] - pb[0]).abs() == 1.0 && (pa[1] - pb[1]).abs() == 1.0);
        }
        let (w, h) = pos
            .iter()
            .fold((0f32, 0f32), |(w, h), p| (w.max(p[0]), h.max(p[1])));
        if n >= 50 {
            // Wrap-arounds leave from the rim only: most links are inside.
            assert!(
                unit * 10 >= links * 7,
                "midimew:{n}: {unit} of {links} links are unit diagonals"
            );
            assert!(
                (0.6..=1.6).contains(&(w / h)),
                "midimew:{n}: drawing {w} x {h}"
            );
        }
    }
}
