package org.groovecast.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.groovecast.bench.BenchSupport.Lateness;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * What each added clock costs, with clocks as scheduler tasks ({@code clock.task=true}, the
 * default) and as threads of their own ({@code clock.task=false}), measured in one run so the two
 * are compared on the same machine in the same state.
 *
 * <p>For every clock count and mode it starts a station of that many independent clocks (a sine
 * into {@code output.dummy} each), lets it warm up, then over a window measures process CPU time,
 * voluntary context switches summed over all threads, scheduler wake-ups and the tick lateness of
 * all clocks merged. The smallest count is the baseline: "per added clock" figures are {@code (x(N)
 * - x(base)) / (N - base)}, which removes what the JVM costs with nothing to do.
 */
public final class ClockScaling {
    static final double TARGET_SWITCHES_PER_ADDED_CLOCK = 10;
    static final double TARGET_P99_MS = 2;
    static final int TARGET_P99_CLOCKS = 200;

    /**
     * CPU ms/s taken by others (other processes, steal) from which a window counts as disturbed.
     */
    static final double NOISY_MS_PER_SEC = 50;

    private static final String USAGE =
            """
            usage: ClockScaling [--counts=1,50,100,200] [--modes=task,thread] [--warmup=3] [--window=10]
                                [--jvmWarmup=2] [--quietWait=10] [--plugins=DIR] [--set key=value ...]
              --counts     clock counts to measure; the smallest is the baseline for "per added clock"
              --modes      task (clock.task=true), thread (clock.task=false), or both
              --warmup     seconds each station runs before its window
              --window     seconds measured per station
              --jvmWarmup  seconds of a throwaway 200-clock station per mode first, so the JIT has
                           compiled the tick path before the 1-clock baseline (0 to skip)
              --quietWait  before each window, wait up to this many seconds for other processes to
                           leave the CPU alone (under 50 ms/s over half a second); 0 not to wait
              --plugins    operator plugins directory (default bench/target/plugins)
              --set        extra engine setting, e.g. --set scheduler.threads=1""";

    /** One station's measurement. */
    record Result(
            String mode,
            int clocks,
            double seconds,
            double cpuMsPerSec,
            double switchesPerSec,
            double engineSwitchesPerSec,
            double wakeupsPerSec,
            int threads,
            int vanished,
            long ticks,
            double p50,
            double p99,
            double max,
            double othersMsPerSec,
            double stealMsPerSec,
            String error) {
        boolean ok() {
            return error == null;
        }
    }

