#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suites (issue 6: the API suite runs on SQLite and, with
# DATABASE_URL, on PostgreSQL). Nothing here is fit for real data.
#
#   scripts/postgres.sh start            create the cluster the first time, start it, print the URL
#   scripts/postgres.sh stop             stop it (fast shutdown); fine when it is not running
#   scripts/postgres.sh url              print the URL of database `cpay`
#   scripts/postgres.sh fresh-db NAME    start if needed, drop and recreate database NAME, print its URL
#
# stdout carries only the URL (last line), so `DATABASE_URL=$(scripts/postgres.sh start)` works; every
# log line goes to stderr. Exits non-zero with the reason on any failure.
#
# Where and how it runs:
# - Data: data/postgres (git-ignored; CPAY_PG_DATA overrides), log: data/postgres/server.log.
# - Listens on 127.0.0.1 only, port CPAY_PG_PORT (default 55432), unix socket inside the data dir, so it
#   never collides with a system cluster on 5432 or /var/run/postgresql.
# - Trust authentication, superuser `postgres`: the URL needs no password. Acceptable only because it
#   listens on loopback and holds nothing but test data.
# - Binaries from the highest /usr/lib/postgresql/<N>/bin (else `pg_config --bindir`; CPAY_PG_BINDIR
#   overrides), not PATH, where Debian puts wrappers (pg_ctlcluster) or stray symlinks.
# - initdb and postgres refuse to run as root, so as root the cluster belongs to the `postgres` OS user
#   (created by Debian's postgresql package) and every server command runs through runuser.
# - Concurrent invocations (parallel CI jobs) are serialised by a flock on data/postgres.lock.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$(pwd -P)"
DATA="${CPAY_PG_DATA:-$ROOT/data/postgres}"
PORT="${CPAY_PG_PORT:-55432}"
HOST=127.0.0.1
DATABASE=cpay

log() { printf 'postgres.sh: %s\n' "$*" >&2; }
fail() {
  printf 'postgres.sh: error: %s\n' "$*" >&2
  exit 1
}
usage() { fail "usage: scripts/postgres.sh start | stop | url | fresh-db NAME"; }

if ! [[ "$PORT" =~ ^[0-9]+$ ]] || ((PORT < 1024 || PORT > 65535)); then
  fail "CPAY_PG_PORT must be a port number in 1024..65535, got '$PORT'"
