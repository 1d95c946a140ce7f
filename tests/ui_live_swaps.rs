//! The stage issue's second pass: live curves that survive every swap.
//!
//! A swap's label used to be a plot item at the top of the plot's bounds,
//! so every frame raised the top by the plot's margin: after a few hundred
//! frames the axes ran to 500 000 cycles and 8 000 flits/host/cycle, and
//! the curves lay flat on zero. These tests swap at every speed the app
//! offers, on a window boundary and off one, on a torus, a DRB preset and
//! the fat tree under the time-slice model, play on for tens of frames, and
//! check what the plots draw (the rows of `live_series`, which File →
//! Export curves as CSV and `--curves-csv` write) against what is
//! physically possible, and each plot's y range against the data it draws.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use routelab::app::live_series::{self, CurveRow};
use routelab::app::playback::{PlaybackCommand, Speed};
use routelab::app::{AppCommand, RoutelabApp, Settings};

fn harness() -> Harness<'static, RoutelabApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run_steps(2);
    h
}

fn load_preset(h: &mut Harness<'_, RoutelabApp>, source: &str) {
    let i = h
        .state()
        .editor
        .presets
        .iter()
        .position(|p| p.source == source)
        .unwrap_or_else(|| panic!("no preset {source}"));
    h.state_mut().push(AppCommand::LoadPreset(i));
    h.run_steps(2);
}

fn playback(h: &mut Harness<'_, RoutelabApp>, c: PlaybackCommand) {
    h.state_mut().push(AppCommand::Playback(c));
}

/// The rows the plots draw, as the CSV export has them.
fn rows(h: &Harness<'_, RoutelabApp>) -> (Vec<CurveRow>, String) {
    let app = h.state();
    let mut runs = vec![("A", &app.session.sim)];
    if let Some(b) = &app.session.compare {
        runs.push(("B", b));
    }
    (live_series::rows(&runs), live_series::csv(&runs))
}

/// Every plotted point is a measurement a network can give:
/// - a full window, or one marked partial (cut by the swap);
/// - accepted no more than what was offered in the window plus what was
///   already waiting or in flight when it began (flits are conserved), and
///   on the cycle-level models at most one flit per host per cycle (a host
///   ejects one flit a cycle);
/// - over the windows since the swap, accepted no more than the offered
///   load plus four standard deviations of the packets offered in them and
///   the backlog the swap found;
/// - latency never below the zero-load latency of a packet that crosses
///   one switch (one slice on the time-slice model), and a success rate
///   between 0 and 1.
fn check_physical(h: &Harness<'_, RoutelabApp>, case: &str) {
    let (rows, csv) = rows(h);
    let sim = &h.state().session.sim;
    let full = sim.measure().window_cycles;
    let hosts = sim.network().num_hosts() as f64;
    let load = sim.load();
    let slices = sim.deadlines().is_some();
    let packet = if slices {
        1.0
    } else {
        f64::from(sim.router().packet_flits)
    };
    let floor = if slices {
        1.0
    } else {
        sim.timing().zero_load(1) as f64
    };
    let swap = sim.swaps()[1].0;
    assert!(!rows.is_empty(), "{case}: nothing plotted");
    let mut backlog = 0.0;
    let (mut since, mut since_cycles, mut at_swap) = (0.0, 0u64, None);
    for r in &rows {
        let cycles = r.window_end - r.window_start;
        let row = format!(
            "{case}: window {}..{} {r:?}\n{csv}",
            r.window_start, r.window_end
        );
        assert!(cycles > 0, "{row}");
        assert!(cycles <= full, "{row}");
        assert_eq!(r.partial, cycles < full, "{row}");
        assert!(r.accepted.is_finite() && r.accepted >= 0.0, "{row}");
        let per = hosts * cycles as f64;
        let delivered = r.accepted * per;
        let generated = r.offered * per;
        assert!(
            delivered <= generated + packet * backlog + 1e-6,
            "{delivered} flits delivered, {generated} offered and {backlog} packets waiting: {row}"
        );
        if !slices {
            assert!(r.accepted <= 1.0, "{row}");
        }
        if r.window_start >= swap {
            at_swap.get_or_insert(backlog);
            since += delivered;
            since_cycles += cycles;
        }
        backlog = (r.in_flight_packets + r.queued_packets) as f64;
        if let Some(l) = r.latency {
            assert!(l >= floor, "latency {l} below the zero-load {floor}: {row}");
        }
        if let Some(s) = r.success_rate {
            assert!((0.0..=1.0).contains(&s), "{row}");
        }
    }
    let per = hosts * since_cycles as f64;
    let expected = (load * per / packet).max(1.0);
    let bound = load * per * (1.0 + 4.0 / expected.sqrt()) + packet * at_swap.unwrap_or(0.0);
    assert!(
        since <= bound,
        "{case}: {since} flits delivered since the swap, at most {bound} possible"
    );
    // Each window ran one routing, and the swap cut the window it fell in.
    for (cycle, routing) in sim.swaps().iter().skip(1) {
        let after = rows
            .iter()
            .find(|r| r.run == "A" && r.window_start == *cycle);
        if let Some(after) = after {
            assert_eq!(&after.routing, routing, "{case}");
        }
        assert!(
            rows.iter()
                .all(|r| !(r.window_start < *cycle && *cycle < r.window_end)),
            "{case}: a window spans the swap at {cycle}"
        );
    }
}

