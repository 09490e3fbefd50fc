#!/usr/bin/env python3
"""Builds groovecast-VERSION-image-amd64.tar, a container image, without a container engine or a
registry: an OCI image layout (oci-layout, index.json, blobs/sha256/...) in one tar, with Docker's
manifest.json beside it, as `docker save` writes them since Docker 25, so that `docker load`,
`podman load` and `skopeo copy oci-archive:...` all take it.

    build-image.py DEB_ROOT IMAGE_SRC VERSION TIMESTAMP OUT_DIR PACKAGES

Three layers, each a tar written here entry by entry (owners, modes and times stated, names
sorted), gzipped with no name or time in its header:
  1. debian: the files of the Debian PACKAGES (comma-separated) as dpkg installed them on this machine (what the
     JVM, the FFmpeg natives and the launcher load; distribution/pom.xml says why each), but for
     the documentation, manual pages and translations, which Debian's slim images also leave out
     (each package's copyright stays); /etc/passwd and /etc/group with the groovecast user, and
     /var/lib/dpkg/status naming the packages, for the scanners that read it;
  2. runtime: the jlinked Java runtime;
  3. groovecast: the engine, its plugins (expanded: the image's files are read-only to the
     station), /usr/bin/groovecast, the default station as /station/station.groovy, /media and
     the station's home /var/lib/groovecast.
DEB_ROOT is the tree build-deb.sh packed (its usr/lib/groovecast: the same files as the .deb, in
the same places); IMAGE_SRC holds groovecast-health, the health check. TIMESTAMP
(project.build.outputTimestamp) is every file's time and the image's creation time: the same
bytes at every build on the same machine (the Debian files and the JDK are this machine's).
"""
import gzip
import hashlib
import io
import json
import os
import stat
import subprocess
import sys
import tarfile
from datetime import datetime, timezone

UID = GID = 1000  # the host's first user in most distributions: a bind mount of its files just works
USER = "groovecast"
HOME = "/var/lib/groovecast"
# What Debian's slim images leave out (dpkg's path-exclude in debuerreotype's --slim), copyright kept.
EXCLUDED = ("usr/share/doc/", "usr/share/man/", "usr/share/info/", "usr/share/locale/",
            "usr/share/groff/", "usr/share/lintian/", "usr/share/linda/")
MULTIARCH = "x86_64-linux-gnu"


class Layer:
    """The entries of one layer, by path in the image (no leading slash)."""

    def __init__(self, name, epoch):
        self.name, self.epoch, self.entries = name, epoch, {}

    def _parents(self, path):
        parent = os.path.dirname(path)
        if parent and parent not in self.entries:
            self.directory(parent)

    def directory(self, path, mode=0o755, uid=0, gid=0):
        self._parents(path)
        self.entries[path] = ("dir", None, mode, uid, gid)

    def file(self, path, source, mode, uid=0, gid=0):
        self._parents(path)
        self.entries[path] = ("file", source, mode, uid, gid)

    def data(self, path, text, mode=0o644):
        self._parents(path)
        self.entries[path] = ("data", text.encode(), mode, 0, 0)

    def symlink(self, path, target):
        self._parents(path)
        self.entries[path] = ("link", target, 0o777, 0, 0)

    def tree(self, path, source):
        """SOURCE's tree at PATH, modes as they are there (build-deb.sh stated them)."""
        self.directory(path)
        for top, dirs, files in os.walk(source):
            dirs.sort()
            rel = os.path.relpath(top, source)
            for name in dirs + files:
                host = os.path.join(top, name)
                dest = os.path.normpath(os.path.join(path, rel, name))
                st = os.lstat(host)
                if stat.S_ISLNK(st.st_mode):
                    self.symlink(dest, os.readlink(host))
                elif stat.S_ISDIR(st.st_mode):
                    self.directory(dest, stat.S_IMODE(st.st_mode))
                else:
                    self.file(dest, host, stat.S_IMODE(st.st_mode))

    def write(self, blobs):
        """Writes the gzipped tar to BLOBS; returns (digest, size, diff_id)."""
        raw = hashlib.sha256()
        tmp = os.path.join(blobs, self.name + ".tmp")
        with open(tmp, "wb") as out:
            with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=6, mtime=0) as gz:
                hashing = _Hashing(gz, raw)
                with tarfile.open(fileobj=hashing, mode="w|", format=tarfile.PAX_FORMAT) as tar:
                    for path in sorted(self.entries):
                        kind, source, mode, uid, gid = self.entries[path]
                        info = tarfile.TarInfo(path)
                        info.mtime, info.mode, info.uid, info.gid = self.epoch, mode, uid, gid
                        if kind == "dir":
                            info.type = tarfile.DIRTYPE
                            tar.addfile(info)
                        elif kind == "link":
                            info.type, info.linkname = tarfile.SYMTYPE, source
                            tar.addfile(info)
                        elif kind == "data":
                            info.size = len(source)
                            tar.addfile(info, io.BytesIO(source))
                        else:
                            info.size = os.path.getsize(source)
                            with open(source, "rb") as f:
                                tar.addfile(info, f)
        digest = _sha256_file(tmp)
        os.replace(tmp, os.path.join(blobs, digest))
        return digest, os.path.getsize(os.path.join(blobs, digest)), raw.hexdigest()


