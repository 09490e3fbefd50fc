package org.groovecast.api;

import java.util.List;

/**
 * A source that plays what is pushed to it, such as {@code request.queue()}. The engine knows
 * queues by this interface alone, whatever plugin made them: the control interface answers {@code
 * <id>.push <uri>}, {@code <id>.queue}, {@code <id>.remove <rid>}, {@code <id>.flush} and {@code
 * <id>.flush_and_skip} for every source that implements it.
 *
 * <p>These methods are called from threads other than the source's clock (a telnet or HTTP command,
 * a script callback), so implementations must be thread-safe.
 */
public interface Queued {
    /** A request waiting in a queue: its id, as {@link #push} returned it, and the URI pushed. */
    record Entry(int rid, String uri) {}

    /**
     * Adds a request (a path or URI, maybe with an {@code annotate:} prefix) at the end of the
     * queue.
     *
     * @return the request's id, unique in the process, for {@link #remove}
     */
    int push(String uri);

    /**
     * The requests waiting, first to play first, those already being prepared included; not the one
     * playing.
     */
    List<Entry> queue();

    /**
     * Takes request {@code rid} out of the queue before it plays; false when no waiting request has
     * that id.
     */
    boolean remove(int rid);

    /** Empties the queue (what plays now goes on); returns how many requests it dropped. */
    int flush();

    /** Empties the queue and ends the track playing now, on the source's clock. */
    void flushAndSkip();
}
