#!/usr/bin/env bash
# RTMP relay benchmark: P publishers x Q players of a ~6 Mbit/s 1080p30 H.264+AAC clip (-c copy) through
# a relay on 127.0.0.1; the relay's CPU, syscalls/s, RSS and (for a JVM) allocation over a measured
# window, each player's frame rate, and Groovecast against nginx-rtmp measured in the same run.
#   bench/rtmp/run.sh [--relay both|nginx|groovecast] [--cases 2x2,20x3 | --publishers 20 --players 3]
#                     [--seconds 20] [--warmup 10] [--settle 3] [--port 1935] [--app live]
#                     [--syscalls perf|strace|none] [--min-fps 29] [--quiet-wait 30] [--rounds 1] [--out DIR]
# Defaults: both relays, one after the other (nginx first) for each case; the cases 2x2 and 20x3;
# 20 s measured after 3 s of publishers alone and at least 10 s of warm-up with the players (longer
# until no player is still catching up after its probe; a JVM's JIT gets the same time); port 1935, or a
# free one when 1935 is taken; syscalls counted with perf. --publishers/--players give one case.
# Before each relay starts, up to --quiet-wait seconds (0: no wait) for a second in which the machine
# is less than 25 % of one core busy (others' builds show up in every figure on 2 cores). --rounds N
# runs the whole sequence N times (nginx, groovecast, nginx, groovecast, ...); the ratio then takes, for
# each relay, the round in which other processes used the least CPU (and prints the medians too).
# GROOVECAST_RELAY_CMD   command starting the Groovecast relay (a shell string, run as `exec CMD` with
#                        RTMP_PORT in its environment, so its PID is the relay's). Default: the engine
#                        of the bench build (bench/target/classpath.txt, bench/target/plugins) running
#                        bench/rtmp/relay.groovy; JAVA and JAVA_OPTS as for the other benchmarks, with
#                        the JVM options bin/groovecast ships for one station (bench-env.sh's
#                        station_jvm_opts: serial collector, C1, Netty's 1 MB chunks; GROOVECAST_GC
#                        and GROOVECAST_JIT replace parts of them, GROOVECAST_JIT= brings C2 back).
# NGINX_RELAY_CMD        likewise for nginx. Default: nginx -c <nginx-rtmp.conf on the port> -p <run dir>.
# RTMP_BENCH_JFC         JFR settings for a JVM relay (default bench/rtmp/alloc.jfc; `profile` works;
#                        `none` records nothing: JFR's own periodic work costs a light relay about
#                        as much CPU as nginx uses in all, so CPU ratios are best taken without it).
# It builds nothing. Results on stdout; logs, ffmpeg progress files, snapshots, JFR recordings and
# one JSON row per run under --out (default /tmp/groovecast-rtmp-bench/DATE).
set -euo pipefail

rtmp_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$rtmp_dir/../bench-env.sh"   # java, cpfile, plugins, require, station_jvm_opts
stats="$rtmp_dir/stats.py"

relays=both cases="2x2,20x3" publishers="" players="" seconds=20 warmup=10 settle=3 port="" app=live
syscalls=perf min_fps=29 quiet_wait=30 rounds=1 out=""
while [[ $# -gt 0 ]]; do
    opt="$1" val=""
    if [[ "$opt" == --*=* ]]; then val="${opt#*=}"; opt="${opt%%=*}"; shift
    elif [[ "$opt" == -h || "$opt" == --help ]]; then sed -n '2,23p' "$0"; exit 0
    else [[ $# -ge 2 ]] || { echo "$opt needs a value" >&2; exit 2; }; val="$2"; shift 2; fi
    case "$opt" in
        --relay) relays="$val" ;;
        --cases) cases="$val" ;;
        --publishers) publishers="$val" ;;
        --players) players="$val" ;;
        --seconds) seconds="$val" ;;
        --warmup) warmup="$val" ;;
        --settle) settle="$val" ;;
        --port) port="$val" ;;
        --app) app="$val" ;;
        --syscalls) syscalls="$val" ;;
        --min-fps) min_fps="$val" ;;
        --quiet-wait) quiet_wait="$val" ;;
        --rounds) rounds="$val" ;;
        --out) out="$val" ;;
        *) echo "unknown option $opt (--help)" >&2; exit 2 ;;
    esac
