//! Fabrics read from `ibnetdiscover`, ibsim and BookSim anynet files
//! (issue 26): the shipped examples give the networks their files describe,
//! the three formats of one fabric give one network, and a corpus of broken
//! files (truncated, a port listed twice, cable ends that disagree, nodes
//! never defined, a disconnected fabric, limits) each end with exit 2 and
//! the line at fault, with nothing built.

use crate::support;
use routelab::topology::import::{FabricFormat, parallel_groups, parse, wiring_summary};
use routelab::topology::{Network, Peer};
use support::routelab;

const FATTREE_IBND: &str = include_str!("../assets/fabrics/fattree-4x2-ibnetdiscover.txt");
const FATTREE_IBSIM: &str = include_str!("../assets/fabrics/fattree-4x2.ibsim");
const FATTREE_ANYNET: &str = include_str!("../assets/fabrics/fattree-4x2.anynet");
const IRREGULAR_IBND: &str = include_str!("../assets/fabrics/irregular-9-ibnetdiscover.txt");

fn build(format: FabricFormat, text: &str) -> Result<Network, String> {
    parse(format, format!("{format}:t"), "t", text).map_err(|e| e.to_string())
}

/// The line number an error names (`... line N: ...`).
fn line_of(e: &str) -> Option<usize> {
    let rest = e.split(" line ").nth(1)?;
    rest.split(':').next()?.trim().parse().ok()
}

/// The bar: 6 switches, 96 hosts, 48 cables (96 channels), 8
/// groups of 6 parallel cables; leaves carry 24 hosts, spines none.
#[test]
fn the_fat_tree_example_in_three_formats() {
    let nets: Vec<Network> = [
        (FabricFormat::IbNetDiscover, FATTREE_IBND),
        (FabricFormat::IbSim, FATTREE_IBSIM),
        (FabricFormat::AnyNet, FATTREE_ANYNET),
    ]
    .into_iter()
    .map(|(f, t)| build(f, t).unwrap())
    .collect();
    for net in &nets {
        assert_eq!(net.num_switches(), 6);
        assert_eq!(net.num_hosts(), 96);
        assert_eq!(net.num_network_channels(), 96);
        let w = wiring_summary(net);
        assert_eq!((w.cables, w.parallel_groups, w.max_parallel), (48, 8, 6));
        let per: Vec<usize> = (0..6).map(|s| net.hosts_of(s).count()).collect();
        assert_eq!(per, vec![24, 0, 0, 24, 24, 24]);
        assert_eq!(parallel_groups(net)[0].links.len(), 6);
    }
    // The same network: the same channels (ends and ports) and hosts.
    for other in &nets[1..] {
        assert_eq!(nets[0].channels(), other.channels());
        assert_eq!(nets[0].hosts(), other.hosts());
    }
    // What an administrator recognises survives.
    let f = nets[0].fabric().unwrap();
    assert_eq!(
        f.switches[0].description.as_deref(),
        Some("MF0;leaf01:MSB7700/U1")
    );
    assert_eq!(f.switches[0].guid.as_deref(), Some("0x7cfe900300a5a000"));
    assert_eq!(f.switches[0].lid, Some(1));
    assert_eq!(
        f.switches[1].description.as_deref(),
        Some("MF0;spine01:MSB7700/U1")
    );
    assert_eq!(f.hosts[0].description.as_deref(), Some("node001 HCA-1"));
    assert_eq!(f.hosts[0].lid, Some(7));
    assert_eq!(f.hosts[0].port_guid.as_deref(), Some("0x0c42a10300b1c001"));
    assert_eq!(f.cables[0].link.as_deref(), Some("4xEDR"));
    assert_eq!(f.file_port(nets[0].host(0).port), 1, "leaf port 1");
    // Unused spine ports (25..36) stay unconnected, and nothing sits on port 0.
    let spine = nets[0].ports(1);
    assert_eq!(spine.len(), 36);
    assert!(spine[24..].iter().all(|p| p.peer == Peer::Unconnected));
    // ibsim spells EDR as e=2, 4x as w=2.
    assert_eq!(
        nets[1].fabric().unwrap().cables[0].link.as_deref(),
        Some("4xEDR")
    );
}

