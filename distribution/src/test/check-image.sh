#!/usr/bin/env bash
# Checks groovecast-VERSION-image-amd64.tar in TARGET, the container image build-image.py made.
# First as files: the archive is a sound OCI layout (every blob its digest and size, each layer's
# diff_id its uncompressed digest) and a Docker archive naming the same blobs; its configuration runs
# the launcher as a non-root user of the image's /etc/passwd, the default station from /station,
# with /station and /media volumes, ports 8000 and 1935 and a health check whose command is in the
# image. Then, where Podman is installed and runs containers here, as a container: loaded, run,
# healthy and ready, process 1 the bundled java as the image's user, file names decoded as UTF-8,
# the system's LAME in use, heard (MP3) through its published port, its station reloaded on SIGHUP after
# an edit in its /station volume, stopped by SIGTERM with exit 0; and the Icecast relay of
# docker-compose.yml relays it.
#   check-image.sh TARGET VERSION IMAGE_SRC
set -euo pipefail
target="$1" version="$2" src="$3"
image="$target/groovecast-$version-image-amd64.tar"
tag="groovecast:$version"
[ -f "$image" ] || { echo "check-image: no $image"; exit 1; }
work="$(mktemp -d)"
podman_cmd=()
cleanup() {
  if [ "${#podman_cmd[@]}" -gt 0 ]; then
    "${podman_cmd[@]}" rm -f -t 0 groovecast-check > /dev/null 2>&1 || true
    "${podman_cmd[@]}" system reset -f > /dev/null 2>&1 || true
  fi
  [ -n "${icecast:-}" ] && kill "$icecast" 2> /dev/null || true
  umount -R "$work/storage" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "check-image: $*" >&2
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -40 "$f" >&2; }; done
  exit 1
}

# 1. As files.
python3 - "$image" "$tag" "$src/docker-compose.yml" << 'EOF' || fail "the image is not what it should be (above)"
import gzip, hashlib, io, json, posixpath, sys, tarfile
archive, tag, compose = sys.argv[1:4]
problems = []
def need(ok, message):
    if not ok:
        problems.append(message)
with tarfile.open(archive) as outer:
    names = outer.getnames()
    read = lambda name: outer.extractfile(name).read()
    for name in ("oci-layout", "index.json", "manifest.json"):
        if name not in names:
            sys.exit(f"check-image: the archive has no {name}")
    index = json.loads(read("index.json"))
    blob = lambda descriptor: read("blobs/sha256/" + descriptor["digest"].split(":", 1)[1])
    def verified(descriptor):
        data = blob(descriptor)
        need(hashlib.sha256(data).hexdigest() == descriptor["digest"].split(":", 1)[1], f"{descriptor['digest']}: another digest")
        need(len(data) == descriptor["size"], f"{descriptor['digest']}: another size")
        return data
    need(len(index["manifests"]) == 1, "index.json names more than one image")
    entry = index["manifests"][0]
    need(entry.get("annotations", {}).get("io.containerd.image.name") == "docker.io/library/" + tag, f"index.json does not name {tag}")
    manifest = json.loads(verified(entry))
    config = json.loads(verified(manifest["config"]))
    docker = json.loads(read("manifest.json"))
    need(docker[0]["RepoTags"] == [tag], f"manifest.json does not name {tag}")
    need(docker[0]["Config"] == "blobs/sha256/" + manifest["config"]["digest"].split(":")[1], "manifest.json names another configuration")
    need(docker[0]["Layers"] == ["blobs/sha256/" + l["digest"].split(":")[1] for l in manifest["layers"]], "manifest.json names other layers")
    need(config["architecture"] == "amd64" and config["os"] == "linux", "not linux/amd64")
    class Hashing:
        """Reads through, hashing what passes."""
        def __init__(self, f):
            self.f, self.sha, self.size = f, hashlib.sha256(), 0
        def read(self, n=-1):
            b = self.f.read(n)
            self.sha.update(b)
            self.size += len(b)
            return b
    files, passwd = {}, ""
    for layer, diff_id in zip(manifest["layers"], config["rootfs"]["diff_ids"]):
        compressed = Hashing(outer.extractfile("blobs/sha256/" + layer["digest"].split(":", 1)[1]))
        raw = Hashing(gzip.GzipFile(fileobj=compressed))
        with tarfile.open(fileobj=raw, mode="r|") as t:
            for m in t:
                files[posixpath.normpath(m.name)] = m
                if m.name == "etc/passwd":
                    passwd = t.extractfile(m).read().decode()
        while raw.read(1 << 20):
            pass
        need("sha256:" + compressed.sha.hexdigest() == layer["digest"], f"layer {layer['digest']}: another digest")
        need(compressed.size == layer["size"], f"layer {layer['digest']}: another size")
        need("sha256:" + raw.sha.hexdigest() == diff_id, f"layer {layer['digest']}: its diff_id is not its content's")
    need(len(config["rootfs"]["diff_ids"]) == len(manifest["layers"]), "as many diff_ids as layers")

