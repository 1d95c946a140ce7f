//! Fuzzing the command line: every subcommand with random flags, numbers as
//! people type them (negative, fractional, huge, NaN, empty), malformed
//! specs, missing and repeated flags. Each invocation runs the real binary
//! under a 4 GiB address-space limit and must end within 20 s with exit code
//! 0, 1 (a run that failed) or 2 (bad input, with a message naming the flag
//! or the field); never a panic (101) or a signal. A valid run longer than
//! that (`sim --cycles 4294967296`) must show progress and stop when asked. Every numeric flag of
//! every subcommand, found through clap, takes a negative number to
//! routelab's own validation, whose message gives the accepted range.

use crate::fuzz_support;

use fuzz_support::{
    AWKWARD_NUMBERS, fuzz, near_miss, routing_examples, switch_model_names, topologies, traffic,
};
use proptest::prelude::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What an invocation did.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code; `-1` still running at the limit without a word of
    /// progress (a hang), `-2` still running but showing progress and
    /// stopped when asked (a valid long run, cancelled), `-3` showing
    /// progress but not stopping when asked.
    pub code: Option<i32>,
    pub stderr: String,
    pub took: Duration,
}

/// The words routelab's progress lines carry (`src/cli/progress.rs`).
const PROGRESS: &str = "Ctrl-C cancels";

/// Valid runs too long for the limit that showed progress and stopped when
/// asked, for docs/reliability.md.
pub static CANCELLED_LONG_RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Run the binary with `args` under a 4 GiB address-space limit. At
/// `limit` a run that has shown progress within the last 15 s is asked to
/// stop (SIGTERM, what `kill` and job schedulers send; an interactive
/// Ctrl-C sends SIGINT, which a background job may inherit as ignored) and
/// must end within 5 s; a run that has said nothing is a hang and is
/// killed.
pub fn invoke(args: &[String], limit: Duration) -> Outcome {
    use std::io::BufRead;
    use std::sync::{Arc, Mutex};
    // In a scratch directory: invocations with file flags (`--csv X`,
    // `--channels X`) write files, which must not land in the repository.
    let scratch = std::env::temp_dir().join(format!("routelab-fuzz-cli-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    // The campaign subcommands' file (`positional`).
    let tiny = scratch.join(TINY_CAMPAIGN.0);
    if !tiny.exists() {
        let _ = std::fs::write(&tiny, TINY_CAMPAIGN.1);
    }
    let mut child = Command::new("sh")
        .current_dir(&scratch)
        .arg("-c")
        .arg("ulimit -v 4194304 2>/dev/null; exec \"$0\" \"$@\"")
        .arg(crate::fuzz_support::routelab_bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the routelab binary");
    let start = Instant::now();
    let heard: Arc<Mutex<(String, Instant)>> = Arc::new(Mutex::new((String::new(), start)));
    let stderr = child.stderr.take().unwrap();
    let reader = {
        let heard = Arc::clone(&heard);
        std::thread::spawn(move || {
            let mut lines = std::io::BufReader::new(stderr);
            let mut line = String::new();
            while matches!(lines.read_line(&mut line), Ok(n) if n > 0) {
                let mut h = heard.lock().unwrap();
                h.0.push_str(&line);
                h.1 = Instant::now();
                line.clear();
            }
        })
    };
    let signal = |sig: &str, pid: u32| {
        let _ = Command::new("kill").args([sig, &pid.to_string()]).status();
    };
    let wait_for = |child: &mut std::process::Child, d: Duration| {
        let t = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return Some(status);
            }
            if t.elapsed() > d {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let code = match wait_for(&mut child, limit) {
        Some(status) => status.code(),
        None => {
            let progressing = {
                let h = heard.lock().unwrap();
                h.0.contains(PROGRESS) && h.1.elapsed() < Duration::from_secs(15)
            };
            if progressing {
                signal("-TERM", child.id());
                if wait_for(&mut child, Duration::from_secs(5)).is_some() {
                    Some(-2)
                } else {
                    let _ = child.kill();
                    let _ = child.wait();
                    Some(-3)
                }
            } else {
                let _ = child.kill();
                let _ = child.wait();
                Some(-1)
            }
        }
    };
    let _ = reader.join();
    let stderr = std::mem::take(&mut heard.lock().unwrap().0);
    Outcome {
        code,
        stderr,
        took: start.elapsed(),
    }
}

/// Every long flag of a subcommand (`campaign run`: words separated by a
/// space) with whether it takes a value.
fn flags(sub: &str) -> Vec<(String, bool)> {
    use clap::CommandFactory;
    let mut cmd = routelab::cli::Cli::command();
    for word in sub.split(' ') {
        let Some(s) = cmd.find_subcommand(word).cloned() else {
            return Vec::new();
        };
        cmd = s;
    }
    cmd.get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            let takes = a.get_action().takes_values();
            Some((format!("--{long}"), takes))
        })
        .filter(|(f, _)| f != "--help" && f != "--version")
        .collect()
}

const SUBCOMMANDS: &[&str] = &[
    "sim",
    "sweep",
    "saturation",
    "topo",
    "paths",
    "load",
    "campaign run",
    "campaign slurm",
    "campaign merge",
    "campaign plot",
];

/// A campaign file written into the invocations' scratch directory: two
/// short points, so that `campaign run` ends in well under a second.
const TINY_CAMPAIGN: (&str, &str) = (
    "tiny.json",
    r#"{"name": "tiny", "base": {"topology": "torus:4x4"}, "set": {"cycles": 200, "warmup": 50},
       "axes": {"routing": ["dor"], "load": [0.1, 0.2]}}"#,
);

/// The positional argument a valid invocation of `sub` gives: the
/// campaign file, or the directory `campaign run` fills.
fn positional(sub: &str) -> Option<&'static str> {
    match sub {
        "campaign run" | "campaign slurm" => Some(TINY_CAMPAIGN.0),
        "campaign merge" | "campaign plot" => Some("out-tiny"),
        _ => None,
    }
}

