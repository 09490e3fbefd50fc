package org.groovecast.transitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** fade.in and fade.out on tracks of a constant level, where each gain reads off directly. */
class FadeTest {
    static final int SECOND = 44_100;

    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new TransitionOperators(), name, named, positional);
    }

    @Test
    void fadeInRaisesEachTrackFromSilenceAlongALine() {
        Pulled p =
                new FramePuller(
                                op(
                                        "fade.in",
                                        Map.of("duration", 1),
                                        TestSource.level(0.8).tracks(2)))
                        .pullSeconds(4);
        float[] x = p.channel(0);
        assertEquals(0, x[0], 1e-9);
        assertEquals(0.2, x[SECOND / 4], 1e-4);
        assertEquals(0.4, x[SECOND / 2], 1e-4);
        assertEquals(0.8, x[SECOND], 1e-6);
        assertEquals(0.8, x[2 * SECOND - 1], 1e-6);
        // the next track fades in again
        assertEquals(0, x[2 * SECOND], 1e-9);
        assertEquals(0.4, x[2 * SECOND + SECOND / 2], 1e-4);
    }

    @Test
    void fadeInFollowsItsCurve() {
        Pulled p =
                new FramePuller(
                                op(
                                        "fade.in",
                                        Map.of("duration", 1, "type", "sin"),
                                        TestSource.level(0.8)))
                        .pullSeconds(2);
        assertEquals(0.8 * (1 - Math.cos(Math.PI / 4)) / 2, p.channel(0)[SECOND / 4], 1e-4);
        assertEquals(0.4, p.channel(1)[SECOND / 2], 1e-4);
        assertEquals(0.8, p.channel(0)[SECOND + 1], 1e-6);
    }

    @Test
    void aTracksLiqFadeInOverridesTheDuration() {
        TestSource s = TestSource.level(0.8).tracks(2);
        s.insertMetadata(Map.of("liq_fade_in", "0.5"));
        Pulled p = new FramePuller(op("fade.in", Map.of("duration", 1), s)).pullSeconds(4);
        assertEquals(0.4, p.channel(0)[SECOND / 4], 1e-4);
        assertEquals(0.8, p.channel(0)[SECOND / 2], 1e-6);
        assertEquals(
                0.4,
                p.channel(0)[2 * SECOND + SECOND / 2],
                1e-4); // the next track has none: the setting again
    }

    @Test
    void fadeOutLowersTheEndOfEachTrackToSilence() {
        Pulled p =
                new FramePuller(
                                op(
                                        "fade.out",
                                        Map.of("duration", 1),
                                        TestSource.level(0.8).tracks(2)))
                        .pullSeconds(4);
        float[] x = p.channel(0);
        assertEquals(0.8, x[SECOND - 1], 1e-6);
        assertEquals(0.4, x[SECOND + SECOND / 2], 1e-4);
        assertEquals(0, x[2 * SECOND - 1], 1e-9);
        assertEquals(0.8, x[2 * SECOND], 1e-6); // the next track starts at full level
        assertEquals(0, x[4 * SECOND - 1], 1e-9);
    }

    @Test
    void fadeOutLeavesATrackOfUnknownLengthAlone() {
        Pulled p =
                new FramePuller(op("fade.out", Map.of("duration", 1), TestSource.level(0.8)))
                        .pullSeconds(3);
        assertEquals(0.8, p.peak(0), 1e-6);
        assertEquals(0.8, p.rms(0), 1e-6);
    }

    @Test
    void fadesRefuseAnUnknownCurveAndTooLongADuration() {
        Source s = TestSource.level(0);
        assertThrows(ScriptException.class, () -> op("fade.in", Map.of("type", "square"), s));
        assertThrows(ScriptException.class, () -> op("fade.out", Map.of("duration", 31), s));
    }
}
