#!/usr/bin/env python3
"""Measurement helpers for bench/rtmp/run.sh (standard library only).

  stats.py tree PID                     the PID and its descendants, comma-separated
  stats.py snap OUT.json RUN_DIR PID    a snapshot: wall time, the relay tree's CPU and RSS, the
                                        clients' CPU, /proc/stat, each ffmpeg's last progress block
  stats.py jfr JFR_BIN REC.jfr RUN_DIR OUT.json
                                        allocation over RUN_DIR's window from a JFR recording
  stats.py quiet MAX_S PCT              waits up to MAX_S seconds for a second in which the whole
                                        machine is busy under PCT % of one core; prints what it saw
  stats.py steady RUN_DIR MIN_S MAX_S   waits MIN_S, then until every player has received at real-time
                                        speed (no faster than 1.05x, i.e. done catching up after the
                                        probe) for 3 s, at most MAX_S in all
  stats.py meta OUT.json KEY=VALUE...   the run's parameters (numbers stay numbers)
  stats.py row RUN_DIR OUT.json         one result row from RUN_DIR's snapshots and counters
  stats.py table ROW.json...            the results table and the groovecast / nginx ratios
"""
import datetime
import json
import os
import statistics
import subprocess
import sys

TCK = os.sysconf("SC_CLK_TCK")


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


# ---------------------------------------------------------------- processes

def proc_stat(pid):
    """(ppid, utime, stime) in clock ticks, or None when the process is gone."""
    s = read(f"/proc/{pid}/stat")
    if s is None:
        return None
    rest = s[s.rindex(")") + 2:].split()  # after "pid (comm) "
    # rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15
    return int(rest[1]), int(rest[11]), int(rest[12])


def rss_kb(pid):
    s = read(f"/proc/{pid}/status", "")
    for line in s.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def comm(pid):
    return (read(f"/proc/{pid}/comm", "?") or "?").strip()


def ksoftirqd():
    """The per-CPU kernel threads that run network softirqs the kernel deferred."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit() and comm(d).startswith("ksoftirqd/"):
            out.append(int(d))
    return out


def tree(root):
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = proc_stat(int(d))
            if st:
                children.setdefault(st[0], []).append(int(d))
    out, todo = [], [int(root)]
    while todo:
        p = todo.pop(0)
        if proc_stat(p) is None:
            continue
        out.append(p)
        todo.extend(sorted(children.get(p, [])))
    return out


def cpu_of(pids):
    res = {}
    for p in pids:
        st = proc_stat(p)
        if st:
            res[str(p)] = {"utime": st[1], "stime": st[2]}
    return res


def task_ns(pids):
    """Each thread's run time in ns (the first field of /proc/PID/task/TID/schedstat)."""
    res = {}
    for p in pids:
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            s = read(f"/proc/{p}/task/{t}/schedstat")
            if s:
                res[t] = int(s.split()[0])
    return res


def proc_stat_cpu():
    # "cpu  user nice system idle iowait irq softirq steal ..." in USER_HZ
    f = read("/proc/stat").splitlines()[0].split()[1:]
    v = [int(x) for x in f]
    return {"idle": v[3] + v[4], "steal": v[7] if len(v) > 7 else 0, "ncpu": os.cpu_count()}


