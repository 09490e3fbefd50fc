package org.groovecast.host.http;

import io.vertx.core.Context;
import org.groovecast.api.ScriptException;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.sched.TaskScheduler;

/**
 * Refuses a blocking script call (an HTTP request) on a thread that must never wait: a real-time
 * clock (its sources' callbacks: onTrack, onMetadata, metadata.map...), a scheduler worker
 * (thread.run with fast: true) or a network event loop (harbor handlers and control commands that
 * run there). One such wait would stall every stream, or every connection, that thread serves; the
 * error says where the call may go instead. An unsynced clock (an offline render) has no deadline
 * to miss: there, as sources do their blocking work inline (see StreamContext.realtime), a call may
 * block too.
 */
public final class BlockingGuard {
    private BlockingGuard() {}

    /**
     * @param call how the script wrote the call, for the message ({@code http.get()})
     * @throws ScriptException on a thread that must not block
     */
    public static void check(String call) {
        String where = thisThread();
        if (where != null) {
            throw new ScriptException(
                    call
                            + " would block "
                            + where
                            + "; call it inside thread.run(fast: false) { ... }");
        }
    }

    /** What the current thread must not stop, or null when it may block. */
    private static String thisThread() {
        Clock clock = Clock.ticking();
        if (clock != null) return clock.sync() == Sync.AUTO ? "the clock " + clock.getId() : null;
        if (TaskScheduler.onSchedulerThread())
            return "the scheduler (a thread.run function with fast: true runs there)";
        if (Context.isOnEventLoopThread()) {
            return "a network event loop (which serves every connection on it: harbor handlers and control commands run there)";
        }
        return null;
    }
}
