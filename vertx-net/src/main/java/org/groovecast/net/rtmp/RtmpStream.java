package org.groovecast.net.rtmp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A published stream, {@code app/key}: its publisher's messages fanned out to its subscribers, and
 * what a late player needs first: the metadata, both sequence headers and the current group of
 * pictures, so that it starts on a keyframe. Everything here runs on the publisher's event loop
 * except subscribing, which hands over to it.
 */
final class RtmpStream {
    /**
     * A GOP longer than this (in bytes) is not cached: a late player then waits for the next
     * keyframe.
     */
    private static final long MAX_GOP_BYTES = 32L << 20;

    /** Messages of an audio-only stream a late player gets at once (about 1.5 s of AAC). */
    private static final int AUDIO_ONLY_CACHE = 64;

    final String name;
    private final io.netty.util.concurrent.EventExecutor loop;
    private volatile RtmpSubscriber[] subscribers = new RtmpSubscriber[0];
    private final StreamHeaders headers = new StreamHeaders();
    private final ArrayList<RtmpMessage> gop = new ArrayList<>();
    private long gopBytes;
    private boolean gopOverflow;
    private boolean ended;

    RtmpStream(String name, io.netty.util.concurrent.EventExecutor loop) {
        this.name = name;
        this.loop = loop;
    }

    /**
     * A message from the publisher (its loop); takes ownership of the message's reference. {@code
     * metadata} marks {@code onMetaData}, kept for late players; other data messages (cue points,
     * captions) only pass through.
     */
    void publish(RtmpMessage m, boolean isMetadata) {
        if (!headers.keep(m, isMetadata) && m.type != RtmpMessage.DATA) cache(m);
        RtmpSubscriber[] subs = subscribers;
        for (RtmpSubscriber s : subs) s.deliver(m);
        if (!cached(m)) m.payload.release();
    }

    private boolean cached(RtmpMessage m) {
        return !gop.isEmpty() && gop.get(gop.size() - 1) == m;
    }

    private void cache(RtmpMessage m) {
        if (m.keyframe) {
            clearGop();
            gopOverflow = false;
        } else if (gopOverflow || m.type == RtmpMessage.VIDEO && gop.isEmpty()) {
            return; // no keyframe yet, or too long a GOP: nothing a player could start on
        } else if (!headers.hasVideo()
                && m.type == RtmpMessage.AUDIO
                && gop.size() >= AUDIO_ONLY_CACHE) {
            RtmpMessage first = gop.remove(0); // audio only: a rolling window, nothing to align on
            gopBytes -= first.payload.readableBytes();
            first.payload.release();
        }
        gopBytes += m.payload.readableBytes();
        if (gopBytes > MAX_GOP_BYTES) {
            clearGop();
            gopOverflow = true;
            return;
        }
        gop.add(m); // the cache keeps the publisher's reference
    }

    private void clearGop() {
        for (RtmpMessage g : gop) g.payload.release();
        gop.clear();
        gopBytes = 0;
    }

    /**
     * Adds a subscriber; it first gets metadata, sequence headers and the cached GOP, on the
     * publisher's loop.
     */
    void subscribe(RtmpSubscriber s) {
        loop.execute(
                () -> {
                    if (ended) {
                        s.unpublished();
                        return;
                    }
                    s.published();
                    headers.forEach(s::deliver);
                    for (RtmpMessage g : gop) s.deliver(g);
                    RtmpSubscriber[] now = subscribers;
                    RtmpSubscriber[] more = Arrays.copyOf(now, now.length + 1);
                    more[now.length] = s;
                    subscribers = more;
                });
    }

    void unsubscribe(RtmpSubscriber s) {
        loop.execute(
                () -> {
                    RtmpSubscriber[] now = subscribers;
                    List<RtmpSubscriber> kept = new ArrayList<>(Arrays.asList(now));
                    if (kept.remove(s)) subscribers = kept.toArray(new RtmpSubscriber[0]);
                });
    }

    int subscribers() {
        return subscribers.length;
    }

    /**
     * The connections playing this stream (a script's {@code input.rtmp} subscribes too, and is not
     * one).
     */
    int players() {
        int n = 0;
        for (RtmpSubscriber s : subscribers) {
            if (s instanceof RtmpPlayer) n++;
        }
        return n;
    }

    /** The publisher left (its loop): every subscriber hears it, caches go. */
    void end() {
        ended = true;
        RtmpSubscriber[] subs = subscribers;
        subscribers = new RtmpSubscriber[0];
        for (RtmpSubscriber s : subs) s.unpublished();
        clearGop();
        headers.clear();
    }
}
