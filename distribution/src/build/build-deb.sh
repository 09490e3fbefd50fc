#!/usr/bin/env bash
# Builds groovecast_VERSION_amd64.deb without root (dpkg-deb --root-owner-group): the assembled
# distribution TREE and the jlinked RUNTIME under /usr/lib/groovecast, /usr/bin/groovecast, the
# default station as the conffile /etc/groovecast/station.groovy, the systemd unit and the
# maintainer scripts from DEBIAN_SRC (src/deb).
#   build-deb.sh TREE RUNTIME DEBIAN_SRC VERSION TIMESTAMP OUT_DIR
# TIMESTAMP (project.build.outputTimestamp) is every file's time and the archive's (SOURCE_DATE_EPOCH):
# the same bytes at every build.
set -euo pipefail
tree="$1" runtime="$2" src="$3" version="$4" epoch="$(date -u -d "$5" +%s)" out="$6"
# 0.1.0-SNAPSHOT -> 0.1.0~SNAPSHOT: a Debian version with no revision, sorting before 0.1.0.
debversion="${version//-/\~}"
work="$out/deb"
root="$work/groovecast"
rm -rf "$work"
mkdir -p "$root/DEBIAN"
lib="$root/usr/lib/groovecast"
doc="$root/usr/share/doc/groovecast"
mkdir -p "$lib/plugins" "$root/usr/bin" "$root/etc/groovecast" "$root/etc/default" \
  "$root/usr/lib/systemd/system" "$doc" "$root/var/lib/groovecast" "$root/var/log/groovecast"

cp -r "$tree/bin" "$tree/lib" "$tree/conf" "$tree/scripts" "$lib/"
cp -r "$runtime" "$lib/runtime"
# Plugin zips expanded here, as PF4J would on the first start: the service cannot write under
# /usr (ProtectSystem=strict), and a package's files do not change after its installation.
for p in "$tree"/plugins/*.jar "$tree"/plugins/*.zip; do
  [ -e "$p" ] || continue
  case "$p" in
    *.zip) mkdir "$lib/plugins/$(basename "$p" .zip)" && unzip -q "$p" -d "$lib/plugins/$(basename "$p" .zip)" ;;
    *) cp "$p" "$lib/plugins/" ;;
  esac
done
ln -s ../lib/groovecast/bin/groovecast "$root/usr/bin/groovecast"
cp "$tree/scripts/radio.groovy" "$root/etc/groovecast/station.groovy"
cp "$src/groovecast.default" "$root/etc/default/groovecast"
cp "$src/groovecast.service" "$root/usr/lib/systemd/system/groovecast.service"
cp -r "$tree/README.md" "$tree/docs" "$doc/"
cp "$src/copyright" "$doc/copyright"
mkdir -p "$root/usr/share/lintian/overrides"
cp "$src/lintian-overrides" "$root/usr/share/lintian/overrides/groovecast"
sed -e "s/@VERSION@/$debversion/" -e "s/@DATE@/$(LC_ALL=C date -u -R -d "@$epoch")/" "$src/changelog" \
  | gzip -9n > "$doc/changelog.gz"

# Modes stated, not the build's umask.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$lib"/bin/* "$lib"/runtime/bin/*
for f in "$lib"/runtime/lib/jspawnhelper "$lib"/runtime/lib/jexec; do [ -e "$f" ] && chmod 0755 "$f"; done

cp "$src/postinst" "$src/prerm" "$src/postrm" "$root/DEBIAN/"
chmod 0755 "$root"/DEBIAN/postinst "$root"/DEBIAN/prerm "$root"/DEBIAN/postrm
printf '%s\n' /etc/default/groovecast /etc/groovecast/station.groovy > "$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | LC_ALL=C sort | sed 's|^\./||' \
  | xargs -d '\n' md5sum) > "$root/DEBIAN/md5sums"
# Installed-Size as dpkg-gencontrol counts it (KiB per file, rounded up): the same on every file system.
size=$(cd "$root" && find . -path ./DEBIAN -prune -o \( -type f -o -type l \) -printf '%s\n' \
  | awk '{ s += int(($1 + 1023) / 1024) } END { print s }')
sed -e "s/@VERSION@/$debversion/" -e "s/@SIZE@/$size/" "$src/control" > "$root/DEBIAN/control"
chmod 0644 "$root"/DEBIAN/control "$root"/DEBIAN/conffiles "$root"/DEBIAN/md5sums

find "$root" -exec touch -h -d "@$epoch" {} +
deb="$out/groovecast_${debversion}_amd64.deb"
# gzip: the jars, the runtime's modules and the FFmpeg natives are compressed already, and xz
# took many times as long for a few percent.
SOURCE_DATE_EPOCH="$epoch" dpkg-deb --root-owner-group -Zgzip -z9 --build "$root" "$deb" > /dev/null
echo "$deb: $(stat -c %s "$deb") bytes"
