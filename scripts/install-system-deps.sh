#!/usr/bin/env bash
# Installs the Debian packages the build and the test suites need.
# The offline SBF build (see programs/toolchain):
#   rustc-web                 rustc 1.96 whose target list has bpfel-unknown-none
#   cargo-web                 the matching cargo
#   libstd-rust-web-dev-bpf   prebuilt core/alloc/compiler_builtins for bpfel-unknown-none
#   rust-web-llvm             pulls llvm-<N>: llc-<N>, llvm-link-<N>, llvm-dis-<N>
# Solana's platform-tools, crates.io and GitHub are unreachable on these machines; Debian's
# archive is, so this is the whole toolchain.
# The API (issue 6):
#   postgresql                the server binaries (/usr/lib/postgresql/<N>/bin) scripts/postgres.sh
#                             runs a throwaway test cluster with; the API suite also runs on it
#   build-essential, python3  node-gyp's compiler, make and Python: ws's native addons (bufferutil,
#                             utf-8-validate) are compiled against the pinned Node's headers at
#                             install (scripts/ensure-node-deps.sh), and better-sqlite3 compiles
#                             its own on a platform its package ships no binary for
# The dashboard's browser suite (tests/browser, Playwright):
#   chromium                  Debian's build, driven at /usr/bin/chromium; Playwright's own browser
#                             download is unreachable here, and this one gets security updates
# The CI's proof that no test depends on the machine's speed (scripts/ci-under-load.sh):
#   stress-ng                 the CPU burner that loads every core while the whole CI runs
# Debian's postgresql package also starts a system cluster on port 5432; the tests never use it
# (scripts/postgres.sh runs its own on 127.0.0.1:55432).
#
# Idempotent: runs `apt-get update` and `apt-get install` only when a package is missing, so a
# second run touches nothing. Needs root on a fresh Debian 12 (bookworm, with bookworm-security,
# where the *-web packages live). Exits non-zero with the reason on any failure.
# APT_RETRY_DELAY (seconds, default 15) is the pause before the one retry of a failed apt-get.
set -euo pipefail

PACKAGES=(rustc-web cargo-web libstd-rust-web-dev-bpf rust-web-llvm postgresql build-essential python3 chromium stress-ng)

log() { printf 'install-system-deps: %s\n' "$*"; }
fail() {
  printf 'install-system-deps: error: %s\n' "$*" >&2
  exit 1
}

is_installed() {
  # `dpkg-query` says "install ok installed" only for fully configured packages; a half-installed
  # one (interrupted dpkg) counts as missing so apt gets to finish it.
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

# apt and unattended-upgrades take the dpkg lock; one retry after a pause covers the usual case
# (a boot-time apt run) without hiding a real failure.
apt_retry() {
  if "$@"; then
    return 0
  fi
  log "'$*' failed (dpkg/apt lock held by another process?); retrying once in ${APT_RETRY_DELAY:-15} s"
  sleep "${APT_RETRY_DELAY:-15}"
  "$@"
}

command -v dpkg-query >/dev/null 2>&1 || fail "dpkg-query not found: this script supports Debian 12 only"

missing=()
for package in "${PACKAGES[@]}"; do
  if is_installed "$package"; then
    log "ok: $package already installed"
  else
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  log "nothing to do: all ${#PACKAGES[@]} packages are installed"
else
  [[ "$(id -u)" == "0" ]] || fail "missing packages (${missing[*]}); run as root to install them"
  export DEBIAN_FRONTEND=noninteractive
  log "missing: ${missing[*]}; running apt-get update"
  apt_retry apt-get update -q || fail "apt-get update failed; check network access to the Debian mirrors"
  log "installing: ${missing[*]}"
  apt_retry apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    fail "apt-get install ${missing[*]} failed; they come from bookworm-security (is it in sources.list?)"
  for package in "${missing[@]}"; do
    is_installed "$package" || fail "$package is still not installed after apt-get install"
    log "installed: $package"
  done
fi

# The packages can be installed and still unusable (e.g. a partial upgrade); check what the build
# relies on, so the failure shows up here rather than deep inside a build.
/usr/bin/rustc --print target-list | grep -x 'bpfel-unknown-none' >/dev/null ||
  fail "/usr/bin/rustc does not list the bpfel-unknown-none target"
sysroot="$(/usr/bin/rustc --print sysroot)"
compgen -G "$sysroot/lib/rustlib/bpfel-unknown-none/lib/libcore-*.rlib" >/dev/null ||
  fail "no prebuilt core for bpfel-unknown-none under $sysroot/lib/rustlib (libstd-rust-web-dev-bpf)"
llvm_major="$(/usr/bin/rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
[[ -n "$llvm_major" ]] || fail "could not read the LLVM version from /usr/bin/rustc -vV"
for tool in "llc-$llvm_major" "llvm-link-$llvm_major" "llvm-dis-$llvm_major"; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found on PATH (Debian package llvm-$llvm_major)"
done
log "toolchain ready: $(/usr/bin/rustc -V), LLVM $llvm_major"

pg_bindir="$(compgen -G '/usr/lib/postgresql/*/bin' | sort -V | tail -n 1 || true)"
[[ -n "$pg_bindir" && -x "$pg_bindir/initdb" && -x "$pg_bindir/postgres" ]] ||
  fail "no PostgreSQL server binaries under /usr/lib/postgresql/<N>/bin (Debian package postgresql)"
for tool in cc c++ make python3; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found on PATH (Debian packages build-essential, python3)"
done
log "API test tools ready: PostgreSQL $("$pg_bindir/postgres" --version | awk '{print $3}'), $(python3 -V)"
[[ -x /usr/bin/chromium ]] || fail "/usr/bin/chromium not found (Debian package chromium)"
log "browser ready: $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium (version unreadable)')"