def resolve(path, depth=0):
    """The member PATH leads to in the image, following links (absolute ones from the image's root)."""
    parts, here = path.strip("/").split("/"), ""
    for i, part in enumerate(parts):
        here = posixpath.join(here, part) if here else part
        m = files.get(here)
        if m is not None and m.issym() and depth < 20:
            target = m.linkname if m.linkname.startswith("/") else posixpath.join(posixpath.dirname(here), m.linkname)
            return resolve(posixpath.normpath(posixpath.join(target, *parts[i + 1:])), depth + 1)
    return files.get(here)

c = config["config"]
user = c.get("User", "")
uid = None
if user.split(":")[0].isdigit():
    uid = int(user.split(":")[0])
need(user not in ("", "0", "root") and uid != 0 and not user.startswith("0:") and not user.startswith("root:"),
     f"the image runs as root (User {user!r})")
entrypoint = c.get("Entrypoint") or []
need(entrypoint[:1] == ["/usr/bin/groovecast"], f"the entrypoint is not the launcher: {entrypoint}")
for path in entrypoint[:1] + ["/usr/local/bin/groovecast-health", "/bin/bash", "/usr/lib/groovecast/runtime/bin/java"]:
    m = resolve(path)
    need(m is not None and m.isfile() and m.mode & 0o111, f"{path} is not an executable file of the image")
need(c.get("Cmd") == ["run", "/station/station.groovy"], f"the command is not run /station/station.groovy: {c.get('Cmd')}")
m = resolve("/station/station.groovy")
need(m is not None and m.isfile() and m.mode & 0o004, "no readable /station/station.groovy")
need(set(c.get("Volumes", {})) == {"/station", "/media"}, f"volumes {sorted(c.get('Volumes', {}))}")
need({"8000/tcp", "1935/tcp"} <= set(c.get("ExposedPorts", {})), f"ports {sorted(c.get('ExposedPorts', {}))}")
health = c.get("Healthcheck", {}).get("Test", [])
need(health == ["CMD", "/usr/local/bin/groovecast-health"], f"health check {health}")
home = resolve(c.get("WorkingDir", "/"))
need(home is not None and home.isdir() and home.uid == uid and home.mode & 0o700 == 0o700, "the working directory is not the user's")
need(resolve("/tmp") is not None and resolve("/tmp").mode == 0o1777, "/tmp is not 1777")
# The image's /etc/passwd knows the user: Java takes its home (where FFmpeg's natives are unpacked) from there.
need(any(len(f) > 5 and f[2] == str(uid) and f[5] == c.get("WorkingDir") for f in (l.split(":") for l in passwd.splitlines())),
     f"/etc/passwd has no user {uid} with home {c.get('WorkingDir')}")
# The compose example runs this image, with the image's health check.
text = open(compose).read()
try:
    import yaml
except ImportError:
    yaml = None
if yaml:
    services = yaml.safe_load(text)["services"]
    need(services["groovecast"]["image"] == tag, f"docker-compose.yml does not run {tag}")
    need(services["groovecast"]["healthcheck"]["test"] == ["CMD"] + health[1:], "docker-compose.yml's health check is not the image's")
    need(all(s["ulimits"]["nofile"] == {"soft": 65536, "hard": 65536} and s["logging"]["options"]["max-size"]
             for s in services.values()), "docker-compose.yml: a service without ulimits nofile 65536 or capped logs")
need(f"image: {tag}\n" in text, f"docker-compose.yml does not run {tag}")
need('test: ["CMD", "/usr/local/bin/groovecast-health"]' in text, "docker-compose.yml's health check is not the image's")
for line in ("soft: 65536", "hard: 65536", 'max-size: "10m"', "- station:/station"):
    need(line in text, f"docker-compose.yml lacks {line}")
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"image files OK: user {user}, entrypoint {entrypoint} {c['Cmd']}, {len(manifest['layers'])} layers")
EOF

# 2. As a container, where Podman runs here (root; its own storage in $work, gone afterwards).
if ! command -v podman > /dev/null; then
  echo "podman is not installed: the image is not run (apt-get install podman)"
  echo "image OK (files only): $(basename "$image") $(stat -c %s "$image") bytes"
  exit 0
