#!/usr/bin/env bash
# The soak: bench/soak/station.groovy (the default station plus a DJ mount, an Icecast output, HLS, an
# RTMP relay, metrics and telnet) run from the built distribution's launcher with its default JVM
# options, under load for --duration seconds: listeners that stay and listeners that come and go, a DJ
# connecting every minute, a reload every two minutes, an RTMP publisher with players. Every --interval
# seconds a sample (RSS, heap after GC, threads, descriptors, callback registrations, CPU, ...) goes to
# DIR/soak.csv; at the end the verdict (DIR/verdict.txt) and the plot (DIR/soak.png, with gnuplot).
#   bench/soak/run.sh [--duration=3600] [--listeners=200] [--steady=20] [--out=DIR]
#                     [--interval=10] [--warmup=duration/6] [--window=24] [--tolerance=5] [--players=3]
#                     [--icecast-listeners=2] [--seed=1] [--reload-every=120] [--dj-every=60] [--diagnose]
# --diagnose also keeps what tells memory growth apart, in DIR/diag: the GC log, `pmap -x` every
# minute, and the JVM's native memory tracking (baseline at the end of the warm-up, diff at the end).
# --listeners counts every listener of the harbor mount, the --steady ones included; the
# --icecast-listeners listen to the Icecast server's copy of the stream and must stay too.
# GROOVECAST_HOME: the unpacked distribution (default: the one the build left in distribution/target);
# JAVA: the JDK that runs the driver (default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java).
# Needs ffmpeg, icecast2, curl, ss, and gnuplot for the plot (apt-get install -y gnuplot-nox).
# Exit 0 when the verdict passes and the station stops cleanly, 1 otherwise.
set -euo pipefail

soak_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$soak_dir/../.." && pwd)"
source "$soak_dir/../procs.sh"  # started, start_bg, alive, stop_pids, cleanup, pause

duration=3600 listeners=200 steady=20 out="" interval=10 warmup="" window="" tolerance=5 players=3
icecast_listeners=2 seed=1 reload_every=120 dj_every=60 diagnose=0
for arg in "$@"; do
    case "$arg" in
        --duration=*) duration="${arg#*=}" ;;
        --listeners=*) listeners="${arg#*=}" ;;
        --steady=*) steady="${arg#*=}" ;;
        --out=*) out="${arg#*=}" ;;
        --interval=*) interval="${arg#*=}" ;;
        --warmup=*) warmup="${arg#*=}" ;;
        --window=*) window="${arg#*=}" ;;
        --tolerance=*) tolerance="${arg#*=}" ;;
        --players=*) players="${arg#*=}" ;;
        --icecast-listeners=*) icecast_listeners="${arg#*=}" ;;
        --seed=*) seed="${arg#*=}" ;;
        --reload-every=*) reload_every="${arg#*=}" ;;
        --dj-every=*) dj_every="${arg#*=}" ;;
        --diagnose) diagnose=1 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "unknown option $arg (--help)" >&2; exit 2 ;;
    esac
done
(( steady <= listeners )) || { echo "--steady ($steady) is part of --listeners ($listeners)" >&2; exit 2; }

for tool in ffmpeg icecast2 curl ss; do
    command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install -y ffmpeg icecast2 curl)" >&2; exit 1; }
done
java="${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
[[ -x "$java" ]] || { echo "no JDK at $java (JAVA=...)" >&2; exit 1; }
if [[ -z "${GROOVECAST_HOME:-}" ]]; then
    for d in "$repo"/distribution/target/groovecast-*/groovecast-*/; do [[ -x "$d/bin/groovecast" ]] && GROOVECAST_HOME="$d"; done
fi
launcher="${GROOVECAST_HOME:-}/bin/groovecast"
if [[ ! -x "$launcher" ]]; then
    echo "no built distribution: build it with" >&2
    echo "  cd $repo && JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -B -q -pl distribution -am verify -DskipTests" >&2
    exit 1
fi

out="${out:-/tmp/groovecast-soak/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out/rtmp" "$out/hls"
out="$(cd "$out" && pwd)"

trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

port_busy() { [[ -n "$(ss -Hltn "sport = :$1")" ]]; }
taken=" "
free_port() {  # a free port not handed out before in this run
    local p
    while :; do
        p=$((20000 + RANDOM % 40000))
        [[ "$taken" == *" $p "* ]] || port_busy "$p" || break
    done
    taken+="$p "
    echo "$p"
}
await() {  # SECONDS PID WHAT CMD...: waits until CMD succeeds, while PID lives
    local seconds="$1" pid="$2" what="$3" i
    shift 3
    for ((i = 0; i < seconds * 10; i++)); do
        "$@" && return 0
        alive "$pid" || { log "$what exited"; return 1; }
        sleep 0.1
    done
    log "$what: not ready after ${seconds}s"
    return 1
}
harbor_port="$(free_port)" icecast_port="$(free_port)" rtmp_port="$(free_port)" telnet_port="$(free_port)"
icecast_password="soak-src-$RANDOM" dj_password="soak-dj-$RANDOM"

