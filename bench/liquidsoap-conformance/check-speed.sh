#!/usr/bin/env bash
# How long the Liquidsoap type checker takes, against the parse of the same files (the anchor),
# in CPU time of the checking thread, out of CI:
#   bench/liquidsoap-conformance/check-speed.sh [--checkout=PATH] [--script=FILE] [--runs=20]
# Always: a generated 1,000-line station in four files (main.liq and three includes), checked
# against the bench's table of Liquidsoap builtins. With --checkout (a Liquidsoap 2.4.5 checkout):
# also its library (stdlib.liq and includes, 18,000 lines); with --script too: that script checked
# in the scope the library leaves (AzuraCast's azuracast.liq, your station...).
# Build first, from the repository root (it builds nothing):
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests
source "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    sed -n 2,10p "$0"
    exit 2
fi
require "$classes/org/groovecast/bench/LiquidsoapCheckSpeed.class" "$cpfile"
run org.groovecast.bench.LiquidsoapCheckSpeed "$@"
