#!/usr/bin/env bash
# `anchor test` as the program's users run it, against a cluster that is already serving (the
# localnet started by scripts/start.sh, or any validator): the pinned @coral-xyz/anchor-cli 0.30.1
# runs Anchor.toml's test script (tests/validator) with ANCHOR_PROVIDER_URL and ANCHOR_WALLET set.
#   --skip-build: the program is built by programs/toolchain, not `anchor build`, so the IDL anchor
#     build would write to target/idl is copied there from idl/ (the one contract);
#   --skip-local-validator --skip-deploy: the cluster is running and has the program (the localnet
#     deploys it in genesis, as Anchor.toml's [[test.genesis]] asks of a validator);
#   localnet/bin first on PATH: anchor streams program logs with `solana logs`, which no Solana CLI
#     offline can give; the shim there implements that one command over logsSubscribe.
# Usage: bash scripts/anchor-test.sh [RPC URL, default http://127.0.0.1:8899] [WALLET FILE]
# Without a wallet file it writes the localnet's upgrade authority (localnet keys only).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh
url="${1:-http://127.0.0.1:8899}"
wallet="${2:-}"
# 0.31.x's wrapper exits 0 without running on glibc < 2.39: check this one really runs.
version=$(anchor --version)
if [ "$version" != "anchor-cli 0.30.1" ]; then
  echo "anchor-test: expected anchor-cli 0.30.1, got '$version'" >&2
  exit 1
fi
if [ -z "$wallet" ]; then
  wallet=$(mktemp)
  trap 'rm -f "$wallet"' EXIT
  tsx tests/support/write-localnet-wallet.ts "$wallet" >/dev/null
fi
mkdir -p target/idl
cp idl/agent_policy.json target/idl/agent_policy.json
out=$(mktemp)
status=0
PATH="$PWD/localnet/bin:$PATH" anchor test --skip-build --skip-local-validator --skip-deploy \
  --provider.cluster "$url" --provider.wallet "$wallet" 2>&1 | tee "$out" || status=$?
# A wrapper that exits 0 having run nothing must not pass: the suite's own summary must be there.
if [ "$status" -eq 0 ] && ! grep -q "Test Files .*passed" "$out"; then
  echo "anchor-test: anchor exited 0 but the test script's summary is missing" >&2
  status=1
fi
rm -f "$out"
exit "$status"
