package org.groovecast.host.cli;

/**
 * A stop asked for by a signal, possibly before there is anything to stop: the engine may still be
 * loading its plugins or compiling the script. Whatever is attached later is stopped at once then.
 * Asking again is harmless.
 */
final class StopRequest {
    private Runnable target;
    private boolean requested;

    /** Stops the attached target, or records the request for the one attached later. */
    void request() {
        Runnable t;
        synchronized (this) {
            requested = true;
            t = target;
        }
        if (t != null) t.run();
    }

    /** Makes {@code stop} what a request runs; runs it now if a stop was requested already. */
    void attach(Runnable stop) {
        synchronized (this) {
            target = stop;
            if (!requested) return;
        }
        stop.run();
    }

    synchronized boolean isRequested() {
        return requested;
    }
}
