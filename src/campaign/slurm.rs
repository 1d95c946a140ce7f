//! A Slurm job array for a campaign: an `sbatch` script whose N array
//! tasks each run their deterministic share of the points
//! (`routelab campaign run FILE --out DIR --task $SLURM_ARRAY_TASK_ID
//! --tasks N`). Slurm distributes the tasks; routelab only splits.

use std::path::Path;

/// What the script needs.
#[derive(Clone, Debug)]
pub struct JobArray<'a> {
    /// The routelab binary, absolute.
    pub binary: &'a Path,
    /// The campaign file, absolute.
    pub file: &'a Path,
    /// The output directory, absolute.
    pub out: &'a Path,
    /// The directory the tasks start in (relative `base` paths resolve
    /// from it), absolute.
    pub workdir: &'a Path,
    /// Array tasks.
    pub tasks: usize,
    /// `--partition`.
    pub partition: Option<&'a str>,
    /// `--time`.
    pub time: Option<&'a str>,
    /// CPUs per task (`--cpus-per-task`); each task runs its points on
    /// that many threads.
    pub cpus_per_task: Option<usize>,
    /// Extra `campaign run` arguments (`--set cycles=1000`), already quoted.
    pub run_args: &'a [String],
    /// Extra `#SBATCH` lines' arguments, one per line (`--account=x`).
    pub sbatch_args: &'a [String],
    /// The job's name.
    pub name: &'a str,
}

/// Quote `s` for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

impl JobArray<'_> {
    /// The sbatch script's text.
    pub fn script(&self) -> String {
        let q = |p: &Path| shell_quote(&p.display().to_string());
        let mut s = String::from("#!/bin/bash\n");
        s.push_str(
            "# A routelab campaign as a Slurm job array, made by `routelab campaign slurm`.\n",
        );
        s.push_str("# Each array task runs its share of the points; results land in the output\n");
        s.push_str("# directory as they finish. Resubmitting computes only what is missing.\n");
        s.push_str(&format!("#SBATCH --job-name={}\n", job_name(self.name)));
        s.push_str(&format!(
            "#SBATCH --array=0-{}\n",
            self.tasks.saturating_sub(1)
        ));
        s.push_str(&format!(
            "#SBATCH --output={}\n",
            q(&self.out.join("slurm").join("task-%A_%a.out"))
        ));
        s.push_str("#SBATCH --ntasks=1\n");
        if let Some(c) = self.cpus_per_task {
            s.push_str(&format!("#SBATCH --cpus-per-task={c}\n"));
        }
        if let Some(p) = self.partition {
            s.push_str(&format!("#SBATCH --partition={}\n", shell_quote(p)));
        }
        if let Some(t) = self.time {
            s.push_str(&format!("#SBATCH --time={}\n", shell_quote(t)));
        }
        for a in self.sbatch_args {
            s.push_str(&format!("#SBATCH {a}\n"));
        }
        s.push_str("set -euo pipefail\n");
        s.push_str(&format!("cd {}\n", q(self.workdir)));
        s.push_str(
            "# Use the CPUs Slurm gave this task.\nif [ -n \"${SLURM_CPUS_PER_TASK:-}\" ]; then export RAYON_NUM_THREADS=\"$SLURM_CPUS_PER_TASK\"; fi\n",
        );
        let extra = if self.run_args.is_empty() {
            String::new()
        } else {
            format!(" {}", self.run_args.join(" "))
        };
        s.push_str(&format!(
            "exec {} campaign run {} --out {} --task \"$SLURM_ARRAY_TASK_ID\" --tasks {}{extra}\n",
            q(self.binary),
            q(self.file),
            q(self.out),
            self.tasks
        ));
        s
    }
}

/// Slurm's time formats (`sbatch --time`, the sbatch(1) manual): minutes,
/// minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes,
/// days-hours:minutes:seconds, or `infinite` / `unlimited`. Checked here so
/// that a mistyped limit is refused when the script is written, not by
/// `sbatch` on the cluster.
pub const TIME_ACCEPTED: &str =
    "Slurm's time formats MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or unlimited";

/// `s` if it is a Slurm time limit ([`TIME_ACCEPTED`]).
pub fn parse_time(s: &str) -> Result<String, String> {
    let number = |x: &str| !x.is_empty() && x.len() <= 9 && x.bytes().all(|b| b.is_ascii_digit());
    let fields = |x: &str, most: usize| {
        let f: Vec<&str> = x.split(':').collect();
        f.len() <= most && f.iter().all(|y| number(y))
    };
    let ok = s.eq_ignore_ascii_case("unlimited")
        || s.eq_ignore_ascii_case("infinite")
        || match s.split_once('-') {
            Some((days, rest)) => number(days) && fields(rest, 3),
            None => fields(s, 3),
        };
    accepted_if(ok, s, "a time limit", TIME_ACCEPTED)
}

