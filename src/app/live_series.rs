//! What the live curves draw, as a table: one row per measurement window
//! and run. The plots ([`super::plots::live_curves_ui`]) draw these rows
//! and nothing else, and File → Export curves as CSV and
//! `routelab app FILE --screenshot PNG --curves-csv CSV` write them
//! ([`csv()`]), so the numbers a script reads are the points on the screen.
//!
//! A window is `window_start..window_end` (cycles, or time slices on the
//! time-slice model): the simulation closes one on every multiple of the
//! scenario's `window_cycles` and at every live swap, so each window ran
//! one routing ([`crate::sim::WindowSample`]). A window a swap cut short is
//! *partial*: its rates are per cycle of its own length, and the plots
//! mark its point. A window in which no packet was delivered has no
//! latency (the plot leaves a gap there; before, it drew 0).

use crate::sim::Simulation;

/// One plotted window of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveRow {
    /// `A` or `B`.
    pub run: String,
    /// The routing that ran in the window.
    pub routing: String,
    /// First cycle (or slice) of the window.
    pub window_start: u64,
    /// One past its last cycle (or slice); the point's x on the plots.
    pub window_end: u64,
    /// Shorter than the scenario's window (cut by a swap).
    pub partial: bool,
    /// Mean latency of the packets delivered in the window (cycles, or
    /// slices); `None` when none was.
    pub latency: Option<f64>,
    /// Flits delivered per host per cycle (requests per server per slice).
    pub accepted: f64,
    /// Flits generated per host per cycle (requests per server per slice).
    pub offered: f64,
    /// The time-slice model's success rate of the requests begun in the
    /// window (0..1), once their fate is known.
    pub success_rate: Option<f64>,
    /// Packets in the network and in source queues at the window's end.
    pub in_flight_packets: u64,
    pub queued_packets: u64,
}

/// The routing `sim` ran from cycle `at` on (its last swap at or before).
pub fn routing_from(sim: &Simulation, at: u64) -> String {
    sim.swaps()
        .iter()
        .rev()
        .find(|(c, _)| *c <= at)
        .or(sim.swaps().first())
        .map(|(_, r)| r.clone())
        .unwrap_or_else(|| sim.routing_name())
}

/// Every window of every run (`(name, sim)`, A first), oldest first.
pub fn rows(runs: &[(&str, &Simulation)]) -> Vec<CurveRow> {
    let mut out = Vec::new();
    for (run, sim) in runs {
        let full = sim.measure().window_cycles;
        let success = sim.deadlines().map(|d| d.windows()).unwrap_or_default();
        // Success windows close D slices after the latency windows of the
        // same begin slices, with the same bounds: matched by start.
        let mut k = 0;
        for w in sim.stats().windows() {
            while k < success.len() && success[k].start < w.start {
                k += 1;
            }
            let success_rate = success
                .get(k)
                .filter(|s| s.start == w.start && s.end == w.cycle && s.rate.is_finite())
                .map(|s| s.rate);
            out.push(CurveRow {
                run: run.to_string(),
                routing: routing_from(sim, w.start),
                window_start: w.start,
                window_end: w.cycle,
                partial: w.cycles() < full,
                latency: w.latency(),
                accepted: w.accepted,
                offered: w.offered,
                success_rate,
                in_flight_packets: w.in_flight_packets,
                queued_packets: w.queued_packets,
            });
        }
    }
    out
}

/// The rows as CSV: `run, routing, window_start, window_end, cycles,
/// partial, latency, accepted, offered`, then `success_rate` when a run is
/// on the time-slice model, then the packets in flight and queued. An
/// unknown value is an empty cell.
pub fn csv(runs: &[(&str, &Simulation)]) -> String {
    let slices = super::views::in_slices(runs.iter().map(|(_, s)| *s));
    let mut s =
        String::from("run,routing,window_start,window_end,cycles,partial,latency,accepted,offered");
    if slices {
        s.push_str(",success_rate");
    }
    s.push_str(",in_flight_packets,queued_packets\n");
    let cell = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for r in rows(runs) {
        // A routing spec has no commas, but quote it if one ever does.
        let routing = if r.routing.contains([',', '"']) {
            format!("\"{}\"", r.routing.replace('"', "\"\""))
        } else {
            r.routing.clone()
        };
        s.push_str(&format!(
            "{},{routing},{},{},{},{},{},{},{}",
            r.run,
            r.window_start,
            r.window_end,
            r.window_end - r.window_start,
            r.partial,
            cell(r.latency),
            r.accepted,
            r.offered,
        ));
        if slices {
            s.push_str(&format!(",{}", cell(r.success_rate)));
        }
        s.push_str(&format!(",{},{}\n", r.in_flight_packets, r.queued_packets));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn torus(window: u64) -> Simulation {
        Scenario {
            topology: "torus:4x4".into(),
            warmup: 100,
            window_cycles: window,
            ..Default::default()
        }
        .build()
        .unwrap()
    }

    /// A swap off a window boundary cuts the window there: one partial
    /// window before it and one after, each under one routing, and the
    /// next windows on the multiples again.
    #[test]
    fn a_swap_cuts_the_window_and_each_window_ran_one_routing() {
        let mut sim = torus(100);
        sim.run_for(250).unwrap();
        sim.swap_routing(&"dor:tie=random".parse().unwrap())
            .unwrap();
        sim.run_for(250).unwrap();
        let rows = rows(&[("A", &sim)]);
        let bounds: Vec<(u64, u64, bool)> = rows
            .iter()
            .map(|r| (r.window_start, r.window_end, r.partial))
            .collect();
        assert_eq!(
            bounds,
            [
                (0, 100, false),
                (100, 200, false),
                (200, 250, true),
                (250, 300, true),
                (300, 400, false),
                (400, 500, false)
            ]
        );
        let before = sim.swaps()[0].1.clone();
        assert_eq!(rows[2].routing, before);
        assert_eq!(rows[3].routing, "dor:tie=random");
        // A swap on a boundary cuts nothing.
        sim.swap_routing(&"dor".parse().unwrap()).unwrap();
        sim.run_for(100).unwrap();
        let last = self::rows(&[("A", &sim)]).pop().unwrap();
        assert_eq!(
            (last.window_start, last.window_end, last.partial),
            (500, 600, false)
        );
    }

    /// The CSV has a row per window, the header the issue names, and an
    /// empty latency where no packet was delivered.
    #[test]
    fn csv_has_a_row_per_window_and_no_latency_where_none_was_delivered() {
        let mut sim = Scenario {
            topology: "torus:4x4".into(),
            load: 0.0,
            warmup: 0,
            ..Default::default()
        }
        .build()
        .unwrap();
        sim.run_for(300).unwrap();
        let text = csv(&[("A", &sim)]);
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "run,routing,window_start,window_end,cycles,partial,latency,accepted,offered,in_flight_packets,queued_packets"
        );
        let routing = sim.routing_name();
        assert_eq!(
            lines.next().unwrap(),
            format!("A,{routing},0,100,100,false,,0,0,0,0")
        );
        assert_eq!(lines.count(), 2);
    }
}
