//! `ibnetdiscover` output (infiniband-diags' `ibnetdiscover(8)`), read as
//! `ibnetdiscover:PATH`; ibsim's network files share this grammar
//! ([`super::ibsim`] reads them with [`Dialect::IbSim`]).
//!
//! The format, as `ibnetdiscover` writes it:
//!
//! ```text
//! # Topology file: generated on ...           comments start with `#`
//! Non-Chassis Nodes                            section markers (ignored)
//!
//! vendid=0x2c9                                 header lines of the next record
//! devid=0xcb20
//! sysimgguid=0x7cfe900300a5a2c0
//! switchguid=0x7cfe900300a5a2c0(7cfe900300a5a2c0)
//! Switch  36 "S-7cfe900300a5a2c0"  # "SwitchIB Mellanox Technologies" base port 0 lid 3 lmc 0
//! [1]   "H-0002c90300001001"[1](2c90300001002)  # "node001 HCA-1" lid 7 4xEDR
//! [25]  "S-7cfe900300a5a340"[1]  # "SwitchIB Mellanox Technologies" lid 5 4xEDR
//!                                              a blank line ends the record
//! vendid=0x2c9
//! devid=0x1013
//! caguid=0x2c90300001001
//! Ca  1 "H-0002c90300001001"  # "node001 HCA-1"
//! [1](2c90300001002)  "S-7cfe900300a5a2c0"[1]  # lid 7 lmc 0 "SwitchIB Mellanox Technologies" lid 3 4xEDR
//! ```
//!
//! - node records `Switch`, `Ca` and `Rt` (a router, treated as a switch):
//!   `TYPE PORTS "NODEID"`, then `# "description"` and, for switches,
//!   `base|enhanced port 0 lid L lmc M`;
//! - header lines `vendid=`, `devid=`, `sysimgguid=`, `switchguid=`,
//!   `caguid=`, `rtguid=` before a record (the node GUID is taken from
//!   `switchguid`/`caguid`/`rtguid`, else from the node id `S-`/`H-`/`R-`);
//! - port lines `[P]` (optionally `[ext N]` and, on an adapter, the port
//!   GUID `(hex)`), the far end `"NODEID"[Q]` (optionally `[ext N]` and
//!   `(hex)`), then a comment with the far end's description, its LID
//!   (`lid L`; an adapter's line first gives its own `lid L lmc M`) and the
//!   link's width and speed (`4xEDR`); tabs or spaces anywhere;
//! - chassis sections (`ibnetdiscover -g`: `Chassis ...`, `Hostname: ...`
//!   and `# Spine Nodes`-style comments) are read like the rest;
//! - every cable appears in both ends' records and is counted once; a
//!   cable listed from one end only is refused (the other record is
//!   missing its port line: a truncated or edited file).
//!
//! Ports keep their numbers: switch port index `i` is file port `i + 1`
//! (port 0, a switch's management port, carries no cable).

use super::{Listing, NodeKind, RawFabric, RawNode, parse_width_speed};
use crate::topology::TopologyError;
use std::collections::HashMap;

/// The two dialects of the record grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `ibnetdiscover` output: `Switch`, `Ca`, `Rt`; cables listed from
    /// both ends.
    IbNetDiscover,
    /// ibsim's network file: also `Hca`; a far port may be omitted (port
    /// 1); `w=`, `s=`, `e=` port options; cables may be listed once; GUID
    /// header lines are bases for the following nodes of that type.
    IbSim,
}

/// Parse `ibnetdiscover` output.
pub fn parse(path: &str, text: &str) -> Result<RawFabric, TopologyError> {
    parse_records(path, text, Dialect::IbNetDiscover)
}

/// A cursor over one line.
struct Cur<'a> {
    s: &'a str,
}

