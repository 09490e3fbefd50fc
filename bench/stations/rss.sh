#!/usr/bin/env bash
# Many default-shaped stations in one process (issue 27): for each N given, runs N copies of
# scripts/radio.groovy (each on its own harbor port, MP3 128 kb/s to its mount, status page) with
# `groovecast run --stations DIR`, waits until every station is on air, lets it settle WARM seconds,
# then samples the process's RSS and CPU over WINDOW seconds and asks every station's /api/clocks for
# its clock's lag. Prints one line per N, and the RSS each station past the first adds.
#   bench/stations/rss.sh 1 10            (default: 1 2 10)
#   WARM=30 WINDOW=20 CPUS=0,1 bench/stations/rss.sh 100
# Needs the distribution built (mvn install -DskipTests), curl and jq.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
gc="$(ls -d "$here"/distribution/target/groovecast-*/groovecast-*/bin/groovecast | head -1)"
warm="${WARM:-30}"
window="${WINDOW:-20}"
base="${BASE_PORT:-18400}"
cpus="${CPUS:-}"
work="$(mktemp -d)"
pid=""
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
counts=("$@")
[[ ${#counts[@]} -eq 0 ]] && counts=(1 2 10)
printf '%-6s %-10s %-12s %-14s %-24s %s\n' N "RSS MB" "per station" "CPU ms/s" "max lag s" "on air"
first_rss=""
for n in "${counts[@]}"; do
    dir="$work/n$n"
    mkdir -p "$dir"
    for ((i = 0; i < n; i++)); do
        sed "s/env('RADIO_PORT', '8000')/env('RADIO_PORT', '$((base + i))')/g" \
            "$here/scripts/radio.groovy" > "$dir/radio$i.groovy"
    done
    : > "$work/n$n.log"
    # RUN_ARGS: more options for run (--set scheduler.threads=4 ...)
    launch=("$gc" run ${RUN_ARGS:-} --stations "$dir")
    [[ -n "$cpus" ]] && launch=(taskset -c "$cpus" "${launch[@]}")
    "${launch[@]}" </dev/null >"$work/n$n.log" 2>&1 &
    pid=$!
    deadline=$((SECONDS + ${ONAIR_TIMEOUT:-300}))
    while (($(grep -c 'clock(s), 1 output(s)' "$work/n$n.log" || true) < n)); do
        ((SECONDS < deadline)) || { echo "N=$n: not all on air in ${ONAIR_TIMEOUT:-300} s" >&2; tail -5 "$work/n$n.log" >&2; exit 1; }
        sleep 1
    done
    jpid="$(pgrep -P "$pid" java || echo "$pid")"
    sleep "$warm"
    t0=$(cpu_ticks "$jpid"); s0=$(date +%s.%N)
    sum=0; samples=0
    for ((k = 0; k < window; k++)); do sum=$((sum + $(rss_kb "$jpid"))); samples=$((samples + 1)); sleep 1; done
    t1=$(cpu_ticks "$jpid"); s1=$(date +%s.%N)
    rss=$((sum / samples / 1024))
    cpu=$(awk -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.0f", (b - a) * 1000 / hz / (e - s)}')
    # Each station's clock lag, asked LAG_ROUNDS times 5 s apart: the largest seen, and how many
    # clocks were ever over 0.1 s behind.
    maxlag=0; onair=0; declare -A behind=()
    for ((round = 0; round < ${LAG_ROUNDS:-3}; round++)); do
        onair=0; roundmax=0
        for ((i = 0; i < n; i++)); do
            lag=$(curl -s --max-time 2 "http://127.0.0.1:$((base + i))/api/clocks" | jq -r '[.clocks[].lag] | max // empty' || true)
            [[ -z "$lag" ]] && continue
            onair=$((onair + 1))
            maxlag=$(awk -v a="$maxlag" -v b="$lag" 'BEGIN {print (b > a) ? b : a}')
            roundmax=$(awk -v a="$roundmax" -v b="$lag" 'BEGIN {print (b > a) ? b : a}')
            awk -v b="$lag" 'BEGIN {exit !(b > 0.1)}' && behind[$i]=1
        done
        echo "  N=$n lag round $round: max $roundmax s" >&2
        sleep 5
    done
    [[ -n "${KEEP_LOG:-}" ]] && cp "$work/n$n.log" "$KEEP_LOG.n$n.log"
    maxlag="$maxlag (${#behind[@]} over 0.1 s)"; unset behind
    [[ -z "$first_rss" ]] && first_rss=$rss && first_n=$n
    per=$([[ $n -gt $first_n ]] && awk -v r="$rss" -v f="$first_rss" -v n="$n" -v m="$first_n" 'BEGIN {printf "%.1f", (r - f) / (n - m)}' || echo -)
    printf '%-6s %-10s %-12s %-14s %-24s %s\n' "$n" "$rss" "$per" "$cpu" "$maxlag" "$onair/$n"
    kill -TERM "$pid"; wait "$pid" || true; pid=""
done
