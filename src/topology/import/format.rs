//! The file formats a fabric can be read from, by their spec prefixes.

use std::fmt;

/// The file formats a fabric can be read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FabricFormat {
    /// `ibnetdiscover` output (infiniband-diags).
    IbNetDiscover,
    /// ibsim's network file (ibnetdiscover's records plus ibsim's `Hca`
    /// nodes, `w=`/`s=`/`e=` port options and cables listed once).
    IbSim,
    /// BookSim2's `anynet` network file.
    AnyNet,
}

impl FabricFormat {
    /// Every format, in the order the spec parser tries them.
    pub const ALL: [FabricFormat; 3] = [
        FabricFormat::IbNetDiscover,
        FabricFormat::IbSim,
        FabricFormat::AnyNet,
    ];

    /// The spec prefix (`ibnetdiscover`, `ibsim`, `anynet`).
    pub fn name(self) -> &'static str {
        match self {
            FabricFormat::IbNetDiscover => "ibnetdiscover",
            FabricFormat::IbSim => "ibsim",
            FabricFormat::AnyNet => "anynet",
        }
    }

    /// The format of a spec prefix.
    pub fn from_name(name: &str) -> Option<FabricFormat> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for FabricFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
