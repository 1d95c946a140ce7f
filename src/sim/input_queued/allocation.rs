//! One cycle of one input-queued switch: routing, VC allocation, separable
//! switch allocation and traversal (Dally and Towles ch. 16-19; the order
//! and policies are described on [`InputQueued`]).
//!
//! This is the simulator's hot path. The switch's state is borrowed field by
//! field into locals once per call, so the compiler keeps slice pointers and
//! lengths in registers instead of reloading them from `self` after every
//! store; only the input ports that hold flits are visited (a per-switch bit
//! set), not every port of the switch.

use super::{
    ACTIVE, Flit, FlitEvent, HEAD, IDLE, InputQueued, InputVc, NONE, OutputVc, ROUTED, TAIL, View,
};
use crate::routing::{Candidates, Selection};
use crate::sim::config::Switching;
use crate::sim::model::StepIo;

impl InputQueued {
    /// Advance every switch that holds flits by one cycle, in switch order.
    /// The error (rare) is the switch, routing epoch and destination switch
    /// of a packet its routing offered no next hop; the caller turns it into
    /// [`SimError::NoRoute`](crate::sim::SimError::NoRoute) (kept small so
    /// the common `Ok` return costs nothing).
    pub(super) fn allocate(&mut self, now: u64, io: &mut StepIo<'_>) -> Result<(), NoRoute> {
        let InputQueued {
            v,
            depth,
            packet_flits,
            switching,
            selection,
            link_latency,
            switch_delay,
            first_ejection,
            in_ports,
            in_start,
            sw_out,
            out_start,
            inch,
            port_words,
            busy,
            busy_list,
            host_port,
            flits,
            ivc: ivcs,
            cands,
            ovc,
            outch,
            sw_flits,
            sw_rr,
            flit_wheel,
            credit_wheel,
            last_progress,
            proposal,
            ..
        } = self;
        // Slices, not `&mut Vec`s: their pointers and lengths stay in
        // registers.
        let (inch, busy, flits, ivcs, cands) = (
            &mut inch[..],
            &mut busy[..],
            &flits[..],
            &mut ivcs[..],
            &mut cands[..],
        );
        let (ovc, outch, sw_flits, proposal) = (
            &mut ovc[..],
            &mut outch[..],
            &mut sw_flits[..],
            &mut proposal[..],
        );
        let host_port = &host_port[..];
        let (v, depth, w) = (*v, *depth, *port_words);
        let (switching, selection) = (*switching, *selection);
        let (link_latency, switch_delay) = (*link_latency, *switch_delay);
        let (first_ejection, packet_flits) = (*first_ejection, *packet_flits);
        let need = if switching == Switching::Wormhole {
            1
        } else {
            packet_flits as i32
        };
        let stamp = now + 1;
        let mut scratch = Candidates::default();
        for s in 0..sw_flits.len() {
            if sw_flits[s] == 0 {
                continue;
            }
            let first = in_start[s] as usize;
            let np = in_start[s + 1] as usize - first;
            let ports = &in_ports[first..first + np];
            let out = &sw_out[out_start[s] as usize..out_start[s + 1] as usize];

            // The busy input ports (holding flits), ascending. Allocation below
            // does not change which ports hold flits; only traversal does, and
            // it comes last.
            busy_list.clear();
            for (k, &word) in busy[s * w..(s + 1) * w].iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    busy_list.push((k * 64) as u32 + word.trailing_zeros());
                    word &= word - 1;
                }
            }
            let nb = busy_list.len();