# A private icecast2 (the shape of scripts/src/test/.../support/Icecast.groovy): 127.0.0.1 only, its own
# passwords; as root it must change owner, so its directory is open to that user.
mkdir -p "$out/icecast/log"
cat > "$out/icecast/icecast.xml" <<EOF
<icecast>
  <limits><sources>4</sources><clients>100</clients></limits>
  <authentication>
    <source-password>$icecast_password</source-password>
    <admin-user>admin</admin-user><admin-password>soak-admin-$RANDOM</admin-password>
  </authentication>
  <location>soak</location><admin>soak@localhost</admin>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$icecast_port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>$out/icecast/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>$( [[ "$(id -u)" == 0 ]] && echo '<changeowner><user>nobody</user><group>nogroup</group></changeowner>')</security>
</icecast>
EOF
chmod -R 777 "$out/icecast"
icecast_status() { curl -fsS -m 2 "http://127.0.0.1:$icecast_port/status-json.xsl" 2>/dev/null; }
start_bg "$out/icecast/out.log" icecast2 -c "$out/icecast/icecast.xml"
icecast_pid="$last_pid"
await 10 "$icecast_pid" icecast2 icecast_status >/dev/null || exit 1
log "icecast2 on 127.0.0.1:$icecast_port"

# The RTMP publisher's clip, made once: 20 s of 640x360 25 fps H.264 500 kbit/s and AAC 64k, in FLV.
media="${SOAK_MEDIA:-/tmp/groovecast-bench-media}"
clip="$media/soak-360p.flv"
if [[ ! -s "$clip" ]]; then
    mkdir -p "$media"
    log "making $clip"
    nice -n 10 ffmpeg -hide_banner -loglevel error -y \
        -f lavfi -i "testsrc2=size=640x360:rate=25:duration=20" -f lavfi -i "sine=frequency=220:sample_rate=44100:duration=20" \
        -map 0:v -map 1:a -c:v libx264 -preset veryfast -pix_fmt yuv420p -b:v 500k -g 50 -keyint_min 50 -sc_threshold 0 \
        -c:a aac -b:a 64k -f flv "$clip.tmp.flv"
    mv "$clip.tmp.flv" "$clip"
fi

# The station, on a copy of the script that the driver edits before each reload.
cp "$soak_dir/station.groovy" "$out/station.groovy"
export SOAK_HARBOR_PORT="$harbor_port" SOAK_ICECAST_PORT="$icecast_port" SOAK_ICECAST_PASSWORD="$icecast_password"
export SOAK_DJ_PASSWORD="$dj_password" SOAK_HLS_DIR="$out/hls" SOAK_RTMP_PORT="$rtmp_port" SOAK_TELNET_PORT="$telnet_port"
echo "$launcher run $out/station.groovy" > "$out/station.cmd"
jcmd="$(dirname "$java")/jcmd"
if (( diagnose )); then
    mkdir -p "$out/diag"
    export GROOVECAST_OPTS="${GROOVECAST_OPTS:-} -Xlog:gc*:file=$out/diag/gc.log:uptime,level,tags -XX:NativeMemoryTracking=summary"
fi
start_bg "$out/station.log" "$launcher" run "$out/station.groovy"
station_pid="$last_pid"
await 60 "$station_pid" "the station" port_busy "$telnet_port" || { tail -n 20 "$out/station.log" >&2; exit 1; }
mount_up() { icecast_status | grep -q "\"listenurl\":\"http://127.0.0.1:$icecast_port/soak\""; }
await 15 "$station_pid" "the station's icecast output" mount_up || { tail -n 20 "$out/station.log" >&2; exit 1; }
log "station PID $station_pid ($("$java" -version 2>&1 | head -n 1)): harbor :$harbor_port, rtmp :$rtmp_port, telnet :$telnet_port"

# The RTMP publisher (the clip in a loop, as is) and its players.
url="rtmp://127.0.0.1:$rtmp_port/live/soak"
: > "$out/rtmp.clients"
start_bg "$out/rtmp/publisher.log" ffmpeg -hide_banner -nostdin -loglevel warning -stats_period 5 \
    -progress "$out/rtmp/publisher.progress" -re -stream_loop -1 -i "$clip" -c copy -f flv "$url"
