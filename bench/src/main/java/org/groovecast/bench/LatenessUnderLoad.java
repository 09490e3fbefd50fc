package org.groovecast.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.bench.BenchSupport.Lateness;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.sched.BlockingPool;

/**
 * Whether a clock keeps time while the blocking pool is saturated with CPU-bound work: one clock (a
 * sine into {@code output.dummy}) in task mode, its tick lateness measured first with nothing else
 * running, then while {@code --tasks} busy loops run on {@link Station#blockingPool()} until the
 * window ends.
 */
public final class LatenessUnderLoad {
    static final double TARGET_LOADED_P50_MS = 0.5;

    private static final String USAGE =
            """
            usage: LatenessUnderLoad [--tasks=8] [--warmup=3] [--window=10] [--jvmWarmup=2] [--quietWait=10]
                                     [--plugins=DIR] [--set key=value ...]
              --tasks      CPU-bound tasks submitted to the blocking pool (which is sized to run them all,
                           scheduler.blockingTasks = tasks, unless given with --set)
              --warmup     seconds the station runs before the idle window
              --window     seconds of each window, idle and loaded
              --jvmWarmup  seconds of a throwaway 200-clock station first, so the JIT has compiled
                           the tick and scheduler paths (0 to skip)
              --quietWait  before each window, wait up to this many seconds for other processes to
                           leave the CPU alone (under 50 ms/s over half a second); 0 not to wait
              --plugins    operator plugins directory (default bench/target/plugins)
              --set        extra engine setting, e.g. --set scheduler.threads=1""";

