package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourceTest {
    /** Pulls {@code s} into {@code frame} until full, as an output does. */
    private static void fill(Source s, Frame frame) {
        frame.clear();
        while (!frame.isFull()) s.get(frame);
    }

    @Test
    void tracksEndWithAShortGetAndFireOnTrackWithTheirMetadata() {
        TestSources.Counter c = new TestSources.Counter(15);
        c.prepare(TestSources.context(10));
        List<String> tracks = new ArrayList<>();
        c.onTrack(m -> tracks.add(m.get("track")));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        for (int tick = 0; tick < 6; tick++) fill(c, f);
        assertEquals(List.of("0", "1", "2", "3"), tracks);
        assertEquals(60, c.next);
    }

    @Test
    void aSourceWithTwoConsumersComputesEachTickOnceAndServesBoth() {
        TestSources.Counter shared = new TestSources.Counter(1000);
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(TestSources.context(10));
        b.prepare(TestSources.context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        for (int tick = 0; tick < 3; tick++) {
            for (Source s : List.of(a, b, shared)) s.beforeTick();
            fill(a, fa);
            fill(b, fb);
            for (int i = 0; i < 10; i++) assertEquals(fa.channel(0)[i], fb.channel(0)[i]);
            assertEquals(tick * 10, fa.channel(0)[0]);
        }
        assertEquals(3, shared.generateCalls, "one generate per tick");
    }

    @Test
    void aSharedSourceThatEndsItsTrackWithNothingDoesNotSpin() {
        TestSources.Counter empty = new TestSources.Counter(0); // every get ends a track at once
        Source a = passThrough(empty);
        Source b = passThrough(empty);
        a.prepare(TestSources.context(10));
        b.prepare(TestSources.context(10));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        empty.beforeTick();
        a.get(f);
        assertEquals(0, f.position());
        b.get(f);
        assertEquals(0, f.position());
    }

    @Test
    void everyConsumerOfASharedSourceSeesATrackThatEndsOnAFrameBoundary() {
        TestSources.Counter shared = new TestSources.Counter(20); // tracks of exactly two frames
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(TestSources.context(10));
        b.prepare(TestSources.context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        int[] emptyGets = new int[2];
        for (int tick = 0; tick < 4; tick++) {
            for (Source s : List.of(a, b, shared)) s.beforeTick();
            int k = 0;
            for (Frame f : List.of(fa, fb)) {
                Source consumer = k == 0 ? a : b;
                f.clear();
                while (!f.isFull()) {
                    int before = f.position();
                    consumer.get(f);
                    if (f.position() == before) emptyGets[k]++;
                }
                k++;
            }
        }
        assertEquals(1, emptyGets[0], "the first consumer sees the track end at tick 2");
        assertEquals(1, emptyGets[1], "and so does the second, though the source ran for the first");
    }

    @Test
    void remainingForCorrectsForASharedSourceThatRanAheadForAnotherConsumer() {
        TestSources.Counter shared = new TestSources.Counter(100);
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(TestSources.context(10));
        b.prepare(TestSources.context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        for (Source s : List.of(a, b, shared)) s.beforeTick();
        a.get(fa);
        assertEquals(90, shared.remaining(), "the source itself is a frame on");
        assertEquals(100, shared.remainingFor(fb), "the second consumer has not had that frame yet");
        assertEquals(90, shared.remainingFor(fa));
    }

    @Test
    void insertedMetadataAppearsAtTheNextGetAndFiresOnMetadata() {
        TestSources.Counter c = new TestSources.Counter(1000);
        c.prepare(TestSources.context(10));
        List<String> seen = new ArrayList<>();
        c.onMetadata(m -> seen.add(m.getOrDefault("title", m.get("track"))));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        fill(c, f);
        c.insertMetadata(java.util.Map.of("title", "live"));
        fill(c, f);
        assertEquals(List.of("0", "live"), seen);
        assertEquals("live", c.lastMetadata().get("title"));
    }

    @Test
    void onPositionFiresOncePerTrack() {
        TestSources.Counter c = new TestSources.Counter(30);
        c.prepare(TestSources.context(10));
        int[] fired = new int[1];
        c.onPosition(0.012, m -> fired[0]++); // 12 samples at 1 kHz
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        for (int tick = 0; tick < 9; tick++) fill(c, f);
        assertEquals(3, fired[0]);
    }

    @Test
    void releasingARegistrationStopsTheCallbackAndTheCount() {
        TestSources.Counter c = new TestSources.Counter(5);
        c.prepare(TestSources.context(10));
        int[] calls = new int[1];
        Registration r = c.onTrack(m -> calls[0]++);
        assertEquals(1, c.registrations());
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        fill(c, f);
        r.release();
        r.release();
        fill(c, f);
        assertEquals(0, c.registrations());
        assertTrue(calls[0] > 0 && calls[0] <= 2, "calls " + calls[0]);
    }

    private static Source passThrough(Source in) {
        return new Transform("pass", in) {
            @Override
            protected void generate(Frame frame) {
                input.get(frame);
            }
        };
    }
}
