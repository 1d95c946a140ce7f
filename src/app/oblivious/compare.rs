//! The `routelab load --compare` table, computed a cell at a time so the app
//! can show it filling in (no egui here): the IDEAL (analytic) throughput
//! of every routing of [`Law::compared`] on nearest-neighbour,
//! uniform, bit-complement, transpose and tornado traffic, on its
//! Towles–Dally worst case and on average over random permutations, each as
//! a fraction of the capacity Θ (Singh's thesis §2.2, "performance
//! measures": ideal, worst-case and average-case throughput).
//!
//! The numbers are those of `routelab load --compare --topology T --seed S`
//! ([`crate::cli`]'s `load` module, native only, so its column list is
//! repeated here as [`COLUMNS`]); `uniform` is the thesis's (λ = 1/N, a
//! node included), as there.

use super::background::Job;
use super::loads::{AverageSum, LoadSum, SLICE};
use crate::analysis::{
    AnalysisError, AverageCase, ChannelWeights, Cube, Law, MatrixSpec, TrafficMatrix, worst_case,
};
use crate::topology::Network;
use num_rational::Ratio;

/// The traffic columns, as `routelab load --compare` prints them.
pub const COLUMNS: [&str; 5] = ["nn", "uniform", "bitcomp", "transpose", "tornado"];

/// One routing's row.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub routing: Law,
    /// Why the routing has no numbers on this network (RLB on a mesh).
    pub undefined: Option<String>,
    /// Ideal throughput per column of [`COLUMNS`] (None: not computed yet,
    /// or the pattern does not fit the network).
    pub traffic: Vec<Option<Ratio<i128>>>,
    /// Worst-case ideal throughput (Towles and Dally).
    pub worst: Option<Ratio<i128>>,
    /// Mean over random permutations.
    pub average: Option<AverageCase>,
}

impl CompareRow {
    fn new(routing: Law) -> Self {
        CompareRow {
            routing,
            undefined: None,
            traffic: vec![None; COLUMNS.len()],
            worst: None,
            average: None,
        }
    }
}

/// The table so far.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareTable {
    /// The topology spec it is computed on.
    pub topology: String,
    /// Θ, flits per node per cycle; None until the first step.
    pub capacity: Option<Ratio<i128>>,
    /// Random permutations in the average.
    pub samples: usize,
    /// Seed of the average's permutations.
    pub seed: u64,
    pub rows: Vec<CompareRow>,
    /// Columns left empty and why (a pattern that does not fit, a worst
    /// case beyond the matching limit, a step left to the desktop app).
    pub notes: Vec<String>,
    /// Steps done and in all.
    pub done: usize,
    pub total: usize,
    /// Why the table cannot be computed at all (not a torus or mesh).
    pub error: Option<String>,
}

impl CompareTable {
    /// True when every step is done.
    pub fn finished(&self) -> bool {
        self.done >= self.total || self.error.is_some()
    }
}

/// Where the job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Build the cube and the column matrices.
    Prepare,
    /// Routing `i`: its channel weights.
    Weights(usize),
    /// Routing `i`, traffic column `c`: its channel loads, a slice a step.
    Cell(usize, usize),
    /// Routing `i`: the worst case.
    Worst(usize),
    /// Routing `i`: the random-permutation average, a slice a step.
    Average(usize),
    Done,
}

/// Units of progress per routing (traffic, worst, average).
const STEPS_PER_ROUTING: usize = 3;

/// The compare table as a [`Job`]. Steps are short (a [`SLICE`] of
/// summing at most, or one routing's weights or worst case), so the web
/// build can run a few per frame.
pub struct CompareJob {
    net: Network,
    /// Compute the worst case and the average (false: leave them to the
    /// desktop app, see [`CompareJob::new`]).
    heavy: bool,
    stage: Stage,
    cube: Option<Cube>,
    matrices: Vec<Option<TrafficMatrix>>,
    weights: Option<ChannelWeights>,
    /// The cell being summed.
    sum: Option<LoadSum>,
    /// The average being drawn.
    average: Option<AverageSum>,
    table: CompareTable,
}

