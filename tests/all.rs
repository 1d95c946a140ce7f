//! Every integration test file but the fuzzers (`tests/fuzz.rs`) and
//! `engine_seams` (which `scripts/test.sh` also builds without debug
//! assertions), as modules of one test crate: `cargo test --test all`
//! runs them, `cargo test --test all drb::` one file's tests. One crate
//! links the app once instead of once per file. Each file is a module
//! named after it; the helpers for running the binary are [`support`].

mod support;

mod adaptive_collapse;
mod analysis;
mod campaign;
mod cli;
mod cli_load;
mod cli_routings;
mod cli_timeslice;
mod deadlock;
mod dragonfly;
mod drb;
mod drb_threshold;
mod drb_ui;
mod engine_threads;
mod fabric_import;
mod fattree_preset;
mod invariants;
mod keywords;
mod module_graph;
mod oblivious;
mod output_queued;
mod paths_figures;
mod paths_legal;
mod paths_search;
mod routing_names;
mod routing_paths;
mod scenarios;
mod throughput;
mod timeslice;
mod topologies;
mod toy_oblivious;
mod toy_panel;
mod toy_switch_model;
mod toy_topology;
mod toy_traffic;
mod trust_invariants;
mod trust_roundtrip;
mod ui;
mod ui_fattree;
mod ui_live_swaps;
mod ui_oblivious;
mod ui_presenter;
mod ui_stage;
mod ui_tours;
mod zero_load;
