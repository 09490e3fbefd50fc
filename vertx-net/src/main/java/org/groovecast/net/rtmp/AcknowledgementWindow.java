package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;

/**
 * The server's count of what it received, against the window its peer asked to be acknowledged in
 * (Window Acknowledgement Size): a publisher that asked waits for our Acknowledgements, or judges
 * us stalled without them, as our own push client does with {@link StallWatch}. Every byte counts,
 * the handshake's included, as the specification says. A peer that never asked gets none.
 */
final class AcknowledgementWindow {
    private long received;
    private long acknowledged;
    private long window;

    /** A read of {@code bytes}, before any of it is handled. */
    void received(int bytes) {
        received += bytes;
    }

    /** The peer's Window Acknowledgement Size message; one too short to say is ignored. */
    void windowSize(ByteBuf payload) {
        if (payload.readableBytes() >= 4) window = payload.getUnsignedInt(payload.readerIndex());
    }

    /**
     * Whether an Acknowledgement is owed now; if so it counts as sent, of {@link #received()}
     * bytes.
     */
    boolean due() {
        if (window <= 0 || received - acknowledged < window) return false;
        acknowledged = received;
        return true;
    }

    long received() {
        return received;
    }
}
