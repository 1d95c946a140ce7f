//! Opening the app on a file (`routelab app FILE [--play] [--presenter]`):
//! a scenario or preset, a guided tour or a recorded demo, checked before
//! the window opens and applied through the app's own commands.

use super::playback::PlaybackCommand;
use super::tour::demo::Demo;
use super::tour::{Tour, TourRun};
use super::{AppCommand, RoutelabApp};
use crate::cli::{StartFile, Startup};
use crate::scenario::Scenario;

impl RoutelabApp {
    /// Whether `startup`'s file can be opened: the tour and demo readers
    /// live in the app, so the CLI asks here before opening a window.
    pub fn check_startup(startup: &Startup) -> Result<(), String> {
        match &startup.file {
            None => Ok(()),
            Some(StartFile::Scenario(text)) => Scenario::from_json(text)
                .map(|_| ())
                .map_err(|e| e.problems.join("; ")),
            Some(StartFile::Tour(text)) => parse_tour(text).map(|_| ()),
            Some(StartFile::Demo(text)) => match Demo::from_json(text) {
                Some(r) => r.map(|_| ()),
                None => Err("not a demo file".into()),
            },
        }
    }

    /// Open on `startup`'s file, then play and enter presenter mode as
    /// asked. A scenario equal to a preset loads as that preset (with its
    /// panels), so `routelab app assets/scenarios/X.json` is the same as
    /// picking X in the Presets menu.
    pub fn apply_startup(&mut self, startup: Startup) {
        match startup.file {
            None => {}
            Some(StartFile::Scenario(text)) => match Scenario::from_json(&text) {
                Ok(s) => match self.editor.presets.iter().position(|p| p.scenario == s) {
                    Some(i) => self.push(AppCommand::LoadPreset(i)),
                    None => self.push(AppCommand::Apply(Box::new(s))),
                },
                Err(e) => self.error(format!("The file was not opened: {e}")),
            },
            Some(StartFile::Tour(text)) => match parse_tour(&text) {
                Ok(t) => self.guides.tour = Some(TourRun::new(t)),
                Err(e) => self.error(format!("The tour was not opened: {e}")),
            },
            Some(StartFile::Demo(text)) => self.push(AppCommand::LoadScenarioText(text)),
        }
        if startup.play {
            self.push(AppCommand::Playback(PlaybackCommand::Play));
        }
        if startup.presenter {
            self.guides.presenter.on = true;
        }
        if let Some((path, after)) = startup.screenshot {
            self.exports.auto_screenshot = Some(AutoScreenshot {
                png: path,
                after,
                asked: false,
                curves_csv: startup.curves_csv,
            });
            // Run to it at once: the warm-up flat out, then fast.
            self.playback.speed = super::playback::Speed::AsFastAsPossible;
            self.push(AppCommand::Playback(PlaybackCommand::Play));
        }
    }
}

/// `routelab app --screenshot PNG [--curves-csv CSV]`: what to save and
/// when.
#[derive(Clone, Debug)]
pub struct AutoScreenshot {
    /// The PNG of the whole window.
    pub png: std::path::PathBuf,
    /// The cycles to measure past the warm-up first.
    pub after: u64,
    /// The screenshot has been asked for.
    pub asked: bool,
    /// The live curves' rows, written in the frame the screenshot shows.
    pub curves_csv: Option<std::path::PathBuf>,
}

/// A tour file, checked as the built-in tours are.
fn parse_tour(text: &str) -> Result<Tour, String> {
    let tour: Tour =
        serde_json::from_str(text).map_err(|e| format!("not a valid tour file: {e}"))?;
    let presets = super::presets::all().0;
    let names: Vec<&str> = presets.iter().map(|p| p.source.as_str()).collect();
    let metrics: Vec<&str> = super::tour::METRICS.to_vec();
    let problems = super::tour::problems(
        &tour,
        &names,
        &super::panels::Panels::default().ids(),
        &metrics,
    );
    if problems.is_empty() {
        Ok(tour)
    } else {
        Err(problems.join("; "))
    }
}
