//! Arrival blocks ([`InputQueued::block_bits`]) change no result: runs
//! with blocks of every size give the same summaries, channel counts and
//! buffer contents as the run without, and after a routing fault part-way
//! through a cycle the state holds every flit, as it does without blocks.

use super::InputQueued;
use crate::rng::{Stream, stream};
use crate::routing::{Candidates, Hop, Routing, RoutingSpec};
use crate::sim::{
    MeasureConfig, RouterConfig, SimError, Simulation, SwitchModelKind, TrafficConfig,
};
use crate::topology::Network;
use crate::traffic::{Pattern, PatternSpec, Process};
use std::sync::Arc;

/// DOR, asked hop by hop (no table), that from cycle `fault_from` on
/// answers a port switch `fault_at` does not have.
struct Faulty {
    dor: Box<dyn Routing>,
    fault_at: u32,
    fault_from: u64,
}

impl Routing for Faulty {
    fn name(&self) -> String {
        "faulty-dor".into()
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        if hop.at == self.fault_at && hop.now >= self.fault_from {
            out.push(99, 0, 0);
        } else {
            self.dor.route(hop, out);
        }
    }
}

/// A run of `routing` on `topology` (uniform traffic at `load`, the
/// default router with `vcs` VCs and `packet_flits`-flit packets) whose
/// input-queued model has arrival blocks of `block` switches (0: none).
fn sim(
    topology: &str,
    block: usize,
    vcs: u8,
    packet_flits: u16,
    load: f64,
    fault: bool,
) -> Simulation {
    let net = Arc::new(Network::from_spec(topology).unwrap());
    let router = RouterConfig {
        vcs,
        packet_flits,
        ..RouterConfig::default()
    };
    let mut model = InputQueued::new(net.clone(), &router).unwrap();
    model.use_blocks(block, (router.link_latency + router.switch_delay) as u64);
    assert_eq!(model.block_bits.is_some(), block > 0, "{topology}, {block}");
    let dor = "dor"
        .parse::<RoutingSpec>()
        .unwrap()
        .build(&net, vcs)
        .unwrap();
    let routing: Box<dyn Routing> = if fault {
        Box::new(Faulty {
            dor,
            fault_at: 5,
            fault_from: 400,
        })
    } else {
        dor
    };
    let mut rng = stream(1, Stream::Pattern);
    let traffic = TrafficConfig {
        pattern: Pattern::build(&PatternSpec::Uniform, &net, &mut rng).unwrap(),
        process: Process::Bernoulli,
        load,
    };
    let measure = MeasureConfig {
        warmup: 100,
        ..MeasureConfig::default()
    };
    let kind = SwitchModelKind::INPUT_QUEUED;
    Simulation::with_model(
        kind,
        net,
        Box::new(model),
        routing,
        traffic,
        router,
        measure,
        3,
    )
    .unwrap()
}

/// What a run's state and results are, for comparing runs.
fn state(sim: &Simulation) -> (String, Vec<u32>, Vec<u64>) {
    let flits = sim.stats().channels().iter().map(|c| c.flits).collect();
    (
        format!("{:?}", sim.summary()),
        sim.channel_occupancy(),
        flits,
    )
}

#[test]
fn blocks_of_any_size_give_the_same_run() {
    // 64 switches: blocks of 1, 4 and 32 switches; wormhole 1-flit,
    // 2- and 4-flit packets, two to four VCs, below and above saturation.
    for (vcs, flits, load) in [(2, 1, 0.3), (3, 4, 0.6), (4, 2, 0.2)] {
        let mut base = sim("torus:8x8", 0, vcs, flits, load, false);
        base.run_for(1500).unwrap();
        base.check_invariants().unwrap();
        for block in [1, 4, 32] {
            let mut blocked = sim("torus:8x8", block, vcs, flits, load, false);
            for _ in 0..3 {
                blocked.run_for(500).unwrap();
                blocked.check_invariants().unwrap();
            }
            assert_eq!(
                state(&blocked),
                state(&base),
                "blocks of {block}, {vcs} VCs, {flits}-flit packets"
            );
        }
    }
}

#[test]
fn a_fault_in_an_early_block_leaves_no_arrival_unwritten() {
    let run = |block| {
        let mut sim = sim("torus:8x8", block, 2, 1, 0.3, true);
        let err = sim.run_for(1000).unwrap_err();
        assert!(matches!(err, SimError::BadCandidate { .. }), "{err}");
        sim.check_invariants().unwrap();
        (err.to_string(), sim.now(), state(&sim))
    };
    let base = run(0);
    // Switch 5 is in block 0 (blocks of 8) or block 1 (of 4): later blocks'
    // arrivals are written after the fault.
    for block in [4, 8] {
        assert_eq!(run(block), base, "blocks of {block}");
    }
}
