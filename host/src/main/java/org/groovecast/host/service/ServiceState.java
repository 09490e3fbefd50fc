package org.groovecast.host.service;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.groovecast.host.sched.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running engine tells its service manager (a systemd unit of {@code Type=notify}): {@code
 * READY=1} once the station is on air, a {@code STATUS=} line at each change, {@code STOPPING=1} at
 * a stop, and, where the unit sets {@code WatchdogSec=}, {@code WATCHDOG=1} twice per period, each
 * sent by a task on the scheduler of the station on air: a scheduler whose workers are all stuck
 * sends none, and the manager restarts the wedged process. Where no manager listens ({@code
 * $NOTIFY_SOCKET} unset) it does nothing.
 */
public final class ServiceState implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServiceState.class);

    private final SystemdNotify notify;
    private final long watchdogNanos;
    private volatile boolean closed;
    private Thread watchdog;

    private ServiceState(SystemdNotify notify, long watchdogNanos) {
        this.notify = notify;
        this.watchdogNanos = watchdogNanos;
    }

    /** The process's: from its environment. */
    public static ServiceState fromEnvironment() {
        return of(System.getenv(), ProcessHandle.current().pid());
    }

    /** From {@code env}, for the process {@code pid}. */
    static ServiceState of(Map<String, String> env, long pid) {
        SystemdNotify notify = SystemdNotify.fromEnvironment(env);
        return new ServiceState(notify, notify == null ? 0 : watchdogNanos(env, pid));
    }

    /**
     * The watchdog's period, as {@code sd_watchdog_enabled(3)} reads it: {@code $WATCHDOG_USEC},
     * for this process only if {@code $WATCHDOG_PID} names it; 0 for none.
     */
    static long watchdogNanos(Map<String, String> env, long pid) {
        String usec = env.get("WATCHDOG_USEC");
        if (usec == null || usec.isEmpty()) return 0;
        String forPid = env.get("WATCHDOG_PID");
        try {
            if (forPid != null && !forPid.isEmpty() && Long.parseLong(forPid) != pid) return 0;
            long micros = Long.parseLong(usec);
            return micros > 0 ? TimeUnit.MICROSECONDS.toNanos(micros) : 0;
        } catch (NumberFormatException e) {
            log.warn(
                    "WATCHDOG_USEC={} WATCHDOG_PID={}: not numbers; no watchdog pings",
                    usec,
                    forPid);
            return 0;
        }
    }

    /** Whether a service manager listens. */
    public boolean managed() {
        return notify != null;
    }

    /** The station is on air: {@code READY=1}, with {@code status} as its status line. */
    public void ready(String status) {
        send("READY=1\nSTATUS=" + status);
    }

    /** A status line for {@code systemctl status}. */
    public void status(String status) {
        send("STATUS=" + status);
    }

    /** The engine is stopping (a SIGTERM, the end of a render). */
    public void stopping() {
        send("STOPPING=1\nSTATUS=stopping");
    }

    private void send(String state) {
        if (notify != null && !closed) notify.send(state);
    }

    /**
     * Starts the watchdog pings, if the manager asked for them: every half period a task on {@code
     * scheduler} (the station on air's, read each time: a reload replaces it; null while none is on
     * air) sends {@code WATCHDOG=1}.
     */
    public synchronized void watch(Supplier<TaskScheduler> scheduler) {
        if (notify == null || watchdogNanos == 0 || watchdog != null) return;
        long every = watchdogNanos / 2;
        Runnable ping = () -> send("WATCHDOG=1");
        watchdog =
                Thread.ofVirtual()
                        .name("watchdog")
                        .start(
                                () -> {
                                    while (!closed) {
                                        try {
                                            TimeUnit.NANOSECONDS.sleep(every);
                                        } catch (InterruptedException e) {
                                            return;
                                        }
                                        TaskScheduler s = scheduler.get();
                                        if (s == null || closed) continue;
                                        try {
                                            s.execute(ping);
                                        } catch (IllegalStateException stopped) {
                                            // a reload closed it: the next round finds the new one
                                        }
                                    }
                                });
        log.info(
                "service watchdog: a ping every {} ms from the scheduler",
                TimeUnit.NANOSECONDS.toMillis(every));
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (watchdog != null) watchdog.interrupt();
        if (notify != null) notify.close();
    }
}
