# Sourced by the run-*.sh scripts: where the build is, how to run a benchmark main, and the
# command line they share (no argument: every benchmark in turn; NAME ARGS...: one, with ARGS).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
classes="$here/target/classes"
cpfile="$here/target/classpath.txt"
plugins="$here/target/plugins"
# The JVM options bin/groovecast gives one station (collector, JIT, Netty's pool), for the
# benchmarks that measure what a station runs with (reload, ceiling, the RTMP relay);
# GROOVECAST_GC and GROOVECAST_JIT replace parts of them as they do there. The one copy of the
# launcher's choice here: keep it in step with distribution/src/bin/groovecast.
station_jvm_opts="${GROOVECAST_GC:--XX:+UseSerialGC -Xms16m -Xmn8m -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=20 -XX:+UseCompactObjectHeaders -XX:TrimNativeHeapInterval=5000} ${GROOVECAST_JIT--XX:TieredStopAtLevel=1} -Dio.netty.allocator.maxOrder=7"

# require FILE...: stop with the build command when the build is missing.
require() {
    local f
    for f in "$@"; do
        if [[ ! -e "$f" ]]; then
            echo "missing $f: build first with" >&2
            echo "  cd $(dirname "$here") && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests" >&2
            exit 1
        fi
    done
}

run() {
    # shellcheck disable=SC2086
    "$java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
        -Dgroovecast.bench.plugins="$plugins" \
        -Dgroovecast.bench.scripts="$here/scripts" \
        -Dgroovecast.bench.liquidsoap="$here/liquidsoap" \
        -cp "$classes:$(cat "$cpfile")" "$@"
}

# dispatch SCRIPT HELP_LINES NAME=CLASS... -- ARGS...: runs one benchmark by name, or all of them.
dispatch() {
    local script="$1" help="$2"
    shift 2
    local -a names=() mains=()
    while [[ "$1" != "--" ]]; do
        names+=("${1%%=*}")
        mains+=("org.groovecast.bench.${1#*=}")
        shift
    done
    shift
    local what="${1:-all}"
    [[ $# -gt 0 ]] && shift
    local i
    case "$what" in
        all)
            if [[ $# -gt 0 ]]; then
                echo "arguments go with one benchmark (${names[*]}), not 'all'" >&2
                exit 2
            fi
            for i in "${!mains[@]}"; do
                [[ $i -gt 0 ]] && echo
                run "${mains[$i]}"
            done
            ;;
        -h|--help) sed -n "$help" "$script" ;;
        *)
            for i in "${!names[@]}"; do
                if [[ "${names[$i]}" == "$what" ]]; then
                    run "${mains[$i]}" "$@"
                    return
                fi
            done
            local IFS='|'
            echo "usage: $script [all|${names[*]}] [ARGS...]" >&2
            exit 2
            ;;
    esac
}
