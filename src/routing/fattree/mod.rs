//! Fat-tree balancers for the time-slice switch model
//! ([`crate::sim::TimeSlice`]): the greedy balancer of "Datacenter Network
//! Multi-path Load Balancing using weighted paths and greedy algorithms"
//! (the weighted-path paper, `../shared/papers/`, file 001),
//! step by step ([`greedy`]), and what datacenters run, as baselines: ECMP
//! ([`ecmp`]), DRILL ([`drill`]) and the existing D-mod-k
//! ([`super::DModK`]). All of them decide per message, once per time
//! slice, from static tables ([`table`], [`weights`]) and what the switch
//! knows of its neighbours' buffers at the start of the slice
//! ([`super::BufferView`]); the greedy balancer also sets the order in
//! which a switch sends and what it accepts per neighbour ([`policy`]).

pub mod drill;
pub mod ecmp;
pub mod greedy;
pub mod policy;
pub mod table;
pub mod weights;

pub use drill::{Drill, DrillSpec};
pub use ecmp::{Ecmp, EcmpSpec};
pub use greedy::{Greedy, GreedyParams, GreedySpec, Score, in_accept};
pub use policy::SlicePolicy;
pub use table::{FatTreeTable, MAX_K};
pub use weights::{WeightedDistances, weight};

pub(super) use drill::KIND as DRILL_KIND;
pub(super) use ecmp::KIND as ECMP_KIND;
pub(super) use greedy::KIND as GREEDY_KIND;
