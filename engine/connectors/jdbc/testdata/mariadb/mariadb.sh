#!/usr/bin/env bash
# mariadb.sh — a real MariaDB server (MySQL-compatible) on 127.0.0.1 for
# eddy's jdbc connector and catalog tests with jdbc:mysql:// URLs, from
# Debian's packages (installed with apt-get when the server binaries are
# missing). The data directory lives in a temporary state directory; user
# eddy (password eddy) owns database eddy and the databases named eddy_*.
# As root the server runs as the unprivileged 'mysql' user.
#
#   mariadb.sh start    install if needed, create the data directory on
#                       first use, start in the background on a free port,
#                       wait until it answers, print
#                       jdbc:mysql://127.0.0.1:PORT/eddy as the last line
#                       (a running server is reused)
#   mariadb.sh stop     stop the server started by `start`
#   mariadb.sh url      print the JDBC URL of the running server (exit 1 if
#                       none)
#   mariadb.sh client [ARGS...]
#                       the mariadb client connected to database eddy as
#                       user eddy
#
# Environment:
#   EDDY_MARIADB_STATE          state directory (default
#                               ${TMPDIR:-/tmp}/eddy-mariadb)
#   EDDY_MARIADB_START_TIMEOUT  seconds to wait for the server (default 60)
set -euo pipefail

state=${EDDY_MARIADB_STATE:-${TMPDIR:-/tmp}/eddy-mariadb}
timeout=${EDDY_MARIADB_START_TIMEOUT:-60}
[[ $state == /* ]] || state=$PWD/$state
data=$state/data

die() { echo "mariadb.sh: $*" >&2; exit 1; }

server() { command -v mariadbd || { [[ -x /usr/sbin/mariadbd ]] && echo /usr/sbin/mariadbd; }; }

client() { command -v mariadb || command -v mysql; }

install_if_needed() {
  server >/dev/null && client >/dev/null && command -v mariadb-install-db >/dev/null && return 0
  [[ $(id -u) == 0 ]] || die "MariaDB is not installed (apt-get install mariadb-server mariadb-client)"
  echo "mariadb.sh: installing MariaDB from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >&2
  apt-get install -y --no-install-recommends mariadb-server mariadb-client >&2
  server >/dev/null || die "apt-get installed no MariaDB server binaries"
}

owner() { if [[ $(id -u) == 0 ]]; then echo mysql; else id -un; fi; }

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
  MYSQL_PWD=eddy "$(client)" --protocol=tcp -h 127.0.0.1 -P "$1" -u eddy --connect-timeout=3 -N -e 'select 1' eddy >/dev/null 2>&1
}

do_url() {
  [[ -f $state/port ]] || return 1
  local port
  port=$(cat "$state/port")
  answers "$port" || return 1
  echo "jdbc:mysql://127.0.0.1:$port/eddy"
}

locked() {
  mkdir -p "$state"
  exec 9>"$state/lock"
  if command -v flock >/dev/null; then
    flock -w "$((timeout + 180))" 9 || die "another mariadb.sh holds $state/lock"
  fi
  "$@"
  exec 9>&-
}

do_start() {
  if do_url; then return 0; fi
  install_if_needed
  local bin user
  bin=$(server)
  user=$(owner)
  if [[ $(id -u) == 0 ]]; then
    id mysql >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin mysql
  fi
  mkdir -p "$state"
  chmod 755 "$state"
  if [[ $(id -u) == 0 ]]; then chown mysql "$state"; fi
  if [[ ! -d $data/mysql ]]; then
    rm -rf "$data"
    mariadb-install-db --no-defaults --datadir="$data" --user="$user" --auth-root-authentication-method=socket \
      --skip-test-db >"$state/install-db.log" 2>&1 ||
      { tail -n 40 "$state/install-db.log" >&2; die "mariadb-install-db failed"; }
  fi
  # The init file runs at every start: it makes user eddy and its
  # databases when they are missing.
  cat >"$state/init.sql" <<'EOF'
CREATE DATABASE IF NOT EXISTS eddy;
CREATE USER IF NOT EXISTS 'eddy'@'%' IDENTIFIED BY 'eddy';
CREATE USER IF NOT EXISTS 'eddy'@'localhost' IDENTIFIED BY 'eddy';
GRANT ALL PRIVILEGES ON `eddy`.* TO 'eddy'@'%';
GRANT ALL PRIVILEGES ON `eddy\_%`.* TO 'eddy'@'%';
GRANT ALL PRIVILEGES ON `eddy`.* TO 'eddy'@'localhost';
GRANT ALL PRIVILEGES ON `eddy\_%`.* TO 'eddy'@'localhost';
EOF
  if [[ $(id -u) == 0 ]]; then chown mysql "$state/init.sql"; fi
  do_stop
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
  # Durability settings are relaxed: the server holds test data only.
  nohup "$bin" --no-defaults --datadir="$data" --user="$user" --bind-address=127.0.0.1 --port="$port" \
    --socket="$state/mysqld.sock" --pid-file="$state/mariadbd.pid" --log-error="$state/mariadb.log" \
    --init-file="$state/init.sql" --skip-name-resolve --max-connections=300 \
    --innodb-buffer-pool-size=64M --innodb-log-file-size=32M --innodb-flush-log-at-trx-commit=0 \
    --sync-binlog=0 --innodb-doublewrite=0 --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
    --default-time-zone=+00:00 --performance-schema=OFF </dev/null >/dev/null 2>&1 9>&- &
  echo $! >"$state/pid"
  local started=$SECONDS
  while ((SECONDS - started < timeout)); do
    if answers "$port"; then
      echo "$port" >"$state/port"
      echo "jdbc:mysql://127.0.0.1:$port/eddy"
      return 0
    fi
    sleep 0.2
  done
  tail -n 40 "$state/mariadb.log" >&2 || true
  do_stop
  die "the server did not answer within ${timeout}s (log: $state/mariadb.log)"
}

do_stop() {
  [[ -f $state/pid ]] || { rm -f "$state/port"; return 0; }
  local pid
  pid=$(cat "$state/pid")
  # Only the server this script started: a stale pid may name another
  # process by now.
  if kill -0 "$pid" 2>/dev/null && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == mariadbd* ]]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 150); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$state/port" "$state/pid"
}

do_client() {
  local url
  url=$(do_url) || die "no server is running (mariadb.sh start)"
  local port=${url##*:}
  port=${port%%/*}
  MYSQL_PWD=eddy exec "$(client)" --protocol=tcp -h 127.0.0.1 -P "$port" -u eddy eddy "$@"
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
case $cmd in
  start) locked do_start ;;
  stop) locked do_stop ;;
  url) do_url ;;
  client) do_client "$@" ;;
  *)
    echo "usage: $0 start|stop|url|client" >&2
    exit 2
    ;;
esac
