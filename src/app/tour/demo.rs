//! Scripted demos for talks: the commands a speaker gives (presets, the
//! balancer swapped, comparisons, play and pause, speed, scenario changes)
//! recorded with their time, saved as a JSON file, and replayed with the
//! same timing, so a talk's demo runs the same way every time. A demo's
//! steps are the tour actions ([`Action`]), so what a tour can do a demo
//! can too. File > Open takes a demo file as well as a scenario.
//!
//! ```json
//! {"demo": "routelab", "steps": [
//!   {"at_ms": 0, "action": {"preset": "oblivious-a-ring8-tornado.json"}},
//!   {"at_ms": 1200, "action": {"play": true}},
//!   {"at_ms": 9000, "action": {"swap_routing": "rlb"}}]}
//! ```

use super::Action;
use serde::{Deserialize, Serialize};

/// What a demo file says it is (`"demo": "routelab"`).
pub const MARK: &str = "routelab";

/// A recorded demo.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demo {
    pub demo: String,
    pub steps: Vec<DemoStep>,
}

/// One action and when it was given, in milliseconds from the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoStep {
    pub at_ms: u64,
    pub action: Action,
}

impl Demo {
    /// A demo file's text, or None when the text is not a demo (so it can
    /// be read as a scenario); a demo file with an error says which.
    pub fn from_json(text: &str) -> Option<Result<Demo, String>> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        v.get("demo")?;
        Some(
            serde_json::from_value::<Demo>(v)
                .map_err(|e| format!("not a valid demo file: {e}"))
                .and_then(|d| {
                    if d.demo != MARK {
                        return Err(format!("`demo` is `{}`; expected `{MARK}`", d.demo));
                    }
                    if d.steps.windows(2).any(|w| w[1].at_ms < w[0].at_ms) {
                        return Err("the steps' `at_ms` must not decrease".into());
                    }
                    Ok(d)
                }),
        )
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Recording or replaying a demo.
#[derive(Clone, Debug, PartialEq)]
pub enum DemoState {
    /// Recording since `start_ms` (the app's clock).
    Recording { start_ms: u64, demo: Demo },
    /// Replaying: the next step to issue.
    Replaying {
        start_ms: u64,
        demo: Demo,
        next: usize,
    },
}

impl DemoState {
    pub fn record(now_ms: u64) -> DemoState {
        DemoState::Recording {
            start_ms: now_ms,
            demo: Demo {
                demo: MARK.into(),
                steps: Vec::new(),
            },
        }
    }

    pub fn replay(demo: Demo, now_ms: u64) -> DemoState {
        DemoState::Replaying {
            start_ms: now_ms,
            demo,
            next: 0,
        }
    }

    /// Note an action given now (when recording).
    pub fn note(&mut self, action: Action, now_ms: u64) {
        if let DemoState::Recording { start_ms, demo } = self {
            demo.steps.push(DemoStep {
                at_ms: now_ms.saturating_sub(*start_ms),
                action,
            });
        }
    }

    /// The actions due by `now_ms` (when replaying), in order; `done` once
    /// every step was issued.
    pub fn due(&mut self, now_ms: u64) -> (Vec<Action>, bool) {
        match self {
            DemoState::Replaying {
                start_ms,
                demo,
                next,
            } => {
                let t = now_ms.saturating_sub(*start_ms);
                let mut out = Vec::new();
                while let Some(s) = demo.steps.get(*next).filter(|s| s.at_ms <= t) {
                    out.push(s.action.clone());
                    *next += 1;
                }
                (out, *next >= demo.steps.len())
            }
            DemoState::Recording { .. } => (Vec::new(), false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_demo_replays_its_actions_at_their_times() {
        let mut r = DemoState::record(1000);
        r.note(Action::Preset("a.json".into()), 1000);
        r.note(Action::Play(true), 1500);
        r.note(Action::SwapRouting("rlb".into()), 4000);
        let DemoState::Recording { demo, .. } = r else {
            unreachable!()
        };
        let text = demo.to_json();
        let back = Demo::from_json(&text).unwrap().unwrap();
        assert_eq!(back, demo);
        assert_eq!(back.steps[2].at_ms, 3000);
        let mut p = DemoState::replay(back, 50_000);
        assert_eq!(
            p.due(50_000),
            (vec![Action::Preset("a.json".into())], false)
        );
        assert_eq!(p.due(50_400), (vec![], false));
        assert_eq!(
            p.due(53_100),
            (
                vec![Action::Play(true), Action::SwapRouting("rlb".into())],
                true
            )
        );
    }

    #[test]
    fn scenarios_are_not_demos_and_bad_demos_say_why() {
        assert!(Demo::from_json(r#"{"topology": "torus:4x4"}"#).is_none());
        assert!(Demo::from_json("not json").is_none());
        let e = Demo::from_json(r#"{"demo": "x", "steps": []}"#)
            .unwrap()
            .unwrap_err();
        assert!(e.contains("routelab"), "{e}");
        let e = Demo::from_json(
            r#"{"demo": "routelab", "steps": [{"at_ms": 5, "action": {"play": true}}, {"at_ms": 1, "action": {"play": false}}]}"#,
        )
        .unwrap()
        .unwrap_err();
        assert!(e.contains("at_ms"), "{e}");
        let e = Demo::from_json(
            r#"{"demo": "routelab", "steps": [{"at_ms": 0, "action": {"fly": 1}}]}"#,
        )
        .unwrap()
        .unwrap_err();
        assert!(e.contains("fly"), "{e}");
    }
}
