//! Guided tours: short sequences of steps that load a scenario or change a
//! parameter through the app's own commands, point at the part of the
//! screen that matters, say in two or three sentences what to look at and
//! why (in the paper's terms, with its section), and wait for "Next" or for
//! an event ("when latency passes 100 cycles").
//!
//! Tours are data: the JSON files of `assets/tours/`, compiled in
//! ([`BUILT_IN`]), so a new tour needs no code. This module is the model
//! (no egui): parsing and checking a tour ([`Tour`]), and running one
//! ([`TourRun`]): which commands a step issues, whether its wait is over.
//! `overlay` draws the highlight and the callout.
//!
//! A step, in JSON:
//! ```json
//! { "title": "Tornado breaks minimal routing",
//!   "text": "Every host sends 3 hops clockwise ...",
//!   "section": "Singh §3.1",
//!   "target": "network",
//!   "do": [ {"preset": "ring-tornado.json"}, {"play": true} ],
//!   "wait": {"cycle_at_least": 3000},
//!   "expect": {"routing": "dor:tie=plus", "playing": true} }
//! ```
//! `do` actions: `preset` (a file of `assets/scenarios/`), `set` (scenario
//! fields to change, e.g. `{"routing": "rlb", "load": 0.3}`), `swap_routing`
//! (live), `compare` (a routing, or null to stop), `play` (true/false),
//! `reset`, `metric` (a channel colouring), `panel` (a side panel to open:
//! `path_selection`, ...), `speed` (cycles per frame), `view` (`network`
//! or `surface`), `pair` (DRB's pair view: `[a, b]` or `"widest"`), `pod` (a
//! large fat tree's pod to unfold, or null). `wait`: `next` (the
//! default: the user presses Next), `cycle_at_least`, `latency_above`,
//! `accepted_below` (flits per host per cycle), `routing_is` (the user
//! swapped to this routing). `target` names a region of the screen the app
//! registers when it draws it ([`regions`]). `expect` is checked by the UI
//! tests after the step's actions.

pub mod demo;
mod glue;
pub mod overlay;

use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every file of `assets/tours/`, compiled in (the web build and a bare
/// binary have them too; a test checks none is missing).
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "1-first-five-minutes.json",
        include_str!("../../../assets/tours/1-first-five-minutes.json"),
    ),
    (
        "2-villalobos.json",
        include_str!("../../../assets/tours/2-villalobos.json"),
    ),
    (
        "3-koibuchi.json",
        include_str!("../../../assets/tours/3-koibuchi.json"),
    ),
    (
        "4-singh.json",
        include_str!("../../../assets/tours/4-singh.json"),
    ),
    (
        "5-franco.json",
        include_str!("../../../assets/tours/5-franco.json"),
    ),
    (
        "6-fattree.json",
        include_str!("../../../assets/tours/6-fattree.json"),
    ),
    (
        "7-dragonfly.json",
        include_str!("../../../assets/tours/7-dragonfly.json"),
    ),
];

/// The screen regions a step may point at besides the side panels (each
/// panel is a region under its id); the app records where it drew each one
/// every frame (`overlay::mark`).
pub const FIXED_REGIONS: &[&str] = &[
    "menu", "toolbar", "controls", "network", "curves", "status", "details",
];

/// Every region a step may point at, given the panels there are (the
/// ids of the app's panel list, `Panels::ids`).
pub fn regions(panels: &[&str]) -> Vec<String> {
    FIXED_REGIONS
        .iter()
        .chain(panels)
        .map(|r| r.to_string())
        .collect()
}

/// The central views a step may show.
pub const VIEWS: &[&str] = &["network", "surface"];

/// The channel colourings a step may choose (the View menu's names).
pub const METRICS: &[&str] = &[
    "utilization",
    "queueing_delay",
    "occupancy",
    "crossing_paths",
];

/// A tour, as its file says.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tour {
    /// What `#tour=ID` and the Help menu call it.
    pub id: String,
    pub title: String,
    /// One line for the menu.
    pub summary: String,
    /// The paper it follows (empty for the app's own tour).
    #[serde(default)]
    pub paper: String,
    pub steps: Vec<Step>,
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    /// Two or three sentences: what to look at and why.
    pub text: String,
    /// The paper's section, e.g. `Singh §3.1`.
    #[serde(default)]
    pub section: String,
    /// The region to highlight ([`regions`]); none: a centred callout.
    #[serde(default)]
    pub target: Option<String>,
    /// What the step does when it starts.
    #[serde(default, rename = "do")]
    pub actions: Vec<Action>,
    #[serde(default)]
    pub wait: Wait,
    /// The state after the actions, checked by the UI tests.
    #[serde(default)]
    pub expect: Expect,
}

