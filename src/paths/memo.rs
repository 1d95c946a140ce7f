//! Route tables kept for reuse.
//!
//! A path selection does not depend on the offered load, the traffic or
//! the seed of the run that uses it, only on the spec, the network and the
//! VCs, and it is slow where the path sets are large: on `torus:8x8` under
//! UDWM with 5 VCs (148 488 candidate paths) hpcf takes about 1.2 s and
//! MaxCp about 6 s. Without a memo every load of a sweep selected again,
//! and the CLI selected twice per run (once to check every routing before
//! any runs, once to run it). [`tables`] keeps the most recent tables and
//! hands out the same ones for the same (spec, VCs, network).
//!
//! The key is the spec itself (every option), the VCs and the network's
//! whole wiring (every channel's two ends), so a `file:` topology edited
//! between two builds is selected again. At most [`KEEP`] tables, and no
//! more than [`BUDGET_BYTES`] of them beyond the newest, stay; the newest
//! first. Concurrent builds of one key (a sweep's loads on several
//! threads) wait for the first instead of selecting again. Selection is
//! deterministic, so a memoised table is the table a fresh build would
//! give: results do not change.

use super::error::PathError;
use super::spec::PathsSpec;
use super::tables::RouteTables;
use crate::topology::{Channel, Network};
use std::sync::{Arc, Mutex, OnceLock};

/// Most tables kept: the eight selection algorithms of one legal path set
/// (`--compare` checks them all before it runs each).
pub const KEEP: usize = 8;
/// Heap bytes kept beyond the newest tables (those are always kept).
pub const BUDGET_BYTES: usize = 128 << 20;

type Cell = Arc<OnceLock<Result<Arc<RouteTables>, PathError>>>;

struct Entry {
    spec: PathsSpec,
    vcs: u8,
    switches: usize,
    channels: Vec<Channel>,
    cell: Cell,
}

impl Entry {
    fn is(&self, spec: &PathsSpec, vcs: u8, net: &Network) -> bool {
        self.vcs == vcs
            && self.spec == *spec
            && self.switches == net.num_switches()
            && self.channels == net.channels()
    }
    fn bytes(&self) -> usize {
        match self.cell.get() {
            Some(Ok(t)) => t.heap_bytes(),
            _ => 0,
        }
    }
}

/// Tables kept, the newest first ([`tables`] uses one for the process).
struct Memo {
    entries: Vec<Entry>,
}

impl Memo {
    const fn new() -> Memo {
        Memo {
            entries: Vec::new(),
        }
    }

    /// The cell for (`spec`, `vcs`, `net`), moved to the front (a new,
    /// empty one when there is none); older cells beyond [`KEEP`] or the
    /// budget are dropped.
    fn cell(&mut self, spec: &PathsSpec, vcs: u8, net: &Network) -> Cell {
        let entry = match self.entries.iter().position(|e| e.is(spec, vcs, net)) {
            Some(i) => self.entries.remove(i),
            None => Entry {
                spec: spec.clone(),
                vcs,
                switches: net.num_switches(),
                channels: net.channels().to_vec(),
                cell: Cell::default(),
            },
        };
        let cell = entry.cell.clone();
        self.entries.insert(0, entry);
        // Keep the newest; then older ones while they fit.
        let mut used = 0usize;
        let mut keep = 1;
        while keep < self.entries.len().min(KEEP) {
            used += self.entries[keep].bytes();
            if used > BUDGET_BYTES {
                break;
            }
            keep += 1;
        }
        self.entries.truncate(keep);
        cell
    }
}

static MEMO: Mutex<Memo> = Mutex::new(Memo::new());

/// The routing tables `spec` selects on `net` with `vcs` VCs: the kept
/// ones when the same were built before, else built now (and kept).
pub fn tables(spec: &PathsSpec, net: &Network, vcs: u8) -> Result<Arc<RouteTables>, PathError> {
    // A poisoned lock only means a build panicked elsewhere; the list
    // itself is always whole (the build runs outside the lock).
    let cell = MEMO
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .cell(spec, vcs, net);
    cell.get_or_init(|| spec.tables(net, vcs).map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> PathsSpec {
        PathsSpec::parse_parts(&s.split(':').collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn the_same_request_gets_the_same_cell_and_a_different_one_does_not() {
        let net = Network::from_spec("irregular:8:seed=1").unwrap();
        let other = Network::from_spec("irregular:8:seed=2").unwrap();
        let mut m = Memo::new();
        let a = m.cell(&spec("updown-dfs:maxcp"), 1, &net);
        let again = m.cell(&spec("updown-dfs:maxcp"), 1, &net);
        assert!(Arc::ptr_eq(&a, &again), "a second build reuses the first");
        for (s, vcs, n) in [
            ("updown-dfs:maxcp", 2, &net),
            ("updown-dfs:hpcf", 1, &net),
            ("updown-dfs:maxcp:cap=8", 1, &net),
            ("updown-dfs:maxcp", 1, &other),
        ] {
            let c = m.cell(&spec(s), vcs, n);
            assert!(!Arc::ptr_eq(&a, &c), "{s} vcs {vcs}: built again");
        }
    }

    #[test]
    fn at_most_keep_cells_stay_the_newest_first() {
        let net = Network::from_spec("irregular:8:seed=1").unwrap();
        let mut m = Memo::new();
        let first = m.cell(&spec("updown-dfs:sa:seed=100"), 1, &net);
        for k in 1..=KEEP {
            m.cell(&spec(&format!("updown-dfs:sa:seed={}", 100 + k)), 1, &net);
        }
        assert_eq!(m.entries.len(), KEEP);
        let back = m.cell(&spec("updown-dfs:sa:seed=100"), 1, &net);
        assert!(!Arc::ptr_eq(&first, &back), "the oldest was dropped");
        // Touching an entry makes it the newest.
        let s2 = m.cell(&spec("updown-dfs:sa:seed=102"), 1, &net);
        assert!(Arc::ptr_eq(&m.entries[0].cell, &s2));
    }

    #[test]
    fn kept_tables_are_what_a_fresh_build_gives_and_errors_come_back() {
        let net = Network::from_spec("irregular:16:seed=3").unwrap();
        let s = spec("updown-dfs:maxcp");
        let kept = tables(&s, &net, 1).unwrap();
        let again = tables(&s, &net, 1).unwrap();
        let fresh = s.tables(&net, 1).unwrap();
        for p in 0..fresh.num_switches() * (fresh.num_switches() - 1) {
            assert_eq!(fresh.route_of_pair(p), kept.route_of_pair(p));
            assert_eq!(fresh.route_of_pair(p), again.route_of_pair(p));
        }
        let bad = spec("updown-dfs:maxcp:root=99");
        assert!(tables(&bad, &net, 1).is_err());
        assert!(tables(&bad, &net, 1).is_err());
    }
}
