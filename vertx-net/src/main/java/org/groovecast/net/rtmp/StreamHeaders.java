package org.groovecast.net.rtmp;

import java.util.function.Consumer;

/**
 * What a stream's consumer needs before any media: the latest metadata and the latest video and
 * audio sequence headers. Each kept message holds one reference to its payload, given back when a
 * newer one replaces it or on {@link #clear()}.
 */
final class StreamHeaders {
    private final RtmpMessage[] kept = new RtmpMessage[3]; // metadata, video header, audio header

    /**
     * Keeps {@code m} (retaining it) if it is metadata or a sequence header; returns whether it was
     * kept.
     */
    boolean keep(RtmpMessage m, boolean isMetadata) {
        int slot = isMetadata ? 0 : !m.sequenceHeader ? -1 : m.type == RtmpMessage.VIDEO ? 1 : 2;
        if (slot < 0) return false;
        m.payload.retain();
        RtmpMessage old = kept[slot];
        kept[slot] = m;
        if (old != null) old.payload.release();
        return true;
    }

    boolean hasVideo() {
        return kept[1] != null;
    }

    /** Hands each kept message, metadata first, to {@code to} (which retains what it keeps). */
    void forEach(Consumer<RtmpMessage> to) {
        for (RtmpMessage m : kept) if (m != null) to.accept(m);
    }

    void clear() {
        for (int i = 0; i < kept.length; i++) {
            if (kept[i] != null) kept[i].payload.release();
            kept[i] = null;
        }
    }
}
