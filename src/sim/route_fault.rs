//! Why a head could not be routed, and the one routing that cannot fail
//! but for a missing answer: a table's ([`table_answer`], and one switch
//! ahead [`table_lookup`]).

use crate::routing::NO_ANSWER;
use crate::routing::{Candidate, PairTable};
use crate::sim::packet::Packet;
use crate::topology::{Network, SwitchId};
use std::sync::Arc;

/// A head could not be routed; the details wait in the endpoint layer
/// (`Endpoints::take_fault`), so the hot path only tests a unit error.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Faulted;

/// Why a head could not be routed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RouteFault {
    /// The routing offered nothing.
    NoRoute {
        switch: SwitchId,
        epoch: u16,
        dst: SwitchId,
    },
    /// The routing offered a port or a VC range that does not exist.
    BadCandidate {
        switch: SwitchId,
        epoch: u16,
        candidate: Candidate,
        ports: usize,
        vcs: u8,
    },
}

/// A head's route when every routing epoch answers from its table
/// (`Endpoints::only_tables`): the switch is counted, the destination
/// switch offers its host's port (every VC `0..vcs`), any other switch the
/// epoch's table's answer; one candidate, which the deterministic wormhole
/// router's loop takes as it is (no candidate list to fill and walk).
#[inline(always)]
pub(crate) fn table_answer(
    pkt: &mut Packet,
    at: SwitchId,
    net: &Network,
    tables: &[Option<Arc<PairTable>>],
    vcs: u8,
) -> Result<Candidate, RouteFault> {
    // Hops are counted here, where the packet is at hand anyway: once per
    // switch its head is routed at.
    pkt.switches = pkt.switches.saturating_add(1);
    table_lookup(pkt, at, net, tables, vcs).ok_or(RouteFault::NoRoute {
        switch: at,
        epoch: pkt.epoch,
        dst: pkt.info.dst_switch,
    })
}

/// The table's answer for `pkt`'s head at switch `at`: its host's port at
/// the destination switch, else the packet's epoch's table's answer.
/// [`table_answer`] without the count and the fault; with it a switch
/// looks up the answer one switch ahead (lookahead routing: a head's
/// answer at the switch it is sent to, `input_queued`'s `Ahead`).
#[inline(always)]
pub(crate) fn table_lookup(
    pkt: &Packet,
    at: SwitchId,
    net: &Network,
    tables: &[Option<Arc<PairTable>>],
    vcs: u8,
) -> Option<Candidate> {
    let dst = pkt.info.dst_switch;
    if dst == at {
        return Some(Candidate {
            port: net.host(pkt.info.dst_host).port,
            vc_lo: 0,
            vc_hi: vcs - 1,
        });
    }
    // The tables were checked when their routings were adopted.
    if let Some(Some(table)) = tables.get(pkt.epoch as usize) {
        let c = table.entry(at, dst);
        if c.port != NO_ANSWER.port {
            return Some(c);
        }
    }
    None
}
