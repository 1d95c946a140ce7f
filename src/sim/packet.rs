//! Packets in flight, in a slab indexed by `u32` so flits stay small.

use crate::routing::{PacketInfo, RouteState};

/// A packet that has left its source host.
/// (Aligned to a cache line: its 56 bytes would otherwise straddle two lines
/// in the slab about every other packet, and the simulator reads the packet
/// at every switch its head is routed at.)
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct Packet {
    pub info: PacketInfo,
    pub route: RouteState,
    /// Cycle the packet was generated (entered the source queue).
    pub gen_cycle: u64,
    /// Cycle its head left the source host.
    pub inject_cycle: u64,
    /// Which routing (live swap epoch) routes it.
    pub epoch: u16,
    /// Switches whose routing the packet's head has passed so far, the
    /// source and (once there) the destination switch included: its
    /// switch-to-switch hops are one fewer.
    pub switches: u16,
    /// Flits delivered to the destination host so far.
    pub received: u16,
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
    #[inline]
    pub fn get(&self, id: u32) -> &Packet {
        &self.slots[id as usize]
    }
    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut Packet {
        &mut self.slots[id as usize]
    }
    /// Packets in the network (injected, not yet fully delivered).
    pub fn live(&self) -> usize {
        self.live
    }
}
