#!/usr/bin/env bash
# The footprint of the default station: RSS of `bin/groovecast run scripts/radio.groovy` (the built
# distribution, its launcher's own JVM options) against Liquidsoap 2.1.3 running the same station
# in its dialect (bench/liquidsoap/radio-like.liq: three tones in rotation, LAME at 128 kbit/s, a
# harbor mount), both at once, a listener on each mount. Issue 27's target: Groovecast's RSS at most
# Liquidsoap's (ratio <= 1.00).
#   bench/footprint.sh [--after=30] [--warmup=0] [--listeners=1] [--nmt] [--no-liquidsoap] [--keep]
# --after: seconds of the window that ends with the reading of VmRSS (/proc/PID/status) and VmHWM
# (the peak), and each side's CPU over that window (utime + stime, indicative: load-sensitive,
# unlike RSS); --warmup: seconds before that window starts, so that the CPU leaves out the JIT's
# first compiles; --listeners per mount (curl, each checked to have received MP3 bytes); --nmt runs
# Groovecast with -XX:NativeMemoryTracking=summary and prints `jcmd VM.native_memory summary` (NMT
# itself costs a few MB: leave it off for the ratio); --no-liquidsoap measures Groovecast alone
# (to compare launcher options: GROOVECAST_GC and GROOVECAST_OPTS reach the launcher as usual).
# Builds nothing: build first with `./mvnw -q -B -o install -DskipTests` from the repository root.
# Exit 0 on PASS, 1 on FAIL or a side that did not stream, 2 on bad usage or a missing build or peer.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$here/procs.sh"  # started, start_bg, alive, stop_pids, cleanup, pause, say, free_port

after=30 warmup=0 listeners=1 nmt=false liquidsoap=true keep=false
for arg in "$@"; do
    case "$arg" in
        --after=*) after="${arg#*=}" ;;
        --warmup=*) warmup="${arg#*=}" ;;
        --listeners=*) listeners="${arg#*=}" ;;
        --nmt) nmt=true ;;
        --no-liquidsoap) liquidsoap=false ;;
        --keep) keep=true ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "unknown option $arg (--help)" >&2; exit 2 ;;
    esac
done

home="$(ls -d "$root"/distribution/target/groovecast-*/groovecast-*/ 2>/dev/null | head -1)"
if [[ -z "$home" || ! -x "$home/bin/groovecast" ]]; then
    echo "no distribution under $root/distribution/target: build first with" >&2
    echo "  cd $root && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests" >&2
    exit 2
fi
tools=(curl python3)
$liquidsoap && tools+=(liquidsoap)
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || { echo "$tool not found (apt-get install -y $tool)" >&2; exit 2; }
done

work="$(mktemp -d /tmp/groovecast-footprint.XXXXXX)"
finish() {
    cleanup
    if $keep; then echo "scratch kept: $work"; else rm -rf "$work"; fi
}
trap finish EXIT
trap 'exit 130' INT TERM
wait_mount() {  # PORT PID SECONDS
    local end=$((SECONDS + $3))
    until curl -s -o /dev/null -m 1 "http://127.0.0.1:$1/radio"; (( $? == 28 )); do
        alive "$2" || return 1
        ((SECONDS >= end)) && return 1
        sleep 0.2
    done
}
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }  # PID FIELD
cpu_ticks() { local st; read -r st < "/proc/$1/stat"; st="${st##*) }"; local -a f; read -r -a f <<< "$st"; echo $((f[11] + f[12])); }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }

gc_port="$(free_port)"
opts="${GROOVECAST_OPTS:-}"
$nmt && opts="$opts -XX:NativeMemoryTracking=summary"
say "Groovecast: $home/bin/groovecast run scripts/radio.groovy on port $gc_port"
GROOVECAST_OPTS="$opts" RADIO_PORT="$gc_port" start_bg "$work/groovecast.log" \
    "$home/bin/groovecast" run "$home/scripts/radio.groovy"
gc_pid="$last_pid"
ls_pid=""
if $liquidsoap; then
    ls_port="$(free_port)"
    say "$(liquidsoap --version 2>/dev/null | head -1): bench/liquidsoap/radio-like.liq on port $ls_port"
    RADIO_PORT="$ls_port" LS_MAX_RUNTIME=$((after + 120)) start_bg "$work/liquidsoap.log" \
        liquidsoap "$here/liquidsoap/radio-like.liq"
    ls_pid="$last_pid"
fi

