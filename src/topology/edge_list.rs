//! Edge-list topology files (`file:PATH`): one switch-to-switch link per line
//! as `A B` (switch ids from 0), `#` comments, and two optional header lines
//! `switches N` (default: largest id + 1) and `hosts H` (hosts per switch,
//! default 1). Links are added in file order, so channel ids follow the file.
//!
//! Limits ([`crate::limits`]): at most 2048 switches, 255 ports per switch
//! (links and hosts), 2^20 links and 64 hosts per switch; a file beyond one
//! is refused with the line that goes past it (the first link naming a
//! switch beyond `switches N`, the `hosts` line, the link that takes a
//! switch past its ports) and the limit. A file with no link, or whose
//! switches are not connected, is refused as a whole (no line).

use super::irregular::IRREGULAR_CONTRASTS;
use super::kind::{TopologyBuild, TopologyKind, TopologyParam};
use super::spec_parts::path_of;
use super::{Network, NetworkBuilder, Shape, TopologyError};
use crate::limits::NetworkSize;
use crate::limits::{MAX_FILE_LINKS, MAX_IRREGULAR_SWITCHES, MAX_PORTS};

/// Parse an edge list from text; `name` is used in error messages. (The
/// browser cannot read files; the web build calls it only from tests.)
pub fn parse(spec: String, name: &str, text: &str) -> Result<Network, TopologyError> {
    let bad = |line: usize, problem: String| TopologyError::File {
        path: name.to_string(),
        line,
        problem,
    };
    // `switches N` and `hosts H` with their lines (0: not given), and each
    // link's line beside it, so the checks after the whole file is read
    // can name the line that fails them.
    let mut switches: Option<(usize, usize)> = None;
    let mut hosts = (1usize, 0usize);
    let mut links: Vec<(u32, u32)> = Vec::new();
    let mut link_lines: Vec<u32> = Vec::new();
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
                switches = Some((n as usize, i + 1));
            }
            ["hosts", h] => hosts = (num(h)? as usize, i + 1),
            [a, b] => {
                let (a, b) = (switch(a)?, switch(b)?);
                if a == b {
                    return Err(bad(i + 1, format!("self-link {a} {b}")));
                }
                if links.len() as u64 >= MAX_FILE_LINKS {
                    return Err(bad(i + 1, format!("more than {MAX_FILE_LINKS} links")));
                }
                links.push((a, b));
                link_lines.push((i + 1) as u32);
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
    let (hosts, hosts_line) = hosts;
    let n = switches.map_or(max_id, |(n, _)| n);
    if n == 0 {
        return Err(bad(
            0,
            "no links and no `switches N` line; expected at least one link `A B`".into(),
        ));
    }
    if max_id > n {
        // The first link past `switches N` (a line of its own).
        let (k, &(a, b)) = links
            .iter()
            .enumerate()
            .find(|&(_, &(a, b))| a.max(b) as usize >= n)
            .expect("a link names the largest id");
        let declared = switches.map_or(0, |(_, line)| line);
        return Err(bad(
            link_lines[k] as usize,
            format!(
                "link {a} {b} names switch {} but `switches {n}` (line {declared}); expected ids 0..={}",
                a.max(b),
                n - 1
            ),
        ));
    }
    if hosts > 64 {
        return Err(bad(
            hosts_line,
            format!("hosts {hosts} per switch; accepted 0..=64"),
        ));
    }
    // Ports counted link by link, so the link that takes a switch past
    // its ports is the line named.
    let mut degree = vec![0u64; n];
    for (k, &(a, c)) in links.iter().enumerate() {
        for s in [a, c] {
            degree[s as usize] += 1;
            let d = degree[s as usize];
            if d + hosts as u64 > MAX_PORTS {
                return Err(bad(
                    link_lines[k] as usize,
                    format!(
                        "link {a} {c} gives switch {s} its link {d}, with {hosts} hosts; at most {MAX_PORTS} ports per switch"
                    ),
                ));
            }
        }
    }
    let mut b = NetworkBuilder::new(n);
    for &(a, c) in &links {
        b.link(a, c);
    }
    b.hosts_per_switch(hosts);
    let net = b.finish(spec, Shape::Irregular, Vec::new());
    if net.num_switches() > 1 && !super::metrics::is_connected(&net) {
        let d = super::metrics::bfs_distances(&net, 0);
        let far = d.iter().position(|&x| x == u32::MAX).unwrap_or(0);
        return Err(bad(
            0,
            format!(
                "the switch graph is not connected: switch 0 cannot reach switch {far}; \
                 expected every switch to reach every other"
            ),
        ));
    }
    Ok(net)
}

/// `file:PATH`: an edge-list file.
pub const KIND: TopologyKind = TopologyKind {
    name: "file",
    aliases: &[],
    form: "file:PATH (an edge list; at most 2048 switches)",
    summary: "an edge-list file: one `A B` link per line, optional `switches N` and `hosts H` lines",
    params: &[TopologyParam {
        key: "PATH",
        accepted: "a readable text file (not in the browser)",
        default: "",
        meaning: "the file",
    }],
    example: "file:edges.txt",
    from_file: true,
    contrasts: IRREGULAR_CONTRASTS,
    parse: |spec| {
        Ok(Box::new(EdgeListSpec {
            path: path_of(spec, "file")?.to_string(),
        }))
    },
};

/// A parsed `file:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EdgeListSpec {
    path: String,
}

impl TopologyBuild for EdgeListSpec {
    fn canonical(&self) -> String {
        format!("file:{}", self.path)
    }
    fn size(&self) -> Option<NetworkSize> {
        None
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        #[cfg(target_arch = "wasm32")]
        {
            Err(super::spec_parts::invalid(
                &spec,
                format!("cannot read `{}` in the browser", self.path),
            ))
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let text = super::import::read_from_disk(&self.path, None)?;
            parse(spec, &self.path, &text)
        }
    }
}
