//! The system file dialog of the desktop app (not on the web, which
//! downloads and uploads instead): "Save as…", "Open…" and the File menu's
//! "… to…" exports.
//!
//! The dialog ([`rfd`]; on Linux through xdg-desktop-portal, with libdbus
//! loaded at run time) runs on its own thread so the UI keeps drawing. Its
//! answer comes back on a channel that [`FileDialogs::poll`] reads once per
//! frame, and `RoutelabApp::apply_dialog_reply` acts on it. Where no
//! dialog can appear (no D-Bus session bus or no portal, as on a headless CI
//! box) the answer is [`Outcome::Unavailable`] and the message line says to
//! type a path instead: the typed path of the "Scenario file" window and the
//! plain exports keep working either way. Tests play the dialog through
//! [`FileDialogs::open_with`] and never open a real one.

use super::{AppCommand, RoutelabApp, export};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

pub use super::file_purpose::Purpose;

/// How a dialog ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The person chose this file.
    Picked(PathBuf),
    /// The dialog was closed without a file.
    Cancelled,
    /// No dialog could be shown, for this reason.
    Unavailable(String),
}

/// A finished dialog: what it was for and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub purpose: Purpose,
    pub outcome: Outcome,
}

/// Why no dialog appeared, as far as the app can tell (rfd uses
/// xdg-desktop-portal on Linux and the BSDs).
pub const NOT_RUNNING: &str = if cfg!(any(
    target_os = "linux",
    target_os = "freebsd",
    target_os = "dragonfly",
    target_os = "netbsd",
    target_os = "openbsd"
)) {
    "xdg-desktop-portal not running"
} else {
    "the system dialog did not open"
};

/// An answer without a file faster than this means no dialog appeared
/// (nobody cancels a dialog before it has been drawn).
const TOO_FAST: Duration = Duration::from_millis(400);

/// Hover text of the dialog buttons while a dialog is open.
const BUSY: &str = "A file dialog is already open: finish it first";

/// The dialog in flight, if any (at most one), and the folder of the last
/// file chosen.
#[derive(Debug, Default)]
pub struct FileDialogs {
    pending: Option<(Purpose, Receiver<Outcome>)>,
    last_dir: Option<PathBuf>,
}

impl FileDialogs {
    /// Whether a dialog is open (its answer has not been read yet).
    pub fn is_open(&self) -> bool {
        self.pending.is_some()
    }

    /// Wait for a dialog for `purpose` whose answer comes on the returned
    /// channel. [`FileDialogs::open`] hands it to the dialog thread; tests
    /// answer on it themselves. Any dialog in flight is forgotten.
    pub fn open_with(&mut self, purpose: Purpose) -> Sender<Outcome> {
        let (tx, rx) = mpsc::channel();
        self.pending = Some((purpose, rx));
        tx
    }

    /// Open the system dialog for `purpose` on its own thread, starting at
    /// `suggested` (its folder and file name). Never blocks; the answer
    /// comes through [`FileDialogs::poll`].
    pub fn open(&mut self, purpose: Purpose, suggested: &Path, ctx: &egui::Context) {
        let tx = self.open_with(purpose);
        if !dialog_possible() {
            let _ = tx.send(Outcome::Unavailable(NOT_RUNNING.into()));
            return;
        }
        let dir = suggested.parent().map(Path::to_path_buf);
        let name = suggested
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let started = Instant::now();
                let picked = run_dialog(purpose, dir, name);
                let _ = tx.send(classify(picked, started.elapsed()));
                ctx.request_repaint();
            });
        if let Err(e) = spawned {
            let _ = self.open_with(purpose).send(Outcome::Unavailable(format!(
                "could not start a thread: {e}"
            )));
        }
    }

    /// Stop waiting for the dialog in flight: its buttons work again and a
    /// late answer is dropped. For a desktop portal that accepted the
    /// request but never shows a dialog (or a dialog left on another
    /// workspace).
    pub fn forget(&mut self) {
        self.pending = None;
    }

    /// The finished dialog, if its answer has come. A dialog thread that
    /// died without answering counts as no dialog.
    pub fn poll(&mut self) -> Option<Reply> {
        let (purpose, rx) = self.pending.as_ref()?;
        let outcome = match rx.try_recv() {
            Ok(outcome) => outcome,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Outcome::Unavailable(NOT_RUNNING.into()),
        };
        let purpose = *purpose;
        self.pending = None;
        if let Outcome::Picked(p) = &outcome {
            self.last_dir = p.parent().map(Path::to_path_buf);
        }
        Some(Reply { purpose, outcome })
    }

    /// Where the dialog starts for a file called `name`: the folder of the
    /// last chosen file, or the working directory.
    pub fn suggest(&self, name: &str) -> PathBuf {
        match &self.last_dir {
            Some(d) => d.join(name),
            None => absolute(Path::new(name)),
        }
    }

    /// A button that asks for the dialog for `purpose`; disabled while a
    /// dialog is open. Returns whether it was clicked.
    pub fn button(
        &self,
        ui: &mut egui::Ui,
        label: &str,
        hover: &str,
        purpose: Purpose,
        commands: &mut Vec<AppCommand>,
    ) -> bool {
        let clicked = ui
            .add_enabled(!self.is_open(), egui::Button::new(label))
            .on_hover_text(hover)
            .on_disabled_hover_text(BUSY)
            .clicked();
        if clicked {
            commands.push(AppCommand::OpenFileDialog(purpose));
        }
        clicked
    }
}

