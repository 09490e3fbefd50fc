package org.groovecast.api;

import java.util.List;

/**
 * A source that plays what is pushed to it, such as {@code request.queue()}. The engine knows
 * queues by this interface alone, whatever plugin made them: the control interface answers
 * {@code <id>.push <uri>} and {@code <id>.queue} for every source that implements it.
 *
 * <p>Both methods are called from threads other than the source's clock (a telnet or HTTP
 * command), so implementations must be thread-safe.
 */
public interface Queued {
    /** Adds a request (a path or URI, maybe with an {@code annotate:} prefix) at the end of the queue. */
    void push(String uri);

    /** The requests waiting, first to play first; not the one playing now. */
    List<String> queue();
}
