//! Following a routing by hand, without a simulation: from a source host,
//! take the first candidate at every switch until the destination switch.
//! Tests use it to check routes hop by hop; the engine uses it to count the
//! switches of the static route an acknowledgement takes back.

use super::{BufferView, Candidate, Candidates, Hop, PacketInfo, RouteState, Routing, Source};
use crate::rng::SimRng;
use crate::topology::{HostId, Network, Peer, PortId, SwitchId};

/// Why a walk stopped before the destination.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    #[error("no candidate at switch {at}")]
    NoCandidate { at: SwitchId },
    #[error("at switch {at} the first candidate {candidate:?} leads to {peer:?}, not a switch")]
    DeadEnd {
        at: SwitchId,
        candidate: Candidate,
        peer: Peer,
    },
    #[error("no arrival after {hops} hops: the route loops")]
    Loop { hops: usize },
}

/// Every buffer has one free slot.
struct Idle;
impl BufferView for Idle {
    fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
        1
    }
}

/// One hop of a walk: the switch, the candidate taken there and every
/// candidate offered.
#[derive(Clone, Debug)]
pub struct Step {
    pub at: SwitchId,
    pub taken: Candidate,
    pub offered: Candidates,
}

/// Walk `routing` from host `src` to host `dst` on an idle network at cycle
/// `now`, taking the first candidate at every switch: the hops, in order
/// (empty when both hosts share a switch). Like the engine, it stops at the
/// destination switch only where the routing lets the packet leave
/// ([`Routing::may_eject`]).
pub fn walk(
    net: &Network,
    routing: &mut dyn Routing,
    src: HostId,
    dst: HostId,
    now: u64,
    rng: &mut SimRng,
) -> Result<Vec<Step>, WalkError> {
    let (s, d) = (net.host(src), net.host(dst));
    let pkt = PacketInfo {
        src_host: src,
        dst_host: dst,
        src_switch: s.switch,
        dst_switch: d.switch,
        flits: 1,
    };
    let mut state = RouteState::default();
    routing.at_source(Source {
        now,
        pkt: &pkt,
        state: &mut state,
        rng,
    });
    let (mut at, mut in_port) = (s.switch, s.port);
    let mut steps = Vec::new();
    let limit = 4 * net.num_switches() + 4;
    while at != d.switch || (routing.passes_destination() && !routing.may_eject(at, &state)) {
        let mut out = Candidates::default();
        routing.route(
            Hop {
                at,
                in_port,
                now,
                pkt: &pkt,
                state: &mut state,
                view: &Idle,
                rng,
            },
            &mut out,
        );
        let taken = *out
            .as_slice()
            .first()
            .ok_or(WalkError::NoCandidate { at })?;
        let peer = net
            .ports(at)
            .get(taken.port as usize)
            .map(|p| p.peer)
            .unwrap_or(Peer::Unconnected);
        let Peer::Switch { switch, port } = peer else {
            return Err(WalkError::DeadEnd {
                at,
                candidate: taken,
                peer,
            });
        };
        steps.push(Step {
            at,
            taken,
            offered: out,
        });
        if steps.len() > limit {
            return Err(WalkError::Loop { hops: steps.len() });
        }
        at = switch;
        in_port = port;
    }
    Ok(steps)
}
