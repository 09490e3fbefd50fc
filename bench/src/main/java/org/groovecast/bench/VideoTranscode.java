package org.groovecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.api.ClockInfo;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * Video transcoding in real time. Part one: one 720p and one 1080p transcode (H.264 + AAC in,
 * libx264 + AAC out) with encoder threads 1 and auto, each step's clock duty cycle beside the CPU
 * the ffmpeg command line spends on the same transcode in the same run. Part two: N 720p transcodes
 * on one shared clock, then with a clock each, N raised by one until a clock lags past {@code
 * --lagLimit}; CPU and resident memory per stream.
 */
public final class VideoTranscode {
    private static final String USAGE =
            """
            usage: VideoTranscode [--parts=duty,ceiling] [--warmup=5] [--window=15] [--preset=veryfast]
                                  [--max=16] [--lagLimit=1.0] [--media=DIR] [--plugins=DIR] [--set key=value ...]
              --parts     duty: one transcode at 720p and 1080p, threads 1 and auto; ceiling: N 720p
                          transcodes, one shared clock against a clock each
              --warmup    seconds each step runs before its window
              --window    seconds of each step's window
              --preset    libx264 preset, for Groovecast and the ffmpeg CLI alike
              --max       the largest N tried
              --lagLimit  a ceiling step fails when a clock lags more than this (seconds)
              --media     where the test clips are made (once) with the ffmpeg CLI""";

    private static double warmup;
    private static double window;
    private static double lagLimit;
    private static String preset;