/// `sub`'s words, then its positional argument (`given`, or the valid
/// one with `defaults`).
fn head(sub: &str, given: String, defaults: bool) -> Vec<String> {
    let mut args: Vec<String> = sub.split(' ').map(str::to_string).collect();
    if let Some(p) = positional(sub) {
        args.push(if defaults { p.to_string() } else { given });
    }
    args
}

/// Quick defaults so that a valid invocation runs in well under a second.
fn quick(sub: &str) -> &'static [(&'static str, &'static str)] {
    match sub {
        "sim" => &[
            ("--topology", "torus:4x4"),
            ("--cycles", "300"),
            ("--warmup", "100"),
        ],
        "sweep" => &[
            ("--topology", "torus:4x4"),
            ("--cycles", "300"),
            ("--warmup", "100"),
            ("--loads", "0.1,0.5"),
        ],
        "saturation" => &[
            ("--topology", "torus:4x4"),
            ("--cycles", "300"),
            ("--warmup", "100"),
            ("--seeds", "1"),
            ("--step", "0.25"),
        ],
        "topo" => &[("--topology", "torus:4x4")],
        "paths" => &[
            ("--topology", "irregular:8:seed=2"),
            ("--select", "lowport"),
            ("--budget", "100"),
        ],
        "load" => &[
            ("--topology", "torus:4x4"),
            ("--routing", "dor"),
            ("--traffic", "uniform"),
        ],
        "campaign run" => &[("--out", "out-tiny")],
        "campaign slurm" => &[("--out", "out-slurm")],
        _ => &[],
    }
}

fn value() -> BoxedStrategy<String> {
    let examples: &'static [&'static str] = Box::leak(routing_examples().into_boxed_slice());
    prop_oneof![
        4 => prop::sample::select(AWKWARD_NUMBERS).prop_map(str::to_string),
        2 => near_miss(topologies()),
        2 => near_miss(examples),
        1 => near_miss(traffic()),
        1 => near_miss(Box::leak(switch_model_names().into_boxed_slice())),
        1 => prop::sample::select(&[
            "wormhole", "vct", "saf", "adaptive", "first-free", "random",
            "exponential", "updown-dfs", "udwm", "maxcp", "sa", "ga", "sd", "max", "0.1:0.9:0.2",
            "0.1,0.2", "-0.1:0.5:0.1", "1:0:0.1", "0:1:0", "0:1:1e-9", "/nonexistent.json",
            "/dev/null", "--json", "-", "🙂",
        ][..])
        .prop_map(str::to_string),
    ]
    .boxed()
}

fn invocation() -> impl Strategy<Value = Vec<String>> {
    let flag = (any::<prop::sample::Index>(), value(), any::<bool>());
    (
        prop::sample::select(SUBCOMMANDS),
        prop::collection::vec(flag, 0..4),
        any::<bool>(),
        value(),
    )
        .prop_map(|(sub, picks, defaults, given)| {
            let all = flags(sub);
            let mut args = head(sub, given, defaults);
            for (i, v, with_value) in picks {
                let (f, takes) = &all[i.index(all.len())];
                args.push(f.clone());
                if *takes || with_value {
                    args.push(v);
                }
            }
            // A process argument cannot hold a NUL byte.
            for a in &mut args {
                *a = a.replace('\0', "\\0");
            }
            if defaults {
                for (f, v) in quick(sub) {
                    if !args.iter().any(|a| a == f) {
                        args.push(f.to_string());
                        args.push(v.to_string());
                    }
                }
            }
            args
        })
}

