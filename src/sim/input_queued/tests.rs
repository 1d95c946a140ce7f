//! Arrival blocks ([`InputQueued::block_bits`]) change no result: runs
//! with blocks of every size give the same summaries, channel counts and
//! buffer contents as the run without, and after a routing fault part-way
//! through a cycle the state holds every flit, as it does without blocks.
//! The deterministic wormhole router's loop (`allocate`'s `FAST`), which
//! takes a table's one candidate as it is, gives what the general loop
//! gives, up to and at a table without an answer.

use super::InputQueued;
use crate::rng::{Stream, stream};
use crate::routing::{Candidates, Hop, PairTable, Routing, RoutingSpec, Selection};
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

/// DOR's answers from a table of every pair, but for the pair (`at`,
/// `dst`), which has none: its packets stop the run with no route there.
struct Holed {
    table: Arc<PairTable>,
}

impl Holed {
    fn new(dor: &dyn Routing, switches: u32, hole: (u32, u32)) -> Self {
        let full = dor.pair_table().expect("DOR's default rules keep a table");
        let table = PairTable::build(switches, |at, dst| {
            if (at, dst) == hole {
                None
            } else {
                full.get(at, dst)
            }
        });
        Holed {
            table: Arc::new(table),
        }
    }
}

impl Routing for Holed {
    fn name(&self) -> String {
        "holed-dor".into()
    }
    fn pair_table(&self) -> Option<Arc<PairTable>> {
        Some(self.table.clone())
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        if let Some(c) = self.table.get(hop.at, hop.pkt.dst_switch) {
            out.push(c.port, c.vc_lo, c.vc_hi);
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
    simulation(net, model, routing, router, load)
}

/// `model` stepped with `routing` under uniform Bernoulli traffic at
/// `load` (seed 3, 100 cycles of warm-up).
fn simulation(
    net: Arc<Network>,
    model: InputQueued,
    routing: Box<dyn Routing>,
    router: RouterConfig,
    load: f64,
) -> Simulation {
    let mut rng = stream(1, Stream::Pattern);
    let traffic = TrafficConfig {
        pattern: Pattern::build(&PatternSpec::named("uniform"), &net, &mut rng).unwrap(),
        process: Process::Bernoulli,
        load,
    };
    let measure = MeasureConfig {
        warmup: 100,
        ..MeasureConfig::default()
    };
    Simulation::with_model(
        SwitchModelKind::INPUT_QUEUED,
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

/// A run of DOR from a table on `torus:8x8` at 0.4 with `selection`
/// (`Fixed`: the deterministic wormhole router's loop; `FirstFree`, the
/// same choice from one candidate: the general loop), its table missing
/// the answer at switch 5 for switch 0 when `hole`.
fn tabled(selection: Selection, hole: bool) -> Simulation {
    let net = Arc::new(Network::from_spec("torus:8x8").unwrap());
    let router = RouterConfig {
        selection,
        ..RouterConfig::default()
    };
    let dor = "dor"
        .parse::<RoutingSpec>()
        .unwrap()
        .build(&net, router.vcs)
        .unwrap();
    let routing: Box<dyn Routing> = if hole {
        Box::new(Holed::new(&*dor, net.num_switches() as u32, (5, 0)))
    } else {
        dor
    };
    let model = InputQueued::new(net.clone(), &router).unwrap();
    simulation(net, model, routing, router, 0.4)
}

#[test]
fn the_fast_loop_gives_what_the_general_one_gives_from_a_table() {
    let mut fast = tabled(Selection::Fixed, false);
    let mut general = tabled(Selection::FirstFree, false);
    for _ in 0..3 {
        fast.run_for(500).unwrap();
        general.run_for(500).unwrap();
        fast.check_invariants().unwrap();
        assert_eq!(state(&fast), state(&general));
    }
    // A table without an answer: the same error, in the same cycle, with
    // the same state and no proposal left behind (`check_invariants`).
    let fail = |selection| {
        let mut sim = tabled(selection, true);
        let err = sim.run_for(2000).unwrap_err();
        assert!(matches!(err, SimError::NoRoute { .. }), "{err}");
        sim.check_invariants().unwrap();
        (err.to_string(), sim.now(), state(&sim))
    };
    let at_fault = fail(Selection::Fixed);
    assert!(at_fault.0.contains("switch 5"), "{}", at_fault.0);
    assert_eq!(at_fault, fail(Selection::FirstFree));
}