    /** One window's figures. */
    record Window(
            String name,
            double seconds,
            long ticks,
            double p50,
            double p99,
            double max,
            double cpuMsPerSec,
            double switchesPerSec,
            double engineSwitchesPerSec,
            double lag,
            double othersMsPerSec,
            double stealMsPerSec) {}

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "tasks",
                        "8",
                        "warmup",
                        "3",
                        "window",
                        "10",
                        "jvmWarmup",
                        "2",
                        "quietWait",
                        "10");
        int tasks = Integer.parseInt(opts.string("tasks"));
        double warmup = opts.seconds("warmup");
        double window = opts.seconds("window");
        double jvmWarmup = opts.seconds("jvmWarmup");
        double quietWait = opts.seconds("quietWait");

        Map<String, String> settings = new HashMap<>();
        settings.put("clock.task", "true");
        settings.put("clock.reportEvery", "0");
        settings.put("scheduler.blockingTasks", String.valueOf(Math.max(1, tasks)));
        settings.putAll(opts.settings());

        System.out.println(BenchSupport.header("LatenessUnderLoad"));
        System.out.printf(
                Locale.ROOT,
                "1 clock, %d busy task(s) on the blocking pool, warm-up %.1f s, windows %.1f s, "
                        + "quiet wait up to %.0f s, settings %s%n",
                tasks,
                warmup,
                window,
                quietWait,
                settings);
        System.out.flush();

        try (OperatorPlugins plugins =
                BenchSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
            if (jvmWarmup > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "JVM warm-up: 200 clocks, task mode, %.1f s (not measured)%n",
                        jvmWarmup);
                System.out.flush();
                ClockScaling.measure(
                        plugins, Map.of("clock.reportEvery", "0"), "task", 200, jvmWarmup, 0);
                BenchSupport.settle();
            }
            run(plugins, settings, tasks, warmup, window, quietWait);
        }
        System.exit(0);
    }

    private static void run(
            OperatorPlugins plugins,
            Map<String, String> settings,
            int tasks,
            double warmup,
            double window,
            double quietWait)
            throws InterruptedException {
        Station station =
                Station.load(
                        "lateness.groovy",
                        BenchSupport.sineScript(1),
                        plugins.functions(),
                        settings);
        station.start(null);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(tasks);
        AtomicLong chunks = new AtomicLong();
        Window idle;
        Window loaded;
        try {
            List<Clock> clocks = BenchSupport.clocks(station);
            BenchSupport.sleepSeconds(warmup);
            ClockScaling.announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC), "idle");
            idle = measure("idle", clocks, window);
            System.out.println("idle window done");

            ClockScaling.announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, ClockScaling.NOISY_MS_PER_SEC), "loaded");
            BlockingPool pool = station.blockingPool();
            for (int i = 0; i < tasks; i++) {
                long seed = 0x9E3779B97F4A7C15L * (i + 1);
                pool.execute(
                        () -> {
                            try {
                                chunks.addAndGet(spin(seed, stop));
                            } finally {
                                ended.countDown();
                            }
                        });
            }
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (pool.inFlight() < tasks && System.nanoTime() < deadline) Thread.sleep(10);
            System.out.printf(
                    "load started: %d task(s) running, %d queued, pool cap %d%n",
                    pool.inFlight(), pool.queued(), pool.cap());
            loaded = measure("loaded", clocks, window);
            System.out.println("loaded window done");
        } finally {
            stop.set(true);
            if (!ended.await(10, TimeUnit.SECONDS))
                System.out.println("WARNING: busy tasks did not end within 10 s");
            station.stop();
        }
        System.out.printf(
                Locale.ROOT, "busy tasks ran %d chunks of 100k xorshift steps%n%n", chunks.get());

        double frame = BenchSupport.frameSeconds(settings);
        System.out.printf(
                Locale.ROOT,
                "%-7s %8s %8s %8s %8s %8s %8s %9s %9s %11s %8s %7s %6s%n",
                "window",
                "seconds",
                "ticks",
                "expected",
                "p50 ms",
                "p99 ms",
                "max ms",
                "cpu ms/s",
                "vol cs/s",
                "engine cs/s",
                "lag s",
                "others",
                "steal");
        System.out.println("-".repeat(117));
        for (Window w : List.of(idle, loaded)) {
            System.out.printf(
                    Locale.ROOT,
                    "%-7s %8.2f %8d %8d %8.2f %8.2f %8s %9.1f %9.0f %11.0f %8.3f %7.0f %6.0f%n",
                    w.name(),
                    w.seconds(),
                    w.ticks(),
                    Math.round(w.seconds() / frame),
                    w.p50(),
                    w.p99(),
                    ClockScaling.maxText(w.max()),
                    w.cpuMsPerSec(),
                    w.switchesPerSec(),
                    w.engineSwitchesPerSec(),
                    w.lag(),
                    w.othersMsPerSec(),
                    w.stealMsPerSec());
        }
        System.out.println();
        for (Window w : List.of(idle, loaded)) {
            ClockScaling.warnAboutNoise(
                    w.othersMsPerSec(), w.stealMsPerSec(), w.name() + " window");
        }
        System.out.printf(
                Locale.ROOT,
                "loaded/idle p50: %.2f  (%.2f ms / %.2f ms)%n",
                loaded.p50() / idle.p50(),
                loaded.p50(),
                idle.p50());
        System.out.printf(
                Locale.ROOT,
                "loaded/idle p99: %.2f  (%.2f ms / %.2f ms)%n",
                loaded.p99() / idle.p99(),
                loaded.p99(),
                idle.p99());
        System.out.printf(
                Locale.ROOT,
                "p50 under load: %.2f ms  target < %.1f ms: %s%n",
                loaded.p50(),
                TARGET_LOADED_P50_MS,
                loaded.p50() < TARGET_LOADED_P50_MS ? "PASS" : "FAIL");
    }

    private static Window measure(String name, List<Clock> clocks, double window)
            throws InterruptedException {
        BenchSupport.Window w = BenchSupport.measure(clocks, null, window);
        double lag = 0;
        for (Clock c : clocks) lag = Math.max(lag, c.getLag());
        Lateness h = w.lateness();
        return new Window(
                name,
                w.seconds(),
                h.ticks(),
                h.p50(),
                h.p99(),
                h.max(),
                w.cpuMsPerSec(),
                w.switchesPerSec(),
                w.engineSwitchesPerSec(),
                lag,
                w.othersMsPerSec(),
                w.stealMsPerSec());
    }

    /**
     * Burns CPU until {@code stop}; returns the chunks done. The result feeds a check so the JIT
     * keeps the work.
     */
    private static long spin(long seed, AtomicBoolean stop) {
        long x = seed;
        long n = 0;
        while (!stop.get()) {
            for (int i = 0; i < 100_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            n++;
        }
        return x == 0 ? -n : n; // x never becomes 0 from a non-zero seed, but the JIT cannot know
    }
}