/// Does an exit-2 message say what is wrong: a flag or field of the
/// invocation, or what is accepted?
fn names_something(args: &[String], stderr: &str) -> bool {
    // The error line, after any notes before it (`campaign plot` says
    // first how many points have results).
    let Some(at) = stderr
        .match_indices("error:")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || stderr[..i].ends_with('\n'))
    else {
        return false;
    };
    let stderr = &stderr[at..];
    stderr.contains("accepted")
            || stderr.contains("required")
            || stderr.contains("cannot")
            // clap quotes the stray or repeated argument (or its first
            // letters, `-i` of `-inf`); routelab quotes a file or
            // directory argument it cannot use.
            || quoted(stderr).iter().any(|q| args.iter().any(|a| a.contains(q.as_str())))
            || args.iter().filter(|a| a.starts_with("--")).any(|f| {
                let name = f.trim_start_matches('-');
                stderr.contains(f.as_str())
                    || stderr.contains(name)
                    || stderr.contains(&name.replace('-', "_"))
            })
}

/// The non-empty tokens of a message quoted as clap quotes them (`'...'`)
/// or as routelab does (`` `...` ``; a path may have more after the
/// argument, `DIR/points`, so its first component counts too).
fn quoted(msg: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for quote in ['\'', '`'] {
        for t in msg
            .split(quote)
            .skip(1)
            .step_by(2)
            .filter(|t| !t.is_empty())
        {
            tokens.push(t.to_string());
            if quote == '`'
                && let Some((first, _)) = t.split_once('/')
                && !first.is_empty()
            {
                tokens.push(first.to_string());
            }
        }
    }
    tokens
}

