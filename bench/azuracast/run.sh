#!/usr/bin/env bash
# AzuraCast's own runtime (util/docker/stations/liquidsoap/{azuracast,crossfade,utilities}.liq from
# the checkout given) with a station script in ConfigWriter.php's output (station-config.sh),
# checked with `groovecast check` and, when that passes, run for RUN_SECONDS (30) against real
# peers: a private icecast2, the API stand-in (api-standin.py), ffmpeg as listener-side probe and
# as a live DJ, curl as AzuraCast's PHP on the HTTP API. Out of CI:
#   bench/azuracast/run.sh PATH-TO-AN-AZURACAST-CHECKOUT [--keep]
# Prints one line per feature: PASS, FAIL (with the first error seen) or NOT REACHED. Nothing of
# AzuraCast is copied into this repository: the three files are copied from the checkout into a
# scratch directory (removed at the end unless --keep), and the station script is written there.
# Build first, from the repository root (it builds nothing):
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests
# STATION_SED=SEDSCRIPT edits the written station first (to see past a check failure), RUN_SECONDS
# sets the run's length.
# Exit 0 when every feature passes, 1 otherwise, 2 on bad usage or a missing build or peer.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/icecast.sh"  # write_icecast_config
root="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n 2,15p "$0"
    exit 2
fi
checkout="$(cd "$1" && pwd)" || exit 2
keep=false
[[ "${2:-}" == --keep ]] && keep=true
run_seconds="${RUN_SECONDS:-30}"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"

groovecast="$(ls -d "$root"/distribution/target/groovecast-*/groovecast-*/bin/groovecast 2>/dev/null | head -1)"
if [[ -z "$groovecast" ]]; then
    echo "no distribution under $root/distribution/target: build first with" >&2
    echo "  cd $root && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B -o install -DskipTests" >&2
    exit 2
fi
libsrc="$checkout/util/docker/stations/liquidsoap"
for f in azuracast.liq crossfade.liq utilities.liq; do
    [[ -f "$libsrc/$f" ]] || { echo "not an AzuraCast checkout: $libsrc/$f missing" >&2; exit 2; }
done
for tool in icecast2 ffmpeg curl python3; do
    command -v "$tool" >/dev/null || { echo "$tool not found" >&2; exit 2; }
done

# Icecast2 run as root drops to nobody: the scratch directory must be reachable by it.
work="$(mktemp -d /tmp/groovecast-azbench.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    # icecast2 takes about 1.5 s to close: 3 s for all, then SIGKILL.
    for _ in {1..30}; do
        local alive=false
        for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=true; done
        $alive || break
        sleep 0.1
    done
    for p in "${pids[@]}"; do
        kill -9 "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    if $keep; then echo "scratch kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# wait_for SECONDS CMD...: polls CMD every 0.2 s.
wait_for() {
    local end=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        ((SECONDS >= end)) && return 1
        sleep 0.2
    done
}

# --- The station's files: the runtime, media, playlists, the error file ---
lib="$work/liquidsoap"
base="$work/station"
mkdir -p "$lib" "$base"/{config,temp,hls,playlists,media}
cp "$libsrc"/{azuracast,crossfade,utilities}.liq "$lib/"
# tone NAME FREQ SECONDS ARTIST TITLE: an MP3 of a tone of its own, tagged, in the media directory.
tone() {
    ffmpeg -nostdin -loglevel error -f lavfi -i "sine=frequency=$2:sample_rate=44100:duration=$3" -ac 2 \
        -c:a libmp3lame -b:a 128k -metadata artist="$4" -metadata title="$5" "$base/media/$1.mp3"
}
tone default1 440 10 "Default Artist" "Default Song 1"
tone default2 470 10 "Default Artist" "Default Song 2"
tone rock1 550 10 "Rock Artist" "Rock Song 1"
tone morning1 660 10 "Morning Artist" "Morning Song 1"
tone jingle1 880 3 "Station" "Jingle"
tone autodj1 1100 10 "AutoDJ Artist" "AutoDJ Song 1"
tone autodj2 1150 10 "AutoDJ Artist" "AutoDJ Song 2"
tone autodj3 1200 10 "AutoDJ Artist" "AutoDJ Song 3"
tone request1 990 10 "Listener" "Requested Song"
tone error 220 5 "" "Error File"
printf '%s\n' "$base/media/default1.mp3" "$base/media/default2.mp3" >"$base/playlists/playlist_default.m3u"
printf '%s\n' "$base/media/rock1.mp3" >"$base/playlists/playlist_rock.m3u"
printf '%s\n' "$base/media/morning1.mp3" >"$base/playlists/playlist_morning_show.m3u"
printf '%s\n' "$base/media/jingle1.mp3" >"$base/playlists/playlist_jingles.m3u"

