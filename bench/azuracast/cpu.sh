#!/usr/bin/env bash
# The CPU of an AzuraCast-shaped station, Groovecast against Liquidsoap 2.1.3, side by side: both
# engines run at once, on the same generated tones, into one private icecast2, for the same wall
# window after a warm-up. Issue 26's target: Groovecast at most 0.5x Liquidsoap's CPU.
#   bench/azuracast/cpu.sh [--warmup=180] [--window=60] [--track=30] [--keep]
# Groovecast runs cpu-station.liq with the distribution's bin/liquidsoap (as AzuraCast would start
# it), Liquidsoap 2.1.3 (Debian's `apt-get install -y liquidsoap`) runs cpu-station-2.1.liq, the same
# station in its dialect (the differences are listed at its top). Before the window, a listener
# reads 5 s of each side's MP3 and AAC mounts and HLS playlist, and tones.py says what it hears: a
# side with a stream that does not play the playlists' tones is FAILED. Over the window: each process's
# CPU seconds per wall second (utime + stime from /proc/PID/stat), its RSS at the end, the clock
# warnings it logged (Groovecast "behind real time", Liquidsoap "catchup"), the load average and
# the other processes' CPU; then the ratio Groovecast / Liquidsoap, PASS when <= 0.5.
# --warmup counts from the moment both MP3 mounts are on icecast (180 s: with 30 s tracks the JIT
# recompiles at each of the first track changes and crossfades, 6-15 ms/s for about 140 s; a
# station that runs for days pays that once); --track is each tone's length
# (crossfades every --track seconds); --keep keeps the scratch directory (logs, recordings).
# GROOVECAST_OPTS adds JVM options to Groovecast's (e.g. a JFR recording). Builds nothing: build
# first with `./mvnw -q -B -o install -DskipTests` from the repository root.
# Exit 0 on PASS, 1 on FAIL or a FAILED side, 2 on bad usage or a missing build or peer.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/../procs.sh"  # started, start_bg, alive, stop_pids, cleanup, pause, say, free_port
source "$here/icecast.sh"     # write_icecast_config

warmup=180 window=60 track=30 keep=false
for arg in "$@"; do
    case "$arg" in
        --warmup=*) warmup="${arg#*=}" ;;
        --window=*) window="${arg#*=}" ;;
        --track=*) track="${arg#*=}" ;;
        --keep) keep=true ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown option $arg (--help)" >&2; exit 2 ;;
    esac
done
(( warmup >= 20 )) || { echo "--warmup must be at least 20 s: the listeners' checks run in it" >&2; exit 2; }

launcher="$(ls -d "$root"/distribution/target/groovecast-*/groovecast-*/bin/liquidsoap 2>/dev/null | head -1)"
if [[ -z "$launcher" ]]; then
    echo "no distribution under $root/distribution/target: build first with" >&2
    echo "  cd $root && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests" >&2
    exit 2
fi
for tool in liquidsoap icecast2 ffmpeg ffprobe curl python3; do
    command -v "$tool" >/dev/null || { echo "$tool not found (apt-get install -y $tool)" >&2; exit 2; }
done
ls_version="$(liquidsoap --version 2>/dev/null | head -1)"

work="$(mktemp -d /tmp/groovecast-azcpu.XXXXXX)"
chmod 755 "$work"  # icecast2 run as root drops to nobody
finish() {
    cleanup
    if $keep; then echo "scratch kept: $work"; else rm -rf "$work"; fi
}
trap finish EXIT
trap 'exit 130' INT TERM
wait_for() {  # SECONDS CMD...: polls CMD every 0.2 s
    local end=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        ((SECONDS >= end)) && return 1
        sleep 0.2
    done
}

# --- Media: tones, each track a frequency of its own (tones.py tells them apart) ---
media="$work/media"
mkdir -p "$media"
declare -A freq=([default1]=440 [default2]=494 [default3]=523 [rock1]=587 [rock2]=659 [jingle1]=880 [error]=220)
for name in "${!freq[@]}"; do
    seconds="$track"
    [[ $name == jingle1 ]] && seconds=3
    [[ $name == error ]] && seconds=5
    ffmpeg -nostdin -loglevel error -f lavfi -i "sine=frequency=${freq[$name]}:sample_rate=44100:duration=$seconds" \
        -ac 2 -c:a libmp3lame -b:a 128k -metadata artist="Bench" -metadata title="$name" "$media/$name.mp3" ||
        { echo "ffmpeg could not make $name.mp3" >&2; exit 2; }
