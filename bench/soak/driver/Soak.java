import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's driver (bench/soak/run.sh starts the station and its peers, then this): listeners that
 * stay and listeners that come and go, a DJ who connects every minute, a reload every two minutes, and
 * a sample of the station every interval into soak.csv, with what it did in events.csv; at the end the
 * verdict, on stdout and in verdict.txt. Exit 0 when every check passes, 1 when one fails.
 *
 * Run with the JDK's source launcher, which compiles this directory's classes on the fly:
 *   java bench/soak/driver/Soak.java --pid=PID --out=DIR ... (run.sh passes every option)
 */
public final class Soak {
    private static final String[] DEFAULTS = {"interval=10", "tolerance=5", "dj-every=60", "dj-offset=10",
        "reload-every=120", "freqs=440,550", "bitrate=128", "seed=1", "icecast-listeners=2",
        "icecast-mount=/soak"};
    private static final double[] DJ_SESSIONS = {50, 35, 20, 35};
    private static final Pattern FREQ_LINE = Pattern.compile("(?m)^def lowFreq = \\d+$");

    private final Map<String, String> o;
    private final Path out;
    private final double duration;
    private final double interval;
    private final long t0 = System.nanoTime();
    private final List<String> events = new ArrayList<>();
    private final List<Sample> samples = new ArrayList<>();
    private final List<ForcedGc> forcedGcs = new ArrayList<>();

    /** When the probe held the station in a full collection, and a second after: a clock may report lag then. */
    private record ForcedGc(LocalTime from, LocalTime to) {
        boolean covers(LocalTime t) {
            return !t.isBefore(from) && !t.isAfter(to);
        }
    }

