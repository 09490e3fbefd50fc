package org.groovecast.host;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.api.ScriptException;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.net.harbor.HarborPorts;
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

    /** The stations' names in the order given: the first on a shared port serves its pages. */
    private volatile List<String> order = List.of();

    /**
     * The harbor ports of every station: two stations naming one port share its socket, each
     * serving its own mounts.
     */
    private final HarborPorts harborPorts = new HarborPorts(name -> order.indexOf(name));

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
     * The stations' names in the order given on the command line: on a harbor port several of them
     * share, what none of them claims alone (the status page at {@code /}, {@code /metrics}) is the
     * first one's that serves it.
     */
    void order(List<String> stations) {
        order = List.copyOf(stations);
    }

    /** The stations exposing their metrics at each path of each port, by "port path". */
    private final Map<String, SharedMetrics> metrics =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Where the stations exposing their metrics at {@code path} of harbor port {@code port} are
     * gathered: that path of that port answers with all of them.
     */
    SharedMetrics metricsAt(int port, String path) {
        return metrics.computeIfAbsent(port + " " + path, k -> new SharedMetrics());
    }

    /** The harbor ports the stations declare, each shared by the stations naming it. */
    HarborPorts harborPorts() {
        return harborPorts;
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
