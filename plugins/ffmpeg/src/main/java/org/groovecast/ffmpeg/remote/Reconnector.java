package org.groovecast.ffmpeg.remote;

import java.util.function.BooleanSupplier;
import org.groovecast.ffmpeg.shared.Backoff;
import org.groovecast.ffmpeg.shared.Interrupter;
import org.slf4j.Logger;

/**
 * The loop of a thread that keeps one connection to a remote peer up (input.http's feed,
 * output.url's writer): each attempt gets an {@link Interrupter} of its own, which {@link #stop()}
 * trips; when it ends, the thread waits a jittered {@link Backoff} and tries again, logging the
 * first failure of an outage as a warning (the others at debug) and, through {@link #held()}, its
 * end once a connection holds. Log lines go to the owner's logger, named for it.
 */
final class Reconnector {
    /** One connection, from opening to its end; returns why it ended. */
    interface Attempt {
        String connect(Interrupter interrupter);
    }

    private final Logger log;
    private final String name;
    private final String started;
    private final Backoff backoff;
    private final BooleanSupplier done;
    private volatile boolean stopped;
    private volatile Interrupter current;

    /**
     * @param name what is connected, leading each log line ({@code output.url srt://...})
     * @param started what is logged when the first connection holds ({@code playing})
     * @param done whether to stop trying (besides {@link #stop()}), asked before and after each
     *     attempt
     */
    Reconnector(Logger log, String name, String started, double maxBackoff, BooleanSupplier done) {
        this.log = log;
        this.name = name;
        this.started = started;
        this.backoff = new Backoff(maxBackoff);
        this.done = done;
    }

    /** Runs attempts until stopped or done; on the connection's own thread. */
    void run(Attempt attempt) {
        while (!finished()) {
            String reason;
            try (Interrupter interrupter = new Interrupter()) {
                current = interrupter;
                if (stopped) interrupter.stop(); // stop() came before current was set
                reason = attempt.connect(interrupter);
            } finally {
                current = null;
            }
            if (finished()) break;
            double delay = backoff.nextDelay();
            String line = "{}: {}; retrying in {} s";
            Object[] args = {name, reason, String.format("%.1f", delay)};
            if (backoff.failed()) log.warn(line, args);
            else log.debug(line, args);
            try {
                Thread.sleep((long) (delay * 1000));
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    private boolean finished() {
        return stopped || done.getAsBoolean();
    }

    /**
     * The attempt's connection holds (it brought enough to count as back): logs the outage's end,
     * once per attempt.
     */
    void held() {
        double outage = backoff.recovered();
        if (outage >= 0) log.info("{}: back after {} s", name, String.format("%.1f", outage));
        else log.info("{}: {}", name, started);
    }

    /**
     * Trips the attempt's blocking call and every later one; the caller interrupts the thread's
     * sleep.
     */
    void stop() {
        stopped = true;
        Interrupter i = current;
        if (i != null) i.stop();
    }

    boolean stopped() {
        return stopped;
    }
}
