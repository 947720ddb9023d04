#!/usr/bin/env bash
# metastore.sh — a real Apache Hive standalone Metastore on 127.0.0.1 for
# eddy's hive catalog tests: the Thrift metastore server with an embedded
# Derby database (schema created by DataNucleus on first use) and a local
# warehouse directory, built from Maven Central (downloads are cached in
# ~/.m2; no Hive or Hadoop distribution needed).
#
#   metastore.sh build     copy the metastore's classpath into the build directory
#   metastore.sh start     build if needed, start in the background, wait until
#                          the Thrift port answers; prints the conf directory
#                          (holding hive-site.xml for hive-conf-dir) and, as its
#                          last line, the URI thrift://127.0.0.1:PORT
#                          (a running metastore is reused)
#   metastore.sh stop      stop the metastore started by `start`
#   metastore.sh url       print the URI of the running metastore (exit 1 if none)
#   metastore.sh conf-dir  print the conf directory of the running metastore
#
# Environment:
#   EDDY_HIVE_STATE          state directory: conf, Derby database, warehouse,
#                            log (default ${TMPDIR:-/tmp}/eddy-hive-metastore)
#   EDDY_HIVE_BUILD          build directory (default
#                            ${XDG_CACHE_HOME:-~/.cache}/eddy/hive-metastore)
#   EDDY_HIVE_START_TIMEOUT  seconds to wait for the metastore (default 300)
#   EDDY_HIVE_HEAP           JVM heap (default 512m)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
state=${EDDY_HIVE_STATE:-${TMPDIR:-/tmp}/eddy-hive-metastore}
build=${EDDY_HIVE_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/eddy/hive-metastore}
timeout=${EDDY_HIVE_START_TIMEOUT:-300}
heap=${EDDY_HIVE_HEAP:-512m}

die() { echo "metastore.sh: $*" >&2; exit 1; }

built() {
  [[ -f $build/lib/.complete ]] || return 1
  [[ -z $(find "$here/pom.xml" -newer "$build/lib/.complete" -print -quit) ]]
}

do_build() {
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  command -v java >/dev/null || die "Java is not installed"
  mkdir -p "$build"
  cp "$here/pom.xml" "$build/pom.xml"
  rm -rf "$build/lib"
  echo "metastore.sh: copying the Hive metastore classpath into $build (first run downloads Hive into ~/.m2)" >&2
  if ! (cd "$build" && mvn -B -q dependency:copy-dependencies -DoutputDirectory="$build/lib" >"$build/maven.log" 2>&1); then
    tail -n 40 "$build/maven.log" >&2
    die "Maven failed (full log: $build/maven.log)"
  fi
  touch "$build/lib/.complete"
}

alive() {
  [[ -f $state/pid ]] && kill -0 "$(cat "$state/pid")" 2>/dev/null
}

answers() { # port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

do_url() {
  alive || return 1
  [[ -f $state/port ]] || return 1
  local port
  port=$(cat "$state/port")
  answers "$port" || return 1
  echo "thrift://127.0.0.1:$port"
}

do_conf_dir() {
  do_url >/dev/null || return 1
  echo "$state/conf"
}

write_conf() { # port
  local uri="thrift://127.0.0.1:$1"
  mkdir -p "$state/conf" "$state/warehouse"
  cat >"$state/conf/hive-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>hive.metastore.uris</name><value>$uri</value></property>
  <property><name>hive.metastore.warehouse.dir</name><value>file://$state/warehouse</value></property>
  <property><name>metastore.warehouse.dir</name><value>file://$state/warehouse</value></property>
  <property><name>metastore.warehouse.external.dir</name><value>file://$state/warehouse</value></property>
  <property><name>javax.jdo.option.ConnectionURL</name><value>jdbc:derby:;databaseName=$state/metastore_db;create=true</value></property>
  <property><name>javax.jdo.option.ConnectionDriverName</name><value>org.apache.derby.jdbc.EmbeddedDriver</value></property>
  <property><name>datanucleus.schema.autoCreateAll</name><value>true</value></property>
  <property><name>metastore.schema.verification</name><value>false</value></property>
  <property><name>hive.metastore.sasl.enabled</name><value>false</value></property>
  <property><name>metastore.event.db.notification.api.auth</name><value>false</value></property>
  <property><name>metastore.metrics.enabled</name><value>false</value></property>
  <property><name>metastore.compactor.initiator.on</name><value>false</value></property>
  <property><name>metastore.housekeeping.threads.on</name><value>false</value></property>
  <property><name>metastore.create.as.acid</name><value>false</value></property>
  <property><name>metastore.client.capability.check</name><value>false</value></property>
  <property><name>metastore.metadata.transformer.class</name><value> </value></property>
</configuration>
XML
  cp "$state/conf/hive-site.xml" "$state/conf/metastore-site.xml"
}

do_start() {
  if do_url; then
    echo "$state/conf"
    do_url
    return 0
  fi
  if alive; then do_stop; fi
  built || do_build
  rm -f "$state/port" "$state/pid"
  mkdir -p "$state/tmp"
  local port
  port=$(free_port)
  write_conf "$port"
  local started=$SECONDS
  HADOOP_USER_NAME=${HADOOP_USER_NAME:-eddy} nohup java -Xmx"$heap" -Djava.io.tmpdir="$state/tmp" \
    -Dderby.system.home="$state" \
    -cp "$state/conf:$build/lib/*" \
    org.apache.hadoop.hive.metastore.HiveMetaStore -p "$port" >"$state/metastore.log" 2>&1 </dev/null &
  echo $! >"$state/pid"
  while ((SECONDS - started < timeout)); do
    if ! alive; then
      tail -n 40 "$state/metastore.log" >&2
      die "the metastore exited during start-up (log: $state/metastore.log)"
    fi
    if answers "$port"; then
      echo "$port" >"$state/port"
      echo "metastore.sh: started in $((SECONDS - started))s" >&2
      echo "$state/conf"
      echo "thrift://127.0.0.1:$port"
      return 0
    fi
    sleep 0.5
  done
  do_stop
  die "the metastore did not answer on port $port within ${timeout}s (log: $state/metastore.log)"
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
        echo "metastore.sh: the metastore did not stop in 30s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  fi
  rm -f "$state/pid" "$state/port"
}

case ${1:-} in
  build) do_build ;;
  start) do_start ;;
  stop) do_stop ;;
  url) do_url ;;
  conf-dir) do_conf_dir ;;
  *) echo "usage: $0 build|start|stop|url|conf-dir" >&2; exit 2 ;;
esac
