# Sourced by every script of this project (`source scripts/use-node.sh`): provides the pinned Node.js
# and npm (scripts/ensure-node.sh) and puts them first on PATH, then the project's own tools
# (node_modules/.bin: tsx, vitest, tsc, biome), for this script and everything it starts. npm, tsx
# and vitest find `node` through PATH and child processes inherit it, so nothing runs on whichever
# Node the machine happens to have.
_cpay_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
CPAY_NODE_HOME="$(bash "$_cpay_root/scripts/ensure-node.sh")"
export CPAY_NODE_HOME
export PATH="$CPAY_NODE_HOME/bin:$_cpay_root/node_modules/.bin:$PATH"
hash -r
if [[ "$(node --version)" != "v$(sed -n 's/^NODE_VERSION=//p' "$_cpay_root/scripts/node-toolchain.env")" ]]; then
  printf 'use-node: error: node on PATH is %s, not the pinned one in %s\n' "$(node --version)" "$CPAY_NODE_HOME" >&2
  exit 1
fi
unset _cpay_root
