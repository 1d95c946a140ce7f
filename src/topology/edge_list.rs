//! Edge-list topology files (`file:PATH`): one switch-to-switch link per line
//! as `A B` (switch ids from 0), `#` comments, and two optional header lines
//! `switches N` (default: largest id + 1) and `hosts H` (hosts per switch,
//! default 1). Links are added in file order, so channel ids follow the file.

use super::{Network, NetworkBuilder, Shape, TopologyError};

/// Parse an edge list from text; `name` is used in error messages. (The
/// browser cannot read files, so the web build does not call it.)
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
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
        match words.as_slice() {
            ["switches", n] => switches = Some(num(n)? as usize),
            ["hosts", h] => hosts = num(h)? as usize,
            [a, b] => {
                let (a, b) = (num(a)?, num(b)?);
                if a == b {
                    return Err(bad(i + 1, format!("self-link {a} {b}")));
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
