#!/usr/bin/env bash
# Starts the indexer alone (indexer/src/main.ts): it reads the program's logs over Solana RPC
# (RPC_URL / RPC_WS_URL, default the start command's localnet on 8899/8900), writes records, events
# and its checkpoint to DATABASE_URL (default ./data/cpay.sqlite), and answers GET /health on
# 127.0.0.1:3002. indexer/src/config.ts lists every setting (Helius included).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh
bash scripts/ensure-node-deps.sh
exec tsx indexer/src/main.ts "$@"
