//! The fabric formats' entries in the topology registry
//! (`ibnetdiscover:PATH`, `ibsim:PATH`, `anynet:PATH`): a spec names the
//! format and the file; building reads the file ([`super::read`]) and
//! parses it in its format ([`super::parse`]).

use super::format::FabricFormat;
use crate::limits::NetworkSize;
use crate::topology::irregular::IRREGULAR_CONTRASTS;
use crate::topology::kind::{TopologyBuild, TopologyKind, TopologyParam};
use crate::topology::spec_parts::path_of;
use crate::topology::{Network, TopologyError};

const PATH: &[TopologyParam] = &[TopologyParam {
    key: "PATH",
    accepted: "a readable text file, or a bundled example's path (the only ones in the browser)",
    default: "",
    meaning: "the fabric file",
}];

/// `ibnetdiscover:PATH`: infiniband-diags' `ibnetdiscover(8)` output.
pub const IBNETDISCOVER: TopologyKind = TopologyKind {
    name: "ibnetdiscover",
    aliases: &[],
    form: "ibnetdiscover:PATH",
    summary: "a fabric as ibnetdiscover(8) lists it (at most 2048 switches, 255 ports each)",
    params: PATH,
    example: "ibnetdiscover:assets/fabrics/fattree-4x2-ibnetdiscover.txt",
    from_file: true,
    contrasts: IRREGULAR_CONTRASTS,
    parse: |spec| fabric(FabricFormat::IbNetDiscover, spec),
};

/// `ibsim:PATH`: ibsim's network file.
pub const IBSIM: TopologyKind = TopologyKind {
    name: "ibsim",
    aliases: &[],
    form: "ibsim:PATH",
    summary: "a fabric in ibsim's network-file dialect",
    params: PATH,
    example: "ibsim:assets/fabrics/fattree-4x2.ibsim",
    from_file: true,
    contrasts: IRREGULAR_CONTRASTS,
    parse: |spec| fabric(FabricFormat::IbSim, spec),
};

/// `anynet:PATH`: BookSim2's anynet file.
pub const ANYNET: TopologyKind = TopologyKind {
    name: "anynet",
    aliases: &[],
    form: "anynet:PATH",
    summary: "a network in BookSim2's anynet format",
    params: PATH,
    example: "anynet:assets/fabrics/fattree-4x2.anynet",
    from_file: true,
    contrasts: IRREGULAR_CONTRASTS,
    parse: |spec| fabric(FabricFormat::AnyNet, spec),
};

fn fabric(format: FabricFormat, spec: &str) -> Result<Box<dyn TopologyBuild>, TopologyError> {
    Ok(Box::new(FabricSpec {
        format,
        path: path_of(spec, format.name())?.to_string(),
    }))
}

/// A fabric read from another tool's file ([`super`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FabricSpec {
    format: FabricFormat,
    path: String,
}

impl TopologyBuild for FabricSpec {
    fn canonical(&self) -> String {
        format!("{}:{}", self.format, self.path)
    }
    fn size(&self) -> Option<NetworkSize> {
        None
    }
    fn build(&self, spec: String) -> Result<Network, TopologyError> {
        let text = super::read(&self.path)?;
        super::parse(self.format, spec, &self.path, &text)
    }
}