pub fn check(args: &[String], limit: Duration) -> Result<(), String> {
    let out = invoke(args, limit);
    let shown = || format!("routelab {}", args.join(" "));
    if out.stderr.contains("panicked") || out.stderr.contains("RUST_BACKTRACE") {
        return Err(format!("{}: panicked: {}", shown(), out.stderr));
    }
    match out.code {
        Some(0) | Some(1) => Ok(()),
        Some(2) if names_something(args, &out.stderr) => Ok(()),
        Some(2) => Err(format!(
            "{}: a message that names nothing: {}",
            shown(),
            out.stderr
        )),
        Some(-1) => Err(format!(
            "{}: still running after {:?} without a word of progress",
            shown(),
            out.took
        )),
        Some(-2) => {
            CANCELLED_LONG_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        Some(-3) => Err(format!(
            "{}: showed progress but did not stop within 5 s of SIGTERM",
            shown()
        )),
        other => Err(format!(
            "{}: exit {other:?} (a signal, an abort or a panic): {}",
            shown(),
            out.stderr
        )),
    }
}

#[test]
fn malformed_invocations() {
    // Invocations per subcommand, for docs/reliability.md.
    let seen: Vec<std::sync::atomic::AtomicU64> = SUBCOMMANDS.iter().map(|_| 0.into()).collect();
    fuzz("cli_invocations", 60, invocation(), |args| {
        if let Some(i) = SUBCOMMANDS.iter().position(|s| {
            let words: Vec<&str> = s.split(' ').collect();
            args.len() >= words.len() && args.iter().zip(&words).all(|(a, w)| a == w)
        }) {
            seen[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // A valid long run (`sweep --cycles 4294967296`) is asked to stop
        // at the limit and may take 5 s more: 20 + 5 s stays within the
        // fuzzer's 30 s a case (`fuzz_support::MAX_CASE`), which a 30 s
        // limit did not, so such a run was reported as too slow and shrunk
        // 35 s a step, without end.
        check(args, Duration::from_secs(20))
    });
    let per: Vec<String> = SUBCOMMANDS
        .iter()
        .zip(&seen)
        .map(|(s, n)| format!("{s} {}", n.load(std::sync::atomic::Ordering::Relaxed)))
        .collect();
    println!("fuzz cli_invocations per subcommand: {}", per.join(", "));
    println!(
        "fuzz cli_invocations valid long runs that showed progress and stopped when asked: {}",
        CANCELLED_LONG_RUNS.load(std::sync::atomic::Ordering::Relaxed)
    );
}

/// Every numeric flag of every subcommand (a flag that takes `1` but not
/// `abc`) takes `-0.5` and `-1` as values: the message is routelab's, with
/// the accepted range, not the parser's "unexpected argument".
#[test]
fn negative_numbers_reach_routelab_validation() {
    let mut numeric = 0;
    for sub in SUBCOMMANDS {
        for (flag, takes) in flags(sub) {
            if !takes {
                continue;
            }
            let base: Vec<String> = quick(sub)
                .iter()
                .filter(|(f, _)| *f != flag)
                .flat_map(|(f, v)| [f.to_string(), v.to_string()])
                .collect();
            let with = |v: &str| {
                let mut a = head(sub, String::new(), true);
                a.extend([flag.clone(), v.to_string()]);
                a.extend(base.clone());
                a
            };
            use clap::Parser;
            let parses = |v: &str| {
                let mut a = vec!["routelab".to_string()];
                a.extend(with(v));
                routelab::cli::Cli::try_parse_from(a).is_ok()
            };
            if !parses("1") || parses("abc") {
                continue; // not a numeric flag
            }
            numeric += 1;
            for v in ["-0.5", "-1", "nan", "1e999", "99999999999999999999999"] {
                let args = with(v);
                let out = invoke(&args, Duration::from_secs(60));
                let msg = &out.stderr;
                // No numeric flag takes a negative number; a huge one may
                // be accepted (e.g. `load --load`, which only scales).
                if !v.starts_with('-') && out.code == Some(0) {
                    continue;
                }
                assert_eq!(out.code, Some(2), "routelab {}: {msg}", args.join(" "));
                assert!(
                    !msg.contains("unexpected argument"),
                    "routelab {}: {msg}",
                    args.join(" ")
                );
                let name = flag.trim_start_matches('-');
                assert!(
                    (msg.contains(&flag) || msg.contains(&name.replace('-', "_")))
                        && msg.contains("accepted"),
                    "routelab {}: the message should name {flag} and the accepted range: {msg}",
                    args.join(" ")
                );
            }
        }
    }
    assert!(numeric >= 15, "only {numeric} numeric flags found");
}

/// Progress goes by time, not by chunks of work: a run of a few hundred
/// slow cycles (a big network) reports while it runs, not only at its
/// end (it used to report per 1 024 cycles, so a 350-cycle run on
/// `torus:64x64x64` was silent for 88 s).
#[test]
fn a_short_run_of_slow_cycles_reports_while_it_runs() {
    let out = Command::new(crate::fuzz_support::routelab_bin())
        .args([
            "sim",
            "--topology",
            "torus:64x64",
            "--cycles",
            "400",
            "--warmup",
            "0",
            "--load",
            "0.3",
        ])
        .env("ROUTELAB_PROGRESS_INTERVAL_MS", "100")
        .stdin(Stdio::null())
        .output()
        .expect("run the routelab binary");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let during: Vec<u64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("routelab: "))
        .filter_map(|l| l.split(" of 400 cycles").next()?.parse().ok())
        .filter(|&done| done < 400)
        .collect();
    assert!(
        !during.is_empty(),
        "no progress line before the end of the run:\n{err}"
    );
}

/// A valid run of hours (`--cycles` far below its limit of 10^12) says how
/// far it has got and how long is left, on standard error, and stops at
/// once when asked: `sim`, `sweep` and `saturation`.
#[test]
fn a_valid_long_run_shows_progress_and_stops_when_asked() {
    use std::io::BufRead;
    for args in [
        &["sim", "--topology", "torus:4x4", "--cycles", "4294967296"][..],
        &[
            "sweep",
            "--topology",
            "torus:4x4",
            "--cycles",
            "4294967296",
            "--loads",
            "0.1,0.2",
        ],
        &[
            "saturation",
            "--topology",
            "torus:4x4",
            "--cycles",
            "4294967296",
        ],
    ] {
        let mut child = Command::new(crate::fuzz_support::routelab_bin())
            .args(args)
            .env("ROUTELAB_PROGRESS_INTERVAL_MS", "200")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the routelab binary");
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        lines.read_line(&mut first).unwrap();
        assert!(
            first.starts_with("routelab: ")
                && first.contains(" cycles (")
                && first.contains(" left")
                && first.contains(PROGRESS),
            "routelab {}: {first}",
            args.join(" ")
        );
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let asked = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if asked.elapsed() > Duration::from_secs(5) {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(
            status.is_some_and(|s| !s.success()),
            "routelab {}: still running 5 s after SIGTERM",
            args.join(" ")
        );
    }
}