/// What `--partition` accepts: Slurm partition names (letters, digits,
/// `_`, `-`, `.`), several separated by commas.
pub const PARTITION_ACCEPTED: &str =
    "partition names of letters, digits, `_`, `-` and `.`, separated by commas";

/// `s` if it is one or more partition names ([`PARTITION_ACCEPTED`]).
pub fn parse_partition(s: &str) -> Result<String, String> {
    let ok = s
        .split(',')
        .all(|name| !name.is_empty() && name.chars().all(name_char));
    accepted_if(ok, s, "a partition", PARTITION_ACCEPTED)
}

/// What `--sbatch-args` accepts: one whole `sbatch` option per value.
pub const SBATCH_ARG_ACCEPTED: &str =
    "one whole sbatch option per value, starting with `-` (e.g. `--account=net`), on one line";

/// `s` if it is one `sbatch` option ([`SBATCH_ARG_ACCEPTED`]): written as
/// it is after `#SBATCH`, so a line break in it would put a line of its
/// own into the script.
pub fn parse_sbatch_arg(s: &str) -> Result<String, String> {
    let ok = s.starts_with('-') && !s.chars().any(char::is_control);
    accepted_if(ok, s, "an sbatch option", SBATCH_ARG_ACCEPTED)
}

/// `s` if `ok`, else the message that it is not `what` and what is
/// `accepted` (control characters in `s` shown escaped).
fn accepted_if(ok: bool, s: &str, what: &str, accepted: &str) -> Result<String, String> {
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{}` is not {what}; accepted {accepted}",
            s.escape_debug()
        ))
    }
}

/// A character Slurm takes as it is in a name (a partition, a job):
/// letters, digits, `_`, `-` and `.`.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// A job name from a campaign file's name: characters other than letters,
/// digits, `_`, `-` and `.` become `_`, so the `#SBATCH` line holds it as
/// it is.
pub fn job_name(stem: &str) -> String {
    stem.chars()
        .map(|c| if name_char(c) { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_time_limits_and_partitions_are_checked() {
        for t in [
            "30",
            "30:00",
            "02:00:00",
            "1-12",
            "1-12:30",
            "1-12:30:00",
            "0",
            "UNLIMITED",
            "infinite",
        ] {
            assert_eq!(parse_time(t), Ok(t.to_string()), "{t}");
        }
        for t in [
            "",
            "1:2:3:4",
            "2h",
            "-1",
            "1-",
            "1-2:3:4:5",
            "1--2",
            " 30",
            "1:",
            "1e3",
        ] {
            let e = parse_time(t).unwrap_err();
            assert!(e.contains("MM:SS"), "{t}: {e}");
        }
        for p in ["short", "gpu-a100", "a,b", "debug.x_1"] {
            assert_eq!(parse_partition(p), Ok(p.to_string()), "{p}");
        }
        for p in ["", "a b", "a,", "x;rm -rf", "🙂"] {
            assert!(parse_partition(p).is_err(), "{p}");
        }
        assert!(parse_sbatch_arg("--account=net").is_ok());
        for a in ["", "account=net", "--x\nrm -rf ~", "--x\r"] {
            let e = parse_sbatch_arg(a).unwrap_err();
            assert!(e.contains("one whole sbatch option"), "{a}: {e}");
        }
        assert_eq!(job_name("drb sweep\n1"), "drb_sweep_1");
    }

    #[test]
    fn script_runs_each_task_share() {
        let j = JobArray {
            binary: Path::new("/opt/routelab"),
            file: Path::new("/home/a/drb.json"),
            out: Path::new("/scratch/a b"),
            workdir: Path::new("/home/a"),
            tasks: 3,
            partition: Some("short"),
            time: Some("01:00:00"),
            cpus_per_task: None,
            run_args: &[],
            sbatch_args: &["--account=net".to_string()],
            name: "drb",
        };
        let s = j.script();
        assert!(s.contains("#SBATCH --array=0-2\n"), "{s}");
        assert!(s.contains("#SBATCH --partition=short\n"));
        assert!(s.contains("#SBATCH --account=net\n"));
        assert!(s.contains(
            "exec /opt/routelab campaign run /home/a/drb.json --out '/scratch/a b' --task \"$SLURM_ARRAY_TASK_ID\" --tasks 3\n"
        ));
    }
}