    record Step(
            String label,
            int n,
            boolean held,
            double meanDuty,
            double maxLag,
            double cpuMsPerSec,
            double rssMb,
            String note) {}

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "parts",
                        "duty,ceiling",
                        "warmup",
                        "5",
                        "window",
                        "15",
                        "preset",
                        "veryfast",
                        "max",
                        "16",
                        "lagLimit",
                        "1.0",
                        "media",
                        MediaSupport.DEFAULT_MEDIA);
        warmup = opts.seconds("warmup");
        window = opts.seconds("window");
        lagLimit = opts.seconds("lagLimit");
        preset = opts.string("preset");
        int max = Integer.parseInt(opts.string("max"));
        Path media = Path.of(opts.string("media"));
        System.out.println(BenchSupport.header("VideoTranscode"));
        Path hd = clip(media, 1280, 720);
        Path fhd = clip(media, 1920, 1080);
        System.out.printf(
                Locale.ROOT,
                "inputs %s and %s (30 s testsrc2 + tone, H.264 + AAC); out: libx264 %s g 50 "
                        + "+ AAC 128k in MPEG-TS; warm-up %.0f s, window %.0f s%n%n",
                hd,
                fhd,
                preset,
                warmup,
                window);
        try (OperatorPlugins plugins =
                MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
            for (String part : opts.list("parts")) {
                switch (part) {
                    case "duty" -> duty(plugins, opts.settings(), hd, fhd);
                    case "ceiling" -> ceiling(plugins, opts.settings(), hd, max);
                    default -> throw new IllegalArgumentException("unknown part " + part);
                }
            }
        }
        System.exit(0);
    }

    /** A 30 s clip of moving test pattern (so the encoder has work) and a tone, made once. */
    static Path clip(Path media, int width, int height) throws IOException {
        Path f = media.resolve("video-" + height + "p.mkv");
        if (Files.isRegularFile(f) && Files.size(f) > 100_000) return f;
        Files.createDirectories(media);
        Path tmp = media.resolve("video-" + height + "p.tmp.mkv");
        MediaSupport.run(
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-y",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc2=size=" + width + "x" + height + ":rate=25:duration=30",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:duration=30:sample_rate=44100",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "veryfast",
                        "-b:v",
                        (height >= 1080 ? "6M" : "3M"),
                        "-pix_fmt",
                        "yuv420p",
                        "-c:a",
                        "aac",
                        "-b:a",
                        "128k",
                        "-ac",
                        "2",
                        tmp.toString()),
                600);
        Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return f;
    }

    // ---------------------------------------------------------------- part one

    private static void duty(OperatorPlugins plugins, Map<String, String> extra, Path hd, Path fhd)
            throws Exception {
        System.out.println("Part one: one transcode, duty cycle by resolution and encoder threads");
        System.out.printf(
                "%-6s %-7s %7s %8s %9s %11s %9s  %s%n%s%n",
                "size",
                "threads",
                "duty",
                "max lag",
                "cpu ms/s",
                "ffmpeg ms/s",
                "gc/ffmpeg",
                "note",
                "-".repeat(80));
        for (Path in : List.of(hd, fhd)) {
            boolean full = in == fhd;
            for (String threads : List.of("1", "0")) {
                Map<String, String> settings = new HashMap<>(extra);
                settings.put("video.frame.width", full ? "1920" : "1280");
                settings.put("video.frame.height", full ? "1080" : "720");
                Step s = run(plugins, settings, in, 1, false, threads);
                double ff =
                        MediaSupport.ffmpegCpuPerAudioSecond(
                                        List.of(
                                                "-threads",
                                                threads.equals("0") ? "0" : "1",
                                                "-i",
                                                in.toString(),
                                                "-c:v",
                                                "libx264",
                                                "-preset",
                                                preset,
                                                "-g",
                                                "50",
                                                "-threads",
                                                threads,
                                                "-c:a",
                                                "aac",
                                                "-b:a",
                                                "128k",
                                                "-f",
                                                "mpegts",
                                                "-y",
                                                "/dev/null"),
                                        30)
                                * 1000;
                System.out.printf(
                        Locale.ROOT,
                        "%-6s %-7s %7.3f %8.3f %9.0f %11.0f %9.2f  %s%n",
                        full ? "1080p" : "720p",
                        threads.equals("0") ? "auto" : threads,
                        s.meanDuty(),
                        s.maxLag(),
                        s.cpuMsPerSec(),
                        ff,
                        s.cpuMsPerSec() / ff,
                        s.note());
                System.out.flush();
            }
        }
        System.out.println(
                "duty: share of each 20 ms frame the clock spent producing it (mean over the window); "
                        + "gc/ffmpeg: Groovecast's CPU per second of stream over the ffmpeg CLI's for the same transcode\n");
    }

    // ---------------------------------------------------------------- part two

    private static void ceiling(
            OperatorPlugins plugins, Map<String, String> extra, Path hd, int max) throws Exception {
        System.out.println(
                "Part two: N 720p transcodes (encoder threads auto) until a clock lags over "
                        + lagLimit
                        + " s");
        System.out.printf(
                "%-12s %3s %-5s %7s %8s %9s %11s %10s %10s  %s%n%s%n",
                "clocks",
                "N",
                "held",
                "duty",
                "max lag",
                "cpu ms/s",
                "ms/s/stream",
                "RSS MB",
                "MB/stream",
                "note",
                "-".repeat(100));
        Map<String, Step> best = new HashMap<>();
        for (boolean shared : List.of(true, false)) {
            String label = shared ? "one shared" : "one each";
            for (int n = 1; n <= max; n++) {
                Step s = run(plugins, extra, hd, n, shared, "0");
                System.out.printf(
                        Locale.ROOT,
                        "%-12s %3d %-5s %7.3f %8.3f %9.0f %11.1f %10.0f %10.1f  %s%n",
                        label,
                        n,
                        s.held() ? "yes" : "NO",
                        s.meanDuty(),
                        s.maxLag(),
                        s.cpuMsPerSec(),
                        s.cpuMsPerSec() / n,
                        s.rssMb(),
                        s.rssMb() / n,
                        s.note());
                System.out.flush();
                if (!s.held()) break;
                best.put(label, s);
            }
        }
        System.out.println();
        System.out.println("Summary");
        for (String label : List.of("one shared", "one each")) {
            Step s = best.get(label);
            System.out.printf(
                    Locale.ROOT,
                    "720p transcodes held, %s clock: %s%n",
                    label,
                    s == null
                            ? "0"
                            : String.format(
                                    Locale.ROOT,
                                    "%d (CPU %.0f ms/s per stream, RSS %.0f MB per stream)",
                                    s.n(),
                                    s.cpuMsPerSec() / s.n(),
                                    s.rssMb() / s.n()));
        }
        Step a = best.get("one shared");
        Step b = best.get("one each");
        if (a != null && b != null) {
            System.out.printf(
                    Locale.ROOT,
                    "clock each / shared clock, N held: %.2f%n",
                    b.n() / (double) a.n());
        }
    }

    // ---------------------------------------------------------------- one step

    private static Step run(
            OperatorPlugins plugins,
            Map<String, String> extra,
            Path in,
            int n,
            boolean shared,
            String threads)
            throws Exception {
        Path out = Files.createTempDirectory("groovecast-video-");
        Map<String, String> settings = new HashMap<>(extra);
        settings.put("clock.reportEvery", "0");
        long rss0 = MediaSupport.statusKb("VmRSS");
        Station station =
                Station.load(
                        MediaSupport.scriptsDir().resolve("video-transcode.groovy"),
                        plugins.functions(),
                        settings,
                        Map.of(
                                "STREAMS",
                                String.valueOf(n),
                                "IN",
                                in.toString(),
                                "OUT_DIR",
                                out.toString(),
                                "THREADS",
                                threads,
                                "SHARED",
                                String.valueOf(shared),
                                "PRESET",
                                preset));
        station.start(null);
        boolean held = true;
        String note = "";
        double maxLag = 0;
        double dutySum = 0;
        int dutySamples = 0;
        double cpu;
        long rss;
        try {
            BenchSupport.sleepSeconds(warmup);
            long cpu0 = BenchSupport.processCpuNanos();
            long t0 = System.nanoTime();
            long end = t0 + (long) (window * 1e9);
            while (System.nanoTime() < end) {
                Thread.sleep(250);
                for (ClockInfo c : station.clocks()) {
                    maxLag = Math.max(maxLag, c.getLag());
                    dutySum += c.getDuty();
                    dutySamples++;
                    if (held && c.getLag() > lagLimit) {
                        held = false;
                        note =
                                String.format(
                                        Locale.ROOT,
                                        "clock %s: lag %.2f s after %.1f s",
                                        c.getId(),
                                        c.getLag(),
                                        (System.nanoTime() - t0) / 1e9);
                    }
                }
                if (!held) break;
            }
            cpu = (BenchSupport.processCpuNanos() - cpu0) / 1e6 / ((System.nanoTime() - t0) / 1e9);
            rss = MediaSupport.statusKb("VmRSS");
        } finally {
            station.stop();
            station.awaitStopped(Duration.ofSeconds(30));
            MediaSupport.deleteTree(out);
            BenchSupport.settle();
        }
        return new Step(
                shared ? "shared" : "each",
                n,
                held,
                dutySamples == 0 ? 0 : dutySum / dutySamples,
                maxLag,
                cpu,
                (rss - rss0) / 1024.0,
                note);
    }

    private VideoTranscode() {}
}
