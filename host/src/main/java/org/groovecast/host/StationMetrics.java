package org.groovecast.host;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.api.Queued;
import org.groovecast.api.Source;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.LatenessWindow;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.net.Network;
import org.groovecast.net.harbor.HarborMount;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.harbor.LiveInput;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.Route;
import org.groovecast.net.icecast.IcecastOutput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A station's health in Prometheus text format, through Micrometer, named as Prometheus names
 * things (base units as suffixes, {@code _total} counters, the standard {@code process_*} names):
 * the clocks, mounts, live inputs, Icecast and RTMP connections, request queues, reloads, the
 * engine's pools, log lines, the JVM and the process. Every value is read when scraped. The
 * station's metrics go with it: {@link #close} lets go of the JVM's and the logging's hooks, so a
 * reloaded station leaves nothing registered behind.
 */
final class StationMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StationMetrics.class);

    /** The scheduler's busy share is over the last 30 to 60 s, as the lateness quantiles. */
    private static final double BUSY_WINDOW_SECONDS = LatenessSummary.WINDOW_SECONDS;

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final List<AutoCloseable> hooks = new ArrayList<>();

    StationMetrics(
            String station,
            List<Clock> clocks,
            Network network,
            List<Source> sources,
            BlockingPool blocking,
            TaskScheduler scheduler,
            Reloads reloads) {
        registry.config().commonTags("station", station);
        // The standard process_open_fds and process_max_fds rather than Micrometer's
        // process_files_*_files
        // (its own rename filter keeps the unit: process_open_fds_files); system_cpu_count is what
        // the
        // JVM calls it, since promtool keeps _count for summaries; the CPU time comes in seconds
        // under
        // its standard name below, not in nanoseconds ("_ns", which promtool refuses too).
        registry.config()
                .meterFilter(
                        new MeterFilter() {
                            @Override
                            public Meter.Id map(Meter.Id id) {
                                return switch (id.getName()) {
                                    case "process.files.open" ->
                                            id.withName("process.open.fds").withBaseUnit(null);
                                    case "process.files.max" ->
                                            id.withName("process.max.fds").withBaseUnit(null);
                                    case "system.cpu.count" ->
                                            id.withName("jvm.available.processors");
                                    default -> id;
                                };
                            }
                        });
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"));
        clocks(station, clocks);
        mounts(network.harbors());
        for (Source s : sources) source(s);
        registry.getPrometheusRegistry().register(new ServerReadings(station, network));
        engine(sources, blocking, scheduler);
        if (reloads != null) reloads(reloads);
        process();
        jvm();
    }

    private void clocks(String station, List<Clock> clocks) {
        LatenessSummary lateness = new LatenessSummary(station);
        for (Clock c : clocks) {
            Gauge.builder("groovecast.clock.duty", c, Clock::getDuty)
                    .tag("clock", c.getId())
                    .baseUnit("ratio")
                    .description(
                            "share of each frame period spent producing the frame (1: no time to spare)")
                    .register(registry);
            Gauge.builder("groovecast.clock.lag", c, Clock::getLag)
                    .tag("clock", c.getId())
                    .baseUnit("seconds")
                    .description("how far the clock is behind real time")
                    .register(registry);
            Gauge.builder("groovecast.clock.behind.since", c, Clock::getBehindSince)
                    .tag("clock", c.getId())
                    .baseUnit("seconds")
                    .description(
                            "since when the clock has been behind real time (seconds since the epoch;"
                                    + " 0 while it keeps time)")
                    .register(registry);
            FunctionCounter.builder("groovecast.clock.skipped", c, Clock::getSkipped)
                    .tag("clock", c.getId())
                    .baseUnit("seconds")
                    .description(
                            "real time the clock dropped instead of catching up"
                                    + " (settings.clock.catchUp = 'skip', or past clock.maxLatency)")
                    .register(registry);
            FunctionCounter.builder("groovecast.clock.frames", c, Clock::getTicks)
                    .tag("clock", c.getId())
                    .description("frames produced")
                    .register(registry);
            if (c.sync() == Sync.AUTO)
                lateness.add(
                        c.getId(),
                        new LatenessWindow(c.lateness(), LatenessSummary.WINDOW_SECONDS));
        }
        if (!lateness.isEmpty()) registry.getPrometheusRegistry().register(lateness);
    }

    private void mounts(List<HarborServer> harbors) {
        for (HarborServer h : harbors) {
            for (HarborMount m : h.mounts()) {
                String port = String.valueOf(h.port());
                Gauge.builder("groovecast.listeners", m, HarborMount::listeners)
                        .tag("port", port)
                        .tag("mount", m.path())
                        .description("listeners connected to the mount")
                        .register(registry);
                FunctionCounter.builder("groovecast.mount.sent", m, HarborMount::bytesOut)
                        .tag("port", port)
                        .tag("mount", m.path())
                        .baseUnit("bytes")
                        .description("bytes sent to listeners")
                        .register(registry);
            }
        }
    }

    private void source(Source s) {
        if (s instanceof LiveInput live) {
            Gauge.builder("groovecast.live.connected", live, l -> l.isConnected() ? 1 : 0)
                    .tag("mount", live.path())
                    .description("1 while a source client (a DJ) streams to the live input")
                    .register(registry);
        }
        if (s instanceof IcecastOutput ice) {
            var target = ice.client().target();
            Gauge.builder("groovecast.icecast.connected", ice, StationMetrics::connected)
                    .tag("server", target.host() + ":" + target.port())
                    .tag("mount", target.mount())
                    .description("1 while output.icecast's source connection is up and streaming")
                    .register(registry);
        }
        if (s instanceof Queued q) {
            Gauge.builder("groovecast.request.queue.length", q, x -> x.queue().size())
                    .tag("queue", s.id())
                    .description(
                            "requests waiting in the queue, those being prepared included, not the one playing")
                    .register(registry);
        }
    }

    private static double connected(IcecastOutput o) {
        return o.isConnected() ? 1 : 0;
    }

    private void engine(List<Source> sources, BlockingPool blocking, TaskScheduler scheduler) {
        // One sum over the graph, not a gauge per source: a leak check wants the total flat over
        // days.
        // A gauge holds its object weakly and nothing else holds this list: without the strong
        // reference it reads NaN after the first collection.
        Gauge.builder("groovecast.callback.registrations", sources, StationMetrics::registrations)
                .strongReference(true)
                .description("callbacks registered on the station's sources and outputs")
                .register(registry);
        Gauge.builder("groovecast.blocking.running", blocking, BlockingPool::inFlight)
                .description("blocking tasks running")
                .register(registry);
        Gauge.builder("groovecast.blocking.queued", blocking, BlockingPool::queued)
                .description("blocking tasks waiting for a worker")
                .register(registry);
        RecentShare busy =
                new RecentShare(scheduler::busyNanos, scheduler.threads(), BUSY_WINDOW_SECONDS);
        Gauge.builder("groovecast.scheduler.busy", busy, RecentShare::read)
                .strongReference(true)
                .baseUnit("ratio")
                .description(
                        "share of the scheduler threads' time spent running tasks, over the last 30 to 60 s")
                .register(registry);
    }

    /**
     * The reloader holds {@code reloads} as long as the process runs: the meters may hold it
     * weakly.
     */
    private void reloads(Reloads reloads) {
        FunctionCounter.builder("groovecast.reloads", reloads, Reloads::successes)
                .description("reloads that put a new script on air, since the process started")
                .register(registry);
        FunctionCounter.builder("groovecast.reload.failures", reloads, Reloads::failures)
                .description(
                        "reloads that failed (the running script stayed on air), since the process started")
                .register(registry);
        Gauge.builder("groovecast.reload.last.duration", reloads, Reloads::lastSeconds)
                .baseUnit("seconds")
                .description(
                        "how long the last reload took, from compiling to the new station on air")
                .register(registry);
    }

    private void process() {
        Gauge.builder("process.resident.memory", StationMetrics::residentBytes)
                .baseUnit("bytes")
                .description("resident memory of the process (VmRSS)")
                .register(registry);
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9)
                    .baseUnit("seconds")
                    .description("CPU time the process used, user and system")
                    .register(registry);
        }
        bind(new ProcessorMetrics());
        bind(new UptimeMetrics());
        bind(new FileDescriptorMetrics());
    }

    private void jvm() {
        bind(new JvmMemoryMetrics());
        bind(new JvmThreadMetrics());
        bind(new JvmGcMetrics());
        bind(new ClassLoaderMetrics());
        bind(new JvmInfoMetrics());
        LogEventCounter logs = LogEventCounter.bind(registry);
        if (logs != null) hooks.add(logs);
    }

    private void bind(MeterBinder binder) {
        binder.bindTo(registry);
        if (binder instanceof AutoCloseable c) hooks.add(c);
    }

    /**
     * The route serving, at {@code path}, the exposition {@code scrape} gives: null until the
     * station starts (the meters bind to clocks, which exist only then), answered with a 503.
     */
    static Route route(String path, Supplier<String> scrape) {
        return new Route(
                "GET",
                path,
                req -> {
                    String text = scrape.get();
                    return text == null
                            ? HttpReply.text(503, "the station is not running")
                            : new HttpReply(
                                    200,
                                    "text/plain; version=0.0.4; charset=utf-8",
                                    Map.of(),
                                    text);
                });
    }

    /** The exposition of {@code current}'s metrics, or null while there are none. */
    static String scrape(Supplier<StationMetrics> current) {
        StationMetrics m = current.get();
        return m == null ? null : m.scrape();
    }

    /** The exposition, as scraped. */
    String scrape() {
        return registry.scrape();
    }

    /** The families, as scraped, to be merged with other stations' ({@link SharedMetrics}). */
    io.prometheus.metrics.model.snapshots.MetricSnapshots snapshots() {
        return registry.getPrometheusRegistry().scrape();
    }

    /**
     * Lets go of what the binders hooked into the JVM (GC notifications) and the logging;
     * idempotent.
     */
    @Override
    public synchronized void close() {
        for (AutoCloseable h : hooks) {
            try {
                h.close();
            } catch (Exception e) {
                log.warn(
                        "metrics: {} did not close: {}",
                        h.getClass().getSimpleName(),
                        e.toString());
            }
        }
        hooks.clear();
        registry.close();
    }

    private static double registrations(List<Source> sources) {
        long n = 0;
        for (Source s : sources) n += s.registrations();
        return n;
    }

    private static double residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:"))
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024.0;
            }
        } catch (IOException | RuntimeException e) {
            // not on Linux: no figure
        }
        return Double.NaN;
    }
}