impl CompareJob {
    /// The table of `net`, averages over `samples` permutations of `seed`.
    /// `heavy` false leaves out the worst case and the average (the web
    /// build on networks where one worst case would hold a frame too
    /// long).
    pub fn new(net: &Network, samples: usize, seed: u64, heavy: bool) -> Self {
        let routings = Law::compared();
        CompareJob {
            net: net.clone(),
            heavy,
            stage: Stage::Prepare,
            cube: None,
            matrices: Vec::new(),
            weights: None,
            sum: None,
            average: None,
            table: CompareTable {
                topology: net.spec().to_string(),
                capacity: None,
                samples: samples.max(1),
                seed,
                rows: routings.iter().cloned().map(CompareRow::new).collect(),
                notes: Vec::new(),
                done: 0,
                total: 1 + STEPS_PER_ROUTING * routings.len(),
                error: None,
            },
        }
    }

    fn note(&mut self, text: String) {
        if !self.table.notes.contains(&text) {
            self.table.notes.push(text);
        }
    }

    fn fail(&mut self, e: impl ToString) -> bool {
        self.table.error = Some(e.to_string());
        self.stage = Stage::Done;
        true
    }

    /// The first routing after `i` (or the end).
    fn after(&self, i: usize) -> Stage {
        if i + 1 < self.table.rows.len() {
            Stage::Weights(i + 1)
        } else {
            Stage::Done
        }
    }

    /// The next column of routing `i` from `c` on that fits the network
    /// (or its worst case).
    fn cell_from(&self, i: usize, c: usize) -> Stage {
        match (c..self.matrices.len()).find(|&c| self.matrices[c].is_some()) {
            Some(c) => Stage::Cell(i, c),
            None => Stage::Worst(i),
        }
    }

    fn prepare(&mut self) -> bool {
        let cube = match Cube::from_network(&self.net) {
            Ok(c) => c,
            Err(e) => return self.fail(e),
        };
        self.table.capacity = Some(cube.capacity());
        let mut matrices = Vec::new();
        for t in COLUMNS {
            let spec: MatrixSpec = match t.parse() {
                Ok(s) => s,
                Err(e) => return self.fail(e),
            };
            match TrafficMatrix::build(&spec, cube.network(), self.table.seed) {
                Ok(m) => matrices.push(Some(m)),
                Err(AnalysisError::Traffic { problem, .. }) => {
                    self.note(format!("{t}: {problem}"));
                    matrices.push(None);
                }
                Err(e) => return self.fail(e),
            }
        }
        if !self.heavy {
            self.note(format!(
                "worst and average: too slow for the browser on {} nodes; the desktop app, or `routelab load --compare --topology {}`, computes them",
                cube.num_nodes(),
                cube.network().spec()
            ));
        }
        self.cube = Some(cube);
        self.matrices = matrices;
        self.stage = Stage::Weights(0);
        self.table.done = 1;
        false
    }
}

impl Job for CompareJob {
    type Snapshot = CompareTable;

    fn step(&mut self) -> bool {
        match self.stage {
            Stage::Prepare => return self.prepare(),
            Stage::Weights(i) => {
                let Some(cube) = self.cube.as_ref() else {
                    return self.fail("the cube was not built");
                };
                match ChannelWeights::new(cube, self.table.rows[i].routing.clone()) {
                    Ok(w) => {
                        self.weights = Some(w);
                        self.stage = self.cell_from(i, 0);
                    }
                    Err(AnalysisError::NotDefined { reason, .. }) => {
                        self.table.rows[i].undefined = Some(reason);
                        self.weights = None;
                        self.table.done += STEPS_PER_ROUTING;
                        self.stage = self.after(i);
                    }
                    Err(e) => return self.fail(e),
                }
            }
            Stage::Cell(i, c) => {
                let (Some(w), Some(Some(m))) = (&self.weights, self.matrices.get(c)) else {
                    return self.fail("no weights or matrix for a cell");
                };
                let mut sum = match self.sum.take() {
                    Some(s) => s,
                    None => match LoadSum::new(w, m) {
                        Ok(s) => s,
                        Err(e) => return self.fail(e),
                    },
                };
                if sum.advance(w, m, SLICE) {
                    self.table.rows[i].traffic[c] = sum.finish().ideal;
                    self.stage = self.cell_from(i, c + 1);
                    if self.stage == Stage::Worst(i) {
                        self.table.done += 1;
                    }
                } else {
                    self.sum = Some(sum);
                }
            }
            Stage::Worst(i) => {
                if self.heavy
                    && let Some(w) = &self.weights
                {
                    match worst_case(w) {
                        Ok(wc) => self.table.rows[i].worst = Some(wc.ideal_throughput),
                        Err(e @ AnalysisError::TooLarge { .. }) => {
                            self.note(format!("worst: {e}"));
                        }
                        Err(e) => return self.fail(e),
                    }
                }
                self.table.done += 1;
                self.stage = Stage::Average(i);
            }
            Stage::Average(i) => {
                let finished = match (self.heavy, &self.weights) {
                    (true, Some(w)) => {
                        let avg = match self.average.take() {
                            Some(avg) => Ok(avg),
                            None => AverageSum::new(w, self.table.samples, self.table.seed),
                        };
                        match avg.and_then(|mut avg| Ok((avg.advance(w, SLICE)?, avg))) {
                            Ok((true, avg)) => {
                                match avg.finish(w) {
                                    Ok(a) => self.table.rows[i].average = Some(a),
                                    Err(e) => self.note(format!("average: {e}")),
                                }
                                true
                            }
                            Ok((false, avg)) => {
                                self.average = Some(avg);
                                false
                            }
                            Err(e) => {
                                self.note(format!("average: {e}"));
                                true
                            }
                        }
                    }
                    _ => true,
                };
                if finished {
                    self.average = None;
                    self.weights = None;
                    self.table.done += 1;
                    self.stage = self.after(i);
                }
            }
            Stage::Done => {}
        }
        self.stage == Stage::Done
    }

