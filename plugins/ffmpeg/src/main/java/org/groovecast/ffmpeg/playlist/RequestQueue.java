package org.groovecast.ffmpeg.playlist;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.Metadata;
import org.groovecast.api.Queued;
import org.groovecast.api.RequestResolver;

/**
 * Plays what is pushed to it, in order: {@code def q = request.queue(); def rid = q.push('x.mp3')}.
 * Each request gets an id (unique in the process, as Liquidsoap's) by which it can be taken out
 * again before it plays. An empty queue asks for nothing until something is pushed.
 */
public final class RequestQueue extends RequestSource implements Queued {
    private static final AtomicInteger IDS = new AtomicInteger();

    /** How long an empty queue sleeps when nothing pushes to it (a push wakes it at once). */
    private static final double IDLE_SECONDS = 3600;

    private final ConcurrentLinkedDeque<Entry> queue = new ConcurrentLinkedDeque<>();
    private final double timeout;

    RequestQueue(List<String> initial, int prefetch, double timeout, RequestResolver requests) {
        super("request.queue", prefetch, requests);
        this.timeout = timeout;
        for (String uri : initial) queue.addLast(new Entry(IDS.incrementAndGet(), uri));
    }

    @Override
    protected void adoptState(RequestSource previous) {
        queue.addAll(
                ((RequestQueue) previous)
                        .queue); // what waited there still waits, after the new initial ones
        if (!queue.isEmpty())
            resume(); // this instance may have found itself empty when it was prepared
    }

    @Override
    protected double timeout() {
        return timeout;
    }

    /**
     * Adds a request (a path or URI, maybe annotated) at the end of the queue; safe from any
     * thread.
     */
    @Override
    public int push(String uri) {
        int rid = IDS.incrementAndGet();
        queue.addLast(new Entry(rid, uri));
        resume();
        return rid;
    }

    /** The requests not yet playing: those being prepared, then those waiting. */
    @Override
    public List<Entry> queue() {
        List<Entry> out = new ArrayList<>();
        for (Request r : prepared()) out.add(new Entry(r.rid(), r.uri()));
        out.addAll(queue);
        return out;
    }

    @Override
    public boolean remove(int rid) {
        return queue.removeIf(e -> e.rid() == rid) || dropPrepared(r -> r.rid() == rid) > 0;
    }

    @Override
    public int flush() {
        int n = 0;
        while (queue.pollFirst() != null) n++;
        return n + dropPrepared(r -> true);
    }

    @Override
    public void flushAndSkip() {
        flush();
        skipSoon();
    }

    @Override
    protected Request next() {
        Entry e = queue.pollFirst();
        if (e != null) return new Request(e.uri(), Metadata.EMPTY, null, e.rid());
        pause(IDLE_SECONDS);
        if (!queue.isEmpty()) resume(); // pushed between the poll and the pause
        return null;
    }
}