    private Soak(Map<String, String> options) {
        this.o = options;
        this.out = Path.of(need("out"));
        this.duration = num("duration");
        this.interval = num("interval");
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String a : DEFAULTS) options.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        for (String a : args) {
            if (!a.startsWith("--") || !a.contains("=")) throw new IllegalArgumentException("expected --key=value: " + a);
            options.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        }
        System.exit(new Soak(options).run() ? 0 : 1);
    }

    private String need(String key) {
        String v = o.get(key);
        if (v == null) throw new IllegalArgumentException("--" + key + "= is required");
        return v;
    }

    private double num(String key) {
        return Double.parseDouble(need(key));
    }

    private int integer(String key) {
        return Integer.parseInt(need(key));
    }

    private double now() {
        return (System.nanoTime() - t0) / 1e9;
    }

    private synchronized void event(double t, String kind, String detail) {
        events.add(String.format(Locale.ROOT, "%.1f,%s,%s", t, kind, detail.replace(',', ';')));
    }

    private boolean run() throws Exception {
        long pid = Long.parseLong(need("pid"));
        int harborPort = integer("harbor-port");
        int steadyCount = integer("steady");
        int total = integer("listeners");
        int icecastCount = integer("icecast-listeners");
        double warmup = o.containsKey("warmup") ? num("warmup") : duration / 6;
        // The load is periodic: the DJ's four sessions (50, 35, 20, 35 s) repeat every 4 x dj-every
        // (240 s, two reload periods). Windows shorter than that compare different phases (the DJ's
        // decoder thread and its CPU in one window, not in the other): by default a window is one
        // whole cycle, shorter only when two cycles do not fit after the warm-up (a short run).
        int cycle = (int) Math.round(DJ_SESSIONS.length * num("dj-every") / interval);
        int fits = (int) ((duration - warmup) / interval) / 2;
        int window = o.containsKey("window") ? integer("window") : Math.max(1, Math.min(cycle, fits));
        Path script = Path.of(need("script"));
        String[] freqs = need("freqs").split(",");
        if (!FREQ_LINE.matcher(Files.readString(script)).find()) {
            throw new IllegalStateException(script + " has no line `def lowFreq = N` to change at each reload");
        }

        InetSocketAddress harbor = new InetSocketAddress("127.0.0.1", harborPort);
        InetSocketAddress icecast = new InetSocketAddress("127.0.0.1", integer("icecast-port"));
        Listeners pool = new Listeners(Long.parseLong(need("seed")), 10, 60);
        List<Listeners.Listener> steady = new ArrayList<>();
        for (int i = 0; i < steadyCount; i++) steady.add(pool.add("steady-" + i, harbor, "/radio", true));
        List<Listeners.Listener> relayed = new ArrayList<>();
        for (int i = 0; i < icecastCount; i++) relayed.add(pool.add("icecast-" + i, icecast, need("icecast-mount"), true));
        for (int i = steadyCount; i < total; i++) pool.add("churn-" + i, harbor, "/radio", false);
        SteadyWatch steadyWatch = new SteadyWatch("steady listeners", steady, num("bitrate"), interval);
        SteadyWatch relayedWatch = new SteadyWatch("icecast listeners", relayed, num("bitrate"), interval);

        Probe probe = new Probe(pid);
        StationLog log = new StationLog(Path.of(need("log")));
        RtmpClients rtmp = new RtmpClients(Path.of(need("rtmp-clients")));
        HlsDir hls = new HlsDir(Path.of(need("hls-dir")), "lo");
        Dj dj = new Dj(harborPort, need("dj-password"), out.resolve("dj.log"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dj.close();
            try {
                pool.close();
            } catch (IOException ignored) {
                // exiting
            }
        }));

        long clkTck = Long.parseLong(new String(new ProcessBuilder("getconf", "CLK_TCK").start().getInputStream()
                .readAllBytes(), StandardCharsets.US_ASCII).trim());
        Probe.Proc previous = probe.proc();
        double previousT = now();
        pool.start(20);
        event(warmup, "warmup_end", "");

        double djEvery = num("dj-every");
        double nextDj = num("dj-offset");
        double reloadEvery = num("reload-every");
        double nextReload = nextDj + 35; // 35 s into every other DJ cycle
        int djCycle = 0;
        double nextSample = interval;
        int reloads = 0;
        int reloadsWithDj = 0;
        String stationGone = null;
        int freq = 0;
        System.err.printf(Locale.ROOT, "soak: %.0f s, %d listeners (%d steady) + %d on icecast, warm-up %.0f s, "
                + "a sample every %.0f s into %s%n", duration, total, steadyCount, icecastCount, warmup, interval,
                out.resolve("soak.csv"));

        try (Writer csv = Files.newBufferedWriter(out.resolve("soak.csv"))) {
            csv.write(Sample.HEADER + "\n");
            while (nextSample <= duration + 1e-9) {
                double next = Math.min(nextSample, Math.min(nextDj, nextReload));
                sleepUntil(next);
                if (!probe.alive()) {
                    stationGone = String.format(Locale.ROOT, "the station (PID %d) exited at t=%.0f s", pid, now());
                    break;
                }
                if (next == nextDj) {
                    // 50, 35, 20, 35 s in turn: the reload 35 s into every other cycle finds the DJ
                    // on air one time (and kept across it) and gone the next.
                    double seconds = DJ_SESSIONS[djCycle++ % DJ_SESSIONS.length];
                    if (dj.onAir()) {
                        event(now(), "dj_overlap", "previous session still on air");
                    } else {
                        double start = now();
                        dj.start(seconds, 330, code -> event(now(), "dj_off", "ffmpeg exit " + code));
                        event(start, "dj_on", String.format(Locale.ROOT, "%.0f s", seconds));
                    }
                    nextDj += djEvery;
                    if (nextDj > duration - 5) nextDj = Double.POSITIVE_INFINITY;
                } else if (next == nextReload) {
                    freq = 1 - freq;
                    String answer = reload(script, freqs[freq], integer("telnet-port"));
                    reloads++;
                    if (dj.onAir()) reloadsWithDj++;
                    event(now(), "reload", "lowFreq " + freqs[freq] + (dj.onAir() ? ", DJ on air" : "") + ": " + answer);
                    nextReload += reloadEvery;
                    if (nextReload > duration - 20) nextReload = Double.POSITIVE_INFINITY;
                } else {
                    Probe.Proc p = probe.proc();
                    double t = now();
                    double cpu = (p.cpuTicks() - previous.cpuTicks()) / (double) clkTck / (t - previousT) * 100;
                    previous = p;
                    previousT = t;
                    Metrics m = Metrics.scrape(harborPort, "/metrics");
                    log.poll();
                    boolean counted = !samples.isEmpty() && t >= warmup;
                    double slowest = steadyWatch.update(counted);
                    relayedWatch.update(counted);
                    int rtmpOk = rtmp.check();
                    LocalTime gcStart = LocalTime.now();
                    Probe.Heap heap = probe.heapAfterGc();
                    forcedGcs.add(new ForcedGc(gcStart, LocalTime.now().plusSeconds(1)));
                    Sample s = new Sample(t, p.rssKb() / 1024.0, heap.usedBytes() / 1048576.0, heap.gcMillis(), p.threads(), p.fds(),
                            m.value("groovecast_callback_registrations", null), cpu,
                            m.value("groovecast_listeners", "mount=\"/radio\""), steadyWatch.connected(), slowest,
                            relayedWatch.connected(), pool.churnConnects.get(),
                            pool.churnUnexpected.get(), dj.onAir() ? 1 : 0, reloads, log.errors, log.warnings,
                            rtmpOk, hls.files(), hls.sequence());
                    samples.add(s);
                    csv.write(s.csv() + "\n");
                    csv.flush();
                    System.err.println("soak: " + s.line());
                    nextSample += interval;
                }
            }
        }
        steadyWatch.end();
        relayedWatch.end();
        dj.close();
        pool.close();
        Thread.sleep(500);
        log.poll();
        probe.close();
        writeEvents();

        Verdict v = new Verdict(samples, warmup, window, num("tolerance"));
        v.flat("RSS", " MB", 0, Sample::rssMb);
        v.flat("heap after GC", " MB", 0, Sample::heapAfterGcMb);
        v.flat("threads", "", 1, Sample::threads);
        v.flat("file descriptors", "", 1, Sample::fds);
        v.flat("callback registrations", "", 1, Sample::registrations);
        v.flat("CPU", " % of a core", 0, Sample::cpuPct);
        v.check(stationGone == null, "station", stationGone == null ? "ran the whole time" : stationGone);
        steadyWatch.check(v);
        relayedWatch.check(v);
        List<String> reasons = new ArrayList<>(pool.churnReasons);
        v.check(pool.churnUnexpected.get() == 0, "churning listeners", pool.churnConnects.get() + " connections, "
                + pool.churnUnexpected.get() + " lost before their time" + (reasons.isEmpty() ? "" : ": " + reasons));
        long nearGc = log.warnTimes.stream().filter(t -> forcedGcs.stream().anyMatch(g -> g.covers(t))).count();
        v.check(log.errors == 0, "ERROR lines", log.errors + " (WARN lines: " + log.warnings + ", " + nearGc
                + " of them within 1 s after one of the probe's forced full GCs)");
        v.check(log.reloadMillis.size() == reloads, "reloads", reloads + " asked (" + reloadsWithDj + " with the DJ on air), "
                + log.reloadMillis.size() + " done, in " + log.reloadMillis + " ms");
        v.check(log.djConnected == dj.sessions, "DJ sessions", dj.sessions + " started, " + log.djConnected
                + " connections logged by the station, " + log.djKept + " kept across a reload");
        StringBuilder rt = new StringBuilder();
        boolean rtmpPass = !rtmp.clients.isEmpty();
        for (RtmpClients.Client c : rtmp.clients) {
            rtmpPass &= c.gone == null && c.stalls == 0;
            rt.append(c.name).append(c.gone != null ? " " + c.gone : c.stalls > 0 ? " stalled " + c.stalls + "x" : " ok").append("; ");
        }
        v.check(rtmpPass, "RTMP publisher/players", rt.toString());
        long seqFirst = samples.isEmpty() ? -1 : samples.getFirst().hlsSequence();
        long seqLast = samples.isEmpty() ? -1 : samples.getLast().hlsSequence();
        int filesMin = samples.stream().filter(s -> s.t() >= warmup).mapToInt(Sample::hlsFiles).min().orElse(-1);
        int filesMax = samples.stream().filter(s -> s.t() >= warmup).mapToInt(Sample::hlsFiles).max().orElse(-1);
        v.check(seqLast > seqFirst && filesMax - filesMin <= 2, "HLS", "media sequence " + seqFirst + " -> " + seqLast
                + ", files in the directory " + filesMin + ".." + filesMax + " after the warm-up");

        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "Soak verdict: %.0f s run, %d samples, warm-up %.0f s, windows of %d samples",
                duration, samples.size(), warmup, window));
        report.addAll(v.lines());
        if (!log.errorLines.isEmpty()) {
            report.add("  first ERROR lines:");
            log.errorLines.forEach(l -> report.add("    " + l));
        }
        if (!log.warnLines.isEmpty()) {
            report.add("  first WARN lines:");
            log.warnLines.forEach(l -> report.add("    " + l));
        }
        report.add("  overall: " + (v.passed() ? "PASS" : "FAIL"));
        Files.write(out.resolve("verdict.txt"), report);
        report.forEach(System.out::println);
        return v.passed();
    }

    /** Sets the script's low frequency, then asks the station to reload over telnet; returns its answer. */
    private String reload(Path script, String freq, int telnetPort) throws IOException {
        String text = Files.readString(script);
        Path tmp = script.resolveSibling(script.getFileName() + ".tmp");
        Files.writeString(tmp, FREQ_LINE.matcher(text).replaceFirst(Matcher.quoteReplacement("def lowFreq = " + freq)));
        Files.move(tmp, script, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", telnetPort), 2000);
            s.setSoTimeout(5000);
            PrintWriter w = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
            BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            w.print("reload\n");
            w.flush();
            StringBuilder answer = new StringBuilder();
            for (String line; (line = r.readLine()) != null && !line.equals("END"); ) answer.append(line);
            return answer.toString();
        } catch (IOException e) {
            return "telnet failed: " + e.getMessage();
        }
    }

    private synchronized void writeEvents() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("t_s,event,detail");
        lines.addAll(events);
        Files.write(out.resolve("events.csv"), lines);
    }

    private void sleepUntil(double t) throws InterruptedException {
        long ms = (long) ((t - now()) * 1000);
        if (ms > 0) Thread.sleep(ms);
    }
}
