package org.groovecast.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.groovecast.api.ClockInfo;
import org.groovecast.bench.BenchSupport.MachineSample;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * How many real-time streams fit on this machine: Groovecast with N copies of the shared-encode
 * shape (one decode, three encodes, HLS with two renditions and three copied files; a clock each),
 * then, in the same run, Liquidsoap 2.1.3 with the anchors' {@code streams.liq} (one decode and
 * one MP3 128k encode per stream, to a file; a clock each), and the ffmpeg command line's own CPU
 * cost for the same work. N is raised by doubling from {@code --start} until a step fails, then
 * bisected down to {@code --resolution}.
 */
public final class AudioCeiling {
    static final double TARGET_RATIO = 2.0;
    /** A Liquidsoap clock behind by a second or more (or late 100 rounds running) logs this. */
    private static final Pattern LS_CATCHUP = Pattern.compile("We must catchup|Too much latency");

    private static final String USAGE = """
            usage: AudioCeiling [--engines=ffmpeg,groovecast,liquidsoap] [--shapes=shared,mp3] [--warmup=10]
                                [--window=30] [--start=8]
                                [--resolution=4] [--max=256] [--counts=N,N,...] [--lsStart=8] [--lsCounts=N,...]
                                [--lagLimit=1.0] [--dutyLimit=1.0] [--abortLag=10] [--media=DIR] [--quietWait=5]
                                [--plugins=DIR] [--set key=value ...]
              --engines     which to measure, in this order
              --shapes      Groovecast stations: 'shared' (the shared-encode shape, the target's) and 'mp3'
                            (Liquidsoap's shape, like for like), each searched on its own
              --warmup      seconds each step runs before its window
              --window      seconds of each step's window; a step fails as soon as its limit is crossed
              --start       Groovecast's first N; N doubles until a step fails, then is bisected
              --resolution  the bisection stops when the failing and holding N are this close
              --max         the largest N tried
              --counts      Groovecast: try exactly these N, ascending, stopping at the first failure
              --lsStart     Liquidsoap's first N (same search)
              --lsCounts    Liquidsoap: exactly these N
              --lagLimit    Groovecast: a step fails when a clock's lag exceeds this (seconds)
              --dutyLimit   Groovecast: a step fails when a clock's duty exceeds this
              --abortLag    Groovecast: a step whose lag passes this during the warm-up fails at once,
                            without a window (0: never)
              --media       where the test media are made (once) with the ffmpeg CLI
              --quietWait   before each window, wait up to this many seconds for other processes to
                            leave the CPU alone (under 50 ms/s over half a second); 0 not to wait
              --plugins     operator plugins directory (default bench/target/plugins)
              --set         extra Groovecast setting, e.g. --set scheduler.threads=1""";

    /** One step: an engine with N streams, measured over a window. */
    record Step(String engine, int n, boolean held, int clocks, double cpuMsPerSec, double maxLag, double maxDuty,
                double windowSeconds, double othersMsPerSec, String note) {
        double perStream() {
            return cpuMsPerSec / n;
        }
    }

    private static double warmup;
    private static double window;
    private static double lagLimit;
    private static double dutyLimit;
    private static double quietWait;
    private static double abortLag;

