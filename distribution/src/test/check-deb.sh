#!/usr/bin/env bash
# Checks groovecast_VERSION_amd64.deb in TARGET: its fields, files, conffiles and unit; lintian's
# errors, where lintian is installed; and, where this check may (root, mount namespaces), the
# package installed, run, upgraded over the running station and purged in a throw-away copy of
# this machine (an overlay on /, in a private mount namespace): booted by its own systemd where
# systemd boots here (check-deb-systemd.sh: dpkg and systemctl for real), else entered by chroot
# with a stand-in for systemctl and the unit's ExecStart run as the unit would run it
# (check-deb-install.sh; GROOVECAST_CHECK_SYSTEMD=0 asks for this one).
#   check-deb.sh TARGET
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if [ "${1:-}" = --inside ]; then
  shift
  # A real systemd where one boots here (about 45 s; it makes its cgroups below this check's, in a
  # cgroup namespace, and they go with it); GROOVECAST_CHECK_SYSTEMD=0 keeps to the chroot (25 s).
  if [ "${GROOVECAST_CHECK_SYSTEMD:-1}" != 0 ]; then
    code=0
    bash "$here/check-deb-systemd.sh" "$@" || code=$?
    [ "$code" = 3 ] || exit "$code"
    echo "systemd does not boot here: the maintainer scripts and the unit's command run in a chroot instead"
  fi
  exec bash "$here/check-deb-install.sh" "$@"
fi

target="$1"
debs=("$target"/groovecast_*_amd64.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] || { echo "expected one groovecast_*_amd64.deb in $target: ${debs[*]}"; exit 1; }
deb="${debs[0]}"
fail() { echo "$(basename "$deb"): $*"; exit 1; }

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = groovecast ] || fail "Package: $(field Package)"
[ "$(field Architecture)" = amd64 ] || fail "Architecture: $(field Architecture)"
case "$(basename "$deb")" in "groovecast_$(field Version)_amd64.deb") ;; *) fail "named otherwise than its Version, $(field Version)" ;; esac
for dep in adduser init-system-helpers libc6; do
  field Depends | grep -qw "$dep" || fail "does not depend on $dep"
done
# The FFmpeg plugin calls the system's LAME and libvorbisenc where they are (MP3 at a third of the
# bundled LAME's CPU, Vorbis with bit rate control): apt installs them with the package by default.
for rec in libmp3lame0 libvorbisenc2; do
  field Recommends | grep -qw "$rec" || fail "does not recommend $rec"
done

contents="$(dpkg-deb -c "$deb")"
has() { grep -qE " \./$1( |\$)" <<< "$contents" || fail "lacks /$1"; }
has usr/lib/groovecast/runtime/bin/java
has usr/lib/groovecast/bin/groovecast
has 'usr/bin/groovecast -> \.\./lib/groovecast/bin/groovecast'
has etc/groovecast/station.groovy
has etc/default/groovecast
has usr/lib/systemd/system/groovecast.service
has usr/share/doc/groovecast/copyright
has usr/share/doc/groovecast/changelog.gz
has var/lib/groovecast/
has var/log/groovecast/
# Plugin zips come expanded: the service cannot write under /usr.
! grep -qE '\./usr/lib/groovecast/plugins/[^/]+\.zip$' <<< "$contents" || fail "ships a plugin zip to be expanded at run time"
grep -qE '\./usr/lib/groovecast/plugins/groovecast-plugin-ffmpeg-[^/]+/' <<< "$contents" || fail "lacks the expanded FFmpeg plugin"
odd="$(grep -vE '^(l|[-d]r[-w][-x]r-[-x]r-[-x] root/root )' <<< "$contents" || true)"
[ -z "$odd" ] || fail "holds files not owned by root or writable by others: $(head -3 <<< "$odd")"

ctl="$(mktemp -d)"
trap 'rm -rf "$ctl"' EXIT
dpkg-deb -e "$deb" "$ctl/DEBIAN"
grep -qx /etc/groovecast/station.groovy "$ctl/DEBIAN/conffiles" || fail "station.groovy is not a conffile"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/groovecast.service > "$ctl/unit"
for line in Type=notify 'ExecReload=/bin/kill -HUP $MAINPID' LimitNOFILE=65536 ProtectSystem=strict \
    NoNewPrivileges=yes PrivateTmp=yes 'ReadWritePaths=/var/lib/groovecast /var/log/groovecast' \
    'ExecStart=/usr/bin/groovecast run /etc/groovecast/station.groovy' User=groovecast \
    WantedBy=multi-user.target; do
  grep -qxF "$line" "$ctl/unit" || fail "the unit lacks $line"
done
grep -qE '^WatchdogSec=' "$ctl/unit" || fail "the unit sets no WatchdogSec"
grep -qE '^StartLimitBurst=' "$ctl/unit" && grep -qE '^StartLimitIntervalSec=' "$ctl/unit" || fail "the unit sets no start limit"
for s in postinst prerm postrm; do sh -n "$ctl/DEBIAN/$s" || fail "$s does not parse"; done
grep -q 'try-reload-or-restart groovecast.service' "$ctl/DEBIAN/postinst" || fail "an upgrade does not reload"

if command -v lintian > /dev/null; then
  lintian --fail-on error --no-tag-display-limit "$deb" > "$ctl/lintian" 2>&1 \
    || { cat "$ctl/lintian"; fail "lintian reports errors"; }
  echo "lintian: no errors ($(grep -c '^W:' "$ctl/lintian" || true) warnings)"
else
  echo "lintian is not installed: not run"
fi

if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2> /dev/null; then
  unshare -m --propagation private bash "$0" --inside "$deb"
else
  echo "not root: the package is not installed by this check (its static checks passed)"
fi
echo "deb OK: $(basename "$deb") $(stat -c %s "$deb") bytes"
