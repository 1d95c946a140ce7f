//! Fabrics read from other tools' files: InfiniBand `ibnetdiscover` output
//! (`ibnetdiscover:PATH`), ibsim's network files (`ibsim:PATH`, the format
//! of its `net-examples`) and BookSim2's `anynet` files (`anynet:PATH`).
//!
//! Each format has its own parser ([`ibnetdiscover`], [`ibsim`],
//! [`anynet`]); every parser produces the same neutral description
//! ([`RawFabric`]: nodes, and cable listings that name their far end), and
//! [`assemble()`] turns it into a [`Network`] through
//! [`NetworkBuilder`](super::NetworkBuilder), so the checks that matter to
//! an administrator live in one place:
//!
//! - a node referenced but never defined, a port listed twice, a cable whose
//!   two ends disagree, a cable on a port the node does not have, an adapter
//!   cabled to an adapter, and (ibnetdiscover, which lists every cable from
//!   both ends) a cable listed from one end only, each refused with the
//!   line and what was expected;
//! - a fabric whose switches are not connected is refused, naming two
//!   switches that cannot reach each other and their lines;
//! - the size limits of [`crate::limits`] apply: at most
//!   [`MAX_IRREGULAR_SWITCHES`](crate::limits::MAX_IRREGULAR_SWITCHES) switches, [`MAX_PORTS`](crate::limits::MAX_PORTS) ports per switch,
//!   [`MAX_FILE_LINKS`](crate::limits::MAX_FILE_LINKS) cables, [`crate::limits::MAX_FILE_BYTES`] bytes of file, and the
//!   host and channel limits of every network.
//!
//! Nothing is half-built: the network exists only once every check passed.
//!
//! The network it builds:
//! - switches (and InfiniBand routers, `Rt`, treated as switches) in the
//!   file's order; switch port index `i` is the file's port `i + port_base`
//!   ([`FabricInfo::port_base`]: 1 for the InfiniBand formats, whose port 0
//!   is a switch's management port, 0 for anynet). A switch keeps every port
//!   its record declares; ports without a cable stay unconnected.
//! - one host per cabled adapter port (an adapter with two cabled ports is
//!   two hosts), numbered switch by switch in port order (anynet: by node
//!   id, as BookSim numbers them), so hosts per switch vary as in the file.
//! - one link per cable: parallel cables between the same two switches are
//!   distinct links, ports and channels. Links are numbered in the order of
//!   their lower end (switch, then port), whichever record listed them, so
//!   the same fabric written in two formats gives the same channel ids.
//! - [`Shape::Irregular`](super::Shape::Irregular): every routing for irregular networks applies
//!   (up*/down*, the `paths:` selections).
//! - drawing coordinates by levels (`topology::layout::by_levels`).
//!
//! What a user recognises (descriptions, GUIDs, LIDs, file port numbers,
//! link width and speed) is kept as [`FabricInfo`] on the network
//! ([`Network::fabric`]). The simulator's channels all have the same
//! bandwidth: a cable's width and speed are shown (and its bandwidth
//! relative to the fastest cable), not simulated.

pub mod anynet;
mod assemble;
mod entries;
mod format;
pub mod ibnetdiscover;
pub mod ibsim;
mod info;
mod raw;

pub use super::layout::levels;
use super::{Network, TopologyError};
pub use assemble::assemble;
pub use entries::{ANYNET, IBNETDISCOVER, IBSIM};
pub use format::FabricFormat;
pub use info::{
    CableInfo, FabricInfo, HostInfo, ParallelGroup, SwitchInfo, WiringSummary, parallel_groups,
    wiring_summary,
};
pub use raw::{Listing, NodeKind, RawFabric, RawNode, lane_gbps, parse_width_speed};

/// The example fabrics shipped in `assets/fabrics/`, compiled in so that
/// presets open them in the browser and from any working directory.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "assets/fabrics/fattree-4x2-ibnetdiscover.txt",
        include_str!("../../../assets/fabrics/fattree-4x2-ibnetdiscover.txt"),
    ),
    (
        "assets/fabrics/fattree-4x2.ibsim",
        include_str!("../../../assets/fabrics/fattree-4x2.ibsim"),
    ),
    (
        "assets/fabrics/fattree-4x2.anynet",
        include_str!("../../../assets/fabrics/fattree-4x2.anynet"),
    ),
    (
        "assets/fabrics/irregular-9-ibnetdiscover.txt",
        include_str!("../../../assets/fabrics/irregular-9-ibnetdiscover.txt"),
    ),
];

/// The text of a bundled example, by its path under the crate
/// (`assets/fabrics/NAME`, with or without a leading `./`).
pub fn bundled(path: &str) -> Option<&'static str> {
    let path = path.strip_prefix("./").unwrap_or(path);
    BUNDLED.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// Read a fabric file (at most [`crate::limits::MAX_FILE_BYTES`]); a bundled example's
/// path that cannot be read (the browser, another working directory) gives
/// the compiled-in copy.
pub fn read(path: &str) -> Result<String, TopologyError> {
    #[cfg(target_arch = "wasm32")]
    {
        bundled(path).map(str::to_string).ok_or_else(|| {
            whole_file(
                path,
                "the browser cannot read files; only the bundled examples open".into(),
            )
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        read_from_disk(path, bundled(path))
    }
}

/// Read a topology file from disk (fabrics here, edge lists through
/// `file:`): at most [`crate::limits::MAX_FILE_BYTES`], reading one byte
/// past the limit so that a device such as `/dev/zero` (which never ends
/// and reports a length of 0) is refused too. `fallback` is the text given
/// when the file cannot be read (a bundled example's copy), else the
/// refusal names the file and what is accepted.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn read_from_disk(
    path: &str,
    fallback: Option<&'static str>,
) -> Result<String, TopologyError> {
    use crate::limits::{MAX_FILE_BYTES, human_bytes};
    use std::io::Read;
    let mut text = String::new();
    if let Err(e) =
        std::fs::File::open(path).and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
    {
        return fallback
            .map(str::to_string)
            .ok_or_else(|| whole_file(path, format!("{e}; accepted: a readable text file")));
    }
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(whole_file(
            path,
            format!(
                "larger than {MAX_FILE_BYTES} bytes ({}); at most that",
                human_bytes(MAX_FILE_BYTES)
            ),
        ));
    }
    Ok(text)
}

/// A problem of the whole file `path` (no line: [`TopologyError::File`]'s
/// line 0).
fn whole_file(path: &str, problem: String) -> TopologyError {
    TopologyError::File {
        path: path.to_string(),
        line: 0,
        problem,
    }
}

/// Parse `text` in `format`; `spec` is the network's spec string and `path`
/// names the file in errors.
pub fn parse(
    format: FabricFormat,
    spec: String,
    path: &str,
    text: &str,
) -> Result<Network, TopologyError> {
    let raw = match format {
        FabricFormat::IbNetDiscover => ibnetdiscover::parse(path, text)?,
        FabricFormat::IbSim => ibsim::parse(path, text)?,
        FabricFormat::AnyNet => anynet::parse(path, text)?,
    };
    assemble(spec, path, format, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_examples_are_found() {
        for (p, _) in BUNDLED {
            assert!(bundled(p).is_some());
            assert!(bundled(&format!("./{p}")).is_some());
        }
        assert!(bundled("assets/fabrics/none").is_none());
    }
}