#[test]
fn the_irregular_example() {
    let net = build(FabricFormat::IbNetDiscover, IRREGULAR_IBND).unwrap();
    assert_eq!(net.num_switches(), 9);
    assert_eq!(net.num_hosts(), 24);
    let w = wiring_summary(&net);
    assert_eq!((w.cables, w.parallel_groups), (15, 1));
    assert_eq!(w.switches_without_hosts, 1);
    let f = net.fabric().unwrap();
    let slow: Vec<f64> = f
        .cables
        .iter()
        .filter(|c| c.link.as_deref() == Some("4xEDR"))
        .map(|c| c.relative_bandwidth)
        .collect();
    assert_eq!(slow, vec![0.5, 0.5, 0.5]);
}

/// `topo` and `paths --compare` on the example, through the CLI (the
/// issue's bar), and the same `sim` results from the three formats.
#[test]
fn cli_bar() {
    let (code, out, err) = routelab(&[
        "topo",
        "--topology",
        "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("6 switches, 96 hosts, 96 switch-to-switch channels"),
        "{out}"
    );
    assert!(
        out.contains("48 switch-to-switch cables, 8 parallel groups"),
        "{out}"
    );
    assert!(out.contains("48 x 4xEDR"), "{out}");
    let (code, out, err) = routelab(&[
        "paths",
        "--topology",
        "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        "--routing",
        "updown-bfs",
        "--compare",
        "--budget",
        "2000",
    ]);
    assert_eq!(code, 0, "{err}");
    for name in ["random", "maxcp", "hpcf", "lvcf", "ga", "sa"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name}: {out}");
    }
    let results: Vec<serde_json::Value> = [
        "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        "ibsim:assets/fabrics/fattree-4x2.ibsim",
        "anynet:assets/fabrics/fattree-4x2.anynet",
    ]
    .iter()
    .map(|t| {
        let (code, out, err) = routelab(&[
            "sim",
            "--topology",
            t,
            "--routing",
            "updown",
            "--traffic",
            "uniform",
            "--load",
            "0.3",
            "--cycles",
            "2000",
            "--warmup",
            "500",
            "--digest",
        ]);
        assert_eq!(code, 0, "{t}: {err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        // Every field but the spec string itself.
        let fields = v["fields"].as_array_mut().unwrap();
        fields.retain(|f| f[0] != "topology");
        v["fields"].clone()
    })
    .collect();
    assert_eq!(results[0], results[1]);
    assert_eq!(results[0], results[2]);
}

/// Cutting the ibnetdiscover example anywhere before its last line leaves
/// records whose cables point at nodes never defined, or are listed from
/// one end only: always an error with a line number.
#[test]
fn truncated_files_name_a_line() {
    let last_line = FATTREE_IBND.trim_end().rfind('\n').unwrap();
    let mut cuts = 0;
    for cut in (1..last_line).step_by(311) {
        let text = &FATTREE_IBND[..cut];
        let e = build(FabricFormat::IbNetDiscover, text)
            .err()
            .unwrap_or_else(|| panic!("cut at byte {cut} was accepted"));
        let line = line_of(&e).unwrap_or_else(|| panic!("no line: {e}"));
        assert!(line >= 1, "cut at {cut}: {e}");
        cuts += 1;
    }
    assert!(cuts > 100);
    // The same for anynet cut mid-line, and for ibsim.
    let e = build(FabricFormat::AnyNet, "router 0 node 0 router").unwrap_err();
    assert!(e.contains("line 1") && e.contains("cut short"), "{e}");
    let e = build(
        FabricFormat::IbSim,
        &FATTREE_IBSIM[..FATTREE_IBSIM.len() / 2],
    )
    .unwrap_err();
    assert!(line_of(&e).is_some_and(|l| l >= 1), "{e}");
}

/// One broken file per problem: the line and a word of what was expected.
#[test]
fn malformed_corpus() {
    let leaf_line = |port: u32| {
        FATTREE_IBND
            .lines()
            .position(|l| l.starts_with(&format!("[{port}]\t\"S-7cfe900300a5a100\"")))
            .unwrap()
    };
    let lines: Vec<&str> = FATTREE_IBND.lines().collect();
    let with = |i: usize, new: &str| {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v[i] = new.to_string();
        v.join("\n")
    };
    let insert = |i: usize, new: &str| {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v.insert(i, new.to_string());
        v.join("\n")
    };
    let l25 = leaf_line(25); // leaf01 port 25 -> spine01 port 1
    let corpus: Vec<(&str, FabricFormat, String, usize, &str)> = vec![
        (
            "duplicate port",
            FabricFormat::IbNetDiscover,
            insert(l25 + 1, lines[l25]),
            l25 + 2,
            "listed twice",
        ),
        (
            "cable ends disagree",
            FabricFormat::IbNetDiscover,
            with(l25, &lines[l25].replace("\"[1]", "\"[2]")),
            // Port 25 now claims spine01's port 2; port 26's line, which
            // also claims it, is where the two stories meet.
            l25 + 2,
            "disagree",
        ),
        (
            "undefined node",
            FabricFormat::IbNetDiscover,
            with(
                l25,
                &lines[l25].replace("S-7cfe900300a5a100", "S-7cfe9003000000ff"),
            ),
            l25 + 1,
            "never defined",
        ),
        (
            "port beyond the record",
            FabricFormat::IbNetDiscover,
            with(l25, &lines[l25].replace("[25]", "[37]")),
            l25 + 1,
            "declares 36 ports",
        ),
        (
            "port 0",
            FabricFormat::IbNetDiscover,
            with(l25, &lines[l25].replace("[25]", "[0]")),
            l25 + 1,
            "management port",
        ),
        (
            "a line cut short",
            FabricFormat::IbNetDiscover,
            with(l25, "[25]\t\"S-7cfe9003"),
            l25 + 1,
            "closing quote",
        ),
        (
            "junk",
            FabricFormat::IbNetDiscover,
            with(l25, "Swtich 36 \"x\""),
            l25 + 1,
            "expected a node header",
        ),
        (
            "adapter to adapter",
            FabricFormat::IbSim,
            "Switch 4 \"s\"\n[1] \"a\"[1]\n\nHca 1 \"a\"\n\nHca 2 \"b\"\n[1] \"a\"[1]\n".into(),
            7,
            "adapter",
        ),
        (
            "a one-sided cable in ibnetdiscover",
            FabricFormat::IbNetDiscover,
            "Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n".into(),
            2,
            "both ends",
        ),
        (
            "ibsim include",
            FabricFormat::IbSim,
            "include other.net\n".into(),
            1,
            "does not read",
        ),
        (
            "node defined twice",
            FabricFormat::IbSim,
            "Switch 4 \"a\"\n\nSwitch 4 \"a\"\n".into(),
            3,
            "defined twice",
        ),
        (
            "header with no record (truncated)",
            FabricFormat::IbNetDiscover,
            format!("{}\nvendid=0x2c9\ndevid=0xcb20\n", FATTREE_IBND.trim_end()),
            FATTREE_IBND.trim_end().lines().count() + 1,
            "truncated",
        ),
        (
            "anynet node on two routers",
            FabricFormat::AnyNet,
            "router 0 node 0 router 1\nrouter 1 node 0\n".into(),
            2,
            "one router per node",
        ),
        (
            "anynet counts disagree",
            FabricFormat::AnyNet,
            "router 0 node 0 router 1 router 1\nrouter 1 node 1 router 0\n".into(),
            2,
            "disagree",
        ),
        (
            "anynet bad word",
            FabricFormat::AnyNet,
            "router 0 node 0\nrouter 1 nod 1 router 0\n".into(),
            2,
            "expected `router` or `node`",
        ),
        (
            "anynet switch limit",
            FabricFormat::AnyNet,
            "router 0 node 0 router 5000\n".into(),
            1,
            "at most 2048",
        ),
        (
            "more ports than the limit",
            FabricFormat::AnyNet,
            format!(
                "router 0 {}\n",
                (0..300)
                    .map(|n| format!("node {n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            1,
            "at most 255 ports",
        ),
    ];
    for (what, format, text, line, needle) in corpus {
        let e = build(format, &text)
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"));
        assert_eq!(line_of(&e), Some(line), "{what}: {e}");
        assert!(e.contains(needle), "{what}: {e}");
    }
    // A disconnected fabric names the switches on each side (there is no
    // one line to blame).
    let e = build(
        FabricFormat::AnyNet,
        "router 0 node 0 router 1\nrouter 2 node 1 router 3\n",
    )
    .unwrap_err();
    assert!(e.contains("not connected") && e.contains("router 2"), "{e}");
    assert!(!e.contains("line 0") && line_of(&e).is_none(), "{e}");
}

/// Through the CLI: exit 2 and the line, for `topo`, `sim` and `paths`.
#[test]
fn cli_exits_2_with_the_line() {
    let dir = std::env::temp_dir().join(format!("routelab-fabric-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("broken.txt");
    let lines: Vec<&str> = FATTREE_IBND.lines().collect();
    std::fs::write(&f, lines[..200].join("\n")).unwrap();
    let spec = format!("ibnetdiscover:{}", f.display());
    for args in [
        vec!["topo", "--topology", &spec],
        vec!["sim", "--topology", &spec, "--routing", "updown"],
        vec!["paths", "--topology", &spec, "--compare"],
    ] {
        let (code, _, err) = routelab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(line_of(&err).is_some_and(|l| l >= 1), "{args:?}: {err}");
    }
    let (code, _, err) = routelab(&["topo", "--topology", "anynet:/nonexistent/file"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Everything applies: up*/down* routing, `paths:` routings with the GA and
/// SA, traffic patterns, on both examples; D-mod-k on the fat tree.
#[test]
fn routings_run_on_imported_fabrics() {
    for t in [
        "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        "ibnetdiscover:assets/fabrics/irregular-9-ibnetdiscover.txt",
    ] {
        for routing in [
            "updown",
            "minimal",
            "paths:updown-dfs:maxcp",
            "paths:udwm:sa:budget=500",
            "paths:updown-bfs:ga:budget=5",
        ] {
            let (code, out, err) = routelab(&[
                "sim",
                "--topology",
                t,
                "--routing",
                routing,
                "--traffic",
                "uniform",
                "--load",
                "0.2",
                "--cycles",
                "1500",
                "--warmup",
                "300",
                "--json",
                "--vcs",
                "3",
            ]);
            assert_eq!(code, 0, "{t} {routing}: {err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert!(
                v["accepted"].as_f64().unwrap_or(0.0) > 0.0 || out.contains("accepted"),
                "{out}"
            );
        }
    }
    // D-mod-k finds the fat tree's levels from the wiring, in all three
    // formats alike, and refuses the irregular fabric.
    let dmodk: Vec<String> = [
        "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        "anynet:assets/fabrics/fattree-4x2.anynet",
    ]
    .iter()
    .map(|t| {
        let (code, out, err) = routelab(&[
            "sim",
            "--topology",
            t,
            "--routing",
            "dmodk",
            "--traffic",
            "uniform",
            "--load",
            "0.3",
            "--cycles",
            "1500",
            "--warmup",
            "300",
            "--json",
        ]);
        assert_eq!(code, 0, "{t}: {err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for k in ["elapsed_ms", "cycles_per_second", "topology"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v.to_string()
    })
    .collect();
    assert_eq!(dmodk[0], dmodk[1]);
    let (code, _, err) = routelab(&[
        "sim",
        "--topology",
        "ibnetdiscover:assets/fabrics/irregular-9-ibnetdiscover.txt",
        "--routing",
        "dmodk",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("dmodk needs a fat tree"), "{err}");
}
