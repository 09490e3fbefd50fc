package org.groovecast.bench;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.bench.AudioCeiling.LiquidsoapProcess;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.net.harbor.HarborMount;

/**
 * The harbor under load. Part {@code http}: wrk against a GET endpoint answering 1 KiB, at several
 * connection counts, with keep-alive and with {@code Connection: close}, for Groovecast and for
 * Liquidsoap 2.1.3 ({@code liquidsoap/harbor.liq}) in the same run. Part {@code idle}: the same
 * endpoint at 64 keep-alive connections while 0, 500, 2,000 idle connections are held open. Part
 * {@code fanout}: listeners of a 128 kbit/s MP3 mount, CPU and heap allocation per listener.
 */
public final class HarborHttp {
    private static final String USAGE =
            """
            usage: HarborHttp [--parts=http,idle,fanout] [--engines=groovecast,liquidsoap] [--conns=1,16,64,128]
                              [--duration=10] [--threads=2] [--idle=0,500,2000] [--rounds=2] [--listeners=0,1000]
                              [--window=10] [--warmup=10]
                              [--port=18123] [--plugins=DIR]
              --parts      which parts to run, in this order
              --engines    http part: which servers to measure (also nginx: the anchors' static.conf,
                           one worker, the close-per-request ceiling)
              --conns      http part: wrk connection counts
              --duration   seconds of each wrk run
              --threads    wrk threads
              --idle       idle part: idle connections held open during each run
              --rounds     idle part: passes over the counts (the best per count is compared)
              --listeners  fanout part: listener counts (the first is the baseline)
              --window     fanout part: seconds measured per count
              --warmup     http part: seconds of keep-alive and of close load each server gets
                           before anything is measured (the JIT's compiling, which nginx never pays)""";

    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern PCT =
            Pattern.compile(
                    "^\\s+(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
    private static final Pattern ERRORS =
            Pattern.compile("Socket errors: (.*)|Non-2xx or 3xx responses: (\\d+)");

    record Run(
            String engine,
            String mode,
            int conns,
            double rps,
            double p50ms,
            double p99ms,
            String errors) {}

    public static void main(String[] args) throws Exception {
        Options opts =
                new Options(
                        args,
                        USAGE,
                        "parts",
                        "http,idle,fanout",
                        "engines",
                        "groovecast,nginx,liquidsoap",
                        "conns",
                        "1,16,64,128",
                        "duration",
                        "10",
                        "threads",
                        "2",
                        "idle",
                        "0,500,2000",
                        "listeners",
                        "0,1000",
                        "rounds",
                        "3",
                        "window",
                        "10",
                        "warmup",
                        "10",
                        "port",
                        "18123");
        System.out.println(BenchSupport.header("HarborHttp"));
        int port = Integer.parseInt(opts.string("port"));
        for (String part : opts.list("parts")) {
            switch (part) {
                case "http" -> http(opts, port);
                case "idle" -> idle(opts, port);
                case "fanout" -> fanout(opts, port);
                default -> throw new IllegalArgumentException("unknown part " + part);
            }
        }
        System.exit(0);
    }

    // ---------------------------------------------------------------- servers

    private static Station groovecast(Options opts, int port) {
        OperatorPlugins plugins =
                MediaSupport.loadPlugins(BenchSupport.pluginsDir(opts.string("plugins")));
        Map<String, String> settings = new HashMap<>(opts.settings());
        settings.put("clock.reportEvery", "0");
        settings.put("harbor.bind", "127.0.0.1");
        Path files;
        try {
            files = Files.createTempDirectory("groovecast-bench-files-");
            Files.writeString(files.resolve("static"), "x".repeat(1024));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Station s =
                Station.load(
                        MediaSupport.scriptsDir().resolve("harbor-static.groovy"),
                        plugins.functions(),
                        settings,
                        Map.of(
                                "HARBOR_PORT",
                                String.valueOf(port),
                                "STATIC_DIR",
                                files.toString()));
        s.start(null);
        return s;
    }

    private static LiquidsoapProcess liquidsoap(int port) throws Exception {
        Path script = AudioCeiling.liquidsoapDir().resolve("harbor.liq");
        LiquidsoapProcess ls =
                new LiquidsoapProcess(
                        script,
                        Map.of(
                                "HARBOR_PORT",
                                String.valueOf(port),
                                "HARBOR_BACKLOG",
                                "1024",
                                "LS_MAX_RUNTIME",
                                "900"));
        if (ls.await("harbor ready", 60) < 0) {
            ls.close();
            throw new IllegalStateException("liquidsoap did not start:\n" + ls.tail(20));
        }
        return ls;
    }

    /**
     * nginx with the anchors' static.conf (one worker), moved to {@code port} and a directory of
     * its own.
     */
    private static Process nginx(int port) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("groovecast-bench-nginx-");
        Files.writeString(dir.resolve("static"), "x".repeat(1024));
        // nginx started as root serves as nobody: the payload must be readable by others (403
        // otherwise).
        Files.setPosixFilePermissions(
                dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path anchor = AudioCeiling.liquidsoapDir().resolveSibling("nginx").resolve("static.conf");
        String conf =
                Files.readString(anchor)
                        .replace("/tmp/nginx-static", dir.toString())
                        .replace("127.0.0.1:8124", "127.0.0.1:" + port);
        Files.writeString(dir.resolve("nginx.conf"), conf);
        Process p =
                new ProcessBuilder(
                                "nginx",
                                "-c",
                                dir.resolve("nginx.conf").toString(),
                                "-p",
                                dir + "/")
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("out.log").toFile())
                        .start();
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end && p.isAlive()) {
            try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
                return p;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException(
                "nginx did not listen on "
                        + port
                        + ": "
                        + Files.readString(dir.resolve("out.log")));
    }

    private static boolean nginxInstalled() {
        try {
            Process p = new ProcessBuilder("nginx", "-v").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits (up to 90 s) until fewer than 500 TCP sockets are in TIME_WAIT: each closed connection
     * of a close-per-request run leaves one for 60 s, and with ~28k ephemeral ports a run that
     * starts on a full table measures the port table, not the server.
     */
    private static int drainTimeWait() throws InterruptedException {
        long end = System.nanoTime() + 90_000_000_000L;
        int n;
        while ((n = timeWait()) >= 500 && System.nanoTime() < end) Thread.sleep(1000);
        return n;
    }

    private static int timeWait() {
        try {
            return (int)
                    MediaSupport.run(List.of("ss", "-H", "-t", "-n", "state", "time-wait"), 30)
                            .lines()
                            .count();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    // ---------------------------------------------------------------- wrk

    private static Run wrk(String engine, String mode, int conns, int port, Options opts) {
        return wrk(engine, mode, conns, port, opts, Integer.parseInt(opts.string("duration")));
    }

    private static Run wrk(
            String engine, String mode, int conns, int port, Options opts, int seconds) {
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                "wrk",
                                "-t" + Math.min(conns, Integer.parseInt(opts.string("threads"))),
                                "-c" + conns,
                                "-d" + seconds + "s",
                                "--latency",
                                "--timeout",
                                "5s"));
        if (mode.equals("close")) cmd.addAll(List.of("-H", "Connection: close"));
        // groovecast.file: the same station's harbor.http.static copy of the payload, a file as
        // nginx serves it.
        cmd.add(
                "http://127.0.0.1:"
                        + port
                        + (engine.equals("groovecast.file") ? "/files/static" : "/static"));
        String out = MediaSupport.run(cmd, 120);
        Matcher r = RPS.matcher(out);
        double rps = r.find() ? Double.parseDouble(r.group(1)) : 0;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        Matcher p = PCT.matcher(out);
        while (p.find()) {
            double v =
                    Double.parseDouble(p.group(2))
                            * switch (p.group(3)) {
                                case "us" -> 0.001;
                                case "s" -> 1000;
                                default -> 1;
                            };
            if (p.group(1).equals("50")) p50 = v;
            else p99 = v;
        }
        List<String> errors = new ArrayList<>();
        Matcher e = ERRORS.matcher(out);
        while (e.find()) errors.add(e.group(1) != null ? e.group(1) : "non-2xx " + e.group(2));
        return new Run(engine, mode, conns, rps, p50, p99, String.join("; ", errors));
    }

    /**
     * Both servers run at once on two ports, and each configuration is measured on one right after
     * the other, so that the ratio compares runs seconds apart: the machine's speed drifts by more
     * than 10 % over minutes.
     */
    private static void http(Options opts, int port) throws Exception {
        System.out.println(
                "Part http: GET /static (1,024 bytes) with wrk -t"
                        + opts.string("threads")
                        + " -d"
                        + opts.string("duration")
                        + "s, each configuration on both servers back to back; Liquidsoap with "
                        + "settings.harbor.max_connections = 1024");
        System.out.printf(
                "%-15s %-10s %6s %11s %9s %9s  %s%n%s%n",
                "engine", "mode", "conns", "req/s", "p50 ms", "p99 ms", "errors", "-".repeat(80));
        List<String> engines = new ArrayList<>(opts.list("engines"));
        Map<String, Integer> ports = new HashMap<>();
        List<AutoCloseable> servers = new ArrayList<>();
        try {
            if (engines.contains("groovecast")) {
                Station s = groovecast(opts, port);
                servers.add(s::stop);
                ports.put("groovecast", port);
                // The same harbor, its static files: like for like with nginx, where /static is a
                // script handler.
                engines.add(engines.indexOf("groovecast") + 1, "groovecast.file");
                ports.put("groovecast.file", port);
            }
            if (engines.contains("nginx")) {
                if (!nginxInstalled()) {
                    System.out.println("nginx: not installed (apt-get install -y nginx); skipped");
                    engines.remove("nginx");
                } else {
                    Process nginx = nginx(port + 2);
                    servers.add(
                            () -> {
                                nginx.destroy();
                                nginx.waitFor(10, TimeUnit.SECONDS);
                            });
                    ports.put("nginx", port + 2);
                }
            }
            if (engines.contains("liquidsoap")) {
                if (AudioCeiling.liquidsoapVersion() == null) {
                    System.out.println("liquidsoap: not installed; skipped");
                    engines.remove("liquidsoap");
                } else {
                    servers.add(liquidsoap(port + 1));
                    ports.put("liquidsoap", port + 1);
                }
            }
            // Both modes warm up: with close, accepting and closing run code keep-alive never
            // reaches, and a server runs for days, so its compiled steady state is what compares.
            int warmup = Integer.parseInt(opts.string("warmup"));
            for (String engine : engines) {
                wrk(engine, "keepalive", 64, ports.get(engine), opts, Math.max(3, warmup));
                if (warmup > 0) wrk(engine, "close", 64, ports.get(engine), opts, warmup);
            }
            List<Run> runs = new ArrayList<>();
            for (String mode : List.of("keepalive", "close")) {
                for (int c : opts.ints("conns")) {
                    for (String engine : engines) {
                        int waiting = mode.equals("close") ? drainTimeWait() : 0;
                        if (waiting >= 500)
                            System.out.println(
                                    "(still " + waiting + " sockets in TIME_WAIT after 90 s)");
                        Run run = wrk(engine, mode, c, ports.get(engine), opts);
                        runs.add(run);
                        System.out.printf(
                                Locale.ROOT,
                                "%-15s %-10s %6d %11.0f %9.2f %9.2f  %s%n",
                                run.engine(),
                                run.mode(),
                                run.conns(),
                                run.rps(),
                                run.p50ms(),
                                run.p99ms(),
                                run.errors());
                        System.out.flush();
                    }
                }
            }
            System.out.println();
            for (String mode : List.of("keepalive", "close")) {
                for (int c : opts.ints("conns")) {
                    Run g = find(runs, "groovecast", mode, c);
                    Run l = find(runs, "liquidsoap", mode, c);
                    if (g == null || l == null || l.rps() == 0) continue;
                    double want = mode.equals("keepalive") ? 10 : 3;
                    double ratio = g.rps() / l.rps();
                    System.out.printf(
                            Locale.ROOT,
                            "Groovecast / Liquidsoap, %s, %d connections: %.1fx%s%n",
                            mode,
                            c,
                            ratio,
                            c == 64
                                    ? String.format(
                                            Locale.ROOT,
                                            " (target >= %.0fx: %s)",
                                            want,
                                            ratio >= want ? "PASS" : "FAIL")
                                    : "");
                }
            }
            for (String mode : List.of("keepalive", "close")) {
                for (int c : opts.ints("conns")) {
                    Run n = find(runs, "nginx", mode, c);
                    for (String engine : List.of("groovecast.file", "groovecast")) {
                        Run g = find(runs, engine, mode, c);
                        if (g == null || n == null || n.rps() == 0) continue;
                        double ratio = g.rps() / n.rps();
                        boolean target =
                                c == 64 && mode.equals("close") && engine.equals("groovecast.file");
                        System.out.printf(
                                Locale.ROOT,
                                "%s / nginx, %s, %d connections: %.2fx%s%n",
                                engine.equals("groovecast")
                                        ? "Groovecast (script handler)"
                                        : "Groovecast (static file)",
                                mode,
                                c,
                                ratio,
                                target
                                        ? String.format(
                                                Locale.ROOT,
                                                " (target >= 0.9x: %s)",
                                                ratio >= 0.9 ? "PASS" : "FAIL")
                                        : "");
                    }
                }
            }
            System.out.println();
        } finally {
            for (AutoCloseable s : servers) s.close();
            BenchSupport.settle();
        }
    }

    private static Run find(List<Run> runs, String engine, String mode, int conns) {
        for (Run r : runs) {
            if (r.engine().equals(engine) && r.mode().equals(mode) && r.conns() == conns) return r;
        }
        return null;
    }

    // ---------------------------------------------------------------- idle connections

    private static void idle(Options opts, int port) throws Exception {
        int rounds = Integer.parseInt(opts.string("rounds"));
        System.out.println(
                "Part idle: wrk keep-alive, 64 connections, while idle connections are held open (Groovecast); "
                        + rounds
                        + " rounds over the counts, best round per count kept (this machine is noisy)");
        System.out.printf(
                "%-6s %-6s %11s %9s %9s %12s%n%s%n",
                "round", "idle", "req/s", "p99 ms", "cpu ms/s", "cpu us/req", "-".repeat(60));
        Station s = groovecast(opts, port);
        Map<Integer, Double> best = new java.util.LinkedHashMap<>();
        try {
            wrk("groovecast", "keepalive", 16, port, opts, 3);
            for (int round = 1; round <= rounds; round++) {
                for (int n : opts.ints("idle")) {
                    List<SocketChannel> held = new ArrayList<>();
                    for (int i = 0; i < n; i++)
                        held.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
                    Thread.sleep(500);
                    long cpu0 = BenchSupport.processCpuNanos();
                    long t0 = System.nanoTime();
                    Run run = wrk("groovecast", "keepalive", 64, port, opts);
                    double secs = (System.nanoTime() - t0) / 1e9;
                    double cpu = (BenchSupport.processCpuNanos() - cpu0) / 1e6 / secs;
                    for (SocketChannel c : held) c.close();
                    best.merge(n, run.rps(), Math::max);
                    System.out.printf(
                            Locale.ROOT,
                            "%-6d %-6d %11.0f %9.2f %9.0f %12.1f%n",
                            round,
                            n,
                            run.rps(),
                            run.p99ms(),
                            cpu,
                            cpu * 1000 / run.rps());
                    System.out.flush();
                    Thread.sleep(500);
                }
            }
        } finally {
            s.stop();
            BenchSupport.settle();
        }
        double base = best.values().iterator().next();
        double worst = 0;
        for (Map.Entry<Integer, Double> e : best.entrySet()) {
            System.out.printf(
                    Locale.ROOT,
                    "best of %d rounds with %d idle: %.0f req/s%n",
                    rounds,
                    e.getKey(),
                    e.getValue());
            worst = Math.max(worst, Math.abs(e.getValue() - base) / base);
        }
        System.out.printf(
                Locale.ROOT,
                "largest change against no idle connection: %.1f%% (target within 10%%: %s)%n%n",
                worst * 100,
                worst <= 0.10 ? "PASS" : "FAIL");
    }

    // ---------------------------------------------------------------- fan-out

    private static void fanout(Options opts, int port) throws Exception {
        double window = opts.seconds("window");
        System.out.println(
                "Part fanout: listeners of /radio (MP3 128 kbit/s), held by a separate JVM; CPU and heap "
                        + "allocation of the engine's JVM over "
                        + window
                        + " s");
        System.out.printf(
                "%-9s %9s %11s %13s %13s %15s%n%s%n",
                "listeners",
                "cpu ms/s",
                "sent KB/s",
                "KB/s/listener",
                "alloc KB/s",
                "alloc B/s/lstnr",
                "-".repeat(78));
        Station s = groovecast(opts, port);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        double baseCpu = Double.NaN;
        double baseAlloc = Double.NaN;
        try {
            Thread.sleep(2000);
            HarborMount mount = s.network().harbors().getFirst().mounts().iterator().next();
            for (int n : opts.ints("listeners")) {
                Process listeners = null;
                if (n > 0) {
                    listeners =
                            new ProcessBuilder(
                                            BenchSupport.javaCommand(
                                                    FanoutListeners.class,
                                                    String.valueOf(n),
                                                    String.valueOf(port),
                                                    String.valueOf(window + 10)))
                                    .inheritIO()
                                    .start();
                    long end = System.nanoTime() + 30_000_000_000L;
                    while (mount.listeners() < n && System.nanoTime() < end) Thread.sleep(100);
                    Thread.sleep(2000);
                }
                long sent0 = mount.bytesOut();
                long cpu0 = BenchSupport.processCpuNanos();
                long alloc0 = threads.getTotalThreadAllocatedBytes();
                long t0 = System.nanoTime();
                Thread.sleep((long) (window * 1000));
                double secs = (System.nanoTime() - t0) / 1e9;
                double cpu = (BenchSupport.processCpuNanos() - cpu0) / 1e6 / secs;
                double alloc = (threads.getTotalThreadAllocatedBytes() - alloc0) / 1024.0 / secs;
                double sent = (mount.bytesOut() - sent0) / 1024.0 / secs;
                int connected = mount.listeners();
                if (listeners != null) listeners.destroy();
                if (Double.isNaN(baseCpu)) {
                    baseCpu = cpu;
                    baseAlloc = alloc;
                }
                System.out.printf(
                        Locale.ROOT,
                        "%-9d %9.0f %11.0f %13.1f %13.1f %15.1f%n",
                        connected,
                        cpu,
                        sent,
                        connected == 0 ? 0 : sent / connected,
                        alloc,
                        connected == 0 ? 0 : (alloc - baseAlloc) * 1024 / connected);
                if (connected > 0) {
                    System.out.printf(
                            Locale.ROOT,
                            "  CPU per listener: %.3f ms/s; heap allocated per listener: %.0f B/s "
                                    + "against %.0f B/s of stream it receives (a copy per listener would be >= 1x)%n",
                            (cpu - baseCpu) / connected,
                            (alloc - baseAlloc) * 1024 / connected,
                            sent * 1024 / connected);
                }
                System.out.flush();
                Thread.sleep(2000);
            }
        } finally {
            s.stop();
        }
        System.out.println();
    }

    private HarborHttp() {}
}
