package org.groovecast.host;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.api.ScriptException;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.net.runtime.NetRuntime;

/**
 * What the stations of one process share: the scheduler's workers, the blocking pool's threads and
 * Vert.x's event loops, sized by the settings given on the command line ({@code --set}), not by any
 * one script. Each station runs on its own views of them ({@link TaskScheduler#share}, {@link
 * BlockingPool#share}), so that its stop ends its own work and leaves the others'. Each is made on
 * first use: a process whose stations open no socket starts no Vert.x.
 */
public final class SharedRuntime implements AutoCloseable {
    private final Settings settings = new Settings();
    private TaskScheduler scheduler;
    private BlockingPool blocking;
    private NetRuntime net;
    private boolean closed;
    private volatile Supplier<List<Map<String, Object>>> roster = List::of;

    /** Which station's harbor each port is: a port is one station's, whichever of its reloads. */
    private final Map<Integer, String> harborPorts = new HashMap<>();

    /**
     * @param overrides the process's settings ({@code --set}); those a station's script sets apply
     *     to that station's own clocks and harbors, not to these pools
     */
    public SharedRuntime(Map<String, String> overrides) {
        try {
            overrides.forEach(settings::set);
        } catch (ScriptException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** What each station's status page lists: the stations of the process and their state. */
    void roster(Supplier<List<Map<String, Object>>> stations) {
        roster = stations;
    }

    List<Map<String, Object>> roster() {
        return roster.get();
    }

    /**
     * Claims {@code ports} for {@code station}'s harbors; throws, claiming none, naming the station
     * whose port one of them is. Two stations of a process do not share a harbor port (yet): the
     * second would otherwise fail on an address in use that names neither.
     */
    synchronized void claimHarborPorts(String station, Collection<Integer> ports) {
        for (int port : ports) {
            String owner = harborPorts.get(port);
            if (owner != null && !owner.equals(station))
                throw new IllegalStateException(
                        "harbor port "
                                + port
                                + " is station "
                                + owner
                                + "'s: two stations of one process cannot share a harbor port");
        }
        for (int port : ports) harborPorts.put(port, station);
    }

    /** The station's ports are free again: it stopped for good, or its first start failed. */
    synchronized void releaseHarborPorts(String station) {
        harborPorts.values().removeIf(station::equals);
    }

    /** A station's scheduler: its own view of the shared workers. */
    synchronized TaskScheduler scheduler() {
        checkOpen();
        if (scheduler == null)
            scheduler =
                    new TaskScheduler(
                            settings.integer("scheduler.threads"),
                            Duration.ofNanos(
                                    ClockSettings.seconds(settings, "scheduler.timerSlack")),
                            64);
        return scheduler.share();
    }

    /** A station's blocking pool: its own view of the shared threads. */
    synchronized BlockingPool blocking() {
        checkOpen();
        if (blocking == null)
            blocking = new BlockingPool(settings.integer("scheduler.blockingTasks"));
        return blocking.share();
    }

    /** The event loops every station's sockets run on. */
    synchronized NetRuntime net() {
        checkOpen();
        if (net == null)
            net =
                    NetRuntime.start(
                            Math.max(1, Math.min(settings.integer("harbor.eventLoops"), 16)));
        return net;
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("the process's stations are stopped");
    }

    /** Once every station stopped: ends the workers, the blocking threads and the event loops. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (scheduler != null) scheduler.close();
        if (blocking != null) blocking.close();
        if (net != null) net.close(2);
    }
}
