//! Every switch model routelab has, by name ([`MODELS`]): how it is built,
//! what it accepts, its load range and unit and the set-up it needs (each
//! in the model's own file, as a [`SwitchModelEntry`](super::SwitchModelEntry)). A model joins
//! scenario files, `--switch-model` and its help, the app's list, the
//! scenario checks and the crate's property tests by being listed here.

use super::model_kind::SwitchModelKind;

impl SwitchModelKind {
    /// Input-queued virtual-channel switches with credit flow control
    /// ([`super::InputQueued`]; Dally and Towles ch. 16-19). The default.
    pub const INPUT_QUEUED: SwitchModelKind = SwitchModelKind::new(&super::input_queued::MODEL);
    /// Ideal output-queued switches with unbounded queues
    /// ([`super::OutputQueued`]): only the channels limit throughput, as in
    /// the channel-load analysis.
    pub const OUTPUT_QUEUED: SwitchModelKind = SwitchModelKind::new(&super::output_queued::MODEL);
    /// Synchronous time slices on a fat tree of unlike switches, a message
    /// per packet ([`super::TimeSlice`]; the weighted-path paper).
    pub const TIME_SLICE: SwitchModelKind = SwitchModelKind::new(&super::timeslice::MODEL);

    /// Every registered model, in registry order.
    pub const ALL: &'static [SwitchModelKind] = MODELS;

    /// A registered model by its name or an alias.
    pub fn parse(s: &str) -> Option<SwitchModelKind> {
        MODELS
            .iter()
            .copied()
            .find(|m| m.entry().name == s || m.entry().aliases.contains(&s))
    }

    /// Every registered name, comma-separated (for messages).
    pub fn accepted() -> String {
        MODELS
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `--switch-model`'s help: every model with its summary.
    pub fn help() -> String {
        let models: Vec<String> = MODELS
            .iter()
            .map(|m| format!("{} ({})", m.as_str(), m.entry().summary))
            .collect();
        format!(
            "Switch model: {} [scenario default: {}]",
            models.join("; "),
            SwitchModelKind::default().as_str()
        )
    }
}

/// Every switch model.
pub const MODELS: &[SwitchModelKind] = &[
    SwitchModelKind::INPUT_QUEUED,
    SwitchModelKind::OUTPUT_QUEUED,
    SwitchModelKind::TIME_SLICE,
];

impl Default for SwitchModelKind {
    fn default() -> Self {
        SwitchModelKind::INPUT_QUEUED
    }
}

impl std::str::FromStr for SwitchModelKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SwitchModelKind::parse(s).ok_or_else(|| {
            format!(
                "unknown switch model `{s}`; accepted: {}",
                SwitchModelKind::accepted()
            )
        })
    }
}

impl<'de> serde::Deserialize<'de> for SwitchModelKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        SwitchModelKind::parse(&s).ok_or_else(|| {
            let names: Vec<String> = MODELS.iter().map(|m| format!("`{m}`")).collect();
            serde::de::Error::custom(format!(
                "unknown variant `{s}`, expected one of {}",
                names.join(", ")
            ))
        })
    }
}
