package org.groovecast.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.ClockInfo;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * Whether decoding many short files in a row leaks: a station plays {@code --files} short mp3 and
 * AAC files one after the other through {@code request.dynamic}, rendered offline ({@code
 * clock.sync=none}), and the heap (after a full GC) and the RSS are sampled every {@code --every}
 * files while the station waits.
 *
 * <p>The station's request function is {@link #next()}. Offline with {@code prefetch: 1}, the
 * source asks for file k+1 on the clock, right after file k ended and was closed. When it asks for
 * file k+1 with k a multiple of {@code --every}, {@link #next()} holds the clock until the main
 * thread has taken its sample: at that moment exactly k files have been opened, decoded to their
 * end and closed, and nothing else runs.
 */
public final class DecodeMemory {
    static final double HEAP_GROWTH_LIMIT = 0.05;
    static final double RSS_GROWTH_LIMIT_MB = 10;

    private static final String USAGE =
            """
            usage: DecodeMemory [--files=1000] [--every=100] [--baseline=200] [--media=DIR] [--timeout=120]
                                [--plugins=DIR] [--set key=value ...]
              --files     how many short files are decoded in a row (half mp3, half AAC, 1.5 s each)
              --every     files between samples
              --baseline  files after which growth is measured (the warm-up); growth is from this sample to the last
              --media     where the test files are made (once) with the ffmpeg CLI
              --timeout   seconds to wait for the next sample before giving up (a stuck station)
              --plugins   operator plugins directory (default bench/target/plugins)
              --set       extra engine setting, e.g. --set frame.duration=0.04""";

    // The hand-off between the station's request function and the main thread.
    private static volatile List<String> files = List.of();
    private static volatile int every = 100;
    private static int
            handed; // only touched by the request function, which runs one call at a time
    private static int sampledAt = -1;
    private static final BlockingQueue<Integer> checkpoints = new ArrayBlockingQueue<>(1);
    private static final Semaphore resume = new Semaphore(0);

    /**
     * The station's request function: the next file, or null after the last; holds the clock at
     * each checkpoint.
     */
    public static synchronized String next() throws InterruptedException {
        if (handed != sampledAt && (handed > 0 && handed % every == 0 || handed == files.size())) {
            sampledAt = handed;
            checkpoints.put(handed);
            resume.acquire();
        }
        if (handed >= files.size()) return null;
        return files.get(handed++);
    }

    record Sample(
            int files,
            double wallSeconds,
            double streamSeconds,
            long heapBytes,
            long rssKb,
            long hwmKb,
            int threads,
            int fds,
            long cpuNanos) {}

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "files",
                        "1000",
                        "every",
                        "100",
                        "baseline",
                        "200",
                        "media",
                        MediaSupport.DEFAULT_MEDIA,
                        "timeout",
                        "120");
        int count = Integer.parseInt(opts.string("files"));
        every = Integer.parseInt(opts.string("every"));
        int baseline = Integer.parseInt(opts.string("baseline"));
        double timeout = opts.seconds("timeout");
        if (count < every || baseline % every != 0 || baseline >= count) {
            throw new IllegalArgumentException(
                    "need files >= every, baseline a multiple of every and below files");
        }

        Map<String, String> settings = new HashMap<>();
        settings.put("clock.sync", "none");
        settings.put("clock.reportEvery", "0");
        settings.putAll(opts.settings());

        System.out.println(BenchSupport.header("DecodeMemory"));
        Path media = Path.of(opts.string("media")).resolve("short");
        long t0 = System.nanoTime();
        List<Path> paths = MediaSupport.shortFiles(media, count);
        System.out.printf(
                Locale.ROOT,
                "%d files in %s (half 1.5 s mp3 128k 44.1 kHz, half 1.5 s AAC 96k 48 kHz), "
                        + "ready in %.1f s%n",
                paths.size(),
                media,
                (System.nanoTime() - t0) / 1e9);
        List<String> uris = new ArrayList<>();
        for (Path p : paths) uris.add(p.toAbsolutePath().toString());
        files = uris;
        System.out.printf(
                Locale.ROOT,
                "station: output.dummy(mksafe(request.dynamic(prefetch: 1) { next file })), "
                        + "settings %s; a sample every %d files%n%n",
                settings,
                every);
        System.out.flush();

        List<Sample> samples = new ArrayList<>();
        Path script = MediaSupport.scriptsDir().resolve("decode-memory.groovy");
        try (OperatorPlugins plugins =
                MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
            Sample start = sample(0, System.nanoTime(), null);
            Station station = Station.load(script, plugins.functions(), settings, Map.of());
            long wall0 = System.nanoTime();
            station.start(null);
            try {
                System.out.printf(
                        "%6s %8s %9s %9s %9s %9s %8s %5s %10s%n",
                        "files",
                        "wall s",
                        "stream s",
                        "heap MB",
                        "RSS MB",
                        "HWM MB",
                        "threads",
                        "fds",
                        "cpu ms/f");
                System.out.println("-".repeat(84));
                System.out.println(row(start, null));
                Sample prev = start;
                while (true) {
                    Integer k = checkpoints.poll((long) (timeout * 1000), TimeUnit.MILLISECONDS);
                    if (k == null) {
                        System.out.printf(
                                Locale.ROOT,
                                "ERROR: no checkpoint within %.0f s after %d files; clocks: %s%n",
                                timeout,
                                prev.files(),
                                describe(station));
                        break;
                    }
                    Sample s = sample(k, wall0, station);
                    samples.add(s);
                    System.out.println(row(s, prev));
                    System.out.flush();
                    prev = s;
                    resume.release();
                    if (k >= count) break;
                }
            } finally {
                station.stop();
                if (!station.awaitStopped(Duration.ofSeconds(30)))
                    System.out.println("WARNING: station did not stop in 30 s");
            }
        }
        System.out.println();
        summarise(samples, baseline, count);
        System.exit(0);
    }

    private static Sample sample(int k, long wall0, Station station) throws InterruptedException {
        long heap = MediaSupport.heapAfterGc();
        double stream = 0;
        if (station != null) {
            for (ClockInfo c : station.clocks()) stream = Math.max(stream, c.getTime());
        }
        return new Sample(
                k,
                (System.nanoTime() - wall0) / 1e9,
                stream,
                heap,
                MediaSupport.statusKb("VmRSS"),
                MediaSupport.statusKb("VmHWM"),
                MediaSupport.nativeThreads(),
                MediaSupport.openFds(),
                BenchSupport.processCpuNanos());
    }

    private static String row(Sample s, Sample prev) {
        String cpuPerFile =
                prev == null || s.files() == prev.files()
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "%.2f",
                                (s.cpuNanos() - prev.cpuNanos())
                                        / 1e6
                                        / (s.files() - prev.files()));
        return String.format(
                Locale.ROOT,
                "%6d %8.1f %9.1f %9.2f %9.1f %9.1f %8d %5d %10s",
                s.files(),
                s.wallSeconds(),
                s.streamSeconds(),
                s.heapBytes() / 1048576.0,
                s.rssKb() / 1024.0,
                s.hwmKb() / 1024.0,
                s.threads(),
                s.fds(),
                cpuPerFile);
    }

    private static String describe(Station station) {
        StringBuilder b = new StringBuilder();
        for (ClockInfo c : station.clocks()) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "%s ticks %d time %.1f s; ",
                            c.getId(),
                            c.getTicks(),
                            c.getTime()));
        }
        return b.toString();
    }

    private static void summarise(List<Sample> samples, int baseline, int count) {
        Sample base = null;
        Sample last = null;
        for (Sample s : samples) {
            if (s.files() == baseline) base = s;
            last = s;
        }
        if (base == null || last == null || last.files() < count) {
            System.out.println(
                    "verdict: INCOMPLETE (the run did not reach " + count + " files; see above)");
            return;
        }
        double heapGrowth = (last.heapBytes() - base.heapBytes()) / (double) base.heapBytes();
        double rssGrowthMb = (last.rssKb() - base.rssKb()) / 1024.0;
        double files = last.files() - base.files();
        System.out.printf(
                Locale.ROOT,
                "decode speed: %.0f files/s, %.0fx real time (%d files, %.1f s of audio in %.1f s)%n",
                last.files() / last.wallSeconds(),
                last.streamSeconds() / last.wallSeconds(),
                last.files(),
                last.streamSeconds(),
                last.wallSeconds());
        System.out.printf(
                Locale.ROOT,
                "heap after GC, files %d..%d: %.2f -> %.2f MB, growth %+.1f%% (%+.1f KB per file); "
                        + "limit %.0f%%%n",
                base.files(),
                last.files(),
                base.heapBytes() / 1048576.0,
                last.heapBytes() / 1048576.0,
                heapGrowth * 100,
                (last.heapBytes() - base.heapBytes()) / 1024.0 / files,
                HEAP_GROWTH_LIMIT * 100);
        System.out.printf(
                Locale.ROOT,
                "RSS, files %d..%d: %.1f -> %.1f MB, growth %+.1f MB (%+.1f KB per file); limit %.0f MB%n",
                base.files(),
                last.files(),
                base.rssKb() / 1024.0,
                last.rssKb() / 1024.0,
                rssGrowthMb,
                rssGrowthMb * 1024 / files,
                RSS_GROWTH_LIMIT_MB);
        System.out.printf(
                Locale.ROOT,
                "threads %d -> %d, open fds %d -> %d%n",
                base.threads(),
                last.threads(),
                base.fds(),
                last.fds());
        boolean flat = heapGrowth < HEAP_GROWTH_LIMIT && rssGrowthMb < RSS_GROWTH_LIMIT_MB;
        System.out.printf(
                "verdict: %s (heap growth < %.0f%% and RSS growth < %.0f MB after the first %d files)%n",
                flat ? "flat" : "GROWING", HEAP_GROWTH_LIMIT * 100, RSS_GROWTH_LIMIT_MB, baseline);
    }
}
