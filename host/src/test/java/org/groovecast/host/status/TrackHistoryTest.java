package org.groovecast.host.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.groovecast.api.Metadata;
import org.junit.jupiter.api.Test;

class TrackHistoryTest {
    private static Metadata song(String artist, String title) {
        return Metadata.of("artist", artist, "title", title);
    }

    private static List<String> titles(List<TrackHistory.Entry> entries) {
        return entries.stream().map(TrackHistory.Entry::title).toList();
    }

    @Test
    void aNewSongPushesTheCurrentOneIntoThePastLatestFirst() {
        TrackHistory h = new TrackHistory();
        assertNull(h.current());
        h.seen(song("A", "one"));
        h.seen(song("A", "two"));
        h.seen(song("B", "two")); // same title, another artist: another song
        assertEquals("two", h.current().title());
        assertEquals("B", h.current().artist());
        assertEquals(List.of("two", "one"), titles(h.snapshot().past()));
    }

    @Test
    void metadataOfTheSameSongCompletesItsEntryAndKeepsItsStart() throws InterruptedException {
        TrackHistory h = new TrackHistory();
        h.seen(song("A", "one"));
        long started = h.current().startedAt();
        Thread.sleep(5);
        h.seen(Metadata.of("artist", "A", "title", "one", "album", "X"));
        h.seen(Metadata.of("comment", "no title here"));
        assertEquals(started, h.current().startedAt());
        assertEquals("X", h.current().metadata().get("album"));
        assertEquals("no title here", h.current().metadata().get("comment"));
        assertEquals(List.of(), h.snapshot().past());
    }

    @Test
    void keepsTenSongsBeforeTheCurrentOne() {
        TrackHistory h = new TrackHistory();
        for (int i = 0; i < 25; i++) h.seen(song("A", "t" + i));
        assertEquals("t24", h.current().title());
        assertEquals(TrackHistory.KEPT, h.snapshot().past().size());
        assertEquals("t23", h.snapshot().past().getFirst().title());
        assertEquals("t14", h.snapshot().past().getLast().title());
    }

    @Test
    void aReloadedOutputContinuesItsPredecessorsHistory() {
        TrackHistory before = new TrackHistory();
        before.seen(song("A", "one"));
        before.seen(song("A", "two"));
        TrackHistory after = new TrackHistory();
        after.inherit(before);
        assertEquals("two", after.current().title());
        after.seen(song("A", "three"));
        assertEquals(List.of("two", "one"), titles(after.snapshot().past()));
    }
}
