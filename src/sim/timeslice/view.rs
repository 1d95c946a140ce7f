//! What a switch knows of its neighbours while it decides in a time slice:
//! their fill at the start of the slice (the paper's SwitchStatsInfo, sent
//! once per slice) with its own sends in this slice added, never what
//! other switches sent them in the same slice.

use crate::routing::BufferView;
use crate::topology::PortId;
use crate::topology::fat_tree_params::SwitchParams;

/// Marks a port that leads to a server (bit set on the receiver id).
pub(super) const HOST: u32 = 1 << 31;

/// One switch's view for [`crate::routing::Routing::route`].
pub(super) struct SliceView<'a> {
    /// Per port of the switch: the receiving switch, or `HOST | host`.
    pub to: &'a [u32],
    /// Per port: the receiver's fill at the start of the slice plus what
    /// this switch has offered it since (0 for servers).
    pub known: &'a [u32],
    pub params: &'a [SwitchParams],
}

impl BufferView for SliceView<'_> {
    /// The neighbour's free space as this switch knows it (servers always
    /// have room).
    fn free_slots(&self, port: PortId, _vc: u8) -> u32 {
        match self.to.get(port as usize) {
            Some(&r) if r & HOST == 0 => self.params[r as usize]
                .buffer
                .saturating_sub(self.known[port as usize]),
            Some(_) => u32::MAX / 2,
            None => 0,
        }
    }
    #[inline]
    fn occupancy(&self, port: PortId) -> Option<u32> {
        Some(self.known.get(port as usize).copied().unwrap_or(0))
    }
}
