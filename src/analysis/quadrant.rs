//! RLB's quadrants (Singh's thesis §3.2, Fig. 3.2): for a source and a
//! destination, the probability of every combination of directions and
//! the box of intermediate nodes it spans, for drawing in the GUI.
//!
//! §3.2's example: on an 8x8 torus from (0,0) to (2,3), Δ = (2,3), the
//! short directions are (+1,+1) with probabilities (6/8, 5/8), and the four
//! quadrants (+,+), (+,-), (-,+), (-,-) have probabilities 15/32, 9/32,
//! 5/32 and 3/32 (the thesis rounds them to 0.469, 0.281, 0.156, 0.094).

use super::AnalysisError;
use super::geometry::{Cube, Dir};
use crate::routing::{Law, box_coords};
use num_rational::Ratio;

/// One quadrant: a direction per dimension and the box of q.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quadrant {
    /// Direction per dimension (`None`: the dimension does not move).
    pub directions: Vec<Option<Dir>>,
    /// Probability that a packet takes this quadrant.
    pub probability: Ratio<i128>,
    /// Per dimension, the coordinates q_j may take, from s_j to d_j
    /// inclusive in the quadrant's direction (each equally likely).
    pub boxes: Vec<Vec<u32>>,
}

/// The quadrants of a pair under a law whose intermediate node is uniform
/// over the box its directions span
/// ([`crate::routing::ObliviousLaw::intermediate_in_box`]: RLB, RLBth,
/// ROMM; ROMM has the minimal quadrant, or two on a tie), in the order of
/// §3.2 (dimension 0 varies slowest, short direction first). Each
/// dimension's direction law is read off the law's own steps.
pub fn quadrants(
    cube: &Cube,
    routing: &Law,
    s: u32,
    d: u32,
) -> Result<Vec<Quadrant>, AnalysisError> {
    routing.check(cube)?;
    if !routing.intermediate_in_box() {
        return Err(AnalysisError::NotDefined {
            routing: routing.to_string(),
            topology: cube.network().spec().to_string(),
            reason: format!(
                "only {} draw an intermediate node from a box",
                super::oblivious::names_where(|l| l.intermediate_in_box())
            ),
        });
    }
    let (sc, dc) = (cube.coords(s), cube.coords(d));
    let mut per_dim: Vec<Vec<(Option<Dir>, Ratio<i128>)>> = Vec::new();
    for j in 0..cube.dims() {
        let (k, a, b) = (cube.radix()[j], sc[j], dc[j]);
        // The law of the dimension's direction, from the routing's steps
        // (in their order: RLB's short direction first).
        let mut options: Vec<(Option<Dir>, Ratio<i128>)> = Vec::new();
        for st in routing.dim_steps(k, cube.is_torus(), routing.tie_side(s), a, b) {
            let dir = st.first.or(st.second);
            match options.iter_mut().find(|e| e.0 == dir) {
                Some(e) => e.1 += st.probability,
                None => options.push((dir, st.probability)),
            }
        }
        per_dim.push(if options.is_empty() {
            vec![(None, Ratio::from_integer(1))]
        } else {
            options
        });
    }
    let mut out = vec![Quadrant {
        directions: Vec::new(),
        probability: Ratio::from_integer(1),
        boxes: Vec::new(),
    }];
    for (j, options) in per_dim.iter().enumerate() {
        let (k, a, b) = (cube.radix()[j], sc[j], dc[j]);
        out = out
            .into_iter()
            .flat_map(|q| {
                options.iter().map(move |&(dir, p)| {
                    let mut q = q.clone();
                    q.directions.push(dir);
                    q.probability *= p;
                    q.boxes.push(match dir {
                        Some(dir) => box_coords(k, a, b, dir),
                        None => vec![a],
                    });
                    q
                })
            })
            .collect();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(s: &str) -> Law {
        s.parse().unwrap()
    }

    #[test]
    fn the_thesis_example() {
        let cube = Cube::from_spec("torus:8x8").unwrap();
        let s = cube.node(&[0, 0]);
        let d = cube.node(&[2, 3]);
        let q = quadrants(&cube, &law("rlb"), s, d).unwrap();
        let probs: Vec<Ratio<i128>> = q.iter().map(|q| q.probability).collect();
        assert_eq!(
            probs,
            vec![
                Ratio::new(15, 32),
                Ratio::new(9, 32),
                Ratio::new(5, 32),
                Ratio::new(3, 32)
            ]
        );
        assert_eq!(q[2].directions, vec![Some(Dir::Minus), Some(Dir::Plus)]);
        assert_eq!(
            q[2].boxes,
            vec![vec![0, 7, 6, 5, 4, 3, 2], vec![0, 1, 2, 3]]
        );
        // RLBth: Δ = 2 and 3 are not below k/4 = 2, so the same.
        let th = quadrants(&cube, &law("rlbth"), s, d).unwrap();
        assert_eq!(th, q);
        // A near pair under RLBth keeps the minimal quadrant only.
        let near = quadrants(&cube, &law("rlbth"), s, cube.node(&[1, 0])).unwrap();
        assert_eq!(near.len(), 1);
        assert_eq!(near[0].directions, vec![Some(Dir::Plus), None]);
        assert_eq!(near[0].boxes, vec![vec![0, 1], vec![0]]);
    }

    #[test]
    fn romm_has_the_minimal_quadrant_and_dor_none() {
        let cube = Cube::from_spec("torus:8x8").unwrap();
        let q = quadrants(&cube, &law("romm"), 0, cube.node(&[4, 6])).unwrap();
        // Tie in dimension 0 (Δ = 4): two quadrants of 1/2.
        assert_eq!(q.len(), 2);
        assert!(q.iter().all(|q| q.probability == Ratio::new(1, 2)));
        assert_eq!(q[0].boxes[1], vec![0, 7, 6]);
        assert!(quadrants(&cube, &law("val"), 0, 5).is_err());
    }
}
