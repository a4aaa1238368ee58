#!/usr/bin/env bash
# Runs every test of the project, from a fresh clone on a fresh Debian 12 machine:
#   system packages -> the pinned Node and npm -> npm packages -> lint + types -> program host
#   tests -> reproducible program rebuild -> every vitest suite (toolchain, sdk, program in LiteSVM,
#   localnet, api, end to end; the chain in process) -> the API (relay included), indexer and
#   agent-client suites again on PostgreSQL with the chain as the localnet process over RPC -> the
#   dashboard in a real browser (Playwright driving Debian's Chromium).
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

step "dashboard build (the web app the API serves at /)"
npm run build --workspace @cpay/dashboard

step "lint and types"
biome check .
tsc -p tsconfig.json --noEmit

step "program: host unit tests (cargo test --offline)"
(cd programs/agent-policy && /usr/bin/cargo test --offline --quiet)

step "program: rebuild and compare with the committed target/deploy/agent_policy.so"
fresh=$(tsx programs/toolchain/src/cli.ts verify)
export AGENT_POLICY_SO="$fresh"
echo "suites run on $AGENT_POLICY_SO"

# tests/scale-out runs in this pass only: two API processes and the indexer share one database, so
# it always needs PostgreSQL and starts the throwaway cluster itself (postgresServerUrl in
# tests/support/api-database.ts; the trap above stops it); it runs the localnet as a process anyway.
step "test suites (vitest; the API suites on SQLite, the chain in process)"
vitest run

# The storage has two dialects and the chain two places; every API (relay included), indexer,
# agent-client, MCP and x402 suite runs again on PostgreSQL (Debian's, started here by the project's own script
# as a throwaway cluster under data/postgres, or CPAY_PG_DATA on CPAY_PG_PORT, stopped at the end)
# against the localnet as its own process over JSON-RPC + PubSub (CPAY_TEST_CHAIN=rpc: one localnet
# per world, as the service meets a validator). So each suite runs once in process on SQLite and
# once over RPC on PostgreSQL, without a third pass; none of them is pinned in process. The agent
# client meets the service's relay in tests/api/relay.test.ts and a test relay co-signing with the
# fee reserve in tests/agent-client (no database there: this pass runs it over RPC only).
# The MCP and x402 suites start the localnet process whatever CPAY_TEST_CHAIN says (an agent's host,
# a facilitator and a merchant's API reach it over JSON-RPC): here they meet PostgreSQL.
step "API, indexer, agent-client, MCP and x402 suites on PostgreSQL, the chain over RPC"
pg_url=$(bash scripts/postgres.sh start)
DATABASE_URL="$pg_url" CPAY_TEST_CHAIN=rpc vitest run tests/api tests/indexer tests/agent-client tests/mcp tests/x402

# Every benchmark entry once, short (BENCH_SMOKE=1, tests/bench/bench-scale.ts): the same worlds,
# child processes, loads and checks as `npm run bench`, with the fewest repetitions, so a bench that
# can no longer run fails here (an entry that throws, or a load with a failed request, exits 1 and
# is named) instead of on the next measurement. About a minute and a half; its figures are no measure.
step "benchmarks, one short round each (BENCH_SMOKE=1)"
BENCH_SMOKE=1 tsx tests/bench/run.ts

# The dashboard as its users meet it: built by Vite, served by the API, driven in Debian's Chromium
# (installed above) with a virtual passkey authenticator, against one world of its own (localnet,
# API and indexer processes on free ports, SQLite): tests/browser/playwright.config.ts. It runs the
# build of the "dashboard build" step above.
step "dashboard in a real browser (Playwright, Debian chromium)"
playwright test -c tests/browser
