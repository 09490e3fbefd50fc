#!/usr/bin/env bash
# Fuzzes each Jazzer target for RUNS inputs (10^6 by default), one after the other, and reports for
# each its executions, time, rate, coverage (cov: edges, ft: features), corpus and any finding:
#   bench/fuzz/run.sh                              every target
#   bench/fuzz/run.sh HarborFuzzTest#requestHead   the targets named (Class#method, or a Class for all of its)
#   RUNS=100000 bench/fuzz/run.sh                  fewer inputs
#   KEEP_CORPUS=1 bench/fuzz/run.sh                go on from the corpus earlier runs grew (by default each
#                                                  run starts from the committed seeds alone, so figures compare)
# Needs nothing but the JDK and Maven (it builds what it runs, with verify: never install). A finding
# stops that target's run and leaves the input in src/test/resources/<package>/<Class>Inputs/<method>/
# as crash-<sha1>: the regression run (plain mvn verify) then replays it until the bug is fixed.
# Logs go to bench/results/fuzz/<Class>#<method>.log.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
runs="${RUNS:-1000000}"
results=bench/results/fuzz
mkdir -p "$results"

# module target
all=(
    "vertx-net HarborFuzzTest#requestHead"
    "vertx-net HarborFuzzTest#adminMetadata"
    "vertx-net HandshakeFuzzTest#answer"
    "vertx-net ChunkStreamFuzzTest#decoder"
    "vertx-net ChunkStreamFuzzTest#connection"
    "vertx-net FlvTagReaderFuzzTest#tags"
    "vertx-net ControlFuzzTest#telnet"
    "plugins/ffmpeg PlaylistFilesFuzzTest#m3u"
    "plugins/ffmpeg PlaylistFilesFuzzTest#pls"
    "liquidsoap LiquidsoapFuzzTest#parse"
)
selected=()
for entry in "${all[@]}"; do
    target="${entry#* }"
    if [[ $# -eq 0 ]]; then
        selected+=("$entry")
        continue
    fi
    for want in "$@"; do
        if [[ "$target" == "$want" || "${target%%#*}" == "$want" ]]; then selected+=("$entry"); fi
    done
done
if [[ ${#selected[@]} -eq 0 ]]; then
    echo "no target named $*; the targets are:" >&2
    printf '  %s\n' "${all[@]#* }" >&2
    exit 2
fi

printf '%-34s %10s %7s %8s %6s %7s %-10s %s\n' target executions seconds exec/s cov ft corpus finding
failed=0
for entry in "${selected[@]}"; do
    module="${entry%% *}"
    target="${entry#* }"
    class="${target%%#*}"
    method="${target#*#}"
    log="$results/$target.log"
    if [[ -z "${KEEP_CORPUS:-}" ]]; then
        rm -rf "$module/.cifuzz-corpus/"*".$class/$method"
    fi
    start=$(date +%s)
    # The fuzz profile sets JAZZER_FUZZ=1 and leaves @Timeout(5) to libFuzzer as the limit per input.
    # max_duration is only a backstop: the count of inputs ends the run.
    mvn -B -q -Pfuzz -pl "$module" -am verify -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false \
        -Djazzer.max_executions="$runs" -Djazzer.max_duration=3h \
        -Djvm.flags="--enable-native-access=ALL-UNNAMED -Xmx2g" > "$log" 2>&1
    status=$?
    wall=$(( $(date +%s) - start ))
    # libFuzzer's last status line: "#1000000 DONE cov: 606 ft: 2177 corp: 236/112Kb ... exec/s: 2548 ..."
    last=$(grep -a -E '^#[0-9]+[[:space:]]' "$log" | tail -1)
    done_line=$(grep -a -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)
    executions=$(sed -E 's/^Done ([0-9]+) runs.*/\1/' <<< "$done_line")
    seconds=$(sed -E 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/' <<< "$done_line")
    field() { grep -o -E "$1: [^ ]+" <<< "$last" | head -1 | sed -E 's/^[^:]+: //'; }
    finding=$(grep -a -o -E 'Test unit written to [^ ]+' "$log" | tail -1 | sed 's/Test unit written to //')
    if [[ -n "$finding" ]]; then
        finding="$finding ($(grep -a -m1 -o -E 'FuzzTestFindingException: .{0,120}' "$log" | sed 's/FuzzTestFindingException: //'))"
        failed=1
    elif [[ $status -ne 0 ]]; then
        finding="maven failed (exit $status, after ${wall}s): see $log"
        failed=1
    else
        finding=none
    fi
    printf '%-34s %10s %7s %8s %6s %7s %-10s %s\n' "$target" "${executions:-?}" "${seconds:-?}" \
        "$(field exec/s)" "$(field cov)" "$(field ft)" "$(field corp)" "$finding"
done
exit $failed
