#!/usr/bin/env bash
# The whole CI (.ci/run) on a machine kept busy: a test that passes idle and fails loaded is a
# failing test, so this runs every test, the bench smoke and the smoke start while stress-ng burns
# CPU_LOAD_WORKERS CPU workers (default 2, one per core of the 2-core CI machine) at full load.
# Prints the CI's wall time and the load average it met; exits with the CI's status.
# Usage: bash scripts/ci-under-load.sh        (CPU_LOAD_WORKERS=N to change the load)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
workers="${CPU_LOAD_WORKERS:-2}"
# No timeout: the burner lives exactly as long as the CI, and is stopped however the CI ends.
stress-ng --cpu "$workers" --cpu-method matrixprod --quiet &
burner=$!
trap 'kill "$burner" 2>/dev/null || true; wait "$burner" 2>/dev/null || true' EXIT
echo "ci-under-load: stress-ng --cpu $workers running (pid $burner)"
started=$(date +%s)
status=0
bash .ci/run || status=$?
elapsed=$(($(date +%s) - started))
echo "ci-under-load: .ci/run exited $status after ${elapsed} s under $workers CPU workers; load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
