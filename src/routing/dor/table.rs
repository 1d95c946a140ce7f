//! [`TabulatedDor`]: DOR's answers with its default rules, worked out once
//! when the routing is built and looked up per hop (docs/performance.md,
//! "Tables and lookahead routing").

use super::{CubeDor, TieRule, VcClasses};
use crate::routing::{
    Candidates, Hop, PacketInfo, PairTable, RouteState, Routing, Source, TABLE_MAX_SWITCHES,
};
use crate::topology::SwitchId;
use std::sync::Arc;

/// [`CubeDor`] with its answers looked up in a table instead of worked out
/// per hop. With the default rules (`tie=plus`, strict classes) DOR's
/// answer at a switch depends on nothing but that switch and the
/// destination's: the first dimension in which they differ and their
/// coordinates there. So the answers are worked out once when the routing
/// is built, and kept in a [`PairTable`] that the engine looks up itself
/// ([`Routing::pair_table`]):
/// - on networks of up to [`TABLE_MAX_SWITCHES`] switches, for every pair
///   of switches (no coordinate arithmetic at all);
/// - on larger ones, for every dimension and pair of coordinates in it
///   ([`PairTable::by_first_difference`]: the first differing dimension is
///   still found per hop; a table of every pair would no longer fit in the
///   cache beside the simulation's own state).
///
/// The same answers (a unit test compares them with [`CubeDor`]'s), in
/// fewer instructions for the whole run (docs/performance.md, "What was
/// tried", passes 8 and 9). A type of its own, not a test inside
/// [`CubeDor`]: such a test cost the runs that still work the answers out
/// 0.5 %.
#[derive(Clone, Debug)]
pub struct TabulatedDor {
    dor: CubeDor,
    table: Arc<PairTable>,
}

impl TabulatedDor {
    /// The tabulated routing, or `dor` back when its rules rule a table
    /// out (a tie rule other than `plus`, or balanced classes), or when a
    /// network above [`TABLE_MAX_SWITCHES`] switches has no packed
    /// coordinates ([`PairTable::by_first_difference`]).
    pub fn new(dor: CubeDor) -> Result<Self, CubeDor> {
        // `tie=plus` sets every tie bit of every packet and strict classes
        // read no state bits (`at_source`), so one state stands for all.
        if dor.tie != TieRule::Plus || dor.classes != VcClasses::Strict {
            return Err(dor);
        }
        let state = RouteState {
            tag: TieRule::Plus.fixed_bits(0),
            aux: 0xFFFF << 16,
            ..RouteState::default()
        };
        let answer = |a: SwitchId, b: SwitchId| {
            let mut out = Candidates::default();
            dor.compute(a, b, &state, &mut out);
            out.as_slice().first().copied()
        };
        let g = &dor.geometry;
        let table = if g.nodes() <= TABLE_MAX_SWITCHES {
            PairTable::build(g.nodes(), answer)
        } else {
            match PairTable::by_first_difference(g, answer) {
                Some(table) => table,
                None => return Err(dor),
            }
        };
        Ok(TabulatedDor {
            table: Arc::new(table),
            dor,
        })
    }
}

impl Routing for TabulatedDor {
    fn name(&self) -> String {
        self.dor.name()
    }
    fn at_source(&mut self, src: Source<'_>) {
        self.dor.at_source(src)
    }
    fn fixed_source_state(&self) -> Option<RouteState> {
        self.dor.fixed_source_state()
    }
    fn source_states(&self, pkt: &PacketInfo) -> Option<Vec<RouteState>> {
        self.dor.source_states(pkt)
    }
    fn pair_table(&self) -> Option<Arc<PairTable>> {
        Some(self.table.clone())
    }
    fn route(&mut self, hop: Hop<'_>, out: &mut Candidates) {
        if let Some(e) = self.table.get(hop.at, hop.pkt.dst_switch) {
            out.push(e.port, e.vc_lo, e.vc_hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::at_source_of;
    use super::super::*;
    use super::*;
    use crate::rng::{Stream, stream};
    use crate::routing::BufferView;
    use crate::topology::PortId;

    struct Idle;
    impl BufferView for Idle {
        fn free_slots(&self, _port: PortId, _vc: u8) -> u32 {
            1
        }
    }

    /// The table of the default rules gives, for every switch, destination
    /// and source, the answer the arithmetic gives with the state the
    /// packet gets at its source, kept per pair of switches (up to 128
    /// switches) or by first difference (more), both through the routing's
    /// `route` and through the engine's own lookup; the other rules, and
    /// radices above 256 beyond 128 switches, keep no table. Odd and even
    /// radices (ties), tori and meshes, 1-4 dimensions, 2 and 4 VCs.
    #[test]
    fn table_answers_as_the_arithmetic_does() {
        let mut rng = stream(7, Stream::Routing);
        for (radix, wrap) in [
            (vec![8, 8], true),
            (vec![4], true),
            (vec![5, 4, 3], true),
            (vec![11, 11], true),
            (vec![16, 12], true),
            (vec![3, 3, 3, 5], true),
            (vec![4, 4], false),
            (vec![12, 11], false),
            (vec![2, 3, 4], false),
        ] {
            for vcs in [2u8, 4] {
                let mut plain =
                    CubeDor::new(radix.clone(), wrap, vcs, TieRule::Plus, VcClasses::Strict);
                let mut dor = TabulatedDor::new(plain.clone()).expect("a table");
                let n = plain.geometry.nodes();
                // The table the engine looks up (every pair up to 128
                // switches, by first difference above: both are covered).
                let table = dor.pair_table().expect("offered to the engine");
                assert_eq!(table.switches(), n as usize);
                // Every source on the small networks, a spread of them on
                // the others (the state of these rules is the same for all).
                for src in (0..n).step_by((n as usize / 16).max(1)) {
                    for dst in 0..n {
                        let (pkt, state) = at_source_of(&mut plain, src, dst, &mut rng);
                        // Every switch, on the packet's path or not.
                        for at in 0..n {
                            let mut answers = [Candidates::default(); 2];
                            let routings: [&mut dyn Routing; 2] = [&mut dor, &mut plain];
                            for (r, out) in routings.into_iter().zip(&mut answers) {
                                r.route(
                                    Hop {
                                        at,
                                        in_port: 0,
                                        in_vc: 0,
                                        now: 0,
                                        pkt: &pkt,
                                        state: &mut state.clone(),
                                        view: &Idle,
                                        rng: &mut rng,
                                    },
                                    out,
                                );
                            }
                            assert_eq!(
                                answers[0].as_slice(),
                                answers[1].as_slice(),
                                "{radix:?} wrap {wrap} at {at} from {src} to {dst}"
                            );
                            assert_eq!(answers[0].is_empty(), at == dst);
                            assert_eq!(
                                table.get(at, dst).as_slice(),
                                answers[1].as_slice(),
                                "{radix:?} wrap {wrap}: the engine's lookup at {at} to {dst}"
                            );
                        }
                    }
                }
            }
        }
        for (tie, classes) in [
            (TieRule::Random, VcClasses::Strict),
            (TieRule::Parity, VcClasses::Strict),
            (TieRule::Plus, VcClasses::Balanced),
        ] {
            assert!(TabulatedDor::new(CubeDor::new(vec![8, 8], true, 2, tie, classes)).is_err());
        }
        // A radix above 256 has no packed coordinates: the arithmetic.
        let ring = CubeDor::new(vec![300], true, 2, TieRule::Plus, VcClasses::Strict);
        assert!(TabulatedDor::new(ring).is_err());
    }
}
