package org.groovecast.net.rtmp;

/**
 * Something fed by a published stream: a playing connection, or a script's {@code input.rtmp}.
 * Called on the publisher's event loop, in order; must not block: queue and return.
 */
public interface RtmpSubscriber {
    /** A message of the stream; retain its payload to keep it past the call. */
    void deliver(RtmpMessage message);

    /** The publisher left: no more messages. */
    void unpublished();

    /**
     * A publisher's session begins: its messages follow (metadata, sequence headers, the current
     * GOP first). Also for a subscriber that waited since the last one left.
     */
    default void published() {}
}
