#!/usr/bin/env bash
# Checks groovecast-VERSION-linux-x86_64.tar.gz as a machine with no Java runs it: unpacked afresh,
# started with nothing of the environment but PATH=/usr/bin:/bin (no JAVA_HOME, no GROOVECAST_*)
# and, where this check may (root, a private mount namespace), with every Java of this machine
# hidden. --version names the bundled runtime; the default station plays to a listener, says it is
# alive and ready, and stops cleanly on SIGTERM.
#   check-self-contained.sh TARBALL JDK   (JDK: a Java 25 of this machine, for GROOVECAST_JAVA)
set -euo pipefail
tarball="$1" jdk="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
tar -xzf "$tarball" -C "$out"
dist="$(echo "$out"/groovecast-*)"
[ -d "$dist" ] || { echo "$tarball holds no groovecast-* directory"; exit 1; }
for d in bin lib plugins scripts conf runtime/bin runtime/lib; do
  [ -d "$dist/$d" ] || { echo "the self-contained tarball lacks $d/"; exit 1; }
done
[ -x "$dist/runtime/bin/java" ] || { echo "runtime/bin/java is not executable"; exit 1; }
for d in jmods include man; do
  [ ! -e "$dist/runtime/$d" ] || { echo "the runtime carries $d/ (jlink --no-header-files --no-man-pages)"; exit 1; }
done

hidden=no
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2> /dev/null; then hidden=yes; fi
# Runs "$@" with an empty environment but PATH (and the variables given as NAME=VALUE first), and,
# where it may, with /usr/lib/jvm emptied and any other `java` on PATH made unrunnable.
bare() {
  if [ "$hidden" = yes ]; then
    unshare -m --propagation private bash -c '
      mount -t tmpfs none /usr/lib/jvm 2> /dev/null || true
      for j in $(PATH=/usr/bin:/bin type -ap java); do
        j="$(readlink -f "$j")"; [ -f "$j" ] && mount --bind /dev/null "$j"
      done
      exec env -i PATH=/usr/bin:/bin "$@"' bare "$@"
  else
    env -i PATH=/usr/bin:/bin "$@"
  fi
}
if [ "$hidden" = yes ]; then
  ! bare sh -c 'command -v java > /dev/null && java -version' > /dev/null 2>&1 \
    || { echo "a Java of this machine is still reachable where the check hides them"; exit 1; }
fi

bare "$dist/bin/groovecast" --version > "$out/version" 2>&1 || { cat "$out/version"; exit 1; }
grep -q '^groovecast ' "$out/version" || { cat "$out/version"; exit 1; }
grep -qE "^runtime: .+ 25[.0-9]*\+[^ ]*, bundled \($dist/runtime\)\$" "$out/version" \
  || { echo "--version does not name the bundled runtime:"; cat "$out/version"; exit 1; }
# GROOVECAST_JAVA still names another Java, which --version calls the system's.
env -i PATH=/usr/bin:/bin GROOVECAST_JAVA="$jdk/bin/java" "$dist/bin/groovecast" --version 2>&1 \
  | grep -qF ", system ($jdk)" || { echo "GROOVECAST_JAVA does not override runtime/"; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(bare RADIO_PORT="$port" "$dist/bin/groovecast" run "$dist/scripts/radio.groovy" > "$out/radio.log" 2>&1) &
pid=$!
for _ in $(seq 1 120); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -m 1 "http://127.0.0.1:$port/readyz")" = 200 ] && break
  kill -0 "$pid" 2> /dev/null || { echo "radio.groovy ended:"; cat "$out/radio.log"; exit 1; }
  sleep 0.5
done
curl -sf -m 2 "http://127.0.0.1:$port/healthz" | grep -q '"live":true' \
  || { echo "/healthz does not say live:"; cat "$out/radio.log"; exit 1; }
curl -s -m 5 -o "$out/radio.mp3" "http://127.0.0.1:$port/radio" || true
# The station runs on the bundled runtime's java (the launcher execs it), not on one of this machine's.
jpid=$(pgrep -f "^$dist/runtime/bin/java " | head -1)
[ -n "$jpid" ] || { echo "the station does not run on $dist/runtime/bin/java"; ps -ef | grep '[j]ava'; exit 1; }
kill -TERM "$jpid"
code=0
wait "$pid" || code=$?
[ "$code" -eq 0 ] || { echo "radio.groovy exited $code after SIGTERM:"; cat "$out/radio.log"; exit 1; }
[ "$(stat -c %s "$out/radio.mp3")" -gt 40000 ] || { echo "the listener got no stream:"; cat "$out/radio.log"; exit 1; }
! grep -qE 'NoClassDefFoundError|ClassNotFoundException|ERROR' "$out/radio.log" \
  || { echo "radio.groovy on the bundled runtime:"; cat "$out/radio.log"; exit 1; }
grep -q "station radio.groovy stopped" "$out/radio.log" || { echo "no clean stop logged:"; cat "$out/radio.log"; exit 1; }

# The Liquidsoap front end compiles on this runtime too.
bare "$dist/bin/groovecast" check "$dist/scripts/tone.liq" > "$out/liq.log" 2>&1 || { cat "$out/liq.log"; exit 1; }

echo "self-contained OK ($( [ "$hidden" = yes ] && echo "every Java of this machine hidden" || echo "env -i only: not root")):" \
  "$(basename "$tarball") $(stat -c %s "$tarball") bytes, runtime $(du -sk "$dist/runtime" | cut -f1) KiB unpacked"
