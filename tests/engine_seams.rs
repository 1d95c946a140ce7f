//! The engine's seams, checked on networks small enough to work out by hand:
//! delivery feedback in both acknowledgement modes arrives exactly when the
//! model says, a packet's blocked cycles are the cycles it waited, a
//! routing that offers a virtual channel outside `0..V` stops the run with a
//! named error (in every build: CI also runs this file in release), and a
//! routing's table of answers is used only where it fits and changes no
//! result.

use routelab::rng::{Stream, stream};
use routelab::routing::{
    Acknowledgement, Candidate, Candidates, Feedback, Hop, PairTable, Routing, RoutingSpec, Source,
};
use routelab::scenario::Scenario;
use routelab::sim::{
    MeasureConfig, RouterConfig, SimError, Simulation, SwitchModelKind, TrafficConfig,
};
use routelab::topology::Network;
use routelab::traffic::{Pattern, PatternSpec, Process};
use std::sync::{Arc, Mutex};

/// A routing that routes like `inner` and records its feedback.
struct Recorder {
    inner: Box<dyn Routing>,
    mode: Acknowledgement,
    log: Arc<Mutex<Vec<Feedback>>>,
    /// `(cycle, packet source host)` of every packet leaving its host.
    sources: Arc<Mutex<Vec<(u64, u32)>>>,
}

impl Routing for Recorder {
    fn name(&self) -> String {
        format!("recorder({})", self.inner.name())
    }
    fn at_source(&mut self, src: Source<'_>) {
        self.sources
            .lock()
            .unwrap()
            .push((src.now, src.pkt.src_host));
        self.inner.at_source(src);
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        self.inner.route(hop, out);
    }
    fn acknowledgement(&self) -> Acknowledgement {
        self.mode
    }
    fn on_feedback(&mut self, fb: &Feedback) {
        self.log.lock().unwrap().push(*fb);
    }
}

struct Harness {
    sim: Simulation,
    log: Arc<Mutex<Vec<Feedback>>>,
}

/// `topology` with no background traffic, `vcs` VCs, the given link latency
/// and 4-flit wormhole packets; DOR (on the data VCs) wrapped in a recorder.
fn harness(topology: &str, mode: Acknowledgement, vcs: u8, link_latency: u16) -> Harness {
    let net = Arc::new(Network::from_spec(topology).unwrap());
    // Packet acknowledgements take the static routing's VCs (1 on a mesh,
    // 2 on a torus) at the top.
    let ack_class = if mode == Acknowledgement::Packet {
        RoutingSpec::minimal().min_vcs(&net)
    } else {
        0
    };
    let data_vcs = vcs - ack_class;
    let inner = "dor"
        .parse::<RoutingSpec>()
        .unwrap()
        .build(&net, data_vcs)
        .unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let routing = Recorder {
        inner,
        mode,
        log: log.clone(),
        sources: Arc::new(Mutex::new(Vec::new())),
    };
    let mut rng = stream(1, Stream::Pattern);
    let pattern = Pattern::build(&PatternSpec::named("uniform"), &net, &mut rng).unwrap();
    let sim = Simulation::new(
        net,
        SwitchModelKind::INPUT_QUEUED,
        Box::new(routing),
        TrafficConfig {
            pattern,
            process: Process::Bernoulli,
            load: 0.0,
        },
        RouterConfig {
            vcs,
            packet_flits: 4,
            buffer_flits: 8,
            link_latency,
            switch_delay: 1,
            ..RouterConfig::default()
        },
        MeasureConfig {
            warmup: 0,
            ..MeasureConfig::default()
        },
        1,
    )
    .unwrap();
    Harness { sim, log }
}

