package org.groovecast.bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.api.Source;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.StationReloader;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * Live reload under listeners: a station serving an MP3 mount is reloaded {@code --reloads} times
 * (its tone changes each time); for each reload, the time from the reload request to the new graph
 * on air (its source's first frame), and the longest silence any of {@code --listeners} listeners
 * saw on its socket around it. Prints p50 and max against the targets (p50 under 500 ms, no
 * listener gap over 100 ms).
 */
public final class ReloadLatency {
    private static final String USAGE =
            """
            usage: ReloadLatency [--reloads=20] [--listeners=20] [--pause=1.0] [--port=18321] [--plugins=DIR]
              --reloads    reloads to measure
              --listeners  listeners held on the mount (one thread reads them all)
              --pause      seconds between reloads""";

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "reloads",
                        "20",
                        "listeners",
                        "20",
                        "pause",
                        "1.0",
                        "port",
                        "18321");
        int reloads = Integer.parseInt(opts.string("reloads"));
        int port = Integer.parseInt(opts.string("port"));
        double pause = opts.seconds("pause");
        System.out.println(BenchSupport.header("ReloadLatency"));
        Path dir = Files.createTempDirectory("groovecast-reload-");
        Path script = dir.resolve("station.groovy");
        Files.writeString(script, station(port, 400));
        try (OperatorPlugins plugins =
                MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
            StationReloader reloader =
                    new StationReloader(
                            script, plugins.functions(), Map.of("clock.reportEvery", "0"));
            reloader.start();
            Listeners listeners = new Listeners(port, Integer.parseInt(opts.string("listeners")));
            Thread reader = Thread.ofPlatform().name("listeners").start(listeners);
            BenchSupport.sleepSeconds(2);
            // The baseline: the longest silence with no reload at all (the encoder hands out whole
            // MP3 frames).
            listeners.resetGap();
            BenchSupport.sleepSeconds(pause * 3);
            double baseline = listeners.worstGapMs();
            System.out.printf(
                    Locale.ROOT,
                    "no reload: longest listener gap %.1f ms over %.1f s (the baseline)%n",
                    baseline,
                    pause * 3);
            List<Double> onAir = new ArrayList<>();
            List<Double> gaps = new ArrayList<>();
            for (int i = 1; i <= reloads; i++) {
                Files.writeString(script, station(port, 400 + 10 * i));
                listeners.resetGap();
                long t0 = System.nanoTime();
                if (!reloader.reload()) throw new IllegalStateException("reload " + i + " failed");
                Source tone =
                        reloader.current().graph().sources().stream()
                                .filter(s -> "tone".equals(s.id()))
                                .findFirst()
                                .orElseThrow();
                AtomicLong firstFrame = new AtomicLong();
                var reg = tone.onFrame(() -> firstFrame.compareAndSet(0, System.nanoTime()));
                while (firstFrame.get() == 0) Thread.sleep(1);
                reg.release();
                onAir.add((firstFrame.get() - t0) / 1e6);
                BenchSupport.sleepSeconds(pause);
                gaps.add(listeners.worstGapMs());
                System.out.printf(
                        Locale.ROOT,
                        "reload %2d: on air after %6.1f ms, longest listener gap %6.1f ms%n",
                        i,
                        onAir.getLast(),
                        gaps.getLast());
                System.out.flush();
            }
            listeners.stop = true;
            reader.join();
            reloader.stop();
            double p50 = percentile(onAir, 50);
            double gapMax = Collections.max(gaps);
            System.out.printf(
                    Locale.ROOT,
                    "%nreload to new graph on air: p50 %.1f ms, max %.1f ms (target p50 < 500 ms: %s)%n",
                    p50,
                    Collections.max(onAir),
                    p50 < 500 ? "PASS" : "FAIL");
            System.out.printf(
                    Locale.ROOT,
                    "longest listener gap: p50 %.1f ms, max %.1f ms (baseline %.1f ms, max / baseline "
                            + "%.2f; target < 100 ms: %s); every listener connected at the end: %s%n",
                    percentile(gaps, 50),
                    gapMax,
                    baseline,
                    gapMax / baseline,
                    gapMax < 100 ? "PASS" : "FAIL",
                    listeners.allConnected());
        }
        System.exit(0);
    }

    static String station(int port, int freq) {
        return "def s = sine("
                + freq
                + ", amplitude: 0.3, id: 'tone')\n"
                + "output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: "
                + port
                + ", burst: 0)\n";
    }

    static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(
                (int) Math.min(sorted.size() - 1, Math.round(p / 100 * (sorted.size() - 1))));
    }

    /**
     * Listeners read by one thread (blocking reads with a short poll), tracking the longest
     * silence.
     */
    static final class Listeners implements Runnable {
        final List<SocketChannel> channels = new ArrayList<>();
        final long[] last;
        volatile long worstGap;
        volatile boolean stop;
        private final boolean[] closed;

        Listeners(int port, int n) throws Exception {
            last = new long[n];
            closed = new boolean[n];
            for (int i = 0; i < n; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                c.write(ByteBuffer.wrap("GET /radio HTTP/1.0\r\n\r\n".getBytes()));
                c.configureBlocking(false);
                channels.add(c);
            }
        }

        void resetGap() {
            long now = System.nanoTime();
            java.util.Arrays.fill(last, now);
            worstGap = 0;
        }

        double worstGapMs() {
            return worstGap / 1e6;
        }

        boolean allConnected() {
            for (boolean c : closed) {
                if (c) return false;
            }
            return true;
        }

        @Override
        public void run() {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            resetGap();
            try {
                while (!stop) {
                    long now = System.nanoTime();
                    for (int i = 0; i < channels.size(); i++) {
                        buf.clear();
                        int r = channels.get(i).read(buf);
                        if (r < 0) closed[i] = true;
                        if (r > 0) {
                            worstGap = Math.max(worstGap, now - last[i]);
                            last[i] = now;
                        }
                    }
                    Thread.sleep(2);
                }
                for (SocketChannel c : channels) c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private ReloadLatency() {}
}
