package org.groovecast.host.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * A clock with a thread of its own ({@code settings.clock.task = false}), kept to compare with
 * {@link TaskClock}: it costs one wake-up per frame, whatever else is due at the same moment.
 */
public final class ThreadClock extends Clock {
    private volatile boolean stopRequested;
    private Thread thread;

    public ThreadClock(String id, Sync sync, ClockConfig config) {
        super(id, sync, config);
    }

    @Override
    protected void begin() {
        thread = Thread.ofPlatform().name("gc-clock-" + id).daemon(true).start(this::loop);
    }

    private void loop() {
        try {
            while (!stopRequested) {
                long next = tick();
                if (next < 0) break;
                long wait;
                while (!stopRequested && (wait = next - System.nanoTime()) > 0)
                    LockSupport.parkNanos(wait);
            }
        } finally {
            finished(!stopRequested);
        }
    }

    @Override
    protected void requestStop() {
        stopRequested = true;
        Thread t = thread;
        if (t != null) LockSupport.unpark(t);
        else finished(false);
    }
}
