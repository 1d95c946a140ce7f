//! Fuzzing edge-list topology files (`file:PATH`): lines of links,
//! `switches N`, `hosts H`, comments and junk, with awkward numbers (huge,
//! negative, past the limits), self-links, parallel links, disconnected
//! switches and switches with more ports than the limit. Every file gives a
//! network or an error naming the file and the line, without a panic, a
//! hang or a huge allocation; a network that comes out is checked.

use crate::fuzz_support;

use fuzz_support::{AWKWARD_NUMBERS, fuzz};
use proptest::prelude::*;
use routelab::topology::parse_edge_list;

fn line() -> impl Strategy<Value = String> {
    let id = prop_oneof![
        6 => (0u32..12).prop_map(|x| x.to_string()),
        1 => (0u32..3000).prop_map(|x| x.to_string()),
        1 => prop::sample::select(AWKWARD_NUMBERS).prop_map(str::to_string),
    ];
    prop_oneof![
        8 => (id.clone(), id.clone()).prop_map(|(a, b)| format!("{a} {b}")),
        1 => id.clone().prop_map(|n| format!("switches {n}")),
        1 => id.clone().prop_map(|h| format!("hosts {h}")),
        1 => "[ a-z0-9#\t]{0,12}",
        1 => (id.clone(), id).prop_map(|(a, b)| format!("  {a}\t{b}  # a comment")),
        1 => "\\PC{0,10}",
    ]
}

fn edge_list() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::collection::vec(line(), 0..40),
        // A star: one switch with many links (the ports limit).
        1 => (200u32..300).prop_map(|n| (1..n).map(|i| format!("0 {i}")).collect()),
        // The same link many times.
        1 => (1u32..400).prop_map(|n| (0..n).map(|_| "0 1".to_string()).collect()),
    ]
    .prop_map(|lines| lines.join("\n"))
}

#[test]
fn edge_list_files() {
    fuzz(
        "edge_list_files",
        800,
        edge_list(),
        |text| match parse_edge_list("file:fuzz.edges".into(), "fuzz.edges", text) {
            Ok(net) => {
                if net.num_switches() == 0 || net.num_switches() > 2048 {
                    return Err(format!("{} switches came out", net.num_switches()));
                }
                let most_ports = (0..net.num_switches() as u32)
                    .map(|s| net.ports(s).len())
                    .max()
                    .unwrap_or(0);
                if most_ports > 255 {
                    return Err(format!("a switch with {most_ports} ports came out"));
                }
                Ok(())
            }
            Err(e) => {
                let e = e.to_string();
                if (e.starts_with("topology file `fuzz.edges` line ")
                    && !e.starts_with("topology file `fuzz.edges` line 0"))
                    || e.starts_with("topology file `fuzz.edges`: ")
                {
                    Ok(())
                } else {
                    Err(format!(
                        "the message does not name the file and its line (from 1) or the whole file: {e}"
                    ))
                }
            }
        },
    );
}

/// A file on disk goes through the same checks, and a file that never ends
/// (a device) or is too large is refused without reading it all.
#[test]
fn files_on_disk_are_read_within_the_limit() {
    let dir = std::env::temp_dir().join(format!("routelab-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = dir.join("ring.edges");
    std::fs::write(&ok, "# a ring\n0 1\n1 2\n2 3\n3 0\n").unwrap();
    let net = routelab::topology::Network::from_spec(&format!("file:{}", ok.display())).unwrap();
    assert_eq!(net.num_switches(), 4);
    let e = routelab::topology::Network::from_spec("file:/dev/zero")
        .unwrap_err()
        .to_string();
    assert!(e.contains("/dev/zero") && e.contains("at most"), "{e}");
    let e = routelab::topology::Network::from_spec(&format!("file:{}", dir.display()))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("topology file `"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
