package org.groovecast.host.status;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Registration;

/**
 * What an output plays now and played last, as listeners saw it: a new entry each time the metadata
 * passing through the output names another song (title or artist), as Liquidsoap's metadata history
 * does; metadata repeating the same song only completes the entry. Written on the output's clock
 * (once per song, not per frame), read by HTTP requests.
 */
public final class TrackHistory {
    /** How many songs before the current one are kept: what a "last played" list shows. */
    public static final int KEPT = 10;

    /** One song: its metadata, and when it began (epoch milliseconds). */
    public record Entry(Metadata metadata, long startedAt) {
        public String title() {
            return metadata.get("title");
        }

        public String artist() {
            return metadata.get("artist");
        }
    }

    private final ArrayDeque<Entry> past = new ArrayDeque<>(KEPT + 1);
    private Entry current;
    private Registration registration;

    /**
     * Follows {@code output}'s metadata from now on, until {@link #release()}: on its source, since
     * an output pulls its source's frames straight into its own and runs no callbacks of its own.
     */
    void follow(Output output) {
        registration = output.source().onMetadata(this::seen);
    }

    void release() {
        if (registration != null) registration.release();
    }

    synchronized void seen(Metadata m) {
        if (m.get("title") == null && m.get("artist") == null) {
            if (current != null && !m.isEmpty())
                current = new Entry(current.metadata().with(m), current.startedAt());
            return;
        }
        if (current != null
                && Objects.equals(current.title(), m.get("title"))
                && Objects.equals(current.artist(), m.get("artist"))) {
            current = new Entry(current.metadata().with(m), current.startedAt());
            return;
        }
        if (current != null) {
            past.addFirst(current);
            if (past.size() > KEPT) past.removeLast();
        }
        current = new Entry(m, System.currentTimeMillis());
    }

    /**
     * What an output plays ({@code current}, null before the first metadata) and played, latest
     * first.
     */
    public record Snapshot(Entry current, List<Entry> past) {}

    /** The song playing and those before it, read at once (a song is never listed as both). */
    public synchronized Snapshot snapshot() {
        return new Snapshot(current, List.copyOf(past));
    }

    /** The song playing, or null before the first metadata. */
    public synchronized Entry current() {
        return current;
    }

    /** Continues {@code previous}'s history (a reload: the same output in the new station). */
    synchronized void inherit(TrackHistory previous) {
        synchronized (previous) {
            if (current == null) current = previous.current;
            else if (previous.current != null) past.add(previous.current);
            past.addAll(previous.past);
            while (past.size() > KEPT) past.removeLast();
        }
    }
}
