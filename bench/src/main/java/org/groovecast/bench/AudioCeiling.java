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
import org.groovecast.host.StationReloader;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * How many real-time streams fit on this machine, each stream a decode of the same file and its
 * encodes on a clock of its own, searched per shape: {@code mp3} (MP3 128k to a file) and {@code
 * aac} (AAC 48k in ADTS to a file), like for like with Liquidsoap 2.1.3 running the anchors' {@code
 * streams.liq} in the same run; and {@code shared} (one decode, AAC 48k + AAC 128k + MP3 128k
 * encoded once each, HLS with two renditions and three copied files), the busy radio server. Both
 * engines are judged alike: a step's window starts once every clock of it runs (Groovecast: every
 * clock has ticked; Liquidsoap: one {@code Streaming loop starts} line per clock) and the same
 * warm-up has passed, and it holds when no clock is a second or more behind in the window
 * (Groovecast: a clock's lag; Liquidsoap: a {@code We must catchup} of a second or more, or {@code
 * Too much latency}). CPU per stream is set against the ffmpeg command line doing the same codecs,
 * the physical floor. N doubles from {@code --start} until a step fails, then is bisected down to
 * {@code --resolution}.
 */
public final class AudioCeiling {
    static final double TARGET_RATIO = 3.0;

    /** The shared shape's target on 2 cores: Liquidsoap 2.5 held 51 of them on 8 cores. */
    static final int TARGET_SHARED = 60;

    /**
     * A Liquidsoap clock behind logs "We must catchup 1.42 seconds!"; far behind, "Too much
     * latency!".
     */
    private static final Pattern LS_CATCHUP =
            Pattern.compile("We must catchup ([0-9.]+)|Too much latency");

    /** Liquidsoap logs this once per clock as its streaming loop begins. */
    private static final Pattern LOOP_STARTS = Pattern.compile("Streaming loop starts");

    /**
     * One workload, as each engine runs it: the Groovecast script (FORMAT set to the shape's name)
     * and Liquidsoap's STREAM_FORMAT, null when Liquidsoap has no counterpart.
     */
    record Shape(
            String name,
            String script,
            String lsFormat,
            String description,
            List<String> ffmpegArgs) {}

    static List<Shape> shapes(Path in) {
        String i = in.toString();
        return List.of(
                new Shape(
                        "mp3",
                        "audio-ceiling-single.groovy",
                        "mp3",
                        "decode + MP3 128k to a file",
                        List.of("-i", i, "-c:a", "libmp3lame", "-b:a", "128k", "-f", "null", "-")),
                new Shape(
                        "aac",
                        "audio-ceiling-single.groovy",
                        "aac",
                        "decode + AAC 48k (ADTS) to a file",
                        List.of("-i", i, "-c:a", "aac", "-b:a", "48k", "-f", "null", "-")),
                new Shape(
                        "shared",
                        "audio-ceiling.groovy",
                        null,
                        "decode, AAC 48k + AAC 128k + MP3 128k once each, HLS x2 + 3 files",
                        List.of(
                                "-i",
                                i,
                                "-map",
                                "0:a",
                                "-c:a",
                                "aac",
                                "-b:a",
                                "48k",
                                "-f",
                                "null",
                                "-",
                                "-map",
                                "0:a",
                                "-c:a",
                                "aac",
                                "-b:a",
                                "128k",
                                "-f",
                                "null",
                                "-",
                                "-map",
                                "0:a",
                                "-c:a",
                                "libmp3lame",
                                "-b:a",
                                "128k",
                                "-f",
                                "null",
                                "-")));
    }

