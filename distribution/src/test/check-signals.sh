#!/usr/bin/env bash
# Signals to `groovecast run` as shells, supervisors and impatient users send them: the engine
# always stops cleanly (exit 0) and soon, whatever it was doing when the signal came.
set -euo pipefail
dist="$1"
gc="$dist/bin/groovecast"
radio="$dist/scripts/radio.groovy"
work="$(mktemp -d)"
limit_ms=5000 # a stop, once asked for, ends the process within this
export RADIO_PORT=0 # any free port: several stations run at once below
unset JAVA_HOME

# Whatever was not waited for (a failed check) is killed: each NAME.pid is removed once NAME has exited.
cleanup() {
  local f
  for f in "$work"/*.pid; do
    [ -e "$f" ] && kill -KILL "$(cat "$f")" 2> /dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# fail MESSAGE [NAME]: on stderr (the racers' stdout goes to files), with NAME's log.
fail() {
  echo "check-signals: $1" >&2
  [ -z "${2:-}" ] || cat "$work/$2.log" >&2
  exit 1
}

# start NAME SCRIPT: runs the engine in the background; its pid goes to NAME.pid, its log to NAME.log.
start() {
  "$gc" run "$2" > "$work/$1.log" 2>&1 &
  echo $! > "$work/$1.pid"
}

# logged NAME PATTERN: waits (up to 90 s: startup is slow on a loaded machine) for PATTERN in NAME's log.
logged() {
  local i
  for i in $(seq 900); do
    grep -qs "$2" "$work/$1.log" && return 0
    kill -0 "$(cat "$work/$1.pid")" 2> /dev/null || fail "$1 ended before '$2' was logged" "$1"
    sleep 0.1
  done
  fail "$1: no '$2' in its log after 90 s" "$1"
}

on_air() {
  logged "$1" 'clocks as'
}

now_ms() {
  echo $(($(date +%s%N) / 1000000))
}

# stops NAME SINCE_MS [CODE]: the engine NAME exits with CODE (0) within limit_ms of SINCE_MS; sets took_ms
# to how long it took. (Not in $(...): only the shell that started NAME can wait for it.)
stops() {
  local pid code
  pid="$(cat "$work/$1.pid")"
  while kill -0 "$pid" 2> /dev/null; do
    [ $(($(now_ms) - $2)) -gt "$limit_ms" ] && fail "$1 still running ${limit_ms} ms after the stop signal" "$1"
    sleep 0.02
  done
  code=0
  wait "$pid" || code=$?
  rm -f "$work/$1.pid"
  [ "$code" -eq "${3:-0}" ] || fail "$1 exited $code" "$1"
  took_ms=$(($(now_ms) - $2))
}

# race NAME DELAY: SIGHUP (a reload) to a station on air, SIGTERM DELAY seconds later.
race() {
  local pid t
  start "$1" "$radio"
  on_air "$1"
  sleep 1
  pid="$(cat "$work/$1.pid")"
  kill -HUP "$pid"
  sleep "$2"
  kill -TERM "$pid"
  t=$(now_ms)
  stops "$1" "$t"
  outcome=$(grep -o 'reload of [^ ]* \(in [0-9]* ms\|skipped\)\|stopping \(during\|once\) [^:(]*' "$work/$1.log" | paste -sd ';' -)
  echo "HUP then TERM after $2 s: exit 0 in $took_ms ms (${outcome:-no reload logged})"
}

# PF4J unpacks the ffmpeg plugin's zip at its first load: once, before engines start side by side.
"$gc" check "$radio" > /dev/null

# 1. A SIGTERM soon after a SIGHUP stops the station that ends up on air (the old or the new one).
# The four delays run at once, each station on its own port, three rounds.
for round in 1 2 3; do
  racers=()
  for delay in 0 0.05 0.1 0.2; do
    race "race-$round-$delay" "$delay" > "$work/race-$round-$delay.result" &
    racers+=($!)
  done
  failed=0
  for racer in "${racers[@]}"; do
    wait "$racer" || failed=1
  done
  [ "$failed" -eq 0 ] || exit 1
  for delay in 0 0.05 0.1 0.2; do cat "$work/race-$round-$delay.result"; done
done

# 2. A background job of a script (SIGINT ignored on entry, as POSIX shells start `cmd &`) still stops on SIGINT.
bash -c '"$0" run "$1" > "$2" 2>&1 & echo $! > "$3"; wait $!' "$gc" "$radio" "$work/job.log" "$work/job-java.pid" &
echo $! > "$work/job.pid"
on_air job
kill -INT "$(cat "$work/job-java.pid")"
stops job "$(now_ms)"
rm -f "$work/job-java.pid"
echo "SIGINT to a background job: exit 0 in $took_ms ms"

# 3. A SIGTERM while the script is still being evaluated (nothing on air yet) ends the engine cleanly.
printf "log.info('evaluating')\nThread.sleep(1500)\noutput.dummy(sine(440))\n" > "$work/slow.groovy"
start startup "$work/slow.groovy"
logged startup 'evaluating'
kill -TERM "$(cat "$work/startup.pid")"
stops startup "$(now_ms)"
echo "SIGTERM during startup: exit 0 in $took_ms ms"
! grep -q 'clocks as' "$work/startup.log" || fail "a station went on air after the SIGTERM" startup

# 4. Signals repeated while the engine stops change nothing.
start repeat "$radio"
on_air repeat
pid="$(cat "$work/repeat.pid")"
t=$(now_ms)
kill -TERM "$pid"
kill -TERM "$pid"
sleep 0.05
kill -INT "$pid" 2> /dev/null || true
kill -TERM "$pid" 2> /dev/null || true
stops repeat "$t"
echo "SIGTERM, SIGTERM, SIGINT, SIGTERM: exit 0 in $took_ms ms"
[ "$(grep -c 'station radio.groovy stopped' "$work/repeat.log")" -eq 1 ] || fail "not exactly one stop logged" repeat

# 5. A stop that cannot finish (a script callback stuck in a tick) still ends the process: exit 1, logged.
printf "def s = sine(440)\ns.onFrame { -> if (new File('%s').exists()) Thread.sleep(600000) }\noutput.dummy(s)\n" \
  "$work/stuck.flag" > "$work/stuck.groovy"
GROOVECAST_OPTS=-Dgroovecast.stopTimeout=2 start stuck "$work/stuck.groovy"
on_air stuck
touch "$work/stuck.flag"
sleep 0.2
t=$(now_ms)
kill -TERM "$(cat "$work/stuck.pid")"
stops stuck "$t" 1
grep -q 'did not stop within 2 s' "$work/stuck.log" || fail "no line about the stuck stop" stuck
echo "a stop stuck in a script callback: exit 1 after $took_ms ms (groovecast.stopTimeout=2)"
# 6. A station whose script callback fails at every track (a failed assert, which once killed the clock's task) stops
# as soon as any other.
printf "def s = sine(440).tracks(duration: 0.2)\ns.onTrack { m -> assert m.title, 'no title' }\noutput.dummy(s, fallible: true)\n" \
  > "$work/failing.groovy"
start failing "$work/failing.groovy"
logged failing 'a callback failed'
t=$(now_ms)
kill -TERM "$(cat "$work/failing.pid")"
stops failing "$t"
[ "$(grep -c 'a callback failed' "$work/failing.log")" -eq 1 ] || fail "the failing callback not logged once" failing
echo "SIGTERM to a station whose callback keeps failing: exit 0 in $took_ms ms"
# 7. A Liquidsoap station reloads on SIGHUP as a Groovy one does, and a broken edit leaves it on air.
printf 'output.dummy(sine(440.))\n' > "$work/tone.liq"
start liq "$work/tone.liq"
on_air liq
printf 'output.dummy(sine(660.))\n' > "$work/tone.liq"
kill -HUP "$(cat "$work/liq.pid")"
logged liq 'reload of tone.liq in [0-9]* ms'
printf 'output.dummy(sine(660.)\n' > "$work/tone.liq"
kill -HUP "$(cat "$work/liq.pid")"
logged liq 'reload of tone.liq failed; the running station stays on air: tone.liq:[0-9]*:[0-9]*: syntax error'
t=$(now_ms)
kill -TERM "$(cat "$work/liq.pid")"
stops liq "$t"
echo "SIGHUP to a .liq station: reloaded, a broken edit refused with the station on air, exit 0 on SIGTERM in $took_ms ms"
# 8. A SIGHUP while the station starts (the script edited after it was read) is applied once it is on air, not lost.
printf "log.info('evaluating')\nThread.sleep(1500)\noutput.dummy(sine(440))\n" > "$work/early.groovy"
start early "$work/early.groovy"
logged early 'evaluating'
kill -HUP "$(cat "$work/early.pid")"
logged early 'reload of early.groovy in [0-9]* ms'
t=$(now_ms)
kill -TERM "$(cat "$work/early.pid")"
stops early "$t"
echo "SIGHUP during startup: reloaded once on air, exit 0 on SIGTERM in $took_ms ms"
echo "signals OK"
