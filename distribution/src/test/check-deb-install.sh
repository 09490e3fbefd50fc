#!/usr/bin/env bash
# check-deb.sh's installation test, in the private mount namespace it made (root): DEB installed
# in an overlay on /, the station run as its unit runs it, the package upgraded over it, then
# purged. See check-deb.sh for what stands in for systemd.
#   check-deb-install.sh DEB
set -euo pipefail
deb="$1"
work="$(mktemp -d)"
root="$work/root"
mkdir -p "$work/layers" "$root"
# The overlay's writable layer on a file system of its own: the kernel refuses layers that overlap.
mount -t tmpfs -o size=2g layers "$work/layers"
mkdir -p "$work/layers/upper" "$work/layers/work"
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/layers/upper,workdir=$work/layers/work" "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs run "$root/run"
mount -t tmpfs tmp "$root/tmp"
cleanup() {
  [ -n "${engine:-}" ] && [ -f "$root/run/groovecast.pid" ] && kill -KILL "$(cat "$root/run/groovecast.pid")" 2> /dev/null || true
  [ -n "${listener:-}" ] && kill "$listener" 2> /dev/null || true
  [ -n "${stream:-}" ] && kill "$stream" 2> /dev/null || true
  umount -l "$root" 2> /dev/null || true
  umount -l "$work/layers" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "deb install: $*"
  for f in "$work"/*.log "$root"/run/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -40 "$f"; }; done
  exit 1
}
in_root() { chroot "$root" env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

# Services do not start under policy-rc.d (a container's); systemctl is the recording stand-in but
# for what works on files alone (--root=: deb-systemd-helper enables a unit with a preset), which the
# real one does.
rm -f "$root/usr/sbin/policy-rc.d"
cp "$root/usr/bin/systemctl" "$root/usr/libexec/systemctl.real"
cat > "$work/systemctl" << 'EOF'
#!/bin/sh
case " $* " in *" --root="*) exec /usr/libexec/systemctl.real "$@" ;; esac
echo "$*" >> /run/systemctl.log
case "$*" in
  *is-enabled*) echo enabled ;;
  *is-active*) [ -f /run/groovecast.pid ] && kill -0 "$(cat /run/groovecast.pid)" 2> /dev/null ;;
  *try-reload-or-restart*groovecast.service*|*reload*groovecast.service*)
    [ -f /run/groovecast.pid ] && kill -HUP "$(cat /run/groovecast.pid)" ;;
  *) exit 0 ;;
esac
EOF
chmod 0755 "$work/systemctl"
mount --bind "$work/systemctl" "$root/usr/bin/systemctl"
cp "$deb" "$root/tmp/groovecast.deb"

# 1. A first install: no systemd running, so nothing is started; the unit is enabled.
DEBIAN_FRONTEND=noninteractive in_root dpkg -i /tmp/groovecast.deb > "$work/install.log" 2>&1 || fail "dpkg -i failed"
in_root getent passwd groovecast | grep -q ':/var/lib/groovecast:' || fail "no groovecast user with its home"
[ "$(in_root id -u groovecast)" -lt 1000 ] || fail "groovecast is not a system user"
[ "$(in_root stat -c %U:%G:%a /var/lib/groovecast)" = groovecast:groovecast:750 ] || fail "/var/lib/groovecast: $(in_root stat -c %U:%G:%a /var/lib/groovecast)"
[ "$(in_root stat -c %U:%G:%a /var/log/groovecast)" = groovecast:groovecast:750 ] || fail "/var/log/groovecast: $(in_root stat -c %U:%G:%a /var/log/groovecast)"
[ "$(in_root stat -c %U:%G:%a /etc/default/groovecast)" = root:groovecast:640 ] || fail "/etc/default/groovecast: $(in_root stat -c %U:%G:%a /etc/default/groovecast)"
[ -L "$root/etc/systemd/system/multi-user.target.wants/groovecast.service" ] || fail "the unit is not enabled"
[ ! -s "$root/run/systemctl.log" ] || fail "systemctl asked without systemd running: $(cat "$root/run/systemctl.log")"
[ "$(in_root readlink -f /usr/bin/groovecast)" = /usr/lib/groovecast/bin/groovecast ] || fail "/usr/bin/groovecast"

# 2. The station, as its unit runs it. The administrator sets its port in the environment file.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "RADIO_PORT=$port" >> "$root/etc/default/groovecast"
mkdir -p "$root/run/notify"
python3 -u - "$root/run/notify/socket" "$work/notify.log" << 'EOF' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
with open(sys.argv[2], "a") as log:
    while True:
        log.write(s.recv(4096).decode().replace("\n", " ") + "\n")
        log.flush()
EOF
listener=$!
for _ in $(seq 1 50); do [ -S "$root/run/notify/socket" ] && break; sleep 0.1; done
unit() { sed -n "s/^$1=//p" "$root/usr/lib/systemd/system/groovecast.service"; }
# ProtectSystem=strict + ReadWritePaths + PrivateTmp: a read-only view of the system with the unit's
# writable paths and a /tmp of its own; then User=, EnvironmentFile=, WorkingDirectory=, LimitNOFILE=.
run_unit() {
  # shellcheck disable=SC2016
  unshare -m --propagation private bash -c '
    root="$1" nofile="$2" writable="$3"; shift 3
    mount --rbind "$root" "$root" && mount -o remount,bind,ro "$root"
    for d in $writable; do mount --bind "$root$d" "$root$d"; done
    mount -t tmpfs private-tmp "$root/tmp"
    exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c "ulimit -n $nofile 2> /dev/null || ulimit -n \$(ulimit -Hn)
      cd /var/lib/groovecast && set -a && . /etc/default/groovecast && set +a
      echo \$\$ > /run/groovecast.pid
      exec setpriv --reuid=groovecast --regid=groovecast --init-groups \
        env HOME=/var/lib/groovecast NOTIFY_SOCKET=/run/notify/socket WATCHDOG_USEC=2000000 \"\$@\"" sh "$@"
  ' run_unit "$root" "$(unit LimitNOFILE)" "$(unit ReadWritePaths)" "$@"
}
# shellcheck disable=SC2046
run_unit $(unit ExecStart) > "$work/station.log" 2>&1 &
engine=$!
for _ in $(seq 1 180); do grep -q '^READY=1' "$work/notify.log" 2> /dev/null && break; kill -0 "$engine" 2> /dev/null || break; sleep 0.5; done
grep -q '^READY=1 STATUS=on air: station.groovy$' "$work/notify.log" || fail "no READY=1 from the station"
[ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 "http://127.0.0.1:$port/readyz")" = 200 ] || fail "/readyz is not 200 once READY=1 was sent"
sleep 2.5
[ "$(grep -c '^WATCHDOG=1$' "$work/notify.log")" -ge 2 ] || fail "no WATCHDOG=1 pings every second (WATCHDOG_USEC=2000000)"
pid="$(cat "$root/run/groovecast.pid")"
# LimitNOFILE, or as much of it as this machine allows root (without CAP_SYS_RESOURCE, the hard limit).
nofile="$(unit LimitNOFILE)"
[ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$nofile" ] && nofile="$(ulimit -Hn)"
grep -qE "^Max open files +$nofile +$nofile " "/proc/$pid/limits" || fail "LimitNOFILE not applied: $(grep 'open files' "/proc/$pid/limits")"
[ "$(stat -c %u "/proc/$pid")" = "$(in_root id -u groovecast)" ] || fail "the station runs as uid $(stat -c %u "/proc/$pid")"
curl -s -N "http://127.0.0.1:$port/radio" -o "$work/listener.mp3" &
stream=$!
sleep 2

# 3. The administrator changes the station; the package is upgraded over it (the same version again
# is an upgrade to dpkg: prerm upgrade, postinst configure OLD). dpkg keeps both changed conffiles;
# the postinst reloads the station, which goes on air with the changed script, listener connected.
sed -i "s/name: 'Groovecast Radio'/name: 'Changed FM'/" "$root/etc/groovecast/station.groovy"
grep -q "Changed FM" "$root/etc/groovecast/station.groovy" || fail "the test could not change station.groovy"
mkdir -p "$root/run/systemd/system"
heard="$(stat -c %s "$work/listener.mp3")"
DEBIAN_FRONTEND=noninteractive in_root dpkg -i --force-confold /tmp/groovecast.deb > "$work/upgrade.log" 2>&1 || fail "the upgrade failed"
grep -q 'try-reload-or-restart groovecast.service' "$root/run/systemctl.log" || fail "the upgrade did not reload: $(cat "$root/run/systemctl.log")"
! grep -qE '(^| )(restart|stop|start) groovecast' "$root/run/systemctl.log" || fail "the upgrade stopped or restarted the station: $(cat "$root/run/systemctl.log")"
grep -q "Changed FM" "$root/etc/groovecast/station.groovy" || fail "the upgrade replaced the station's own script"
grep -q "^RADIO_PORT=$port" "$root/etc/default/groovecast" || fail "the upgrade replaced /etc/default/groovecast"
for _ in $(seq 1 60); do grep -q '^STATUS=on air: station.groovy, reloaded$' "$work/notify.log" && break; sleep 0.5; done
grep -q '^STATUS=on air: station.groovy, reloaded$' "$work/notify.log" || fail "the station did not reload"
curl -s -m 2 "http://127.0.0.1:$port/status-json.xsl" | grep -q '"server_name":"Changed FM"' || fail "the reloaded station is not the changed script"
[ "$(cat "$root/run/groovecast.pid")" = "$pid" ] && kill -0 "$pid" || fail "the station's process did not survive the upgrade"
sleep 2
kill -0 "$stream" 2> /dev/null || fail "the listener was disconnected by the upgrade"
[ "$(stat -c %s "$work/listener.mp3")" -gt $((heard + 16000)) ] || fail "the listener got nothing after the upgrade"

# 4. A stop as systemd stops it (SIGTERM): STOPPING=1, exit 0.
kill -TERM "$pid"
code=0
wait "$engine" || code=$?
engine=
[ "$code" = 0 ] || fail "the station exited $code on SIGTERM"
grep -q '^STOPPING=1' "$work/notify.log" || fail "no STOPPING=1"

# 5. A broken script, and a missing one: the start fails, with the located error on standard error
# (the journal), and no READY=1.
: > "$work/notify.log"
printf 'output.dummy(sine(440)\n' > "$root/etc/groovecast/station.groovy"
# shellcheck disable=SC2046
code=0; run_unit $(unit ExecStart) > "$work/broken.log" 2>&1 || code=$?
[ "$code" != 0 ] || fail "a broken station.groovy started"
grep -q 'station.groovy:[0-9]' "$work/broken.log" || fail "the error is not located: $(cat "$work/broken.log")"
! grep -qE '^\s+at [a-z]' "$work/broken.log" || fail "a stack trace for a script error"
rm "$root/etc/groovecast/station.groovy"
# shellcheck disable=SC2046
code=0; run_unit $(unit ExecStart) > "$work/missing.log" 2>&1 || code=$?
[ "$code" != 0 ] || fail "a missing station.groovy started"
grep -q '/etc/groovecast/station.groovy' "$work/missing.log" || fail "the error does not name the missing script: $(cat "$work/missing.log")"
! grep -q '^READY=1' "$work/notify.log" || fail "READY=1 from a station that did not start"

# 6. Purge: the station's state, logs and configuration go; the user stays.
: > "$root/run/systemctl.log"
DEBIAN_FRONTEND=noninteractive in_root dpkg --purge groovecast > "$work/purge.log" 2>&1 || fail "the purge failed"
for p in /usr/lib/groovecast /usr/bin/groovecast /var/lib/groovecast /var/log/groovecast /etc/groovecast \
    /etc/default/groovecast /etc/systemd/system/multi-user.target.wants/groovecast.service; do
  [ ! -e "$root$p" ] && [ ! -L "$root$p" ] || fail "$p is left after the purge"
done
grep -q 'stop groovecast.service' "$root/run/systemctl.log" || fail "the removal did not stop the service: $(cat "$root/run/systemctl.log")"
echo "deb install OK (an overlay chroot, systemctl a stand-in): installed, ran (READY=1, WATCHDOG=1), upgraded with a reload keeping the listener and the changed conffiles, stopped, refused a broken and a missing script, purged"
