#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, from Debian's packages, to
# test `routelab campaign slurm`: install slurm-wlm and munge if missing
# (as root), generate a munge key and a slurm.conf in a temporary
# directory, start munged, slurmctld and slurmd, submit a small campaign
# as a job array of 3 tasks, wait for it, merge, and compare with
# `campaign run` of the same file on this machine: the two tables must be
# identical (the merge leaves out timing fields). Every daemon is stopped
# and the directory removed on exit.
#
#     bash scripts/slurm-test.sh            # BIN=path/to/routelab to skip the build
#
# Where the daemons cannot start (not root, no apt) it says so and skips
# with exit 0, except under CI (CI=true), where that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

CAMPAIGN=assets/campaigns/slurm-test.json
TASKS=3
TIMEOUT_S="${SLURM_TEST_TIMEOUT:-300}"

skip() {
    if [ "${CI:-}" = "true" ]; then
        echo "slurm-test: FAIL (CI must run it): $*" >&2
        exit 1
    fi
    echo "slurm-test: SKIPPED: $*" >&2
    exit 0
}

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        skip "slurmctld, slurmd and munged are not installed and this shell cannot apt-get install them (needs root and apt)"
    fi
    echo "== slurm-test: installing slurm-wlm and munge (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
if [ "$(id -u)" != 0 ]; then
    skip "the one-node cluster runs its daemons as root (SlurmUser=root); run as root"
fi

if [ -n "${BIN:-}" ]; then
    B="$(realpath "$BIN")"
else
    cargo build --release --no-default-features --bin routelab --quiet
    B="$(realpath target/release/routelab)"
fi

T="$(mktemp -d /tmp/routelab-slurm.XXXXXX)"
chmod 700 "$T"
PIDS=()
cleanup() {
    set +e
    if [ -n "${SLURM_CONF:-}" ] && [ -n "${JOB:-}" ]; then
        scancel "$JOB" 2>/dev/null
    fi
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT

HOST="$(hostname -s)"
CPUS="$(nproc)"
# Ports of our own, so a Slurm already on the machine is not disturbed.
CTLD_PORT=$((20000 + RANDOM % 20000))
SLURMD_PORT=$((CTLD_PORT + 1))

echo "== slurm-test: munge key and daemon in $T"
mkdir -p "$T/munge" "$T/spool" "$T/state" "$T/out"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
chmod 755 "$T/munge"
munged --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
    --seed-file="$T/munge/munged.seed" --foreground >"$T/munge/munged.stdout" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do
    [ -S "$T/munge/munge.socket" ] && break
    sleep 0.1
done
[ -S "$T/munge/munge.socket" ] || skip "munged did not start: $(cat "$T/munge/munged.log" 2>/dev/null)"

cat >"$T/slurm.conf" <<EOF
ClusterName=routelab
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmdSpoolDir=$T/spool
StateSaveLocation=$T/state
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=routelab Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

echo "== slurm-test: slurmctld and slurmd ($HOST, $CPUS CPUs, ports $CTLD_PORT/$SLURMD_PORT)"
slurmctld -D -i -f "$SLURM_CONF" >"$T/slurmctld.stdout" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$HOST" >"$T/slurmd.stdout" 2>&1 &
PIDS+=($!)
idle=""
for _ in $(seq 300); do
    state="$(sinfo -h -n "$HOST" -o %t 2>/dev/null || true)"
    if [ "$state" = "idle" ]; then
        idle=yes
        break
    fi
    sleep 0.2
done
if [ -z "$idle" ]; then
    echo "--- slurmctld log" >&2
    tail -20 "$T/slurmctld.log" "$T/slurmctld.stdout" >&2 || true
    echo "--- slurmd log" >&2
    tail -20 "$T/slurmd.log" "$T/slurmd.stdout" >&2 || true
    skip "the node did not become idle within 60 s (state: ${state:-none})"
fi
echo "node $HOST idle"

echo "== slurm-test: campaign slurm --tasks $TASKS, sbatch, wait"
"$B" campaign slurm "$CAMPAIGN" --out "$T/out/slurm" --tasks "$TASKS" --time 00:10:00
JOB="$(sbatch --parsable "$T/out/slurm/campaign.sbatch")"
JOB="${JOB%%;*}"
echo "job array $JOB submitted"
start=$(date +%s)
while [ -n "$(squeue -h -j "$JOB" 2>/dev/null)" ]; do
    if [ $(($(date +%s) - start)) -gt "$TIMEOUT_S" ]; then
        squeue -j "$JOB" >&2 || true
        echo "slurm-test: FAIL: job $JOB still queued or running after $TIMEOUT_S s" >&2
        exit 1
    fi
    sleep 1
done
echo "job array finished in $(($(date +%s) - start)) s"
states="$(scontrol -o show job "$JOB" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)"
echo "$states"
ntasks="$(scontrol -o show job "$JOB" | grep -c 'JobState=COMPLETED' || true)"
if [ "$ntasks" != "$TASKS" ]; then
    echo "slurm-test: FAIL: $ntasks of $TASKS array tasks COMPLETED" >&2
    cat "$T"/out/slurm/slurm/*.out >&2 || true
    exit 1
fi
for f in "$T"/out/slurm/slurm/*.out; do
    echo "--- $(basename "$f")"
    cat "$f"
done

echo "== slurm-test: merge, and the same campaign with campaign run"
"$B" campaign merge "$T/out/slurm" >"$T/slurm.csv"
"$B" campaign run "$CAMPAIGN" --out "$T/out/local"
"$B" campaign merge "$T/out/local" >"$T/local.csv"
if ! cmp -s "$T/slurm.csv" "$T/local.csv"; then
    diff "$T/slurm.csv" "$T/local.csv" | head -20 >&2
    echo "slurm-test: FAIL: the job array's table differs from campaign run's" >&2
    exit 1
fi
points="$(find "$T/out/slurm/points" -name '*.json' | wc -l)"
echo "slurm-test: PASS: $TASKS array tasks, $points points, merged table ($(($(wc -l <"$T/slurm.csv") - 1)) rows) identical to campaign run's"
