package org.groovecast.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Metadata;
import org.junit.jupiter.api.Test;

class FramePullerTest {
    static TestContext tenPerFrame() {
        return TestContext.of(new AudioFormat(1000, 2), 10);
    }

    @Test
    void pullsWholeFramesAndSummarizesThem() {
        FramePuller p = new FramePuller(TestSource.level(0.5), tenPerFrame());
        Pulled got = p.pull(3);
        assertEquals(3, got.frames());
        assertEquals(30, got.length());
        assertEquals(30, got.produced());
        assertEquals(0.5, got.rms(1), 1e-6);
        assertEquals(0.5, got.peak(0), 1e-6);
        assertEquals(List.of(0), got.trackStarts());
        assertEquals(3, p.context().getTicks());
    }

    @Test
    void tracksAndTheirMetadataArriveWhereTheyStart() {
        FramePuller p =
                new FramePuller(TestSource.level(0.1).tracks(0.025).titled("t"), tenPerFrame());
        Pulled got = p.pull(8);
        assertEquals(List.of(0, 25, 50, 75), got.trackStarts());
        assertEquals(
                List.of(
                        new MetadataAt(0, 0, Metadata.of("title", "t 1")),
                        new MetadataAt(2, 25, Metadata.of("title", "t 2")),
                        new MetadataAt(5, 50, Metadata.of("title", "t 3")),
                        new MetadataAt(7, 75, Metadata.of("title", "t 4"))),
                got.metadata());
    }

    @Test
    void aTrackEndingOnAFrameBoundaryIsSeenInTheNextPull() {
        FramePuller p = new FramePuller(TestSource.level(0.1).tracks(0.02), tenPerFrame());
        assertEquals(List.of(0), p.pull(2).trackStarts());
        assertEquals(List.of(0, 20), p.pull(4).trackStarts());
    }

    @Test
    void aSourceSwitchedOffLeavesSilenceAndComesBackWithANewTrack() {
        TestSource s = TestSource.sine(50, 0.8).fallible();
        FramePuller p = new FramePuller(s, tenPerFrame());
        p.pull(2);
        s.ready(false);
        Pulled off = p.pull(2);
        assertEquals(0, off.produced());
        assertEquals(0, off.peak(0));
        s.ready(true);
        Pulled on = p.pull(2);
        assertEquals(20, on.produced());
        assertEquals(List.of(0), on.trackStarts());
        assertEquals(2, s.tracksStarted());
        assertTrue(on.peak(0) > 0.5);
    }
}
