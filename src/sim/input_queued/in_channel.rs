//! One input channel's hot-path state in one record ([`InChannel`]), a
//! leaf that the engine's array views (`unchecked.rs`, `lane.rs`) and the
//! allocator share.

/// Per input channel state used together on the hot path (one bounds check
/// and one cache line instead of one per field).
#[derive(Clone, Copy, Debug)]
pub(super) struct InChannel {
    /// Bit x set when VC x holds flits.
    pub(super) nonempty: u16,
    /// Bit x set when VC x holds an output VC.
    pub(super) active: u16,
    /// Round-robin pointer of the input port's VC arbiter: the VC it
    /// starts from, or V, which means 0 (the deterministic wormhole router
    /// does not wrap it, `allocation.rs`).
    pub(super) rr: u8,
    /// Downstream switch.
    pub(super) switch: u32,
    /// Index in the switch's `in_ports` slice (its busy-port bit).
    pub(super) index: u32,
}