done
if [[ -n "$publishers$players" ]]; then cases="${publishers:-20}x${players:-3}"; fi
case "$relays" in
    both) relays=(nginx groovecast) ;;
    nginx|groovecast) relays=("$relays") ;;
    *) echo "--relay nginx|groovecast|both" >&2; exit 2 ;;
esac
case "$syscalls" in perf|strace|none) ;; *) echo "--syscalls perf|strace|none" >&2; exit 2 ;; esac
IFS=, read -r -a case_list <<< "$cases"
for c in "${case_list[@]}"; do
    [[ "$c" =~ ^[0-9]+x[0-9]+$ ]] || { echo "a case is PUBLISHERSxPLAYERS, e.g. 20x3: $c" >&2; exit 2; }
done

for tool in ffmpeg ffprobe python3 ss; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
# the interpreter itself, not a version manager's shim that costs a start-up of its own every call
py="$(python3 -c 'import sys; print(sys.executable)')"
if [[ "$syscalls" == perf ]] && ! command -v perf >/dev/null; then
    echo "perf is needed for --syscalls perf (apt-get install -y linux-perf), or use --syscalls strace|none" >&2
    exit 1
fi
if [[ " ${relays[*]} " == *" nginx "* && -z "${NGINX_RELAY_CMD:-}" ]] && ! command -v nginx >/dev/null; then
    echo "nginx is needed: apt-get install -y nginx libnginx-mod-rtmp" >&2
    exit 1
fi
if [[ " ${relays[*]} " == *" groovecast "* && -z "${GROOVECAST_RELAY_CMD:-}" ]]; then
    require "$cpfile" "$plugins/core.jar"
    GROOVECAST_RELAY_CMD="$(printf '%q ' "$java" --enable-native-access=ALL-UNNAMED \
        --sun-misc-unsafe-memory-access=allow) $station_jvm_opts ${JAVA_OPTS:-} $(printf '%q ' -cp "$(cat "$cpfile")" \
        org.groovecast.host.cli.Main run --plugins-dir "$plugins" "$rtmp_dir/relay.groovy")"
fi

clip="$("$rtmp_dir/make-clip.sh")"
read -r clip_v clip_a clip_d < "$clip.packets"
clip_vps="$("$py" -c "print(round($clip_v / $clip_d, 3))")"
clip_aps="$("$py" -c "print(round($clip_a / $clip_d, 3))")"

port_busy() { [[ -n "$(ss -Hltn "sport = :$1")" ]]; }
if [[ -z "$port" ]]; then
    port=1935
    if port_busy "$port"; then
        port="$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    fi
fi
export RTMP_PORT="$port"

out="${out:-/tmp/groovecast-rtmp-bench/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