/// mesh:3 is three switches in a row, one host each. A 4-flit packet from
/// host 0 to host 2, sent at cycle 0, crosses 3 switches: its tail reaches
/// host 2 at 3·(1 + 1) + 1 + 3 = 10 with one-cycle links.
/// - Delay mode: the source hears at 10 + H·(switch_delay + link_latency)
///   + 1 with H = 3 switches on the way back: 17.
/// - Packet mode: a 1-flit acknowledgement leaves host 2 at cycle 10 and
///   crosses the same 3 switches back: 10 + 3·2 + 1 = 17, the same.
#[test]
fn feedback_arrives_when_the_acknowledgement_model_says() {
    for (mode, vcs, link, delivered, heard) in [
        (Acknowledgement::Delay, 1, 1, 10, 17),
        (Acknowledgement::Packet, 2, 1, 10, 17),
        // Two-cycle links: data 3·3 + 2 + 3 = 14; delay 14 + 3·3 + 1 = 24;
        // a real acknowledgement 14 + 3·3 + 2 = 25 (the modes agree only on
        // one-cycle links, as documented).
        (Acknowledgement::Delay, 1, 2, 14, 24),
        (Acknowledgement::Packet, 2, 2, 14, 25),
    ] {
        let mut h = harness("mesh:3", mode, vcs, link);
        h.sim.send(0, 2).unwrap();
        // Not a cycle early...
        h.sim.run_for(heard).unwrap();
        assert!(
            h.log.lock().unwrap().is_empty(),
            "{mode:?}: heard before cycle {heard}"
        );
        // ...and in that very cycle.
        h.sim.step().unwrap();
        let log = h.log.lock().unwrap();
        assert_eq!(log.len(), 1, "{mode:?}");
        let fb = log[0];
        assert_eq!(fb.delivered_cycle, delivered, "{mode:?} link {link}");
        assert_eq!(fb.heard_cycle, heard, "{mode:?} link {link}");
        assert_eq!(fb.pkt.src_host, 0);
        assert_eq!(fb.pkt.dst_host, 2);
        assert_eq!(fb.switches, 3);
        assert_eq!(fb.blocked_cycles, 0);
        assert_eq!(fb.latency(), delivered);
        drop(log);
        // The acknowledgement packet is not data: one data packet delivered.
        assert_eq!(h.sim.stats().delivered_packets(), 1, "{mode:?}");
        let life = h.sim.stats().lifetime();
        let acks = u64::from(mode == Acknowledgement::Packet);
        assert_eq!(life.acks_delivered, acks);
        assert_eq!(h.sim.in_flight_packets(), 0);
        h.sim.check_invariants().unwrap();
    }
}

/// Two 4-flit packets to host 2 on mesh:3 with one VC, both sent at cycle 0:
/// B (from host 1) reaches switch 1 at cycle 2 and takes the only VC towards
/// switch 2 until its tail leaves switch 1 at cycle 5. A (from host 0)
/// reaches switch 1 at cycle 4, is refused the VC at cycles 4 and 5 (the
/// tail frees it after allocation in cycle 5) and leaves at cycle 6: 2
/// blocked cycles, tail at host 2 at 10 + 2 = 12. B is never blocked.
#[test]
fn blocked_cycles_are_the_cycles_a_head_waited() {
    let mut h = harness("mesh:3", Acknowledgement::Delay, 1, 1);
    h.sim.send(0, 2).unwrap();
    h.sim.send(1, 2).unwrap();
    h.sim.run_for(40).unwrap();
    let log = h.log.lock().unwrap();
    assert_eq!(log.len(), 2);
    let a = log.iter().find(|f| f.pkt.src_host == 0).unwrap();
    let b = log.iter().find(|f| f.pkt.src_host == 1).unwrap();
    assert_eq!((b.blocked_cycles, b.delivered_cycle), (0, 8));
    assert_eq!((a.blocked_cycles, a.delivered_cycle), (2, 12));
    // The same waits, seen per channel: heads waited 2 cycles in all.
    let waits: u64 = h.sim.stats().channels().iter().map(|c| c.wait_sum).sum();
    assert_eq!(waits, 2);
}

/// Over a loaded run drained to empty, the packets' blocked cycles add up to
/// the per-channel queueing-delay counters, in both acknowledgement modes.
#[test]
fn blocked_cycles_sum_to_the_channel_queueing_delays() {
    for (mode, vcs) in [(Acknowledgement::Delay, 2), (Acknowledgement::Packet, 4)] {
        let mut h = harness("torus:4x4", mode, vcs, 1);
        h.sim.set_load(0.5);
        h.sim.run_for(3000).unwrap();
        h.sim.set_load(0.0);
        let drained = h
            .sim
            .run_until(
                |s| {
                    s.in_flight_packets() == 0
                        && s.queued_packets() == 0
                        && s.endpoints().outstanding_acks() == 0
                },
                100_000,
            )
            .unwrap();
        assert!(drained, "{mode:?}");
        h.sim.check_invariants().unwrap();
        let log = h.log.lock().unwrap();
        let blocked: u64 = log.iter().map(|f| f.blocked_cycles).sum();
        let st = h.sim.stats();
        assert_eq!(log.len() as u64, st.delivered_packets(), "{mode:?}");
        // Channel counters include the acknowledgements' own waits.
        let data_waits: u64 = st.channels().iter().map(|c| c.wait_sum).sum();
        if mode == Acknowledgement::Delay {
            assert_eq!(blocked, data_waits);
            assert!(blocked > 1000, "a loaded torus blocks heads: {blocked}");
        } else {
            assert!(blocked <= data_waits);
        }
        // Every feedback arrives after its delivery.
        assert!(log.iter().all(|f| f.heard_cycle > f.delivered_cycle));
    }
}