/// `path` against the working directory when relative.
pub fn absolute(path: &Path) -> PathBuf {
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The outcome of a dialog that returned `picked` after `elapsed`.
pub fn classify(picked: Option<PathBuf>, elapsed: Duration) -> Outcome {
    match picked {
        Some(p) => Outcome::Picked(p),
        None if elapsed < TOO_FAST => Outcome::Unavailable(NOT_RUNNING.into()),
        None => Outcome::Cancelled,
    }
}

/// Show the dialog and wait for it (on the dialog thread).
fn run_dialog(purpose: Purpose, dir: Option<PathBuf>, name: Option<String>) -> Option<PathBuf> {
    let (filter, ext) = purpose.filter();
    let mut d = rfd::FileDialog::new()
        .set_title(purpose.title())
        .add_filter(filter, &[ext]);
    if let Some(dir) = dir.filter(|d| d.is_dir()) {
        d = d.set_directory(dir);
    }
    if let Some(name) = name {
        d = d.set_file_name(name);
    }
    if purpose.saves() {
        d.save_file()
    } else {
        d.pick_file()
    }
}

/// Whether a system dialog can appear at all, checked without calling
/// anything: rfd needs a D-Bus session bus (for the portal) or `zenity`.
/// Elsewhere (Windows, macOS) the system always has one.
fn dialog_possible() -> bool {
    if !cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "dragonfly",
        target_os = "netbsd",
        target_os = "openbsd"
    )) {
        return true;
    }
    let env_set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    let bus = env_set("DBUS_SESSION_BUS_ADDRESS")
        || std::env::var_os("XDG_RUNTIME_DIR")
            .is_some_and(|d| !d.is_empty() && Path::new(&d).join("bus").exists());
    let zenity = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("zenity").is_file()));
    bus || zenity
}

impl RoutelabApp {
    /// Open the dialog for `purpose`, prefilled with the current file name.
    pub(super) fn open_file_dialog(&mut self, purpose: Purpose, ctx: &egui::Context) {
        let suggested = match purpose {
            Purpose::SaveScenario | Purpose::LoadScenario => {
                let typed = self.settings.file_path.trim();
                absolute(Path::new(if typed.is_empty() {
                    "scenario.json"
                } else {
                    typed
                }))
            }
            Purpose::ExportCurvesCsv => self.windows.file_dialogs.suggest("routelab-curves.csv"),
            Purpose::ExportPng => self.windows.file_dialogs.suggest("routelab-view.png"),
        };
        self.windows.file_dialogs.open(purpose, &suggested, ctx);
    }

    /// Act on a finished dialog: save, load or export to the chosen file.
    /// A chosen scenario file becomes the typed path once it has been saved
    /// or loaded; a bad file shows the same error as the typed path and
    /// changes nothing.
    pub(super) fn apply_dialog_reply(&mut self, reply: Reply, ctx: &egui::Context) {
        let path = match reply.outcome {
            Outcome::Picked(p) => p,
            Outcome::Cancelled => {
                self.info(format!("{}: no file chosen", reply.purpose.title()));
                return;
            }
            Outcome::Unavailable(why) => {
                self.error(format!(
                    "no file dialog available on this system ({why}); {}",
                    reply.purpose.fallback()
                ));
                return;
            }
        };
        match reply.purpose {
            Purpose::SaveScenario => {
                let json = self.session.scenario.to_json();
                match export::save_to(&path, json.as_bytes()) {
                    Ok(m) => {
                        self.settings.file_path = path.display().to_string();
                        self.info(m);
                    }
                    Err(e) => self.error(e),
                }
            }
            Purpose::LoadScenario => match export::load_text(&path) {
                Ok(text) => {
                    if self.load_scenario_text(&text) {
                        self.settings.file_path = path.display().to_string();
                    }
                }
                Err(e) => self.error(e),
            },
            Purpose::ExportCurvesCsv => {
                let csv = self.curves_csv();
                match export::save_to(&path, csv.as_bytes()) {
                    Ok(m) => self.info(m),
                    Err(e) => self.error(e),
                }
            }
            Purpose::ExportPng => {
                self.exports.png_path = Some(path);
                self.apply_command(AppCommand::ExportPng, ctx);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_empty_answer_means_no_dialog_and_a_late_one_a_cancel() {
        let p = PathBuf::from("/tmp/x.json");
        assert_eq!(
            classify(Some(p.clone()), Duration::ZERO),
            Outcome::Picked(p)
        );
        assert!(matches!(
            classify(None, Duration::from_millis(5)),
            Outcome::Unavailable(_)
        ));
        assert_eq!(classify(None, Duration::from_secs(3)), Outcome::Cancelled);
    }

    #[test]
    fn answers_come_through_the_channel_once() {
        let mut d = FileDialogs::default();
        assert_eq!(d.poll(), None);
        let tx = d.open_with(Purpose::ExportCurvesCsv);
        assert!(d.is_open());
        assert_eq!(d.poll(), None);
        tx.send(Outcome::Picked("/some/dir/c.csv".into())).unwrap();
        let r = d.poll().unwrap();
        assert_eq!(r.purpose, Purpose::ExportCurvesCsv);
        assert!(!d.is_open() && d.poll().is_none());
        assert_eq!(d.suggest("v.png"), PathBuf::from("/some/dir/v.png"));
        // A dialog thread that dies without answering counts as no dialog.
        drop(d.open_with(Purpose::LoadScenario));
        assert!(matches!(
            d.poll().map(|r| r.outcome),
            Some(Outcome::Unavailable(_))
        ));
    }
}
