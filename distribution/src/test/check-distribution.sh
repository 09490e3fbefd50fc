#!/usr/bin/env bash
# Checks the assembled distribution as a user would use it, with the default `java` on PATH.
set -euo pipefail
dist="$1"
for d in bin lib plugins scripts conf; do
  [ -d "$dist/$d" ] || { echo "distribution lacks $d/"; exit 1; }
done
[ -x "$dist/bin/groovecast" ] || { echo "bin/groovecast is not executable"; exit 1; }
[ -f "$dist/conf/grafana/groovecast-dashboard.json" ] || { echo "distribution lacks conf/grafana/groovecast-dashboard.json"; exit 1; }
# The README's links lead into docs/: the docs travel with it.
for f in README.md docs/README.md docs/guide/first-station.md docs/reference/settings.md; do
  [ -f "$dist/$f" ] || { echo "distribution lacks $f"; exit 1; }
done
ls "$dist"/plugins/groovecast-plugin-core-*.jar > /dev/null
env -u JAVA_HOME "$dist/bin/groovecast" --version | grep -q '^groovecast '
for script in "$dist"/scripts/*.groovy "$dist"/scripts/*.liq; do
  env -u JAVA_HOME "$dist/bin/groovecast" check "$script"
done
ls "$dist"/lib/groovecast-liquidsoap-*.jar > /dev/null
out="$(mktemp -d)"
OUT="$out/tone.wav" env -u JAVA_HOME "$dist/bin/groovecast" run --set clock.sync=none --stop-after 4 "$dist/scripts/tone.groovy" 2> "$out/log"
# wav() writes an 80-byte header: RIFF, a JUNK chunk holding the place of an RF64 ds64, fmt, data
size=$(stat -c %s "$out/tone.wav")
[ "$size" -eq $((80 + 4 * 44100 * 4)) ] || { echo "tone.wav has $size bytes"; cat "$out/log"; exit 1; }

# The Liquidsoap twin plays the same way: the front end ships in lib/.
OUT="$out/tone-liq.wav" env -u JAVA_HOME "$dist/bin/groovecast" run --set clock.sync=none --stop-after 4 "$dist/scripts/tone.liq" 2> "$out/liq.log"
size=$(stat -c %s "$out/tone-liq.wav")
[ "$size" -eq $((80 + 4 * 44100 * 4)) ] || { echo "tone-liq.wav has $size bytes"; cat "$out/liq.log"; exit 1; }

# Lines carry the date; the rolling-file example logs to logs/groovecast.log as well, and logback finds
# nothing wrong in it (it reports its own problems as |-ERROR / |-WARN lines on the console).
grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} INFO ' "$out/log" \
  || { echo "log lines without their date:"; cat "$out/log"; exit 1; }
OUT="$out/rolled.wav" GROOVECAST_LOGBACK=logback-rolling.xml GROOVECAST_OPTS="-Dgroovecast.logs=$out/logs" \
  env -u JAVA_HOME "$dist/bin/groovecast" run --set clock.sync=none --stop-after 2 "$dist/scripts/tone.groovy" 2> "$out/rolling.log"
grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{12} INFO ' "$out/logs/groovecast.log" \
  || { echo "logback-rolling.xml wrote no dated lines to logs/groovecast.log:"; cat "$out/rolling.log"; exit 1; }
! grep -qE '\|-(ERROR|WARN)' "$out/rolling.log" || { echo "logback-rolling.xml has problems:"; cat "$out/rolling.log"; exit 1; }
if GROOVECAST_LOGBACK=missing.xml env -u JAVA_HOME "$dist/bin/groovecast" --version > /dev/null 2> "$out/missing.log"; then
  echo "a missing GROOVECAST_LOGBACK file was not refused"; exit 1
fi
grep -q 'GROOVECAST_LOGBACK=missing.xml: no such file' "$out/missing.log" || { cat "$out/missing.log"; exit 1; }

# A file with an accented name plays under the C locale of services: the launcher takes a UTF-8 one
# (the JVM decodes file names with the locale's charset: under LANG=C the playlist cannot open it).
mkdir "$out/music"
ffmpeg -loglevel error -f lavfi -i sine=frequency=440:duration=1 "$out/music/Café.wav"
printf 'Café.wav\n' > "$out/music/list.m3u"
printf "output.file(wav(), '%s', mksafe(playlist('%s')))\n" "$out/accents.wav" "$out/music/list.m3u" > "$out/accents.groovy"
env -u JAVA_HOME -u LC_ALL -u LC_CTYPE LANG=C "$dist/bin/groovecast" run --set clock.sync=none --stop-after 2 \
  "$out/accents.groovy" > "$out/accents.log" 2>&1
! grep -qE "ERROR|WARN" "$out/accents.log" || { echo "an accented file name cannot be opened under LANG=C:"; cat "$out/accents.log"; exit 1; }

# In real time until SIGTERM: the engine stops cleanly, exits 0, and the WAV header holds the real sizes.
# Started with a low soft open-file limit, and without HotSpot raising it by itself (MaxFDLimit):
# the launcher must have lifted it to the hard limit.
(ulimit -Sn 512; OUT="$out/live.wav" GROOVECAST_OPTS=-XX:-MaxFDLimit exec env -u JAVA_HOME "$dist/bin/groovecast" \
  run "$dist/scripts/tone.groovy" 2> "$out/live.log") &
pid=$!
# Until the station runs (its signal handlers installed), however slow the machine, then 2 s of it.
for _ in $(seq 1 60); do grep -q "clock(s)" "$out/live.log" 2> /dev/null && break; sleep 0.5; done
sleep 2
soft=$(awk '/^Max open files/ {print $4}' "/proc/$pid/limits")
hard=$(awk '/^Max open files/ {print $5}' "/proc/$pid/limits")
[ "$soft" = "$hard" ] || { echo "open-file limit $soft, hard $hard: the launcher did not raise it"; kill "$pid"; exit 1; }
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
[ "$code" -eq 0 ] || { echo "run exited $code after SIGTERM"; cat "$out/live.log"; exit 1; }
size=$(stat -c %s "$out/live.wav")
data=$(od -An -tu4 -j76 -N4 "$out/live.wav" | tr -d ' ')
[ "$size" -gt 80 ] && [ "$data" -eq $((size - 80)) ] || { echo "live.wav: $size bytes, header says $data"; exit 1; }
grep -q "station tone.groovy stopped" "$out/live.log" || { echo "no clean stop logged"; cat "$out/live.log"; exit 1; }
# Sized for a station (bench/README.md, Footprint): the default station, a listener on its mount,
# stays well under the 246 MB of RSS it took with a heap kept at 512 MB, a 48 MB young generation
# and C2 (Liquidsoap 2.1.3 takes about 150 MB for it; bench/footprint.sh compares them). The
# launcher's JIT is C1 alone unless GROOVECAST_JIT= (empty) asks for C2.
flag() { env -u JAVA_HOME "$@" --version 2> /dev/null | awk -v f="$FLAG" '$2 == f {print $4}'; }
[ "$(FLAG=TieredStopAtLevel GROOVECAST_OPTS=-XX:+PrintFlagsFinal flag "$dist/bin/groovecast")" = 1 ] \
  || { echo "the launcher does not run C1 alone"; exit 1; }
[ "$(FLAG=TieredStopAtLevel GROOVECAST_JIT= GROOVECAST_OPTS=-XX:+PrintFlagsFinal flag "$dist/bin/groovecast")" = 4 ] \
  || { echo "GROOVECAST_JIT= does not bring C2 back"; exit 1; }
# One station runs on the serial collector, several in one process on G1 (the launcher's comment;
# bench/README.md, Footprint). The JVM prints its flags first; the scripts are missing, which one
# station refuses at once and several retry until stopped (timeout).
collector() {
  env -u JAVA_HOME GROOVECAST_OPTS=-XX:+PrintFlagsFinal timeout 10 "$dist/bin/groovecast" "$@" 2> /dev/null \
    | awk '$4 == "true" && $2 == "UseSerialGC" {print "serial"; exit} $4 == "true" && $2 == "UseG1GC" {print "g1"; exit}'
}
[ "$(collector run "$out/none.groovy")" = serial ] || { echo "one station does not get the serial collector"; exit 1; }
[ "$(collector run "$out/a.groovy" "$out/b.liq")" = g1 ] || { echo "two stations do not get G1"; exit 1; }
[ "$(collector run --stations "$out/none")" = g1 ] || { echo "run --stations does not get G1"; exit 1; }
[ "$(GROOVECAST_GC=-XX:+UseG1GC collector run "$out/none.groovy")" = g1 ] || { echo "GROOVECAST_GC is not taken"; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(RADIO_PORT=$port exec env -u JAVA_HOME "$dist/bin/groovecast" run "$dist/scripts/radio.groovy" 2> "$out/radio.log") &
pid=$!
for _ in $(seq 1 60); do
  code=0
  curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/radio" || code=$?
  [ "$code" = 28 ] && break  # the mount answers and streams until curl's timeout
  sleep 0.5
done
curl -s -m 15 -o "$out/radio.mp3" "http://127.0.0.1:$port/radio" || true
rss=$(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || true
[ "$(stat -c %s "$out/radio.mp3")" -gt 100000 ] || { echo "radio.groovy: the listener got no stream"; cat "$out/radio.log"; exit 1; }
[ "$rss" -lt 200 ] || { echo "radio.groovy takes $rss MB of RSS after 15 s of a listener (at most 200)"; exit 1; }
echo "radio.groovy: $rss MB of RSS after 15 s of a listener"
rm -rf "$out"
echo "distribution OK: $dist"