/// An action a step takes through the app's commands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Load a preset (a file name of `assets/scenarios/`).
    Preset(String),
    /// Change scenario fields (JSON object merged into the scenario).
    Set(serde_json::Map<String, serde_json::Value>),
    /// Swap the balancer live.
    SwapRouting(String),
    /// Compare against a routing, or stop comparing (null).
    Compare(Option<String>),
    Play(bool),
    /// Rebuild at cycle 0.
    Reset(bool),
    /// Colour channels by this metric (`utilization`, `queueing_delay`,
    /// `occupancy`, `crossing_paths`).
    Metric(String),
    /// Open a side panel (`path_selection`, ...).
    Panel(String),
    /// Cycles per frame.
    Speed(u64),
    /// The central view: `network`, or `surface` (DRB's latency surface).
    View(String),
    /// DRB's pair view (the DRB panel's pair section, and the pair's
    /// metapath drawn on the network): `[a, b]` picks source switch `a`
    /// and destination switch `b`; `"widest"` the pair whose metapath is
    /// widest when the step starts (the first row of the panel's list of
    /// widened pairs), so a talk shows a widened pair without hunting for
    /// one.
    Pair(PairPick),
    /// A large fat tree's pod view (k >= 12, where pods are drawn folded):
    /// unfold this pod, as a click on it does, or fold them all (null).
    Pod(Option<u32>),
}

/// The pair a `pair` action picks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PairPick {
    /// Source and destination switches.
    Switches([u32; 2]),
    /// A pair by what it is: [`PAIR_NAMES`].
    Named(String),
}

/// The pairs a `pair` action may name.
pub const PAIR_NAMES: &[&str] = &["widest"];

/// When a step is done.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Wait {
    /// The user presses Next.
    #[default]
    Next,
    /// The simulation reached this cycle.
    CycleAtLeast(u64),
    /// The last window's mean latency passed this many cycles.
    LatencyAbove(f64),
    /// The last window's accepted throughput fell below this.
    AcceptedBelow(f64),
    /// The routing of run A is this one (the user swapped to it).
    RoutingIs(String),
    /// The simulation ran this many cycles since the step started (after
    /// its actions: a swap's "after" has built up).
    CyclesRun(u64),
    /// This many cycles were measured: the warm-up is over and this many
    /// cycles ran after it (the network is coloured, the curves drawn).
    MeasuredFor(u64),
}

/// What the UI tests check after a step's actions.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default)]
    pub topology: Option<String>,
    /// The routing name run A shows (e.g. `dor:tie=plus`).
    #[serde(default)]
    pub routing: Option<String>,
    #[serde(default)]
    pub traffic: Option<String>,
    #[serde(default)]
    pub playing: Option<bool>,
    #[serde(default)]
    pub comparing: Option<bool>,
    #[serde(default)]
    pub panel: Option<String>,
    #[serde(default)]
    pub metric: Option<String>,
    #[serde(default)]
    pub view: Option<String>,
    #[serde(default)]
    pub switch_model: Option<String>,
    /// Whether a DRB pair is picked.
    #[serde(default)]
    pub drb_pair: Option<bool>,
}

/// What the app knows that a wait looks at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    pub cycle: u64,
    pub latency: f64,
    pub accepted: f64,
    pub routing: String,
    /// The cycle the step started at (after its actions).
    pub step_cycle: u64,
    /// The cycle the warm-up ends at.
    pub warmup: u64,
}

