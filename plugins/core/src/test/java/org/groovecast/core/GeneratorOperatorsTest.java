package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** sine, blank and tracks, built as a script builds them and pulled as a clock pulls them. */
class GeneratorOperatorsTest {
    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new GeneratorOperators(), name, named, positional);
    }

    /** Sign changes from one sample to the next: two per period of a tone. */
    static int zeroCrossings(float[] x, int from, int to) {
        int n = 0;
        for (int i = from + 1; i < to; i++) {
            if ((x[i - 1] < 0) != (x[i] < 0)) n++;
        }
        return n;
    }

    @Test
    void sineHasItsFrequencyOnEveryChannel() {
        Pulled one = new FramePuller(op("sine", Map.of(), 1000)).pullSeconds(1);
        // 1000 periods in a second: 2000 zero crossings, give or take the one at each end
        assertEquals(2000, zeroCrossings(one.channel(0), 0, one.length()), 2);
        assertArrayEquals(one.channel(0), one.channel(1));
        assertEquals(
                2 * 440,
                zeroCrossings(
                        new FramePuller(op("sine", Map.of())).pullSeconds(1).channel(0), 0, 44_100),
                2);
    }

    @Test
    void sineAmplitudeIsItsPeakAndSetsItsRms() {
        Pulled p = new FramePuller(op("sine", Map.of("amplitude", 0.5), 441)).pullSeconds(1);
        assertEquals(0.5, p.peak(0), 1e-3);
        assertEquals(0.5 / Math.sqrt(2), p.rms(0), 1e-4);
        assertEquals(
                1 / Math.sqrt(2),
                new FramePuller(op("sine", Map.of(), 441)).pullSeconds(1).rms(1),
                1e-4);
    }

    @Test
    void blankIsEndlessSilence() {
        Pulled p = new FramePuller(op("blank", Map.of())).pullSeconds(2);
        assertEquals(0, p.peak(0));
        assertEquals(0, p.peak(1));
        assertEquals(p.length(), p.produced());
        assertEquals(List.of(0), p.trackStarts());
    }

    @Test
    void blankWithADurationIsSilenceInTracksOfIt() {
        Pulled p = new FramePuller(op("blank", Map.of("duration", 0.5))).pullSeconds(2);
        assertEquals(List.of(0, 22_050, 44_100, 66_150), p.trackStarts());
        assertEquals(0, p.peak(0));
    }

    @Test
    void tracksCutsAnEndlessSourceAtItsDuration() {
        Source t = op("tracks", Map.of("duration", 0.3), op("sine", Map.of(), 440));
        FramePuller puller = new FramePuller(t);
        Pulled p = puller.pullSeconds(1);
        assertEquals(List.of(0, 13_230, 26_460, 39_690), p.trackStarts());
        assertEquals(p.length(), p.produced()); // cut, not gapped
        assertEquals(13_230 * 4 - 44_100, t.remaining());
    }

    @Test
    void aTrackOfTheSourceThatEndsFirstEndsTheCutTrackToo() {
        Source t = op("tracks", Map.of("duration", 1), TestSource.level(0.5).tracks(0.25));
        Pulled p = new FramePuller(t).pullSeconds(1.5);
        // the source's quarter-second tracks end first; each starts a new full second
        assertEquals(List.of(0, 11_025, 22_050, 33_075, 44_100, 55_125), p.trackStarts());
    }

    @Test
    void tracksRefusesANonPositiveDuration() {
        Source sine = op("sine", Map.of());
        assertThrows(ScriptException.class, () -> op("tracks", Map.of("duration", 0), sine));
        assertThrows(
                IllegalArgumentException.class,
                () -> op("tracks", Map.of(), sine)); // duration: is required
    }
}