    fn snapshot(&self) -> CompareTable {
        self.table.clone()
    }
}

/// A ratio as a float.
pub fn value(r: Ratio<i128>) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(spec: &str, heavy: bool) -> CompareTable {
        let net = Network::from_spec(spec).unwrap();
        let mut job = CompareJob::new(&net, 50, 1, heavy);
        let mut steps = 0;
        while !job.step() {
            steps += 1;
            assert!(steps < 100);
        }
        let t = job.snapshot();
        assert!(t.finished(), "{t:?}");
        assert_eq!(t.done, t.total);
        t
    }

    /// VAL halves every pattern (two uniform phases: Singh §2.3), DOR's
    /// tornado on the 8-ring is 1/3 and RLB's 8/15 (Singh §3.1).
    #[test]
    fn the_ring_of_8_has_the_thesis_numbers() {
        let t = run("torus:8", true);
        assert_eq!(t.capacity, Some(Ratio::from_integer(1)));
        let row = |name: &str| {
            t.rows
                .iter()
                .find(|r| r.routing.to_string().starts_with(name))
                .unwrap()
        };
        let val = row("val");
        let transpose = COLUMNS.iter().position(|&c| c == "transpose").unwrap();
        for (i, cell) in val.traffic.iter().chain([&val.worst]).enumerate() {
            // Transpose needs an even power of two nodes: not on 8.
            let want = (i != transpose).then(|| Ratio::new(1, 2));
            assert_eq!(*cell, want, "column {i}");
        }
        assert!(t.notes.iter().any(|n| n.starts_with("transpose")), "{t:?}");
        assert!((val.average.as_ref().unwrap().mean - 0.5).abs() < 1e-12);
        let tornado = COLUMNS.iter().position(|&c| c == "tornado").unwrap();
        assert_eq!(row("dor").traffic[tornado], Some(Ratio::new(1, 3)));
        assert_eq!(row("rlb").traffic[tornado], Some(Ratio::new(8, 15)));
        // Theorem 4: RLB's worst case on a ring is 1/2.
        assert_eq!(row("rlb").worst, Some(Ratio::new(1, 2)));
    }

    #[test]
    fn a_mesh_leaves_rlb_undefined_and_light_tables_skip_the_heavy_columns() {
        let t = run("mesh:4x4", false);
        let rlb = t.rows.iter().find(|r| r.routing.spec() == "rlb");
        assert!(rlb.unwrap().undefined.as_ref().unwrap().contains("torus"));
        assert!(
            t.rows
                .iter()
                .all(|r| r.worst.is_none() && r.average.is_none())
        );
        assert!(t.notes.iter().any(|n| n.contains("desktop app")), "{t:?}");
        let val = t.rows.iter().find(|r| r.routing.spec() == "val");
        assert!(val.unwrap().traffic.iter().all(|c| c.is_some()));
    }

    #[test]
    fn a_network_that_is_no_cube_says_why() {
        let net = Network::from_spec("fattree:4").unwrap();
        let mut job = CompareJob::new(&net, 10, 1, true);
        assert!(job.step());
        let t = job.snapshot();
        assert!(t.finished());
        assert!(t.error.unwrap().contains("k-ary n-cubes"));
    }
}