/// A simulation of `routing` on `net` under uniform Bernoulli traffic.
fn uniform_sim(
    net: Arc<Network>,
    model: SwitchModelKind,
    routing: Box<dyn Routing>,
    load: f64,
    router: RouterConfig,
    measure: MeasureConfig,
    seed: u64,
) -> Simulation {
    let mut rng = stream(1, Stream::Pattern);
    let pattern = Pattern::build(&PatternSpec::named("uniform"), &net, &mut rng).unwrap();
    let traffic = TrafficConfig {
        pattern,
        process: Process::Bernoulli,
        load,
    };
    Simulation::new(net, model, routing, traffic, router, measure, seed).unwrap()
}

/// A routing that offers a VC outside `0..V` stops the run with a named
/// error, never silent state (checked in debug and in release builds).
struct BadVc;
impl Routing for BadVc {
    fn name(&self) -> String {
        "bad-vc".into()
    }
    fn route(&mut self, _hop: Hop<'_>, out: &mut Candidates) {
        out.push(0, 0, 2);
    }
}

#[test]
fn a_vc_outside_the_range_is_a_named_error() {
    let net = Arc::new(Network::from_spec("torus:4").unwrap());
    let mut rng = stream(1, Stream::Pattern);
    let pattern = Pattern::build(&PatternSpec::named("tornado"), &net, &mut rng).unwrap();
    let mut sim = Simulation::new(
        net,
        SwitchModelKind::INPUT_QUEUED,
        Box::new(BadVc),
        TrafficConfig {
            pattern,
            process: Process::Bernoulli,
            load: 0.5,
        },
        RouterConfig {
            vcs: 2,
            ..RouterConfig::default()
        },
        MeasureConfig::default(),
        1,
    )
    .unwrap();
    let err = sim.run_for(1000).unwrap_err();
    match &err {
        SimError::BadCandidate {
            routing,
            vc_hi,
            vcs,
            ..
        } => {
            assert_eq!(routing, "bad-vc");
            assert_eq!((*vc_hi, *vcs), (2, 2));
        }
        other => panic!("expected a bad candidate, got {other}"),
    }
    let text = err.to_string();
    assert!(
        text.contains("bad-vc") && text.contains("VCs 0..=2") && text.contains("0..2"),
        "{text}"
    );
    // The run stays stopped with the same error.
    assert_eq!(sim.step().unwrap_err(), err);
}

/// A port the switch does not have is refused the same way.
struct BadPort;
impl Routing for BadPort {
    fn name(&self) -> String {
        "bad-port".into()
    }
    fn route(&mut self, _hop: Hop<'_>, out: &mut Candidates) {
        out.push(40, 0, 0);
    }
}

#[test]
fn a_port_that_does_not_exist_is_a_named_error() {
    let net = Arc::new(Network::from_spec("torus:4").unwrap());
    let (router, measure) = (RouterConfig::default(), MeasureConfig::default());
    let model = SwitchModelKind::INPUT_QUEUED;
    let mut sim = uniform_sim(net, model, Box::new(BadPort), 0.5, router, measure, 1);
    match sim.run_for(1000).unwrap_err() {
        SimError::BadCandidate { port, ports, .. } => assert_eq!((port, ports), (40, 3)),
        other => panic!("expected a bad candidate, got {other}"),
    }
}