fi
# runc where installed: crun (Podman's default) refuses a machine whose cgroups are mixed v1 and v2
# with a controller on v2, as CI's is.
podman_cmd=(podman --root "$work/storage" --runroot "$work/run" --cgroup-manager=cgroupfs --events-backend=file)
if command -v runc > /dev/null; then podman_cmd+=(--runtime "$(command -v runc)"); fi
# Podman's warnings (it cannot place conmon in every cgroup here) go to podman.log, shown on a failure.
p() { "${podman_cmd[@]}" "$@" 2>> "$work/podman.log"; }
if ! p info > "$work/podman-info.log" 2>&1; then
  echo "podman does not run here: the image is not run ($(tail -1 "$work/podman-info.log"))"
  echo "image OK (files only): $(basename "$image") $(stat -c %s "$image") bytes"
  exit 0
fi
rm "$work/podman-info.log"
p load -i "$image" > "$work/load.log" 2>&1 || fail "podman load failed"
ref="$(p images --format '{{.Repository}}:{{.Tag}}' | grep -E "(^|/)$tag\$" | head -1)"
[ -n "$ref" ] || fail "podman load did not name the image $tag: $(p images)"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/media"
p volume create station > /dev/null
# The compose file's nofile, or as much of it as this machine allows root (without CAP_SYS_RESOURCE,
# the hard limit), and 8192 processes: Podman's default for root, the kernel's maximum, is refused
# there too (and so was the machine's hard limit, above what conmon got).
nofile=65536
[ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$nofile" ] && nofile="$(ulimit -Hn)"
nproc=8192
# Whether this machine lets Podman run a container at all (namespaces, cgroups, port forwarding): the
# image's own /usr/bin/true with the options the station gets. A machine that cannot is said so, the
# image being checked as files only; the station's run below fails the check on anything else.
if ! p run --rm -p "127.0.0.1:$port:8000" --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc" \
    --entrypoint /usr/bin/true "$ref" > "$work/probe.log" 2>&1; then
  echo "podman cannot run a container here: the image is not run ($(tail -1 "$work/probe.log"))"
  echo "image OK (files only): $(basename "$image") $(stat -c %s "$image") bytes"
  exit 0
fi
# Podman takes no health check from an OCI image's configuration (Docker's field): given here as the
# compose file gives it.
started=$(date +%s%N)
p run -d --name groovecast-check -p "127.0.0.1:$port:8000" -v station:/station -v "$work/media:/media:ro" \
  --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc" --health-cmd /usr/local/bin/groovecast-health "$ref" > "$work/run.log" 2>&1 \
  || fail "podman run failed"
logs() { "${podman_cmd[@]}" logs groovecast-check > "$work/station.log" 2>&1 || true; }
for _ in $(seq 1 240); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -m 1 "http://127.0.0.1:$port/readyz")" = 200 ] && break
  [ "$(p inspect --format '{{.State.Running}}' groovecast-check)" = true ] || { logs; fail "the container stopped"; }
  sleep 0.5
