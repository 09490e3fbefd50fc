package org.groovecast.ffmpeg;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.groovecast.api.Queued;

/** Plays what is pushed to it, in order: {@code def q = request.queue(); q.push('x.mp3')}. */
public final class RequestQueue extends RequestSource implements Queued {
    private final ConcurrentLinkedDeque<String> queue = new ConcurrentLinkedDeque<>();

    RequestQueue(List<String> initial, int prefetch) {
        super("request.queue", prefetch);
        queue.addAll(initial);
    }

    @Override
    protected void adoptState(RequestSource previous) {
        queue.addAll(((RequestQueue) previous).queue); // what waited there still waits, after the new initial ones
    }

    /** Adds a request (a path, maybe annotated) at the end of the queue; safe from any thread. */
    @Override
    public void push(String uri) {
        queue.addLast(uri);
    }

    /** The requests not yet taken for playing. */
    @Override
    public List<String> queue() {
        return List.copyOf(queue);
    }

    @Override
    protected Request next() {
        String uri = queue.pollFirst();
        return uri == null ? null : Request.parse(uri);
    }
}
