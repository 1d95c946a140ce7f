//! Static path selection on irregular networks: build the set of shortest
//! legal paths a deadlock-free routing allows, pick one path per switch pair
//! with one of the papers' algorithms, look at how the chosen paths pile up
//! on the channels, and turn the choice into routing tables.
//!
//! The pipeline is the one of Villalobos et al. §2 (Figure 1): *computing
//! routing paths* ([`PathSet`]), *path selection* ([`run`], [`Annealer`],
//! [`Genetic`]), *building routing tables* ([`RouteTables`]).
//!
//! - Legal paths ([`legal`]): up*/down* on a BFS tree (Autonet) or on a DFS
//!   tree (Sancho-Robles-Duato, used by Villalobos et al. §2), and UDWM
//!   (Koibuchi et al. §4.2) with V virtual channels. The BFS link directions
//!   ([`UpDownTables`]) are shared with the `updown` routing.
//! - Path sets ([`PathSet`]): every shortest legal path of every ordered
//!   switch pair, counted exactly, kept up to a cap per pair.
//! - Selection ([`Algorithm`]): random, low port first, MaxCp (Sancho's
//!   traffic balancing), high physical channel first, low virtual channel
//!   first, low physical channel first (Koibuchi et al. §2-3), and the two
//!   metaheuristics of Villalobos et al. §3-4 (steady-state GA, simulated
//!   annealing) with a selectable [`Objective`].
//! - Crossing paths ([`Load`], [`CrossingStats`]): the number of chosen paths
//!   crossing each physical switch-to-switch channel; Koibuchi et al. Tables
//!   2-4 report its standard deviation.
//!
//! Everything is deterministic for a given seed (streams from [`crate::rng`]);
//! no hash-map iteration is involved anywhere.
//!
//! Files, leaves first (no file imports one that imports it back):
//! `error` and `search` (the shared vocabulary) import no sibling;
//! `updown_tables` → `legal` → `pathset` → `load`, `simple`, `balance`,
//! `tables`; `anneal` and `genetic` use those; `select` dispatches to all of
//! them; `spec` sits on top, and `memo` (tables kept for reuse) above it.
//! This file only declares and re-exports.

mod anneal;
mod balance;
mod error;
mod genetic;
pub mod legal;
mod load;
pub mod memo;
mod pathset;
mod search;
mod select;
mod simple;
mod spec;
mod tables;
mod updown_tables;

pub use anneal::Annealer;
pub use balance::{hpcf, lpcf, lvcf, maxcp};
pub use error::PathError;
pub use genetic::Genetic;
pub use legal::{LegalKind, Legality};
pub use load::{CrossingStats, Load};
pub use pathset::{DEFAULT_CAP, Hop, PathSet, pair_count, pair_index, pair_of};
pub use search::{Algorithm, Choice, Init, Objective, Search, SearchParams};
pub use select::run;
pub use simple::{lowport, random};
pub use spec::PathsSpec;
pub use tables::{ForwardingEntry, RouteTables, TablesFile};
pub use updown_tables::UpDownTables;