# --- Peers: the API stand-in and icecast2 ---
key="bench-api-key-$RANDOM"
api_log="$work/api-calls.jsonl"
: >"$api_log"
python3 "$here/api-standin.py" "$work/api.port" "$api_log" "$key" &
pids+=($!)
wait_for 10 test -s "$work/api.port" || { echo "the API stand-in did not start" >&2; exit 2; }
api_port="$(cat "$work/api.port")"

ice_port="$(free_port)"
ice_pw="bench-source-pw"
write_icecast_config "$work/icecast" "$ice_port" "$ice_pw"
icecast2 -c "$work/icecast/icecast.xml" >"$work/icecast/out.txt" 2>&1 &
pids+=($!)
# icecast2 asked in its first moments can crash (see the specs' Icecast.groovy): half a second alone.
sleep 0.5
ice_status() { curl -sf --max-time 1 "http://127.0.0.1:$ice_port/status-json.xsl"; }
wait_for 10 bash -c "curl -sf --max-time 1 http://127.0.0.1:$ice_port/status-json.xsl | grep -q '^{\"icestats\":{'" ||
    { echo "icecast2 did not start: $(cat "$work/icecast/out.txt")" >&2; exit 2; }

# --- The station script, as ConfigWriter writes it ---
http_api_port="$(free_port)"
dj_port="$(free_port)"
script="$base/config/liquidsoap.liq"
LIB="$lib/azuracast.liq" BASE="$base" API_URL="http://127.0.0.1:$api_port/api/internal/1/liquidsoap" \
    API_KEY="$key" API_PORT="$http_api_port" DJ_PORT="$dj_port" ICE_PORT="$ice_port" ICE_PW="$ice_pw" \
    FALLBACK="$base/media/error.mp3" "$here/station-config.sh" >"$script" || exit 2
# STATION_SED (a sed script) edits the written station, to see how far the run gets past a check
# failure; the report then says that the script is not ConfigWriter's exact output.
if [[ -n "${STATION_SED:-}" ]]; then
    sed -i -e "$STATION_SED" "$script" || exit 2
fi

# --- The report ---
declare -a rows=()
failed=0
row() { # FEATURE RESULT [DETAIL]
    rows+=("$(printf '%-44s %-12s %s' "$1" "$2" "${3:-}")")
    [[ "$2" == PASS ]] || failed=1
}
features=(
    "next song asked from the API (nextsong)"
    "next song heard (AutoDJ tones on the MP3)"
    "MP3 mount on icecast, titles following"
    "AAC mount on icecast"
    "HLS: live.m3u8 and named segments"
    "feedback calls with titles"
    "request pushed via the HTTP API (/telnet)"
    "request heard after its push"
    "DJ authenticated via the API (auth)"
    "DJ heard on air"
    "DJ calls djon and djoff"
    "DJ recorded to a file"
)
print_report() {
    echo
    echo "AzuraCast bench: AzuraCast $(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo "(not a git checkout: $checkout)"), groovecast $(git -C "$root" rev-parse --short HEAD 2>/dev/null), $(date -u +%F)"
    [[ -n "${STATION_SED:-}" ]] && echo "NOT ConfigWriter's exact output: the station edited by STATION_SED=$STATION_SED"
    printf '%-44s %-12s %s\n' FEATURE RESULT DETAIL
    printf '%s\n' "${rows[@]}"
}

check_out="$work/check.txt"
"$groovecast" check "$script" >"$check_out" 2>&1
check_rc=$?
# The located error (FILE:LINE:COL: message); the check's info lines about ignored settings before it.
first_check_error="$(grep -m1 -E '^[^ ]+:[0-9]+(:[0-9]+)?: ' "$check_out" || grep -v '^\s*$' "$check_out" | tail -1)"
first_check_error="${first_check_error//"$work/"/}"
if [[ $check_rc -ne 0 ]]; then
    row "groovecast check" FAIL "${first_check_error:-exit $check_rc}"
    for f in "${features[@]}"; do row "$f" "NOT REACHED" "check failed"; done
    print_report
    exit 1
fi
row "groovecast check" PASS

