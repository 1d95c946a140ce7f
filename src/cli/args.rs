//! The scenario's command-line arguments (clap derive), shared by `sim`,
//! `sweep` and `saturation`, and the parsers of numeric flags.

use super::CliError;
use crate::routing::RoutingSpec;
use crate::routing::Selection;
use crate::scenario::Scenario;
use crate::sim::{PortPriority, SwitchModelKind, Switching};
use crate::topology::Network;
use crate::traffic::Process;
use clap::Args;
use std::path::PathBuf;

fn parse_switching(s: &str) -> Result<Switching, String> {
    Switching::parse(s).ok_or_else(|| format!("accepted: {}", Switching::ACCEPTED))
}
fn parse_selection(s: &str) -> Result<Selection, String> {
    Selection::parse(s).ok_or_else(|| format!("accepted: {}", Selection::ACCEPTED))
}
fn parse_port_priority(s: &str) -> Result<PortPriority, String> {
    PortPriority::parse(s).ok_or_else(|| format!("accepted: {}", PortPriority::ACCEPTED))
}
fn parse_switch_model(s: &str) -> Result<SwitchModelKind, String> {
    SwitchModelKind::parse(s).ok_or_else(|| format!("accepted: {}", SwitchModelKind::accepted()))
}
fn switch_model_help() -> String {
    SwitchModelKind::help()
}
fn parse_process(s: &str) -> Result<Process, String> {
    Process::parse(s).ok_or_else(|| format!("accepted: {}", Process::ACCEPTED))
}

/// A whole number in `lo..=hi` for a numeric flag: a negative or huge
/// value reaches this check (the flags allow negative numbers), and the
/// message names the accepted range (clap adds the flag's name).
pub(crate) fn parse_whole(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let v: i128 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number; accepted {lo}..={hi}"))?;
    if v < lo as i128 || v > hi as i128 {
        return Err(format!("{v} is out of range; accepted {lo}..={hi}"));
    }
    Ok(v as u64)
}
/// Any number (NaN and infinities too; routelab's own checks say which
/// are accepted, naming the field).
pub(crate) fn parse_number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))
}
fn parse_vcs(s: &str) -> Result<u8, String> {
    let r = crate::limits::VCS;
    parse_whole(s, *r.start() as u64, *r.end() as u64).map(|v| v as u8)
}
fn parse_buffer_flits(s: &str) -> Result<u16, String> {
    let r = crate::limits::BUFFER_FLITS;
    parse_whole(s, *r.start() as u64, *r.end() as u64).map(|v| v as u16)
}
fn parse_packet_flits(s: &str) -> Result<u16, String> {
    let r = crate::limits::PACKET_FLITS;
    parse_whole(s, *r.start() as u64, *r.end() as u64).map(|v| v as u16)
}
fn parse_delay(s: &str) -> Result<u16, String> {
    let r = crate::limits::DELAY_CYCLES;
    parse_whole(s, *r.start() as u64, *r.end() as u64).map(|v| v as u16)
}
fn parse_cycles(s: &str) -> Result<u64, String> {
    parse_whole(s, 1, crate::limits::MAX_CYCLES)
}
fn parse_admit_slices(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, 1_000_000)
}
fn parse_deadline_slices(s: &str) -> Result<u64, String> {
    parse_whole(s, 1, 1_000_000)
}
fn parse_warmup(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, crate::limits::MAX_CYCLES)
}
/// A seed: any 64-bit whole number.
pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, u64::MAX)
}

