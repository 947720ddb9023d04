#!/usr/bin/env bash
# rest.sh — Apache Iceberg's REST catalog server on 127.0.0.1 for eddy's
# iceberg catalog tests: the server of Iceberg's REST fixture (the
# iceberg-open-api test fixtures and iceberg-core's RESTCatalogAdapter and
# RESTCatalogServlet) over a JDBC catalog in SQLite, with a local warehouse
# directory, built with Maven from Maven Central (cached in ~/.m2).
#
#   rest.sh build   compile the launcher into the build directory
#   rest.sh start   build if needed, start in the background on a free port,
#                   wait until GET /v1/config answers, print the address
#                   http://127.0.0.1:PORT as the last line (a running
#                   server is reused)
#   rest.sh stop    stop the server started by `start`
#   rest.sh reset   stop the server and delete its catalog and warehouse
#   rest.sh url     print the address (exit 1 if not running)
#   rest.sh warehouse
#                   print the warehouse directory
#
# Environment:
#   EDDY_ICEBERG_REST_STATE   state directory: catalog.db, warehouse/, url,
#                             pid, log (default ${TMPDIR:-/tmp}/eddy-iceberg-rest)
#   EDDY_ICEBERG_REST_BUILD   build directory (default
#                             ${XDG_CACHE_HOME:-~/.cache}/eddy/iceberg-rest)
#   EDDY_ICEBERG_REST_START_TIMEOUT  seconds to wait (default 120)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
state=${EDDY_ICEBERG_REST_STATE:-${TMPDIR:-/tmp}/eddy-iceberg-rest}
build=${EDDY_ICEBERG_REST_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/eddy/iceberg-rest}
timeout=${EDDY_ICEBERG_REST_START_TIMEOUT:-120}
[[ $state == /* ]] || state=$PWD/$state
[[ $build == /* ]] || build=$PWD/$build

launcher=eddy.iceberg.RestLauncher
jar=eddy-iceberg-rest-1.jar

die() { echo "rest.sh: $*" >&2; exit 1; }

built() {
  [[ -f $build/target/classpath.txt && -f $build/target/$jar ]] || return 1
  [[ -z $(find "$here/pom.xml" "$here/src" -newer "$build/target/classpath.txt" -print -quit) ]]
}

do_build() {
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  command -v java >/dev/null || die "Java is not installed"
  mkdir -p "$build"
  rm -rf "$build/src"
  cp -R "$here/pom.xml" "$here/src" "$build/"
  echo "rest.sh: building the Iceberg REST catalog launcher in $build (first run downloads Iceberg into ~/.m2)" >&2
  if ! (cd "$build" && mvn -B -q -DskipTests package >"$build/maven.log" 2>&1); then
    tail -n 40 "$build/maven.log" >&2
    die "Maven build failed (full log: $build/maven.log)"
  fi
  [[ -f $build/target/classpath.txt ]] || die "Maven build produced no classpath"
  touch "$build/target/classpath.txt"
  built || die "Maven build produced no classpath"
}

# server_pid prints the pid of the running launcher of this state
# directory; a stale pid (a crash, a reused pid) does not count.
server_pid() {
  local pid args
  [[ -f $state/pid ]] || return 1
  pid=$(cat "$state/pid")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  args=$(ps -ww -o args= -p "$pid" 2>/dev/null) || return 1
  [[ "$args " == *" $launcher $state "* ]] || return 1
  echo "$pid"
}

answers() { # url
  curl -sf --max-time 5 "$1/v1/config" >/dev/null 2>&1
}

do_url() {
  server_pid >/dev/null || return 1
  [[ -f $state/url ]] || return 1
  local url
  url=$(cat "$state/url")
  answers "$url" || return 1
  echo "$url"
}

locked() {
  mkdir -p "$state"
  exec 9>"$state/lock"
  if command -v flock >/dev/null; then
    flock -w "$((timeout + 60))" 9 || die "another rest.sh holds $state/lock"
  fi
  "$@"
  exec 9>&-
}

do_start() {
  if do_url; then return 0; fi
  if server_pid >/dev/null; then do_stop; fi
  command -v curl >/dev/null || die "curl is not installed"
  built || do_build
  rm -f "$state/url" "$state/pid" "$state/rest.log"
  local started=$SECONDS
  nohup java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$build/target/$jar:$(cat "$build/target/classpath.txt")" \
    "$launcher" "$state" >"$state/rest.log" 2>&1 </dev/null 9>&- &
  local pid=$!
  echo "$pid" >"$state/pid"
  while ((SECONDS - started < timeout)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$state/rest.log" >&2
      rm -f "$state/pid"
      die "the REST catalog exited during start-up (log: $state/rest.log)"
    fi
    if [[ -f $state/url ]] && answers "$(cat "$state/url")"; then
      echo "$(cat "$state/url")"
      return 0
    fi
    sleep 0.2
  done
  do_stop
  die "the REST catalog did not answer within ${timeout}s (log: $state/rest.log)"
}

do_stop() {
  local pid
  if pid=$(server_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$state/pid" "$state/url"
}

do_reset() {
  do_stop
  rm -rf "$state/warehouse" "$state/catalog.db" "$state/rest.log"
}

cmd=${1:-}
case $cmd in
  build) locked do_build ;;
  start) locked do_start ;;
  stop) locked do_stop ;;
  reset) locked do_reset ;;
  url) do_url ;;
  warehouse) echo "$state/warehouse" ;;
  *)
    echo "usage: $0 build|start|stop|reset|url|warehouse" >&2
    exit 2
    ;;
esac
