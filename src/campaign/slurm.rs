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
        s.push_str(&format!("#SBATCH --job-name={}\n", shell_quote(self.name)));
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

#[cfg(test)]
mod tests {
    use super::*;

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
