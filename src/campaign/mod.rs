//! Campaigns: a paper's whole experiment as one file.
//!
//! A campaign file ([`mod@file`]) names a base scenario and axes; their
//! product is the campaign's points, each with a stable id (a hash of its
//! canonical scenario). [`run`] computes the points not yet in an output
//! directory on every core, one result file per point, written whole or
//! not at all, in a deterministic share per task of a Slurm job array
//! ([`slurm`]); [`merge`] pools the seeds into one table with confidence
//! intervals and each curve's saturation throughput; [`plot`] draws the
//! latency and throughput figures. The CLI (`routelab campaign`) is
//! `src/cli/campaign.rs`. Nothing here imports egui.

pub mod file;
pub mod merge;
pub mod plot;
pub mod run;
pub mod slurm;

pub use file::{Campaign, CampaignError, Point, point_id};