done
tone_args=()
for name in "${!freq[@]}"; do tone_args+=("$name=${freq[$name]}"); done

# --- icecast2 ---
ice_port="$(free_port)"
ice_pw="bench-source-pw"
write_icecast_config "$work/icecast" "$ice_port" "$ice_pw"
start_bg "$work/icecast/out.txt" icecast2 -c "$work/icecast/icecast.xml"
# icecast2 asked in its first moments can crash (see the specs' Icecast.groovy): half a second alone.
sleep 0.5
ice_status() { curl -sf --max-time 1 "http://127.0.0.1:$ice_port/status-json.xsl"; }
wait_for 10 bash -c "curl -sf --max-time 1 http://127.0.0.1:$ice_port/status-json.xsl | grep -q '^{\"icestats\":{'" ||
    { echo "icecast2 did not start: $(cat "$work/icecast/out.txt")" >&2; exit 2; }

# --- The two stations: same media, playlists of their own, mounts /gc.* and /ls.* ---
sides=(gc ls)
declare -A label=([gc]="Groovecast" [ls]="Liquidsoap 2.1.3") pid=() logf=()
declare -A lagpat=([gc]="behind real time" [ls]="catchup|Too much latency")
for side in "${sides[@]}"; do
    d="$work/$side"
    mkdir -p "$d"/{playlists,hls,config,temp}
    printf '%s\n' "$media/default1.mp3" "$media/default2.mp3" "$media/default3.mp3" >"$d/playlists/playlist_default.m3u"
    printf '%s\n' "$media/rock1.mp3" "$media/rock2.mp3" >"$d/playlists/playlist_rock.m3u"
    printf '%s\n' "$media/jingle1.mp3" >"$d/playlists/playlist_jingles.m3u"
done

gc_script="$here/cpu-station.liq"
if ! check_out="$("$launcher" --check "$gc_script" 2>&1)"; then
    echo "groovecast refuses the station: $(grep -m1 -E ':[0-9]+:' <<<"$check_out" || tail -1 <<<"$check_out")" >&2
    exit 2
fi

run_side() {  # SIDE CMD...: the station with its environment
    local side="$1"
    shift
    logf[$side]="$work/$side/run.log"
    STATION_DIR="$work/$side" MEDIA_DIR="$media" ICE_PORT="$ice_port" ICE_PW="$ice_pw" MOUNT="/$side" \
        DJ_PORT="$(free_port)" start_bg "${logf[$side]}" "$@"
    pid[$side]=$last_pid
}
say "starting both stations"
run_side gc "$launcher" "$gc_script"
run_side ls liquidsoap "$here/cpu-station-2.1.liq"

