package org.groovecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.api.Source;
import org.groovecast.bench.AudioCeiling.LiquidsoapProcess;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * How long a station with many playlists takes to get every one of them ready: N {@code
 * playlist(dir, prefetch: 3, reloadMode: 'rounds')} behind one fallback into {@code output.dummy},
 * in real time. The clock starts before {@link Station#start} (which itself waits up to 10 s for
 * the sources' first tracks) and stops when every playlist source of the graph says {@code
 * isReady()}, polled every 20 ms. Then the same with Liquidsoap 2.1.3, whose script logs the moment
 * every playlist is ready.
 */
public final class ManyPlaylists {
    private static final Pattern LS_READY = Pattern.compile("all ready after ([0-9.]+) s");

    private static final String USAGE =
            """
            usage: ManyPlaylists [--counts=160,640,1280] [--files=50] [--timeout=120] [--idle=5]
                                 [--engines=groovecast,liquidsoap] [--media=DIR] [--plugins=DIR] [--set key=value ...]
              --counts   playlist counts, each a station of its own
              --files    mp3 files (1.5 s each) in the playlists' directory
              --timeout  seconds to wait for every playlist to be ready
              --idle     seconds of CPU measured once all are ready (the station's idle cost); 0 to skip
              --engines  which to measure, in this order
              --media    where the test media are made (once) with the ffmpeg CLI
              --plugins  operator plugins directory (default bench/target/plugins)
              --set      extra Groovecast setting, e.g. --set scheduler.blockingTasks=8""";

