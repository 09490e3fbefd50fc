#!/usr/bin/env bash
# bin/liquidsoap as AzuraCast runs the liquidsoap binary: its supervisor starts `liquidsoap FILE` and
# stops it with SIGTERM, its "check configuration" button pipes the script to `liquidsoap --check -`
# (exit 1 means a mistake, shown from standard output), and it reads the version from `--version`.
set -euo pipefail
dist="$1"
liq="$dist/bin/liquidsoap"
work="$(mktemp -d)"
unset JAVA_HOME

cleanup() {
  [ -e "$work/run.pid" ] && kill -KILL "$(cat "$work/run.pid")" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "check-liquidsoap-command: $1" >&2
  [ -z "${2:-}" ] || cat "$2" >&2
  exit 1
}

# expect CODE NAME COMMAND...: runs COMMAND, its stdout to NAME.out and stderr to NAME.err; it exits CODE.
expect() {
  local want="$1" name="$2" code=0
  shift 2
  "$@" > "$work/$name.out" 2> "$work/$name.err" || code=$?
  [ "$code" -eq "$want" ] || { cat "$work/$name.out" "$work/$name.err" >&2; fail "$name exited $code, not $want"; }
}

# 1. --version: Groovecast and the dialect, and a line AzuraCast's /^Liquidsoap (.+)$/ finds.
expect 0 version "$liq" --version
grep -qx 'Groovecast [^ ]* (Liquidsoap 2\.4\.5 dialect)' "$work/version.out" || fail "--version says:" "$work/version.out"
grep -qx 'Liquidsoap 2\.4\.5 dialect' "$work/version.out" || fail "no line for AzuraCast in --version:" "$work/version.out"
# The launcher answers by the name it is called by: AzuraCast links /usr/local/bin/liquidsoap to the binary.
ln -s "$dist/bin/groovecast" "$work/liquidsoap"
expect 0 linked "$work/liquidsoap" --version
cmp -s "$work/version.out" "$work/linked.out" || fail "a liquidsoap link to bin/groovecast answers otherwise:" "$work/linked.out"
echo "--version: $(head -1 "$work/version.out")"

# 2. --check FILE and --check - (standard input): exit 0, or 1 with the located messages on standard output.
printf 'radio = sine(440.)\noutput.dummy(radio)\n' > "$work/good.liq"
printf 'radio = sine(440.)\noutput.dummy(sinee(440.))\n' > "$work/bad.liq"
expect 0 good "$liq" --check "$work/good.liq"
grep -qx 'good.liq: OK, 1 output(s)' "$work/good.out" || fail "--check good.liq says:" "$work/good.out"
expect 1 bad "$liq" --check "$work/bad.liq"
grep -qx 'bad.liq:2:13: unknown function sinee; did you mean sine?' "$work/bad.out" || fail "--check bad.liq says:" "$work/bad.out"
expect 0 good-stdin "$liq" --check - < "$work/good.liq"
grep -qx 'OK, 1 output(s)' "$work/good-stdin.out" || fail "--check - (good) says:" "$work/good-stdin.out"
expect 1 bad-stdin "$liq" --check - < "$work/bad.liq"
grep -qx 'At line 2, char 13: unknown function sinee; did you mean sine?' "$work/bad-stdin.out" \
  || fail "--check - (bad) says:" "$work/bad-stdin.out"
echo "--check: good.liq 0, bad.liq 1 ($(cat "$work/bad.out")), - 0 and 1 ($(cat "$work/bad-stdin.out"))"

# 3. Flags: Liquidsoap's logging ones and AzuraCast's image build's --cache-stdlib taken, another refused
# in one line with Liquidsoap's status, 2.
expect 0 flags "$liq" -v --debug --check "$work/good.liq"
grep -q ' DEBUG ' "$work/flags.err" || fail "--debug logged nothing at debug level:" "$work/flags.err"
expect 0 quiet "$liq" -q --check "$work/good.liq"
expect 0 cache "$liq" --cache-stdlib
expect 2 unknown "$liq" --frobnicate "$work/good.liq"
[ "$(cat "$work/unknown.err")" = "liquidsoap: unknown option '--frobnicate'." ] || fail "an unknown flag:" "$work/unknown.err"
echo "flags: -v --debug -q --cache-stdlib taken; $(cat "$work/unknown.err") (exit 2)"

# 4. liquidsoap FILE runs the station: SIGHUP reloads the edited script, SIGTERM stops it with exit 0.
"$liq" "$work/good.liq" > "$work/run.log" 2>&1 &
echo $! > "$work/run.pid"
pid="$(cat "$work/run.pid")"
# logged PATTERN: waits (up to 90 s: startup is slow on a loaded machine) for PATTERN in the station's log.
logged() {
  local i
  for i in $(seq 900); do
    grep -qs "$1" "$work/run.log" && return 0
    kill -0 "$pid" 2> /dev/null || fail "the station ended before '$1' was logged" "$work/run.log"
    sleep 0.1
  done
  fail "no '$1' in the station's log after 90 s" "$work/run.log"
}
logged 'clocks as'
printf 'radio = sine(660.)\noutput.dummy(radio)\n' > "$work/good.liq"
kill -HUP "$pid"
logged 'reload of good.liq in [0-9]* ms'
t=$(($(date +%s%N) / 1000000))
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
rm -f "$work/run.pid"
[ "$code" -eq 0 ] || fail "liquidsoap FILE exited $code on SIGTERM" "$work/run.log"
echo "liquidsoap FILE: on air, reloaded on SIGHUP, exit 0 on SIGTERM in $(($(date +%s%N) / 1000000 - t)) ms"
echo "liquidsoap command OK"