    private static double frameSeconds = 0.02;
    private static double quietWait;

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "counts",
                        "1,50,100,200",
                        "modes",
                        "task,thread",
                        "warmup",
                        "3",
                        "window",
                        "10",
                        "jvmWarmup",
                        "2",
                        "quietWait",
                        "10");

        List<Integer> counts = new ArrayList<>(new TreeSet<>(opts.ints("counts")));
        List<String> modes = opts.list("modes");
        for (String m : modes) {
            if (!m.equals("task") && !m.equals("thread"))
                throw new IllegalArgumentException("unknown mode " + m);
        }
        if (counts.isEmpty() || counts.get(0) < 1)
            throw new IllegalArgumentException("counts must be >= 1");
        double warmup = opts.seconds("warmup");
        double window = opts.seconds("window");
        double jvmWarmup = opts.seconds("jvmWarmup");
        quietWait = opts.seconds("quietWait");

        Map<String, String> base = new HashMap<>();
        base.put("clock.reportEvery", "0");
        base.putAll(opts.settings());
        frameSeconds = BenchSupport.frameSeconds(base);

        System.out.println(BenchSupport.header("ClockScaling"));
        System.out.printf(
                Locale.ROOT,
                "counts %s, modes %s, warm-up %.1f s, window %.1f s, quiet wait up to %.0f s, "
                        + "settings %s%n",
                counts,
                modes,
                warmup,
                window,
                quietWait,
                base);
        System.out.flush();

        try (OperatorPlugins plugins =
                BenchSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")))) {
            if (jvmWarmup > 0) {
                for (String mode : modes) {
                    System.out.printf(
                            Locale.ROOT,
                            "JVM warm-up: 200 clocks, %s mode, %.1f s (not measured)%n",
                            mode,
                            jvmWarmup);
                    System.out.flush();
                    measure(plugins, base, mode, 200, jvmWarmup, 0);
                    BenchSupport.settle();
                }
            }
            System.out.println();
            System.out.println(tableHeader());
            System.out.flush();
            List<Result> results = new ArrayList<>();
            for (int n : counts) {
                for (String mode : modes) {
                    Result r = measure(plugins, base, mode, n, warmup, window);
                    results.add(r);
                    System.out.println(row(r));
                    System.out.flush();
                    BenchSupport.settle();
                }
            }
            System.out.println();
            summarise(results, modes, counts);
        }
        System.exit(0); // plugin or logging threads must not keep the JVM up
    }

    /** Runs one station; with {@code window} 0 it only runs for the warm-up and returns null. */
    static Result measure(
            OperatorPlugins plugins,
            Map<String, String> base,
            String mode,
            int n,
            double warmup,
            double window)
            throws InterruptedException {
        Map<String, String> settings = new HashMap<>(base);
        settings.put("clock.task", mode.equals("task") ? "true" : "false");
        Station station;
        try {
            station =
                    Station.load(
                            "clocks-" + n + ".groovy",
                            BenchSupport.sineScript(n),
                            plugins.functions(),
                            settings);
            station.start(null);
        } catch (RuntimeException e) {
            e.printStackTrace();
            return failed(mode, n, "start failed: " + e);
        }
        try {
            List<Clock> clocks = BenchSupport.clocks(station);
            if (clocks.size() != n)
                return failed(
                        mode, n, "expected " + n + " clocks, the station has " + clocks.size());
            BenchSupport.sleepSeconds(warmup);
            if (window <= 0) return null;
            announceQuietWait(
                    BenchSupport.awaitQuiet(quietWait, NOISY_MS_PER_SEC),
                    mode + " " + n + " clocks");

            BenchSupport.Window w = BenchSupport.measure(clocks, station.taskScheduler(), window);
            for (Clock c : clocks) {
                if (c.isFinished())
                    return failed(mode, n, "clock " + c.getId() + " ended during the window");
            }
            Lateness lateness = w.lateness();
            return new Result(
                    mode,
                    n,
                    w.seconds(),
                    w.cpuMsPerSec(),
                    w.switchesPerSec(),
                    w.engineSwitchesPerSec(),
                    w.wakeupsPerSec(),
                    w.switches().threads(),
                    w.switches().vanished(),
                    lateness.ticks(),
                    lateness.p50(),
                    lateness.p99(),
                    lateness.max(),
                    w.othersMsPerSec(),
                    w.stealMsPerSec(),
                    null);
        } finally {
            long stopStart = System.nanoTime();
            station.stop();
            long stopMs = (System.nanoTime() - stopStart) / 1_000_000;
            if (stopMs > 2000)
                System.out.printf(
                        "  (stopping the %d-clock %s station took %d ms)%n", n, mode, stopMs);
        }
    }

    private static Result failed(String mode, int n, String why) {
        return new Result(mode, n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, why);
    }

    // ---------------------------------------------------------------- report

    private static String tableHeader() {
        return String.format(
                        Locale.ROOT,
                        "%-6s %6s %7s %9s %9s %9s %11s %9s %9s %8s %7s %7s %7s %7s %6s",
                        "mode",
                        "clocks",
                        "threads",
                        "cpu ms/s",
                        "cpu/clock",
                        "vol cs/s",
                        "engine cs/s",
                        "wakeup/s",
                        "ticks",
                        "expected",
                        "p50 ms",
                        "p99 ms",
                        "max ms",
                        "others",
                        "steal")
                + "\n"
                + "-".repeat(131);
    }

    private static String row(Result r) {
        if (!r.ok())
            return String.format(
                    Locale.ROOT, "%-6s %6d  FAILED: %s", r.mode(), r.clocks(), r.error());
        long expected = Math.round(r.clocks() * r.seconds() / frameSeconds);
        return String.format(
                        Locale.ROOT,
                        "%-6s %6d %7d %9.1f %9.3f %9.0f %11.0f %9.0f %9d %8d %7.2f %7.2f %7s %7.0f %6.0f",
                        r.mode(),
                        r.clocks(),
                        r.threads(),
                        r.cpuMsPerSec(),
                        r.cpuMsPerSec() / r.clocks(),
                        r.switchesPerSec(),
                        r.engineSwitchesPerSec(),
                        r.wakeupsPerSec(),
                        r.ticks(),
                        expected,
                        r.p50(),
                        r.p99(),
                        maxText(r.max()),
                        r.othersMsPerSec(),
                        r.stealMsPerSec())
                + (r.vanished() > 0
                        ? "  (" + r.vanished() + " thread(s) ended in the window)"
                        : "");
    }

    static String maxText(double max) {
        double ceiling = BenchSupport.LATENESS_CEILING_MS;
        return max >= ceiling
                ? String.format(Locale.ROOT, ">=%.0f", ceiling)
                : String.format(Locale.ROOT, "%.2f", max);
    }

    private static Result find(List<Result> results, String mode, int n) {
        for (Result r : results) {
            if (r.mode().equals(mode) && r.clocks() == n && r.ok()) return r;
        }
        return null;
    }

    private static void summarise(List<Result> results, List<String> modes, List<Integer> counts) {
        int baseN = counts.get(0);
        int topN = counts.get(counts.size() - 1);
        int p99N = counts.contains(TARGET_P99_CLOCKS) ? TARGET_P99_CLOCKS : topN;
        System.out.printf(
                Locale.ROOT,
                "Per added clock, against the %d-clock baseline of the same mode "
                        + "(cs = voluntary context switches, all threads):%n",
                baseN);
        System.out.printf(
                Locale.ROOT,
                "%-6s %6s %14s %14s %14s %14s %8s %8s%n",
                "mode",
                "clocks",
                "cs/s per +clk",
                "cpu ms/s/clock",
                "cpu ms/s/+clk",
                "wakeup/s/+clk",
                "p50 ms",
                "p99 ms");
        System.out.println("-".repeat(92));
        for (String mode : modes) {
            Result b = find(results, mode, baseN);
            for (int n : counts) {
                Result r = find(results, mode, n);
                if (r == null) {
                    System.out.printf(Locale.ROOT, "%-6s %6d  (no result)%n", mode, n);
                    continue;
                }
                String perAdded = "-";
                String cpuAdded = "-";
                String wakeAdded = "-";
                if (b != null && n > baseN) {
                    perAdded =
                            String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    (r.switchesPerSec() - b.switchesPerSec()) / (n - baseN));
                    cpuAdded =
                            String.format(
                                    Locale.ROOT,
                                    "%.3f",
                                    (r.cpuMsPerSec() - b.cpuMsPerSec()) / (n - baseN));
                    wakeAdded =
                            String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    (r.wakeupsPerSec() - b.wakeupsPerSec()) / (n - baseN));
                }
                System.out.printf(
                        Locale.ROOT,
                        "%-6s %6d %14s %14.3f %14s %14s %8.2f %8.2f%n",
                        mode,
                        n,
                        perAdded,
                        r.cpuMsPerSec() / n,
                        cpuAdded,
                        wakeAdded,
                        r.p50(),
                        r.p99());
            }
        }
        System.out.println();

        Double taskPerAdded = null;
        Double threadPerAdded = null;
        for (String mode : modes) {
            Result b = find(results, mode, baseN);
            Result top = find(results, mode, topN);
            Result p99 = find(results, mode, p99N);
            boolean task = mode.equals("task");
            if (b != null && top != null && topN > baseN) {
                double perAdded = (top.switchesPerSec() - b.switchesPerSec()) / (topN - baseN);
                if (task) taskPerAdded = perAdded;
                else threadPerAdded = perAdded;
                System.out.printf(
                        Locale.ROOT,
                        "%-6s mode: %.2f voluntary ctx switches/s per added clock at %d clocks%s%n",
                        mode,
                        perAdded,
                        topN,
                        task
                                ? verdict(perAdded < TARGET_SWITCHES_PER_ADDED_CLOCK, "< 10")
                                : "  (reference)");
            }
            if (p99 != null) {
                System.out.printf(
                        Locale.ROOT,
                        "%-6s mode: p50 %.2f ms, p99 %.2f ms tick lateness at %d clocks%s%n",
                        mode,
                        p99.p50(),
                        p99.p99(),
                        p99N,
                        !task
                                ? "  (reference)"
                                : p99N == TARGET_P99_CLOCKS
                                        ? verdict(
                                                p99.p99() < TARGET_P99_MS,
                                                "p99 < 2 ms at 200 clocks")
                                        : "  (the p99 < 2 ms target is for 200 clocks, not measured)");
            }
        }
        for (Result r : results) {
            if (r.ok())
                warnAboutNoise(
                        r.othersMsPerSec(),
                        r.stealMsPerSec(),
                        r.mode() + " " + r.clocks() + " clocks");
        }
        Result taskTop = find(results, "task", topN);
        Result threadTop = find(results, "thread", topN);
        if (taskPerAdded != null && threadPerAdded != null) {
            System.out.printf(
                    Locale.ROOT,
                    "task/thread ctx-switches per added clock: %.3f  (at %d clocks: %.2f / %.2f)%n",
                    taskPerAdded / threadPerAdded,
                    topN,
                    taskPerAdded,
                    threadPerAdded);
        }
        if (taskTop != null && threadTop != null) {
            double t = taskTop.cpuMsPerSec() / topN;
            double th = threadTop.cpuMsPerSec() / topN;
            System.out.printf(
                    Locale.ROOT,
                    "task/thread CPU per clock: %.3f  (at %d clocks: %.3f / %.3f ms/s)%n",
                    t / th,
                    topN,
                    t,
                    th);
        }
    }

    static void announceQuietWait(double waited, String where) {
        if (waited < 0) {
            System.out.printf(
                    Locale.ROOT,
                    "  (%s: the machine stayed busy for %.0f s; measuring anyway)%n",
                    where,
                    -waited);
        } else if (waited >= 1) {
            System.out.printf(
                    Locale.ROOT,
                    "  (%s: waited %.0f s for other processes to go quiet)%n",
                    where,
                    waited);
        }
    }

    /**
     * Warns when other processes or the hypervisor took a noticeable share of the CPU in a window.
     */
    static void warnAboutNoise(double othersMsPerSec, double stealMsPerSec, String where) {
        if (othersMsPerSec > NOISY_MS_PER_SEC || stealMsPerSec > NOISY_MS_PER_SEC) {
            System.out.printf(
                    Locale.ROOT,
                    "WARNING: %s: other processes took %.0f ms/s of CPU and steal was %.0f ms/s "
                            + "(of %d cores x 1000): the machine was not quiet, lateness and switches include that noise%n",
                    where,
                    othersMsPerSec,
                    stealMsPerSec,
                    Runtime.getRuntime().availableProcessors());
        }
    }

    private static String verdict(boolean pass, String target) {
        return "  target " + target + ": " + (pass ? "PASS" : "FAIL");
    }
}
