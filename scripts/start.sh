#!/usr/bin/env bash
# Starts the service on its embedded defaults, as three processes stopped together, each talking to
# the chain only over Solana JSON-RPC + PubSub, exactly as they would to a validator:
# 1. the localnet (localnet/src/main.ts): LiteSVM with the agent-policy program deployed and the USDG
#    mint, JSON-RPC on 127.0.0.1:8899 and PubSub on 127.0.0.1:8900, its chain store under ./data/localnet
#    (kept across restarts, like a validator's). Once it serves it writes ./data/localnet/localnet.json
#    (URLs, genesis hash, program id, mint, the test keypairs' files).
# 2. the API (api/src/main.ts) on http://127.0.0.1:3000 (the dashboard web app, built first, at /) and the admin listener on 127.0.0.1:3001,
#    SQLite under ./data, reaching the localnet through that manifest. Prints a test API key for the
#    demo account and curl examples.
# 3. the indexer (indexer/src/main.ts): follows the program over the same RPC, writes records and
#    events to the same database, and answers GET /health on 127.0.0.1:3002.
# A restart keeps everything: the chain store and the database both live under ./data. If any of
# the three exits, the others are stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh >/dev/null
source scripts/use-node.sh
bash scripts/ensure-node-deps.sh
# The account holders' web app the API serves at / (dashboard/README.md); a build takes seconds.
npm run build --silent --workspace @cpay/dashboard >/dev/null
# The localnet directory (LOCALNET_LEDGER_DIR is its former name, still read).
localnet_dir=${LOCALNET_DIR:-${LOCALNET_LEDGER_DIR:-data/localnet}}
manifest="$localnet_dir/localnet.json"
pids=()
stop() {
  trap - EXIT INT TERM
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop EXIT INT TERM
# Waits until $1 (a command) succeeds, while process $2 is alive; $3 names it for the error.
await() {
  for _ in $(seq 1 240); do
    if eval "$1"; then return 0; fi
    kill -0 "$2" 2>/dev/null || { wait "$2"; exit $?; }
    sleep 0.5
  done
  echo "start: $3 did not come up within 120 s" >&2
  exit 1
}

# The manifest of an earlier run names ports and a genesis that may no longer be served.
rm -f "$manifest"
LOCALNET_DIR="$localnet_dir" tsx localnet/src/main.ts &
pids+=($!)
await "[ -s '$manifest' ]" "${pids[0]}" "the localnet"

LOCALNET_DIR="$localnet_dir" tsx api/src/main.ts "$@" &
pids+=($!)
await "[ \"\$(curl -s -m 2 -o /dev/null -w '%{http_code}' http://127.0.0.1:${PORT:-3000}/v1/openapi.json)\" = 200 ]" \
  "${pids[1]}" "the API"

RPC_URL=${RPC_URL:-http://127.0.0.1:${LOCALNET_RPC_PORT:-8899}} \
  RPC_WS_URL=${RPC_WS_URL:-ws://127.0.0.1:${LOCALNET_WS_PORT:-8900}} \
  tsx indexer/src/main.ts &
pids+=($!)
# Whichever stops first (a crash, or Ctrl-C) stops the others.
wait -n "${pids[@]}" || status=$?
exit "${status:-0}"