impl<'a> Cur<'a> {
    fn ws(&mut self) {
        self.s = self.s.trim_start();
    }
    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }
    /// `[N]` (after optional whitespace); `Ok(None)` when no `[` follows.
    fn bracket(&mut self) -> Result<Option<&'a str>, String> {
        self.ws();
        if self.peek() != Some('[') {
            return Ok(None);
        }
        let Some(end) = self.s.find(']') else {
            return Err(format!("`{}` has no closing `]`", self.s));
        };
        let inner = &self.s[1..end];
        self.s = &self.s[end + 1..];
        Ok(Some(inner.trim()))
    }
    /// `(hex)`; `Ok(None)` when no `(` follows.
    fn paren_hex(&mut self) -> Result<Option<u64>, String> {
        self.ws();
        if self.peek() != Some('(') {
            return Ok(None);
        }
        let Some(end) = self.s.find(')') else {
            return Err(format!("`{}` has no closing `)`", self.s));
        };
        let inner = self.s[1..end].trim();
        self.s = &self.s[end + 1..];
        hex(inner)
            .map(Some)
            .ok_or_else(|| format!("`({inner})` is not a hexadecimal GUID"))
    }
    /// `"text"`; `Ok(None)` when no quote follows.
    fn quoted(&mut self) -> Result<Option<&'a str>, String> {
        self.ws();
        if self.peek() != Some('"') {
            return Ok(None);
        }
        let Some(end) = self.s[1..].find('"') else {
            return Err(format!(
                "`{}` has no closing quote (is the line cut short?)",
                self.s
            ));
        };
        let inner = &self.s[1..1 + end];
        self.s = &self.s[end + 2..];
        Ok(Some(inner))
    }
    /// An `[ext N]` chassis port mapping, skipped.
    fn skip_ext(&mut self) {
        let save = self.s;
        self.ws();
        if self.s.starts_with("[ext")
            && let Some(end) = self.s.find(']')
        {
            self.s = &self.s[end + 1..];
            return;
        }
        self.s = save;
    }
}

/// `0x1a2b`, `1a2b`.
fn hex(s: &str) -> Option<u64> {
    let s = s.trim();
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// A number in C's `strtoul(.., 0)` spelling (decimal, or `0x` hex).
fn number(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// The number after the first `lid` word in `words`.
fn lid_in(text: &str) -> Option<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "lid")
        .and_then(|w| number(w[1]))
        .and_then(|v| u32::try_from(v).ok())
}

