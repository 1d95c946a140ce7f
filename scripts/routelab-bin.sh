# Kept for scripts not yet moved to lib.sh: sources it.
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