    public static void main(String[] args) throws Exception {
        Options opts = new Options(args, USAGE,
                "engines", "ffmpeg,groovecast,liquidsoap",
                "warmup", "10",
                "window", "30",
                "start", "8",
                "shapes", "shared,mp3",
                "resolution", "4",
                "max", "256",
                "counts", "",
                "lsStart", "8",
                "lsCounts", "",
                "lagLimit", "1.0",
                "dutyLimit", "1.0",
                "media", MediaSupport.DEFAULT_MEDIA,
                "quietWait", "5",
                "abortLag", "10");
        List<String> engines = opts.list("engines");
        warmup = opts.seconds("warmup");
        window = opts.seconds("window");
        lagLimit = opts.seconds("lagLimit");
        dutyLimit = opts.seconds("dutyLimit");
        quietWait = opts.seconds("quietWait");
        abortLag = opts.seconds("abortLag");
        int resolution = Integer.parseInt(opts.string("resolution"));
        int max = Integer.parseInt(opts.string("max"));

        Map<String, String> settings = new HashMap<>();
        settings.put("clock.reportEvery", "0");
        settings.putAll(opts.settings());

        System.out.println(BenchSupport.header("AudioCeiling"));
        Path media = Path.of(opts.string("media"));
        Path in = MediaSupport.musicFile(media);
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "input %s (60 s, MP3 128k 44.1 kHz stereo, tone + pink noise); warm-up %.0f s, "
                        + "window %.0f s; Groovecast settings %s; limits: lag > %.2f s or duty > %.2f (Groovecast), "
                        + "a catch-up line (Liquidsoap)%n%n", in, warmup, window, settings, lagLimit, dutyLimit);
        System.out.flush();

