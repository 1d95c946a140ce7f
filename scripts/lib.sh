# What the scripts that run routelab share (bash only; sourced):
#
#     . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#     B="$(routelab_bin)"
#
# `routelab_bin` prints the path of the routelab binary to run: $BIN when
# it is set, else a release build without the GUI, built now (quietly; its
# messages, and a line saying it builds, go to standard error) in the
# checkout this file belongs to, at the place CARGO_TARGET_DIR names
# (absolute, or relative to the checkout) or in target/.
routelab_bin() {
    if [ -n "${BIN:-}" ]; then
        echo "$BIN"
        return
    fi
    local root dir
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    echo "building routelab (cargo build --release --no-default-features)" >&2
    (cd "$root" && cargo build --release --no-default-features --bin routelab --quiet) >&2
    dir="${CARGO_TARGET_DIR:-$root/target}"
    case "$dir" in /*) ;; *) dir="$root/$dir" ;; esac
    echo "$dir/release/routelab"
}

# `ratio A B`: A / B to one decimal, `n/a` when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }

# The machine a comparison ran on: cores, CPU model, load average (the
# comparison scripts print it first, so a figure carries its context).
machine_line() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
