package org.groovecast.net.output;

import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long an outgoing connection (to Icecast, to an RTMP server) waits before trying again: what
 * the script's {@code onError { error -> seconds }} answers, or a backoff of 1 s doubling to 30 s,
 * back to 1 s once a connection holds.
 */
public final class Reconnection {
    private static final Logger log = LoggerFactory.getLogger(Reconnection.class);

    private final String what;
    private volatile ToDoubleFunction<Throwable> onError;
    private double backoff = 1;

    /**
     * @param onError the script's policy, or null for the backoff
     */
    public Reconnection(String what, ToDoubleFunction<Throwable> onError) {
        this.what = what;
        this.onError = onError;
    }

    /** A reloaded script brings its own policy. */
    public void policyFrom(Reconnection other) {
        onError = other.onError;
    }

    /** The connection is up: the next failure starts the backoff again. */
    public void connected() {
        backoff = 1;
    }

    /**
     * Logs the failure and sleeps for as long as the policy says; false if interrupted (closing).
     */
    public boolean waitAfter(Throwable failure) {
        ToDoubleFunction<Throwable> policy = onError;
        double wait = policy != null ? scriptDelay(policy, failure) : backoff;
        backoff = Math.min(30, backoff * 2);
        log.warn(
                "{}: {}; reconnecting in {} s",
                what,
                failure.getMessage(),
                String.format("%.1f", wait));
        try {
            Thread.sleep((long) (wait * 1000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private double scriptDelay(ToDoubleFunction<Throwable> policy, Throwable failure) {
        try {
            return Math.max(0.1, policy.applyAsDouble(failure));
        } catch (RuntimeException e) {
            log.warn("{}: onError failed ({}); waiting 5 s", what, e.toString());
            return 5;
        }
    }

    /** Ends the connecting thread: interrupts its wait and gives it 5 s to finish. */
    public static void stop(Thread thread) {
        if (thread == null) return;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
