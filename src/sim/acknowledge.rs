//! The engine's side of delivery feedback ([`Acknowledgement`]): when a
//! routing asks to hear of its deliveries, the engine either delays the
//! news by a modelled acknowledgement time or sends a real one-flit
//! acknowledgement packet back on a virtual-channel class of its own.
//!
//! The acknowledgement class is the top `reserved` VCs of every port; data
//! routings are built with the VCs below it and may not offer it (checked
//! at every hop). It is reserved when the run's first routing asks for
//! packet acknowledgements, or later, when such a routing is swapped in;
//! it is never released during a run. Packets already in flight from an
//! earlier routing may still hold VCs of the class when it is reserved;
//! they drain by their own deadlock-free rules, and acknowledgements queue
//! behind them meanwhile.

use crate::rng::{SimRng, Stream, stream};
use crate::routing::{Acknowledgement, Candidates, Feedback, Hop, Routing, RoutingSpec, Source};
use crate::topology::{Network, SwitchId};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// A static routing whose virtual channels are shifted up into the
/// acknowledgement class.
struct OffsetVcs {
    inner: Box<dyn Routing>,
    offset: u8,
}

impl Routing for OffsetVcs {
    fn name(&self) -> String {
        format!("{} (acknowledgements)", self.inner.name())
    }
    fn at_source(&mut self, src: Source<'_>) {
        self.inner.at_source(src);
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        let mut inner = Candidates::default();
        self.inner.route(hop, &mut inner);
        for c in inner.as_slice() {
            out.push(c.port, c.vc_lo + self.offset, c.vc_hi + self.offset);
        }
    }
}

/// Feedback on its way to a source: the routing epoch it goes to and what
/// it says.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub epoch: u16,
    pub feedback: Feedback,
}

/// Acknowledgement state of a run.
pub(crate) struct Acks {
    net_vcs: u8,
    /// Acknowledgement VCs at the top of every port (0: none reserved).
    reserved: u8,
    /// Cycles per switch on an idle network: switch delay + link latency.
    per_switch: u64,
    /// The topology's static routing, for acknowledgement packets (VCs
    /// shifted into the class) once the class is reserved.
    routing: Option<Box<dyn Routing>>,
    /// The same routing on the data VCs, to count the switches of the way
    /// back (delay mode), with a cache.
    walker: Option<Box<dyn Routing>>,
    switches_back: HashMap<(SwitchId, SwitchId), u64>,
    /// Random stream of the acknowledgement routings (static minimal
    /// routings draw nothing today; a stream of its own keeps the routing
    /// stream's draws unchanged whatever they do).
    rng: SimRng,
    /// Delay mode: feedback by (due cycle, sequence number).
    due: BTreeMap<(u64, u64), Pending>,
    seq: u64,
    /// Packet mode: acknowledgements waiting at each host, first in line,
    /// and how many in all (so an idle class costs one test per host).
    waiting: Vec<VecDeque<Pending>>,
    waiting_total: usize,
    /// Packet mode: the feedback each acknowledgement packet in flight
    /// carries, by packet id.
    carried: HashMap<u32, Pending>,
}

impl Acks {
    pub fn new(net: &Network, vcs: u8, per_switch: u64, seed: u64) -> Acks {
        Acks {
            net_vcs: vcs,
            reserved: 0,
            per_switch,
            routing: None,
            walker: None,
            switches_back: HashMap::new(),
            rng: stream(seed, Stream::Acknowledgement),
            due: BTreeMap::new(),
            seq: 0,
            waiting: vec![VecDeque::new(); net.num_hosts()],
            waiting_total: 0,
            carried: HashMap::new(),
        }
    }

    /// VCs the acknowledgement class takes on `net` when a routing asks for
    /// `mode`: those of the topology's static minimal routing (two on tori
    /// and midimew, for the dateline; one elsewhere), none otherwise.
    pub fn class_size(net: &Network, mode: Acknowledgement) -> u8 {
        match mode {
            Acknowledgement::Packet => RoutingSpec::minimal().min_vcs(net).max(1),
            _ => 0,
        }
    }

    /// VCs data routings may use.
    #[inline]
    pub fn data_vcs(&self) -> u8 {
        self.net_vcs - self.reserved
    }

    /// VCs of the acknowledgement class (0 when none is reserved).
    pub fn reserved(&self) -> u8 {
        self.reserved
    }

