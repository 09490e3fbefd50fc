package org.groovecast.host;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Source;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.net.harbor.HarborMount;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.harbor.LiveInput;

/**
 * A station's health in Prometheus text format, through Micrometer: per-clock duty cycle and lag,
 * listeners and bytes out per mount, live inputs' state, the callbacks registered on the graph, the
 * blocking pool's depth, the scheduler's load, heap and process memory. Every value is read when scraped.
 */
final class StationMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    StationMetrics(String station, List<ClockInfo> clocks, List<HarborServer> harbors, List<Source> sources,
                   BlockingPool blocking, Station owner) {
        registry.config().commonTags("station", station);
        for (ClockInfo c : clocks) {
            Gauge.builder("groovecast.clock.duty", c, ClockInfo::getDuty).tag("clock", c.getId())
                    .description("share of each frame period spent producing the frame").register(registry);
            Gauge.builder("groovecast.clock.lag", c, ClockInfo::getLag).tag("clock", c.getId()).baseUnit("seconds")
                    .description("how far the clock is behind real time").register(registry);
            FunctionCounter.builder("groovecast.clock.frames", c, ClockInfo::getTicks).tag("clock", c.getId())
                    .description("frames produced").register(registry);
        }
        for (HarborServer h : harbors) {
            for (HarborMount m : h.mounts()) {
                String port = String.valueOf(h.port());
                Gauge.builder("groovecast.listeners", m, HarborMount::listeners).tag("port", port).tag("mount", m.path())
                        .description("listeners connected to the mount").register(registry);
                FunctionCounter.builder("groovecast.mount.sent", m, HarborMount::bytesOut).tag("port", port)
                        .tag("mount", m.path()).baseUnit("bytes").description("bytes sent to listeners").register(registry);
            }
        }
        for (Source s : sources) {
            if (s instanceof LiveInput live) {
                Gauge.builder("groovecast.live.connected", live, l -> l.isConnected() ? 1 : 0).tag("mount", live.path())
                        .description("1 while a source client streams to the live input").register(registry);
            }
        }
        // One sum over the graph, not a gauge per source: a leak check wants the total flat over days.
        // A gauge holds its object weakly and nothing else holds this list: without the strong
        // reference it reads NaN after the first collection.
        Gauge.builder("groovecast.callback.registrations", sources, StationMetrics::registrations).strongReference(true)
                .description("callbacks registered on the station's sources and outputs").register(registry);
        Gauge.builder("groovecast.blocking.running", blocking, BlockingPool::inFlight)
                .description("blocking tasks running").register(registry);
        Gauge.builder("groovecast.blocking.queued", blocking, BlockingPool::queued)
                .description("blocking tasks waiting for a worker").register(registry);
        Gauge.builder("groovecast.scheduler.busy", owner, o -> ((Number) o.schedulerLoad().get("busy")).doubleValue())
                .description("share of the scheduler threads' time spent running, since start").register(registry);
        Gauge.builder("groovecast.process.resident", StationMetrics::residentBytes).baseUnit("bytes")
                .description("resident memory of the process (VmRSS)").register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
    }

    /** The exposition, as scraped. */
    String scrape() {
        return registry.scrape();
    }

    private static double registrations(List<Source> sources) {
        long n = 0;
        for (Source s : sources) n += s.registrations();
        return n;
    }

    private static double residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024.0;
            }
        } catch (IOException | RuntimeException e) {
            // not on Linux: no figure
        }
        return Double.NaN;
    }
}
