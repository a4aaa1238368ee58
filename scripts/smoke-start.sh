#!/usr/bin/env bash
# Starts the service with the README start command, waits until its JSON-RPC answers getHealth and
# the agent-policy program is deployed, runs the program suite against it over RPC the way
# `anchor test --skip-build` runs it against a validator, then stops it. Fails if the service does
# not come up within 120 s or the suite fails.
set -euo pipefail
cd "$(dirname "$0")/.."
rpc() { curl -s -m 5 -H 'content-type: application/json' -d "$1" http://127.0.0.1:8899; }
# Something already answering on 8899 would be tested instead of the service started here.
if rpc '{"jsonrpc":"2.0","id":0,"method":"getHealth"}' >/dev/null; then
  echo "smoke-start: 127.0.0.1:8899 is already in use; stop that process first" >&2
  exit 1
fi
log=$(mktemp)
# Its own session, so the whole tree (npx -> tsx -> node) is stopped at the end, not just bash.
setsid bash scripts/start.sh >"$log" 2>&1 &
pid=$!
trap 'kill -TERM -- -$pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 120); do
  if ! kill -0 $pid 2>/dev/null; then
    echo "smoke-start: the service exited early:"; cat "$log"; exit 1
  fi
  if rpc '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' | grep -q '"result":"ok"'; then
    program=$(rpc '{"jsonrpc":"2.0","id":2,"method":"getAccountInfo","params":["8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",{"encoding":"base64"}]}')
    if echo "$program" | grep -q '"executable":true'; then
      echo "smoke-start: localnet is serving and the program is deployed"
      wallet=$(mktemp)
      npx tsx tests/support/write-localnet-wallet.ts "$wallet" >/dev/null
      ANCHOR_PROVIDER_URL=http://127.0.0.1:8899 ANCHOR_WALLET="$wallet" npx vitest run tests/validator
      rm -f "$wallet"
      exit 0
    fi
    echo "smoke-start: getAccountInfo(program) did not show an executable account: $program"; exit 1
  fi
  sleep 1
done
echo "smoke-start: no answer on 127.0.0.1:8899 within 120 s:"; cat "$log"; exit 1
