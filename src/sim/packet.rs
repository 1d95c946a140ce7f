//! Packets in flight, in a slab indexed by `u32` so flits stay small.

use crate::routing::{PacketInfo, RouteState};

/// The epoch of acknowledgement packets (they are routed by the engine's
/// acknowledgement routing, not by a routing epoch).
pub const ACK_EPOCH: u16 = u16::MAX;

/// A packet that has left its source host.
///
/// Exactly one cache line (checked by a test): the simulator reads the
/// packet at every switch its head is routed at, so the fields the routing
/// reads come first and nothing straddles two lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Packet {
    pub info: PacketInfo,
    /// Cycles its head has spent blocked in the network so far (see
    /// [`crate::routing::Feedback::blocked_cycles`]); kept only in runs that
    /// read it (feedback or per-pair statistics), else 0.
    pub blocked: u32,
    /// Cycle the packet was generated (entered the source queue).
    pub gen_cycle: u64,
    pub route: RouteState,
    /// Which routing (live swap epoch) routes it; [`ACK_EPOCH`] for an
    /// acknowledgement.
    pub epoch: u16,
    /// Switches whose routing the packet's head has passed so far, the
    /// source and (once there) the destination switch included: its
    /// switch-to-switch hops are one fewer.
    pub switches: u16,
    /// Cycles it waited in its source queue (saturating): its head left the
    /// source host at `gen_cycle + queued`.
    pub queued: u32,
}

impl Packet {
    /// Cycle its head left the source host.
    pub fn inject_cycle(&self) -> u64 {
        self.gen_cycle + self.queued as u64
    }
    /// True for an acknowledgement packet.
    pub fn is_ack(&self) -> bool {
        self.epoch == ACK_EPOCH
    }
}

/// Slab of packets with a free list.
#[derive(Clone, Debug, Default)]
pub struct PacketSlab {
    slots: Vec<Packet>,
    free: Vec<u32>,
    live: usize,
}

impl PacketSlab {
    pub fn insert(&mut self, p: Packet) -> u32 {
        self.live += 1;
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = p;
            i
        } else {
            self.slots.push(p);
            (self.slots.len() - 1) as u32
        }
    }
    pub fn remove(&mut self, id: u32) {
        self.live -= 1;
        self.free.push(id);
    }
    /// Ask the cache for packet `id`'s record (`sim/prefetch.rs`).
    #[inline(always)]
    pub(crate) fn prefetch(&self, id: u32) {
        super::prefetch::prefetch(&self.slots, id as usize);
    }
    #[inline]
    pub fn get(&self, id: u32) -> &Packet {
        &self.slots[id as usize]
    }
    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut Packet {
        &mut self.slots[id as usize]
    }
    /// Every slot (live or free), for the two threads of one cycle's
    /// allocation to update each the packets at its own switches
    /// ([`crate::sim::shared_hops::SharedHops`]).
    pub(crate) fn slots_mut(&mut self) -> &mut [Packet] {
        &mut self.slots
    }
    /// Packets in the network (injected, not yet fully delivered).
    pub fn live(&self) -> usize {
        self.live
    }
    /// The live packets (linear in the slots; for end-of-run accounting).
    pub fn live_packets(&self) -> impl Iterator<Item = &Packet> {
        let live = self.live_mask();
        self.slots
            .iter()
            .zip(live)
            .filter_map(|(p, l)| l.then_some(p))
    }
    /// For every slot id, whether it holds a live packet (for invariant
    /// checks; linear in the slots).
    pub fn live_mask(&self) -> Vec<bool> {
        let mut mask = vec![true; self.slots.len()];
        for &f in &self.free {
            mask[f as usize] = false;
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_packet_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<super::Packet>(), 64);
    }
}