/// Each live plot's y range ends within 1.5x of the largest value it
/// draws: the range is set by the data.
fn check_ranges(h: &Harness<'_, RoutelabApp>, case: &str) {
    let reports = h.state().views.plot_reports.clone();
    assert_eq!(reports.len(), 2, "{case}: two live plots");
    for r in &reports {
        let top = r.y_range[1];
        let cap = if r.id == "slice_success" {
            150.0
        } else {
            1.5 * r.drawn_max
        };
        assert!(
            r.drawn_max > 0.0 && top <= cap,
            "{case}: plot {} runs to {top} for data up to {}",
            r.id,
            r.drawn_max
        );
    }
}

/// On `preset`, for every speed: play to a cycle on a window boundary
/// (and 37 past one), swap to `to`, play on at that speed for at least 40
/// frames and past two more windows, and check the curves.
fn swaps_at_every_speed(preset: &str, to: &str) {
    let mut h = harness();
    for speed in Speed::CHOICES {
        for offset in [0, 37] {
            load_preset(&mut h, preset);
            let (warmup, window) = {
                let m = h.state().session.sim.measure();
                (m.warmup, m.window_cycles)
            };
            let offset = offset % window;
            let at = warmup + 3 * window + offset;
            playback(&mut h, PlaybackCommand::Step(at));
            h.run_steps(2);
            assert_eq!(h.state().session.now(), at, "{preset}");
            let case = format!("{preset}, {}, swap at {at} to {to}", speed.label());
            h.state_mut().push(AppCommand::SwapRouting {
                spec: to.into(),
                on_compare: false,
            });
            playback(&mut h, PlaybackCommand::SetSpeed(speed));
            playback(&mut h, PlaybackCommand::Play);
            let target = at + 2 * window + 1;
            let mut frames = 0;
            while frames < 40 || (frames < 400 && h.state().session.now() < target) {
                h.run_steps(1);
                frames += 1;
            }
            // Slow speeds: the frames have been drawn; run the rest of the
            // windows in one step, and draw them.
            playback(&mut h, PlaybackCommand::Pause);
            let now = h.state().session.now();
            if now < target {
                playback(&mut h, PlaybackCommand::Step(target - now));
            }
            playback(&mut h, PlaybackCommand::Pause);
            h.run_steps(2);
            assert!(
                h.state().session.failure().is_none(),
                "{case}: {:?}",
                h.state().session.failure()
            );
            assert_eq!(
                h.state().session.sim.swaps().len(),
                2,
                "{case}: the swap was refused"
            );
            check_physical(&h, &case);
            check_ranges(&h, &case);
        }
    }
}

#[test]
fn a_torus_swap_keeps_the_curves_at_every_speed() {
    swaps_at_every_speed("torus-dor-uniform.json", "dor:tie=random");
}

#[test]
fn a_drb_swap_keeps_the_curves_at_every_speed() {
    swaps_at_every_speed("drb-torus8-hotspot.json", "dor");
}

#[test]
fn a_fat_tree_swap_keeps_the_curves_at_every_speed() {
    swaps_at_every_speed("fattree-greedy.json", "fattree-drill");
}

/// A swap refused for want of VCs offers the way out the message
/// describes: "Restart with 8 VCs and swap" restarts the tornado preset
/// with 8 VCs at cycle 0 and swaps to RLB, and the scenario panel's Revert
/// then puts the 2-VC scenario back.
#[test]
fn a_refused_swap_offers_a_restart_with_the_vcs_it_needs() {
    let mut h = harness();
    load_preset(&mut h, "torus-dor-tornado.json");
    let before = h.state().session.scenario.clone();
    assert_eq!(before.vcs, 2);
    playback(&mut h, PlaybackCommand::Step(500));
    h.state_mut().push(AppCommand::SwapRouting {
        spec: "rlb".into(),
        on_compare: false,
    });
    h.run_steps(2);
    let m = h.state().message.clone().expect("a refusal");
    assert!(m.is_error, "{m:?}");
    assert!(
        m.text.contains("rlb needs 8 virtual channels"),
        "{}",
        m.text
    );
    assert_eq!(
        m.action.as_ref().map(|a| a.0.as_str()),
        Some("Restart with 8 VCs and swap")
    );
    assert_eq!(
        h.state().session.sim.swaps().len(),
        1,
        "nothing swapped yet"
    );
    h.get_by_label("Restart with 8 VCs and swap").click();
    h.run_steps(3);
    {
        let app = h.state();
        assert_eq!(app.session.scenario.vcs, 8);
        assert_eq!(app.session.sim.routing_name(), "rlb");
        assert_eq!(app.session.sim.swaps().last().map(|s| s.0), Some(0));
        assert_eq!(app.session.replaced.as_ref(), Some(&before));
        let m = app.message.clone().expect("a notice");
        assert!(!m.is_error, "{m:?}");
    }
    // It runs: RLB on 8 VCs under tornado.
    playback(&mut h, PlaybackCommand::Step(300));
    h.run_steps(2);
    assert!(h.state().session.failure().is_none());
    h.get_by_label("Revert").click();
    h.run_steps(3);
    let app = h.state();
    assert_eq!(app.session.scenario.vcs, 2);
    assert_eq!(app.session.scenario.routing, before.routing);
    assert_eq!(app.session.sim.routing_name(), before.routing);
    assert_eq!(app.session.replaced, None);
}