mounts_up() {  # both MP3 mounts listed by icecast
    local s
    s="$(ice_status)" || return 1
    grep -q '/gc\.mp3' <<<"$s" && grep -q '/ls\.mp3' <<<"$s"
}
if ! wait_for 90 mounts_up; then
    for side in "${sides[@]}"; do
        alive "${pid[$side]}" || echo "${label[$side]} exited: $(tail -3 "${logf[$side]}")" >&2
    done
    echo "the mounts did not come up in 90 s (icecast lists: $(ice_status | grep -o '"listenurl":"[^"]*"' | tr '\n' ' '))" >&2
    exit 1
fi
up_at=$SECONDS
say "both MP3 mounts up: warm-up of $warmup s, the listeners' checks in it"

# --- Do listeners get audio? 5 s of each stream, 12 s after the mounts are up (two HLS segments) ---
pause 12
declare -A heard=() verdict=()
listen() {  # SIDE KIND URL
    local out="$work/$1/listen-$2.wav"
    # decoded as a player does (a player joining mid-stream resyncs on the next frame header)
    timeout 30 ffmpeg -nostdin -loglevel error -i "$3" -t 5 -vn -ac 2 -f wav "$out" >"$out.log" 2>&1
}
declare -a listeners=()
for side in "${sides[@]}"; do
    listen "$side" mp3 "http://127.0.0.1:$ice_port/$side.mp3" & listeners+=($!)
    listen "$side" aac "http://127.0.0.1:$ice_port/$side.aac" & listeners+=($!)
    listen "$side" hls "$work/$side/hls/live.m3u8" & listeners+=($!)
done
wait "${listeners[@]}" 2>/dev/null
for side in "${sides[@]}"; do
    ok=0
    for kind in mp3 aac hls; do
        f="$work/$side/listen-$kind.wav"
        dur="$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$f" 2>/dev/null)"
        # tones.py: one name per half second; the playlists' tones, not the error file nor silence
        tones="$(python3 "$here/tones.py" "$f" "${tone_args[@]}" 2>/dev/null | awk '{print $2}')"
        music="$(grep -cvE '^(-|error)$' <<<"$tones")"
        total="$(grep -c . <<<"$tones")"
        heard[$side.$kind]="${dur:-0} s, $music/$total half-seconds of playlist tones ($(sort <<<"$tones" | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}'))"
        if [[ -n "$dur" ]] && awk -v d="$dur" 'BEGIN { exit !(d >= 4) }' && (( total > 0 && music * 2 >= total )); then
            ok=$((ok + 1))
            heard[$side.$kind]="OK   ${heard[$side.$kind]}"
        else
            heard[$side.$kind]="FAIL ${heard[$side.$kind]} $(head -c 200 "$f.log" 2>/dev/null)"
        fi
    done
    verdict[$side]=$([[ $ok == 3 ]] && echo streaming || echo FAILED)
done

left=$((warmup - (SECONDS - up_at)))
(( left > 0 )) && pause "$left"

# --- The window ---
clk_tck="$(getconf CLK_TCK)"
ncpu="$(nproc)"
cpu_ticks() {  # PID: utime + stime in clock ticks
    local st
    { read -r st <"/proc/$1/stat"; } 2>/dev/null || { echo -1; return; }
    st="${st##*) }"
    local -a f
    read -r -a f <<<"$st"
    echo $((f[11] + f[12]))
}
idle_ticks() {  # the machine's idle + iowait, in clock ticks
    local cpu user nice system idle iowait rest
    read -r cpu user nice system idle iowait rest </proc/stat
    echo $((idle + iowait))
}
lag_lines() { grep -cE "${lagpat[$1]}" "${logf[$1]}" 2>/dev/null || true; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
thread_ticks() {  # PID: one line per thread, TID<tab>NAME<tab>utime+stime
    local t st name
    for t in /proc/"$1"/task/*; do
        { read -r st <"$t/stat"; } 2>/dev/null || continue
        name="${st#*(}"
        name="${name%%) *}"
        st="${st##*) }"
        local -a f
        read -r -a f <<<"$st"
        printf '%s\t%s\t%s\n' "${t##*/}" "$name" $((f[11] + f[12]))
    done
}
declare -A c0=() c1=() lag0=() lag1=() rss=()
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
for side in "${sides[@]}"; do c0[$side]="$(cpu_ticks "${pid[$side]}")"; lag0[$side]="$(lag_lines "$side")"; done
thread_ticks "${pid[gc]}" >"$work/gc/threads0.tsv"
idle0="$(idle_ticks)"
t0="$(date +%s.%N)"
say "window of $window s (load average $load0)"
pause "$window"
t1="$(date +%s.%N)"
idle1="$(idle_ticks)"
thread_ticks "${pid[gc]}" >"$work/gc/threads1.tsv"
for side in "${sides[@]}"; do
    c1[$side]="$(cpu_ticks "${pid[$side]}")"
    lag1[$side]="$(lag_lines "$side")"
    rss[$side]="$(rss_kb "${pid[$side]}")"
done
load1="$(cut -d' ' -f1-3 /proc/loadavg)"