echo "publisher $last_pid $out/rtmp/publisher.progress" >> "$out/rtmp.clients"
pause 3
for ((i = 1; i <= players; i++)); do
    start_bg "$out/rtmp/player-$i.log" ffmpeg -hide_banner -nostdin -loglevel warning -stats_period 5 \
        -progress "$out/rtmp/player-$i.progress" -i "$url" -c copy -f null -
    echo "player-$i $last_pid $out/rtmp/player-$i.progress" >> "$out/rtmp.clients"
done

log "driver: ${duration}s, $listeners listeners ($steady steady), results in $out (progress: $out/driver.log)"
: > "$out/driver.log"  # before tail opens it
start_bg "$out/driver.log" "$java" "$soak_dir/driver/Soak.java" --out="$out" --pid="$station_pid" \
    --duration="$duration" --interval="$interval" ${warmup:+--warmup="$warmup"} ${window:+--window="$window"} \
    --tolerance="$tolerance" --listeners="$listeners" --steady="$steady" --icecast-listeners="$icecast_listeners" \
    --seed="$seed" --reload-every="$reload_every" --dj-every="$dj_every" --harbor-port="$harbor_port" \
    --icecast-port="$icecast_port" --icecast-mount=/soak --telnet-port="$telnet_port" \
    --dj-password="$dj_password" --script="$out/station.groovy" \
    --log="$out/station.log" --rtmp-clients="$out/rtmp.clients" --hls-dir="$out/hls"
driver_pid="$last_pid"
if (( diagnose )); then
    (   t0=$SECONDS baselined=0
        while alive "$station_pid" && alive "$driver_pid"; do
            t=$((SECONDS - t0))
            pmap -x "$station_pid" > "$out/diag/pmap-$(printf %05d "$t").txt" 2>/dev/null || true
            if (( !baselined && t >= ${warmup:-$((duration / 6))} )); then
                "$jcmd" "$station_pid" VM.native_memory baseline > /dev/null 2>&1 && baselined=1
                "$jcmd" "$station_pid" VM.native_memory summary > "$out/diag/nmt-baseline.txt" 2>&1 || true
            fi
            sleep 60
        done ) &
fi
tail -n +1 -f --pid="$driver_pid" "$out/driver.log" | grep --line-buffered '^soak: ' >&2 &
verdict=0
wait "$driver_pid" || verdict=$?

(( diagnose )) && { "$jcmd" "$station_pid" VM.native_memory summary.diff > "$out/diag/nmt-diff.txt" 2>&1 || true; }
# Stop: RTMP clients (SIGINT: ffmpeg ends cleanly), then the station (SIGTERM: a clean stop, exit 0).
log "stopping the RTMP clients and the station"
stop_pids INT 5 $(awk '{print $2}' "$out/rtmp.clients")
lines_before="$(wc -l < "$out/station.log")"
t_stop="$(date +%s.%N)"
stop_pids TERM 30 "$station_pid"
station_exit=0
wait "$station_pid" 2>/dev/null || station_exit=$?
stop_s="$(awk -v a="$t_stop" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
stop_errors="$(tail -n +"$((lines_before + 1))" "$out/station.log" | grep -c '^[0-9:.]* ERROR' || true)"
stop_pids TERM 10 "$icecast_pid"
if [[ ! -s "$out/verdict.txt" ]]; then
    { echo "no verdict: the driver failed (exit $verdict); $out/driver.log ends with:"
      grep -v '^soak: ' "$out/driver.log" | tail -n 20; } > "$out/verdict.txt"
    verdict=1
fi
stop_line="station stop: exit $station_exit after ${stop_s}s, $stop_errors ERROR line(s) while stopping"
if [[ "$station_exit" == 0 && "$stop_errors" == 0 ]]; then stop_line="  PASS $stop_line"; else stop_line="  FAIL $stop_line"; verdict=1; fi
{ echo "$stop_line"; echo "  result: $( (( verdict == 0 )) && echo PASS || echo FAIL) (the verdict and the station's stop)"; } \
    >> "$out/verdict.txt"

echo
cat "$out/verdict.txt"
if command -v gnuplot >/dev/null; then
    "$soak_dir/plot.sh" "$out" && echo "plot: $out/soak.png"
else
    echo "no gnuplot: no plot (apt-get install -y gnuplot-nox, then bench/soak/plot.sh $out)"
fi
echo "samples: $out/soak.csv, events: $out/events.csv, station log: $out/station.log"
exit $(( verdict == 0 ? 0 : 1 ))