source "$rtmp_dir/../procs.sh"  # started, start_bg, alive, stop_pids, cleanup, pause
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# run_one RELAY PUBLISHERS PLAYERS ROUND: one relay under one load; writes $dir/row.json
run_one() {
    local relay="$1" np="$2" nq="$3" round="$4"
    local dir="$out/${np}x${nq}/$relay" cmd p
    (( rounds == 1 )) || dir="$dir/round$round"
    mkdir -p "$dir/progress" "$dir/logs"
    : > "$dir/publishers.pids"
    : > "$dir/players.pids"
    if [[ "$relay" == nginx ]]; then
        mkdir -p "$dir/nginx"
        sed "s/listen 127\.0\.0\.1:1935;/listen 127.0.0.1:$port;/" "$rtmp_dir/nginx-rtmp.conf" > "$dir/nginx.conf"
        cmd="${NGINX_RELAY_CMD:-$(printf '%q ' nginx -c "$dir/nginx.conf" -p "$dir/nginx/")}"
    else
        cmd="$GROOVECAST_RELAY_CMD"
    fi
    if port_busy "$port"; then
        log "$relay: port $port is already taken; --port another"
        return 1
    fi

    if [[ "$quiet_wait" != 0 ]]; then log "$relay ${np}x${nq}: $("$py" "$stats" quiet "$quiet_wait" 25)"; fi
    echo "$cmd" > "$dir/relay.cmd"
    local shown="$cmd"
    (( ${#shown} <= 240 )) || shown="${shown:0:160} ... ${shown: -70} (in full: $dir/relay.cmd)"
    log "$relay ${np}x${nq}: starting the relay on 127.0.0.1:$port: $shown"
    start_bg "$dir/relay.log" bash -c "exec $cmd"
    local relay_pid="$last_pid" i j
    for ((i = 0; i < 600; i++)); do
        port_busy "$port" && break
        if ! alive "$relay_pid"; then
            log "$relay: the relay exited before listening; $dir/relay.log ends with:"
            tail -n 20 "$dir/relay.log" >&2
            return 1
        fi
        sleep 0.1
    done
    port_busy "$port" || { log "$relay: not listening on $port after 60 s"; stop_pids TERM 10 "$relay_pid"; return 1; }

    # A JVM relay (the PID, or the first java in its tree when the command is a wrapper that does not
    # exec): its JDK's jcmd starts a JFR recording now, so that JFR's start-up cost falls before the
    # warm-up; jdk.ThreadAllocationStatistics then samples every thread's counter each second.
    local jvm_bin="" jvm_pid="" jfr_on=0 exe
    for p in $("$py" "$stats" tree "$relay_pid" | tr , ' '); do
        exe="$(readlink "/proc/$p/exe" || true)"
        if [[ "$(basename "$exe")" == java ]]; then jvm_pid="$p"; break; fi
    done
    if [[ -n "$jvm_pid" && "${RTMP_BENCH_JFC:-}" != none ]]; then
        jvm_bin="$(dirname "$exe")"
        [[ -x "$jvm_bin/jcmd" && -x "$jvm_bin/jfr" ]] || jvm_bin="$(dirname "$java")"
        local jfc="${RTMP_BENCH_JFC:-$rtmp_dir/alloc.jfc}"
        if "$jvm_bin/jcmd" "$jvm_pid" JFR.start name=rtmpbench settings="$jfc" > "$dir/jfr-start.log" 2>&1; then
            jfr_on=1
        else
            log "$relay: JFR.start failed (no allocation figures): $(tail -n 3 "$dir/jfr-start.log")"
        fi
    fi

    local url="rtmp://127.0.0.1:$port/$app"
    local -a pubs=() plays=()
    for ((i = 1; i <= np; i++)); do
        start_bg "$dir/logs/pub-s$i.log" ffmpeg -hide_banner -nostdin -loglevel warning \
            -stats_period 0.1 -progress "$dir/progress/pub-s$i" \
            -re -stream_loop -1 -i "$clip" -c copy -f flv "$url/s$i"
        pubs+=("$last_pid")
    done
    echo "${pubs[*]}" > "$dir/publishers.pids"
    pause "$settle"
    local dead=0
    for i in "${!pubs[@]}"; do
        if ! alive "${pubs[$i]}"; then
            dead=$((dead + 1))
            log "$relay: publisher s$((i + 1)) exited: $(tail -n 2 "$dir/logs/pub-s$((i + 1)).log" | tr '\n' ' ')"
        fi
    done
    if (( dead )); then stop_pids INT 5 "${pubs[@]}"; stop_pids TERM 15 "$relay_pid"; return 1; fi

    for ((i = 1; i <= np; i++)); do
        for ((j = 1; j <= nq; j++)); do
            start_bg "$dir/logs/play-s$i-$j.log" ffmpeg -hide_banner -nostdin -loglevel warning \
                -stats_period 0.1 -progress "$dir/progress/play-s$i-$j" \
                -i "$url/s$i" -c copy -f null -
            plays+=("$last_pid")
        done
    done
    echo "${plays[*]}" > "$dir/players.pids"
    log "$relay ${np}x${nq}: ${#pubs[@]} publishers and ${#plays[@]} players started; warm-up"
    # A player first probes the stream, then works through what arrived meanwhile faster than real
    # time: the window starts when no player has been faster than 1.05x real time for 3 s.
    log "$relay ${np}x${nq}: $("$py" "$stats" steady "$dir" "$warmup" "$((warmup + 60))")"
    dead=0
    for p in "${pubs[@]}" "${plays[@]}"; do alive "$p" || dead=$((dead + 1)); done
    (( dead == 0 )) || log "$relay: $dead ffmpeg client(s) exited during the warm-up (see $dir/logs)"

    # The window: CPU and progress snapshots around it; perf counts the relay's syscalls over the
    # same seconds (in-kernel counting of the sys_enter tracepoint, no stop per syscall).
    local relay_tree perf_pid=""
    relay_tree="$("$py" "$stats" tree "$relay_pid")"
    for p in ${relay_tree//,/ }; do remember "$p"; done
    if [[ "$syscalls" == perf ]]; then
        perf stat -e raw_syscalls:sys_enter -x, -o "$dir/perf.txt" -p "$relay_tree" -- sleep "$seconds" \
            > "$dir/perf.log" 2>&1 &
        perf_pid=$!
        started+=("$perf_pid")
        remember "$perf_pid"
    fi
    log "$relay ${np}x${nq}: measuring ${seconds}s (relay processes $relay_tree)"
    "$py" "$stats" snap "$dir/snap0.json" "$dir" "$relay_pid"
    pause "$seconds"
    "$py" "$stats" snap "$dir/snap1.json" "$dir" "$relay_pid"
    [[ -z "$perf_pid" ]] || wait "$perf_pid" || log "$relay: perf failed: $(tail -n 3 "$dir/perf.log")"
    # strace stops the relay at every syscall, so it gets a window of its own, after the measured one.
    if [[ "$syscalls" == strace ]]; then
        local -a sp=()
        for p in ${relay_tree//,/ }; do sp+=(-p "$p"); done
        log "$relay ${np}x${nq}: strace -c -f over another ${seconds}s"
        timeout -s INT "$seconds" strace -c -f -o "$dir/strace.txt" "${sp[@]}" > "$dir/strace.log" 2>&1 || true
    fi

    if (( jfr_on )); then
        "$jvm_bin/jcmd" "$jvm_pid" JFR.dump name=rtmpbench filename="$dir/relay.jfr" > "$dir/jfr-dump.log" 2>&1 \
            || { log "$relay: JFR.dump failed: $(tail -n 3 "$dir/jfr-dump.log")"; jfr_on=0; }
    fi

    # Stop: players, then publishers (SIGINT: ffmpeg finishes cleanly), then the relay (SIGTERM).
    stop_pids INT 5 "${plays[@]}"
    stop_pids INT 5 "${pubs[@]}"
    local relay_exit=0
    stop_pids TERM 20 "$relay_pid"
    wait "$relay_pid" 2>/dev/null || relay_exit=$?
    for p in ${relay_tree//,/ }; do
        if alive "$p"; then log "$relay: process $p of the relay outlived it: killed"; kill -s KILL "$p" || true; fi
    done
    for ((i = 0; i < 100; i++)); do port_busy "$port" || break; sleep 0.1; done
    started=()  # all stopped: nothing of this run is left to clean up

    if (( jfr_on )); then
        "$py" "$stats" jfr "$jvm_bin/jfr" "$dir/relay.jfr" "$dir" "$dir/alloc.json" \
            || log "$relay: could not read $dir/relay.jfr"
    fi
    local client_errors
    client_errors="$(cat "$dir"/logs/*.log | grep -v -e 'Failed to update header' -e '^Exiting normally' \
        -e 'received signal' -e '^\s*$' | sort | uniq -c | sort -rn | head -n 3 || true)"
    [[ -z "$client_errors" ]] || log "$relay: ffmpeg clients said (most frequent lines):"$'\n'"$client_errors"
    "$py" "$stats" meta "$dir/meta.json" relay="$relay" publishers="$np" players="$nq" \
        seconds="$seconds" warmup="$warmup" settle="$settle" port="$port" app="$app" \
        syscalls="$syscalls" perf_seconds="$seconds" strace_seconds="$seconds" min_fps="$min_fps" \
        clip="$clip" clip_video_pps="$clip_vps" clip_audio_pps="$clip_aps" relay_cmd="$cmd" \
        relay_exit="$relay_exit" round="$round" date="$(date -Iseconds)"
    "$py" "$stats" row "$dir" "$dir/row.json" || return 1
    log "$relay ${np}x${nq}: done (relay exit $relay_exit)"
}

echo "RTMP relay benchmark, $(date -Iseconds), $(nproc) CPUs, port $port, clip $clip"
echo "  (${clip_vps} video + ${clip_aps} audio packets/s per stream); publishers alone ${settle}s, warm-up >= ${warmup}s, ${seconds}s measured;"
echo "  syscalls: $syscalls; relay CPU = its processes' CPU time / wall time (100 = one core); results in $out"
failed=0
rows=()
for c in "${case_list[@]}"; do
    for ((round = 1; round <= rounds; round++)); do
        for relay in "${relays[@]}"; do
            d="$out/$c/$relay"
            (( rounds == 1 )) || d="$d/round$round"
            if run_one "$relay" "${c%x*}" "${c#*x}" "$round"; then
                rows+=("$d/row.json")
            else
                failed=1
                log "$relay $c: FAILED"
            fi
        done
    done
done
echo
if (( ${#rows[@]} )); then "$py" "$stats" table "${rows[@]}"; fi
exit "$failed"
