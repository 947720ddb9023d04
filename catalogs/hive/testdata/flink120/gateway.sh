#!/usr/bin/env bash
# gateway.sh — a real Apache Flink 1.20 SQL Gateway with Flink's Hive
# connector on 127.0.0.1, for eddy's interoperability tests with a Hive
# Metastore: a MiniCluster (one TaskManager) and the SQL Gateway REST
# endpoint in one JVM, built with Maven from Maven Central (no Flink, Hive
# or Hadoop distribution needed; downloads are cached in ~/.m2). Flink 1.20
# is the newest Flink with a Hive connector on Maven Central; its sessions
# reach a metastore with CREATE CATALOG ... WITH ('type' = 'hive',
# 'hive-conf-dir' = ...).
#
#   gateway.sh build   compile the launcher into the build directory
#   gateway.sh start   build if needed, start in the background, wait for
#                      /v1/info, print the URL (a running gateway is reused)
#   gateway.sh stop    stop the gateway started by `start`
#   gateway.sh url     print the URL of the running gateway (exit 1 if none)
#
# Environment:
#   EDDY_FLINK120_STATE          state directory: url, pid, log, conf, tmp
#                                (default ${TMPDIR:-/tmp}/eddy-flink120-hive-gateway)
#   EDDY_FLINK120_BUILD          build directory (default
#                                ${XDG_CACHE_HOME:-~/.cache}/eddy/flink120-hive-gateway)
#   EDDY_FLINK120_START_TIMEOUT  seconds to wait for the gateway (default 300)
#   EDDY_FLINK120_SLOTS          task slots of the TaskManager (default 2)
#   EDDY_FLINK120_HEAP           JVM heap (default 1g)
#   EDDY_FLINK120_JAVA_OPTS      more JVM options (split on blanks)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
state=${EDDY_FLINK120_STATE:-${TMPDIR:-/tmp}/eddy-flink120-hive-gateway}
build=${EDDY_FLINK120_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/eddy/flink120-hive-gateway}
timeout=${EDDY_FLINK120_START_TIMEOUT:-300}
slots=${EDDY_FLINK120_SLOTS:-2}
heap=${EDDY_FLINK120_HEAP:-1g}
read -r -a java_opts <<<"${EDDY_FLINK120_JAVA_OPTS:-}"

die() { echo "gateway.sh: $*" >&2; exit 1; }

# The module openings Flink's own config.yaml passes to every JVM on Java 17.
java_opens=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

built() {
  [[ -f $build/target/classpath.txt && -d $build/target/classes/eddy/flink120 ]] || return 1
  # Rebuild when the project changed since the last build.
  [[ -z $(find "$here/pom.xml" "$here/src" -newer "$build/target/classpath.txt" -print -quit) ]]
}

do_build() {
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  command -v java >/dev/null || die "Java is not installed"
  mkdir -p "$build"
  rm -rf "$build/src"
  cp -R "$here/pom.xml" "$here/src" "$build/"
  echo "gateway.sh: building the Flink 1.20 gateway launcher in $build (first run downloads Flink, Hive and Hadoop into ~/.m2)" >&2
  if ! (cd "$build" && mvn -B -q -DskipTests package >"$build/maven.log" 2>&1); then
    tail -n 40 "$build/maven.log" >&2
    die "Maven build failed (full log: $build/maven.log)"
  fi
  # Maven leaves an unchanged classpath file alone; mark it as built now so
  # that sources newer than the last build (a fresh clone) count as built.
  [[ -f $build/target/classpath.txt ]] || die "Maven build produced no classpath"
  touch "$build/target/classpath.txt"
  built || die "Maven build produced no classpath"
}

alive() {
  [[ -f $state/pid ]] && kill -0 "$(cat "$state/pid")" 2>/dev/null
}

answers() { # url
  curl -fsS --max-time 5 "$1/v1/info" >/dev/null 2>&1
}

do_url() {
  alive || return 1
  [[ -f $state/url ]] || return 1
  local url
  url=$(cat "$state/url")
  answers "$url" || return 1
  echo "$url"
}

do_start() {
  if do_url; then return 0; fi
  if alive; then do_stop; fi
  built || do_build
  mkdir -p "$state/conf"
  rm -f "$state/url" "$state/pid"
  # Flink's working files (the extracted planner, blobs, shuffle files)
  # live in the state directory, so that a killed gateway leaves nothing
  # elsewhere.
  rm -rf "$state/tmp"
  mkdir -p "$state/tmp"
  # The gateway reads its base configuration from FLINK_CONF_DIR; the
  # launcher passes everything that matters as dynamic options.
  : >"$state/conf/config.yaml"
  local started=$SECONDS
  FLINK_CONF_DIR="$state/conf" HADOOP_USER_NAME=${HADOOP_USER_NAME:-eddy} nohup java -Xmx"$heap" -Djava.io.tmpdir="$state/tmp" "${java_opens[@]}" ${java_opts[@]+"${java_opts[@]}"} \
    -Djava.system.class.loader=eddy.flink120.SystemLoader -Deddy.classpath.file="$build/target/classpath.txt" \
    -cp "$build/target/classes" eddy.flink120.GatewayLauncher "$state" "$slots" >"$state/gateway.log" 2>&1 </dev/null &
  echo $! >"$state/pid"
  while ((SECONDS - started < timeout)); do
    if ! alive; then
      tail -n 40 "$state/gateway.log" >&2
      die "the gateway exited during start-up (log: $state/gateway.log)"
    fi
    if [[ -f $state/url ]] && answers "$(cat "$state/url")"; then
      echo "gateway.sh: started in $((SECONDS - started))s" >&2
      cat "$state/url"
      return 0
    fi
    sleep 0.2
  done
  do_stop
  die "the gateway did not answer /v1/info within ${timeout}s (log: $state/gateway.log)"
}

do_stop() {
  if [[ -f $state/pid ]]; then
    local pid
    pid=$(cat "$state/pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 150); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      if kill -0 "$pid" 2>/dev/null; then
        echo "gateway.sh: the gateway did not stop in 30s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  fi
  rm -f "$state/pid" "$state/url"
}

case ${1:-} in
  build) do_build ;;
  start) do_start ;;
  stop) do_stop ;;
  url) do_url ;;
  *) echo "usage: $0 build|start|stop|url" >&2; exit 2 ;;
esac