# The codecs' own cost, once the stations are stopped: the ffmpeg CLI decoding the same tone and
# making the same three encodes (MP3 128k, AAC 64k, AAC 192k), its own user + system CPU per second
# of audio. Neither engine can go below it.
stop_pids TERM 5 "${pid[gc]}" "${pid[ls]}"
floor="$(ffmpeg -nostdin -benchmark -stream_loop -1 -t 60 -i "$media/default1.mp3" \
    -map 0:a -c:a libmp3lame -b:a 128k -f null - -map 0:a -c:a aac -b:a 64k -f null - \
    -map 0:a -c:a aac -b:a 192k -f null - 2>&1 |
    sed -n 's/^bench: utime=\([0-9.]*\)s stime=\([0-9.]*\)s.*/\1 \2/p' | awk '{ printf "%.4f", ($1 + $2) / 60 }')"

# --- The report ---
wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
declare -A rate=()
both=0
echo
echo "AzuraCast-shaped station, CPU side by side: groovecast $(git -C "$root" rev-parse --short HEAD 2>/dev/null), $ls_version, $(date -u '+%F %H:%M') UTC"
echo "warm-up ${warmup} s, window ${wall} s, tracks of ${track} s (crossfade 3 s), $ncpu CPUs; load average $load0 at the start, $load1 at the end"
printf '%-18s %-10s %12s %9s %10s  %s\n' ENGINE STREAMS "CPU s/wall s" "RSS MB" "lag warns" "PID"
for side in "${sides[@]}"; do
    if (( c1[$side] < 0 || c0[$side] < 0 )); then
        rate[$side]=""
        verdict[$side]=FAILED
        printf '%-18s %-10s %12s %9s %10s  %s\n' "${label[$side]}" FAILED "exited" - - "${pid[$side]}"
        continue
    fi
    rate[$side]="$(awk -v c=$((c1[$side] - c0[$side])) -v hz="$clk_tck" -v w="$wall" 'BEGIN { printf "%.4f", c / hz / w }')"
    printf '%-18s %-10s %12s %9s %10s  %s\n' "${label[$side]}" "${verdict[$side]}" "${rate[$side]}" \
        "$(awk -v k="${rss[$side]}" 'BEGIN { printf "%.0f", k / 1024 }')" "$((lag1[$side] - lag0[$side]))" "${pid[$side]}"
done
others="$(awk -v n="$ncpu" -v w="$wall" -v i=$((idle1 - idle0)) -v hz="$clk_tck" \
    -v g="$((c1[gc] - c0[gc]))" -v l="$((c1[ls] - c0[ls]))" \
    'BEGIN { printf "%.2f", (n * w - i / hz - (g + l) / hz) / w }')"
echo "other processes (icecast, builds...): $others CPU s/wall s"
echo "codec floor (ffmpeg CLI: the same decode and the three encodes, no engine): ${floor:-?} CPU s per s of audio"
echo "Groovecast's threads over the window (CPU s/wall s, digits in names as #):"
awk -F'\t' -v hz="$clk_tck" -v w="$wall" '
    FNR == NR { before[$1] = $3; next }
    { name = $2; gsub(/[0-9]+/, "#", name); sum[name] += $3 - before[$1]; n[name]++ }
    END { for (k in sum) if (sum[k] > 0) printf "  %-18s %3d thread(s) %8.4f\n", k, n[k], sum[k] / hz / w }' \
    "$work/gc/threads0.tsv" "$work/gc/threads1.tsv" | sort -k4 -nr -t' ' | sort -k2 -rn -t')' | head -12
echo "listeners (5 s of each stream, before the window):"
for side in "${sides[@]}"; do
    for kind in mp3 aac hls; do printf '  %-18s %-4s %s\n' "${label[$side]}" "$kind" "${heard[$side.$kind]}"; done
done
status=0
if [[ ${verdict[gc]} == streaming && ${verdict[ls]} == streaming && -n "${rate[gc]}" && -n "${rate[ls]}" ]]; then
    ratio="$(awk -v g="${rate[gc]}" -v l="${rate[ls]}" 'BEGIN { printf "%.3f", g / l }')"
    if awk -v r="$ratio" 'BEGIN { exit !(r <= 0.5) }'; then
        echo "Groovecast / Liquidsoap CPU: ${ratio}x (target <= 0.5x): PASS"
    else
        echo "Groovecast / Liquidsoap CPU: ${ratio}x (target <= 0.5x): FAIL"
        status=1
    fi
else
    echo "Groovecast / Liquidsoap CPU: no ratio, a side FAILED to stream"
    status=1
fi
exit $status
