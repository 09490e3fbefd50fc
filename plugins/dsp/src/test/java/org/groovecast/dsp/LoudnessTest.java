package org.groovecast.dsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestContext;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** lufs and normalize, on tones of a known loudness. */
class LoudnessTest {
    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new DspOperators(), name, named, positional);
    }

    /**
     * Peak amplitude of a sine at {@code db} dBFS peak; in stereo, at 1 kHz, that is also its
     * loudness in LUFS.
     */
    static double peakOf(double db) {
        return Math.pow(10, db / 20);
    }

    @Test
    void aFullScaleMonoSineAt1kHzReadsMinus3Lufs() {
        // RMS -3.01 dBFS; the K-weighting at 1 kHz cancels the -0.691 of BS.1770
        Lufs meter = (Lufs) op("lufs", Map.of(), TestSource.sine(1000, 1.0));
        new FramePuller(meter, TestContext.of(new AudioFormat(48_000, 1), 960)).pullSeconds(5);
        assertEquals(-3.01, meter.getIntegrated(), 0.1);
        assertEquals(-3.01, meter.getShortTerm(), 0.1);
        assertEquals(-3.01, meter.getMomentary(), 0.1);
    }

    @Test
    void aStereoSineReadsItsPeakLevelInLufs() {
        // EBU Tech 3341: a 1 kHz sine at -23 dBFS in both channels reads -23.0 LUFS
        Lufs meter = (Lufs) op("lufs", Map.of(), TestSource.sine(1000, peakOf(-23)));
        Pulled p = new FramePuller(meter).pullSeconds(5);
        assertEquals(-23.0, meter.getIntegrated(), 0.1);
        assertEquals(peakOf(-23), p.peak(0), 1e-4); // and the samples pass unchanged
    }

    @Test
    void silenceHasNoLoudness() {
        Lufs meter = (Lufs) op("lufs", Map.of(), TestSource.level(0));
        new FramePuller(meter).pullSeconds(1);
        assertEquals(Double.NEGATIVE_INFINITY, meter.getIntegrated());
        assertEquals("-inf", meter.readings().get("momentary"));
    }

    @Test
    void normalizeBringsAQuietAndALoudToneToTheTarget() {
        for (double level : new double[] {-23, -8}) {
            Normalize n =
                    (Normalize)
                            op(
                                    "normalize",
                                    Map.of("target", -14),
                                    TestSource.sine(1000, peakOf(level)));
            Lufs after = (Lufs) op("lufs", Map.of(), n);
            new FramePuller(after).pullSeconds(8);
            assertEquals(-14 - level, n.getGain(), 0.5, "gain for a " + level + " LUFS tone");
            assertEquals(
                    -14, after.getShortTerm(), 0.5, "loudness out for a " + level + " LUFS tone");
        }
    }

    @Test
    void afterTheFirstSecondNormalizeMovesItsGainAtMostRateDbPerSecond() {
        Gain jump = new Gain(TestSource.sine(1000, peakOf(-23)));
        Normalize n = (Normalize) op("normalize", Map.of("target", -14), jump);
        FramePuller puller = new FramePuller(n);
        puller.pullSeconds(4);
        double before = n.getGain();
        assertEquals(9, before, 0.3);
        jump.gain =
                10; // 20 dB louder at once: -11 dB wanted, reached at 3 dB a second, not at once
        puller.pullSeconds(1);
        // the meter sees the jump at its next 100 ms block: up to 5 frames' worth (0.3 dB) later
        double fell = before - n.getGain();
        assertTrue(fell <= 3 + 1e-9 && fell > 2.6, "the gain fell " + fell + " dB in a second");
        puller.pullSeconds(1);
        assertEquals(3, before - n.getGain() - fell, 1e-6, "and 3 dB the next second");
    }

    @Test
    void normalizeHoldsItsGainBelowTheThresholdAndCapsItAtMaxGain() {
        Normalize held = (Normalize) op("normalize", Map.of(), TestSource.sine(1000, peakOf(-45)));
        Pulled p = new FramePuller(held).pullSeconds(5);
        assertEquals(0, held.getGain());
        assertEquals(peakOf(-45), p.peak(0, p.at(4), p.length()), 1e-5);

        Normalize capped =
                (Normalize)
                        op(
                                "normalize",
                                Map.of("threshold", -50),
                                TestSource.sine(1000, peakOf(-45)));
        new FramePuller(capped).pullSeconds(5);
        assertEquals(12, capped.getGain(), 1e-9); // 31 dB wanted, 12 allowed
        assertTrue(capped.readings().containsKey("gain"));
    }
}
