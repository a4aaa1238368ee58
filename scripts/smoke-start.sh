#!/usr/bin/env bash
# Starts the service with the README start command (localnet, API and indexer as three processes
# over RPC) and checks what it serves:
# 1. the localnet's JSON-RPC answers getHealth and the agent-policy program is deployed; then
#    `anchor test` (the pinned anchor CLI, scripts/anchor-test.sh) runs Anchor.toml's test script
#    against it as against a validator (the service has initialised the program's config at start:
#    tests/validator accepts that config and checks it);
# 2. the /v1 API answers (GET /v1/openapi.json), and README.md's curl block (between the
#    `curl-examples` markers) runs as written, with the test key the start command printed as
#    CPAY_KEY, under `set -e` and `curl --fail-with-body`; `/` serves the dashboard the start built
#    to a page request, and `/v2/...` is the JSON 404.
# 3. the indexer the start command runs beside the API answers GET /health on :3002 and has
#    indexed the program's transactions (its checkpoint is set).
# Then it stops the service. Fails if the service does not come up within 180 s or any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh
rpc() { curl -s -m 5 -H 'content-type: application/json' -d "$1" http://127.0.0.1:8899; }
api_up() { [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:3000/v1/openapi.json)" = 200 ]; }
# Something already answering on 8899 or 3000 would be tested instead of the service started here.
if rpc '{"jsonrpc":"2.0","id":0,"method":"getHealth"}' >/dev/null || api_up; then
  echo "smoke-start: 127.0.0.1:8899 or :3000 is already in use; stop that process first" >&2
  exit 1
fi
log=$(mktemp)
block=$(mktemp)
# Its own session, so the whole tree (bash -> tsx -> node) is stopped at the end, not just bash.
setsid bash scripts/start.sh >"$log" 2>&1 &
pid=$!
trap 'kill -TERM -- -$pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$log" "$block"' EXIT

run_readme_examples() {
  for _ in $(seq 1 60); do
    api_up && break
    sleep 1
  done
  if ! api_up; then echo "smoke-start: no answer from GET /v1/openapi.json within 60 s:"; cat "$log"; exit 1; fi
  key=$(grep -o 'export CPAY_KEY=svc_test_[A-Za-z0-9_-]*' "$log" | head -1 | cut -d= -f2)
  if [ -z "$key" ]; then echo "smoke-start: the start command printed no CPAY_KEY:"; cat "$log"; exit 1; fi
  awk '/<!-- curl-examples:start -->/ { inside = 1; next } /<!-- curl-examples:end -->/ { inside = 0 }
       inside && !/^```/' README.md >"$block"
  if ! grep -q 'curl ' "$block"; then echo "smoke-start: no curl examples between the README markers"; exit 1; fi
  echo "smoke-start: running README.md's curl examples against the API"
  # shellcheck disable=SC2016
  CPAY_KEY="$key" bash -c 'set -euo pipefail; curl() { command curl --fail-with-body -sS "$@"; }; source "$1"' \
    smoke "$block"
  echo
  echo "smoke-start: README.md's curl examples all succeeded"
  # The start command built the dashboard: / serves it, asked for as a page (a browser's Accept),
  # with its Content-Security-Policy.
  headers=$(curl -s -m 5 -H 'Accept: text/html' -D - -o /dev/null http://127.0.0.1:3000/)
  if ! head -1 <<<"$headers" | grep -q " 200" ||
    ! grep -qi "^content-security-policy: default-src 'self'" <<<"$headers"; then
    echo "smoke-start: GET / does not serve the dashboard with its CSP"
    exit 1
  fi
  echo "smoke-start: the dashboard is served at /"
  # ... and never for another API version: a wrong base URL gets the JSON 404.
  if [ "$(curl -s -m 5 -H 'Accept: text/html' -o /dev/null -w '%{http_code} %{content_type}' \
    http://127.0.0.1:3000/v2/transfers)" != "404 application/json; charset=utf-8" ]; then
    echo "smoke-start: GET /v2/transfers is not the JSON 404"
    exit 1
  fi
}

# The start command's second process: its health answers, and it has indexed the transfers the
# README examples just made (its checkpoint is a program transaction, no longer null).
check_indexer() {
  for _ in $(seq 1 60); do
    health=$(curl -s -m 5 http://127.0.0.1:3002/health || true)
    if echo "$health" | grep -q '"status":"ok"' && echo "$health" | grep -q '"checkpoint":{'; then
      echo "smoke-start: the indexer is healthy and following the program: $health"
      return 0
    fi
    sleep 1
  done
  echo "smoke-start: the indexer did not report a checkpoint within 60 s: ${health:-no answer}"; cat "$log"; exit 1
}

# The start command brings up the localnet, then the API (which initialises the program's config
# before it answers), then the indexer: once the API answers, the chain is ready for the suites.
for _ in $(seq 1 180); do
  if ! kill -0 $pid 2>/dev/null; then
    echo "smoke-start: the service exited early:"; cat "$log"; exit 1
  fi
  if api_up && rpc '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' | grep -q '"result":"ok"'; then
    program=$(rpc '{"jsonrpc":"2.0","id":2,"method":"getAccountInfo","params":["8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",{"encoding":"base64"}]}')
    if echo "$program" | grep -q '"executable":true'; then
      echo "smoke-start: localnet is serving and the program is deployed"
      bash scripts/anchor-test.sh http://127.0.0.1:8899
      run_readme_examples
      check_indexer
      exit 0
    fi
    echo "smoke-start: getAccountInfo(program) did not show an executable account: $program"; exit 1
  fi
  sleep 1
done
echo "smoke-start: the localnet on 127.0.0.1:8899 and the API on :3000 did not both answer within 180 s:"; cat "$log"; exit 1