def last_progress(path):
    """The last complete -progress block of an ffmpeg: frame, out_time_us, fps."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 4096))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    end = text.rfind("progress=")
    if end < 0:
        return None
    start = text.rfind("progress=", 0, end)
    block = text[start:end] if start >= 0 else text[:end]
    kv = {}
    for line in block.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            kv[k.strip()] = v.strip()
    try:
        return {"frame": int(kv["frame"]), "out_time_us": int(kv.get("out_time_us", "0") or 0)
                if kv.get("out_time_us", "N/A") != "N/A" else 0,
                "fps": float(kv.get("fps", "0") or 0)}
    except (KeyError, ValueError):
        return None


def pids_file(path):
    s = read(path, "")
    return [int(x) for x in s.split()]


def snap(out, run_dir, root):
    relay = tree(root)
    pubs = pids_file(os.path.join(run_dir, "publishers.pids"))
    players = pids_file(os.path.join(run_dir, "players.pids"))
    prog = {}
    pdir = os.path.join(run_dir, "progress")
    for name in sorted(os.listdir(pdir)) if os.path.isdir(pdir) else []:
        prog[name] = last_progress(os.path.join(pdir, name))
    s = {
        "t": datetime.datetime.now().timestamp(),
        "relay": cpu_of(relay),
        "relay_tasks_ns": task_ns(relay),
        "relay_rss_kb": sum(rss_kb(p) for p in relay),
        "relay_comm": {str(p): comm(p) for p in relay},
        "clients": cpu_of(pubs + players),
        "ksoftirqd": cpu_of(ksoftirqd()),
        "stat": proc_stat_cpu(),
        "progress": prog,
    }
    with open(out, "w") as f:
        json.dump(s, f)


def quiet(max_s, pct):
    import time
    max_s, pct = float(max_s), float(pct)
    start = time.monotonic()
    busy = None
    while True:
        a, ta = proc_stat_cpu(), time.monotonic()
        time.sleep(1)
        b, tb = proc_stat_cpu(), time.monotonic()
        busy = ((tb - ta) * a["ncpu"] - (b["idle"] - a["idle"]) / TCK) / (tb - ta) * 100
        if busy < pct:
            print(f"quiet: the machine was {busy:.0f}% of a core busy")
            return
        if time.monotonic() - start >= max_s:
            print(f"not quiet after {max_s:.0f}s: the machine was still {busy:.0f}% of a core busy")
            return


SPAN = 3.0


def steady(run_dir, min_s, max_s):
    import time
    min_s, max_s = float(min_s), float(max_s)
    start = time.monotonic()
    pdir = os.path.join(run_dir, "progress")
    n = len(pids_file(os.path.join(run_dir, "players.pids")))
    hist = []  # (time, {player: out_time_us})
    while True:
        now = time.monotonic()
        cur = {}
        for name in os.listdir(pdir):
            if name.startswith("play-"):
                p = last_progress(os.path.join(pdir, name))
                if p:
                    cur[name] = p["out_time_us"]
        hist.append((now, cur))
        old = [h for h in hist if now - h[0] >= SPAN]
        fast, speeds = None, []
        if old and len(cur) == n:
            t0, prev = old[-1]
            speeds = [(cur[k] - prev[k]) / 1e6 / (now - t0) if k in prev else 9.9 for k in cur]
            fast = len([v for v in speeds if v > 1.05])
            if now - start >= min_s and fast == 0:
                print(f"players steady after {now - start:.1f}s of warm-up (speed over the last {SPAN:.0f}s: "
                      f"{min(speeds):.3f}x to {max(speeds):.3f}x)")
                return
        if now - start >= max_s:
            seen = f", speed {min(speeds):.3f}x to {max(speeds):.3f}x" if speeds else ""
            print(f"players not steady after {max_s:.0f}s of warm-up ({len(cur)} of {n} reporting, "
                  f"{fast if fast is not None else '?'} still catching up{seen}); measuring anyway")
            return
        time.sleep(0.5)


# ---------------------------------------------------------------- JFR

def jfr_time(s):
    # 2026-11-30T07:53:26.763613122Z: keep microseconds for datetime, add the rest back
    date, frac = s.rstrip("Z").split(".") if "." in s else (s.rstrip("Z"), "0")
    t = datetime.datetime.fromisoformat(date).replace(tzinfo=datetime.timezone.utc).timestamp()
    return t + float("0." + frac)


def jfr_duration(s):
    # PT0.017509094S (durations of GCs are well under a minute)
    if not s or not s.startswith("PT"):
        return 0.0
    body, secs = s[2:], 0.0
    if "M" in body:
        m, body = body.split("M", 1)
        secs += 60 * float(m)
    if body.endswith("S"):
        secs += float(body[:-1])
    return secs


def jfr_events(jfr_bin, rec, types, depth=1):
    out = subprocess.run([jfr_bin, "print", "--json", "--stack-depth", str(depth), "--events",
                          ",".join(types), rec], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def own_thread(th):
    # JFR's own threads and the attach listener that started the recording are not the relay's work
    name = (th or {}).get("javaName") or ""
    return not (name.startswith("JFR ") or name == "Attach Listener")


def jfr(jfr_bin, rec, run_dir, out):
    t0 = load(os.path.join(run_dir, "snap0.json"))["t"]
    t1 = load(os.path.join(run_dir, "snap1.json"))["t"]
    res = {}
    # 1. per-thread cumulative allocation counters, sampled every second in batches
    batches = {}
    for e in jfr_events(jfr_bin, rec, ["jdk.ThreadAllocationStatistics"]):
        v = e["values"]
        if not own_thread(v["thread"]):
            continue
        batches.setdefault(jfr_time(v["startTime"]), {})[v["thread"]["javaThreadId"]] = v["allocated"]
    times = sorted(batches)
    if len(times) >= 2:
        b0 = min(times, key=lambda t: abs(t - t0))
        b1 = min(times, key=lambda t: abs(t - t1))
        if b1 > b0:
            a0, a1 = batches[b0], batches[b1]
            total = sum(v - a0.get(tid, 0) for tid, v in a1.items())
            ended = [tid for tid in a0 if tid not in a1]
            res["counters"] = {"bytes": total, "seconds": b1 - b0, "rate": total / (b1 - b0),
                               "threads": len(a1), "threads_ended": len(ended)}
    # 2. allocation samples (weights estimate the bytes allocated since the thread's last sample)
    ev = jfr_events(jfr_bin, rec, ["jdk.ObjectAllocationSample", "jdk.GarbageCollection"])
    # over the same span as the counters when there are any
    lo, hi = t0, t1
    if "counters" in res:
        lo = min(times, key=lambda t: abs(t - t0))
        hi = min(times, key=lambda t: abs(t - t1))
    weight, n, sites, gcs, pauses = 0, 0, {}, 0, 0.0
    for e in ev:
        v = e["values"]
        t = jfr_time(v["startTime"])
        if not lo < t <= hi:
            continue
        if e["type"] == "jdk.GarbageCollection":
            gcs += 1
            pauses += jfr_duration(v.get("sumOfPauses"))
            continue
        if not own_thread(v.get("eventThread")):
            continue
        weight += v["weight"]
        n += 1
        frames = (v.get("stackTrace") or {}).get("frames") or []
        where = "?"
        if frames:
            m = frames[0]["method"]
            where = f'{m["type"]["name"].replace("/", ".")}.{m["name"]}'
        cls = (v.get("objectClass") or {}).get("name", "?").replace("/", ".")
        key = f"{cls} in {where}"
        sites[key] = sites.get(key, 0) + v["weight"]
    res["samples"] = {"bytes": weight, "count": n, "seconds": hi - lo, "rate": weight / (hi - lo),
                      "top": [(k, v / weight) for k, v in sorted(sites.items(), key=lambda kv: -kv[1])[:5]]}
    res["gc"] = {"count": gcs, "pause_ms": pauses * 1000}
    with open(out, "w") as f:
        json.dump(res, f)


# ---------------------------------------------------------------- one row

def load(path, default=None):
    s = read(path)
    return json.loads(s) if s else default


def ticks_delta(a, b):
    """utime and stime deltas over the processes present in both snapshots; how many ended."""
    du = ds = 0
    for pid, x in b.items():
        if pid in a:
            du += x["utime"] - a[pid]["utime"]
            ds += x["stime"] - a[pid]["stime"]
    return du, ds, len([p for p in a if p not in b])


def perf_count(path):
    # perf stat -x, : "count,unit,event,runtime,percent,..."; "<not counted>" when nothing ran
    for line in (read(path, "") or "").splitlines():
        parts = line.split(",")
        if len(parts) > 2 and parts[2].startswith("raw_syscalls:sys_enter"):
            return 0 if parts[0].startswith("<not") else int(parts[0])
    return None


def strace_count(path):
    # strace -c summary: the "total" line's calls column
    for line in (read(path, "") or "").splitlines():
        parts = line.split()
        if parts and parts[-1] == "total":
            nums = [p for p in parts[:-1]]
            # % time, seconds, usecs/call, calls, errors(optional), "total"
            return int(nums[3]) if len(nums) >= 4 else None
    return None


def row(run_dir, out):
    meta = load(os.path.join(run_dir, "meta.json"))
    s0 = load(os.path.join(run_dir, "snap0.json"))
    s1 = load(os.path.join(run_dir, "snap1.json"))
    dt = s1["t"] - s0["t"]
    r = dict(meta)
    r["seconds_measured"] = dt
    du, ds, ended = ticks_delta(s0["relay"], s1["relay"])
    r["cpu_stat_pct"] = (du + ds) / TCK / dt * 100
    # the same CPU in ns from each thread's schedstat (/proc/PID/stat counts in 10 ms ticks, too
    # coarse for a light load); a thread that ended in the window takes its share with it, and
    # then the process-wide /proc/PID/stat figure, which keeps dead threads' time, is used
    t0n, t1n = s0.get("relay_tasks_ns", {}), s1.get("relay_tasks_ns", {})
    r["relay_threads_ended"] = len([t for t in t0n if t not in t1n])
    sched_ns = sum(v - t0n.get(t, 0) for t, v in t1n.items())
    r["cpu_schedstat_pct"] = sched_ns / 1e9 / dt * 100 if t1n else None
    if r["cpu_schedstat_pct"] is not None and not r["relay_threads_ended"] and not ended:
        r["cpu_pct"], r["cpu_source"] = r["cpu_schedstat_pct"], "schedstat"
    else:
        r["cpu_pct"], r["cpu_source"] = r["cpu_stat_pct"], "stat"
    r["cpu_user_pct"] = du / TCK / dt * 100
    r["cpu_sys_pct"] = ds / TCK / dt * 100
    r["relay_procs"] = [f'{p} {c}' for p, c in s1["relay_comm"].items()]
    r["relay_procs_ended"] = ended
    r["rss_mb"] = s1["relay_rss_kb"] / 1024
    cu, cs, _ = ticks_delta(s0["clients"], s1["clients"])
    r["clients_cpu_pct"] = (cu + cs) / TCK / dt * 100
    ncpu = s1["stat"]["ncpu"]
    idle = (s1["stat"]["idle"] - s0["stat"]["idle"]) / TCK
    r["machine_busy_pct"] = (dt * ncpu - idle) / dt * 100
    r["steal_pct"] = (s1["stat"]["steal"] - s0["stat"]["steal"]) / TCK / dt * 100
    ku, ks, _ = ticks_delta(s0.get("ksoftirqd", {}), s1.get("ksoftirqd", {}))
    r["ksoftirqd_cpu_pct"] = (ku + ks) / TCK / dt * 100
    r["others_cpu_pct"] = (r["machine_busy_pct"] - r["cpu_pct"] - r["clients_cpu_pct"]
                           - r["ksoftirqd_cpu_pct"])
    r["ncpu"] = ncpu

    # syscalls
    sc = meta.get("syscalls")
    if sc == "perf":
        c = perf_count(os.path.join(run_dir, "perf.txt"))
        r["syscalls_per_s"] = None if c is None else c / meta["perf_seconds"]
    elif sc == "strace":
        c = strace_count(os.path.join(run_dir, "strace.txt"))
        r["syscalls_per_s"] = None if c is None else c / meta["strace_seconds"]
    else:
        r["syscalls_per_s"] = None

    # ffmpeg clients: frames received (players) or sent (publishers) over the window
    def rates(prefix):
        out = {}
        for name, p1 in s1["progress"].items():
            if not name.startswith(prefix):
                continue
            p0 = s0["progress"].get(name)
            if not p0 or not p1:
                out[name] = None
                continue
            out[name] = {"fps": (p1["frame"] - p0["frame"]) / dt,
                         "speed": (p1["out_time_us"] - p0["out_time_us"]) / 1e6 / dt,
                         "ffmpeg_fps": p1["fps"]}
        return out

    players, pubs = rates("play-"), rates("pub-")
    r["players_expected"] = meta["publishers"] * meta["players"]
    r["players_reporting"] = len([v for v in players.values() if v])
    ok = [v for v in players.values() if v]
    fps = sorted(v["fps"] for v in ok)
    r["players_fps_min"] = fps[0] if fps else None
    r["players_fps_median"] = statistics.median(fps) if fps else None
    r["players_ffmpeg_fps_min"] = min(v["ffmpeg_fps"] for v in ok) if ok else None
    r["players_speed_min"] = min(v["speed"] for v in ok) if ok else None
    r["players_below_min_fps"] = len([f for f in fps if f < meta["min_fps"]]) + \
        (r["players_expected"] - len(fps))
    pfps = sorted(v["fps"] for v in pubs.values() if v)
    r["publishers_fps_min"] = pfps[0] if pfps else None
    r["publishers_reporting"] = len(pfps)
    r["players_detail"] = players

    # relayed messages: one audio or video message delivered to one player
    v_rate, a_rate = meta["clip_video_pps"], meta["clip_audio_pps"]
    r["msgs_per_s_expected"] = (v_rate + a_rate) * r["players_expected"]
    r["video_frames_per_s_received"] = sum(fps)
    r["msgs_per_s"] = sum(fps) * (v_rate + a_rate) / v_rate

    a = load(os.path.join(run_dir, "alloc.json"))
    if a:
        best = a.get("counters") or a.get("samples")
        r["alloc_source"] = "thread counters" if "counters" in a else "samples"
        r["alloc_mb_per_s"] = best["rate"] / 1e6
        r["alloc_samples_mb_per_s"] = a["samples"]["rate"] / 1e6
        r["alloc_bytes_per_msg"] = best["rate"] / r["msgs_per_s"] if r["msgs_per_s"] else None
        r["alloc_top"] = a["samples"]["top"]
        r["gc"] = a["gc"]
        if "counters" in a:
            r["alloc_threads_ended"] = a["counters"]["threads_ended"]
    with open(out, "w") as f:
        json.dump(r, f, indent=1)


# ---------------------------------------------------------------- table

def fmt(v, spec, none="-"):
    return none if v is None else format(v, spec)


def table(paths):
    rows = [load(p) for p in paths]
    hdr = ["case", "relay", "round", "CPU %core", "usr/sys", "syscalls/s", "RSS MB", "alloc MB/s", "B/msg",
           "msgs/s out", "players fps min/med", "<min", "pub fps min", "clients %core", "ksoftirqd %core",
           "others %core"]
    lines = []
    for r in rows:
        lines.append([
            f'{r["publishers"]}x{r["players"]}', r["relay"], str(r.get("round", 1)), fmt(r["cpu_pct"], ".2f"),
            f'{r["cpu_user_pct"]:.1f}/{r["cpu_sys_pct"]:.1f}', fmt(r["syscalls_per_s"], ",.0f"),
            fmt(r["rss_mb"], ".1f"), fmt(r.get("alloc_mb_per_s"), ".2f"),
            fmt(r.get("alloc_bytes_per_msg"), ",.0f"), fmt(r["msgs_per_s"], ",.0f"),
            f'{fmt(r["players_fps_min"], ".2f")}/{fmt(r["players_fps_median"], ".2f")}',
            f'{r["players_below_min_fps"]}/{r["players_expected"]}',
            fmt(r["publishers_fps_min"], ".2f"), fmt(r["clients_cpu_pct"], ".1f"),
            fmt(r.get("ksoftirqd_cpu_pct"), ".1f"),
            fmt(r["others_cpu_pct"], ".1f")])
    w = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(hdr)]
    print("  ".join(h.rjust(w[i]) if i > 1 else h.ljust(w[i]) for i, h in enumerate(hdr)))
    for l in lines:
        print("  ".join(c.rjust(w[i]) if i > 1 else c.ljust(w[i]) for i, c in enumerate(l)))
    print()
    for r in rows:
        notes = []
        if r["players_below_min_fps"]:
            notes.append(f'{r["players_below_min_fps"]} of {r["players_expected"]} players under '
                         f'{r["min_fps"]} fps (or not reporting)')
        if r["publishers_fps_min"] is not None and r["publishers_fps_min"] < r["min_fps"]:
            notes.append(f'a publisher sent only {r["publishers_fps_min"]:.2f} fps: the machine did not '
                         f'keep up, players\' fps is not only the relay\'s doing')
        if r["others_cpu_pct"] > 10:
            notes.append(f'other processes used {r["others_cpu_pct"]:.0f}% of a core: noisy machine')
        if r["machine_busy_pct"] > 0.9 * r["ncpu"] * 100:
            notes.append(f'the machine was {r["machine_busy_pct"]:.0f}% of a core busy out of {r["ncpu"] * 100}: '
                         f'saturated, the relay competed for CPU')
        if r["steal_pct"] > 5:
            notes.append(f'steal {r["steal_pct"]:.0f}% of a core')
        if r["relay_procs_ended"] or r["relay_threads_ended"]:
            notes.append(f'{r["relay_procs_ended"]} relay process(es) and {r["relay_threads_ended"]} '
                         f'thread(s) ended in the window')
        notes.append(f'CPU from {r["cpu_source"]} (utime+stime {r["cpu_stat_pct"]:.2f}%, schedstat '
                     f'{fmt(r["cpu_schedstat_pct"], ".2f")}%)')
        if r.get("relay_exit") not in (None, 0):
            notes.append(f'relay exit status {r["relay_exit"]} after SIGTERM')
        if r.get("alloc_top"):
            top = "; ".join(f'{k} {share * 100:.0f}%' for k, share in r["alloc_top"][:3])
            pub_msgs = r["publishers"] * (r["clip_video_pps"] + r["clip_audio_pps"])
            notes.append(f'alloc {r["alloc_mb_per_s"]:.2f} MB/s by {r["alloc_source"]} '
                         f'({r["alloc_mb_per_s"] * 1e6 / pub_msgs:,.0f} B per published message), '
                         f'by samples {r["alloc_samples_mb_per_s"]:.2f} MB/s, top sites: {top}')
        if r.get("gc"):
            notes.append(f'GCs in window {r["gc"]["count"]} ({r["gc"]["pause_ms"]:.1f} ms paused)')
        notes.append(f'ffmpeg fps min {fmt(r["players_ffmpeg_fps_min"], ".2f")}, '
                     f'speed min {fmt(r["players_speed_min"], ".3f")}x, '
                     f'procs [{", ".join(r["relay_procs"])}]')
        print(f'{r["publishers"]}x{r["players"]} {r["relay"]} (round {r.get("round", 1)}): ' + "; ".join(notes))
    print()
    by, allr = {}, {}
    for r in rows:
        case = f'{r["publishers"]}x{r["players"]}'
        allr.setdefault(case, {}).setdefault(r["relay"], []).append(r)
        best = by.setdefault(case, {}).get(r["relay"])
        if best is None or r["others_cpu_pct"] < best["others_cpu_pct"]:
            by[case][r["relay"]] = r  # the quietest round
    for case, rel in by.items():
        g, n = rel.get("groovecast"), rel.get("nginx")
        for name, rs in allr[case].items():
            if len(rs) > 1:
                by_round = ", ".join(format(x["cpu_pct"], ".2f") for x in rs)
                print(f'{case} {name}: CPU %core by round {by_round} '
                      f'(median {statistics.median(x["cpu_pct"] for x in rs):.2f}); quietest round '
                      f'{rel[name].get("round", 1)} ({rel[name]["others_cpu_pct"]:.0f}% of a core to others)')
        if g and n and len(allr[case]["groovecast"]) > 1:
            med = (statistics.median(x["cpu_pct"] for x in allr[case]["groovecast"]) /
                   statistics.median(x["cpu_pct"] for x in allr[case]["nginx"]))
            print(f'{case}: groovecast / nginx CPU, medians over the rounds = {med:.2f}')
        if g and n:
            cpu = g["cpu_pct"] / n["cpu_pct"] if n["cpu_pct"] else float("inf")
            sc = (g["syscalls_per_s"] / n["syscalls_per_s"]
                  if g["syscalls_per_s"] and n["syscalls_per_s"] else None)
            which = " (quietest rounds)" if len(allr[case]["groovecast"]) > 1 else ""
            print(f'{case}: groovecast / nginx CPU{which} = {cpu:.2f}  (syscalls/s {fmt(sc, ".2f")}, '
                  f'players >= {g["min_fps"]} fps: groovecast {g["players_expected"] - g["players_below_min_fps"]}'
                  f'/{g["players_expected"]}, nginx {n["players_expected"] - n["players_below_min_fps"]}'
                  f'/{n["players_expected"]})')
        else:
            for name, r in rel.items():
                ok = r["players_expected"] - r["players_below_min_fps"]
                print(f'{case}: {name} only, players >= {r["min_fps"]} fps: {ok}/{r["players_expected"]}')


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "tree":
        print(",".join(str(p) for p in tree(argv[2])))
    elif cmd == "snap":
        snap(argv[2], argv[3], argv[4])
    elif cmd == "jfr":
        jfr(*argv[2:6])
    elif cmd == "steady":
        steady(argv[2], argv[3], argv[4])
    elif cmd == "quiet":
        quiet(argv[2], argv[3])
    elif cmd == "meta":
        m = {}
        for kv in argv[3:]:
            k, v = kv.split("=", 1)
            for conv in (int, float):
                try:
                    v = conv(v)
                    break
                except ValueError:
                    pass
            m[k] = v
        with open(argv[2], "w") as f:
            json.dump(m, f, indent=1)
    elif cmd == "row":
        row(argv[2], argv[3])
    elif cmd == "table":
        table(argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
