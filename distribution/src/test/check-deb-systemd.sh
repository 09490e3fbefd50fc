#!/usr/bin/env bash
# check-deb.sh's installation test with a real systemd, in the private mount namespace check-deb.sh
# made (root): a throw-away copy of this machine (an overlay on /), booted by its own systemd as
# PID 1 of new PID and network namespaces, the machine's own services masked. In it the package is
# installed with dpkg (its service enabled, started: READY=1), reloaded, upgraded over the running
# station (a reload: same process, the listener connected, the changed conffiles kept), stopped,
# restarted by the watchdog when its scheduler is stuck, held failed by the start limit with a
# broken script, and purged.
#   check-deb-systemd.sh DEB
# Exits 3, having checked nothing, where systemd does not boot here (check-deb.sh then runs
# check-deb-install.sh, which needs no systemd).
set -euo pipefail
deb="$1"
work="$(mktemp -d)"
root="$work/root"
mkdir -p "$work/layers" "$root"
# The overlay's writable layer on a file system of its own: the kernel refuses layers that overlap.
mount -t tmpfs -o size=2g layers "$work/layers"
mkdir -p "$work/layers/upper" "$work/layers/work"
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/layers/upper,workdir=$work/layers/work" "$root"
mount -t tmpfs run "$root/run"
init=
# The booted systemd makes its cgroups (system.slice...) in this machine's hierarchies, below the
# cgroup this check runs in where it has one of its own (a cgroup namespace): the ones it made go
# with it.
find /sys/fs/cgroup -mindepth 1 -type d 2> /dev/null | sort > "$work/cgroups-before"
cleanup() {
  [ -n "$init" ] && kill -KILL "$init" 2> /dev/null || true # PID 1: its whole namespace goes
  sleep 0.5
  find /sys/fs/cgroup -mindepth 1 -type d 2> /dev/null | sort | comm -13 "$work/cgroups-before" - \
    | sort -r | while read -r d; do rmdir "$d" 2> /dev/null || true; done
  umount -l "$root" 2> /dev/null || true
  umount -l "$work/layers" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Only what the check needs boots: every service, socket and timer this machine enables is masked
# (its web server, database...), and so is policy-rc.d (a container's "start nothing").
rm -f "$root/usr/sbin/policy-rc.d"
for u in $(systemctl --root="$root" list-unit-files --type=service,socket,timer --state=enabled --no-legend | awk '{print $1}'); do
  case "$u" in systemd-*|dbus*) ;; *) systemctl --root="$root" mask "$u" > /dev/null 2>&1 || true ;; esac
done
mkdir -p "$root/var/tmp/check"
cp "$deb" "$root/var/tmp/check/groovecast.deb"

unshare --pid --fork --net --cgroup --mount-proc="$root/proc" --kill-child \
  chroot "$root" env container=groovecast-check /lib/systemd/systemd --system --show-status=no \
  > "$work/boot.log" 2>&1 &
boot=$!
for _ in $(seq 1 100); do
  init="$(pgrep -P "$boot" -x systemd || true)"
  [ -n "$init" ] && break
  sleep 0.1
done
[ -n "$init" ] || { echo "systemd did not start here"; exit 3; }
sd() { nsenter -t "$init" -m -p -n -r -w env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
# Until its bus answers, systemctl cannot even wait for the boot to end.
state=
for _ in $(seq 1 90); do
  state="$(timeout 90 nsenter -t "$init" -m -p -n -r -w systemctl is-system-running --wait 2> /dev/null || true)"
  case "$state" in running|degraded) break ;; esac
  kill -0 "$init" 2> /dev/null || break
  sleep 1
done
case "$state" in
  running|degraded) ;;
  *) echo "systemd did not boot here (${state:-no answer}):"; tail -5 "$work/boot.log"; exit 3 ;;
