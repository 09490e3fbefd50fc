#!/usr/bin/env bash
# Measures the Liquidsoap front end against Liquidsoap's own scripts (read from a checkout, never
# copied here), out of CI:
#   bench/liquidsoap-conformance/run.sh PATH-TO-A-LIQUIDSOAP-2.4.5-CHECKOUT [--runs=20] [--timeout=20] [--verbose]
#       [--steps=123] [--only=TEST,...] [--set=KEY=VALUE]...
# (1) src/libs: every file parsed, stdlib.liq with its includes, the parse time; the library
#     type-checked as Liquidsoap loads it (stdlib.liq, then extra/deprecations.liq), OCaml builtins
#     typed from bench/src/main/resources/org/groovecast/bench/liquidsoap-builtins.txt
# (2) tests/language/*.liq and tests/test.liq: parsed; each test Liquidsoap's build runs, run as a station
#     (the Liquidsoap front end, the engine's operators and the plugins of bench/target/plugins), in a
#     process of its own and a scratch copy of tests/, tests/test.liq first (exit 0 passes, 123 skips),
#     type-checked first as every .liq station is; a table of each with its time and first error
# (3) tests/language/type_errors.liq: each case accepted or rejected as Liquidsoap does, in the
#     scope the library leaves; (3') the same cases through the front end (Groovecast's library and
#     the shipped plugins' operators, as a station's check)
# Exit 0 when every file parses. A checkout: git clone --branch v2.4.5 https://github.com/savonet/liquidsoap
# Build first, from the repository root (it builds nothing):
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests
source "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"

if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n 2,18p "$0"
    exit 2
fi
require "$classes/org/groovecast/bench/LiquidsoapConformance.class" "$cpfile"
run org.groovecast.bench.LiquidsoapConformance "$@"