impl Wait {
    /// Is the wait over, given what the app shows now?
    pub fn met(&self, o: &Observed) -> bool {
        match self {
            Wait::Next => false,
            Wait::CycleAtLeast(c) => o.cycle >= *c,
            Wait::LatencyAbove(l) => o.latency > *l,
            Wait::AcceptedBelow(a) => o.cycle > 0 && o.accepted < *a,
            Wait::RoutingIs(r) => o.routing == *r,
            Wait::CyclesRun(n) => o.cycle >= o.step_cycle.saturating_add(*n),
            Wait::MeasuredFor(n) => o.cycle >= o.warmup.saturating_add(*n),
        }
    }
    /// A line saying what the step waits for.
    pub fn describe(&self) -> Option<String> {
        match self {
            Wait::Next => None,
            Wait::CycleAtLeast(c) => Some(format!("Next is enabled at cycle {c}")),
            Wait::LatencyAbove(l) => {
                Some(format!("Next is enabled when latency passes {l} cycles"))
            }
            Wait::AcceptedBelow(a) => Some(format!(
                "Next is enabled when accepted throughput falls below {a}"
            )),
            Wait::RoutingIs(r) => {
                Some(format!("Next is enabled when you swap the balancer to {r}"))
            }
            Wait::CyclesRun(n) => Some(format!("Next is enabled after {n} more cycles")),
            Wait::MeasuredFor(n) => Some(format!(
                "Next is enabled when the warm-up is over and {n} cycles are measured"
            )),
        }
    }
}

/// Every problem with a tour file, one message each.
pub fn problems(tour: &Tour, presets: &[&str], panels: &[&str], metrics: &[&str]) -> Vec<String> {
    let mut p = Vec::new();
    if tour.steps.is_empty() {
        p.push(format!("tour `{}` has no steps", tour.id));
    }
    if let Some(last) = tour.steps.last()
        && last.wait != Wait::Next
    {
        p.push(format!(
            "tour `{}`: the last step waits for {:?}, but a tour ends only when the user presses Finish",
            tour.id, last.wait
        ));
    }
    for (i, s) in tour.steps.iter().enumerate() {
        let at = format!("tour `{}` step {} (\"{}\")", tour.id, i + 1, s.title);
        if let Some(t) = &s.target
            && !regions(panels).iter().any(|r| r == t)
        {
            p.push(format!(
                "{at}: target `{t}`; accepted {}",
                regions(panels).join(", ")
            ));
        }
        let sentences = s.text.matches(['.', '!', '?']).count();
        if !(1..=4).contains(&sentences) || s.text.len() > 600 {
            p.push(format!(
                "{at}: the text should be two or three sentences ({sentences} found, {} characters)",
                s.text.len()
            ));
        }
        for a in &s.actions {
            match a {
                Action::Preset(f) if !presets.contains(&f.as_str()) => {
                    p.push(format!("{at}: preset `{f}` is not in assets/scenarios"))
                }
                Action::Panel(x) if !panels.contains(&x.as_str()) => {
                    p.push(format!("{at}: panel `{x}`; accepted {}", panels.join(", ")))
                }
                Action::View(v) if !VIEWS.contains(&v.as_str()) => {
                    p.push(format!("{at}: view `{v}`; accepted {}", VIEWS.join(", ")))
                }
                Action::Metric(m) if !metrics.contains(&m.as_str()) => p.push(format!(
                    "{at}: metric `{m}`; accepted {}",
                    metrics.join(", ")
                )),
                Action::Pair(PairPick::Named(n)) if !PAIR_NAMES.contains(&n.as_str()) => {
                    p.push(format!(
                        "{at}: pair `{n}`; accepted [SOURCE, DESTINATION] (two switches) or {}",
                        PAIR_NAMES.join(", ")
                    ))
                }
                Action::Pair(PairPick::Switches([a, b])) if a == b => p.push(format!(
                    "{at}: pair [{a}, {b}] names one switch twice; a pair is two different switches"
                )),
                Action::Set(fields) => {
                    let mut s = Scenario::default();
                    if let Err(e) = apply_fields(&mut s, fields) {
                        p.push(format!("{at}: {e}"));
                    }
                }
                _ => {}
            }
        }
    }
    p
}

/// Merge JSON `fields` into a scenario, checking each like a scenario file.
pub fn apply_fields(
    s: &mut Scenario,
    fields: &serde_json::Map<String, serde_json::Value>,
) -> Result<(), String> {
    let mut v = serde_json::to_value(&*s).map_err(|e| e.to_string())?;
    let obj = v
        .as_object_mut()
        .ok_or_else(|| "a scenario is an object".to_string())?;
    for (k, x) in fields {
        obj.insert(k.clone(), x.clone());
    }
    let text = serde_json::to_string(&v).map_err(|e| e.to_string())?;
    *s = Scenario::from_json(&text).map_err(|e| e.to_string())?;
    Ok(())
}

