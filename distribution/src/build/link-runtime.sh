#!/usr/bin/env bash
# Links the Java runtime the self-contained tarball and the Debian package carry: the JDK's own
# modules that Groovecast uses (MODULES, comma-separated; distribution/pom.xml says how they were
# found), without debug attributes, man pages or headers, compressed, in OUT.
#   link-runtime.sh JDK OUT MODULES TIMESTAMP
# TIMESTAMP (project.build.outputTimestamp) becomes every file's time: the same bytes at every build.
set -euo pipefail
jdk="$1" out="$2" modules="$3" epoch="$(date -u -d "$4" +%s)"
rm -rf "$out"
# java.desktop comes for java.beans, which Groovy's meta classes use; of its native libraries only
# headless AWT stays (the launcher sets java.awt.headless): the X11 toolkit, fonts, images, colour
# management, sound and the splash screen are never loaded by a station, and would bring their own
# copies of freetype, libjpeg and lcms2.
desktop_natives='**/libawt_xawt.so,**/libjawt.so,**/libfontmanager.so,**/libfreetype.so,**/libjavajpeg.so'
desktop_natives+=',**/libmlib_image.so,**/liblcms.so,**/libjsound.so,**/libsplashscreen.so'
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress zip-6 --exclude-files="$desktop_natives" --output "$out"
# jlink's output is the same bytes for the same JDK and modules (two builds compared) but for the
# files' times. No CDS archive is generated: 15 MB for 0.1 s less at each start.
find "$out" -exec touch -h -d "@$epoch" {} +
