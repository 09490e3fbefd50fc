#!/usr/bin/env python3
"""A stand-in for AzuraCast's internal API, as azuracast.liq calls it: POST
/api/internal/<station>/liquidsoap/<command> with the X-Liquidsoap-Api-Key header and a JSON
body. Answers in the shapes of AzuraCast's Command classes (backend/src/Radio/Backend/Liquidsoap/
Command/*): nextsong {"uri": "annotate:...:media:<path>"}, auth {"allow", "username",
"display_name"}, cp {"uri", "isTemp"}, the others a plain true. Every call is appended to the log
file as one JSON line: {"at", "command", "key_ok", "body", "status"}.

    api-standin.py PORT_FILE LOG_FILE KEY

binds 127.0.0.1 on a free port and writes that port to PORT_FILE once listening."""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port_file, log_file, key = sys.argv[1], sys.argv[2], sys.argv[3]
lock = threading.Lock()
# AutoDJ's queue: one annotated song per nextsong call, as AnnotateNextSong::buildAnnotations
# writes them (annotate:key="value",...:media:path), cycling.
NEXT = [("AutoDJ Artist", "AutoDJ Song %d" % i, "autodj%d.mp3" % i) for i in (1, 2, 3)]
counter = [0]
# DJ accounts (DjAuthCommand: streamer username/password; "source" with the source password).
DJS = {"dj1": ("secret", "DJ One")}


def next_song():
    with lock:
        i = counter[0]
        counter[0] += 1
    artist, title, path = NEXT[i % len(NEXT)]
    annotations = ",".join([
        'title="%s"' % title, 'artist="%s"' % artist, 'duration="20.00"',
        'song_id="song%d"' % (i % len(NEXT) + 1), 'media_id="%d"' % (i % len(NEXT) + 1),
        'playlist_id="1"', 'sq_id="%d"' % (100 + i),
    ])
    return {"uri": "annotate:%s:media:%s" % (annotations, path)}


def auth(body):
    user, password = body.get("user"), body.get("password") or ""
    if user in (None, "", "source"):
        for sep in (",", ":"):
            if sep in password:
                user, password = password.split(sep, 1)
                break
    account = DJS.get(user)
    if account is None:
        return {"allow": False}
    return {"allow": account[0] == password, "username": user, "display_name": account[1]}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        command = self.path.rstrip("/").rsplit("/", 1)[-1]
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            body = {"unparsed": raw}
        key_ok = self.headers.get("X-Liquidsoap-Api-Key") == key
        if not key_ok:
            status, answer = 403, {"error": "bad key"}
        elif command == "nextsong":
            status, answer = 200, next_song()
        elif command == "auth":
            status, answer = 200, auth(body)
        elif command == "cp":
            status, answer = 200, {"uri": body.get("uri", ""), "isTemp": False}
        elif command in ("feedback", "djon", "djoff", "savecache"):
            status, answer = 200, True
        else:
            status, answer = 404, {"error": "unknown command"}
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        with lock, open(log_file, "a") as f:
            f.write(json.dumps({"at": time.time(), "command": command, "key_ok": key_ok,
                                "body": body, "answer": answer, "status": status}) + "\n")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
