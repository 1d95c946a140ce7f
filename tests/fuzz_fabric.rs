//! Fuzzing the fabric importers (`ibnetdiscover:`, `ibsim:`, `anynet:`):
//! the shipped examples with lines dropped, repeated, swapped, cut short
//! or replaced by junk, awkward numbers in port and id positions, and
//! files made of random record lines. Every file gives a network or an
//! error naming the file and the line, without a panic, a hang or a huge
//! allocation; a network that comes out is checked against its own
//! metadata.

use crate::fuzz_support;

use fuzz_support::{AWKWARD_NUMBERS, fuzz};
use proptest::prelude::*;
use routelab::topology::Network;
use routelab::topology::import::{FabricFormat, parse};

const EXAMPLES: &[(FabricFormat, &str)] = &[
    (
        FabricFormat::IbNetDiscover,
        include_str!("../assets/fabrics/irregular-9-ibnetdiscover.txt"),
    ),
    (
        FabricFormat::IbNetDiscover,
        include_str!("../assets/fabrics/fattree-4x2-ibnetdiscover.txt"),
    ),
    (
        FabricFormat::IbSim,
        include_str!("../assets/fabrics/fattree-4x2.ibsim"),
    ),
    (
        FabricFormat::AnyNet,
        include_str!("../assets/fabrics/fattree-4x2.anynet"),
    ),
];

/// One edit of a file's lines.
#[derive(Clone, Debug)]
enum Edit {
    Drop(usize),
    Repeat(usize),
    Swap(usize, usize),
    /// Cut the line at a byte (on a char boundary at or before it).
    Cut(usize, usize),
    Replace(usize, String),
    /// Replace the n-th number of a line with an awkward one.
    Number(usize, usize, &'static str),
    /// End the file at a line.
    Truncate(usize),
}

fn junk_line() -> impl Strategy<Value = String> {
    let num = prop_oneof![
        4 => (0u32..40).prop_map(|x| x.to_string()),
        1 => prop::sample::select(AWKWARD_NUMBERS).prop_map(str::to_string),
    ];
    let name = prop_oneof![
        Just("S-7cfe900300a5a000".to_string()),
        Just("leaf01".to_string()),
        Just("lab-sw3".to_string()),
        "[a-zA-Z0-9-]{0,8}",
    ];
    prop_oneof![
        (num.clone(), name.clone(), num.clone())
            .prop_map(|(p, n, q)| format!("[{p}]\t\"{n}\"[{q}]\t# \"x\" lid 3 4xEDR")),
        (num.clone(), name.clone()).prop_map(|(p, n)| format!("Switch\t{p} \"{n}\"")),
        (num.clone(), name.clone()).prop_map(|(p, n)| format!("Ca {p} \"{n}\"  # \"desc\"")),
        (num.clone(), name).prop_map(|(p, n)| format!("Hca {p} \"{n}\"")),
        (num.clone(), num.clone()).prop_map(|(a, b)| format!("router {a} node {b} router {a}")),
        (num.clone(), num).prop_map(|(a, b)| format!("node {a} router {b} 3")),
        Just("switchguid=0xzz".to_string()),
        Just("Non-Chassis Nodes".to_string()),
        "\\PC{0,16}",
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => any::<usize>().prop_map(Edit::Drop),
        2 => any::<usize>().prop_map(Edit::Repeat),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        2 => (any::<usize>(), 0usize..80).prop_map(|(a, b)| Edit::Cut(a, b)),
        2 => (any::<usize>(), junk_line()).prop_map(|(a, s)| Edit::Replace(a, s)),
        2 => (any::<usize>(), 0usize..4, prop::sample::select(AWKWARD_NUMBERS))
            .prop_map(|(a, n, v)| Edit::Number(a, n, v)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match e {
            Edit::Drop(i) => {
                lines.remove(i % n);
            }
            Edit::Repeat(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::Swap(a, b) => lines.swap(a % n, b % n),
            Edit::Cut(i, at) => {
                let l = &mut lines[i % n];
                let mut at = (*at).min(l.len());
                while !l.is_char_boundary(at) {
                    at -= 1;
                }
                l.truncate(at);
            }
            Edit::Replace(i, s) => lines[i % n] = s.clone(),
            Edit::Number(i, k, v) => {
                let l = &lines[i % n];
                // The k-th run of digits.
                let mut runs = Vec::new();
                let b = l.as_bytes();
                let mut j = 0;
                while j < b.len() {
                    if b[j].is_ascii_digit() {
                        let s = j;
                        while j < b.len() && b[j].is_ascii_digit() {
                            j += 1;
                        }
                        runs.push((s, j));
                    } else {
                        j += 1;
                    }
                }
                if let Some(&(s, t)) = runs.get(k % runs.len().max(1)) {
                    lines[i % n] = format!("{}{v}{}", &l[..s], &l[t..]);
                }
            }
            Edit::Truncate(i) => lines.truncate(i % n),
        }
    }
    lines.join("\n")
}

/// A network that came out agrees with itself and its metadata.
fn check(net: &Network) -> Result<(), String> {
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
    let f = net.fabric().ok_or("no fabric metadata")?;
    if f.switches.len() != net.num_switches()
        || f.hosts.len() != net.num_hosts()
        || 2 * f.cables.len() != net.num_network_channels()
    {
        return Err("metadata and network disagree in size".into());
    }
    if net.num_switches() > 1 && !routelab::topology::is_connected(net) {
        return Err("a disconnected network came out".into());
    }
    for (k, c) in f.cables.iter().enumerate() {
        let ch = net.channel(2 * k as u32);
        let want = routelab::topology::Endpoint::Switch {
            switch: c.a,
            port: c.a_port - f.port_base,
        };
        if ch.src != want {
            return Err(format!("cable {k} is not channel {}", 2 * k));
        }
    }
    Ok(())
}

#[test]
fn edited_examples() {
    fuzz(
        "fabric_edited_examples",
        600,
        (0..EXAMPLES.len(), prop::collection::vec(edit(), 1..6)),
        |(which, edits)| {
            let (format, text) = EXAMPLES[*which];
            let text = apply(text, edits);
            match parse(format, format!("{format}:fuzz"), "fuzz", &text) {
                Ok(net) => check(&net),
                Err(e) => {
                    let e = e.to_string();
                    if (e.starts_with("topology file `fuzz` line ")
                        && !e.starts_with("topology file `fuzz` line 0"))
                        || e.starts_with("topology file `fuzz`: ")
                    {
                        Ok(())
                    } else {
                        Err(format!(
                            "the message does not name the file and its line (from 1) or the whole file: {e}"
                        ))
                    }
                }
            }
        },
    );
}

#[test]
fn random_record_files() {
    fuzz(
        "fabric_random_files",
        600,
        (
            prop::sample::select(FabricFormat::ALL.to_vec()),
            prop::collection::vec(junk_line(), 0..40),
        ),
        |(format, lines)| {
            let text = lines.join("\n");
            match parse(*format, format!("{format}:fuzz"), "fuzz", &text) {
                Ok(net) => check(&net),
                Err(e) => {
                    let e = e.to_string();
                    if (e.starts_with("topology file `fuzz` line ")
                        && !e.starts_with("topology file `fuzz` line 0"))
                        || e.starts_with("topology file `fuzz`: ")
                    {
                        Ok(())
                    } else {
                        Err(format!(
                            "the message does not name the file and its line (from 1) or the whole file: {e}"
                        ))
                    }
                }
            }
        },
    );
}
