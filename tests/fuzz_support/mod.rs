//! The harness the `tests/fuzz_*.rs` targets share: proptest strategies
//! drawn case by case (deterministically in CI), each case's property run
//! under `catch_unwind`, a failure shrunk to a minimal input, and a budget
//! in cases and in wall time.
//!
//! - `PROPTEST_CASES`: cases per target (default: each target's short CI
//!   pass).
//! - `ROUTELAB_FUZZ_SECONDS`: stop a target after this many seconds (the
//!   long runs of `scripts/fuzz.sh` set a huge case count and this).
//! - `ROUTELAB_FUZZ_SEED`: draw from this seed instead of the fixed one.
//!
//! Every test binary that includes this module counts its allocations: an
//! allocation that would take the process past 4 GiB fails (the process
//! aborts, so the target fails), and each target prints its peak.
//!
//! Each target prints one line to stderr, e.g.
//! `fuzz topology_specs: 2000 cases in 3.1 s (slowest 12 ms), peak heap 45 MiB, 0 failures`.

#![allow(dead_code)]

#[path = "../support/bin.rs"]
mod bin;
pub use bin::routelab_bin;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The allocation bar of the issue: no input may make routelab allocate
/// more than this.
pub const MAX_HEAP: usize = 4 << 30;
/// The hang bar: no single input may take longer.
pub const MAX_CASE: Duration = Duration::from_secs(30);

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if now > MAX_HEAP {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap of this process so far, in bytes.
pub fn peak_heap() -> usize {
    PEAK.load(Ordering::Relaxed)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Run `property` on values of `strategy`: `default_cases` cases (or
/// `PROPTEST_CASES`), within `ROUTELAB_FUZZ_SECONDS` if set. A property
/// fails by returning `Err` or by panicking; the failure is shrunk and the
/// test panics with the minimal input. Returns the cases run.
pub fn fuzz<S>(
    name: &str,
    default_cases: u64,
    strategy: S,
    property: impl Fn(&S::Value) -> Result<(), String>,
) -> u64
where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let cases = env_u64("PROPTEST_CASES").unwrap_or(default_cases);
    let budget = env_u64("ROUTELAB_FUZZ_SECONDS").map(Duration::from_secs);
    let seed = env_u64("ROUTELAB_FUZZ_SEED").unwrap_or(0x5eed_2026);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&fnv(name).to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let run = |v: &S::Value| -> Result<(), String> {
        let t = Instant::now();
        let r = match catch_unwind(AssertUnwindSafe(|| property(v))) {
            Ok(r) => r,
            Err(p) => Err(format!("panicked: {}", panic_text(&p))),
        };
        let took = t.elapsed();
        if r.is_ok() && took > MAX_CASE {
            return Err(format!("took {took:?}, over {MAX_CASE:?}"));
        }
        r
    };
    let start = Instant::now();
    let mut done = 0u64;
    let mut slowest = Duration::ZERO;
    // Quiet panics while shrinking; the final report says what failed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failure = None;
    while done < cases && budget.is_none_or(|b| start.elapsed() < b) {
        let mut tree = match strategy.new_tree(&mut runner) {
            Ok(t) => t,
            Err(e) => panic!("fuzz {name}: the strategy failed: {e}"),
        };
        let t = Instant::now();
        let r = run(&tree.current());
        if t.elapsed() > Duration::from_secs(2) && std::env::var_os("ROUTELAB_FUZZ_SLOW").is_some()
        {
            eprintln!(
                "fuzz {name}: slow case ({:?}): {:?}",
                t.elapsed(),
                tree.current()
            );
        }
        slowest = slowest.max(t.elapsed());
        done += 1;
        if let Err(first) = r {
            // Shrink: keep simplifying while it still fails.
            let mut last = (format!("{:?}", tree.current()), first);
            let mut steps = 0;
            while steps < 2000 && tree.simplify() {
                steps += 1;
                loop {
                    match run(&tree.current()) {
                        Err(e) => {
                            last = (format!("{:?}", tree.current()), e);
                            break;
                        }
                        Ok(()) => {
                            if !tree.complicate() {
                                break;
                            }
                        }
                    }
                }
            }
            failure = Some(last);
            break;
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "fuzz {name}: {done} cases in {:.1} s (slowest {} ms), peak heap {} MiB, {} failures",
        start.elapsed().as_secs_f64(),
        slowest.as_millis(),
        peak_heap() >> 20,
        failure.is_some() as u8
    );
    if let Some((input, e)) = failure {
        panic!("fuzz {name}: {e}\nminimal input: {input}");
    }
    done
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

// ------------------------------------------------------------ strategies

/// Numbers as people type them, and as they should not.
pub const AWKWARD_NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-0",
    "-0.5",
    "0.5",
    "1.5",
    "16",
    "17",
    "64",
    "65",
    "255",
    "256",
    "1024",
    "1025",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e3",
    "1e9",
    "1e999",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "0x10",
    "+3",
    " 3",
    "3 ",
    "",
    "٣",
    "3.0",
    "1_000",
];

/// A string near `valid`: a valid spec with a few mutations (numbers
/// swapped for awkward ones, characters inserted, deleted or repeated,
/// options appended).
pub fn near_miss(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    use proptest::prelude::*;
    let mutation = prop_oneof![
        3 => (any::<prop::sample::Index>(), prop::sample::select(AWKWARD_NUMBERS))
            .prop_map(|(i, n)| Mutation::Number(i, n)),
        2 => (any::<prop::sample::Index>(), "[0-9a-z:=x,.+_ -]{1,4}")
            .prop_map(|(i, s)| Mutation::Insert(i, s)),
        2 => (any::<prop::sample::Index>(), 1usize..4).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => (any::<prop::sample::Index>(), 1usize..4).prop_map(|(i, n)| Mutation::Repeat(i, n)),
        1 => prop::sample::select(&[
            ":hosts=", ":seed=", ":ports=", ":tie=", ":classes=", ":root=", ":fraction=",
            ":nodes=", ":budget=", ":cap=", ":objective=", ":init=", ":order=", ":routing=",
            "x", ":", "=", "::", ":é", "\u{0}", ":🙂",
        ][..])
            .prop_map(|s| Mutation::Append(s.to_string())),
    ];
    (
        prop::sample::select(valid),
        prop::collection::vec(mutation, 0..4),
    )
        .prop_map(|(base, muts)| {
            let mut s = base.to_string();
            for m in muts {
                m.apply(&mut s);
            }
            s
        })
}

#[derive(Clone, Debug)]
pub enum Mutation {
    Number(proptest::sample::Index, &'static str),
    Insert(proptest::sample::Index, String),
    Delete(proptest::sample::Index, usize),
    Repeat(proptest::sample::Index, usize),
    Append(String),
}

impl Mutation {
    pub fn apply(&self, s: &mut String) {
        let chars: Vec<char> = s.chars().collect();
        let at = |i: &proptest::sample::Index| i.index(chars.len() + 1);
        let rebuild = |v: Vec<char>| v.into_iter().collect::<String>();
        *s = match self {
            Mutation::Number(i, n) => {
                // Replace the i-th run of digits (or append the number).
                let runs: Vec<(usize, usize)> = digit_runs(&chars);
                if runs.is_empty() {
                    format!("{s}{n}")
                } else {
                    let (a, b) = runs[i.index(runs.len())];
                    let mut v = chars[..a].to_vec();
                    v.extend(n.chars());
                    v.extend(&chars[b..]);
                    rebuild(v)
                }
            }
            Mutation::Insert(i, t) => {
                let k = at(i);
                let mut v = chars[..k].to_vec();
                v.extend(t.chars());
                v.extend(&chars[k..]);
                rebuild(v)
            }
            Mutation::Delete(i, n) => {
                let k = at(i).min(chars.len());
                let e = (k + n).min(chars.len());
                let mut v = chars[..k].to_vec();
                v.extend(&chars[e..]);
                rebuild(v)
            }
            Mutation::Repeat(i, n) => {
                let k = at(i).min(chars.len());
                let e = (k + n).min(chars.len());
                let mut v = chars[..e].to_vec();
                v.extend(&chars[k..]);
                rebuild(v)
            }
            Mutation::Append(t) => format!("{s}{t}"),
        };
    }
}

fn digit_runs(chars: &[char]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let a = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((a, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Topology specs to start from: every registered kind's example
/// ([`routelab::topology::registry`], so a new kind is fuzzed with no edit
/// here), then the sizes and options the examples do not show.
pub fn topologies() -> &'static [&'static str] {
    static ALL: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let examples = routelab::topology::registry::kinds()
            .into_iter()
            .map(|k| k.example);
        with_examples(examples, MORE_TOPOLOGIES)
    })
}

/// Traffic specs to start from: every registered pattern's example, then
/// the options and analysis-only forms the examples do not show.
pub fn traffic() -> &'static [&'static str] {
    static ALL: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let examples = routelab::traffic::registry::kinds()
            .into_iter()
            .map(|k| k.example);
        with_examples(examples, MORE_TRAFFIC)
    })
}

/// `examples`, then those of `more` not among them.
fn with_examples(
    examples: impl Iterator<Item = &'static str>,
    more: &'static [&'static str],
) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = examples.collect();
    for m in more {
        if !v.contains(m) {
            v.push(m);
        }
    }
    v
}

