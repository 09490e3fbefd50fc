package org.groovecast.dsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** blank.detect, blank.strip and blank.skip: dead air made on demand by muting a tone. */
class BlankOperatorsTest {
    static final int FRAME = 882;

    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new DspOperators(), name, named, positional);
    }

    @Test
    void blankDetectCallsOncePerSilence() {
        int[] calls = {0};
        UserFunction onBlank = args -> ++calls[0];
        Gain tone = new Gain(TestSource.sine(440, 0.5));
        FramePuller puller =
                new FramePuller(op("blank.detect", Map.of("maxBlank", 1), tone, onBlank));
        puller.pullSeconds(2);
        assertEquals(0, calls[0]);
        tone.gain = 0;
        puller.pullSeconds(0.9);
        assertEquals(0, calls[0], "not yet a second of silence");
        puller.pullSeconds(0.2);
        assertEquals(1, calls[0]);
        puller.pullSeconds(5);
        assertEquals(1, calls[0], "one call for one silence, however long");
        tone.gain = 1;
        puller.pullSeconds(0.5);
        tone.gain = 0;
        puller.pullSeconds(1.5);
        assertEquals(2, calls[0], "sound came back and went again");
    }

    @Test
    void blankDetectPassesTheAudioUnchanged() {
        UserFunction none = args -> null;
        Pulled detected =
                new FramePuller(op("blank.detect", Map.of(), TestSource.sine(440, 0.5), none))
                        .pullSeconds(1);
        Pulled raw = new FramePuller(TestSource.sine(440, 0.5)).pullSeconds(1);
        assertArrayEquals(raw.channel(0), detected.channel(0));
    }

    @Test
    void aQuietSignalAboveTheThresholdIsNotBlank() {
        int[] calls = {0};
        UserFunction onBlank = args -> ++calls[0];
        // -34 dBFS RMS is over the -40 default; with threshold: -30 it is dead air
        new FramePuller(
                        op(
                                "blank.detect",
                                Map.of("maxBlank", 1),
                                TestSource.sine(440, 0.028),
                                onBlank))
                .pullSeconds(3);
        assertEquals(0, calls[0]);
        new FramePuller(
                        op(
                                "blank.detect",
                                Map.of("maxBlank", 1, "threshold", -30),
                                TestSource.sine(440, 0.028),
                                onBlank))
                .pullSeconds(3);
        assertEquals(1, calls[0]);
    }

    @Test
    void blankStripIsUnavailableAfterMaxBlankOfSilenceAndBackWithTheSound() {
        Gain tone = new Gain(TestSource.sine(440, 0.5));
        Source strip = op("blank.strip", Map.of("maxBlank", 1), tone);
        assertTrue(strip.isFallible());
        FramePuller puller = new FramePuller(strip);
        assertEquals(puller.pullSeconds(1).length(), 44_100);
        tone.gain = 0;
        Pulled silent = puller.pullSeconds(2);
        // the silent second still plays, up to the frame in which it reached maxBlank; then nothing
        assertEquals(51 * FRAME, silent.produced(), FRAME);
        assertEquals(0, silent.produced() % FRAME, "whole frames, then none");
        tone.gain = 1;
        Pulled back = puller.pullSeconds(1);
        assertEquals(
                back.length(),
                back.produced(),
                "it heard the sound by itself and plays it at once");
        assertEquals(0.5 / Math.sqrt(2), back.rms(0), 1e-3);
    }

    @Test
    void blankSkipEndsATrackThatWentSilent() {
        Gain tone = new Gain(TestSource.sine(440, 0.5));
        FramePuller puller = new FramePuller(op("blank.skip", Map.of("maxBlank", 1), tone));
        assertEquals(List.of(0), puller.pullSeconds(1).trackStarts());
        tone.gain = 0;
        Pulled p = puller.pullSeconds(2);
        assertEquals(1, p.trackStarts().size());
        int cut = p.trackStarts().getFirst();
        assertEquals(44_100, cut, FRAME, "a new track a second into the silence");
    }
}
