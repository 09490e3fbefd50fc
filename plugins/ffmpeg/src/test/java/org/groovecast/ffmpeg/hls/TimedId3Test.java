package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.groovecast.api.Metadata;
import org.junit.jupiter.api.Test;

/** When a rendition's title changes, as its segments' timed metadata says it. */
class TimedId3Test {
    @Test
    void aChangeCountsForANewTitleOnceAndFallsDueAtItsSample() {
        TimedId3 t = new TimedId3();
        t.offer(Metadata.of("liq_cue_in", "1.0"), 0);
        t.offer(Metadata.of("artist", "Nobody"), 0);
        assertNull(t.due(Long.MAX_VALUE), "no title, no change");
        t.offer(Metadata.of("title", "One", "artist", "Band"), 1000);
        assertNull(t.due(999), "its packet has not come");
        Id3Cue one = t.due(1000);
        assertEquals("One", one.title());
        assertEquals("Band", one.artist());
        assertArrayEquals(
                new Id3Tag().text("TIT2", "One").text("TPE1", "Band").toBytes(), one.tag());
        t.offer(Metadata.of("title", "One", "artist", "Band", "liq_amplify", "-3 dB"), 2000);
        assertNull(t.due(3000), "the same title again is no change");
        t.offer(Metadata.of("title", "Two"), 4000);
        t.offer(Metadata.of("title", "Three"), 4500);
        Id3Cue three = t.due(5000);
        assertEquals("Three", three.title(), "the later of two waiting titles");
        assertNull(three.artist());
        assertEquals(one.id() + 2, three.id(), "each title offered has an id of its own");
        assertEquals(three, t.current());
        t.offer(Metadata.of("title", "Four"), 90_000);
        t.restart(); // the encoder starts again at 0
        assertEquals("Four", t.due(0).title(), "due with the new run's first packet");
    }
}