/// Topology specs beyond the registry's examples.
const MORE_TOPOLOGIES: &[&str] = &[
    "torus:8x8",
    "torus:4x4x4",
    "torus:5",
    "torus:8x8:hosts=2",
    "mesh:4x4",
    "mesh:3x5",
    "hypercube:6",
    "hypercube:3:hosts=2",
    "midimew:64",
    "midimew:13",
    "fattree:4",
    "fattree:8",
    "irregular:16:seed=3",
    "irregular:32:ports=8:hosts=4:seed=1",
    "irregular:12:ports=6:hosts=2",
    "file:/nonexistent/routelab.edges",
];

/// Traffic specs beyond the registry's examples.
const MORE_TRAFFIC: &[&str] = &[
    "uniform",
    "hotspot:fraction=0.2:nodes=0,5",
    "hotspot",
    "bitrev",
    "bitcomp",
    "butterfly",
    "shuffle",
    "transpose",
    "tornado",
    "nn",
    "neighbor",
    "randperm",
    "worst",
    "worst:routing=rlb",
    "worst:routing=dor:tie=random",
];

/// Every registered routing's example specs (a routing added later joins).
pub fn routing_examples() -> Vec<&'static str> {
    routelab::routing::registry::KINDS
        .iter()
        .flat_map(|k| k.examples.iter().copied())
        .collect()
}

/// Every registered switch model's names, aliases included (a model
/// added later joins).
pub fn switch_model_names() -> Vec<&'static str> {
    routelab::sim::MODELS
        .iter()
        .flat_map(|m| std::iter::once(m.entry().name).chain(m.entry().aliases.iter().copied()))
        .collect()
}

/// Small networks to build routings and traffic on.
pub const SMALL_NETWORKS: &[&str] = &[
    "torus:4x4",
    "torus:5",
    "mesh:3x3",
    "hypercube:3",
    "midimew:13",
    "fattree:4",
    "irregular:8:seed=2",
    "torus:3x3x3",
];
