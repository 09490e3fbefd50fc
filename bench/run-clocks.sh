#!/usr/bin/env bash
# Runs the clock benchmarks from an existing build (it builds nothing):
#   bench/run-clocks.sh                    both, ClockScaling then LatenessUnderLoad (about 3 minutes)
#   bench/run-clocks.sh scaling [ARGS...]  ClockScaling only, ARGS passed on (--counts=1,50 --window=5 ...)
#   bench/run-clocks.sh load [ARGS...]     LatenessUnderLoad only
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
# JAVA overrides the java binary; JAVA_OPTS adds JVM options.
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"

require "$classes/org/groovecast/bench/ClockScaling.class" "$cpfile" "$plugins/core.jar"

dispatch "$0" 2,8p scaling=ClockScaling load=LatenessUnderLoad -- "$@"
