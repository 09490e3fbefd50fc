package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    /** A context that records what it is asked to describe: a callback's failure being logged. */
    private static StreamContext describing(List<Throwable> logged) {
        StreamContext base = TestSources.context(10);
        return new StreamContext() {
            @Override
            public AudioFormat format() {
                return base.format();
            }

            @Override
            public int frameSize() {
                return base.frameSize();
            }

            @Override
            public ClockInfo clock() {
                return null;
            }

            @Override
            public java.util.concurrent.Executor blocking() {
                return base.blocking();
            }

            @Override
            public boolean realtime() {
                return true;
            }

            @Override
            public void beforeStart(Runnable blockingWork) {
                blockingWork.run();
            }

            @Override
            public String describeFailure(Object callback, Throwable failure) {
                logged.add(failure);
                return failure.toString();
            }
        };
    }

    @Test
    void whateverACallbackThrowsIsLoggedOncePerRunAndTheStreamAndTheOtherCallbacksGoOn() {
        TestSources.Counter c = new TestSources.Counter(10); // a track per frame
        List<Throwable> logged = new ArrayList<>();
        c.prepare(describing(logged));
        int[] others = new int[1];
        c.onTrack(
                m -> {
                    throw new AssertionError("no title");
                });
        c.onTrack(m -> others[0]++);
        c.onFrame(
                () -> {
                    throw new StackOverflowError();
                });
        c.onPosition(
                0.001,
                m -> {
                    throw new IllegalStateException("boom");
                });
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        for (int tick = 0; tick < 5; tick++) {
            c.beforeTick();
            fill(c, f);
            c.afterTick();
        }
        assertEquals(5, others[0], "the callback after the failing one ran at every track");
        assertEquals(50, c.next, "the stream went on");
        assertEquals(
                List.of(
                        AssertionError.class,
                        IllegalStateException.class,
                        StackOverflowError.class),
                logged.stream().map(Object::getClass).toList(),
                "each failing callback logged once, at its first failure");
    }

    @Test
    void aCallbackThatRunsTheJvmOutOfMemoryIsNotCaught() {
        TestSources.Counter c = new TestSources.Counter(10);
        c.prepare(TestSources.context(10));
        c.onTrack(
                m -> {
                    throw new OutOfMemoryError("test");
                });
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        assertThrows(OutOfMemoryError.class, () -> fill(c, f));
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

    @Test
    void aContextOutsideTheEngineServesOneConsumerPerSourceAndRefusesASecond() {
        TestSources.Counter shared = new TestSources.Counter(1000);
        passThrough(shared).prepare(TestSources.context(10));
        Source second = passThrough(shared);
        UnsupportedOperationException e =
                assertThrows(
                        UnsupportedOperationException.class,
                        () -> second.prepare(TestSources.context(10)));
        assertTrue(e.getMessage().startsWith("counter has a second consumer"), e.getMessage());
    }

    @Test
    void aSourceWithoutANameOrANumberIsKnownByItsKindAndTheHostsNumberIsGivenOnce() {
        TestSources.Counter c = new TestSources.Counter(10);
        assertEquals("counter", c.id());
        assertTrue(c.number(3));
        assertFalse(c.number(4));
        assertEquals("counter_3", c.getId());
        c.setId("music");
        assertEquals("music", c.id());
        assertTrue(c.isNamed());
    }

    @Test
    void aSkipEndsTheTrackWithAnEmptyGetAndTheNextStartsRightAfterIt() {
        TestSources.Counter c = new TestSources.Counter(1000); // no inputs: its own tracks
        c.prepare(TestSources.context(10));
        List<String> tracks = new ArrayList<>();
        c.onTrack(m -> tracks.add(m.getOrDefault("track", "new")));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        fill(c, f);
        fill(c, f);
        c.skip();
        f.clear();
        c.get(f);
        assertEquals(0, f.position(), "the skipped track ends where the frame starts");
        c.get(f);
        assertEquals(10, f.position());
        assertEquals(List.of("0", "new"), tracks);
    }

    @Test
    void aSkipWithTheNextTrackReadyEndsTheTrackOnceAndNothingWhenNoTrackPlays() {
        Prefetching p = new Prefetching();
        p.prepare(TestSources.context(10));
        List<String> tracks = new ArrayList<>();
        p.onTrack(m -> tracks.add(m.get("track")));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        p.skip(); // nothing played yet: nothing to end
        f.clear();
        p.get(f);
        assertEquals(10, f.position());
        p.skip();
        p.skip(); // twice before the next get: one track end
        f.clear();
        p.get(f);
        assertEquals(0, f.position());
        p.get(f);
        assertEquals(10, f.position());
        assertEquals(List.of("0", "1"), tracks);
        assertEquals(0, f.metadataPosition(0), "the next track's metadata where it starts");
    }

    @Test
    void aSkippedTrackIsDroppedOnTheClockAtTheNextTickThoughNobodyPullsAndItsEndStillComes() {
        Prefetching p = new Prefetching();
        p.prepare(TestSources.context(10));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        fill(p, f);
        p.skip();
        assertEquals(0, p.drops, "not off the clock");
        p.beforeTick();
        p.beforeTick();
        assertEquals(1, p.drops, "its file closed at the next tick");
        f.clear();
        p.get(f);
        assertEquals(0, f.position(), "the consumers still see the track end");
        p.get(f);
        assertEquals(10, f.position());
        assertEquals(1, p.drops);
    }

    /**
     * A file player's behaviour: the next track is ready at once, so the skipped track's end is all
     * that tells the consumers.
     */
    private static final class Prefetching extends Source {
        private int track;
        private boolean started;
        int drops;

        Prefetching() {
            super("prefetching");
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public boolean isFallible() {
            return false;
        }

        @Override
        protected void dropTrack() {
            drops++;
            if (started) track++;
            started = false;
        }

        @Override
        protected void generate(Frame frame) {
            if (!started) {
                started = true;
                frame.addMetadata(frame.position(), Metadata.of("track", String.valueOf(track)));
            }
            frame.silence(frame.free());
        }
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
