#!/usr/bin/env bash
# Liquidsoap's own tests/language/*.liq (each after tests/test.liq) and any other .liq scripts,
# checked as a station's script is by `groovecast check`: the Liquidsoap front end's parse, names
# and types against Groovecast's library and the shipped plugins' operators. Out of CI:
#   bench/liquidsoap-conformance/station-check.sh PATH-TO-A-LIQUIDSOAP-2.4.5-CHECKOUT [SCRIPT.liq ...] [--runs=5] [--verbose]
# Each outcome sorted: accepted, refused for a name Groovecast lacks, refused for a type error
# (listed: Liquidsoap accepts these scripts, so each is a false refusal to look at), other; with
# the time each check took. Exit 0 when no script is refused for a type error.
# Build first, from the repository root (it builds nothing):
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests
source "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"

if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n 2,10p "$0"
    exit 2
fi
require "$classes/org/groovecast/bench/LiquidsoapStationCheck.class" "$cpfile"
run org.groovecast.bench.LiquidsoapStationCheck "$@"