/// The switch model is a scenario field, and the views of it are
/// model-neutral numbers.
#[test]
fn switch_model_is_a_scenario_field_with_neutral_views() {
    let s = Scenario::from_json(r#"{"switch_model": "input-queued", "load": 0.6}"#).unwrap();
    let mut sim = s.build().unwrap();
    assert_eq!(sim.switch_model(), "input-queued");
    sim.run_for(2000).unwrap();
    let occ = sim.switch_occupancy();
    let cap = sim.switch_capacity();
    assert_eq!(occ.len(), 64);
    assert!(occ.iter().zip(&cap).all(|(o, c)| o <= c));
    assert_eq!(
        occ.iter().map(|&x| x as u64).sum::<u64>(),
        sim.channel_occupancy()
            .iter()
            .map(|&x| x as u64)
            .sum::<u64>()
    );
    let delay = sim.switch_queueing_delay();
    assert!(delay.iter().any(|&d| d > 0.0));
    let e = Scenario::from_json(r#"{"switch_model": "crossbar"}"#).unwrap_err();
    assert!(
        e.to_string().contains("switch_model") && e.to_string().contains("input-queued"),
        "{e}"
    );
}

/// A routing as `inner` routes, hiding its table (`pair_table` is `None`
/// by default), so that the engine calls `route` at every hop.
struct NoTable(Box<dyn Routing>);
impl Routing for NoTable {
    fn name(&self) -> String {
        self.0.name()
    }
    fn at_source(&mut self, src: Source<'_>) {
        self.0.at_source(src);
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        self.0.route(hop, out);
    }
}

/// DOR on `net` (2 VCs), its table hidden from the engine if `hide_table`.
fn dor_routing(net: &Network, hide_table: bool) -> Box<dyn Routing> {
    let dor = "dor".parse::<RoutingSpec>().unwrap().build(net, 2).unwrap();
    assert!(dor.pair_table().is_some(), "DOR keeps a table");
    if hide_table {
        Box::new(NoTable(dor))
    } else {
        dor
    }
}

fn dor_sim(topology: &str, model: SwitchModelKind, hide_table: bool, load: f64) -> Simulation {
    dor_sim_flits(topology, model, hide_table, load, 2)
}

fn dor_sim_flits(
    topology: &str,
    model: SwitchModelKind,
    hide_table: bool,
    load: f64,
    packet_flits: u16,
) -> Simulation {
    let net = Arc::new(Network::from_spec(topology).unwrap());
    let routing = dor_routing(&net, hide_table);
    let router = RouterConfig {
        vcs: 2,
        packet_flits,
        ..RouterConfig::default()
    };
    let measure = MeasureConfig {
        warmup: 200,
        ..MeasureConfig::default()
    };
    uniform_sim(net, model, routing, load, router, measure, 3)
}

/// DOR's table (`TabulatedDor` on tori and meshes, `Ecube` on hypercubes,
/// looked up by the engine) gives the run it gives when the engine asks
/// `route` at every hop: the same digest, field for field, with both
/// switch models, below and past saturation, with both ways of keeping
/// the table, and with one-flit packets as with two. With one-flit
/// packets and a table the input-queued model looks a head's answer up
/// one switch ahead and its hosts send through their own loop
/// (`inject_one_flit`), and the endpoint layer copies DOR's fixed source
/// state instead of calling `at_source`; with the table hidden it does
/// none of these.
#[test]
fn a_routing_table_changes_no_result() {
    for model in [
        SwitchModelKind::INPUT_QUEUED,
        SwitchModelKind::OUTPUT_QUEUED,
    ] {
        // Above 128 switches the table is kept by first difference.
        for (topology, load) in [
            ("torus:4x4", 0.3),
            ("torus:4x4", 0.9),
            ("mesh:5x3", 0.4),
            ("torus:12x12", 0.3),
            ("mesh:13x11", 0.4),
            // E-cube's table.
            ("hypercube:5", 0.5),
        ] {
            for flits in [1, 2] {
                let digests = [false, true].map(|hide| {
                    let mut sim = dor_sim_flits(topology, model, hide, load, flits);
                    sim.run_for(2000).unwrap();
                    assert!(sim.summary().delivered_packets > 0);
                    sim.digest()
                });
                assert_eq!(
                    digests[0].first_difference(&digests[1]),
                    None,
                    "{topology} at {load} ({model:?}, {flits}-flit packets)"
                );
            }
        }
    }
}

/// Live swaps that mix epochs answering from their tables with epochs
/// whose routing is asked at every hop change no result either: the
/// input-queued model routes without calling a routing while every epoch
/// has a table (`Endpoints::only_tables`), and takes its general loop once
/// one has not; the digests match the run in which every epoch is asked.
#[test]
fn swaps_between_tabled_and_asked_epochs_change_no_result() {
    for (topology, load) in [("torus:4x4", 0.3), ("torus:12x12", 0.5), ("mesh:5x3", 0.4)] {
        let run = |hide: [bool; 3]| {
            let mut sim = dor_sim(topology, SwitchModelKind::INPUT_QUEUED, hide[0], load);
            let net = Arc::new(Network::from_spec(topology).unwrap());
            for &h in &hide[1..] {
                sim.run_for(500).unwrap();
                sim.set_routing(dor_routing(&net, h)).unwrap();
            }
            sim.run_for(1000).unwrap();
            assert!(sim.summary().delivered_packets > 0);
            sim.digest()
        };
        let asked = run([true, true, true]);
        for hide in [
            [false, false, false],
            [false, true, false],
            [true, false, true],
        ] {
            assert_eq!(
                run(hide).first_difference(&asked),
                None,
                "{topology} at {load}, tables hidden {hide:?}"
            );
        }
    }
}

/// A table the engine would refuse (a port the switch does not have) is
/// not used: `route` is asked, and its answer stops the run with the
/// named error, as without a table. A table that fits is used: there
/// `route` is never asked.
struct Tabled {
    table: Arc<PairTable>,
    fits: bool,
}
impl Routing for Tabled {
    fn name(&self) -> String {
        "tabled".into()
    }
    fn pair_table(&self) -> Option<Arc<PairTable>> {
        Some(self.table.clone())
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        assert!(!self.fits, "route asked though the table fits");
        let c = self.table.get(hop.at, hop.pkt.dst_switch).unwrap();
        out.push(c.port, c.vc_lo, c.vc_hi);
    }
}

/// `mesh:4`: four switches in a row, port 0 going +, port 1 going - and
/// port 2 to the host. The table's answers send a packet towards its
/// destination on VCs 0-1, or, if not `fits`, to port 40, which no switch
/// has.
fn mesh4_table(fits: bool) -> Arc<PairTable> {
    Arc::new(PairTable::build(4, |a, b| {
        (a != b).then_some(Candidate {
            port: match (fits, b > a) {
                (false, _) => 40,
                (true, true) => 0,
                (true, false) => 1,
            },
            vc_lo: 0,
            vc_hi: 1,
        })
    }))
}

/// A run on `mesh:4` (2 VCs, no warm-up) with `routing`.
fn mesh4_sim(routing: Box<dyn Routing>, load: f64) -> Simulation {
    let net = Arc::new(Network::from_spec("mesh:4").unwrap());
    let router = RouterConfig {
        vcs: 2,
        ..RouterConfig::default()
    };
    let measure = MeasureConfig {
        warmup: 0,
        ..MeasureConfig::default()
    };
    let model = SwitchModelKind::INPUT_QUEUED;
    uniform_sim(net, model, routing, load, router, measure, 1)
}

#[test]
fn a_routing_table_is_used_only_where_it_fits() {
    let run = |fits: bool| {
        let routing = Box::new(Tabled {
            table: mesh4_table(fits),
            fits,
        });
        let mut sim = mesh4_sim(routing, 0.2);
        sim.run_for(1000).map(|_| sim.summary().delivered_packets)
    };
    assert!(run(true).unwrap() > 100);
    match run(false).unwrap_err() {
        SimError::BadCandidate { port, ports, .. } => assert_eq!((port, ports), (40, 3)),
        other => panic!("expected a bad candidate, got {other}"),
    }
}

/// Swapping routings live checks each new epoch's table (and, without a
/// change of the data VCs, only the new one): a routing swapped in twice
/// after the first is looked up in its table at every hop, as the first
/// one is (`Tabled` fails the test if `route` is asked), and packets of
/// every epoch are delivered.
#[test]
fn swapped_in_routings_are_looked_up_in_their_tables() {
    let table = mesh4_table(true);
    let tabled = || {
        Box::new(Tabled {
            table: table.clone(),
            fits: true,
        })
    };
    let mut sim = mesh4_sim(tabled(), 0.3);
    let mut delivered = 0;
    for _ in 0..3 {
        sim.run_for(300).unwrap();
        let now = sim.summary().delivered_packets;
        assert!(now > delivered + 20, "{now} after {delivered}");
        delivered = now;
        sim.set_routing(tabled()).unwrap();
    }
    sim.run_for(300).unwrap();
    assert!(sim.summary().delivered_packets > delivered + 20);
}
