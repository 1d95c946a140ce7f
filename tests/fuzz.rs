//! The fuzz targets (`tests/fuzz_*.rs`), as modules of one test crate:
//! `cargo test --test fuzz` runs their short pass (what CI runs),
//! `scripts/fuzz.sh` each target for minutes. They share
//! [`fuzz_support`], whose counting allocator is the whole process's, so a
//! target's peak heap is measured alone (`scripts/fuzz.sh` runs one test at
//! a time).

mod fuzz_support;

mod fuzz_campaign;
mod fuzz_cli;
mod fuzz_edge_list;
mod fuzz_fabric;
mod fuzz_scenario;
mod fuzz_share;
mod fuzz_specs;