/// Parse every built-in tour: the tours, and one message per file that
/// does not parse.
pub fn all() -> (Vec<Tour>, Vec<String>) {
    let mut tours = Vec::new();
    let mut problems = Vec::new();
    for (file, text) in BUILT_IN {
        match serde_json::from_str::<Tour>(text) {
            Ok(t) => tours.push(t),
            Err(e) => problems.push(format!("assets/tours/{file}: {e}")),
        }
    }
    (tours, problems)
}

/// A tour being run: the current step, whether its actions are done and
/// its wait is over, and the app's state before each step it has started
/// (Back puts it back).
#[derive(Clone, Debug, PartialEq)]
pub struct TourRun {
    pub tour: Tour,
    pub step: usize,
    /// The current step's actions were issued.
    pub started: bool,
    /// The current step's wait is over (it stays over): Next is enabled.
    pub ready: bool,
    /// The cycle the current step started at, after its actions.
    pub step_cycle: u64,
    /// The app's state before each step's actions, by step.
    pub snapshots: Vec<Option<Snapshot>>,
}

/// What a step may change, as it was before the step: Back restores it
/// before the step's actions run again, so going back shows what the step
/// described (the stage issue: Back from step 4 left tornado traffic on a
/// step about uniform traffic).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub scenario: Scenario,
    pub compare: Option<String>,
    pub metric: String,
    pub view: String,
    pub panels: Vec<String>,
    pub cycles_per_frame: Option<u32>,
    pub playing: bool,
}

/// What a tour asks of the app when a step starts.
#[derive(Clone, Debug, PartialEq)]
pub struct StepStart<'a> {
    pub actions: &'a [Action],
}

impl TourRun {
    pub fn new(tour: Tour) -> TourRun {
        let n = tour.steps.len();
        TourRun {
            tour,
            step: 0,
            started: false,
            ready: false,
            step_cycle: 0,
            snapshots: vec![None; n],
        }
    }
    /// Whether Next (or Enter) may move on: the step waits for nothing,
    /// or its wait is over.
    pub fn can_advance(&self) -> bool {
        self.ready || self.current().is_none_or(|s| s.wait == Wait::Next)
    }
    pub fn current(&self) -> Option<&Step> {
        self.tour.steps.get(self.step)
    }
    pub fn is_last(&self) -> bool {
        self.step + 1 >= self.tour.steps.len()
    }
    /// The actions to issue now (once per step).
    pub fn start_step(&mut self) -> Option<StepStart<'_>> {
        if self.started {
            return None;
        }
        self.started = true;
        self.tour.steps.get(self.step).map(|s| StepStart {
            actions: &s.actions,
        })
    }
    /// Go to the next step; false at the end, or while the step's wait
    /// is not over (the step stays).
    pub fn advance(&mut self) -> bool {
        if self.is_last() || !self.can_advance() {
            return false;
        }
        self.step += 1;
        self.started = false;
        self.ready = false;
        true
    }
    /// Go back one step: the app's state before it is restored
    /// ([`TourRun::back_snapshot`]) and its actions run again.
    pub fn back(&mut self) {
        if self.step > 0 {
            self.step -= 1;
        }
        self.started = false;
        self.ready = false;
    }
    /// The state to restore after [`TourRun::back`]: the one before the
    /// current step first started.
    pub fn back_snapshot(&self) -> Option<&Snapshot> {
        self.snapshots.get(self.step)?.as_ref()
    }
    /// Note that the step's wait is over (Next is enabled); a tour never
    /// moves on by itself. True when the wait is over.
    pub fn poll(&mut self, o: &Observed) -> bool {
        let o = Observed {
            step_cycle: self.step_cycle,
            ..o.clone()
        };
        if self.started && self.current().is_some_and(|s| s.wait.met(&o)) {
            self.ready = true;
        }
        self.ready
    }
}

/// The tour a URL fragment or query asks for (`#tour=ID`, also after
/// other keys: `#scenario=...&tour=ID`).
pub fn requested(fragment: &str) -> Option<String> {
    let s = fragment.trim_start_matches(['#', '?']);
    s.split('&')
        .find_map(|kv| kv.strip_prefix("tour="))
        .filter(|id| !id.is_empty())
        .map(str::to_string)
}