class _Hashing(io.RawIOBase):
    """A write-through stream that also hashes what passes: the layer's diff_id, uncompressed."""

    def __init__(self, out, digest):
        self.out, self.digest = out, digest

    def writable(self):
        return True

    def write(self, b):
        self.digest.update(b)
        return self.out.write(b)


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fail(message):
    sys.exit("build-image: " + message)


def dpkg(*args):
    return subprocess.run(["dpkg-query", *args], check=True, capture_output=True, text=True).stdout


def _copyright(path, real):
    """A package's copyright file, or its documentation directory where that is a link to another
    package's (libstdc++6's to gcc-12-base's)."""
    if not path.startswith("usr/share/doc/"):
        return False
    return path.endswith("/copyright") or (path.count("/") == 3 and os.path.islink(real))


def debian_layer(packages, epoch):
    layer = Layer("debian", epoch)
    # Files of the build machine that differ from their package's would make an image no other
    # machine with the same packages builds.
    changed = [line for line in subprocess.run(["dpkg", "--verify", *packages], capture_output=True,
                                               text=True).stdout.splitlines()
               if not line.split()[-1].lstrip("/").startswith(EXCLUDED)]
    if changed:
        fail("files of the packages differ from what dpkg installed:\n" + "\n".join(changed))
    # usr-merged: /bin, /lib, ... are links into /usr on the build machine and in the image; each
    # file lands where it really is.
    for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        if os.path.islink("/" + top):
            layer.symlink(top, os.readlink("/" + top))
    for package in packages:
        for listed in dpkg("-L", package).splitlines():
            if not listed.startswith("/") or listed in ("/", "/."):
                continue
            real = os.path.join(os.path.realpath(os.path.dirname(listed)), os.path.basename(listed))
            path = real.lstrip("/")
            if path.startswith(EXCLUDED) and not _copyright(path, real):
                continue
            if not os.path.lexists(real):
                fail(f"{listed} of {package} is not on this machine")
            st = os.lstat(real)
            if stat.S_ISLNK(st.st_mode):
                if path not in layer.entries:
                    layer.symlink(path, os.readlink(real))
            elif stat.S_ISDIR(st.st_mode):
                if path not in layer.entries:
                    layer.directory(path, stat.S_IMODE(st.st_mode))
            else:
                layer.file(path, real, stat.S_IMODE(st.st_mode))
    layer.directory("tmp", 0o1777)
    for d in ("proc", "sys", "dev", "run", "etc"):
        layer.directory(d)
    layer.data("etc/passwd", f"root:x:0:0:root:/root:/bin/bash\n{USER}:x:{UID}:{GID}:Groovecast:{HOME}:/bin/false\n")
    layer.data("etc/group", f"root:x:0:\n{USER}:x:{GID}:\n")
    layer.data("etc/nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\nhosts: files dns\n")
    layer.directory("root", 0o700)
    # Which Debian packages, at which versions: what vulnerability scanners read.
    status = [dpkg("-s", p).strip() for p in sorted(packages)]
    layer.data("var/lib/dpkg/status", "\n\n".join(status) + "\n")
    return layer