# --- The run: the station, a listener, icecast's titles, a request, a DJ ---
run_log="$work/run.log"
"$groovecast" run "$script" >"$run_log" 2>&1 &
station_pid=$!
pids+=($station_pid)
started=$SECONDS
titles="$work/icecast-titles.txt"
: >"$titles"
# every second: the title icecast shows for each mount (MOUNT<tab>TITLE)
(
    while sleep 1; do
        ice_status | python3 -c '
import json, sys
s = json.load(sys.stdin)["icestats"].get("source") or []
for m in (s if isinstance(s, list) else [s]):
    print(m.get("listenurl", "").rsplit("/", 1)[-1], "\t", m.get("title", ""), sep="")' 2>/dev/null
    done >>"$titles"
) &
pids+=($!)
# a listener recording the MP3 mount from the moment it is up, for the ear (tones.py)
recording="$work/listener.mp3"
listener_from="$work/listener.started"
(
    end=$((SECONDS + run_seconds))
    until grep -q '^radio.mp3' "$titles" || ((SECONDS >= end)); do sleep 0.3; done
    date +%s.%N >"$listener_from"
    exec ffmpeg -nostdin -loglevel error -i "http://127.0.0.1:$ice_port/radio.mp3" -c copy -f mp3 "$recording"
) >"$work/listener.txt" 2>&1 &
pids+=($!)

api_calls() { # COMMAND: that command's calls, one JSON a line
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c["command"] == sys.argv[2]:
        print(json.dumps(c))' "$api_log" "$1"
}

# AzuraCast's PHP enqueues a request (Liquidsoap::enqueue: POST /telnet "requests.push URI") once
# the HTTP API answers.
push_answer=""
push_at=""
if wait_for 20 bash -c "kill -0 $station_pid && curl -s -o /dev/null --max-time 1 http://127.0.0.1:$http_api_port/"; then
    sleep 5
    push_at=$(date +%s.%N)
    push_answer="$(curl -s --max-time 5 -H "x-liquidsoap-api-key: $key" \
        --data-binary 'requests.push annotate:title="Requested Song",artist="Listener",request_id="7",media_id="9":media:request1.mp3' \
        "http://127.0.0.1:$http_api_port/telnet" 2>&1)"
fi
# A DJ connects as an AzuraCast streamer would (user dj1, on the harbor's DJ mount) for 10 s.
dj_log="$work/dj.txt"
dj_started=false
if kill -0 "$station_pid" 2>/dev/null; then
    sleep 5
    dj_at=$(date +%s.%N)
    ffmpeg -nostdin -loglevel warning -re -f lavfi -i "sine=frequency=330:sample_rate=44100:duration=10" -ac 2 \
        -c:a libmp3lame -b:a 128k -content_type audio/mpeg -ice_name "DJ One live" \
        -f mp3 "icecast://dj1:secret@127.0.0.1:$dj_port/live" >"$dj_log" 2>&1 &
    pids+=($!)
    dj_started=true
fi
while kill -0 "$station_pid" 2>/dev/null && ((SECONDS - started < run_seconds)); do sleep 1; done
station_alive=false
kill -0 "$station_pid" 2>/dev/null && station_alive=true
kill "$station_pid" 2>/dev/null
wait "$station_pid" 2>/dev/null
sleep 1

# What the listener heard: "SECONDS NAME" each half second, from the listener's start.
heard="$work/heard.txt"
: >"$heard"
[[ -s "$recording" ]] && python3 "$here/tones.py" "$recording" error=220 dj=330 default=440 default=470 rock=550 \
    morning=660 jingle=880 request=990 autodj=1100 autodj=1150 autodj=1200 >"$heard"
heard_summary() { # NAME (s) from SECONDS on, in runs
    awk '{ if ($2 != last) { if (last != "") printf "%s %s-%ss, ", last, from, $1; last = $2; from = $1 } } END { if (last != "") printf "%s %s-%ss", last, from, $1 + 0.5 }' "$heard"
}
# heard_after EPOCH NAME: was NAME heard (two half seconds at least) after EPOCH?
heard_after() {
    local offset
    offset="$(python3 -c "import sys; print(max(0.0, float(sys.argv[1]) - float(sys.argv[2])))" "$1" "$(cat "$listener_from" 2>/dev/null || echo 0)")"
    awk -v from="$offset" -v name="$2" '$1 >= from && $2 == name { n++ } END { exit !(n >= 2) }' "$heard"
}

first_error="$(grep -m1 -E ' ERROR |Exception|Error: ' "$run_log" | sed "s|$work/||g; s|^[0-9-]* [0-9:.]* ||" | cut -c1-220)"
why() { # REASON: the reason, with the station's first error
    if ! $station_alive; then echo "station exited early: ${first_error:-see run.log}"
    elif [[ -n "$first_error" ]]; then echo "$1; station's first error: $first_error"
    else echo "$1"; fi
}
log_error() { # PATTERN: the run log's first line matching PATTERN, else empty
    grep -m1 -E "$1" "$run_log" | sed "s|$work/||g; s|^[0-9-]* [0-9:.]* ||" | cut -c1-220
}