esac
sd ip link set lo up
fail() {
  echo "deb with systemd: $*"
  sd systemctl status groovecast --no-pager -l 2>&1 | head -20 || true
  sd journalctl -u groovecast --no-pager -o cat 2>&1 | tail -30 || true
  exit 1
}
show() { sd systemctl show groovecast -p "$1" --value; }
dpkg_() { sd env DEBIAN_FRONTEND=noninteractive dpkg "$@" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg $*"; }; }

# 1. Installed: the user made, the unit enabled and started, on air once it said READY=1.
dpkg_ -i /var/tmp/check/groovecast.deb
[ "$(sd systemctl is-enabled groovecast)" = enabled ] || fail "not enabled"
[ "$(show ActiveState)/$(show SubState)" = active/running ] || fail "not running after the installation"
[ "$(show StatusText)" = "on air: station.groovy" ] || fail "StatusText: $(show StatusText)"
[ "$(sd curl -s -o /dev/null -w '%{http_code}' -m 5 http://127.0.0.1:8000/readyz)" = 200 ] || fail "/readyz is not 200"
[ "$(show WatchdogTimestampMonotonic)" != 0 ] || fail "systemd saw no readiness for its watchdog"
pid="$(show MainPID)"
[ "$(sd ps -o user= -p "$pid")" = groovecast ] || fail "the station runs as $(sd ps -o user= -p "$pid")"
sd sh -c 'curl -s -N http://127.0.0.1:8000/radio -o /var/tmp/check/listener.mp3 & echo $! > /var/tmp/check/listener.pid'
sleep 1

# 2. systemctl reload: the changed script on air, the same process, no restart.
sd sed -i "s/name: 'Groovecast Radio'/name: 'Changed FM'/" /etc/groovecast/station.groovy
sd systemctl reload groovecast
for _ in $(seq 1 60); do [ "$(show StatusText)" = "on air: station.groovy, reloaded" ] && break; sleep 0.5; done
[ "$(show StatusText)" = "on air: station.groovy, reloaded" ] || fail "no reload: $(show StatusText)"
sd curl -s -m 5 http://127.0.0.1:8000/status-json.xsl | grep -q '"server_name":"Changed FM"' || fail "the reloaded station is not the changed script"

# 3. An upgrade over the running station: a reload, not a restart, the changed conffile kept.
reloads="$(sd journalctl -u groovecast -o cat | grep -c 'reload of station.groovy')"
heard="$(sd stat -c %s /var/tmp/check/listener.mp3)"
dpkg_ -i --force-confold /var/tmp/check/groovecast.deb
grep -q "the station reloaded its script" "$work/dpkg.log" || fail "the upgrade did not say it reloaded"
for _ in $(seq 1 60); do
  [ "$(sd journalctl -u groovecast -o cat | grep -c 'reload of station.groovy')" -gt "$reloads" ] && break
  sleep 0.5
done
[ "$(sd journalctl -u groovecast -o cat | grep -c 'reload of station.groovy')" -gt "$reloads" ] || fail "the upgrade did not reload"
[ "$(show MainPID)" = "$pid" ] && [ "$(show NRestarts)" = 0 ] || fail "the upgrade restarted the station"
sd grep -q "Changed FM" /etc/groovecast/station.groovy || fail "the upgrade replaced the station's own script"
sleep 2
sd sh -c 'kill -0 "$(cat /var/tmp/check/listener.pid)"' || fail "the listener was disconnected by the upgrade"
[ "$(sd stat -c %s /var/tmp/check/listener.mp3)" -gt $((heard + 16000)) ] || fail "the listener got nothing after the upgrade"

# 4. systemctl stop: SIGTERM, a clean exit.
sd systemctl stop groovecast
[ "$(show ActiveState)" = inactive ] && [ "$(show Result)" = success ] || fail "stop: $(show ActiveState) $(show Result)"

# 5. A station whose only scheduler worker is stuck stops pinging: systemd's watchdog kills it and
# restarts it (a drop-in shortens the period to 3 s).
sd mkdir -p /etc/systemd/system/groovecast.service.d
sd sh -c 'printf "[Service]\nWatchdogSec=3s\nRestartSec=1s\n" > /etc/systemd/system/groovecast.service.d/check.conf'
sd cp /etc/groovecast/station.groovy /var/tmp/check/station.groovy
sd sh -c "cat > /etc/groovecast/station.groovy" << 'EOF'
settings.scheduler.threads = 1
output.dummy(sine(440))
thread.run(delay: 2, fast: true) { -> while (true) {} }
EOF
sd systemctl daemon-reload
sd systemctl start groovecast
for _ in $(seq 1 60); do [ "$(show NRestarts)" -ge 1 ] && break; sleep 0.5; done
[ "$(show NRestarts)" -ge 1 ] || fail "a stuck station was not restarted by the watchdog"
sd journalctl -u groovecast --no-pager | grep -qi "watchdog timeout" || fail "no watchdog timeout in the journal"
sd systemctl stop groovecast
sd rm /etc/systemd/system/groovecast.service.d/check.conf
sd systemctl daemon-reload
sd systemctl reset-failed groovecast 2> /dev/null || true

# 6. A broken script: the start fails with its located error in the journal; after the start limit
# the unit stays failed instead of restarting in a loop.
sd sh -c "printf 'output.dummy(sine(440)\n' > /etc/groovecast/station.groovy"
! sd systemctl start groovecast 2> /dev/null || fail "a broken station.groovy started"
for _ in $(seq 1 80); do [ "$(show ActiveState)" = failed ] && [ "$(show SubState)" = failed ] && break; sleep 0.5; done
sleep 3 # past RestartSec: no further start
[ "$(show ActiveState)" = failed ] || fail "a broken script is not left failed: $(show ActiveState)/$(show SubState)"
starts="$(sd journalctl -u groovecast -o cat | grep -c "station.groovy:1: Unexpected input")"
[ "$starts" -ge 1 ] && [ "$starts" -le 3 ] || fail "$starts starts of a broken script (StartLimitBurst=3)"
# A missing one says which file it is, as the service's user would run it.
sd rm /etc/groovecast/station.groovy
! sd runuser -u groovecast -- /usr/bin/groovecast run /etc/groovecast/station.groovy > "$work/missing.log" 2>&1 \
  || fail "a missing station.groovy started"
grep -q "/etc/groovecast/station.groovy" "$work/missing.log" || fail "no error naming the missing script: $(cat "$work/missing.log")"
sd cp /var/tmp/check/station.groovy /etc/groovecast/station.groovy
sd systemctl reset-failed groovecast

# 7. Purged: no service, no files, no state; the user stays.
dpkg_ --purge groovecast
for p in /usr/lib/groovecast /usr/bin/groovecast /var/lib/groovecast /var/log/groovecast /etc/groovecast \
    /etc/default/groovecast /etc/systemd/system/multi-user.target.wants/groovecast.service; do
  ! sd test -e "$p" || fail "$p is left after the purge"
done
! sd systemctl cat groovecast > /dev/null 2>&1 || fail "the unit is left after the purge"
echo "deb with systemd OK ($(sd systemctl --version | head -1)): installed, enabled, started (READY=1), reloaded," \
  "upgraded with a reload (listener connected, conffile kept), stopped, restarted by the watchdog when stuck," \
  "held failed by the start limit with a broken script, purged"
