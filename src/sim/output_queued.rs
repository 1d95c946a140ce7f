//! The output-queued switch (`switch_model=output-queued`): an ideal switch
//! that takes the router out of the way, so that what limits throughput is
//! the channels alone, as in the channel-load analysis ([`crate::analysis`];
//! Dally and Towles §3.3 and ch. 17: an output-queued switch with unbounded
//! queues is the reference a real router's allocator is measured against).
//!
//! A packet whose head reaches a switch is routed at once and joins the
//! queue of the output channel its routing (and the selection) picks; every
//! channel sends the packets of its queue one after another, one flit per
//! cycle, first come first served. Queues are unbounded, so there is no
//! backpressure, no head-of-line blocking between outputs and no deadlock
//! (virtual channels play no part; a routing's VC ranges are still
//! checked). Packets move as a whole (virtual cut-through): a head leaves as
//! soon as its output is free; with `switching=saf` it also waits for its
//! tail (L-1 cycles after the head). Wormhole and VCT behave alike here,
//! since every buffer has room for every packet.
//!
//! Timing is the input-queued router's: a head reaches the next switch
//! `link_latency + switch_delay` cycles after it leaves, a host after
//! `link_latency`; the zero-load latency of an L-flit packet crossing H
//! switches is `H·(link_latency + switch_delay) + link_latency + L - 1`.
//!
//! Selection: `fixed` takes the routing's first candidate; `first-free` and
//! `adaptive` take the candidate whose queue holds the fewest flits (ties:
//! routing order). Acknowledgement packets queue ahead of data at every
//! output.
//!
//! Past saturation the queues grow without bound; the host injection
//! channel (one flit per cycle) bounds the growth.
//!
//! Per cycle the model visits only what has work: the hosts with something
//! queued (the endpoint layer's ready hosts) and the output channels that
//! hold flits (a bit per channel), each in index order, as a scan of
//! every host and channel would; so its cost follows the packets, not the
//! network's size.

use super::bits::ones;
use super::config::{RouterConfig, Switching};
use super::endpoints::Endpoints;
use super::error::SimError;
use super::model::SwitchModel;
use super::model_kind::{CYCLES, SwitchModelEntry, per_cycle_routing, same_router};
use super::timewheel::TimeWheel;
use crate::routing::{BufferView, Candidates, Selection};
use crate::topology::{ChannelId, ChannelKind, Endpoint, Network, PortId, SwitchId};
use std::collections::VecDeque;
use std::sync::Arc;

/// A packet waiting for an output channel.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    packet: u32,
    /// Flits of the packet.
    flits: u16,
    /// Cycle it may leave at the earliest (SAF: its tail is in).
    ready: u64,
}

/// One output channel: its queues (acknowledgements first) and when its
/// current packet finishes.
#[derive(Clone, Debug, Default)]
struct Output {
    acks: VecDeque<Waiting>,
    data: VecDeque<Waiting>,
    /// Flits queued (both queues).
    flits: u64,
    /// The channel is free from this cycle on.
    free_at: u64,
}

/// Output-queued switches with unbounded queues (module docs).
pub struct OutputQueued {
    net: Arc<Network>,
    packet_flits: u16,
    link_latency: u64,
    switch_delay: u64,
    saf: bool,
    selection: Selection,
    vcs: u8,
    /// Per channel (every channel, ejection included).
    outputs: Vec<Output>,
    /// Output channels of each switch, by port (`u32::MAX` where none).
    out_channel: Vec<Vec<u32>>,
    /// Heads due at a switch: (input channel, packet, flits).
    arrivals: TimeWheel<(u32, u32, u16)>,
    /// Flits due at a host: (packet, tail).
    deliveries: TimeWheel<(u32, bool)>,
    in_network: u64,
    /// Bit c set while output channel c holds flits (`flits > 0`), so the
    /// outputs' turn visits only those, not every channel's record.
    nonempty: Vec<u64>,
}

/// Free space as a routing sees it: a large constant less the flits
/// queued, so fuller queues look fuller.
struct QueueView<'a> {
    outputs: &'a [Output],
    out: &'a [u32],
}