fi
[[ "$DATA" == /* ]] || DATA="$ROOT/$DATA"
# The server binds its socket at $DATA/.s.PGSQL.<port>; Linux caps socket paths at 107 bytes.
socket_path="$DATA/.s.PGSQL.$PORT"
((${#socket_path} <= 107)) ||
  fail "the socket path $socket_path is longer than 107 bytes; set CPAY_PG_DATA to a shorter path"

url_for() { printf 'postgres://postgres@%s:%s/%s\n' "$HOST" "$PORT" "$1"; }

find_bindir() {
  local dir
  if [[ -n "${CPAY_PG_BINDIR:-}" ]]; then
    dir="$CPAY_PG_BINDIR"
  else
    dir="$(compgen -G '/usr/lib/postgresql/*/bin' | sort -V | tail -n 1 || true)"
    if [[ -z "$dir" ]] && command -v pg_config >/dev/null 2>&1; then dir="$(pg_config --bindir)"; fi
  fi
  [[ -n "$dir" ]] || fail "no PostgreSQL server found; run scripts/install-system-deps.sh (Debian package postgresql)"
  for tool in initdb pg_ctl postgres pg_isready psql; do
    [[ -x "$dir/$tool" ]] || fail "$dir/$tool is missing; install the PostgreSQL server (Debian package postgresql)"
  done
  printf '%s\n' "$dir"
}
# Binaries, the cluster's OS user and the serialising lock; `url` needs none of them.
prepare() {
  BIN="$(find_bindir)"
  # As root, server commands run as `postgres` from / (root's cwd may be unreadable to that user).
  if [[ "$(id -u)" == "0" ]]; then
    RUN_AS=postgres
    id -u postgres >/dev/null 2>&1 || fail "running as root needs the 'postgres' OS user (Debian package postgresql)"
    command -v runuser >/dev/null 2>&1 || fail "running as root needs runuser (util-linux)"
    as_owner() { (cd / && runuser -u postgres -- "$@"); }
  else
    RUN_AS="$(id -un)"
    as_owner() { "$@"; }
  fi
  mkdir -p "$(dirname "$DATA")" || fail "cannot create $(dirname "$DATA")"
  exec 9>"$DATA.lock" || fail "cannot open the lock file next to $DATA"
  flock 9 || fail "cannot lock $DATA.lock"
}

psql_admin() {
  PGOPTIONS="-c client_min_messages=warning" "$BIN/psql" "$(url_for postgres)" -X -q -v ON_ERROR_STOP=1 "$@" ||
    fail "psql failed: $*"
}

is_running() { as_owner "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1; }

# Port of the running server: line 4 of postmaster.pid.
running_port() { sed -n 4p "$DATA/postmaster.pid" 2>/dev/null || true; }

init_cluster() {
  if [[ -f "$DATA/PG_VERSION" ]]; then
    local made_by binary
    made_by="$(cat "$DATA/PG_VERSION")"
    binary="$("$BIN/postgres" --version | sed -n 's/.* \([0-9]*\)\..*/\1/p')"
    [[ "$made_by" == "$binary" ]] ||
      fail "$DATA was made by PostgreSQL $made_by but $BIN is $binary; stop it and delete $DATA (test data only)"
    [[ "$(stat -c %U "$DATA")" == "$RUN_AS" ]] ||
      fail "$DATA belongs to $(stat -c %U "$DATA"), not $RUN_AS; run this script as that user (or as root for 'postgres')"
    return 0
  fi
  if [[ -e "$DATA" && -n "$(ls -A "$DATA" 2>/dev/null)" ]]; then
    fail "$DATA exists but is not a PostgreSQL cluster (no PG_VERSION); remove it and retry"
  fi
  log "creating a test cluster in $DATA (owner $RUN_AS)"
  mkdir -p "$DATA" || fail "cannot create $DATA"
  chown "$RUN_AS": "$DATA" || fail "cannot give $DATA to $RUN_AS"
  chmod 700 "$DATA"
  as_owner test -w "$DATA" || {
    rmdir "$DATA" 2>/dev/null || true
    fail "the '$RUN_AS' user cannot reach $DATA (a parent directory is not searchable by it, e.g. /root); set CPAY_PG_DATA to a path it can reach"
  }
  # --no-sync and the settings in cpay.conf trade crash safety for speed: a lost cluster costs one
  # re-run of the tests.
  as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C \
    --no-sync --no-instructions >&2 || fail "initdb failed for $DATA"
  printf "\ninclude = 'cpay.conf'\n" | as_owner tee -a "$DATA/postgresql.conf" >/dev/null ||
    fail "cannot edit $DATA/postgresql.conf"
}

# Rewritten on every start so a changed CPAY_PG_PORT or data path takes effect.
write_settings() {
  local socket_dir="${DATA//\'/\'\'}"
  as_owner tee "$DATA/cpay.conf" >/dev/null <<EOF || fail "cannot write $DATA/cpay.conf"
# Written by scripts/postgres.sh on every start; edits are lost.
listen_addresses = '$HOST'
port = $PORT
unix_socket_directories = '$socket_dir'
# Test-only speed: no durability. A crash can corrupt this cluster; it holds only test data.
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

wait_ready() {
  for _ in $(seq 1 60); do
    "$BIN/pg_isready" -q -h "$HOST" -p "$PORT" -U postgres -d postgres && return 0
    sleep 0.5
  done
  fail "the server on $HOST:$PORT did not accept connections within 30 s; see $DATA/server.log"
}

ensure_database() {
  local exists
  exists="$(psql_admin -tAc "select 1 from pg_database where datname = '$1'")"
  [[ "$exists" == "1" ]] || psql_admin -c "create database \"$1\"" || fail "cannot create database $1"
}

start() {
  init_cluster
  if is_running; then
    local port
    port="$(running_port)"
    [[ "$port" == "$PORT" ]] ||
      fail "the cluster in $DATA is already running on port ${port:-?}, not $PORT; run 'scripts/postgres.sh stop' first"
    log "already running on $HOST:$PORT"
  else
    write_settings
    log "starting PostgreSQL ($BIN) on $HOST:$PORT"
    # 9>&-: the postmaster outlives this script and must not inherit (and so hold) the lock.
    if ! as_owner "$BIN/pg_ctl" start -D "$DATA" -l "$DATA/server.log" -w -t 60 >&2 9>&-; then
      tail -n 20 "$DATA/server.log" >&2 2>/dev/null || true
      fail "the server did not start (port $PORT taken by another server?); see $DATA/server.log"
    fi
  fi
  wait_ready
  ensure_database "$DATABASE"
}

stop() {
  if [[ -f "$DATA/PG_VERSION" ]] && is_running; then
    as_owner "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t 60 >&2 || fail "pg_ctl stop failed for $DATA"
  else
    log "not running"
  fi
}

fresh_db() {
  # Only plain lowercase identifiers: the name goes into SQL and a URL unquoted.
  [[ "$1" =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || fail "database name must match [a-z_][a-z0-9_]{0,62}, got '$1'"
  [[ "$1" != postgres && "$1" != template0 && "$1" != template1 ]] || fail "refusing to recreate system database $1"
  start
  psql_admin -c "drop database if exists \"$1\" with (force)"
  psql_admin -c "create database \"$1\""
}

command="${1:-}"
case "$command" in
  start)
    (($# == 1)) || usage
    prepare
    start
    url_for "$DATABASE"
    ;;
  stop)
    (($# == 1)) || usage
    prepare
    stop
    ;;
  url)
    (($# == 1)) || usage
    url_for "$DATABASE"
    ;;
  fresh-db)
    (($# == 2)) || usage
    prepare
    fresh_db "$2"
    url_for "$2"
    ;;
  *) usage ;;
esac
