#!/usr/bin/env bash
# Runs every test of the project, from a fresh clone on a fresh Debian 12 machine:
#   system packages -> the pinned Node and npm -> npm packages -> lint + types -> program host
#   tests -> reproducible program rebuild -> every vitest suite (toolchain, sdk, program in LiteSVM,
#   localnet, api, end to end) -> the API suites again on PostgreSQL.
# The suites run on the freshly built .so (AGENT_POLICY_SO), never only on the committed one.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

# The throwaway PostgreSQL cluster (scripts/postgres.sh) may be started by a suite of the first
# vitest pass as well as by the PostgreSQL pass below: stop it however this script ends.
trap 'bash scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT

step "system packages"
bash scripts/install-system-deps.sh

step "Node and npm (scripts/node-toolchain.env)"
source scripts/use-node.sh
echo "node $(node --version) ($(command -v node)), npm $(npm --version)"

step "npm packages"
bash scripts/ensure-node-deps.sh

step "lint and types"
biome check .
tsc -p tsconfig.json --noEmit

step "program: host unit tests (cargo test --offline)"
(cd programs/agent-policy && /usr/bin/cargo test --offline --quiet)

step "program: rebuild and compare with the committed target/deploy/agent_policy.so"
fresh=$(tsx programs/toolchain/src/cli.ts verify)
export AGENT_POLICY_SO="$fresh"
echo "suites run on $AGENT_POLICY_SO"

step "test suites (vitest; the API suites on SQLite)"
vitest run

# The storage has two dialects; every API and indexer suite runs again on PostgreSQL (Debian's,
# started here by the project's own script as a throwaway cluster under data/postgres, stopped at
# the end).
step "API and indexer suites on PostgreSQL"
pg_url=$(bash scripts/postgres.sh start)
DATABASE_URL="$pg_url" vitest run tests/api tests/indexer
