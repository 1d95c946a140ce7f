//! `routelab app [FILE] [--play] [--presenter]`: open the desktop app on a
//! scenario, preset, guided tour or recorded demo, so a talk or a lab starts
//! on the right screen with one command. The file is read and checked here,
//! before any window opens: a bad file exits with code 2 and says why.

use super::CliError;
use std::path::PathBuf;

/// `routelab app`'s arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct AppArgs {
    /// A scenario or preset file (`assets/scenarios/*.json`), a guided tour
    /// (`assets/tours/*.json`) or a recorded demo (`demo.json`, F6).
    pub file: Option<PathBuf>,
    /// Start playing at once (a tour or a demo plays its own steps).
    #[arg(long)]
    pub play: bool,
    /// Start in presenter mode (F5): large type, the room to the views.
    #[arg(long)]
    pub presenter: bool,
    /// The window's inner size in points, e.g. `1280x800`.
    #[arg(long, value_name = "WxH", value_parser = parse_window)]
    pub window: Option<(u32, u32)>,
    /// Save a PNG of the whole window to this file once the simulation has
    /// measured `--screenshot-after` cycles past its warm-up, then close
    /// (for scripts: `scripts/screenshots.sh`).
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Cycles (slices on the time-slice model) to measure after the warm-up
    /// before `--screenshot` is taken.
    #[arg(
        long,
        value_name = "CYCLES",
        default_value_t = 3000,
        requires = "screenshot"
    )]
    pub screenshot_after: u64,
    /// With `--screenshot`: also write what the two live plots draw, when
    /// the screenshot is taken, to this CSV file (the table of File →
    /// Export curves as CSV: one row per plotted window and run).
    #[arg(long, value_name = "CSV", requires = "screenshot")]
    pub curves_csv: Option<PathBuf>,
}

/// `WxH`, each from 320 to 7680.
fn parse_window(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}`: expected WIDTHxHEIGHT, each 320 to 7680, e.g. 1280x800");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(320..=7680).contains(&w) || !(320..=7680).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

/// What a file given to `routelab app` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFile {
    /// A scenario (a preset is a scenario file); its JSON text.
    Scenario(String),
    /// A guided tour; its JSON text.
    Tour(String),
    /// A recorded demo; its JSON text.
    Demo(String),
}

/// How the app should start.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Startup {
    pub file: Option<StartFile>,
    pub play: bool,
    pub presenter: bool,
    /// The window's inner size in points.
    pub window: Option<(u32, u32)>,
    /// A PNG of the window to save, and the cycles to measure first.
    pub screenshot: Option<(PathBuf, u64)>,
    /// The live curves' CSV to write with the screenshot.
    pub curves_csv: Option<PathBuf>,
}

impl AppArgs {
    /// Read and classify the file: a JSON object with `steps` is a tour,
    /// one a demo reader accepts is a demo, anything else must parse as a
    /// scenario. Every failure names the file and the problem.
    pub fn startup(&self) -> Result<Startup, CliError> {
        let file = match &self.file {
            None => None,
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    CliError::Input(format!("cannot read `{}`: {e}", path.display()))
                })?;
                Some(classify(&text).map_err(|e| {
                    CliError::Input(format!("`{}` cannot be opened: {e}", path.display()))
                })?)
            }
        };
        // Before the window opens, as for the file.
        if let Some(path) = &self.screenshot {
            super::check_output("--screenshot", path)?;
        }
        if let Some(path) = &self.curves_csv {
            super::check_output("--curves-csv", path)?;
        }
        Ok(Startup {
            file,
            play: self.play,
            presenter: self.presenter,
            window: self.window,
            screenshot: self.screenshot.clone().map(|p| (p, self.screenshot_after)),
            curves_csv: self.curves_csv.clone(),
        })
    }
}

/// Which kind of file `text` is, checked as that kind.
pub fn classify(text: &str) -> Result<StartFile, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("it is not JSON ({e})"))?;
    let Some(obj) = value.as_object() else {
        return Err("expected a JSON object: a scenario, a guided tour or a recorded demo".into());
    };
    if obj.contains_key("steps") && obj.contains_key("id") {
        return Ok(StartFile::Tour(text.to_string()));
    }
    if obj.contains_key("demo") {
        return Ok(StartFile::Demo(text.to_string()));
    }
    crate::scenario::Scenario::from_json(text)
        .map_err(|e| format!("as a scenario: {}", e.problems.join("; ")))?;
    Ok(StartFile::Scenario(text.to_string()))
}

/// `routelab app` in a build without the GUI (`--no-default-features`, as
/// `scripts/test.sh` builds the core): say so and how to get the app.
pub fn without_gui() -> CliError {
    CliError::Input(
        "this routelab was built without the GUI (cargo build --no-default-features); \
         build the app with `cargo build --release` (or run `cargo run --release -- app FILE`)"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::AppArgs;

    fn with_screenshot(path: &str) -> AppArgs {
        AppArgs {
            file: None,
            play: false,
            presenter: false,
            window: None,
            screenshot: Some(path.into()),
            screenshot_after: 10,
            curves_csv: None,
        }
    }

    /// A screenshot that could not be saved is refused before the window
    /// opens, not after the run it was to show.
    #[test]
    fn an_unwritable_screenshot_is_refused_before_the_window_opens() {
        let Err(e) = with_screenshot("/no-such-directory/shot.png").startup() else {
            panic!("a screenshot into a missing directory was accepted");
        };
        assert_eq!(e.exit_code(), std::process::ExitCode::from(2));
        let e = e.message();
        assert!(e.contains("--screenshot"), "{e}");
        assert!(e.contains("does not exist"), "{e}");
        let dir = std::env::temp_dir();
        assert!(
            with_screenshot(&dir.join("shot.png").display().to_string())
                .startup()
                .is_ok()
        );
    }
}
