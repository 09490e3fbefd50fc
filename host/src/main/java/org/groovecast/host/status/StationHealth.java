package org.groovecast.host.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Connecting;
import org.groovecast.api.Output;

/**
 * Whether a station on air is alive and ready, as {@code /healthz} and {@code /readyz} say it to
 * what supervises the process (a container's HEALTHCHECK, Kubernetes' probes, a load balancer).
 *
 * <p>Alive while its scheduler starts tasks: its status sampler runs there every second, so a
 * scheduler idle past {@code settings.scheduler.stallLimit} has every worker stuck in a task that
 * does not return, and only a restart brings the station back. Ready while it is alive, every clock
 * keeps time (none behind since a frame at {@code settings.clock.warnLag}, see {@link
 * ClockInfo#getBehindSince}) and every output that keeps a connection ({@link Connecting}) of an
 * infallible source is connected: an output of a fallible source may be silent by design.
 *
 * <p>Every read is of a volatile field, so the answers come straight from the event loop, however
 * busy the clocks are.
 */
public final class StationHealth {
    private final List<ClockInfo> clocks;

    /** The outputs held to their connection, found once: a source's fallibility does not change. */
    private final List<Output> connections = new ArrayList<>();

    private final LongSupplier schedulerRan;
    private final long stallNanos;

    /**
     * @param schedulerRan when the scheduler last started a task ({@link System#nanoTime()})
     * @param stallSeconds how long it may start none and still be alive
     */
    public StationHealth(
            List<ClockInfo> clocks,
            List<Output> outputs,
            LongSupplier schedulerRan,
            double stallSeconds) {
        this.clocks = List.copyOf(clocks);
        for (Output o : outputs) {
            if (o instanceof Connecting && !o.isFallible()) connections.add(o);
        }
        this.schedulerRan = schedulerRan;
        this.stallNanos = (long) (stallSeconds * 1e9);
    }

    /** Seconds since the scheduler last started a task. */
    double schedulerIdle() {
        return Math.max(0, System.nanoTime() - schedulerRan.getAsLong()) / 1e9;
    }

    public boolean isLive() {
        return System.nanoTime() - schedulerRan.getAsLong() <= stallNanos;
    }

    /** {@code /healthz}'s body: whether it is alive, and how long the scheduler has been idle. */
    Map<String, Object> liveness(String station) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("live", isLive());
        r.put("station", station);
        r.put("schedulerIdle", Math.round(schedulerIdle() * 1000) / 1000.0);
        return r;
    }

    /**
     * {@code /readyz}'s body: whether it is ready and, when it is not, what is not: the scheduler,
     * the clocks behind (how far, since when), the outputs not connected.
     */
    Map<String, Object> readiness(String station) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ready", true);
        r.put("station", station);
        if (!isLive()) {
            r.put("ready", false);
            r.put("scheduler", "no task started for " + Math.round(schedulerIdle()) + " s");
        }
        List<Object> behind = new ArrayList<>();
        for (ClockInfo c : clocks) {
            double since = c.getBehindSince();
            if (since <= 0) continue;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c.getId());
            m.put("lag", ClockTrace.finite(c.getLag()));
            m.put("behindSince", Instant.ofEpochMilli((long) (since * 1e3)).toString());
            behind.add(m);
        }
        if (!behind.isEmpty()) {
            r.put("ready", false);
            r.put("clocks", behind);
        }
        List<Object> down = new ArrayList<>();
        for (Output o : connections) {
            if (((Connecting) o).isConnected()) continue;
            down.add(Map.of("id", o.id(), "kind", o.kind(), "connected", false));
        }
        if (!down.isEmpty()) {
            r.put("ready", false);
            r.put("outputs", down);
        }
        return r;
    }
}
