//! The neutral description every parser produces: the file's nodes and its
//! port lines (a cable as seen from one end), as written, before any check
//! across records ([`super::assemble()`] makes those).

use serde::Serialize;

/// What a node of the file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A switch (`Switch`, anynet `router`).
    Switch,
    /// An InfiniBand router (`Rt`), treated as a switch.
    Router,
    /// A host adapter (`Ca`, ibsim `Hca`, anynet `node`).
    Adapter,
}

/// A node record.
#[derive(Clone, Debug)]
pub struct RawNode {
    /// Node id as written (unique).
    pub name: String,
    pub kind: NodeKind,
    pub description: Option<String>,
    pub guid: Option<u64>,
    pub lid: Option<u32>,
    /// Declared ports: indices `0..ports` (file ports `port_base..`).
    pub ports: u16,
    /// Explicit host number (anynet node id); hosts are numbered by it when
    /// every adapter has one.
    pub host_rank: Option<u64>,
    pub line: usize,
}

/// One port line: a cable as seen from one of its ends.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Index of the node whose record holds the line.
    pub from: usize,
    /// Port index (file port minus `port_base`).
    pub from_port: u16,
    /// Far end's node id as written.
    pub to: String,
    /// Far end's port index.
    pub to_port: u16,
    /// Width and speed as written (`4xEDR`).
    pub link: Option<String>,
    pub gbps: Option<f64>,
    pub latency: Option<u32>,
    /// GUID and LID of the local port, if the line gives them (adapters).
    pub local_guid: Option<u64>,
    pub local_lid: Option<u32>,
    /// GUID and LID of the far port, if the line gives them.
    pub remote_guid: Option<u64>,
    pub remote_lid: Option<u32>,
    pub line: usize,
}

impl Listing {
    /// A listing with no metadata.
    pub fn new(from: usize, from_port: u16, to: String, to_port: u16, line: usize) -> Listing {
        Listing {
            from,
            from_port,
            to,
            to_port,
            link: None,
            gbps: None,
            latency: None,
            local_guid: None,
            local_lid: None,
            remote_guid: None,
            remote_lid: None,
            line,
        }
    }
}

/// A parsed file, before any check across records.
#[derive(Clone, Debug, Default)]
pub struct RawFabric {
    pub nodes: Vec<RawNode>,
    pub listings: Vec<Listing>,
    /// Every cable must be listed from both ends (ibnetdiscover).
    pub both_ends: bool,
    pub port_base: u16,
    /// Lines in the file (for "truncated" messages).
    pub lines: usize,
}

/// Per-lane data rate in Gb/s of an InfiniBand speed name.
pub fn lane_gbps(speed: &str) -> Option<f64> {
    Some(match speed.to_ascii_uppercase().as_str() {
        "SDR" => 2.5,
        "DDR" => 5.0,
        "QDR" | "FDR10" => 10.0,
        "FDR" => 14.0,
        "EDR" => 25.0,
        "HDR" => 50.0,
        "NDR" => 100.0,
        "XDR" => 200.0,
        _ => return None,
    })
}

/// `4xEDR` → (`4xEDR`, 100 Gb/s); `None` for anything else.
pub fn parse_width_speed(word: &str) -> Option<(String, f64)> {
    let (lanes, speed) = word.split_once(['x', 'X'])?;
    let lanes: u32 = lanes.parse().ok()?;
    if !matches!(lanes, 1 | 2 | 4 | 8 | 12) {
        return None;
    }
    let rate = lane_gbps(speed)?;
    Some((word.to_string(), lanes as f64 * rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_and_speed() {
        assert_eq!(parse_width_speed("4xEDR"), Some(("4xEDR".into(), 100.0)));
        assert_eq!(parse_width_speed("1xSDR"), Some(("1xSDR".into(), 2.5)));
        assert_eq!(parse_width_speed("12xQDR"), Some(("12xQDR".into(), 120.0)));
        assert_eq!(parse_width_speed("3xEDR"), None);
        assert_eq!(parse_width_speed("4xFOO"), None);
        assert_eq!(parse_width_speed("lid"), None);
    }
}