            // Routing and VC allocation, round-robin over input ports: busy
            // ports from the switch's pointer on, then those before it.
            let start = sw_rr[s] as usize;
            let split = busy_list
                .iter()
                .position(|&pi| pi as usize >= start)
                .unwrap_or(nb);
            for j in 0..nb {
                let b = if split + j >= nb {
                    split + j - nb
                } else {
                    split + j
                };
                let (p, c) = ports[busy_list[b] as usize];
                let c = c as usize;
                let mut waiting = inch[c].nonempty & !inch[c].active;
                while waiting != 0 {
                    let x = waiting.trailing_zeros() as usize;
                    waiting &= waiting - 1;
                    let i = c * v + x;
                    let q = &mut ivcs[i];
                    // A head flit just reaching the front routes into the
                    // scratch list; only if it then fails to get an output
                    // VC is the list stored for its retries (`cands[i]`,
                    // 66 bytes a VC, mostly untouched: smaller working set).
                    let fresh = q.state == IDLE;
                    if fresh {
                        let f = flits[i * depth + q.head as usize];
                        debug_assert!(
                            f.flags() & HEAD != 0,
                            "non-head flit at the front of an idle VC"
                        );
                        let pkt = io.packets.get_mut(f.packet);
                        // Hops are counted here, where the packet is at
                        // hand anyway: once per switch its head is routed at.
                        pkt.switches = pkt.switches.saturating_add(1);
                        let cand = &mut scratch;
                        cand.clear();
                        if pkt.info.dst_switch as usize == s {
                            cand.push(host_port[pkt.info.dst_host as usize], 0, (v - 1) as u8);
                        } else {
                            let view = View {
                                credits: ovc,
                                out,
                                v,
                            };
                            let epoch = pkt.epoch as usize;
                            io.routings[epoch].route(
                                s as u32,
                                p,
                                &pkt.info,
                                &mut pkt.route,
                                &view,
                                io.rng,
                                cand,
                            );
                            if cand.is_empty() {
                                return Err(NoRoute {
                                    switch: s as u32,
                                    epoch,
                                    dst: pkt.info.dst_switch,
                                });
                            }
                        }
                        q.state = ROUTED;
                    }
                    let cand = if fresh { &scratch } else { &cands[i] };
                    let ready = switching != Switching::StoreAndForward
                        || whole_packet_here(flits, q, i, depth, packet_flits as usize);
                    match ready
                        .then(|| choose_out_vc(cand, ovc, out, v, need, selection))
                        .flatten()
                    {
                        Some((o, oc)) => {
                            ovc[o as usize].owner = i as u32;
                            q.out = o;
                            q.out_ch = oc;
                            q.state = ACTIVE;
                            inch[c].active |= 1 << x;
                        }
                        None if fresh => cands[i] = scratch,
                        None => {}
                    }
                }
            }
            sw_rr[s] = if start + 1 >= np { 0 } else { start as u32 + 1 };

            // Switch allocation: each input port proposes one VC (round-robin
            // from its pointer) whose output VC has a credit...
            let np16 = np.max(1) as u16;
            for b in 0..nb {
                proposal[b] = NONE;
                let pi = busy_list[b] as usize;
                let ch = inch[ports[pi].1 as usize];
                let ready = ch.nonempty & ch.active;
                if ready == 0 {
                    continue;
                }
                let c = ports[pi].1 as usize;
                // Rotate the mask so that bit 0 is the pointer.
                let rr = ch.rr as u32;
                let rot = ((ready as u32) >> rr) | ((ready as u32) << (v as u32 - rr));
                let mut pending = rot & ((1u32 << v) - 1);
                while pending != 0 {
                    let k = pending.trailing_zeros();
                    pending &= pending - 1;
                    let mut x = (rr + k) as usize;
                    if x >= v {
                        x -= v;
                    }
                    let i = c * v + x;
                    let q = ivcs[i];
                    if ovc[q.out as usize].credits > 0 {
                        proposal[b] = i as u32;
                        // ...and each output port keeps the proposal that comes
                        // first after its own round-robin pointer (out rr < np:
                        // it is only ever set by this switch).
                        let g = &mut outch[q.out_ch as usize];
                        let pi16 = pi as u16;
                        let prio = if pi16 >= g.rr {
                            pi16 - g.rr
                        } else {
                            pi16 + np16 - g.rr
                        };
                        if g.stamp != stamp || prio < g.prio {
                            g.stamp = stamp;
                            g.prio = prio;
                            g.ivc = i as u32;
                        }
                        break;
                    }
                }
            }

