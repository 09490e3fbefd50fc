# Sourced by the benchmarks that start peers (bench/rtmp/run.sh, bench/soak/run.sh): every process a
# script starts is remembered with its start time (field 22 of /proc/PID/stat), so that an interrupted
# run leaves nothing behind and a later process that gets the same PID is never signalled. The script
# sets `trap cleanup EXIT` itself.
started=()
declare -A born=()
last_pid=""
remember() {  # PID: notes its start time
    local st
    { read -r st < "/proc/$1/stat"; } 2>/dev/null || return 0
    st="${st##*) }"
    local -a f
    read -r -a f <<< "$st"
    born[$1]="${f[19]}"
}
start_bg() {  # LOG CMD...: starts CMD in the background, its PID in last_pid
    local log="$1"
    shift
    "$@" </dev/null >"$log" 2>&1 &
    last_pid=$!
    started+=("$last_pid")
    remember "$last_pid"
}
alive() {  # PID: still the process we knew (same start time), not gone, not a zombie; no fork
    local st
    { read -r st < "/proc/$1/stat"; } 2>/dev/null || return 1
    st="${st##*) }"
    [[ -n "$st" && "${st%% *}" != Z ]] || return 1
    if [[ -n "${born[$1]:-}" ]]; then
        local -a f
        read -r -a f <<< "$st"
        [[ "${f[19]}" == "${born[$1]}" ]]
    fi
}
stop_pids() {  # SIGNAL TIMEOUT_S PID...: signals them, waits, then SIGKILLs what is left; says how many
    local sig="$1" timeout="$2" p n=0 killed=0
    shift 2
    for p in "$@"; do alive "$p" && kill -s "$sig" "$p" 2>/dev/null || true; done
    while (( n < timeout * 10 )); do
        local left=0
        for p in "$@"; do alive "$p" && left=1 && break; done
        (( left )) || break
        sleep 0.1
        n=$((n + 1))
    done
    for p in "$@"; do
        if alive "$p"; then kill -s KILL "$p" 2>/dev/null || true; killed=$((killed + 1)); fi
    done
    (( killed == 0 )) || echo "  $killed process(es) did not stop on SIG$sig within ${timeout}s: killed" >&2
}
cleanup() {
    local p left=()
    for p in "${started[@]}"; do alive "$p" && left+=("$p"); done
    if (( ${#left[@]} )); then
        echo "stopping ${#left[@]} process(es) this run started" >&2
        stop_pids TERM 5 "${left[@]}"
    fi
}

pause() { sleep "$1" & wait $!; }  # a sleep that a trapped SIGTERM/SIGINT interrupts at once
say() { echo "[$(date +%H:%M:%S)] $*" >&2; }  # a timestamped progress line on stderr
free_port() {  # a port free on 127.0.0.1 now
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
