#!/usr/bin/env bash
# Runs the JMH micro-benchmark of the station operators from an existing build (it builds nothing):
#   bench/run-dsp.sh            OperatorCost: ns per frame of normalize, compress, limit, crossfade and
#                               their chain, against the test tone alone (about 1 minute)
# Build first, from the repository root:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -o install -DskipTests
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"

require "$classes/org/groovecast/bench/OperatorCost.class" "$cpfile" "$plugins/dsp.jar" "$plugins/transitions.jar"
run org.groovecast.bench.OperatorCost "$@"
