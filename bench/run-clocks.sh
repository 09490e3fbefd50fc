#!/usr/bin/env bash
# Runs the clock benchmarks from an existing build (it builds nothing):
#   bench/run-clocks.sh                    both, ClockScaling then LatenessUnderLoad (about 3 minutes)
#   bench/run-clocks.sh scaling [ARGS...]  ClockScaling only, ARGS passed on (--counts=1,50 --window=5 ...)
#   bench/run-clocks.sh load [ARGS...]     LatenessUnderLoad only
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
# JAVA overrides the java binary; JAVA_OPTS adds JVM options.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
classes="$here/target/classes"
cpfile="$here/target/classpath.txt"
plugins="$here/target/plugins"

for f in "$classes/org/groovecast/bench/ClockScaling.class" "$cpfile" "$plugins/core.jar"; do
    if [[ ! -e "$f" ]]; then
        echo "missing $f: build first with" >&2
        echo "  cd $(dirname "$here") && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests" >&2
        exit 1
    fi
done

what="${1:-all}"
[[ $# -gt 0 ]] && shift

run() {
    # shellcheck disable=SC2086
    "$java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
        -Dgroovecast.bench.plugins="$plugins" \
        -cp "$classes:$(cat "$cpfile")" "$@"
}

case "$what" in
    scaling) run org.groovecast.bench.ClockScaling "$@" ;;
    load) run org.groovecast.bench.LatenessUnderLoad "$@" ;;
    all)
        if [[ $# -gt 0 ]]; then
            echo "arguments go with 'scaling' or 'load', not 'all'" >&2
            exit 2
        fi
        run org.groovecast.bench.ClockScaling
        echo
        run org.groovecast.bench.LatenessUnderLoad
        ;;
    -h|--help) sed -n '2,8p' "$0" ;;
    *)
        echo "usage: $0 [all | scaling ARGS... | load ARGS...]" >&2
        exit 2
        ;;
esac