impl BufferView for QueueView<'_> {
    fn free_slots(&self, port: PortId, _vc: u8) -> u32 {
        match self.out.get(port as usize) {
            Some(&c) if c != u32::MAX => {
                (1u64 << 30).saturating_sub(self.outputs[c as usize].flits) as u32
            }
            _ => 0,
        }
    }
    fn queued(&self, port: PortId) -> u32 {
        match self.out.get(port as usize) {
            Some(&c) if c != u32::MAX => self.outputs[c as usize].flits.min(u32::MAX as u64) as u32,
            _ => 0,
        }
    }
    fn channel_queued(&self, channel: ChannelId) -> Option<u32> {
        self.outputs
            .get(channel as usize)
            .map(|o| o.flits.min(u32::MAX as u64) as u32)
    }
}

impl OutputQueued {
    pub fn new(net: Arc<Network>, cfg: &RouterConfig) -> Self {
        let out_channel = (0..net.num_switches() as SwitchId)
            .map(|s| {
                net.ports(s)
                    .iter()
                    .map(|p| p.out_channel.unwrap_or(u32::MAX))
                    .collect()
            })
            .collect();
        let max_delay =
            (cfg.link_latency as u64 + cfg.switch_delay as u64) + cfg.packet_flits as u64;
        OutputQueued {
            outputs: vec![Output::default(); net.num_channels()],
            nonempty: vec![0; net.num_channels().div_ceil(64)],
            out_channel,
            packet_flits: cfg.packet_flits,
            link_latency: cfg.link_latency as u64,
            switch_delay: cfg.switch_delay as u64,
            saf: cfg.switching == Switching::StoreAndForward,
            selection: cfg.selection,
            vcs: cfg.vcs,
            arrivals: TimeWheel::new(max_delay),
            deliveries: TimeWheel::new(max_delay),
            in_network: 0,
            net,
        }
    }

    /// Host `h` starts the packet at the front of its queue if its
    /// injection channel is free; with nothing queued it leaves the ready
    /// set ([`Endpoints::host_idle`]).
    fn inject_at(&mut self, now: u64, h: usize, ep: &mut Endpoints) {
        let ch = self.net.injection_channel(h as u32);
        if self.outputs[ch as usize].free_at > now {
            return;
        }
        let Some(next) = ep.next_at(h) else {
            ep.host_idle(h);
            return;
        };
        let Some(id) = ep.start(h, now) else {
            return;
        };
        for _ in 0..next.flits {
            ep.flit_injected();
        }
        self.in_network += next.flits as u64;
        self.outputs[ch as usize].free_at = now + next.flits as u64;
        self.arrivals.schedule(
            now + self.link_latency + self.switch_delay,
            (ch, id, next.flits),
        );
    }

    /// A head reaches switch `s` on its port `port` in cycle `now`: route it
    /// and queue it at the chosen output.
    fn arrive(
        &mut self,
        now: u64,
        s: SwitchId,
        port: PortId,
        packet: u32,
        flits: u16,
        ep: &mut Endpoints,
    ) -> Result<(), SimError> {
        let mut cands = Candidates::default();
        let out = &self.out_channel[s as usize];
        let view = QueueView {
            outputs: &self.outputs,
            out,
        };
        // Virtual channels play no part here: every packet arrives on VC 0.
        ep.route::<true>(
            packet,
            s,
            port,
            0,
            now,
            &view,
            out.len(),
            self.vcs,
            &mut cands,
        )
        .map_err(|_| ep.take_fault())?;
        let connected = cands
            .as_slice()
            .iter()
            .filter(|c| out[c.port as usize] != u32::MAX);
        let chosen = match self.selection {
            Selection::Fixed => connected.map(|c| out[c.port as usize]).next(),
            Selection::FirstFree | Selection::Adaptive => connected
                .map(|c| out[c.port as usize])
                .min_by_key(|&ch| self.outputs[ch as usize].flits),
        };
        let Some(ch) = chosen else {
            return Err(SimError::NoRoute {
                routing: "the routing".into(),
                switch: s,
                dst: ep.packet(packet).info.dst_switch,
            });
        };
        let ready = if self.saf {
            now + flits as u64 - 1
        } else {
            now
        };
        let w = Waiting {
            packet,
            flits,
            ready,
        };
        let o = &mut self.outputs[ch as usize];
        if ep.packet(packet).is_ack() {
            o.acks.push_back(w);
        } else {
            o.data.push_back(w);
        }
        o.flits += flits as u64;
        self.nonempty[ch as usize / 64] |= 1 << (ch % 64);
        Ok(())
    }

