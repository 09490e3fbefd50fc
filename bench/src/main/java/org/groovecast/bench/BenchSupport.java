package org.groovecast.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.ClockInfo;
import org.groovecast.host.Station;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.LatenessHistogram;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.sched.TaskScheduler;

/** What the clock benchmarks share: options, plugins, the station script, and the probes. */
final class BenchSupport {
    private BenchSupport() {}

    // ---------------------------------------------------------------- options

    /**
     * {@code --name=value} options; a bare {@code --name} is "true". Unknown names are an error.
     * Every benchmark takes {@code --plugins=DIR} (default: bench/target/plugins) and {@code
     * --set}.
     */
    static final class Options {
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, String> settings = new LinkedHashMap<>();

        /**
         * @param defaults option names and their default values, alternating
         */
        Options(String[] args, String usage, String... defaults) {
            for (int i = 0; i < defaults.length; i += 2) values.put(defaults[i], defaults[i + 1]);
            values.putIfAbsent("plugins", "");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    System.out.println(usage);
                    System.exit(0);
                }
                if (!a.startsWith("--")) fail("unexpected argument " + a, usage);
                int eq = a.indexOf('=');
                String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
                String value = eq < 0 ? "true" : a.substring(eq + 1);
                if (name.equals("set")) {
                    if (eq < 0) { // --set key=value, as two arguments
                        if (i + 1 >= args.length) fail("--set expects key=value", usage);
                        value = args[++i];
                    }
                    int e2 = value.indexOf('=');
                    if (e2 <= 0) fail("--set expects key=value, got " + value, usage);
                    settings.put(value.substring(0, e2), value.substring(e2 + 1));
                } else if (!values.containsKey(name)) {
                    fail("unknown option --" + name, usage);
                } else {
                    values.put(name, value);
                }
            }
        }

        private static void fail(String message, String usage) {
            System.err.println(message);
            System.err.println(usage);
            System.exit(2);
        }

        String string(String name) {
            return values.get(name);
        }

        double seconds(String name) {
            return Double.parseDouble(values.get(name));
        }

        List<Integer> ints(String name) {
            List<Integer> out = new ArrayList<>();
            for (String s : values.get(name).split(",")) {
                if (!s.isBlank()) out.add(Integer.parseInt(s.trim()));
            }
            return out;
        }

        List<String> list(String name) {
            List<String> out = new ArrayList<>();
            for (String s : values.get(name).split(",")) {
                if (!s.isBlank()) out.add(s.trim());
            }
            return out;
        }

        /** Extra engine settings given as {@code --set key=value}. */
        Map<String, String> settings() {
            return settings;
        }
    }

    // ---------------------------------------------------------------- engine

    /**
     * The command that runs {@code main} of another bench class in a JVM of its own, with this
     * one's class path.
     */
    static List<String> javaCommand(Class<?> main, String... args) {
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * The plugins directory: --plugins, else -Dgroovecast.bench.plugins, else bench/target/plugins
     * or target/plugins.
     */
    static Path pluginsDir(String option) {
        if (option != null && !option.isBlank()) return Path.of(option);
        String prop = System.getProperty("groovecast.bench.plugins");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        Path inRepo = Path.of("bench", "target", "plugins");
        return Files.isDirectory(inRepo) ? inRepo : Path.of("target", "plugins");
    }

    static OperatorPlugins loadPlugins(Path dir) {
        if (!Files.isRegularFile(dir.resolve("core.jar"))) {
            throw new IllegalStateException(
                    "no core.jar in "
                            + dir.toAbsolutePath()
                            + "; build first: mvn -o install -DskipTests (the bench module's package phase copies it)");
        }
        OperatorPlugins plugins = OperatorPlugins.load(dir);
        if (!plugins.problems().isEmpty())
            throw new IllegalStateException("plugin problems: " + plugins.problems());
        return plugins;
    }

    /** A script with {@code n} independent clocks: each a sine into a discarding output. */
    static String sineScript(int n) {
        return "for (int i = 0; i < "
                + n
                + "; i++) {\n"
                + "    output.dummy(sine(440.0 + i, amplitude: 0.1))\n"
                + "}\n";
    }

    /** The frame period the settings give, for the expected tick counts. */
    static double frameSeconds(Map<String, String> settings) {
        return Double.parseDouble(settings.getOrDefault("frame.duration", "0.02"));
    }

    static List<Clock> clocks(Station station) {
        List<Clock> out = new ArrayList<>();
        for (ClockInfo c : station.clocks()) out.add((Clock) c);
        return out;
    }

    /** Clears every clock's lateness histogram, while the clocks run, at the start of a window. */
    static void resetLateness(List<Clock> clocks) {
        for (Clock c : clocks) c.lateness().reset();
    }

    /** Tick lateness over a window, all clocks merged. */
    /** What one measurement window saw, per second where a rate. */
    record Window(
            double seconds,
            Lateness lateness,
            double cpuMsPerSec,
            double switchesPerSec,
            double engineSwitchesPerSec,
            double wakeupsPerSec,
            SwitchDelta switches,
            double othersMsPerSec,
            double stealMsPerSec) {}

    /**
     * Measures the clocks for {@code window} seconds with the probes nested so that each one's own
     * cost stays out of the next: switches and wake-ups over [s0, s1], CPU over [c0, c1], lateness
     * over [t0, t1]. {@code scheduler} may be null (no wake-up count).
     */
    static Window measure(List<Clock> clocks, TaskScheduler scheduler, double window)
            throws InterruptedException {
        long s0 = System.nanoTime();
        long wake0 = scheduler == null ? 0 : scheduler.wakeups();
        SwitchSample sw0 = SwitchSample.take();
        long c0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        MachineSample m0 = MachineSample.take();
        long t0 = System.nanoTime();
        resetLateness(clocks);
        sleepSeconds(window);
        Lateness lateness = lateness(clocks);
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        MachineSample m1 = MachineSample.take();
        long c1 = System.nanoTime();
        SwitchSample sw1 = SwitchSample.take();
        long wake1 = scheduler == null ? 0 : scheduler.wakeups();
        long s1 = System.nanoTime();
        double swSecs = (s1 - s0) / 1e9;
        SwitchDelta sw = SwitchDelta.between(sw0, sw1);
        return new Window(
                (t1 - t0) / 1e9,
                lateness,
                (cpu1 - cpu0) / 1e6 / ((c1 - c0) / 1e9),
                sw.total() / swSecs,
                sw.engine() / swSecs,
                (wake1 - wake0) / swSecs,
                sw,
                MachineSample.othersMsPerSec(m0, m1, cpu1 - cpu0),
                MachineSample.stealMsPerSec(m0, m1));
    }

    record Lateness(long ticks, double p50, double p99, double max) {}

    /**
     * Merges the clocks' histograms (while they run) and reads the window's quantiles from the
     * merge.
     */
    static Lateness lateness(List<Clock> clocks) {
        LatenessHistogram all = new LatenessHistogram();
        for (Clock c : clocks) all.addAll(c.lateness());
        return new Lateness(
                all.count(),
                all.quantileMillis(0.5),
                all.quantileMillis(0.99),
                all.quantileMillis(1.0));
    }

    /** The histogram's ceiling in ms: lateness at or above it lands in the last bucket. */
    static final double LATENESS_CEILING_MS = new LatenessHistogram().ceilingMillis();

    // ---------------------------------------------------------------- probes

    /** Linux's CLOCK_PROCESS_CPUTIME_ID. */
    private static final int CLOCK_PROCESS_CPUTIME_ID = 2;

    private static final MethodHandle CLOCK_GETTIME = clockGettime();
    private static volatile String cpuSource;

    private static MethodHandle clockGettime() {
        try {
            Linker linker = Linker.nativeLinker();
            MemorySegment fn = linker.defaultLookup().find("clock_gettime").orElse(null);
            if (fn == null) return null;
            return linker.downcallHandle(
                    fn,
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        } catch (RuntimeException | LinkageError e) {
            return null; // no native access: fall back to the coarse sources
        }
    }

    /**
     * Process CPU time (all threads, JIT and GC included, ended threads too), in nanoseconds.
     * clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through the FFM API first: it has nanosecond
     * resolution, where OperatingSystemMXBean.getProcessCpuTime and /proc/self/stat count in 10 ms
     * jiffies, too coarse for the CPU of one clock over a 10 s window.
     */
    static long processCpuNanos() {
        if (CLOCK_GETTIME != null) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment ts =
                        arena.allocate(16, 8); // struct timespec { time_t tv_sec; long tv_nsec; }
                int rc = (int) CLOCK_GETTIME.invokeExact(CLOCK_PROCESS_CPUTIME_ID, ts);
                if (rc == 0) {
                    cpuSource = "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)";
                    return ts.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L
                            + ts.get(ValueLayout.JAVA_LONG, 8);
                }
            } catch (Throwable e) {
                // fall through
            }
        }
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            long t = os.getProcessCpuTime();
            if (t >= 0) {
                cpuSource = "OperatingSystemMXBean.getProcessCpuTime (10 ms resolution)";
                return t;
            }
        }
        cpuSource = "/proc/self/stat (10 ms resolution)";
        return cpuFromProcStat();
    }

    /** Where {@link #processCpuNanos} got its figure, for the report header. */
    static String cpuSource() {
        processCpuNanos();
        return cpuSource;
    }

    /** utime + stime of /proc/self/stat, assuming the usual 100 ticks per second. */
    private static long cpuFromProcStat() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are at 11 and 12.
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return ticks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read process CPU time", e);
        }
    }

    /** One sample of every live thread's voluntary context switches, by thread id. */
    record SwitchSample(Map<Integer, Long> byThread, Map<Integer, String> names) {
        static SwitchSample take() {
            Map<Integer, Long> counts = new HashMap<>();
            Map<Integer, String> names = new HashMap<>();
            try (DirectoryStream<Path> tasks =
                    Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    int tid = Integer.parseInt(task.getFileName().toString());
                    try {
                        String name = "?";
                        long vol = -1;
                        for (String line : Files.readAllLines(task.resolve("status"))) {
                            if (line.startsWith("Name:")) name = line.substring(5).trim();
                            else if (line.startsWith("voluntary_ctxt_switches:")) {
                                vol =
                                        Long.parseLong(
                                                line.substring("voluntary_ctxt_switches:".length())
                                                        .trim());
                            }
                        }
                        if (vol >= 0) {
                            counts.put(tid, vol);
                            names.put(tid, name);
                        }
                    } catch (NoSuchFileException gone) {
                        // the thread ended while we listed the directory
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read /proc/self/task (Linux only)", e);
            }
            return new SwitchSample(counts, names);
        }
    }

    /**
     * Voluntary context switches between two samples, summed over threads: a thread seen only at
     * the end counts from zero (it started during the window), a thread seen only at the start
     * ended during the window and its last switches are lost ({@link #vanished} says how many).
     */
    record SwitchDelta(long total, long engine, int vanished, int threads) {
        static SwitchDelta between(SwitchSample a, SwitchSample b) {
            long total = 0;
            long engine = 0;
            for (Map.Entry<Integer, Long> e : b.byThread().entrySet()) {
                long d = e.getValue() - a.byThread().getOrDefault(e.getKey(), 0L);
                total += d;
                if (b.names().getOrDefault(e.getKey(), "").startsWith("gc-")) engine += d;
            }
            int vanished = 0;
            for (Integer tid : a.byThread().keySet()) {
                if (!b.byThread().containsKey(tid)) vanished++;
            }
            return new SwitchDelta(total, engine, vanished, b.byThread().size());
        }
    }

    /**
     * Machine-wide CPU figures from /proc/stat (USER_HZ 100, so 10 ms steps), to show how much
     * other processes took during a window: on a 2-core machine anything else running shows up
     * directly in the lateness figures. Busy time is wall time × CPUs minus idle and iowait, not
     * the sum of the user and system columns: on a tickless (virtual) machine those are sampled at
     * the tick and can miss most of a process's CPU, while idle time is measured exactly.
     */
    record MachineSample(long wallNanos, long idleNanos, long stealNanos, int cpus) {
        static MachineSample take() {
            long wall = System.nanoTime();
            try {
                List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
                String[] f = lines.get(0).trim().split("\\s+");
                // cpu user nice system idle iowait irq softirq steal guest guest_nice
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                int cpus = 0;
                for (String line : lines) {
                    if (line.startsWith("cpu")
                            && line.length() > 3
                            && Character.isDigit(line.charAt(3))) cpus++;
                }
                return new MachineSample(wall, idle * 10_000_000L, steal * 10_000_000L, cpus);
            } catch (IOException | RuntimeException e) {
                return new MachineSample(wall, -1, -1, 0);
            }
        }

        /**
         * CPU ms per second taken by other processes, given this process's own CPU over the same
         * span.
         */
        static double othersMsPerSec(MachineSample a, MachineSample b, long ownCpuNanos) {
            if (a.idleNanos() < 0 || b.idleNanos() < 0 || a.cpus() == 0) return Double.NaN;
            double seconds = (b.wallNanos() - a.wallNanos()) / 1e9;
            long busy =
                    (b.wallNanos() - a.wallNanos()) * a.cpus()
                            - (b.idleNanos() - a.idleNanos())
                            - (b.stealNanos() - a.stealNanos());
            return Math.max(0, (busy - ownCpuNanos) / 1e6 / seconds);
        }

        static double stealMsPerSec(MachineSample a, MachineSample b) {
            if (a.stealNanos() < 0 || b.stealNanos() < 0) return Double.NaN;
            return (b.stealNanos() - a.stealNanos())
                    / 1e6
                    / ((b.wallNanos() - a.wallNanos()) / 1e9);
        }
    }

    /**
     * Waits, up to {@code maxSeconds}, for a half second in which other processes and steal took
     * less than {@code thresholdMsPerSec} of CPU; returns the seconds waited, negative if it gave
     * up.
     */
    static double awaitQuiet(double maxSeconds, double thresholdMsPerSec)
            throws InterruptedException {
        if (maxSeconds <= 0) return 0;
        long start = System.nanoTime();
        long deadline = start + (long) (maxSeconds * 1e9);
        while (true) {
            long cpu0 = processCpuNanos();
            MachineSample m0 = MachineSample.take();
            Thread.sleep(500);
            long cpu1 = processCpuNanos();
            MachineSample m1 = MachineSample.take();
            double others = MachineSample.othersMsPerSec(m0, m1, cpu1 - cpu0);
            double steal = MachineSample.stealMsPerSec(m0, m1);
            double waited = (System.nanoTime() - start) / 1e9;
            if (Double.isNaN(others) || others < thresholdMsPerSec && steal < thresholdMsPerSec)
                return waited - 0.5;
            if (System.nanoTime() >= deadline) return -waited;
        }
    }

    static void sleepSeconds(double s) throws InterruptedException {
        long ms = Math.round(s * 1000);
        if (ms > 0) Thread.sleep(ms);
    }

    /** Lets the previous station's garbage and threads go before the next measurement. */
    static void settle() throws InterruptedException {
        System.gc();
        Thread.sleep(500);
    }

    static String header(String name) {
        Runtime rt = Runtime.getRuntime();
        return name
                + ": "
                + rt.availableProcessors()
                + " cores, Java "
                + Runtime.version()
                + ", "
                + System.getProperty("os.name")
                + " "
                + System.getProperty("os.version")
                + ", max heap "
                + rt.maxMemory() / (1024 * 1024)
                + " MB\nCPU time from "
                + cpuSource();
    }
}