/// A scenario from `--scenario FILE` and/or flags (flags win).
///
/// The field comments are the `--help` text, shown verbatim, so their
/// `[...]` (optional parts of a spec) are not rustdoc links.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args, Default, Clone)]
pub struct ScenarioArgs {
    /// Scenario JSON file; the flags below override its fields.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    // The help lists every registered topology kind with its form
    // (`topology::registry::help`), so a kind added to the registry is in it.
    #[arg(long, help = crate::topology::registry::help())]
    pub topology: Option<String>,
    // The help lists every registered routing with its options
    // (`registry::help`), so a routing added to the registry is in it.
    #[arg(long, action = clap::ArgAction::Append, help = crate::routing::registry::help())]
    pub routing: Vec<String>,
    // Every switch model, from the registry (`sim::MODELS`).
    #[arg(long, value_parser = parse_switch_model, help = switch_model_help())]
    pub switch_model: Option<SwitchModelKind>,
    // Every pattern, from the registry (`traffic::registry::help`).
    #[arg(long, help = crate::traffic::registry::help())]
    pub traffic: Option<String>,
    /// Inter-arrival process: bernoulli, exponential, on_off.
    #[arg(long, value_parser = parse_process)]
    pub process: Option<Process>,
    /// Offered load in flits per host per cycle (0..=1); on the time-slice
    /// model, requests per server per slice.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_number)]
    pub load: Option<f64>,
    /// Time-slice model: R, slices a request may wait for room at its access
    /// switch before it fails (0..=1000000, default 0).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_admit_slices)]
    pub admit_slices: Option<u64>,
    /// Time-slice model: D, slices within which a request must be delivered
    /// (1..=1000000, default 20).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_deadline_slices)]
    pub deadline_slices: Option<u64>,
    /// Flits per packet (1..=1024).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_packet_flits)]
    pub packet_flits: Option<u16>,
    /// Switching: saf, vct, wormhole.
    #[arg(long, value_parser = parse_switching)]
    pub switching: Option<Switching>,
    /// Virtual channels per port (1..=16).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_vcs)]
    pub vcs: Option<u8>,
    /// Buffer depth per virtual channel, in flits (1..=1024).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_buffer_flits)]
    pub buffer_flits: Option<u16>,
    /// Link latency in cycles (1..=64).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_delay)]
    pub link_latency: Option<u16>,
    /// Switch delay in cycles (1..=64).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_delay)]
    pub switch_delay: Option<u16>,
    /// Candidate selection: fixed, first-free, adaptive.
    #[arg(long, value_parser = parse_selection)]
    pub selection: Option<Selection>,
    /// Input port served first in VC allocation each cycle: rotating, random,
    /// oldest (age-based: the port with the oldest packet, which also wins
    /// switch allocation).
    #[arg(long, value_parser = parse_port_priority)]
    pub port_priority: Option<PortPriority>,
    /// Reallocate a virtual channel only into an empty buffer (BookSim's
    /// wait_for_tail_credit); adaptive routing needs it with buffers deeper
    /// than one flit.
    #[arg(long)]
    pub wait_for_tail_credit: bool,
    /// Cycles measured after the warm-up (1..=10^12).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_cycles)]
    pub cycles: Option<u64>,
    /// Warm-up cycles (0..=10^12).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_warmup)]
    pub warmup: Option<u64>,
    /// Random seed.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Also measure per-pair latency uniformity, out-of-order deliveries and
    /// the DRB paper's metrics (waiting time, accepted/applied, latency
    /// surface); on by itself when several routings run side by side.
    #[arg(long)]
    pub pair_stats: bool,
}

