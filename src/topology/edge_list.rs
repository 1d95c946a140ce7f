//! Edge-list topology files (`file:PATH`): one switch-to-switch link per line
//! as `A B` (switch ids from 0), `#` comments, and two optional header lines
//! `switches N` (default: largest id + 1) and `hosts H` (hosts per switch,
//! default 1). Links are added in file order, so channel ids follow the file.
//!
//! Limits ([`crate::limits`]): at most 2048 switches, 255 ports per switch
//! (links and hosts), 2^20 links and 64 hosts per switch; a file beyond one
//! is refused with the line (none for a limit of the whole file) and the limit.

use super::{Network, NetworkBuilder, Shape, TopologyError};
use crate::limits::{MAX_FILE_LINKS, MAX_IRREGULAR_SWITCHES, MAX_PORTS};

/// Parse an edge list from text; `name` is used in error messages. (The
/// browser cannot read files; the web build calls it only from tests.)
pub fn parse(spec: String, name: &str, text: &str) -> Result<Network, TopologyError> {
    let bad = |line: usize, problem: String| TopologyError::File {
        path: name.to_string(),
        line,
        problem,
    };
    let mut switches: Option<usize> = None;
    let mut hosts = 1usize;
    let mut links: Vec<(u32, u32)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |w: &str| {
            w.parse::<u32>().map_err(|_| {
                bad(
                    i + 1,
                    format!("`{w}` is not a non-negative integer; expected `A B`, `switches N` or `hosts H`"),
                )
            })
        };
        let switch = |w: &str| {
            let id = num(w)?;
            if id as u64 >= MAX_IRREGULAR_SWITCHES {
                return Err(bad(
                    i + 1,
                    format!(
                        "switch {id}; at most {MAX_IRREGULAR_SWITCHES} switches (ids 0..={})",
                        MAX_IRREGULAR_SWITCHES - 1
                    ),
                ));
            }
            Ok(id)
        };
        match words.as_slice() {
            ["switches", n] => {
                let n = num(n)?;
                if n as u64 > MAX_IRREGULAR_SWITCHES {
                    return Err(bad(
                        i + 1,
                        format!("switches {n}; at most {MAX_IRREGULAR_SWITCHES}"),
                    ));
                }
                switches = Some(n as usize);
            }
            ["hosts", h] => hosts = num(h)? as usize,
            [a, b] => {
                let (a, b) = (switch(a)?, switch(b)?);
                if a == b {
                    return Err(bad(i + 1, format!("self-link {a} {b}")));
                }
                if links.len() as u64 >= MAX_FILE_LINKS {
                    return Err(bad(i + 1, format!("more than {MAX_FILE_LINKS} links")));
                }
                links.push((a, b));
            }
            _ => {
                return Err(bad(
                    i + 1,
                    format!("cannot read `{line}`; expected `A B`, `switches N` or `hosts H`"),
                ));
            }
        }
    }
    let max_id = links
        .iter()
        .map(|&(a, b)| a.max(b) as usize + 1)
        .max()
        .unwrap_or(0);
    let n = switches.unwrap_or(max_id);
    if n == 0 {
        return Err(bad(0, "no links and no `switches N` line".into()));
    }
    if max_id > n {
        return Err(bad(
            0,
            format!("a link names switch {} but `switches {n}`", max_id - 1),
        ));
    }
    if hosts > 64 {
        return Err(bad(0, format!("hosts {hosts} per switch; accepted 0..=64")));
    }
    let mut degree = vec![0u64; n];
    for &(a, c) in &links {
        degree[a as usize] += 1;
        degree[c as usize] += 1;
    }
    if let Some((s, d)) = degree
        .iter()
        .enumerate()
        .find(|&(_, &d)| d + hosts as u64 > MAX_PORTS)
    {
        return Err(bad(
            0,
            format!(
                "switch {s} has {d} links and {hosts} hosts; at most {MAX_PORTS} ports per switch"
            ),
        ));
    }
    let mut b = NetworkBuilder::new(n);
    for &(a, c) in &links {
        b.link(a, c);
    }
    b.hosts_per_switch(hosts);
    let net = b.finish(spec, Shape::Irregular, Vec::new());
    if net.num_switches() > 1 && !super::metrics::is_connected(&net) {
        return Err(bad(0, "the switch graph is not connected".into()));
    }
    Ok(net)
}