            // Grants and traversal: winners send one flit; it reaches the next
            // switch after link latency + switch delay (a host after the link
            // latency), and a credit returns upstream after the link latency.
            let st = &mut *io.stats;
            let measuring = io.measuring;
            for b in 0..nb {
                let i = proposal[b];
                if i == NONE {
                    continue;
                }
                let i = i as usize;
                let q: &mut InputVc = &mut ivcs[i];
                let oc = q.out_ch;
                let g = &mut outch[oc as usize];
                if g.ivc != i as u32 || g.stamp != stamp {
                    continue;
                }
                let pi = busy_list[b] as usize;
                g.rr = if pi + 1 >= np { 0 } else { pi as u16 + 1 };
                let c = ports[pi].1 as usize;
                let x = i - c * v;
                let ch = &mut inch[c];
                ch.rr = if x + 1 == v { 0 } else { x as u8 + 1 };

                let flit: Flit = flits[i * depth + q.head as usize];
                let h = q.head as usize + 1;
                q.head = if h == depth { 0 } else { h as u16 };
                q.len -= 1;
                if q.len == 0 {
                    ch.nonempty &= !(1 << x);
                    if ch.nonempty == 0 {
                        let k = ch.index as usize;
                        busy[s * w + k / 64] &= !(1 << (k % 64));
                    }
                }
                sw_flits[s] -= 1;
                *last_progress = now;
                // Credit back upstream for the slot just freed.
                credit_wheel.schedule(now + link_latency, i as u32);
                let o = q.out as usize;
                if measuring {
                    let waited = flit.waited(now);
                    let k = &mut st.channels[oc as usize];
                    k.flits += 1;
                    if flit.flags() & HEAD != 0 {
                        k.wait_sum += waited;
                        k.heads += 1;
                    }
                }
                let vc = (o - oc as usize * v) as u8;
                if oc >= first_ejection {
                    flit_wheel.schedule(now + link_latency, FlitEvent { ch: oc, vc, flit });
                } else {
                    ovc[o].credits -= 1;
                    flit_wheel.schedule(
                        now + link_latency + switch_delay,
                        FlitEvent { ch: oc, vc, flit },
                    );
                }
                if flit.flags() & TAIL != 0 {
                    ovc[o].owner = NONE;
                    q.state = IDLE;
                    q.out = NONE;
                    ch.active &= !(1 << x);
                }
            }
        }
        Ok(())
    }
}

/// A packet whose routing offered no next hop (see
/// [`InputQueued::allocate`]).
pub(super) struct NoRoute {
    pub switch: u32,
    pub epoch: usize,
    pub dst: u32,
}

/// SAF: is the whole front packet of input VC `i` in its buffer?
fn whole_packet_here(flits: &[Flit], q: &InputVc, i: usize, depth: usize, l: usize) -> bool {
    if (q.len as usize) < l {
        return false;
    }
    let front = flits[i * depth + q.head as usize];
    let f = flits[i * depth + (q.head as usize + l - 1) % depth];
    f.packet == front.packet && f.flags() & TAIL != 0
}

/// VC allocation for one input VC: the output VC (channel · V + vc) its
/// [`Selection`] prefers among the candidates' free VCs with at least
/// `need` credits, and its channel (returned to spare a division), or
/// None. Candidates whose port is not connected are
/// skipped (so `Fixed` means the first connected candidate).
#[inline(always)]
fn choose_out_vc(
    cands: &Candidates,
    ovc: &[OutputVc],
    out: &[u32],
    v: usize,
    need: i32,
    selection: Selection,
) -> Option<(u32, u32)> {
    let mut connected = cands.as_slice().iter().filter_map(|cand| {
        let c = out[cand.port as usize];
        (c != NONE).then_some((c, cand.vc_lo, cand.vc_hi))
    });
    match selection {
        Selection::Fixed => {
            let (c, lo, hi) = connected.next()?;
            free_vc(ovc, c, v, lo, hi, need).map(|o| (o, c))
        }
        Selection::FirstFree => {
            connected.find_map(|(c, lo, hi)| free_vc(ovc, c, v, lo, hi, need).map(|o| (o, c)))
        }
        Selection::Adaptive => {
            let mut best: Option<(u32, u32, i32)> = None;
            for (c, lo, hi) in connected {
                for vc in lo..=hi {
                    let o = c as usize * v + vc as usize;
                    let ov = ovc[o];
                    if ov.owner == NONE
                        && ov.credits >= need
                        && best.is_none_or(|(_, _, cr)| ov.credits > cr)
                    {
                        best = Some((o as u32, c, ov.credits));
                    }
                }
            }
            best.map(|(o, c, _)| (o, c))
        }
    }
}

/// The first free output VC among VCs `lo..=hi` of channel `c` with at
/// least `need` credits.
#[inline(always)]
fn free_vc(ovc: &[OutputVc], c: u32, v: usize, lo: u8, hi: u8, need: i32) -> Option<u32> {
    let base = c as usize * v;
    (lo..=hi).map(|vc| base + vc as usize).find_map(|o| {
        let ov = ovc[o];
        (ov.owner == NONE && ov.credits >= need).then_some(o as u32)
    })
}
