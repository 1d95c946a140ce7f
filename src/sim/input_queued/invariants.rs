//! The input-queued model's invariant checks, behind
//! [`Simulation::check_invariants`](crate::sim::Simulation::check_invariants)
//! (which the tests and the soak call between cycles): no flit is
//! duplicated or left behind, every VC's credits, buffered flits, flits
//! on the way and credits returning add up to its depth, and no output
//! port keeps a proposal from an allocation that ended.

use super::InputQueued;
use crate::sim::endpoints::Endpoints;
use crate::sim::timewheel::TimeWheel;

impl InputQueued {
    /// Nothing duplicated: every flit in the network belongs to a packet in
    /// flight, and no packet has more flits in the network (and still to
    /// send from its host) than its length.
    pub(super) fn check_packets(&self, ep: &Endpoints) -> Result<(), String> {
        let live = ep.live_packet_mask();
        let mut count = vec![0u32; live.len()];
        let mut add = |packet: u32, n: u32, where_: &dyn Fn() -> String| match count
            .get_mut(packet as usize)
        {
            Some(c) if live[packet as usize] => {
                *c += n;
                Ok(())
            }
            _ => Err(format!(
                "{} holds a flit of packet {packet}, which is not in flight",
                where_()
            )),
        };
        for (x, q) in self.ivc.iter().enumerate() {
            for i in 0..q.len as usize {
                let slot = (q.head as usize + i) % self.set.depth;
                let f = self.flits[x * self.set.depth + slot];
                add(f.packet, 1, &|| {
                    format!(
                        "{} vc{}",
                        self.net.channel_name((x / self.set.v) as u32),
                        x % self.set.v
                    )
                })?;
            }
        }
        for ev in self.wheels().flat_map(TimeWheel::iter) {
            add(ev.flit.packet, 1, &|| {
                format!("channel {}", self.net.channel_name(ev.ch))
            })?;
        }
        for (h, s) in self.sending.iter().enumerate() {
            if let Some(s) = s {
                add(s.packet, (s.len - s.sent) as u32, &|| format!("host {h}"))?;
            }
        }
        for (p, &c) in count.iter().enumerate() {
            if c > 0 && c > ep.packet(p as u32).info.flits as u32 {
                return Err(format!(
                    "packet {p} has {c} flits in the network and still to send, but only {} flits",
                    ep.packet(p as u32).info.flits
                ));
            }
        }
        Ok(())
    }

    /// Every VC's credit loop is closed (credits + buffered + flits on the
    /// way + credits returning = depth), no buffer holds more than its
    /// depth, the count of flits in the network matches the buffers, and
    /// the bits that say which buffers hold flits match them.
    pub(super) fn check_buffers(&self) -> Result<(), String> {
        let v = self.set.v;
        // Flits and credits on their way to each VC.
        let mut flying = vec![0i64; self.net.num_channels() * v];
        for ev in self.wheels().flat_map(TimeWheel::iter) {
            flying[ev.ch as usize * v + ev.vc as usize] += 1;
        }
        let mut returning = vec![0i64; self.net.num_channels() * v];
        for &o in self.credit_wheel.iter() {
            returning[o as usize] += 1;
        }
        let mut buffered = 0u64;
        for ivc in 0..self.num_in * v {
            let c = ivc / v;
            let q = self.ivc[ivc].len as i64;
            buffered += q as u64;
            if q > self.set.depth as i64 {
                return Err(format!(
                    "{} vc{} holds {q} flits, capacity {}",
                    self.net.channel_name(c as u32),
                    ivc % v,
                    self.set.depth
                ));
            }
            let cr = self.ovc[ivc].credits as i64;
            if cr < 0 {
                return Err(format!(
                    "{} vc{} has {cr} credits",
                    self.net.channel_name(c as u32),
                    ivc % v
                ));
            }
            let total = cr + q + flying[ivc] + returning[ivc];
            if total != self.set.depth as i64 {
                return Err(format!(
                    "{} vc{}: credits {cr} + buffered {q} + in flight {} + credits returning {} != depth {}",
                    self.net.channel_name(c as u32),
                    ivc % v,
                    flying[ivc],
                    returning[ivc],
                    self.set.depth
                ));
            }
        }
        let in_flight: u64 = self.wheels().map(|w| w.len() as u64).sum();
        if buffered + in_flight != self.in_network {
            return Err(format!(
                "flit count: {buffered} buffered + {in_flight} on channels != {} in network",
                self.in_network
            ));
        }
        self.check_busy_bits()
    }