    /// Channel `ch` sends the packet at the front of its queue, if it is
    /// free and the packet ready.
    fn send(&mut self, now: u64, ch: u32, ep: &mut Endpoints) {
        let o = &mut self.outputs[ch as usize];
        if o.free_at > now {
            return;
        }
        let front = match (o.acks.front(), o.data.front()) {
            (Some(a), _) if a.ready <= now => o.acks.pop_front(),
            (_, Some(d)) if d.ready <= now => o.data.pop_front(),
            _ => None,
        };
        let Some(w) = front else {
            return;
        };
        o.flits -= w.flits as u64;
        o.free_at = now + w.flits as u64;
        if o.flits == 0 {
            self.nonempty[ch as usize / 64] &= !(1 << (ch % 64));
        }
        let waited = now - w.ready;
        ep.head_left(w.packet, waited);
        ep.channel_traversal(ch as usize, true, waited);
        for _ in 1..w.flits {
            ep.channel_traversal(ch as usize, false, 0);
        }
        ep.progress(now);
        let c = self.net.channel(ch);
        match c.kind {
            ChannelKind::Ejection => {
                for i in 0..w.flits as u64 {
                    self.deliveries.schedule(
                        now + self.link_latency + i,
                        (w.packet, i + 1 == w.flits as u64),
                    );
                }
            }
            _ => self.arrivals.schedule(
                now + self.link_latency + self.switch_delay,
                (ch, w.packet, w.flits),
            ),
        }
    }
}

/// `switch_model = output-queued` in the switch-model registry.
pub const MODEL: SwitchModelEntry = SwitchModelEntry {
    name: "output-queued",
    aliases: &["output_queued", "oq"],
    summary: "ideal switches with unbounded output queues: only the channels limit throughput",
    unit: CYCLES,
    accepts: |_, routing| per_cycle_routing("output-queued", routing),
    router: same_router,
    deadlines: false,
    per_switch_params: false,
    router_params: true,
    build: |net, router, _seed| Ok(Box::new(OutputQueued::new(net, router))),
};

impl SwitchModel for OutputQueued {
    fn step(&mut self, now: u64, ep: &mut Endpoints) -> Result<(), SimError> {
        let due = self.deliveries.take(now);
        for &(packet, tail) in &due {
            self.in_network -= 1;
            ep.flit_delivered(now, packet, tail);
        }
        self.deliveries.give_back(now, due);
        let heads = self.arrivals.take(now);
        for &(ch, packet, flits) in &heads {
            let Endpoint::Switch { switch, port } = self.net.channel(ch).dst else {
                continue;
            };
            self.arrive(now, switch, port, packet, flits, ep)?;
        }
        self.arrivals.give_back(now, heads);
        // Hosts: the injection channel sends whole packets back to back.
        // Only the hosts with something queued are visited (the endpoint
        // layer's ready hosts), in host order, as a scan of every host
        // would visit them.
        for k in 0..ep.ready_words() {
            for h in ones(ep.ready_hosts(k), k * 64) {
                self.inject_at(now, h, ep);
            }
        }
        // Switch outputs, in channel order: those holding flits. A send
        // only clears its own channel's bit (what it sends arrives in a
        // later cycle), so each word is read when its turn comes.
        for k in 0..self.nonempty.len() {
            for ch in ones(self.nonempty[k], k * 64) {
                debug_assert!(self.outputs[ch].flits > 0);
                self.send(now, ch as u32, ep);
            }
        }
        Ok(())
    }

