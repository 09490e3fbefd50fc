#!/usr/bin/env bash
# Runs the network benchmark from an existing build (it builds nothing):
#   bench/run-net.sh                         HarborHttp, all three parts (about 6 minutes)
#   bench/run-net.sh http [ARGS...]          HarborHttp with ARGS (--parts=http --conns=64 ...)
#   bench/run-net.sh reload [ARGS...]        ReloadLatency (--reloads=20 --listeners=20 ...)
#   bench/run-net.sh admission [ARGS...]     HarborAdmission (--listeners=2000 --cidrs=10000 ...)
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
# Needs wrk (apt-get install -y wrk); the http part also runs liquidsoap when it is installed.
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"

require "$classes/org/groovecast/bench/HarborHttp.class" "$cpfile" "$plugins/core.jar" "$plugins/ffmpeg.zip"
if ! command -v wrk >/dev/null; then
    echo "wrk is needed: apt-get install -y wrk" >&2
    exit 1
fi

# The reload benchmark measures pauses: run it with the JVM options bin/groovecast ships.
[[ "${1:-}" == reload ]] && export JAVA_OPTS="$station_jvm_opts ${JAVA_OPTS:-}"
dispatch "$0" 2,10p http=HarborHttp reload=ReloadLatency admission=HarborAdmission -- "$@"