    /// The bits allocation visits by say which buffers hold flits: an
    /// input channel's VC bit is set exactly when that VC holds flits, and
    /// a switch's busy-port bit exactly when one of that port's VCs does
    /// (a switch is skipped when its busy-port words are all zero, so a
    /// bit left clear would strand flits, and one left set would cost a
    /// visit).
    fn check_busy_bits(&self) -> Result<(), String> {
        for s in 0..self.switches() {
            for (k, &(_, c)) in self.in_ports_of(s).iter().enumerate() {
                let held: u16 = self
                    .vcs_of(c)
                    .iter()
                    .enumerate()
                    .filter(|(_, q)| q.len > 0)
                    .fold(0, |bits, (x, _)| bits | 1 << x);
                let c = c as usize;
                let ch = &self.inch[c];
                if ch.nonempty != held {
                    return Err(format!(
                        "{}: VC bits {:#b}, but the VCs holding flits are {held:#b}",
                        self.net.channel_name(c as u32),
                        ch.nonempty
                    ));
                }
                if ch.switch as usize != s || ch.index as usize != k {
                    return Err(format!(
                        "{} is switch {s}'s input port {k}, but its record says switch {} port {}",
                        self.net.channel_name(c as u32),
                        ch.switch,
                        ch.index
                    ));
                }
                // An answer looked up one switch ahead is only ever that of
                // the unrouted head first in line (`InputVc::ahead`).
                for (x, q) in self.vcs_of(c as u32).iter().enumerate() {
                    let front = self.flits[(c * self.set.v + x) * self.set.depth + q.head as usize];
                    if q.ahead != super::Ahead::NONE
                        && !(q.state == super::IDLE
                            && q.len > 0
                            && front.flags() & super::HEAD != 0)
                    {
                        return Err(format!(
                            "{} VC {x}: an answer looked up ahead ({:?}) kept by a VC that is not an unrouted head's (state {}, {} flits)",
                            self.net.channel_name(c as u32),
                            q.ahead.get(),
                            q.state,
                            q.len
                        ));
                    }
                }
                let bit = self.busy[s * self.set.port_words + k / 64] >> (k % 64) & 1 != 0;
                if bit != (held != 0) {
                    return Err(format!(
                        "switch {s} port {k} ({}): busy bit {bit}, but it holds flits: {}",
                        self.net.channel_name(c as u32),
                        held != 0
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every flit on its way is on the wheel its arrival is read from: a
    /// flit to a host on the flit wheel; a flit to a switch, with arrival
    /// blocks, on its block's wheel (the calling thread's, or with two
    /// engine threads the upper half's), without, on the switch wheel.
    pub(super) fn check_wheels(&self) -> Result<(), String> {
        use super::Wheel;
        let belongs = |ch: u32| {
            if ch >= self.set.first_ejection {
                Wheel::Hosts
            } else {
                match self.block_of.get(ch as usize) {
                    Some(&b) if b != super::NONE => Wheel::Block(b as usize),
                    _ => Wheel::Switches,
                }
            }
        };
        #[cfg(not(target_arch = "wasm32"))]
        let upper: Vec<&TimeWheel<super::FlitEvent>> =
            self.two.iter().flat_map(|two| two.wheels()).collect();
        #[cfg(target_arch = "wasm32")]
        let upper: Vec<&TimeWheel<super::FlitEvent>> = Vec::new();
        let filed = [
            (Wheel::Hosts, &self.flit_wheel),
            (Wheel::Switches, &self.switch_wheel),
        ]
        .into_iter()
        .chain(
            self.block_wheels
                .iter()
                .enumerate()
                .map(|(b, w)| (Wheel::Block(b), w)),
        )
        .chain(
            upper
                .into_iter()
                .enumerate()
                .map(|(b, w)| (Wheel::Block(b), w)),
        );
        for (on, wheel) in filed {
            if let Some(ev) = wheel.iter().find(|ev| belongs(ev.ch) != on) {
                return Err(format!(
                    "a flit to {} waits on the {on:?} wheel, not on the {:?} one",
                    self.net.channel_name(ev.ch),
                    belongs(ev.ch)
                ));
            }
        }
        Ok(())
    }

    /// No output port holds a proposal between cycles: a grant clears the
    /// one it takes, and a routing fault part-way through a switch clears
    /// those already made there ([`super::OutChannel`]); one left behind
    /// would win the port's next allocation for a VC that no longer asks.
    pub(super) fn check_proposals(&self) -> Result<(), String> {
        match self.outch.iter().position(|o| o.ivc != super::NONE) {
            Some(c) => Err(format!(
                "output channel {} keeps a proposal (input VC {}) between cycles",
                self.net.channel_name(c as u32),
                self.outch[c].ivc
            )),
            None => Ok(()),
        }
    }

    /// The flit and switch wheels and the arrival blocks' wheels (with
    /// two engine threads, the upper half's too).
    fn wheels(&self) -> impl Iterator<Item = &TimeWheel<super::FlitEvent>> {
        #[cfg(not(target_arch = "wasm32"))]
        let upper = self.two.iter().flat_map(|two| two.wheels());
        #[cfg(target_arch = "wasm32")]
        let upper = std::iter::empty();
        [&self.flit_wheel, &self.switch_wheel]
            .into_iter()
            .chain(&self.block_wheels)
            .chain(upper)
    }
}