/// The first `NxSPEED` word: (as written, Gb/s if the speed is known).
fn width_speed_in(text: &str) -> Option<(String, Option<f64>)> {
    text.split_whitespace().find_map(|w| {
        if let Some((t, g)) = parse_width_speed(w) {
            return Some((t, Some(g)));
        }
        let (lanes, speed) = w.split_once('x')?;
        (!lanes.is_empty()
            && lanes.chars().all(|c| c.is_ascii_digit())
            && !speed.is_empty()
            && speed.chars().all(|c| c.is_ascii_alphanumeric())
            && speed.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .then(|| (w.to_string(), None))
    })
}

/// The record being read.
struct Record {
    node: usize,
    kind: NodeKind,
    ports: u16,
}

/// Parse the record grammar in either dialect.
pub fn parse_records(path: &str, text: &str, dialect: Dialect) -> Result<RawFabric, TopologyError> {
    let bad = |line: usize, problem: String| TopologyError::File {
        path: path.to_string(),
        line,
        problem,
    };
    let ibsim = dialect == Dialect::IbSim;
    let mut r = Reader {
        ibsim,
        kinds: if ibsim {
            "`Switch`, `Hca`, `Ca` or `Rt`"
        } else {
            "`Switch`, `Ca` or `Rt`"
        },
        raw: RawFabric {
            both_ends: !ibsim,
            port_base: 1,
            ..RawFabric::default()
        },
        names: HashMap::new(),
        record: None,
        next_guid: HashMap::new(),
        pending_header: None,
        ports_seen: HashMap::new(),
    };
    for (i, raw_line) in text.lines().enumerate() {
        let line_no = i + 1;
        r.raw.lines = line_no;
        r.line(raw_line.trim(), line_no)
            .map_err(|p| bad(line_no, p))?;
    }
    let (raw, kinds, pending_header) = (r.raw, r.kinds, r.pending_header);
    if let Some(h) = pending_header {
        return Err(bad(
            h,
            "header lines with no node record after them; expected a `Switch`/`Ca` line \
             (is the file truncated?)"
                .into(),
        ));
    }
    if raw.nodes.is_empty() {
        return Err(bad(
            raw.lines,
            format!(
                "no node record; expected {kinds} records (is this {} output?)",
                match dialect {
                    Dialect::IbNetDiscover => "ibnetdiscover",
                    Dialect::IbSim => "an ibsim network file",
                }
            ),
        ));
    }
    Ok(raw)
}

/// The records read so far and what the next line needs of them.
struct Reader {
    ibsim: bool,
    /// The node kinds the dialect reads, for the errors.
    kinds: &'static str,
    raw: RawFabric,
    /// Node ids to their index.
    names: HashMap<String, usize>,
    record: Option<Record>,
    /// GUID from the header lines of the next record (ibnetdiscover), or
    /// the running bases per node type (ibsim).
    next_guid: HashMap<&'static str, u64>,
    /// The first header line not yet followed by its record.
    pending_header: Option<usize>,
    /// (node, port) to the line listing it.
    ports_seen: HashMap<(usize, u16), usize>,
}

impl Reader {
    /// One trimmed line: blank (ends a record), a comment or chassis
    /// line, a header line, a port line or a node header.
    fn line(&mut self, t: &str, line_no: usize) -> Result<(), String> {
        if t.is_empty() {
            self.record = None;
            return Ok(());
        }
        if t.starts_with('#')
            || t == "Non-Chassis Nodes"
            || t.starts_with("Chassis ")
            || t.starts_with("Hostname:")
        {
            return Ok(());
        }
        if let Some((key, value)) = t.split_once('=')
            && !t.starts_with('[')
            && key.chars().all(|c| c.is_ascii_alphanumeric())
        {
            self.header(t, key, value)?;
            self.record = None;
            self.pending_header.get_or_insert(line_no);
            return Ok(());
        }
        if self.ibsim && (t.starts_with("include") || t.starts_with("do ") || t.starts_with('@')) {
            return Err(format!(
                "`{}` is an ibsim extension routelab does not read (include, do, @aliases); \
                 expected node records and port lines only",
                t.split_whitespace().next().unwrap_or(t)
            ));
        }
        if t.starts_with('[') {
            return self.port(t, line_no);
        }
        self.node(t, line_no)
    }

    /// A `key=value` header line (ibnetdiscover's GUIDs of the next
    /// record).
    fn header(&mut self, t: &str, key: &str, value: &str) -> Result<(), String> {
        let next_guid = &mut self.next_guid;
        let key = key.trim();
        let value = value.trim();
        let first = value.split(['(', ' ', '\t']).next().unwrap_or("");
        match key {
            "vendid" | "devid" | "sysimgguid" => {
                if hex(first).is_none() && number(first).is_none() {
                    return Err(format!("`{t}`: expected `{key}=0xHEX`"));
                }
            }
            "switchguid" | "caguid" | "rtguid" => {
                let g = hex(first).ok_or_else(|| format!("`{t}`: expected `{key}=0xHEX`"))?;
                let k = match key {
                    "switchguid" => "switch",
                    "caguid" => "ca",
                    _ => "rt",
                };
                next_guid.insert(k, g);
            }
            _ => {
                return Err(format!(
                    "unknown header `{key}=`; expected vendid=, devid=, sysimgguid=, \
                         switchguid=, caguid= or rtguid="
                ));
            }
        }
        Ok(())
    }

    /// A port line of the current record.
    fn port(&mut self, t: &str, line_no: usize) -> Result<(), String> {
        let ibsim = self.ibsim;
        let (record, ports_seen, raw) = (&self.record, &mut self.ports_seen, &mut self.raw);
        let Some(rec) = &record else {
            return Err(
                "a port line outside a node record; expected a `Switch`/`Ca` header line \
                 above it (a blank line ends a record)"
                    .into(),
            );
        };
        let l = port_line(t, rec, line_no, ibsim)?;
        if let Some(first) = ports_seen.insert((rec.node, l.from_port), line_no) {
            return Err(format!(
                "port {} of \"{}\" is listed twice (first at line {first}); expected each port once",
                l.from_port + 1,
                raw.nodes[rec.node].name
            ));
        }
        raw.listings.push(l);
        Ok(())
    }

    /// A node header: `Switch`/`Ca`/`Rt` (ibsim: also `Hca`), its port
    /// count, its id in quotes, and after `#` its description and LID.
    fn node(&mut self, t: &str, line_no: usize) -> Result<(), String> {
        let (ibsim, kinds) = (self.ibsim, self.kinds);
        let word = t.split_whitespace().next().unwrap_or("");
        let kind = match word {
            "Switch" => NodeKind::Switch,
            "Ca" => NodeKind::Adapter,
            "Hca" if ibsim => NodeKind::Adapter,
            "Rt" => NodeKind::Router,
            _ => {
                return Err(format!(
                    "cannot read `{t}`; expected a node header ({kinds} PORTS \"NODEID\"), \
                         a port line ([P] \"NODEID\"[Q]), a key=value header line or a # comment"
                ));
            }
        };
        let mut cur = Cur {
            s: &t[word.len()..],
        };
        cur.ws();
        let count_text: &str = cur.s.split_whitespace().next().unwrap_or("");
        let count_text = count_text.split('"').next().unwrap_or("");
        let ports = number(count_text)
            .filter(|&n| (1..=u16::MAX as u64 - 1).contains(&n))
            .ok_or_else(|| format!("`{word}` needs its port count, then \"NODEID\"; got `{t}`"))?
            as u16;
        cur.s = &cur.s[count_text.len()..];
        let name = cur
            .quoted()?
            .ok_or_else(|| format!("expected the node id in quotes after `{word} {ports}`"))?
            .to_string();
        if name.is_empty() {
            return Err("empty node id; expected \"NODEID\"".into());
        }
        let comment = cur.s.split_once('#').map(|(_, c)| c).unwrap_or("");
        let mut cc = Cur { s: comment };
        let description = match cc.quoted()? {
            Some(d) => Some(d.to_string()),
            None if ibsim => {
                let d = comment.trim();
                let cut = [" enhanced port", " base port", " lid ", " lmc "]
                    .iter()
                    .filter_map(|m| d.find(m))
                    .min()
                    .unwrap_or(d.len());
                let d = d[..cut].trim();
                (!d.is_empty() && !d.starts_with("lid")).then(|| d.to_string())
            }
            None => None,
        };
        let lid = lid_in(cc.s);
        let type_key = match kind {
            NodeKind::Switch => "switch",
            NodeKind::Adapter => "ca",
            NodeKind::Router => "rt",
        };
        let guid = if ibsim {
            self.next_guid.get(type_key).copied().inspect(|&g| {
                let step = if kind == NodeKind::Switch {
                    1
                } else {
                    ports as u64 + 1
                };
                self.next_guid.insert(type_key, g.wrapping_add(step));
            })
        } else {
            self.next_guid.remove(type_key)
        }
        .or_else(|| {
            let prefix = &name.get(..2)?;
            matches!(*prefix, "S-" | "H-" | "R-")
                .then(|| hex(&name[2..]))
                .flatten()
        });
        if !ibsim {
            self.next_guid.clear();
        }
        self.pending_header = None;
        if let Some(&first) = self.names.get(&name) {
            return Err(format!(
                "node \"{name}\" is defined twice (first at line {}); expected one record per node",
                self.raw.nodes[first].line
            ));
        }
        let idx = self.raw.nodes.len();
        self.names.insert(name.clone(), idx);
        self.raw.nodes.push(RawNode {
            name,
            kind,
            description,
            guid,
            lid,
            ports,
            host_rank: None,
            line: line_no,
        });
        self.record = Some(Record {
            node: idx,
            kind,
            ports,
        });
        Ok(())
    }
}

/// One port line of `rec`.
fn port_line(t: &str, rec: &Record, line: usize, ibsim: bool) -> Result<Listing, String> {
    let mut cur = Cur { s: t };
    let p_text = cur.bracket()?.unwrap_or("");
    let p = number(p_text)
        .ok_or_else(|| format!("`[{p_text}]` is not a port number; expected `[P]`"))?;
    if p == 0 {
        return Err(
            "port 0 is a switch's management port and carries no cable; expected ports 1..=N"
                .into(),
        );
    }
    if p > rec.ports as u64 {
        return Err(format!(
            "port {p}, but the record declares {} ports; expected 1..={}",
            rec.ports, rec.ports
        ));
    }
    cur.skip_ext();
    let local_guid = cur.paren_hex()?;
    let to = cur
        .quoted()?
        .ok_or_else(|| format!("expected the far end's \"NODEID\" after `[{p}]`"))?
        .to_string();
    let q = match cur.bracket()? {
        Some(q_text) => number(q_text)
            .filter(|&q| q >= 1 && q < u16::MAX as u64)
            .ok_or_else(|| format!("`[{q_text}]` is not a far port number; expected 1 or more"))?,
        None if ibsim => 1,
        None => return Err(format!("expected the far port `[Q]` after \"{to}\"")),
    };
    cur.skip_ext();
    let remote_guid = cur.paren_hex()?;
    let (before, comment) = match cur.s.split_once('#') {
        Some((b, c)) => (b, c),
        None => (cur.s, ""),
    };
    let mut l = Listing::new(rec.node, (p - 1) as u16, to, (q - 1) as u16, line);
    l.local_guid = local_guid;
    l.remote_guid = remote_guid;
    // The comment: an adapter's own `lid L lmc M` before the far end's
    // quoted description, then the far end's `lid L` and `NxSPEED`.
    let (own, far) = match comment.find('"') {
        Some(q0) => {
            let rest = &comment[q0 + 1..];
            match rest.find('"') {
                Some(q1) => (&comment[..q0], &rest[q1 + 1..]),
                None => {
                    return Err(
                        "the description has no closing quote (is the line cut short?)".into(),
                    );
                }
            }
        }
        None => ("", comment),
    };
    if rec.kind != NodeKind::Switch {
        l.local_lid = lid_in(own);
    }
    l.remote_lid = lid_in(far);
    if let Some((text, gbps)) = width_speed_in(far) {
        l.link = Some(text);
        l.gbps = gbps;
    }
    if ibsim {
        ibsim_options(before, &mut l)?;
    }
    Ok(l)
}

/// ibsim's `w=`, `s=`, `e=` port options (LinkWidthEnabled, LinkSpeedEnabled
/// and LinkSpeedExtEnabled bit masks): the widest width and fastest speed
/// they enable become the link's width and speed, unless the line also
/// spells them (`4xEDR`).
fn ibsim_options(text: &str, l: &mut Listing) -> Result<(), String> {
    let (mut w, mut s, mut e) = (None, None, None);
    for word in text.split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            continue;
        };
        let v = number(v).ok_or_else(|| format!("`{word}`: expected a number after `{k}=`"))?;
        match k {
            "w" if (1..=31).contains(&v) => w = Some(v),
            "s" if v <= 7 => s = Some(v),
            "e" if v <= 15 => e = Some(v),
            "w" | "s" | "e" => {
                return Err(format!(
                    "`{word}` is out of range; expected w=1..31, s=0..7, e=0..15"
                ));
            }
            _ => {
                return Err(format!(
                    "unknown port option `{word}`; expected w=, s= or e="
                ));
            }
        }
    }
    if l.link.is_some() || (w.is_none() && s.is_none() && e.is_none()) {
        return Ok(());
    }
    let lanes = match w {
        Some(w) if w & 8 != 0 => 12,
        Some(w) if w & 4 != 0 => 8,
        Some(w) if w & 2 != 0 => 4,
        Some(w) if w & 16 != 0 => 2,
        Some(_) => 1,
        None => 4,
    };
    let speed = match (e, s) {
        (Some(e), _) if e & 8 != 0 => "NDR",
        (Some(e), _) if e & 4 != 0 => "HDR",
        (Some(e), _) if e & 2 != 0 => "EDR",
        (Some(e), _) if e & 1 != 0 => "FDR",
        (_, Some(s)) if s & 4 != 0 || s == 0 => "QDR",
        (_, Some(s)) if s & 2 != 0 => "DDR",
        _ => "SDR",
    };
    if let Some((t, g)) = parse_width_speed(&format!("{lanes}x{speed}")) {
        l.link = Some(t);
        l.gbps = Some(g);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
#
# Topology file: generated on Tue Jun  5 14:15:10 2007
#
Non-Chassis Nodes

vendid=0x2c9
devid=0xcb20
sysimgguid=0x7cfe900300a5a2c0
switchguid=0x7cfe900300a5a2c0(7cfe900300a5a2c0)
Switch\t8 \"S-7cfe900300a5a2c0\"\t\t# \"leaf one\" enhanced port 0 lid 3 lmc 0
[1]\t\"H-0002c90300001001\"[1](2c90300001002) \t\t# \"node001 HCA-1\" lid 7 4xEDR
[3]\t\"S-7cfe900300a5a340\"[2]\t\t# \"leaf two\" lid 5 4xEDR
[4]\t\"S-7cfe900300a5a340\"[1]\t\t# \"leaf two\" lid 5 4xEDR

switchguid=0x7cfe900300a5a340(7cfe900300a5a340)
Switch  8 \"S-7cfe900300a5a340\"  # \"leaf two\" base port 0 lid 5 lmc 0
[1]  \"S-7cfe900300a5a2c0\"[4]  # \"leaf one\" lid 3 4xEDR
[2]  \"S-7cfe900300a5a2c0\"[3]  # \"leaf one\" lid 3 4xEDR
[5]  \"H-0002c90300001011\"[1](2c90300001012)  # \"node002 HCA-1\" lid 9 4xHDR

caguid=0x2c90300001001
Ca\t1 \"H-0002c90300001001\"\t\t# \"node001 HCA-1\"
[1](2c90300001002) \t\"S-7cfe900300a5a2c0\"[1]\t\t# lid 7 lmc 0 \"leaf one\" lid 3 4xEDR

Ca  1 \"H-0002c90300001011\"  # \"node002 HCA-1\"
[1](2c90300001012)  \"S-7cfe900300a5a340\"[5]  # lid 9 lmc 0 \"leaf two\" lid 5 4xHDR
";

    #[test]
    fn reads_records_ports_and_metadata() {
        let raw = parse("t", SMALL).unwrap();
        assert_eq!(raw.nodes.len(), 4);
        assert_eq!(raw.nodes[0].description.as_deref(), Some("leaf one"));
        assert_eq!(raw.nodes[0].guid, Some(0x7cfe900300a5a2c0));
        assert_eq!(raw.nodes[0].lid, Some(3));
        assert_eq!(raw.nodes[3].guid, Some(0x2c90300001011), "from the node id");
        assert_eq!(raw.listings.len(), 8);
        let l = &raw.listings[0];
        assert_eq!((l.from_port, l.to_port), (0, 0));
        assert_eq!(l.remote_guid, Some(0x2c90300001002));
        assert_eq!(l.remote_lid, Some(7));
        assert_eq!(l.link.as_deref(), Some("4xEDR"));
        let ca = &raw.listings[6];
        assert_eq!(ca.local_lid, Some(7));
        assert_eq!(ca.remote_lid, Some(3));
    }

    #[test]
    fn builds_with_parallel_cables_counted_once() {
        let net = super::super::parse(
            super::super::FabricFormat::IbNetDiscover,
            "ibnetdiscover:t".into(),
            "t",
            SMALL,
        )
        .unwrap();
        assert_eq!(net.num_switches(), 2);
        assert_eq!(net.num_hosts(), 2);
        assert_eq!(net.num_network_channels(), 4, "two parallel cables");
        let f = net.fabric().unwrap();
        assert_eq!(f.hosts[0].description.as_deref(), Some("node001 HCA-1"));
        assert_eq!(f.hosts[1].lid, Some(9));
        assert_eq!(f.cables[0].a_port, 3);
        assert_eq!(f.cables[0].b_port, 2);
        assert_eq!(f.cables[0].relative_bandwidth, 1.0);
        // Port index = file port - 1; port 0 and the other unused ports stay unconnected.
        assert_eq!(net.ports(0).len(), 8);
        assert_eq!(net.hosts_of(1).collect::<Vec<_>>(), vec![1]);
        assert_eq!(net.host(1).port, 4);
    }
}
