#!/usr/bin/env bash
# kafka.sh — a real Apache Kafka broker on 127.0.0.1 for eddy's Kafka
# connector tests: one KRaft node that is both broker and controller, built
# with Maven from Maven Central (no Kafka distribution needed; downloads are
# cached in ~/.m2), and Kafka's own command-line tools as independent
# clients.
#
#   kafka.sh build      compile the launcher into the build directory
#   kafka.sh start      build if needed, format the storage on first use,
#                       start in the background, wait until both client
#                       listeners answer, print the PLAINTEXT address
#                       host:port as the last line (a running broker is
#                       reused)
#   kafka.sh stop       stop the broker started by `start`
#   kafka.sh reset      stop the broker and delete its data
#   kafka.sh url        print the PLAINTEXT address (exit 1 if not running)
#   kafka.sh sasl-url   print the SASL_PLAINTEXT address (SASL/PLAIN and
#                       SCRAM-SHA-256, user
#                       eddy, password eddy-secret)
#   kafka.sh sasl-config
#                       print the path of a client properties file for the
#                       SASL_PLAINTEXT listener
#   kafka.sh tls-url    print the SSL address (TLS with a certificate for
#                       127.0.0.1 and localhost signed by a test CA that
#                       `start` makes once per state directory)
#   kafka.sh sasl-ssl-url
#                       print the SASL_SSL address (TLS, and the logins of
#                       the SASL_PLAINTEXT listener)
#   kafka.sh tls-config | sasl-ssl-config
#                       print the path of a client properties file for the
#                       SSL or the SASL_SSL listener
#   kafka.sh tls-dir    print the directory of the test CA's trust stores:
#                       ca.pem (PEM), truststore.p12 (PKCS12) and
#                       truststore.jks (JKS), password eddy-tls
#
# Clients, run against the running broker with Kafka's class path; with
# --sasl, --tls or --sasl-ssl first they use the SASL_PLAINTEXT, SSL or
# SASL_SSL listener:
#
#   kafka.sh topics [--sasl] ARGS...     kafka-topics (TopicCommand)
#   kafka.sh produce [--sasl] TOPIC [ARGS...]
#                       kafka-console-producer: one record per stdin line
#   kafka.sh consume [--sasl] TOPIC [ARGS...]
#                       kafka-console-consumer from the beginning; exits
#                       after 30s without records unless ARGS set
#                       --timeout-ms (add --max-messages N to stop earlier)
#   kafka.sh produce-tx [--sasl] TOPIC [--abort] [--key-separator SEP]
#                       the stdin lines in one transaction, committed (or
#                       aborted with --abort)
#   kafka.sh tool CLASS ARGS...
#                       any main class on Kafka's class path, e.g.
#                       org.apache.kafka.tools.ProducerPerformance
#
# Environment:
#   EDDY_KAFKA_STATE          state directory: data, addresses, pid, log
#                             (default ${TMPDIR:-/tmp}/eddy-kafka)
#   EDDY_KAFKA_BUILD          build directory (default
#                             ${XDG_CACHE_HOME:-~/.cache}/eddy/kafka)
#   EDDY_KAFKA_START_TIMEOUT  seconds to wait for the broker (default 120)
#   EDDY_KAFKA_HEAP           JVM heap of the broker (default 512m)
#   EDDY_KAFKA_JAVA_OPTS      more JVM options of the broker (split on blanks)
#   EDDY_KAFKA_BROKER_PROPS   more broker properties, name=value separated by
#                             blanks (apply when a broker starts, not to a
#                             reused one)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
state=${EDDY_KAFKA_STATE:-${TMPDIR:-/tmp}/eddy-kafka}
build=${EDDY_KAFKA_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/eddy/kafka}
timeout=${EDDY_KAFKA_START_TIMEOUT:-120}
heap=${EDDY_KAFKA_HEAP:-512m}
# Absolute, so that the launcher's command line names the same directory
# whatever the working directory of a later call.
[[ $state == /* ]] || state=$PWD/$state
[[ $build == /* ]] || build=$PWD/$build
read -r -a java_opts <<<"${EDDY_KAFKA_JAVA_OPTS:-}"
read -r -a broker_props <<<"${EDDY_KAFKA_BROKER_PROPS:-}"

launcher=eddy.kafka.BrokerLauncher

die() { echo "kafka.sh: $*" >&2; exit 1; }

jar=eddy-kafka-broker-1.jar

built() {
  [[ -f $build/target/classpath.txt && -f $build/target/$jar ]] || return 1
  # Rebuild when the project changed since the last build.
  [[ -z $(find "$here/pom.xml" "$here/src" -newer "$build/target/classpath.txt" -print -quit) ]]
}

do_build() {
  command -v mvn >/dev/null || die "Maven (mvn) is not installed"
  command -v java >/dev/null || die "Java is not installed"
  mkdir -p "$build"
  rm -rf "$build/src"
  # Class data archives describe the class path they were dumped with.
  rm -f "$build"/target/*.jsa "$build"/target/*.jsa.*
  cp -R "$here/pom.xml" "$here/src" "$build/"
  echo "kafka.sh: building the Kafka launcher in $build (first run downloads Kafka into ~/.m2)" >&2
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

build_if_needed() { built || do_build; }

# The class path holds jars only: class data sharing takes no directories.
classpath() {
  echo "$build/target/$jar:$(cat "$build/target/classpath.txt")"
}

# Class data sharing: a JVM maps the classes it needs from an archive that
# an earlier JVM dumped at exit, which halves the start-up time of the
# broker and of the tools. cds_args prints the option that uses the archive
# NAME.jsa of the build directory, or else the one that dumps it into the
# temporary file DUMP; publish_cds moves a complete dump into place.
cds_args() { # name dump
  if [[ -s $build/target/$1.jsa ]]; then
    echo "-XX:SharedArchiveFile=$build/target/$1.jsa"
  else
    echo "-XX:ArchiveClassesAtExit=$2"
  fi
}

publish_cds() { # name dump
  if [[ -s $2 ]]; then mv -f "$2" "$build/target/$1.jsa"; else rm -f "$2"; fi
}

# node_pid prints the pid of the running launcher of this state directory:
# the one in the pid file, else the one the launcher wrote into its lock
# file. A stale pid (a crash, a reboot, a reused pid) does not count.
node_pid() {
  local f pid args
  for f in "$state/pid" "$state/broker.lock"; do
    [[ -f $f ]] || continue
    pid=$(cat "$f")
    [[ $pid =~ ^[0-9]+$ ]] || continue
    args=$(ps -ww -o args= -p "$pid" 2>/dev/null) || continue
    if [[ "$args " == *" $launcher $state "* ]]; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}

alive() { node_pid >/dev/null; }

# answers succeeds when a Kafka broker answers an ApiVersions request at
# host:port: a v0 request with correlation id 7 must come back with a
# response carrying that id.
answers() { # host:port
  local reply
  reply=$(timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x07\xff\xff" >&3
    head -c 8 <&3 | od -An -tx1' "${1%:*}" "${1##*:}" 2>/dev/null) || return 1
  [[ $(tr -d ' \n' <<<"$reply") == ????????00000007 ]]
}

# listening succeeds when host:port accepts a connection (a TLS listener
# answers no plain request).
listening() { # host:port
  timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "${1%:*}" "${1##*:}" 2>/dev/null
}

address() { # file
  alive || return 1
  [[ -f $state/$1 ]] || return 1
  local addr
  addr=$(cat "$state/$1")
  case $1 in
    tls-url | sasl-ssl-url) listening "$addr" || return 1 ;;
    *) answers "$addr" || return 1 ;;
  esac
  echo "$addr"
}

do_url() { address url; }

do_sasl_url() { address sasl-url; }

do_sasl_config() {
  do_sasl_url >/dev/null || return 1
  echo "$state/sasl-client.properties"
}

# listener_config prints the client properties file of a listener (sasl,
# tls or sasl-ssl) of the running broker.
listener_config() { # name
  address "$1-url" >/dev/null || return 1
  echo "$state/$1-client.properties"
}

# The test CA and the broker's key store: made once per state directory
# with the JDK's keytool, so that a client's trust store stays valid
# across restarts.
tls_password=eddy-tls

make_tls() {
  local dir=$state/tls
  [[ -s $dir/broker.p12 && -s $dir/truststore.p12 && -s $dir/truststore.jks && -s $dir/ca.pem ]] && return 0
  command -v keytool >/dev/null || die "keytool (the JDK's) is not installed"
  rm -rf "$dir.tmp"
  mkdir -p "$dir.tmp"
  local kt=(keytool -J-Xmx64m -J-XX:TieredStopAtLevel=1 -noprompt -storepass "$tls_password" -keypass "$tls_password")
  (
    cd "$dir.tmp"
    "${kt[@]}" -genkeypair -alias ca -dname "CN=eddy test CA" -keyalg RSA -keysize 2048 -validity 3650 \
      -ext bc:c -keystore ca.p12 -storetype PKCS12
    "${kt[@]}" -exportcert -rfc -alias ca -keystore ca.p12 -file ca.pem
    "${kt[@]}" -genkeypair -alias broker -dname "CN=localhost" -keyalg RSA -keysize 2048 -validity 3650 \
      -keystore broker.p12 -storetype PKCS12
    "${kt[@]}" -certreq -alias broker -keystore broker.p12 -file broker.csr
    "${kt[@]}" -gencert -alias ca -keystore ca.p12 -infile broker.csr -outfile broker.pem -rfc -validity 3650 \
      -ext SAN=dns:localhost,ip:127.0.0.1 -ext KU=digitalSignature,keyEncipherment -ext EKU=serverAuth
    "${kt[@]}" -importcert -alias ca -file ca.pem -keystore broker.p12
    "${kt[@]}" -importcert -alias broker -file broker.pem -keystore broker.p12
    "${kt[@]}" -importcert -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12
    "${kt[@]}" -importcert -alias ca -file ca.pem -keystore truststore.jks -storetype JKS
    rm -f broker.csr ca.p12
  ) >"$state/keytool.log" 2>&1 || { cat "$state/keytool.log" >&2; die "keytool failed to make the test CA"; }
  rm -rf "$dir"
  mv "$dir.tmp" "$dir"
}

# locked runs its arguments holding the state directory's lock, so that
# concurrent starts and stops take turns: the second start reuses the
# broker the first one started.
locked() {
  mkdir -p "$state"
  exec 9>"$state/lock"
  if command -v flock >/dev/null; then
    flock -w "$((timeout + 60))" 9 || die "another kafka.sh holds $state/lock"
  fi
  "$@"
  exec 9>&-
}

do_start() {
  if do_url; then return 0; fi
  if alive; then do_stop; fi
  command -v timeout >/dev/null || die "timeout (coreutils) is not installed"
  built || do_build
  rm -f "$state"/*url "$state"/*-client.properties "$state/pid"
  rm -rf "$state/tmp"
  make_tls
  mkdir -p "$state/tmp"
  # A new log file, not a truncated one: a node that lost its pid file
  # may still be writing to the old one.
  rm -f "$state/kafka.log"
  local started=$SECONDS
  # Without an archive the broker dumps one when it stops; do_stop
  # publishes it after a clean stop.
  local dump="$build/target/broker.jsa.$$"
  cds_args broker "$dump" >"$state/cds"
  # The broker must not inherit the lock (fd 9), or it would hold it for life.
  # The client compiler alone halves the start-up time on a small machine;
  # tests do not need the peak throughput of the optimizing one.
  nohup java -Xmx"$heap" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    "$(cat "$state/cds")" -Djava.io.tmpdir="$state/tmp" \
    -Dlog4j2.configurationFile="$build/target/classes/log4j2-broker.xml" \
    ${java_opts[@]+"${java_opts[@]}"} \
    -cp "$(classpath)" \
    "$launcher" "$state" ${broker_props[@]+"${broker_props[@]}"} \
    >"$state/kafka.log" 2>&1 </dev/null 9>&- &
  local pid=$!
  echo "$pid" >"$state/pid"
  while ((SECONDS - started < timeout)); do
    # Not alive: until nohup has turned into java, ps names another command.
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$state/kafka.log" >&2
      rm -f "$state/pid"
      die "the broker exited during start-up (log: $state/kafka.log)"
    fi
    if [[ -f $state/url ]] && answers "$(cat "$state/url")"; then
      train_tools
      cat "$state/url"
      return 0
    fi
    sleep 0.2
  done
  do_stop
  die "the broker did not answer within ${timeout}s (log: $state/kafka.log)"
}

do_stop() {
  local pid clean=false
  if pid=$(node_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 150); do
      if ! kill -0 "$pid" 2>/dev/null; then clean=true; break; fi
      sleep 0.2
    done
    if ! $clean; then
      echo "kafka.sh: the broker did not stop in 30s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  # A class data archive the broker dumped at exit; a killed broker may
  # have left half of one.
  local cds
  cds=$(cat "$state/cds" 2>/dev/null) || true
  if [[ $cds == -XX:ArchiveClassesAtExit=* ]]; then
    if $clean; then publish_cds broker "${cds#*=}"; else rm -f "${cds#*=}"; fi
  fi
  rm -f "$state/pid" "$state"/*url "$state"/*-client.properties "$state/cds"
}

do_reset() {
  do_stop
  rm -rf "$state/data" "$state/tmp" "$state/tls" "$state/server.properties" "$state/kafka.log"
}

# The JVM options of the tools: they log warnings, the JVM's included, to
# stderr only, so that stdout holds their output.
tool_opts=(
  -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
  -Xlog:disable -Xlog:all=warning:stderr
  -Dlog4j2.configurationFile="$build/target/classes/log4j2-tools.xml"
)

# train_tools dumps the tools' class data archive, once per build, with a
# tool that talks to the running broker.
train_tools() {
  [[ -s $build/target/tools.jsa ]] && return 0
  local dump="$build/target/tools.jsa.$$"
  if timeout 60 java "${tool_opts[@]}" -XX:ArchiveClassesAtExit="$dump" -cp "$(classpath)" \
    org.apache.kafka.tools.TopicCommand --bootstrap-server "$(cat "$state/url")" --list >/dev/null 2>&1; then
    publish_cds tools "$dump"
  else
    rm -f "$dump"
  fi
}

# run_tool runs a main class on Kafka's class path.
run_tool() { # class args...
  built || locked build_if_needed
  local cds=()
  if [[ -s $build/target/tools.jsa ]]; then
    cds=(-XX:SharedArchiveFile="$build/target/tools.jsa")
  fi
  exec java "${tool_opts[@]}" ${cds[@]+"${cds[@]}"} -cp "$(classpath)" "$@"
}

# listener_flag succeeds when its argument picks a listener for a client.
listener_flag() { [[ ${1:-} == --sasl || ${1:-} == --tls || ${1:-} == --sasl-ssl ]]; }

# client runs a tool against the running broker. Its arguments: the
# option the tool takes a client properties file with, then the class and
# the tool's own arguments; --sasl, --tls or --sasl-ssl first switches to
# that listener.
client() { # [--sasl|--tls|--sasl-ssl] config-option class args...
  local listener=
  if listener_flag "${1:-}"; then listener=${1#--}; shift; fi
  local config_opt=$1 class=$2
  shift 2
  local addr
  if [[ -n $listener ]]; then
    addr=$(address "$listener-url") || die "no broker with a ${listener^^} listener is running (kafka.sh start)"
    run_tool "$class" --bootstrap-server "$addr" "$config_opt" "$state/$listener-client.properties" "$@"
  else
    addr=$(do_url) || die "no broker is running (kafka.sh start)"
    run_tool "$class" --bootstrap-server "$addr" "$@"
  fi
}

has_arg() { # name args...
  local name=$1 a
  shift
  for a in "$@"; do [[ $a == "$name" ]] && return 0; done
  return 1
}

# with_topic runs a client of one topic: [--sasl] topic, then the tool's arguments.
with_topic() { # class config-option [--sasl] topic args...
  local class=$1 config_opt=$2
  shift 2
  local sasl=()
  if listener_flag "${1:-}"; then sasl=("$1"); shift; fi
  [[ $# -ge 1 ]] || die "missing topic name"
  local topic=$1
  shift
  client ${sasl[@]+"${sasl[@]}"} "$config_opt" "$class" --topic "$topic" "$@"
}

do_consume() { # [--sasl] topic args...
  local extra=()
  has_arg --timeout-ms "$@" || extra+=(--timeout-ms 30000)
  has_arg --offset "$@" || has_arg --partition "$@" || extra+=(--from-beginning)
  with_topic org.apache.kafka.tools.consumer.ConsoleConsumer --consumer.config "$@" ${extra[@]+"${extra[@]}"}
}

do_topics() { # [--sasl] args...
  local sasl=()
  if listener_flag "${1:-}"; then sasl=("$1"); shift; fi
  client ${sasl[@]+"${sasl[@]}"} --command-config org.apache.kafka.tools.TopicCommand "$@"
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
case $cmd in
  build) locked do_build ;;
  start) locked do_start ;;
  stop) locked do_stop ;;
  reset) locked do_reset ;;
  url) do_url ;;
  sasl-url) do_sasl_url ;;
  sasl-config) do_sasl_config ;;
  tls-url) address tls-url ;;
  sasl-ssl-url) address sasl-ssl-url ;;
  tls-config) listener_config tls ;;
  sasl-ssl-config) listener_config sasl-ssl ;;
  tls-dir)
    address tls-url >/dev/null || exit 1
    echo "$state/tls"
    ;;
  topics) do_topics "$@" ;;
  produce) with_topic org.apache.kafka.tools.ConsoleProducer --producer.config "$@" ;;
  consume) do_consume "$@" ;;
  produce-tx) with_topic eddy.kafka.TransactionalProducer --command-config "$@" ;;
  tool)
    [[ $# -ge 1 ]] || die "usage: $0 tool CLASS ARGS..."
    run_tool "$@"
    ;;
  *)
    echo "usage: $0 build|start|stop|reset|url|sasl-url|sasl-config|tls-url|sasl-ssl-url|tls-config|sasl-ssl-config|tls-dir|topics|produce|consume|produce-tx|tool" >&2
    exit 2
    ;;
esac