    private static final String USAGE =
            """
            usage: AudioCeiling [--engines=ffmpeg,groovecast,liquidsoap] [--shapes=mp3,aac,shared] [--warmup=10]
                                [--window=30] [--start=8]
                                [--resolution=4] [--max=256] [--counts=N,N,...] [--lsStart=8] [--lsCounts=N,...]
                                [--lagLimit=1.0] [--dutyLimit=0] [--abortLag=10] [--media=DIR] [--quietWait=5] [--reload=false]
                                [--plugins=DIR] [--set key=value ...]
              --engines     which to measure; ffmpeg (the floor, per shape) is measured first
              --shapes      mp3 and aac: like for like with Liquidsoap; shared: the busy radio server (Groovecast only)
              --warmup      seconds each step runs, once every clock of it runs, before its window
              --window      seconds of each step's window; a step fails as soon as its limit is crossed
              --start       Groovecast's first N; N doubles until a step fails, then is bisected
              --resolution  the bisection stops when the failing and holding N are this close
              --max         the largest N tried
              --counts      Groovecast: try exactly these N, ascending, stopping at the first failure
              --lsStart     Liquidsoap's first N (same search)
              --lsCounts    Liquidsoap: exactly these N
              --lagLimit    both engines: a step fails when a clock is this many seconds behind
              --dutyLimit   Groovecast: also fail a step when a clock's duty exceeds this (0: not a criterion)
              --abortLag    Groovecast: a step whose lag passes this during the warm-up fails at once,
                            without a window (0: never)
              --media       where the test media are made (once) with the ffmpeg CLI
              --reload      Groovecast: a step that held is reloaded (the same script, through the
                            StationReloader) and measured again by the same rule; it holds if both do
              --quietWait   before each start and each window, wait up to this many seconds for other processes to
                            leave the CPU alone (under 50 ms/s over half a second); 0 not to wait
              --plugins     operator plugins directory (default bench/target/plugins)
              --set         extra Groovecast setting, e.g. --set scheduler.threads=1""";

    /** One step: an engine with N streams, measured over a window. */
    record Step(
            String engine,
            int n,
            boolean held,
            int clocks,
            double cpuMsPerSec,
            double maxLag,
            double maxDuty,
            double windowSeconds,
            double othersMsPerSec,
            String note) {
        double perStream() {
            return cpuMsPerSec / n;
        }
    }

    /**
     * What one shape gave: the ffmpeg floor (CPU seconds per second of audio) and each engine's
     * steps.
     */
    static final class Result {
        final Shape shape;
        double floor = Double.NaN;
        List<Step> groovecast = List.of();
        List<Step> liquidsoap = List.of();

        Result(Shape shape) {
            this.shape = shape;
        }
    }

