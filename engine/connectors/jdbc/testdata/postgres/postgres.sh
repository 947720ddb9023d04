#!/usr/bin/env bash
# postgres.sh — a real PostgreSQL server on 127.0.0.1 for eddy's jdbc
# connector and catalog tests, from Debian's packages (installed with
# apt-get when the server binaries are missing). The cluster lives in a
# temporary state directory; user eddy (password eddy) owns database eddy.
# As root the server runs as the unprivileged 'postgres' user.
#
#   postgres.sh start   install if needed, initdb on first use, start in the
#                       background on a free port, wait until it answers,
#                       print jdbc:postgresql://127.0.0.1:PORT/eddy as the
#                       last line (a running server is reused)
#   postgres.sh stop    stop the server started by `start`
#   postgres.sh url     print the JDBC URL of the running server (exit 1 if
#                       none)
#   postgres.sh psql [ARGS...]
#                       psql connected to database eddy as user eddy
#
# Environment:
#   EDDY_POSTGRES_STATE          state directory (default
#                                ${TMPDIR:-/tmp}/eddy-postgres)
#   EDDY_POSTGRES_START_TIMEOUT  seconds to wait for the server (default 60)
set -euo pipefail

state=${EDDY_POSTGRES_STATE:-${TMPDIR:-/tmp}/eddy-postgres}
timeout=${EDDY_POSTGRES_START_TIMEOUT:-60}
[[ $state == /* ]] || state=$PWD/$state
data=$state/data

die() { echo "postgres.sh: $*" >&2; exit 1; }

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [[ -n $d && -x $d/initdb && -x $d/pg_ctl ]] || return 1
  echo "$d"
}

install_if_needed() {
  bindir >/dev/null && command -v psql >/dev/null && return 0
  [[ $(id -u) == 0 ]] || die "PostgreSQL is not installed (apt-get install postgresql)"
  echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >&2
  apt-get install -y --no-install-recommends postgresql postgresql-client >&2
  bindir >/dev/null || die "apt-get installed no PostgreSQL server binaries"
}

# as_owner runs a command as the owner of the cluster: the unprivileged
# 'postgres' user when run as root, else the calling user.
as_owner() {
  if [[ $(id -u) == 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null && return 0
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  die "no free port found"
}

answers() { # port
  PGPASSWORD=eddy PGCONNECT_TIMEOUT=3 psql -X -q -h 127.0.0.1 -p "$1" -U eddy -d eddy -tAc 'select 1' >/dev/null 2>&1
}

do_url() {
  [[ -f $state/port ]] || return 1
  local port
  port=$(cat "$state/port")
  answers "$port" || return 1
  echo "jdbc:postgresql://127.0.0.1:$port/eddy"
}

locked() {
  mkdir -p "$state"
  exec 9>"$state/lock"
  if command -v flock >/dev/null; then
    flock -w "$((timeout + 120))" 9 || die "another postgres.sh holds $state/lock"
  fi
  "$@"
  exec 9>&-
}

do_start() {
  if do_url; then return 0; fi
  install_if_needed
  local bin
  bin=$(bindir)
  mkdir -p "$state"
  chmod 755 "$state"
  if [[ $(id -u) == 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    chown postgres "$state"
  fi
  # The state directory and its parents must be reachable by the owner.
  if [[ ! -f $data/PG_VERSION ]]; then
    rm -rf "$data"
    local pw=$state/pwfile
    echo eddy >"$pw"
    if [[ $(id -u) == 0 ]]; then chown postgres "$pw"; fi
    as_owner "$bin/initdb" -D "$data" -U eddy --pwfile="$pw" --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$state/initdb.log" 2>&1 ||
      as_owner "$bin/initdb" -D "$data" -U eddy --pwfile="$pw" --auth=scram-sha-256 -E UTF8 --locale=C >"$state/initdb.log" 2>&1 ||
      { cat "$state/initdb.log" >&2; die "initdb failed"; }
    rm -f "$pw"
  fi
  if as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  # A restart keeps the port of the last start when it is still free, so
  # that the URL handed out before stays valid.
  local port=
  if [[ -f $state/last-port ]]; then
    port=$(cat "$state/last-port")
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then port=; fi
  fi
  [[ -n $port ]] || port=$(free_port)
  echo "$port" >"$state/last-port"
  rm -f "$state/port"
  as_owner "$bin/pg_ctl" -D "$data" -l "$state/postgres.log" -w -t "$timeout" \
    -o "-h 127.0.0.1 -p $port -k $state -c max_connections=200 -c fsync=off" start >&2 9>&- ||
    { tail -n 40 "$state/postgres.log" >&2; die "the server did not start (log: $state/postgres.log)"; }
  local started=$SECONDS
  while ((SECONDS - started < timeout)); do
    if answers "$port"; then
      PGPASSWORD=eddy psql -X -q -h 127.0.0.1 -p "$port" -U eddy -d postgres -tAc \
        "select 1 from pg_database where datname='eddy'" | grep -q 1 ||
        PGPASSWORD=eddy psql -X -q -h 127.0.0.1 -p "$port" -U eddy -d postgres -c "create database eddy owner eddy" >/dev/null
      echo "$port" >"$state/port"
      echo "jdbc:postgresql://127.0.0.1:$port/eddy"
      return 0
    fi
    # The eddy database does not exist on first start: create it.
    if PGPASSWORD=eddy PGCONNECT_TIMEOUT=3 psql -X -q -h 127.0.0.1 -p "$port" -U eddy -d postgres -tAc 'select 1' >/dev/null 2>&1; then
      PGPASSWORD=eddy psql -X -q -h 127.0.0.1 -p "$port" -U eddy -d postgres -c "create database eddy owner eddy" >/dev/null 2>&1 || true
    fi
    sleep 0.2
  done
  do_stop
  die "the server did not answer within ${timeout}s (log: $state/postgres.log)"
}

do_stop() {
  local bin
  bin=$(bindir) || return 0
  [[ -f $data/PG_VERSION ]] || return 0
  as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
  rm -f "$state/port"
}

do_psql() {
  local url
  url=$(do_url) || die "no server is running (postgres.sh start)"
  local port=${url##*:}
  port=${port%%/*}
  PGPASSWORD=eddy exec psql -X -h 127.0.0.1 -p "$port" -U eddy -d eddy "$@"
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
case $cmd in
  start) locked do_start ;;
  stop) locked do_stop ;;
  url) do_url ;;
  psql) do_psql "$@" ;;
  *)
    echo "usage: $0 start|stop|url|psql" >&2
    exit 2
    ;;
esac
