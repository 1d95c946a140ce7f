//! Supernodes (Franco et al. §2, Definition 1): a structured region of the
//! network around a central node N₀. Size 0 is the *minor canonical* form
//! (the node alone); the whole network is the *major canonical* form.
//!
//! - **Gravity Area** `S("Gravity Area", size, N₀)`: every node at a
//!   distance of at most `size` from N₀, on any topology (distances are the
//!   network's hop distances).
//! - **Subtopology**: a reduced j-ary m-cube inside a k-ary n-cube. routelab
//!   takes, for size s, the nodes whose coordinates differ from N₀'s by at
//!   most s in every dimension (the (2s+1)-ary n-cube window centred on N₀,
//!   clipped to the network; on a mesh clipped at the edges); on a
//!   hypercube (a 2-ary n-cube, where that window would be everything) the
//!   nodes that differ from N₀ only in the s lowest bits (a 2-ary s-cube).
//!   The paper leaves its exact shape to [its reference 10]; midimew has no
//!   subtopology here (it is not a cube).

use super::steps::Steps;
use crate::topology::SwitchId;

/// Which supernode shape DRB builds (`supernode=gravity|subtopology`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SupernodeType {
    /// Every node within the size's distance.
    #[default]
    Gravity,
    /// A reduced cube around the centre.
    Subtopology,
}

impl SupernodeType {
    pub const ACCEPTED: &'static str = "gravity, subtopology";
    pub fn parse(s: &str) -> Option<SupernodeType> {
        match s {
            "gravity" => Some(SupernodeType::Gravity),
            "subtopology" => Some(SupernodeType::Subtopology),
            _ => None,
        }
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            SupernodeType::Gravity => "gravity",
            SupernodeType::Subtopology => "subtopology",
        }
    }
}

/// The nodes of the supernode of `kind` and `size` around `centre`, the
/// centre first, then by distance from it, then by id.
pub fn members(steps: &Steps, kind: SupernodeType, centre: SwitchId, size: u32) -> Vec<SwitchId> {
    let inside = |n: SwitchId| -> bool {
        match kind {
            SupernodeType::Gravity => steps.distance(centre, n) <= size,
            SupernodeType::Subtopology => match steps.geometry() {
                Some(g) => {
                    let (a, b) = (g.coords(centre), g.coords(n));
                    (0..g.dims()).all(|d| g.delta(d, a[d], b[d]) <= size)
                }
                // Hypercube: the sub-cube of the lowest `size` bits.
                None => {
                    let mask = if size >= 32 { 0 } else { !0u32 << size };
                    (centre ^ n) & mask == 0
                }
            },
        }
    };
    let mut out: Vec<SwitchId> = (0..steps.nodes()).filter(|&n| inside(n)).collect();
    out.sort_by_key(|&n| (steps.distance(centre, n), n));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Network;

    #[test]
    fn gravity_areas_and_subtopologies() {
        let net = Network::from_spec("torus:8x8").unwrap();
        let s = Steps::new(&net, 3, 6).unwrap();
        // Gravity area of size 1 on a 2-D torus: the centre and its 4
        // neighbours; size 2: 13 nodes.
        let g1 = members(&s, SupernodeType::Gravity, 9, 1);
        assert_eq!(g1, vec![9, 1, 8, 10, 17]);
        assert_eq!(members(&s, SupernodeType::Gravity, 9, 2).len(), 13);
        assert_eq!(members(&s, SupernodeType::Gravity, 0, 0), vec![0]);
        // Subtopology of size 1: the 3x3 window (a 3-ary 2-cube).
        assert_eq!(members(&s, SupernodeType::Subtopology, 0, 1).len(), 9);
        assert_eq!(members(&s, SupernodeType::Subtopology, 0, 4).len(), 64);
        let h = Network::from_spec("hypercube:4").unwrap();
        let s = Steps::new(&h, 3, 3).unwrap();
        assert_eq!(
            members(&s, SupernodeType::Subtopology, 5, 2),
            vec![5, 4, 7, 6]
        );
        assert_eq!(members(&s, SupernodeType::Gravity, 0, 1).len(), 5);
        let m = Network::from_spec("mesh:4x4").unwrap();
        let s = Steps::new(&m, 3, 3).unwrap();
        assert_eq!(members(&s, SupernodeType::Subtopology, 0, 1).len(), 4);
    }
}
