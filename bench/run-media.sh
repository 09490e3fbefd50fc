#!/usr/bin/env bash
# Runs the media benchmarks from an existing build (it builds nothing):
#   bench/run-media.sh                       all three, DecodeMemory, AudioCeiling, ManyPlaylists (about 20 minutes)
#   bench/run-media.sh decode [ARGS...]      DecodeMemory only, ARGS passed on (--files=500 ...)
#   bench/run-media.sh ceiling [ARGS...]     AudioCeiling only (--warmup=5 --window=15 --engines=groovecast ...)
#   bench/run-media.sh playlists [ARGS...]   ManyPlaylists only (--counts=160,640 ...)
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
# Needs the ffmpeg command line (test media); AudioCeiling and ManyPlaylists also run liquidsoap
# when it is installed (apt-get install -y liquidsoap). JAVA overrides the java binary; JAVA_OPTS
# adds JVM options.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
classes="$here/target/classes"
cpfile="$here/target/classpath.txt"
plugins="$here/target/plugins"

for f in "$classes/org/groovecast/bench/DecodeMemory.class" "$cpfile" "$plugins/core.jar" "$plugins/ffmpeg.zip"; do
    if [[ ! -e "$f" ]]; then
        echo "missing $f: build first with" >&2
        echo "  cd $(dirname "$here") && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests" >&2
        exit 1
    fi
done
if ! command -v ffmpeg >/dev/null; then
    echo "the ffmpeg command line is needed to make the test media: apt-get install -y ffmpeg" >&2
    exit 1
fi

what="${1:-all}"
[[ $# -gt 0 ]] && shift

run() {
    # shellcheck disable=SC2086
    "$java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
        -Dgroovecast.bench.plugins="$plugins" \
        -Dgroovecast.bench.scripts="$here/scripts" \
        -Dgroovecast.bench.liquidsoap="$here/liquidsoap" \
        -cp "$classes:$(cat "$cpfile")" "$@"
}

case "$what" in
    decode) run org.groovecast.bench.DecodeMemory "$@" ;;
    ceiling) run org.groovecast.bench.AudioCeiling "$@" ;;
    playlists) run org.groovecast.bench.ManyPlaylists "$@" ;;
    all)
        if [[ $# -gt 0 ]]; then
            echo "arguments go with 'decode', 'ceiling' or 'playlists', not 'all'" >&2
            exit 2
        fi
        run org.groovecast.bench.DecodeMemory
        echo
        run org.groovecast.bench.AudioCeiling
        echo
        run org.groovecast.bench.ManyPlaylists
        ;;
    -h|--help) sed -n '2,11p' "$0" ;;
    *)
        echo "usage: $0 [all | decode ARGS... | ceiling ARGS... | playlists ARGS...]" >&2
        exit 2
        ;;
esac
