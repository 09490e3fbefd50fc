package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.MetadataAt;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** fallback, sequence and mksafe: which input plays, and when the choice changes. */
class SelectionOperatorsTest {
    static final int FRAME = 882;

    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new SelectionOperators(), name, named, positional);
    }

    /** Every sample of [from, to) on channel 0 equals {@code level}. */
    static void assertLevel(double level, Pulled p, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Math.abs(p.channel(0)[i] - level) > 1e-6) {
                throw new AssertionError(
                        "sample " + i + " is " + p.channel(0)[i] + ", expected " + level);
            }
        }
    }

    @Test
    void fallbackPlaysTheFirstReadySource() {
        TestSource first = TestSource.level(0.25).fallible();
        TestSource second = TestSource.level(0.5);
        first.ready(false);
        Source f = op("fallback", Map.of(), first, second);
        assertFalse(f.isFallible()); // its last choice never fails
        FramePuller puller = new FramePuller(f);
        assertLevel(0.5, puller.pull(5), 0, 5 * FRAME);

        Source both = op("fallback", Map.of(), TestSource.level(0.25), TestSource.level(0.5));
        assertLevel(0.25, new FramePuller(both).pull(5), 0, 5 * FRAME);
    }

    @Test
    void aTrackSensitiveFallbackSwitchesOnlyAtTheEndOfTheTrack() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        Source f = op("fallback", Map.of(), live, TestSource.level(0.5).tracks(0.5));
        FramePuller puller = new FramePuller(f);
        puller.pullSeconds(0.2); // 10 frames, 8820 samples of the backup's half-second track
        live.ready(true);
        Pulled p = puller.pullSeconds(1);
        int end = 22_050 - 8_820;
        assertLevel(0.5, p, 0, end);
        assertLevel(0.25, p, end, p.length());
        assertEquals(List.of(end), p.trackStarts());
    }

    @Test
    void aFallbackThatIsNotTrackSensitiveSwitchesAtTheNextFrame() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        Source f =
                op(
                        "fallback",
                        Map.of("trackSensitive", false),
                        live,
                        TestSource.level(0.5).tracks(0.5));
        FramePuller puller = new FramePuller(f);
        puller.pullSeconds(0.2);
        live.ready(true);
        Pulled p = puller.pull(5);
        assertEquals(List.of(0), p.trackStarts());
        // the cut's frame lays the old input's fading tail under the new one...
        assertTrue(
                p.channel(0)[0] > 0.7,
                "the backup fades out under the live input, got " + p.channel(0)[0]);
        assertEquals(0.25, p.channel(0)[FRAME - 1], 1e-3);
        // ...and from the next frame on only the new one plays
        assertLevel(0.25, p, FRAME, p.length());
        live.ready(false);
        assertLevel(0.5, puller.pull(2), 0, 2 * FRAME);
    }

    @Test
    void fallbackCallsOnSelectAndOnLeaveOncePerSelection() {
        TestSource a = TestSource.level(0.25).tracks(0.1);
        TestSource b = TestSource.level(0.5);
        List<String> calls = new ArrayList<>();
        UserFunction onSelect = args -> calls.add("select " + args[0]);
        UserFunction onLeave = args -> calls.add("leave " + args[0]);
        new FramePuller(op("fallback", Map.of("onSelect", onSelect, "onLeave", onLeave), a, b))
                .pullSeconds(0.25);
        // three tracks of a began in a quarter second: each its own selection, each left before the
        // next
        assertEquals(
                List.of("select " + a, "leave " + a, "select " + a, "leave " + a, "select " + a),
                calls);
    }

    @Test
    void sequencePlaysOneTrackOfEachThenStaysOnTheLast() {
        Source s =
                op(
                        "sequence",
                        Map.of(),
                        TestSource.level(0.1).tracks(0.1).titled("a"),
                        TestSource.level(0.2).tracks(0.1).titled("b"));
        Pulled p = new FramePuller(s).pullSeconds(0.5);
        List<String> titles = p.metadata().stream().map(m -> m.metadata().get("title")).toList();
        assertEquals(List.of("a 1", "b 1", "b 2", "b 3", "b 4"), titles);
        assertEquals(
                List.of(0, 4_410, 8_820, 13_230, 17_640),
                p.metadata().stream().map(MetadataAt::position).toList());
        assertLevel(0.1, p, 0, 4_410);
        assertLevel(0.2, p, 4_410, p.length());
    }

    @Test
    void mksafeFillsTheGapsOfAFallibleSourceWithSilence() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        Source safe = op("mksafe", Map.of(), live);
        assertFalse(safe.isFallible());
        FramePuller puller = new FramePuller(safe);
        Pulled gap = puller.pull(3);
        assertEquals(gap.length(), gap.produced());
        assertEquals(0, gap.peak(0));
        live.ready(true);
        Pulled on = puller.pull(3);
        assertLevel(0.25, on, FRAME, on.length());
        live.ready(false);
        Pulled off = puller.pull(3);
        assertEquals(off.length(), off.produced());
        assertEquals(0, off.peak(0, FRAME, off.length()));
    }
}