def check_libraries(layers):
    """Every shared library an ELF file of the image needs is in the image: a package forgotten in
    PACKAGES fails the build, not the station's start."""
    names = {os.path.basename(p) for layer in layers for p, e in layer.entries.items() if e[0] in ("file", "link")}
    elves = []
    for layer in layers:
        for kind, source, *_ in layer.entries.values():
            if kind == "file":
                with open(source, "rb") as f:
                    if f.read(4) == b"\x7fELF":
                        elves.append(source)
    missing = set()
    for chunk in range(0, len(elves), 200):
        batch = elves[chunk:chunk + 200]
        out = subprocess.run(["readelf", "-d", "-W", *batch], capture_output=True, text=True).stdout
        current = None
        for line in out.splitlines():
            if line.startswith("File: "):
                current = line[6:]
            elif "(NEEDED)" in line:
                needed = line.split("[", 1)[1].rstrip("]")
                if needed not in names:
                    missing.add(f"{current} needs {needed}")
    if missing:
        fail("libraries missing from the image:\n  " + "\n  ".join(sorted(missing)))


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    deb_root, image_src, version, timestamp, out_dir = sys.argv[1:6]
    packages = [p.strip() for p in sys.argv[6].split(",") if p.strip()]
    for package in packages:
        if subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status}", package],
                          capture_output=True, text=True).stdout != "installed":
            fail(f"the image is made of this machine's Debian packages, and {package} is not installed:"
                 f" apt-get install {package}")
    created = datetime.fromisoformat(timestamp.replace("Z", "+00:00")).astimezone(timezone.utc)
    epoch = int(created.timestamp())
    created_text = created.strftime("%Y-%m-%dT%H:%M:%SZ")
    lib = os.path.join(deb_root, "usr/lib/groovecast")

    debian = debian_layer(packages, epoch)
    runtime = Layer("runtime", epoch)
    runtime.tree("usr/lib/groovecast/runtime", os.path.join(lib, "runtime"))
    app = Layer("groovecast", epoch)
    app.directory("usr/lib/groovecast")
    for name in sorted(os.listdir(lib)):
        if name != "runtime":
            source = os.path.join(lib, name)
            if os.path.isdir(source):
                app.tree("usr/lib/groovecast/" + name, source)
            else:
                app.file("usr/lib/groovecast/" + name, source, stat.S_IMODE(os.stat(source).st_mode))
    app.symlink("usr/bin/groovecast", "../lib/groovecast/bin/groovecast")
    app.file("usr/local/bin/groovecast-health", os.path.join(image_src, "groovecast-health"), 0o755)
    app.file("usr/share/doc/groovecast/copyright", os.path.join(deb_root, "usr/share/doc/groovecast/copyright"), 0o644)
    app.directory("station")
    app.file("station/station.groovy", os.path.join(deb_root, "etc/groovecast/station.groovy"), 0o644)
    app.directory("media", 0o755, UID, GID)
    app.directory(HOME.lstrip("/"), 0o750, UID, GID)
    layers = [debian, runtime, app]
    check_libraries(layers)

    layout = os.path.join(out_dir, "image")
    blobs = os.path.join(layout, "blobs", "sha256")
    subprocess.run(["rm", "-rf", layout], check=True)
    os.makedirs(blobs)
    written = [layer.write(blobs) for layer in layers]

    ns = 1_000_000_000
    config = {
        "created": created_text,
        "architecture": "amd64",
        "os": "linux",
        "config": {
            "User": f"{UID}:{GID}",
            "ExposedPorts": {"8000/tcp": {}, "1935/tcp": {}},
            "Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", f"HOME={HOME}",
                    "LANG=C.UTF-8"],
            # The launcher execs the JVM: it is the container's process 1 and gets SIGTERM and SIGHUP itself.
            "Entrypoint": ["/usr/bin/groovecast"],
            "Cmd": ["run", "/station/station.groovy"],
            "Volumes": {"/station": {}, "/media": {}},
            "WorkingDir": HOME,
            "StopSignal": "SIGTERM",
            # Docker's field, not OCI's: Docker (docker load) and Podman (for an image it loads in
            # Docker's format) run it; other runtimes take the compose file's or their own probe.
            "Healthcheck": {"Test": ["CMD", "/usr/local/bin/groovecast-health"], "Interval": 30 * ns,
                            "Timeout": 5 * ns, "StartPeriod": 60 * ns, "Retries": 3},
            "Labels": {
                "org.opencontainers.image.title": "Groovecast",
                "org.opencontainers.image.description": "A Groovecast station: the default one, or /station/station.groovy",
                "org.opencontainers.image.version": version,
                "org.opencontainers.image.created": created_text,
                "org.opencontainers.image.base.name": "debian:" + open("/etc/debian_version").read().strip(),
            },
        },
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + w[2] for w in written]},
        "history": [{"created": created_text, "created_by": f"groovecast build-image.py: {layer.name}"}
                    for layer in layers],
    }
    config_digest = _blob(blobs, config)
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                   "digest": "sha256:" + config_digest[0], "size": config_digest[1]},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                    "digest": "sha256:" + w[0], "size": w[1]} for w in written],
    }
    manifest_digest = _blob(blobs, manifest)
    tag = f"groovecast:{version}"
    index = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [{"mediaType": manifest["mediaType"], "digest": "sha256:" + manifest_digest[0],
                       "size": manifest_digest[1], "platform": {"architecture": "amd64", "os": "linux"},
                       "annotations": {"io.containerd.image.name": "docker.io/library/" + tag,
                                       "org.opencontainers.image.ref.name": version}}],
    }
    _json(os.path.join(layout, "index.json"), index)
    _json(os.path.join(layout, "oci-layout"), {"imageLayoutVersion": "1.0.0"})
    # Docker's own archive index (docker load before Docker 25 reads only this).
    _json(os.path.join(layout, "manifest.json"), [{
        "Config": "blobs/sha256/" + config_digest[0], "RepoTags": [tag],
        "Layers": ["blobs/sha256/" + w[0] for w in written]}])

    archive = os.path.join(out_dir, f"groovecast-{version}-image-amd64.tar")
    with tarfile.open(archive + ".tmp", "w", format=tarfile.PAX_FORMAT) as tar:
        for top, dirs, files in os.walk(layout):
            dirs.sort()
            for name in sorted(dirs + files):
                path = os.path.join(top, name)
                info = tar.gettarinfo(path, os.path.relpath(path, layout))
                info.mtime, info.uid, info.gid, info.uname, info.gname = epoch, 0, 0, "", ""
                info.mode = 0o755 if info.isdir() else 0o644
                if info.isdir():
                    tar.addfile(info)
                else:
                    with open(path, "rb") as f:
                        tar.addfile(info, f)
    os.replace(archive + ".tmp", archive)
    print(f"{archive}: {os.path.getsize(archive)} bytes, {tag}, layers "
          + ", ".join(f"{layer.name} {w[1]}" for layer, w in zip(layers, written)))


def _json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, sort_keys=True, separators=(",", ":"))


def _blob(blobs, value):
    data = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(blobs, digest), "wb") as f:
        f.write(data)
    return digest, len(data)


if __name__ == "__main__":
    main()
