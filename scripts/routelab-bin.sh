# Sourced by the scripts that run routelab's CLI (bash only):
#
#     . "$(dirname "${BASH_SOURCE[0]}")/routelab-bin.sh"
#     B="$(routelab_bin)"
#
# `routelab_bin` prints the path of the routelab binary to run: $BIN when
# it is set, else a release build without the GUI, built now (quietly; its
# messages go to standard error) in the checkout this file belongs to, at
# the place CARGO_TARGET_DIR names (absolute, or relative to the checkout)
# or in target/.
routelab_bin() {
    if [ -n "${BIN:-}" ]; then
        echo "$BIN"
        return
    fi
    local root dir
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    (cd "$root" && cargo build --release --no-default-features --bin routelab --quiet) >&2
    dir="${CARGO_TARGET_DIR:-$root/target}"
    case "$dir" in /*) ;; *) dir="$root/$dir" ;; esac
    echo "$dir/release/routelab"
}