        double ffMp3 = Double.NaN;
        double ffShape = Double.NaN;
        List<Step> gc = List.of();
        List<Step> gcMp3 = List.of();
        List<String> shapes = opts.list("shapes");
        List<Step> ls = List.of();
        for (String engine : engines) {
            switch (engine) {
                case "ffmpeg" -> {
                    ffMp3 = MediaSupport.ffmpegCpuPerAudioSecond(List.of("-i", in.toString(),
                            "-c:a", "libmp3lame", "-b:a", "128k", "-f", "null", "-"), 60);
                    ffShape = MediaSupport.ffmpegCpuPerAudioSecond(List.of("-i", in.toString(),
                            "-map", "0:a", "-c:a", "aac", "-b:a", "48k", "-f", "null", "-",
                            "-map", "0:a", "-c:a", "aac", "-b:a", "128k", "-f", "null", "-",
                            "-map", "0:a", "-c:a", "libmp3lame", "-b:a", "128k", "-f", "null", "-"), 60);
                    System.out.printf(Locale.ROOT, "ffmpeg CLI, decode + MP3 128k (Liquidsoap's streams): %.1f ms CPU per "
                            + "s of audio -> %.0f streams per %d cores%n", ffMp3 * 1000, cores / ffMp3, cores);
                    System.out.printf(Locale.ROOT, "ffmpeg CLI, decode + AAC 48k + AAC 128k + MP3 128k (Groovecast's "
                            + "streams): %.1f ms CPU per s of audio -> %.0f streams per %d cores%n%n", ffShape * 1000,
                            cores / ffShape, cores);
                    System.out.flush();
                }
                case "groovecast" -> {
                    try (OperatorPlugins plugins = MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
                        for (String shape : shapes) {
                            boolean shared = switch (shape) {
                                case "shared" -> true;
                                case "mp3" -> false;
                                default -> throw new IllegalArgumentException("unknown shape " + shape);
                            };
                            Path script = MediaSupport.scriptsDir().resolve(shared ? "audio-ceiling.groovy"
                                    : "audio-ceiling-mp3.groovy");
                            String label = shared ? "groovecast" : "gc-mp3";
                            System.out.println("Groovecast, " + (shared
                                    ? "shared-encode shape (decode, AAC 48k + AAC 128k + MP3 128k, HLS + 3 files)"
                                    : "Liquidsoap's shape (decode, MP3 128k to a file)") + ": " + script
                                    + " (a clock per stream)");
                            List<Step> steps = search(n -> groovecast(plugins, script, settings, in, n, label),
                                    opts.ints("counts"), Integer.parseInt(opts.string("start")), resolution, max);
                            if (shared) gc = steps;
                            else gcMp3 = steps;
                        }
                    }
                }
                case "liquidsoap" -> {
                    String version = liquidsoapVersion();
                    if (version == null) {
                        System.out.println("Liquidsoap: not installed (apt-get install -y liquidsoap); skipped\n");
                        continue;
                    }
                    Path script = liquidsoapDir().resolve("streams.liq");
                    System.out.println(version + ": " + script + " (STREAM_SINK=file, SINK_PATH=/dev/null, "
                            + "STREAM_FORMAT=mp3, a clock per stream)");
                    ls = search(n -> liquidsoap(script, in, n), opts.ints("lsCounts"),
                            Integer.parseInt(opts.string("lsStart")), resolution, max);
                }
                default -> throw new IllegalArgumentException("unknown engine " + engine);
            }
        }
        summarise(cores, ffMp3, ffShape, gc, gcMp3, ls);
        System.exit(0);
    }

    // ---------------------------------------------------------------- search

    private static List<Step> search(IntFunction<Step> step, List<Integer> counts, int start, int resolution, int max) {
        System.out.println(tableHeader());
        List<Step> steps = new ArrayList<>();
        IntFunction<Step> run = n -> {
            Step s = step.apply(n);
            steps.add(s);
            System.out.println(row(s));
            System.out.flush();
            return s;
        };
        if (!counts.isEmpty()) {
            for (int n : counts.stream().sorted().toList()) {
                if (!run.apply(n).held()) break;
            }
        } else {
            int hold = 0;
            int fail = -1;
            for (int n = Math.max(1, start); ; n = Math.min(n * 2, max)) {
                if (run.apply(n).held()) {
                    hold = n;
                    if (n >= max) break;
                } else {
                    fail = n;
                    break;
                }
            }
            while (fail > 0 && fail - hold > resolution) {
                int mid = hold + (fail - hold) / 2 / resolution * resolution;
                if (mid <= hold) mid = hold + resolution;
                if (run.apply(mid).held()) hold = mid;
                else fail = mid;
            }
        }
        System.out.println();
        return steps;
    }

    private static String tableHeader() {
        return String.format("%-11s %5s %6s %-5s %8s %7s %9s %11s %8s %7s  %s%n%s", "engine", "N", "clocks", "held",
                "max lag", "duty", "cpu ms/s", "ms/s/stream", "window s", "others", "note", "-".repeat(100));
    }

    private static String row(Step s) {
        return String.format(Locale.ROOT, "%-11s %5d %6d %-5s %8s %7s %9.0f %11.1f %8.1f %7.0f  %s", s.engine(), s.n(),
                s.clocks(), s.held() ? "yes" : "NO", Double.isNaN(s.maxLag()) ? "-" : String.format(Locale.ROOT, "%.3f",
                        s.maxLag()), Double.isNaN(s.maxDuty()) ? "-" : String.format(Locale.ROOT, "%.3f", s.maxDuty()),
                s.cpuMsPerSec(), s.perStream(), s.windowSeconds(), s.othersMsPerSec(), s.note());
    }

    private static Step lastHeld(List<Step> steps) {
        Step best = null;
        for (Step s : steps) {
            if (s.held() && (best == null || s.n() > best.n())) best = s;
        }
        return best;
    }

    private static void summarise(int cores, double ffMp3, double ffShape, List<Step> gc, List<Step> gcMp3,
                                  List<Step> ls) {
        System.out.println("Summary");
        if (!Double.isNaN(ffMp3)) {
            System.out.printf(Locale.ROOT, "ffmpeg CLI limit, decode + MP3 128k:              %6.1f ms CPU/s of audio -> "
                    + "%4.0f streams per %d cores%n", ffMp3 * 1000, cores / ffMp3, cores);
            System.out.printf(Locale.ROOT, "ffmpeg CLI limit, decode + AAC48 + AAC128 + MP3:  %6.1f ms CPU/s of audio -> "
                    + "%4.0f streams per %d cores%n", ffShape * 1000, cores / ffShape, cores);
        }
        Step g = lastHeld(gc);
        Step l = lastHeld(ls);
        if (!gc.isEmpty()) {
            System.out.printf(Locale.ROOT, "Groovecast N held (shared-encode shape, 3 encodes, 5 outputs): %d%s%n",
                    g == null ? 0 : g.n(), g == null ? "" : String.format(Locale.ROOT,
                            ", CPU %.1f ms/s per stream (%.0f ms/s at N=%d)", g.perStream(), g.cpuMsPerSec(), g.n()));
            if (g != null && !Double.isNaN(ffShape)) {
                System.out.printf(Locale.ROOT, "  Groovecast CPU per stream / ffmpeg CLI for the same encodes: %.2f%n",
                        g.perStream() / 1000 / ffShape);
            }
        }
        Step gm = lastHeld(gcMp3);
        if (!gcMp3.isEmpty()) {
            System.out.printf(Locale.ROOT, "Groovecast N held (Liquidsoap's shape, MP3 128k to a file, 1 encode): %d%s%n",
                    gm == null ? 0 : gm.n(), gm == null ? "" : String.format(Locale.ROOT,
                            ", CPU %.1f ms/s per stream (%.0f ms/s at N=%d)", gm.perStream(), gm.cpuMsPerSec(), gm.n()));
            if (gm != null && !Double.isNaN(ffMp3)) {
                System.out.printf(Locale.ROOT, "  Groovecast CPU per stream / ffmpeg CLI for the same encode: %.2f%n",
                        gm.perStream() / 1000 / ffMp3);
            }
        }
        if (!ls.isEmpty()) {
            System.out.printf(Locale.ROOT, "Liquidsoap N held (MP3 128k to a file, 1 encode): %d%s%n",
                    l == null ? 0 : l.n(), l == null ? "" : String.format(Locale.ROOT,
                            ", CPU %.1f ms/s per stream (%.0f ms/s at N=%d)", l.perStream(), l.cpuMsPerSec(), l.n()));
            if (l != null && !Double.isNaN(ffMp3)) {
                System.out.printf(Locale.ROOT, "  Liquidsoap CPU per stream / ffmpeg CLI for the same encode: %.2f%n",
                        l.perStream() / 1000 / ffMp3);
            }
        }
        if (g != null && l != null) {
            double ratio = g.n() / (double) l.n();
            System.out.printf(Locale.ROOT, "Groovecast N / Liquidsoap N: %.2f (%d / %d)  target >= %.0fx: %s%n", ratio,
                    g.n(), l.n(), TARGET_RATIO, ratio >= TARGET_RATIO ? "PASS" : "FAIL");
        } else if (!gc.isEmpty() && !ls.isEmpty()) {
            System.out.println("Groovecast N / Liquidsoap N: n/a (one of them held no step)");
        }
        if (gm != null && l != null) {
            System.out.printf(Locale.ROOT, "like for like (both MP3 128k to a file): Groovecast N / Liquidsoap N: %.2f "
                    + "(%d / %d)%n", gm.n() / (double) l.n(), gm.n(), l.n());
        }
        for (List<Step> steps : List.of(gc, gcMp3, ls)) {
            for (Step s : steps) ClockScaling.warnAboutNoise(s.othersMsPerSec(), 0, s.engine() + " N=" + s.n());
        }
    }

    // ---------------------------------------------------------------- Groovecast

    private static Step groovecast(OperatorPlugins plugins, Path script, Map<String, String> settings, Path in, int n,
                                   String engine) {
        Path out;
        try {
            out = Files.createTempDirectory("groovecast-ceiling-");
            for (int i = 0; i < n; i++) Files.createDirectories(out.resolve("s" + i).resolve("hls"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Station station;
        try {
            station = Station.load(script, plugins.functions(), settings,
                    Map.of("STREAMS", String.valueOf(n), "IN", in.toString(), "OUT_DIR", out.toString()));
            station.start(null);
        } catch (RuntimeException e) {
            e.printStackTrace();
            return new Step(engine, n, false, 0, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN,
                    "start failed: " + e);
        }
        String note = "";
        boolean held = true;
        double maxLag = 0;
        double maxDuty = 0;
        double cpu = Double.NaN;
        double seconds = 0;
        double others = Double.NaN;
        int clocks = station.clocks().size();
        try {
            // Warm-up: only a clock hopelessly behind (--abortLag) fails the step without a window.
            long w0 = System.nanoTime();
            long end = w0 + (long) (warmup * 1e9);
            double warmLag = 0;
            double warmLagAt = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(250);
                double lag = 0;
                for (ClockInfo c : station.clocks()) lag = Math.max(lag, c.getLag());
                if (lag > warmLag) {
                    warmLag = lag;
                    warmLagAt = (System.nanoTime() - w0) / 1e9;
                }
                if (abortLag > 0 && lag > abortLag) {
                    held = false;
                    note = String.format(Locale.ROOT, "lag %.2f s after %.1f s of warm-up", lag, warmLagAt);
                    maxLag = lag;
                    maxDuty = Double.NaN;
                    break;
                }
            }
            String warmNote = warmLag > 0.1 ? String.format(Locale.ROOT, "; warm-up lag peaked at %.2f s (%.1f s in)",
                    warmLag, warmLagAt) : "";
            if (held) {
                ClockScaling.announceQuietWait(BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC),
                        engine + " N=" + n);
                long cpu0 = BenchSupport.processCpuNanos();
                MachineSample m0 = MachineSample.take();
                long t0 = System.nanoTime();
                end = t0 + (long) (window * 1e9);
                while (System.nanoTime() < end) {
                    Thread.sleep(250);
                    for (ClockInfo c : station.clocks()) {
                        maxLag = Math.max(maxLag, c.getLag());
                        maxDuty = Math.max(maxDuty, c.getDuty());
                        if (held && (c.getLag() > lagLimit || c.getDuty() > dutyLimit)) {
                            held = false;
                            note = String.format(Locale.ROOT, "clock %s: lag %.2f s, duty %.2f after %.1f s of window",
                                    c.getId(), c.getLag(), c.getDuty(), (System.nanoTime() - t0) / 1e9);
                        }
                    }
                    if (!held) break;
                }
                long cpu1 = BenchSupport.processCpuNanos();
                MachineSample m1 = MachineSample.take();
                seconds = (System.nanoTime() - t0) / 1e9;
                cpu = (cpu1 - cpu0) / 1e6 / seconds;
                others = MachineSample.othersMsPerSec(m0, m1, cpu1 - cpu0);
            }
            note += warmNote;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            station.stop();
            try {
                if (!station.awaitStopped(Duration.ofSeconds(30))) note += " (did not stop within 30 s)";
                long bytes = MediaSupport.treeSize(out);
                if (held) note = String.format(Locale.ROOT, "%.1f MB written", bytes / 1048576.0) + note;
                MediaSupport.deleteTree(out);
                BenchSupport.settle();
            } catch (IOException | InterruptedException e) {
                note += " (cleanup: " + e + ")";
            }
        }
        if (clocks != n) note += " (expected " + n + " clocks)";
        return new Step(engine, n, held, clocks, cpu, maxLag, maxDuty, seconds, others, note);
    }

    // ---------------------------------------------------------------- Liquidsoap

    /** bench/liquidsoap: -Dgroovecast.bench.liquidsoap, else bench/liquidsoap or liquidsoap. */
    static Path liquidsoapDir() {
        String prop = System.getProperty("groovecast.bench.liquidsoap");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        Path inRepo = Path.of("bench", "liquidsoap");
        return Files.isDirectory(inRepo) ? inRepo : Path.of("liquidsoap");
    }

    /** "Liquidsoap 2.1.3", or null when the command is missing. */
    static String liquidsoapVersion() {
        try {
            String out = MediaSupport.run(List.of("liquidsoap", "--version"), 30);
            return out.lines().findFirst().orElse("liquidsoap").trim();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A running liquidsoap process with its output collected line by line, each with its arrival time. */
    static final class LiquidsoapProcess implements AutoCloseable {
        record Line(long nanos, String text) {
        }

        final Process process;
        final List<Line> lines = new CopyOnWriteArrayList<>();

        LiquidsoapProcess(Path script, Map<String, String> env) throws IOException {
            ProcessBuilder pb = new ProcessBuilder("liquidsoap", script.toString()).redirectErrorStream(true);
            pb.environment().putAll(env);
            process = pb.start();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) lines.add(new Line(System.nanoTime(), line));
                } catch (IOException e) {
                    // the process ended
                }
            }, "liquidsoap-log");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits for a line containing {@code text}; its arrival time, or -1 on timeout or exit. */
        long await(String text, double seconds) throws InterruptedException {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                for (Line l : lines) {
                    if (l.text().contains(text)) return l.nanos();
                }
                if (!process.isAlive()) return -1;
                Thread.sleep(50);
            }
            return -1;
        }

        /** The first line matching {@code p} that arrived at or after {@code since}, or null. */
        Line first(Pattern p, long since) {
            for (Line l : lines) {
                if (l.nanos() >= since && p.matcher(l.text()).find()) return l;
            }
            return null;
        }

        int count(Pattern p, long since) {
            int k = 0;
            for (Line l : lines) {
                if (l.nanos() >= since && p.matcher(l.text()).find()) k++;
            }
            return k;
        }

        String tail(int n) {
            StringBuilder b = new StringBuilder();
            for (int i = Math.max(0, lines.size() - n); i < lines.size(); i++) b.append(lines.get(i).text()).append('\n');
            return b.toString();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Step liquidsoap(Path script, Path in, int n) {
        Map<String, String> env = Map.of("STREAMS", String.valueOf(n), "STREAM_FILE", in.toString(),
                "STREAM_FORMAT", "mp3", "STREAM_SINK", "file", "SINK_PATH", "/dev/null",
                "LS_MAX_RUNTIME", String.valueOf((int) Math.ceil(warmup + window + 60)));
        try {
            // Before the process starts: once it runs, its own CPU would count as another process's.
            ClockScaling.announceQuietWait(BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC),
                    "liquidsoap N=" + n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        try (LiquidsoapProcess ls = new LiquidsoapProcess(script, env)) {
            long started = ls.await("streams=" + n, 60);
            if (started < 0) {
                return new Step("liquidsoap", n, false, 0, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN,
                        "did not start: " + ls.tail(5).replace('\n', '|'));
            }
            long pid = ls.process.pid();
            BenchSupport.sleepSeconds(warmup);
            int warmupCatchups = ls.count(LS_CATCHUP, 0);
            long cpu0 = MediaSupport.processCpuNanos(pid);
            long self0 = BenchSupport.processCpuNanos();
            MachineSample m0 = MachineSample.take();
            long t0 = System.nanoTime();
            long end = t0 + (long) (window * 1e9);
            LiquidsoapProcess.Line bad = null;
            while (System.nanoTime() < end && bad == null && ls.process.isAlive()) {
                Thread.sleep(250);
                bad = ls.first(LS_CATCHUP, t0);
            }
            long cpu1 = MediaSupport.processCpuNanos(pid);
            long self1 = BenchSupport.processCpuNanos();
            MachineSample m1 = MachineSample.take();
            double seconds = (System.nanoTime() - t0) / 1e9;
            boolean alive = ls.process.isAlive();
            double cpu = (cpu1 - cpu0) / 1e6 / seconds;
            // Others: everything but liquidsoap and this JVM (which only polls).
            double others = MachineSample.othersMsPerSec(m0, m1, (cpu1 - cpu0) + (self1 - self0));
            String note;
            if (!alive) note = "exited early: " + ls.tail(3).replace('\n', '|');
            else if (bad != null) note = String.format(Locale.ROOT, "after %.1f s of window: %s",
                    (bad.nanos() - t0) / 1e9, bad.text().replaceAll("^\\S+ \\S+ ", ""));
            else note = warmupCatchups > 0 ? warmupCatchups + " catch-up line(s) during warm-up only" : "";
            return new Step("liquidsoap", n, alive && bad == null, n, cpu, Double.NaN, Double.NaN, seconds, others, note);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run liquidsoap", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            try {
                BenchSupport.settle();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