done
ready_ms=$((($(date +%s%N) - started) / 1000000))
logs
[ "$(curl -s -o /dev/null -w '%{http_code}' -m 1 "http://127.0.0.1:$port/readyz")" = 200 ] || fail "no /readyz 200 in 120 s"
curl -sf -m 2 "http://127.0.0.1:$port/healthz" | grep -q '"live":true' || fail "/healthz does not say live"
p healthcheck run groovecast-check > "$work/health.log" 2>&1 || fail "the image's health check says unhealthy"
# Process 1 is the JVM (the launcher execed it), as the image's user.
p exec groovecast-check cat /proc/1/cmdline | tr '\0' ' ' | grep -q '^/usr/lib/groovecast/runtime/bin/java ' \
  || fail "process 1 is not the bundled java: $(p exec groovecast-check cat /proc/1/cmdline | tr '\0' ' ' | cut -c1-200)"
[ "$(p exec groovecast-check sh -c 'stat -c %u /proc/1')" != 0 ] || fail "the station runs as root"
[ "$(p exec groovecast-check sh -c 'stat -c %u /proc/1')" = "$(p image inspect --format '{{.Config.User}}' "$ref" | cut -d: -f1)" ] \
  || fail "the station does not run as the image's user"
# File names decode as UTF-8 (a playlist's Café.mp3): the image's C.UTF-8 locale loads, so the JVM's
# native encoding, which it decodes them with, is UTF-8.
"${podman_cmd[@]}" exec groovecast-check /usr/lib/groovecast/runtime/bin/java -XshowSettings:properties -version \
  > "$work/properties.log" 2>&1 || true
grep -q 'native.encoding = UTF-8' "$work/properties.log" || fail "the JVM's native encoding is not UTF-8: the C.UTF-8 locale is missing"

curl -s -m 4 -o "$work/radio.mp3" "http://127.0.0.1:$port/radio" || true
[ "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$work/radio.mp3" 2> /dev/null)" = mp3 ] \
  || fail "the listener did not get MP3 ($(stat -c %s "$work/radio.mp3") bytes)"

# The compose example's Icecast relays the station: icecast.xml as it is, but for the station's
# address and its own port (Docker's network is not here).
relayed="not relayed (no icecast2 here)"
if command -v icecast2 > /dev/null; then
  ice="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  mkdir -p "$work/icecast" && chmod 777 "$work/icecast"
  python3 - "$src/icecast.xml" "$work/icecast" "$port" "$ice" << 'EOF' || fail "icecast.xml is not the relay this check expects"
import os, re, sys
source, here, station, ice = sys.argv[1:5]
text = open(source).read()
for old, new in [(r"<listen-socket>\s*<port>8000</port>", f"<listen-socket><port>{ice}</port>"),
                 (r"<server>groovecast</server>\s*<port>8000</port>", f"<server>127.0.0.1</server><port>{station}</port>"),
                 (r"<logdir>/tmp</logdir>", f"<logdir>{here}</logdir>"),
                 # icecast2 refuses to run as root unless it changes owner.
                 (r"<chroot>0</chroot>", "<chroot>0</chroot>" + ("<changeowner><user>nobody</user><group>nogroup</group>"
                                                                 "</changeowner>" if os.geteuid() == 0 else ""))]:
    text, n = re.subn(old, new, text)
    if n != 1:
        sys.exit(f"icecast.xml: no {old}")
open(here + "/icecast.xml", "w").write(text)
EOF
  icecast2 -c "$work/icecast/icecast.xml" > "$work/icecast.log" 2>&1 &
  icecast=$!
  for _ in $(seq 1 40); do
    curl -s -m 1 "http://127.0.0.1:$ice/status-json.xsl" | grep -q '"listenurl":"[^"]*/radio"' && break
    sleep 0.5
  done
  curl -s -m 3 -o "$work/relayed.mp3" "http://127.0.0.1:$ice/radio" || true
  [ "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$work/relayed.mp3" 2> /dev/null)" = mp3 ] \
    || fail "docker-compose.yml's Icecast (icecast.xml) does not relay the station ($(stat -c %s "$work/relayed.mp3") bytes)"
  kill "$icecast" && wait "$icecast" 2> /dev/null || true
  icecast=
  relayed="relayed by docker-compose.yml's Icecast"
fi

# An edit in the /station volume (the image's default station, copied there), then SIGHUP: reloaded.
volume="$(p volume inspect --format '{{.Mountpoint}}' station)"
[ -f "$volume/station.groovy" ] || fail "the /station volume does not hold the image's station.groovy"
sed -i "s/name: 'Groovecast Radio'/name: 'Image FM'/" "$volume/station.groovy"
p kill -s HUP groovecast-check > /dev/null
for _ in $(seq 1 60); do logs; grep -q 'reload of station.groovy in [0-9]* ms' "$work/station.log" && break; sleep 0.5; done
grep -q 'reload of station.groovy in [0-9]* ms' "$work/station.log" || fail "no reload logged after SIGHUP"
curl -s -m 2 "http://127.0.0.1:$port/status-json.xsl" | grep -q '"server_name":"Image FM"' || fail "the reloaded station is not the edited script"

# SIGTERM (podman stop): a clean stop (the running station's own "stopped", after the one of the
# station the reload replaced), exit 0, well within the grace period.
stopped_before="$(grep -c 'station station.groovy stopped' "$work/station.log" || true)"
stop_started=$(date +%s%N)
p stop -t 30 groovecast-check > /dev/null
stop_ms=$((($(date +%s%N) - stop_started) / 1000000))
logs
[ "$(p inspect --format '{{.State.ExitCode}}' groovecast-check)" = 0 ] || fail "exit $(p inspect --format '{{.State.ExitCode}}' groovecast-check) after SIGTERM"
[ "$(grep -c 'station station.groovy stopped' "$work/station.log" || true)" -gt "$stopped_before" ] || fail "no clean stop logged"
[ "$stop_ms" -lt 20000 ] || fail "the stop took $stop_ms ms: SIGTERM did not reach the JVM"
! grep -qE 'NoClassDefFoundError|UnsatisfiedLinkError|ERROR' "$work/station.log" || fail "errors in the station's log"
# The system's LAME (a third of the bundled FFmpeg's CPU per MP3 stream) is in the image.
! grep -q 'no usable' "$work/station.log" || fail "a library the FFmpeg plugin looks for is not in the image"
echo "image OK (podman $(podman --version | cut -d' ' -f3)): $(basename "$image") $(stat -c %s "$image") bytes;" \
  "ready in $ready_ms ms, healthy, MP3 heard and $relayed, reloaded on SIGHUP, exit 0 on SIGTERM in $stop_ms ms"
