//! ibsim's network files (`ibsim:PATH`), the format of ibsim's
//! `net-examples` (linux-rdma/ibsim): ibnetdiscover's records, read with
//! [`super::ibnetdiscover::Dialect::IbSim`]:
//!
//! ```text
//! Switch 8 "Switch1"
//! [1] "Hca1"[1]
//! [3] "Switch2"[3]   w=2 s=4
//!
//! Hca 2 "Hca1"
//! [1] "Switch1"[1]
//! ```
//!
//! Beyond ibnetdiscover's output it accepts `Hca` nodes, a missing far
//! port (`[P] "NODEID"`, port 1, as ibsim assumes), the port options
//! `w=` (LinkWidthEnabled), `s=` (LinkSpeedEnabled) and `e=`
//! (LinkSpeedExtEnabled) as link width and speed, GUID header lines as
//! bases numbering the following nodes of their type (as ibsim does), and
//! a cable listed from one end only. ibsim's `include`, `do` and `@alias`
//! extensions are refused with the line. Node descriptions may be quoted
//! or bare after `#`.

use super::RawFabric;
use super::ibnetdiscover::{Dialect, parse_records};
use crate::topology::TopologyError;

/// Parse an ibsim network file.
pub fn parse(path: &str, text: &str) -> Result<RawFabric, TopologyError> {
    parse_records(path, text, Dialect::IbSim)
}

#[cfg(test)]
mod tests {
    use super::super::{FabricFormat, parse as build};

    /// ibsim's own `net-examples/net.2sw2path4hca`, retyped: two switches
    /// joined by two cables, two adapters on each, every cable listed twice.
    const EXAMPLE: &str = "\
# Net configuration file example
Switch\t8 \"Switch1\"
[1]\t\"Hca1\"[1]
[2]\t\"Hca3\"[1]
[3]\t\"Switch2\"[3]
[5]\t\"Switch2\"[5]

Switch 8 \"Switch2\"
[1]\t\"Hca2\"[1]
[2]\t\"Hca4\"[1]
[3]\t\"Switch1\"[3]
[5]\t\"Switch1\"[5]

Hca\t2 \"Hca1\"
[1]\t\"Switch1\"[1]

Hca\t2 \"Hca2\"
[1]\t\"Switch2\"[1]

Hca\t2 \"Hca3\"
[1]\t\"Switch1\"[2]

Hca \t2 \"Hca4\"
[1]\t\"Switch2\"[2]
";

    #[test]
    fn reads_the_net_examples_format() {
        let net = build(FabricFormat::IbSim, "ibsim:t".into(), "t", EXAMPLE).unwrap();
        assert_eq!(net.num_switches(), 2);
        assert_eq!(net.num_hosts(), 4);
        assert_eq!(net.num_network_channels(), 4);
        // ibnetdiscover's stricter reading accepts it too (every cable twice)...
        assert!(
            build(FabricFormat::IbNetDiscover, "x".into(), "t", EXAMPLE).is_err(),
            "Hca is ibsim's"
        );
    }

    #[test]
    fn one_sided_listings_and_options() {
        let text =
            "Switch 4 \"a\"\n[1] \"b\" w=2 s=4\n[2] \"h\"[1]\n\nSwitch 4 \"b\"\n\nHca 1 \"h\"\n";
        let net = build(FabricFormat::IbSim, "ibsim:t".into(), "t", text).unwrap();
        assert_eq!(net.num_network_channels(), 2);
        assert_eq!(net.num_hosts(), 1);
        let f = net.fabric().unwrap();
        assert_eq!(f.cables[0].link.as_deref(), Some("4xQDR"));
        assert_eq!(f.cables[0].b_port, 1, "far port defaults to 1");
    }
}