n=$(api_calls nextsong | grep -c '"key_ok": true')
if ((n > 0)); then row "${features[0]}" PASS "$n calls"; else row "${features[0]}" FAIL "$(why 'no nextsong call')"; fi
if [[ ! -s "$recording" ]]; then row "${features[1]}" FAIL "$(why 'nothing recorded from /radio.mp3')"
elif grep -q ' autodj$' "$heard"; then row "${features[1]}" PASS
else row "${features[1]}" FAIL "$(why "heard: $(heard_summary)")"; fi
mp3_titles="$(grep '^radio.mp3' "$titles" | cut -f2 | grep -v '^$' | awk '!seen[$0]++' | paste -sd '|')"
distinct=$(grep '^radio.mp3' "$titles" | cut -f2 | grep -v '^$' | sort -u | wc -l)
if ((distinct >= 2)); then row "${features[2]}" PASS "$mp3_titles"
elif ((distinct == 1)); then row "${features[2]}" FAIL "$(why "one title for ${run_seconds} s: $mp3_titles; heard: $(heard_summary)")"
elif grep -q '^radio.mp3' "$titles"; then row "${features[2]}" FAIL "$(why 'mounted, no title')"
else row "${features[2]}" FAIL "$(why "never mounted; $(log_error 'icecast|local_1' )")"; fi
if grep -q '^radio.aac' "$titles"; then row "${features[3]}" PASS
else row "${features[3]}" FAIL "$(why "never mounted; $(log_error 'local_2|aac')")"; fi
segments=$(find "$base/hls" -name 'aac_hifi_4_*_*.*' 2>/dev/null | wc -l)
if [[ -f "$base/hls/live.m3u8" ]] && ((segments > 0)); then row "${features[4]}" PASS "$segments segments"
else row "${features[4]}" FAIL "$(why "live.m3u8 $([[ -f "$base/hls/live.m3u8" ]] || echo 'missing, ')$segments segments named by hls_segment_name; hls/ holds: $(ls "$base/hls" | head -4 | paste -sd ' ')")"; fi
fb=$(api_calls feedback | grep -c '"title"')
if ((fb > 0)); then row "${features[5]}" PASS "$fb calls: $(api_calls feedback | python3 -c 'import json,sys; print("|".join(json.loads(l)["body"].get("title","") for l in sys.stdin))')"
else row "${features[5]}" FAIL "$(log_error 'API feedback - Error' | grep . || why 'no feedback call with a title')"; fi
if [[ -z "$push_at" ]]; then row "${features[6]}" "NOT REACHED" "$(why 'the HTTP API never answered')"
elif [[ "$push_answer" =~ ^[0-9]+ ]]; then row "${features[6]}" PASS "request id $push_answer"
else row "${features[6]}" FAIL "$(why "answer: ${push_answer:0:100}")"; fi
if [[ -z "$push_at" ]]; then row "${features[7]}" "NOT REACHED" "no request pushed"
elif heard_after "$push_at" request; then row "${features[7]}" PASS
else row "${features[7]}" FAIL "$(why "not heard; heard: $(heard_summary)")"; fi
auth="$(api_calls auth | head -1)"
if ! $dj_started; then row "${features[8]}" "NOT REACHED" "$(why 'the station was not up to connect to')"
elif [[ "$auth" == *'"allow": true'* ]]; then row "${features[8]}" PASS
elif [[ -n "$auth" ]]; then row "${features[8]}" FAIL "$(why "auth answered ${auth:0:120}")"
else row "${features[8]}" FAIL "$(why "no auth call; DJ's ffmpeg: $(tr '\n' ' ' <"$dj_log" | cut -c1-120)")"; fi
if ! $dj_started; then row "${features[9]}" "NOT REACHED" "no DJ connected"
elif heard_after "$dj_at" dj; then row "${features[9]}" PASS
else row "${features[9]}" FAIL "$(why "not heard; heard: $(heard_summary)")"; fi
djon=$(api_calls djon | wc -l)
djoff=$(api_calls djoff | wc -l)
if ! $dj_started; then row "${features[10]}" "NOT REACHED" "no DJ connected"
elif ((djon > 0 && djoff > 0)); then row "${features[10]}" PASS
else row "${features[10]}" FAIL "$(why "djon $djon, djoff $djoff calls")"; fi
recorded="$(find "$base/temp" -name 'stream_*.mp3' 2>/dev/null | head -1)"
if ! $dj_started; then row "${features[11]}" "NOT REACHED" "no DJ connected"
elif [[ -n "$recorded" ]]; then row "${features[11]}" PASS "${recorded#"$work"/}"
else row "${features[11]}" FAIL "$(why "no temp/dj1/stream_*.mp3; temp/ holds: $(find "$base/temp" -type f | sed "s|$base/temp/||" | head -3 | paste -sd ' ')")"; fi
print_report
exit $failed