wait_mount "$gc_port" "$gc_pid" 60 || { echo "Groovecast's mount never answered:" >&2; tail -20 "$work/groovecast.log" >&2; exit 1; }
if $liquidsoap; then
    wait_mount "$ls_port" "$ls_pid" 60 || { echo "Liquidsoap's mount never answered:" >&2; tail -20 "$work/liquidsoap.log" >&2; exit 1; }
fi
for ((i = 0; i < listeners; i++)); do
    start_bg "$work/listen-gc-$i.log" curl -s -o "$work/gc-$i.mp3" "http://127.0.0.1:$gc_port/radio"
    $liquidsoap && start_bg "$work/listen-ls-$i.log" curl -s -o "$work/ls-$i.mp3" "http://127.0.0.1:$ls_port/radio"
done
say "both mounts up, $listeners listener(s) each; RSS read in $((warmup + after)) s"
pause "$warmup"
gc_cpu0="$(cpu_ticks "$gc_pid")" t0="$(date +%s.%N)"
$liquidsoap && ls_cpu0="$(cpu_ticks "$ls_pid")"
pause "$after"
hz="$(getconf CLK_TCK)"
per_s() { awk -v a="$1" -v b="$2" -v t0="$t0" -v t1="$(date +%s.%N)" -v hz="$hz" 'BEGIN { printf "%.1f", (b - a) / hz / (t1 - t0) * 1000 }'; }
gc_cpu="$(per_s "$gc_cpu0" "$(cpu_ticks "$gc_pid")")"
$liquidsoap && ls_cpu="$(per_s "$ls_cpu0" "$(cpu_ticks "$ls_pid")")"

alive "$gc_pid" || { echo "Groovecast stopped:" >&2; tail -20 "$work/groovecast.log" >&2; exit 1; }
gc_rss="$(status_kb "$gc_pid" VmRSS)" gc_hwm="$(status_kb "$gc_pid" VmHWM)"
gc_threads="$(status_kb "$gc_pid" Threads)"
if $liquidsoap; then
    alive "$ls_pid" || { echo "Liquidsoap stopped:" >&2; tail -20 "$work/liquidsoap.log" >&2; exit 1; }
    ls_rss="$(status_kb "$ls_pid" VmRSS)" ls_hwm="$(status_kb "$ls_pid" VmHWM)"
    ls_threads="$(status_kb "$ls_pid" Threads)"
fi
# Every listener must have heard a stream: at 128 kbit/s, at least half of the window's bytes.
streamed=true
for f in "$work"/gc-*.mp3 "$work"/ls-*.mp3; do
    [[ -e "$f" ]] || continue
    bytes="$(stat -c %s "$f")"
    if (( bytes < after * 16000 / 2 )); then
        echo "listener $(basename "$f"): only $bytes bytes in ${after} s" >&2
        streamed=false
    fi
done
if $nmt; then
    jcmd="$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java)")")/jcmd"
    [[ -x "$jcmd" ]] || jcmd=/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd
    echo "Groovecast native memory (committed KB, NMT summary):"
    "$jcmd" "$gc_pid" VM.native_memory summary | sed -n 's/^-  *\([A-Za-z ]*[A-Za-z]\) (reserved=[0-9]*KB, committed=\([0-9]*\)KB.*/  \1: \2/p'
fi

printf 'Groovecast (GROOVECAST_GC=%s, GROOVECAST_OPTS=%s): RSS %s MB, peak %s MB, %s threads, CPU %s ms/s\n' \
    "${GROOVECAST_GC:-launcher default}" "${opts:-none}" "$(mb "$gc_rss")" "$(mb "$gc_hwm")" "$gc_threads" "$gc_cpu"
if $liquidsoap; then
    printf 'Liquidsoap 2.1.3 (radio-like.liq): RSS %s MB, peak %s MB, %s threads, CPU %s ms/s\n' \
        "$(mb "$ls_rss")" "$(mb "$ls_hwm")" "$ls_threads" "$ls_cpu"
    ratio="$(awk -v a="$gc_rss" -v b="$ls_rss" 'BEGIN { printf "%.2f", a / b }')"
    verdict="$(awk -v r="$ratio" 'BEGIN { print (r <= 1.0 ? "PASS" : "FAIL") }')"
    printf 'RSS Groovecast / Liquidsoap: %s (target <= 1.00: %s)\n' "$ratio" "$verdict"
    $streamed || { echo "a listener heard no stream: FAILED" >&2; exit 1; }
    [[ "$verdict" == PASS ]] || exit 1
fi
$streamed || { echo "a listener heard no stream: FAILED" >&2; exit 1; }
exit 0