impl ScenarioArgs {
    /// The scenario these arguments describe (file first, then flags).
    pub fn scenario(&self) -> Result<Scenario, CliError> {
        let mut s = match &self.scenario {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    CliError::Input(format!("cannot read scenario `{}`: {e}", path.display()))
                })?;
                let s = Scenario::from_json(&text).map_err(|e| {
                    CliError::Input(format!(
                        "scenario `{}`: {}",
                        path.display(),
                        e.problems.join("; ")
                    ))
                })?;
                self.file_fields(path, &text, &s)?;
                s
            }
            None => Scenario::default(),
        };
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = &self.$f { s.$f = v.clone(); } )* };
        }
        if let Some(r) = self.routing.first() {
            s.routing = r.clone();
        }
        set!(
            topology,
            switch_model,
            traffic,
            process,
            load,
            admit_slices,
            deadline_slices,
            packet_flits,
            switching,
            vcs,
            buffer_flits,
            link_latency,
            switch_delay,
            selection,
            port_priority,
            cycles,
            warmup,
            seed
        );
        if self.pair_stats {
            s.pair_stats = true;
        }
        if self.wait_for_tail_credit {
            s.wait_for_tail_credit = true;
        }
        let problems = s.problems();
        if !problems.is_empty() {
            return Err(CliError::Input(problems.join("; ")));
        }
        for r in self.routing.iter().skip(1) {
            if let Err(e) = r.parse::<RoutingSpec>() {
                return Err(CliError::Input(e.to_string()));
            }
        }
        Ok(s)
    }

    /// A scenario file names its network: without `topology` (and no
    /// `--topology`) it is refused, where before it ran silently on the
    /// default torus. The other fields have documented defaults; the ones
    /// a file leaves out of what a run means (load, routing, traffic) are
    /// named on stderr with the values used.
    fn file_fields(
        &self,
        path: &std::path::Path,
        text: &str,
        s: &Scenario,
    ) -> Result<(), CliError> {
        let given = |k: &str| {
            serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.as_object().map(|m| m.contains_key(k)))
                .unwrap_or(false)
        };
        if !given("topology") && self.topology.is_none() {
            return Err(CliError::Input(format!(
                "scenario `{}` has no `topology`: a scenario file names its network, e.g. \
                 \"topology\": \"torus:8x8\" (or give --topology); accepted: {}",
                path.display(),
                crate::topology::accepted()
            )));
        }
        let mut defaults = Vec::new();
        if !given("load") && self.load.is_none() {
            defaults.push(format!("load {}", s.load));
        }
        if !given("routing") && self.routing.is_empty() {
            defaults.push(format!("routing {}", s.routing));
        }
        if !given("traffic") && self.traffic.is_none() {
            defaults.push(format!("traffic {}", s.traffic));
        }
        if !defaults.is_empty() {
            eprintln!(
                "routelab: scenario `{}` leaves these to their defaults: {}",
                path.display(),
                defaults.join(", ")
            );
        }
        Ok(())
    }

    /// The scenarios to run: one per `--routing` (the scenario's own routing
    /// when none is given), or with `compare`, every routing of the first
    /// one's family that applies to the topology. Every one is checked
    /// against the network before any runs, and what the check built (the
    /// network, the parsed routing, the pattern and the routing's tables)
    /// is kept for the run (`Planned`).
    pub fn scenarios(&self, compare: bool) -> Result<Vec<Planned>, CliError> {
        let base = self.scenario()?;
        super::progress::phase(format!(
            "the network and the routing ({}, {})",
            base.topology, base.routing
        ));
        let mut routings: Vec<String> = if self.routing.is_empty() {
            vec![base.routing.clone()]
        } else {
            self.routing.clone()
        };
        let mut first = None;
        if compare {
            let built = base.prepare()?;
            let members = family(&built.routing, &built.network);
            if members.first() == Some(&base.routing) {
                first = Some(built);
            }
            routings = members;
        }
        let side_by_side = routings.len() > 1;
        let mut out = Vec::with_capacity(routings.len());
        for r in routings {
            let scenario = Scenario {
                routing: r,
                pair_stats: base.pair_stats || side_by_side,
                ..base.clone()
            };
            super::progress::phase(format!(
                "the network and the routing ({}, {})",
                scenario.topology, scenario.routing
            ));
            // pair_stats changes the run, not what `prepare` builds.
            let built = match first.take() {
                Some(b) if scenario.routing == base.routing => b,
                _ => scenario.prepare()?,
            };
            out.push(Planned { scenario, built });
        }
        Ok(out)
    }
}

/// A scenario checked and built for its run: [`Scenario::prepare`]'s
/// result is kept, so that a run parses its specs and builds its network
/// and routing once.
pub struct Planned {
    pub scenario: Scenario,
    pub built: crate::scenario::Built,
}

impl Planned {
    /// The simulation, from what the check built.
    pub fn simulation(self) -> Result<crate::sim::Simulation, CliError> {
        Ok(self.scenario.simulate(self.built)?)
    }
}

/// `--compare`'s set for `spec` on `net`: its family's members.
fn family(spec: &RoutingSpec, net: &Network) -> Vec<String> {
    let members = spec.family_members(net);
    if members.is_empty() {
        vec![spec.to_string()]
    } else {
        members
    }
}