    private static double warmup;
    private static double window;
    private static double lagLimit;
    private static double dutyLimit;
    private static double quietWait;
    private static double abortLag;
    private static boolean reload;

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "engines",
                        "ffmpeg,groovecast,liquidsoap",
                        "warmup",
                        "10",
                        "window",
                        "30",
                        "start",
                        "8",
                        "shapes",
                        "mp3,aac,shared",
                        "resolution",
                        "4",
                        "max",
                        "256",
                        "counts",
                        "",
                        "lsStart",
                        "8",
                        "lsCounts",
                        "",
                        "lagLimit",
                        "1.0",
                        "dutyLimit",
                        "0",
                        "media",
                        MediaSupport.DEFAULT_MEDIA,
                        "quietWait",
                        "5",
                        "abortLag",
                        "10",
                        "reload",
                        "false");
        List<String> engines = opts.list("engines");
        warmup = opts.seconds("warmup");
        window = opts.seconds("window");
        lagLimit = opts.seconds("lagLimit");
        dutyLimit = opts.seconds("dutyLimit");
        quietWait = opts.seconds("quietWait");
        abortLag = opts.seconds("abortLag");
        reload = Boolean.parseBoolean(opts.string("reload"));
        int resolution = Integer.parseInt(opts.string("resolution"));
        int max = Integer.parseInt(opts.string("max"));

        Map<String, String> settings = new HashMap<>();
        settings.put("clock.reportEvery", "0");
        settings.putAll(opts.settings());

        System.out.println(BenchSupport.header("AudioCeiling"));
        Path media = Path.of(opts.string("media"));
        Path in = MediaSupport.musicFile(media);
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(
                Locale.ROOT,
                "input %s (60 s, MP3 128k 44.1 kHz stereo, tone + pink noise); warm-up %.0f s "
                        + "once every clock runs, window %.0f s; Groovecast settings %s; a step fails when a clock is "
                        + "%.2f s behind%s%n%n",
                in,
                warmup,
                window,
                settings,
                lagLimit,
                dutyLimit > 0
                        ? String.format(
                                Locale.ROOT, " (Groovecast: or its duty passes %.2f)", dutyLimit)
                        : "");
        System.out.flush();

        List<String> wanted = opts.list("shapes");
        List<Result> results = new ArrayList<>();
        for (Shape shape : shapes(in)) {
            if (wanted.contains(shape.name())) results.add(new Result(shape));
        }
        if (results.size() != wanted.size())
            throw new IllegalArgumentException("unknown shape in " + wanted);
        String lsVersion = engines.contains("liquidsoap") ? liquidsoapVersion() : null;
        if (engines.contains("liquidsoap") && lsVersion == null) {
            System.out.println(
                    "Liquidsoap: not installed (apt-get install -y liquidsoap); skipped\n");
        }
        if (engines.contains("ffmpeg")) {
            for (Result r : results) {
                r.floor = MediaSupport.ffmpegCpuPerAudioSecond(r.shape.ffmpegArgs(), 60);
                System.out.printf(
                        Locale.ROOT,
                        "ffmpeg CLI, %s (%s): %.1f ms CPU per s of audio -> %.0f streams per %d "
                                + "cores%n",
                        r.shape.name(),
                        r.shape.description(),
                        r.floor * 1000,
                        cores / r.floor,
                        cores);
            }
            System.out.println();
            System.out.flush();
        }
        OperatorPlugins plugins =
                engines.contains("groovecast")
                        ? MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))
                        : null;
        try {
            for (Result r : results) {
                for (String engine : engines) {
                    if (engine.equals("groovecast")) {
                        Path script = MediaSupport.scriptsDir().resolve(r.shape.script());
                        System.out.println(
                                "Groovecast, "
                                        + r.shape.name()
                                        + " ("
                                        + r.shape.description()
                                        + "): "
                                        + script
                                        + " (a clock per stream)");
                        r.groovecast =
                                search(
                                        n ->
                                                groovecast(
                                                        plugins,
                                                        script,
                                                        settings,
                                                        in,
                                                        n,
                                                        r.shape.name()),
                                        opts.ints("counts"),
                                        Integer.parseInt(opts.string("start")),
                                        resolution,
                                        max);
                    } else if (engine.equals("liquidsoap")
                            && lsVersion != null
                            && r.shape.lsFormat() != null) {
                        Path script = liquidsoapDir().resolve("streams.liq");
                        System.out.println(
                                lsVersion
                                        + ", "
                                        + r.shape.name()
                                        + " ("
                                        + r.shape.description()
                                        + "): "
                                        + script
                                        + " (STREAM_SINK=file, SINK_PATH=/dev/null, STREAM_FORMAT="
                                        + r.shape.lsFormat()
                                        + ", a clock per stream)");
                        r.liquidsoap =
                                search(
                                        n -> liquidsoap(script, in, n, r.shape.lsFormat()),
                                        opts.ints("lsCounts"),
                                        Integer.parseInt(opts.string("lsStart")),
                                        resolution,
                                        max);
                    } else if (!List.of("ffmpeg", "groovecast", "liquidsoap").contains(engine)) {
                        throw new IllegalArgumentException("unknown engine " + engine);
                    }
                }
            }
        } finally {
            if (plugins != null) plugins.close();
        }
        summarise(cores, results);
        System.exit(0);
    }

    // ---------------------------------------------------------------- search

    private static List<Step> search(
            IntFunction<Step> step, List<Integer> counts, int start, int resolution, int max) {
        System.out.println(tableHeader());
        List<Step> steps = new ArrayList<>();
        IntFunction<Step> run =
                n -> {
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
        return String.format(
                "%-11s %5s %6s %-5s %8s %7s %9s %11s %8s %7s  %s%n%s",
                "engine",
                "N",
                "clocks",
                "held",
                "max lag",
                "duty",
                "cpu ms/s",
                "ms/s/stream",
                "window s",
                "others",
                "note",
                "-".repeat(100));
    }

    private static String row(Step s) {
        return String.format(
                Locale.ROOT,
                "%-11s %5d %6d %-5s %8s %7s %9.0f %11.1f %8.1f %7.0f  %s",
                s.engine(),
                s.n(),
                s.clocks(),
                s.held() ? "yes" : "NO",
                Double.isNaN(s.maxLag()) ? "-" : String.format(Locale.ROOT, "%.3f", s.maxLag()),
                Double.isNaN(s.maxDuty()) ? "-" : String.format(Locale.ROOT, "%.3f", s.maxDuty()),
                s.cpuMsPerSec(),
                s.perStream(),
                s.windowSeconds(),
                s.othersMsPerSec(),
                s.note());
    }

    private static Step lastHeld(List<Step> steps) {
        Step best = null;
        for (Step s : steps) {
            if (s.held() && (best == null || s.n() > best.n())) best = s;
        }
        return best;
    }

    private static void summarise(int cores, List<Result> results) {
        System.out.println("Summary");
        for (Result r : results) {
            System.out.println(r.shape.name() + " (" + r.shape.description() + ")");
            if (!Double.isNaN(r.floor)) {
                System.out.printf(
                        Locale.ROOT,
                        "  ffmpeg CLI floor: %.1f ms CPU per s of audio -> %.0f streams per %d cores%n",
                        r.floor * 1000,
                        cores / r.floor,
                        cores);
            }
            Step g = held(r.floor, "Groovecast", r.groovecast);
            Step l = held(r.floor, "Liquidsoap", r.liquidsoap);
            if (g != null && l != null) {
                double ratio = g.n() / (double) l.n();
                System.out.printf(
                        Locale.ROOT,
                        "  Groovecast N / Liquidsoap N: %.2f (%d / %d)  target >= %.0fx: %s%n",
                        ratio,
                        g.n(),
                        l.n(),
                        TARGET_RATIO,
                        ratio >= TARGET_RATIO ? "PASS" : "FAIL");
                System.out.printf(
                        Locale.ROOT,
                        "  Liquidsoap CPU per stream / Groovecast's: %.2f%n",
                        l.perStream() / g.perStream());
            } else if (!r.groovecast.isEmpty() && !r.liquidsoap.isEmpty()) {
                System.out.println("  Groovecast N / Liquidsoap N: n/a (one of them held no step)");
            }
            if (r.shape.lsFormat() == null && !r.groovecast.isEmpty()) {
                int n = g == null ? 0 : g.n();
                System.out.printf(
                        Locale.ROOT,
                        "  Groovecast N held: %d  target >= %d on %d cores: %s%n",
                        n,
                        TARGET_SHARED,
                        cores,
                        n >= TARGET_SHARED ? "PASS" : "FAIL");
            }
            for (List<Step> steps : List.of(r.groovecast, r.liquidsoap)) {
                for (Step s : steps)
                    ClockScaling.warnAboutNoise(s.othersMsPerSec(), 0, s.engine() + " N=" + s.n());
            }
        }
    }

    /**
     * Prints what {@code engine} held, with its CPU per stream against the floor; the step, or
     * null.
     */
    private static Step held(double floor, String engine, List<Step> steps) {
        if (steps.isEmpty()) return null;
        Step s = lastHeld(steps);
        System.out.printf(
                Locale.ROOT,
                "  %s N held: %d%s%n",
                engine,
                s == null ? 0 : s.n(),
                s == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", CPU %.1f ms/s per stream (%.0f ms/s at N=%d)%s",
                                s.perStream(),
                                s.cpuMsPerSec(),
                                s.n(),
                                Double.isNaN(floor)
                                        ? ""
                                        : String.format(
                                                Locale.ROOT,
                                                ", %.2fx the ffmpeg CLI's",
                                                s.perStream() / 1000 / floor)));
        return s;
    }

    // ---------------------------------------------------------------- Groovecast

    private static Step groovecast(
            OperatorPlugins plugins,
            Path script,
            Map<String, String> settings,
            Path in,
            int n,
            String shape) {
        String engine = "gc-" + shape;
        Path out;
        try {
            out = Files.createTempDirectory("groovecast-ceiling-");
            for (int i = 0; i < n; i++)
                Files.createDirectories(out.resolve("s" + i).resolve("hls"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> env =
                Map.of(
                        "STREAMS",
                        String.valueOf(n),
                        "IN",
                        in.toString(),
                        "OUT_DIR",
                        out.toString(),
                        "FORMAT",
                        shape);
        // The start is what is measured: it waits for a quiet machine as the window does.
        try {
            ClockScaling.announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC),
                    engine + " N=" + n + " (start)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Station station;
        StationReloader reloader = null;
        try {
            if (reload) {
                // A reloader reads no environment: the station's copy has the values written in.
                Path copy = out.resolve("station.groovy");
                Files.writeString(copy, withEnv(Files.readString(script), env));
                reloader = new StationReloader(copy, plugins.functions(), settings);
                station = reloader.start();
            } else {
                station = Station.load(script, plugins.functions(), settings, env);
                station.start(null);
            }
        } catch (RuntimeException | IOException e) {
            e.printStackTrace();
            return new Step(
                    engine,
                    n,
                    false,
                    0,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    0,
                    Double.NaN,
                    "start failed: " + e);
        }
        int clocks = station.clocks().size();
        Measured m = null;
        String note = "";
        try {
            m = measure(station, n, engine);
            note = m.note();
            if (reload && m.held()) {
                long r0 = System.nanoTime();
                boolean swapped = reloader.reload();
                double reloadMs = (System.nanoTime() - r0) / 1e6;
                Measured r = measure(reloader.current(), n, engine + " (reloaded)");
                note +=
                        String.format(
                                Locale.ROOT,
                                "; reload %s in %.0f ms, then %s: max lag %.3f, %.0f ms/s, %.1f ms/s"
                                        + " per stream, others %.0f%s",
                                swapped ? "swapped" : "FAILED",
                                reloadMs,
                                r.held() && swapped ? "held" : "NOT HELD",
                                r.maxLag(),
                                r.cpu(),
                                r.cpu() / n,
                                r.others(),
                                r.note().isEmpty() ? "" : " (" + r.note() + ")");
                if (!r.held() || !swapped) m = m.failed();
            }
        } catch (InterruptedException | IOException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            try {
                boolean stopped;
                if (reloader != null) {
                    reloader.stop();
                    stopped = reloader.awaitStopped(Duration.ofSeconds(30));
                } else {
                    station.stop();
                    stopped = station.awaitStopped(Duration.ofSeconds(30));
                }
                if (!stopped) note += " (did not stop within 30 s)";
                long bytes = MediaSupport.treeSize(out);
                if (m != null && m.held())
                    note = String.format(Locale.ROOT, "%.1f MB written", bytes / 1048576.0) + note;
                MediaSupport.deleteTree(out);
                BenchSupport.settle();
            } catch (IOException | InterruptedException e) {
                note += " (cleanup: " + e + ")";
            }
        }
        if (clocks != n) note += " (expected " + n + " clocks)";
        return new Step(
                engine,
                n,
                m.held(),
                clocks,
                m.cpu(),
                m.maxLag(),
                m.maxDuty(),
                m.seconds(),
                m.others(),
                note);
    }

    /** What a station's warm-up and window gave. */
    private record Measured(
            boolean held,
            String note,
            double maxLag,
            double maxDuty,
            double cpu,
            double seconds,
            double others) {
        Measured failed() {
            return new Measured(false, note, maxLag, maxDuty, cpu, seconds, others);
        }
    }

    /**
     * The seed's rule on a running station: a warm-up once every clock of it runs, then a window
     * that holds while no clock is {@code lagLimit} behind or skips.
     */
    private static Measured measure(Station station, int n, String engine)
            throws InterruptedException, IOException {
        String note = "";
        boolean held = true;
        double maxLag = 0;
        double maxDuty = 0;
        double cpu = Double.NaN;
        double seconds = 0;
        double others = Double.NaN;
        // The warm-up counts from when every clock runs, as Liquidsoap's does from its last
        // loop start.
        long s0 = System.nanoTime();
        while (!allTicking(station, n)) {
            if (System.nanoTime() - s0 > 120e9) {
                held = false;
                note = "not every clock ran within 120 s";
                break;
            }
            Thread.sleep(50);
        }
        double startSeconds = (System.nanoTime() - s0) / 1e9;
        String startNote =
                startSeconds > 1
                        ? String.format(
                                Locale.ROOT,
                                "; every clock ran %.1f s after the start",
                                startSeconds)
                        : "";
        // Warm-up: only a clock hopelessly behind (--abortLag) fails the step without a window.
        long w0 = System.nanoTime();
        long end = w0 + (long) (warmup * 1e9);
        double warmLag = 0;
        double warmLagAt = 0;
        double warmSkipped = 0;
        while (held && System.nanoTime() < end) {
            Thread.sleep(250);
            double lag = 0;
            for (ClockInfo c : station.clocks()) lag = Math.max(lag, c.getLag());
            if (lag > warmLag) {
                warmLag = lag;
                warmLagAt = (System.nanoTime() - w0) / 1e9;
            }
            if (abortLag > 0 && lag > abortLag) {
                held = false;
                note =
                        String.format(
                                Locale.ROOT, "lag %.2f s after %.1f s of warm-up", lag, warmLagAt);
                maxLag = lag;
                maxDuty = Double.NaN;
                break;
            }
        }
        String warmNote =
                warmLag > 0.1
                        ? String.format(
                                Locale.ROOT,
                                "; warm-up lag peaked at %.2f s (%.1f s in)",
                                warmLag,
                                warmLagAt)
                        : "";
        if (held) {
            ClockScaling.announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC),
                    engine + " N=" + n);
            // A clock that skips (settings.clock.catchUp = 'skip') in the window could not
            // keep up there: that fails the step as a lag would.
            Map<ClockInfo, Double> skippedBefore = new HashMap<>();
            for (ClockInfo c : station.clocks()) {
                skippedBefore.put(c, c.getSkipped());
                warmSkipped += c.getSkipped();
            }
            long cpu0 = BenchSupport.processCpuNanos();
            MachineSample m0 = MachineSample.take();
            long t0 = System.nanoTime();
            end = t0 + (long) (window * 1e9);
            while (System.nanoTime() < end) {
                Thread.sleep(250);
                for (ClockInfo c : station.clocks()) {
                    maxLag = Math.max(maxLag, c.getLag());
                    maxDuty = Math.max(maxDuty, c.getDuty());
                    if (held && c.getSkipped() > skippedBefore.get(c)) {
                        held = false;
                        note =
                                String.format(
                                        Locale.ROOT,
                                        "clock %s skipped %.2f s after %.1f s of window",
                                        c.getId(),
                                        c.getSkipped() - skippedBefore.get(c),
                                        (System.nanoTime() - t0) / 1e9);
                    }
                    if (held
                            && (c.getLag() >= lagLimit
                                    || dutyLimit > 0 && c.getDuty() > dutyLimit)) {
                        held = false;
                        note =
                                String.format(
                                        Locale.ROOT,
                                        "clock %s: lag %.2f s, duty %.2f after %.1f s of window",
                                        c.getId(),
                                        c.getLag(),
                                        c.getDuty(),
                                        (System.nanoTime() - t0) / 1e9);
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
        if (warmSkipped > 0)
            warmNote +=
                    String.format(Locale.ROOT, "; %.2f s skipped before the window", warmSkipped);
        note += warmNote + startNote;
        return new Measured(held, note, maxLag, maxDuty, cpu, seconds, others);
    }

    /** The script with its {@code env('NAME', 'default')} calls replaced by the values given. */
    static String withEnv(String script, Map<String, String> env) {
        String s = script;
        for (Map.Entry<String, String> e : env.entrySet())
            s =
                    s.replaceAll(
                            "env\\('" + e.getKey() + "', '[^']*'\\)",
                            java.util.regex.Matcher.quoteReplacement(
                                    "'" + e.getValue().replace("\\", "\\\\") + "'"));
        return s;
    }

    /** Whether the station has its {@code n} clocks and each has ticked. */
    private static boolean allTicking(Station station, int n) {
        List<ClockInfo> clocks = station.clocks();
        if (clocks.size() < n) return false;
        for (ClockInfo c : clocks) {
            if (c.getTicks() == 0) return false;
        }
        return true;
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

    /**
     * A running liquidsoap process with its output collected line by line, each with its arrival
     * time.
     */
    static final class LiquidsoapProcess implements AutoCloseable {
        record Line(long nanos, String text) {}

        final Process process;
        final List<Line> lines = new CopyOnWriteArrayList<>();

        LiquidsoapProcess(Path script, Map<String, String> env) throws IOException {
            ProcessBuilder pb =
                    new ProcessBuilder("liquidsoap", script.toString()).redirectErrorStream(true);
            pb.environment().putAll(env);
            process = pb.start();
            Thread reader =
                    new Thread(
                            () -> {
                                try (BufferedReader r =
                                        new BufferedReader(
                                                new InputStreamReader(
                                                        process.getInputStream(),
                                                        StandardCharsets.UTF_8))) {
                                    String line;
                                    while ((line = r.readLine()) != null)
                                        lines.add(new Line(System.nanoTime(), line));
                                } catch (IOException e) {
                                    // the process ended
                                }
                            },
                            "liquidsoap-log");
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

        /** The last line matching {@code p}, or null. */
        Line last(Pattern p) {
            Line found = null;
            for (Line l : lines) {
                if (p.matcher(l.text()).find()) found = l;
            }
            return found;
        }

        /**
         * The first line since {@code since} saying a clock is {@code limit} seconds behind or
         * more, or null.
         */
        Line behind(long since, double limit) {
            for (Line l : lines) {
                if (l.nanos() < since) continue;
                var m = LS_CATCHUP.matcher(l.text());
                if (m.find() && (m.group(1) == null || Double.parseDouble(m.group(1)) >= limit))
                    return l;
            }
            return null;
        }

        /**
         * The largest catch-up logged since {@code since}, in seconds (0 if none; infinite after
         * "Too much latency").
         */
        double worstLag(long since) {
            double worst = 0;
            for (Line l : lines) {
                if (l.nanos() < since) continue;
                var m = LS_CATCHUP.matcher(l.text());
                if (m.find())
                    worst =
                            Math.max(
                                    worst,
                                    m.group(1) == null
                                            ? Double.POSITIVE_INFINITY
                                            : Double.parseDouble(m.group(1)));
            }
            return worst;
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
            for (int i = Math.max(0, lines.size() - n); i < lines.size(); i++)
                b.append(lines.get(i).text()).append('\n');
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

    private static Step liquidsoap(Path script, Path in, int n, String format) {
        Map<String, String> env =
                Map.of(
                        "STREAMS",
                        String.valueOf(n),
                        "STREAM_FILE",
                        in.toString(),
                        "STREAM_FORMAT",
                        format,
                        "STREAM_SINK",
                        "file",
                        "SINK_PATH",
                        "/dev/null",
                        "LS_MAX_RUNTIME",
                        String.valueOf((int) Math.ceil(warmup + window + 180)));
        String engine = "ls-" + format;
        try {
            // Before the process starts: once it runs, its own CPU would count as another
            // process's.
            ClockScaling.announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC),
                    engine + " N=" + n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        try (LiquidsoapProcess ls = new LiquidsoapProcess(script, env)) {
            long started = ls.await("streams=" + n, 60);
            if (started < 0) {
                return new Step(
                        engine,
                        n,
                        false,
                        0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        0,
                        Double.NaN,
                        "did not start: " + ls.tail(5).replace('\n', '|'));
            }
            // The warm-up counts from the last clock's "Streaming loop starts", as Groovecast's
            // from its last first tick.
            long allRunning = -1;
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (System.nanoTime() < deadline && ls.process.isAlive()) {
                if (ls.count(LOOP_STARTS, 0) >= n) {
                    allRunning = ls.last(LOOP_STARTS).nanos();
                    break;
                }
                Thread.sleep(50);
            }
            if (allRunning < 0) {
                return new Step(
                        engine,
                        n,
                        false,
                        ls.count(LOOP_STARTS, 0),
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        0,
                        Double.NaN,
                        "not every clock ran within 120 s: " + ls.tail(3).replace('\n', '|'));
            }
            double startSeconds = (allRunning - started) / 1e9;
            long pid = ls.process.pid();
            BenchSupport.sleepSeconds(warmup);
            double warmLag = ls.worstLag(allRunning);
            long cpu0 = MediaSupport.processCpuNanos(pid);
            long self0 = BenchSupport.processCpuNanos();
            MachineSample m0 = MachineSample.take();
            long t0 = System.nanoTime();
            long end = t0 + (long) (window * 1e9);
            LiquidsoapProcess.Line bad = null;
            while (System.nanoTime() < end && bad == null && ls.process.isAlive()) {
                Thread.sleep(250);
                bad = ls.behind(t0, lagLimit);
            }
            long cpu1 = MediaSupport.processCpuNanos(pid);
            long self1 = BenchSupport.processCpuNanos();
            MachineSample m1 = MachineSample.take();
            double seconds = (System.nanoTime() - t0) / 1e9;
            boolean alive = ls.process.isAlive();
            double cpu = (cpu1 - cpu0) / 1e6 / seconds;
            // Others: everything but liquidsoap and this JVM (which only polls).
            double others = MachineSample.othersMsPerSec(m0, m1, (cpu1 - cpu0) + (self1 - self0));
            double maxLag = ls.worstLag(t0);
            String note;
            if (!alive) note = "exited early: " + ls.tail(3).replace('\n', '|');
            else if (bad != null)
                note =
                        String.format(
                                Locale.ROOT,
                                "after %.1f s of window: %s",
                                (bad.nanos() - t0) / 1e9,
                                bad.text().replaceAll("^\\S+ \\S+ ", ""));
            else note = "";
            if (warmLag > 0)
                note += String.format(Locale.ROOT, "; warm-up catch-up peaked at %.2f s", warmLag);
            if (startSeconds > 1)
                note +=
                        String.format(
                                Locale.ROOT,
                                "; every clock ran %.1f s after the start",
                                startSeconds);
            return new Step(
                    engine,
                    n,
                    alive && bad == null,
                    n,
                    cpu,
                    maxLag,
                    Double.NaN,
                    seconds,
                    others,
                    note);
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
