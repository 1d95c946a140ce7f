//! What a file chosen in the system file dialog is for ([`Purpose`]): its
//! title, whether it saves, its filter. A leaf, so that the commands
//! ([`super::app_command`]) can name a purpose without importing the
//! dialog, which pushes commands.

/// What the chosen file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    SaveScenario,
    LoadScenario,
    ExportCurvesCsv,
    ExportPng,
}

impl Purpose {
    /// Whether the dialog asks for a file to write (not one to read).
    pub fn saves(self) -> bool {
        self != Purpose::LoadScenario
    }

    /// The dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            Purpose::SaveScenario => "Save scenario",
            Purpose::LoadScenario => "Open scenario",
            Purpose::ExportCurvesCsv => "Export curves as CSV",
            Purpose::ExportPng => "Export view as PNG",
        }
    }

    /// The file-type filter: its name and the one extension it shows.
    pub fn filter(self) -> (&'static str, &'static str) {
        match self {
            Purpose::SaveScenario | Purpose::LoadScenario => ("Scenario (JSON)", "json"),
            Purpose::ExportCurvesCsv => ("Curves (CSV)", "csv"),
            Purpose::ExportPng => ("Image (PNG)", "png"),
        }
    }

    /// What to do instead when no dialog can appear.
    pub fn fallback(self) -> &'static str {
        match self {
            Purpose::SaveScenario | Purpose::LoadScenario => "type a path instead",
            Purpose::ExportCurvesCsv => {
                "use \"Export curves as CSV\" instead (writes routelab-curves.csv in the working directory)"
            }
            Purpose::ExportPng => {
                "use \"Export view as PNG\" instead (writes routelab-view.png in the working directory)"
            }
        }
    }
}
