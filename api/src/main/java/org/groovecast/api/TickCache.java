package org.groovecast.api;

/**
 * How a source that several consumers pull within one clock tick serves them all from a single
 * computation: what it produced this tick is kept, and each consumer is handed its part of it,
 * track ends included. The host makes one when a second consumer prepares a source ({@link
 * StreamContext#share}); {@link Source} calls it from {@code get}, {@code remainingFor} and {@code
 * beforeTick}. Operators neither implement nor call it.
 */
public interface TickCache {
    /**
     * Fills {@code frame} from its position for one consumer, producing (through the source's own
     * fill) only what no consumer has asked for yet this tick; up to the next track end, nothing
     * when the consumer is at one it has not seen yet. {@link Source#get} then records the get's
     * end.
     */
    void get(Frame frame);

    /**
     * {@code remaining}, the source's own count of samples left in its track, as seen by a consumer
     * about to fill {@code frame} from its position, the source having possibly run ahead of it for
     * another consumer within the tick; -1 when unknown.
     */
    long remainingFor(Frame frame, long remaining);

    /** Start of a tick: forgets what the last one produced. */
    void clear();
}