/// Tours by id, for `#tour=ID` links and the Help menu.
pub fn by_id(tours: &[Tour]) -> BTreeMap<&str, &Tour> {
    tours.iter().map(|t| (t.id.as_str(), t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_tour_parses_and_every_file_is_listed() {
        let (tours, problems) = all();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(tours.len(), BUILT_IN.len());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/tours");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".json"))
            .collect();
        files.sort();
        let mut listed: Vec<&str> = BUILT_IN.iter().map(|(f, _)| *f).collect();
        listed.sort();
        assert_eq!(files, listed, "every assets/tours file compiled in");
        let ids = by_id(&tours);
        assert_eq!(ids.len(), tours.len(), "tour ids are unique");
    }

    #[test]
    fn waits_and_stepping() {
        let tour: Tour = serde_json::from_str(
            r#"{"id": "t", "title": "T", "summary": "s", "steps": [
                {"title": "a", "text": "One. Two.", "do": [{"play": true}], "wait": {"cycle_at_least": 10}},
                {"title": "b", "text": "Three.", "wait": {"latency_above": 50}},
                {"title": "c", "text": "Four."}]}"#,
        )
        .unwrap();
        let mut run = TourRun::new(tour);
        assert_eq!(run.start_step().unwrap().actions, &[Action::Play(true)]);
        assert!(run.start_step().is_none(), "actions once per step");
        let mut o = Observed {
            cycle: 5,
            ..Observed::default()
        };
        assert!(!run.poll(&o));
        assert!(!run.advance(), "Next waits for the step's condition");
        assert_eq!(run.step, 0);
        o.cycle = 10;
        assert!(run.poll(&o), "the wait is over: Next is enabled");
        assert_eq!(run.step, 0, "a tour never moves on by itself");
        assert!(run.advance());
        assert_eq!(run.step, 1, "one Next, one step");
        assert!(!run.poll(&o), "a new step starts before it can end");
        run.start_step();
        o.latency = 51.0;
        assert!(run.poll(&o));
        assert_eq!(run.step, 1);
        assert!(run.advance());
        run.start_step();
        assert!(run.is_last());
        assert!(!run.advance());
        run.back();
        assert_eq!(run.step, 1);
    }

    #[test]
    fn bad_tours_name_the_problem() {
        let tour: Tour = serde_json::from_str(
            r#"{"id": "t", "title": "T", "summary": "s", "steps": [
                {"title": "a", "text": "Fine.", "target": "nowhere",
                 "do": [{"preset": "missing.json"}, {"set": {"colour": 1}}, {"panel": "x"}]}]}"#,
        )
        .unwrap();
        let p = problems(&tour, &["a.json"], &["path_selection"], &["utilization"]);
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p.iter().any(|x| x.contains("target `nowhere`")));
        assert!(p.iter().any(|x| x.contains("missing.json")));
        assert!(p.iter().any(|x| x.contains("colour")));
        assert!(serde_json::from_str::<Tour>(r#"{"id": "t", "colour": 1}"#).is_err());
        let waits_at_the_end: Tour = serde_json::from_str(
            r#"{"id": "t", "title": "T", "summary": "s", "steps": [
                {"title": "a", "text": "Fine.", "wait": {"cycle_at_least": 5}}]}"#,
        )
        .unwrap();
        let p = problems(&waits_at_the_end, &[], &[], &[]);
        assert!(p.len() == 1 && p[0].contains("last step"), "{p:?}");
    }

    #[test]
    fn a_pair_is_two_switches_or_the_widest() {
        let tour = |pair: &str| -> Tour {
            serde_json::from_str(&format!(
                r#"{{"id": "t", "title": "T", "summary": "s", "steps": [
                    {{"title": "a", "text": "Fine.", "do": [{{"pair": {pair}}}]}}]}}"#
            ))
            .unwrap()
        };
        for good in ["[3, 27]", r#""widest""#] {
            assert_eq!(problems(&tour(good), &[], &[], &[]), Vec::<String>::new());
        }
        let p = problems(&tour(r#""hottest""#), &[], &[], &[]);
        assert!(
            p.len() == 1 && p[0].contains("pair `hottest`; accepted"),
            "{p:?}"
        );
        assert!(p[0].contains("widest"), "{p:?}");
        let p = problems(&tour("[5, 5]"), &[], &[], &[]);
        assert!(p.len() == 1 && p[0].contains("one switch twice"), "{p:?}");
        for bad in ["[1]", "[1, 2, 3]", "[-1, 2]", "{}"] {
            let text = format!(
                r#"{{"id": "t", "title": "T", "summary": "s", "steps": [
                    {{"title": "a", "text": "Fine.", "do": [{{"pair": {bad}}}]}}]}}"#
            );
            assert!(serde_json::from_str::<Tour>(&text).is_err(), "{bad}");
        }
    }
}
