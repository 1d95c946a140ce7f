//! The patterns without options (most of the registry's): a name and a
//! function of the network that builds the destination law.

use super::kind::TrafficBuild;
use super::pattern::{Pattern, TrafficError, err};
use crate::rng::SimRng;
use crate::spec_options::Spec;
use crate::topology::Network;

/// A pattern without options, built by a function of the network, the
/// traffic stream and its name (for errors): most of the registry's.
#[derive(Debug)]
pub struct Fixed {
    name: &'static str,
    build: FixedBuild,
}

/// How a [`Fixed`] pattern is built.
pub type FixedBuild = fn(&Network, &mut SimRng, &str) -> Result<Pattern, TrafficError>;

impl TrafficBuild for Fixed {
    fn canonical(&self) -> String {
        self.name.to_string()
    }
    fn build(&self, net: &Network, rng: &mut SimRng) -> Result<Pattern, TrafficError> {
        (self.build)(net, rng, self.name)
    }
}

/// Parse `spec` as the option-less pattern `name` built by `build`.
pub fn fixed(
    spec: &str,
    name: &'static str,
    build: FixedBuild,
) -> Result<Box<dyn TrafficBuild>, TrafficError> {
    Spec::split(spec)
        .options(0, &[])
        .map_err(|e| err(spec, e.to_string()))?;
    Ok(Box::new(Fixed { name, build }))
}