    /// Get ready for a routing that asks for `mode`: reserve the class (and
    /// build the acknowledgement routing) for packets, build the walker for
    /// delays. Errors when the VCs do not suffice.
    pub fn prepare(&mut self, net: &Network, mode: Acknowledgement) -> Result<(), String> {
        match mode {
            Acknowledgement::None => {}
            Acknowledgement::Delay => {
                if self.walker.is_none() {
                    let r = RoutingSpec::minimal()
                        .build(net, RoutingSpec::minimal().min_vcs(net).max(1))
                        .map_err(|e| e.to_string())?;
                    self.walker = Some(r);
                }
            }
            Acknowledgement::Packet => {
                if self.reserved == 0 {
                    let size = Self::class_size(net, mode);
                    if size >= self.net_vcs {
                        return Err(format!(
                            "packet acknowledgements need {size} virtual channel{} of their own on {} and at least one for data; the run has {}",
                            if size == 1 { "" } else { "s" },
                            net.spec(),
                            self.net_vcs
                        ));
                    }
                    let inner = RoutingSpec::minimal()
                        .build(net, size)
                        .map_err(|e| e.to_string())?;
                    self.routing = Some(Box::new(OffsetVcs {
                        inner,
                        offset: self.net_vcs - size,
                    }));
                    self.reserved = size;
                }
            }
        }
        Ok(())
    }

    /// The acknowledgement routing and its random stream.
    #[inline]
    pub fn routing(&mut self) -> Option<(&mut dyn Routing, &mut SimRng)> {
        let r = self.routing.as_deref_mut()?;
        Some((r, &mut self.rng))
    }

    /// Delay mode: the cycle the source hears of a packet whose tail
    /// reached its destination host at `delivered`:
    /// `delivered + H·(switch_delay + link_latency) + 1`, with H the
    /// switches on the static route from the destination switch back to the
    /// source switch, both included.
    pub fn heard_at(&mut self, net: &Network, from: SwitchId, to: SwitchId, delivered: u64) -> u64 {
        let per_switch = self.per_switch;
        let switches = match self.switches_back.get(&(from, to)) {
            Some(&h) => h,
            None => {
                let h = self.count_switches(net, from, to);
                self.switches_back.insert((from, to), h);
                h
            }
        };
        delivered + switches * per_switch + 1
    }

    fn count_switches(&mut self, net: &Network, from: SwitchId, to: SwitchId) -> u64 {
        let (Some(walker), Some(a), Some(b)) = (
            self.walker.as_deref_mut(),
            net.hosts_of(from).next(),
            net.hosts_of(to).next(),
        ) else {
            return 1;
        };
        // A walk of the static routing; it cannot fail on a routing the
        // registry built for this network, and one switch is the floor.
        let hops = crate::routing::walk(net, walker, a, b, 0, &mut self.rng)
            .map(|s| s.len())
            .unwrap_or(0);
        hops as u64 + 1
    }

    /// Delay mode: queue feedback for the cycle the source hears of it.
    pub fn schedule(&mut self, heard: u64, epoch: u16, mut feedback: Feedback) {
        feedback.heard_cycle = heard;
        self.due
            .insert((heard, self.seq), Pending { epoch, feedback });
        self.seq += 1;
    }

    /// Delay mode: the next feedback due at or before `now`.
    #[inline]
    pub fn next_due(&mut self, now: u64) -> Option<Pending> {
        let (&(t, _), _) = self.due.first_key_value()?;
        if t > now {
            return None;
        }
        self.due.pop_first().map(|(_, p)| p)
    }

    /// Packet mode: an acknowledgement waits at host `h` (the destination
    /// of the acknowledged packet).
    pub fn enqueue(&mut self, h: u32, p: Pending) {
        self.waiting[h as usize].push_back(p);
        self.waiting_total += 1;
    }

    /// Packet mode: is an acknowledgement waiting at host `h`?
    #[inline]
    pub fn waiting_at(&self, h: usize) -> bool {
        self.waiting_total > 0 && !self.waiting[h].is_empty()
    }

    /// Packet mode: the acknowledgement at the front of host `h`'s queue
    /// leaves; [`Acks::carry`] then names its packet.
    pub fn depart(&mut self, h: usize) -> Option<Pending> {
        let p = self.waiting[h].pop_front()?;
        self.waiting_total -= 1;
        Some(p)
    }

    /// Packet mode: acknowledgement packet `id` carries `p`.
    pub fn carry(&mut self, id: u32, p: Pending) {
        self.carried.insert(id, p);
    }

    /// Packet mode: acknowledgement packet `id` reached its host.
    pub fn arrive(&mut self, id: u32) -> Option<Pending> {
        self.carried.remove(&id)
    }

    /// Acknowledgements waiting at hosts or scheduled (not yet heard).
    pub fn outstanding(&self) -> usize {
        self.due.len() + self.waiting_total + self.carried.len()
    }
}