    record Result(
            String engine,
            int n,
            double loadSeconds,
            double readySeconds,
            double cpuSeconds,
            double idleMsPerSec,
            double rssMb,
            int fds,
            int threads,
            String note) {}

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "counts",
                        "160,640,1280",
                        "files",
                        "50",
                        "timeout",
                        "120",
                        "idle",
                        "5",
                        "engines",
                        "groovecast,liquidsoap",
                        "media",
                        MediaSupport.DEFAULT_MEDIA);
        List<Integer> counts = opts.ints("counts");
        int fileCount = Integer.parseInt(opts.string("files"));
        double timeout = opts.seconds("timeout");
        double idle = opts.seconds("idle");

        Map<String, String> settings = new HashMap<>();
        settings.put("clock.reportEvery", "0");
        settings.putAll(opts.settings());

        System.out.println(BenchSupport.header("ManyPlaylists"));
        Path media = Path.of(opts.string("media"));
        Path dir = playlistDir(media, fileCount);
        System.out.printf(
                Locale.ROOT,
                "playlist directory %s: %d mp3 files of 1.5 s; counts %s; Groovecast settings %s%n%n",
                dir,
                fileCount,
                counts,
                settings);
        System.out.println(header());
        System.out.flush();

        List<Result> results = new ArrayList<>();
        for (String engine : opts.list("engines")) {
            switch (engine) {
                case "groovecast" -> {
                    try (OperatorPlugins plugins =
                            MediaSupport.loadPlugins(
                                    BenchSupport.pluginsDir(opts.string("plugins")))) {
                        Path script = MediaSupport.scriptsDir().resolve("many-playlists.groovy");
                        for (int n : counts) {
                            Result r = groovecast(plugins, script, settings, dir, n, timeout, idle);
                            results.add(r);
                            System.out.println(row(r));
                            System.out.flush();
                            BenchSupport.settle();
                        }
                    }
                }
                case "liquidsoap" -> {
                    String version = AudioCeiling.liquidsoapVersion();
                    if (version == null) {
                        System.out.println(
                                "liquidsoap: not installed (apt-get install -y liquidsoap); skipped");
                        continue;
                    }
                    Path script = AudioCeiling.liquidsoapDir().resolve("many-playlists.liq");
                    for (int n : counts) {
                        Result r = liquidsoap(script, dir, n, timeout, idle);
                        results.add(r);
                        System.out.println(row(r));
                        System.out.flush();
                        BenchSupport.settle();
                    }
                }
                default -> throw new IllegalArgumentException("unknown engine " + engine);
            }
        }
        System.out.println();
        System.out.println(
                "load s: Groovecast Station.load (compile + build the graph); Liquidsoap: process start to its "
                        + "script's first line (stdlib).");
        System.out.println(
                "ready s: Groovecast from Station.start to every playlist isReady(); Liquidsoap from its "
                        + "script's start to every source.is_ready.");
        System.out.println(
                "cpu s: CPU over load + ready (Liquidsoap: the whole process up to ready).");
        for (int n : counts) {
            Result g = find(results, "groovecast", n);
            Result l = find(results, "liquidsoap", n);
            if (g != null && l != null && g.readySeconds() > 0 && l.readySeconds() > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "N=%d: ready time Liquidsoap/Groovecast %.2f, CPU Liquidsoap/Groovecast %.2f%n",
                        n,
                        l.readySeconds() / g.readySeconds(),
                        l.cpuSeconds() / g.cpuSeconds());
            }
        }
        System.exit(0);
    }

    private static Result find(List<Result> results, String engine, int n) {
        for (Result r : results) {
            if (r.engine().equals(engine) && r.n() == n) return r;
        }
        return null;
    }

    /**
     * The first {@code count} mp3 files of the short-file set, copied into a directory of their
     * own.
     */
    private static Path playlistDir(Path media, int count) throws IOException {
        Path dir = media.resolve("playlist-" + count);
        if (MediaSupport.countFiles(dir, ".mp3") == count) return dir;
        List<Path> sources = MediaSupport.shortFiles(media.resolve("short"), count * 2);
        MediaSupport.deleteTree(dir);
        Files.createDirectories(dir);
        int k = 0;
        for (Path p : sources) {
            if (k < count && p.toString().endsWith(".mp3")) {
                Files.copy(p, dir.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                k++;
            }
        }
        return dir;
    }

    private static String header() {
        return String.format(
                "%-11s %5s %7s %8s %7s %11s %8s %6s %8s  %s%n%s",
                "engine",
                "N",
                "load s",
                "ready s",
                "cpu s",
                "idle ms/s",
                "RSS MB",
                "fds",
                "threads",
                "note",
                "-".repeat(96));
    }

    private static String row(Result r) {
        return String.format(
                Locale.ROOT,
                "%-11s %5d %7.2f %8.2f %7.2f %11.1f %8.0f %6d %8d  %s",
                r.engine(),
                r.n(),
                r.loadSeconds(),
                r.readySeconds(),
                r.cpuSeconds(),
                r.idleMsPerSec(),
                r.rssMb(),
                r.fds(),
                r.threads(),
                r.note());
    }

    private static Result groovecast(
            OperatorPlugins plugins,
            Path script,
            Map<String, String> settings,
            Path dir,
            int n,
            double timeout,
            double idle)
            throws InterruptedException {
        long cpu0 = BenchSupport.processCpuNanos();
        long tl = System.nanoTime();
        Station station =
                Station.load(
                        script,
                        plugins.functions(),
                        settings,
                        Map.of("PLAYLISTS", String.valueOf(n), "DIR", dir.toString()));
        double load = (System.nanoTime() - tl) / 1e9;
        List<Source> lists = new ArrayList<>();
        for (Source s : station.graph().sources()) {
            if (s.kind().equals("playlist")) lists.add(s);
        }
        String note = "";
        long t0 = System.nanoTime();
        station.start(null);
        double startReturned = (System.nanoTime() - t0) / 1e9;
        try {
            long end = t0 + (long) (timeout * 1e9);
            int ready = 0;
            while (true) {
                ready = 0;
                for (Source s : lists) {
                    if (s.isReady()) ready++;
                }
                if (ready == lists.size() || System.nanoTime() > end) break;
                Thread.sleep(20);
            }
            double readySecs = (System.nanoTime() - t0) / 1e9;
            long cpu1 = BenchSupport.processCpuNanos();
            note = String.format(Locale.ROOT, "start() returned after %.2f s", startReturned);
            if (ready < lists.size()) {
                note +=
                        String.format(
                                Locale.ROOT,
                                "; only %d/%d ready after %.0f s",
                                ready,
                                lists.size(),
                                timeout);
                readySecs = -1;
            }
            if (lists.size() != n) note += "; " + lists.size() + " playlist sources in the graph";
            double idleMs = Double.NaN;
            if (idle > 0) {
                long c0 = BenchSupport.processCpuNanos();
                long w0 = System.nanoTime();
                BenchSupport.sleepSeconds(idle);
                idleMs =
                        (BenchSupport.processCpuNanos() - c0)
                                / 1e6
                                / ((System.nanoTime() - w0) / 1e9);
            }
            return new Result(
                    "groovecast",
                    n,
                    load,
                    readySecs,
                    (cpu1 - cpu0) / 1e9,
                    idleMs,
                    MediaSupport.statusKb("VmRSS") / 1024.0,
                    MediaSupport.openFds(),
                    MediaSupport.nativeThreads(),
                    note);
        } finally {
            station.stop();
            station.awaitStopped(Duration.ofSeconds(30));
        }
    }

    private static Result liquidsoap(Path script, Path dir, int n, double timeout, double idle)
            throws IOException, InterruptedException {
        Map<String, String> env =
                Map.of(
                        "PLAYLISTS",
                        String.valueOf(n),
                        "PLAYLIST_DIR",
                        dir.toString(),
                        "LS_MAX_RUNTIME",
                        String.valueOf((int) Math.ceil(timeout + idle + 60)));
        long t0 = System.nanoTime();
        try (LiquidsoapProcess ls = new LiquidsoapProcess(script, env)) {
            long pid = ls.process.pid();
            long first = ls.await("playlists=" + n, 60);
            if (first < 0) {
                return new Result(
                        "liquidsoap",
                        n,
                        -1,
                        -1,
                        Double.NaN,
                        Double.NaN,
                        0,
                        0,
                        0,
                        "did not start: " + ls.tail(5).replace('\n', '|'));
            }
            double load = (first - t0) / 1e9;
            long at = ls.await("all ready after", timeout);
            long cpu = MediaSupport.processCpuNanos(pid);
            double rss =
                    MediaSupport.statusKb(Path.of("/proc/" + pid + "/status"), "VmRSS") / 1024.0;
            int threads = countDir(Path.of("/proc/" + pid + "/task"));
            int fds = countDir(Path.of("/proc/" + pid + "/fd"));
            if (at < 0) {
                return new Result(
                        "liquidsoap",
                        n,
                        load,
                        -1,
                        cpu / 1e9,
                        Double.NaN,
                        rss,
                        fds,
                        threads,
                        "not all ready after " + timeout + " s: " + ls.tail(2).replace('\n', '|'));
            }
            double ready = Double.NaN;
            for (LiquidsoapProcess.Line l : ls.lines) {
                Matcher m = LS_READY.matcher(l.text());
                if (m.find()) ready = Double.parseDouble(m.group(1));
            }
            double idleMs = Double.NaN;
            if (idle > 0) {
                long c0 = MediaSupport.processCpuNanos(pid);
                long w0 = System.nanoTime();
                BenchSupport.sleepSeconds(idle);
                idleMs =
                        (MediaSupport.processCpuNanos(pid) - c0)
                                / 1e6
                                / ((System.nanoTime() - w0) / 1e9);
            }
            return new Result(
                    "liquidsoap",
                    n,
                    load,
                    ready,
                    cpu / 1e9,
                    idleMs,
                    rss,
                    fds,
                    threads,
                    String.format(
                            Locale.ROOT,
                            "process start to ready %.2f s (seen here)",
                            (at - t0) / 1e9));
        }
    }

    private static int countDir(Path dir) {
        try (var s = Files.list(dir)) {
            return (int) s.count();
        } catch (IOException e) {
            return -1;
        }
    }
}