    fn flits_in_network(&self) -> u64 {
        self.in_network
    }

    fn channel_occupancy(&self) -> Vec<u32> {
        self.outputs
            .iter()
            .map(|o| o.flits.min(u32::MAX as u64) as u32)
            .collect()
    }

    fn switch_occupancy(&self) -> Vec<u32> {
        let mut out = vec![0u64; self.net.num_switches()];
        for (c, o) in self.outputs.iter().enumerate() {
            if let Endpoint::Switch { switch, .. } = self.net.channel(c as u32).src {
                out[switch as usize] += o.flits;
            }
        }
        out.into_iter()
            .map(|x| x.min(u32::MAX as u64) as u32)
            .collect()
    }

    /// Unbounded queues: `u32::MAX` for every switch.
    fn switch_capacity(&self) -> Vec<u32> {
        vec![u32::MAX; self.net.num_switches()]
    }

    fn blocked_report(&self, _ep: &Endpoints) -> Vec<String> {
        let mut q: Vec<(u64, usize)> = self
            .outputs
            .iter()
            .enumerate()
            .filter(|(_, o)| o.flits > 0)
            .map(|(c, o)| (o.flits, c))
            .collect();
        q.sort_by(|a, b| b.cmp(a));
        q.iter()
            .take(12)
            .map(|&(f, c)| format!("{} holds {f} flits queued", self.net.channel_name(c as u32)))
            .collect()
    }

    fn check_invariants(&self, ep: &Endpoints) -> Result<(), String> {
        let queued: u64 = self.outputs.iter().map(|o| o.flits).sum();
        let recount: u64 = self
            .outputs
            .iter()
            .flat_map(|o| o.acks.iter().chain(&o.data))
            .map(|w| w.flits as u64)
            .sum();
        if queued != recount {
            return Err(format!(
                "queue counters say {queued} flits, the queues hold {recount}"
            ));
        }
        let travelling: u64 = self.arrivals.iter().map(|&(_, _, f)| f as u64).sum();
        let arriving = self.deliveries.len() as u64;
        if queued + travelling + arriving != self.in_network {
            return Err(format!(
                "flit count: {queued} queued + {travelling} on links + {arriving} reaching hosts != {} in network",
                self.in_network
            ));
        }
        // Nothing duplicated: every packet in the queues, on the links or
        // reaching a host is in flight, and is in one place with at most
        // its own flits.
        let live = ep.live_packet_mask();
        let mut count = vec![0u64; live.len()];
        let whole = self
            .outputs
            .iter()
            .flat_map(|o| o.acks.iter().chain(&o.data))
            .map(|w| (w.packet, w.flits as u64))
            .chain(self.arrivals.iter().map(|&(_, p, f)| (p, f as u64)))
            .chain(self.deliveries.iter().map(|&(p, _)| (p, 1)));
        for (p, f) in whole {
            match count.get_mut(p as usize) {
                Some(c) if live[p as usize] => *c += f,
                _ => return Err(format!("packet {p} is queued but not in flight")),
            }
        }
        if let Some((p, c)) = count
            .iter()
            .enumerate()
            .find(|&(p, &c)| c > ep.packet(p as u32).info.flits as u64)
        {
            return Err(format!(
                "packet {p} has {c} flits in the network, more than its length"
            ));
        }
        for (c, o) in self.outputs.iter().enumerate() {
            let misplaced = o.acks.iter().any(|w| !ep.packet(w.packet).is_ack())
                || o.data.iter().any(|w| ep.packet(w.packet).is_ack());
            if misplaced {
                return Err(format!(
                    "{}: a packet in the wrong queue (acknowledgements and data)",
                    self.net.channel_name(c as u32)
                ));
            }
            if o.data.iter().any(|w| w.flits != self.packet_flits) {
                return Err(format!(
                    "{}: a data packet of the wrong length",
                    self.net.channel_name(c as u32)
                ));
            }
        }
        Ok(())
    }
}
