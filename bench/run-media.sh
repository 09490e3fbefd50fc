#!/usr/bin/env bash
# Runs the media benchmarks from an existing build (it builds nothing):
#   bench/run-media.sh                       all five: DecodeMemory, AudioCeiling, ManyPlaylists, VideoTranscode, AutocueCost (about 30 minutes)
#   bench/run-media.sh decode [ARGS...]      DecodeMemory only, ARGS passed on (--files=500 ...)
#   bench/run-media.sh ceiling [ARGS...]     AudioCeiling only (--warmup=5 --window=15 --engines=groovecast ...)
#   bench/run-media.sh playlists [ARGS...]   ManyPlaylists only (--counts=160,640 ...)
#   bench/run-media.sh video [ARGS...]       VideoTranscode only (--parts=duty --preset=ultrafast ...)
#   bench/run-media.sh autocue [ARGS...]     AutocueCost only (--runs=7): autocue's analysis against one decode
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
# Needs the ffmpeg command line (test media); AudioCeiling and ManyPlaylists also run liquidsoap
# when it is installed (apt-get install -y liquidsoap). JAVA overrides the java binary; JAVA_OPTS
# adds JVM options.
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"

require "$classes/org/groovecast/bench/DecodeMemory.class" "$cpfile" "$plugins/core.jar" "$plugins/ffmpeg.zip"
if ! command -v ffmpeg >/dev/null; then
    echo "the ffmpeg command line is needed to make the test media: apt-get install -y ffmpeg" >&2
    exit 1
fi

# AudioCeiling's station runs with the JVM options bin/groovecast gives one station: what a
# station near its ceiling runs with.
[[ "${1:-}" == ceiling ]] && export JAVA_OPTS="$station_jvm_opts ${JAVA_OPTS:-}"
dispatch "$0" 2,13p decode=DecodeMemory ceiling=AudioCeiling playlists=ManyPlaylists video=VideoTranscode autocue=AutocueCost -- "$@"
