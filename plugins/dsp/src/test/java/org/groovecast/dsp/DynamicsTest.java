package org.groovecast.dsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** compress and limit: levels above and below their thresholds. */
class DynamicsTest {
    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new DspOperators(), name, named, positional);
    }

    static double db(double level) {
        return 20 * Math.log10(level);
    }

    @Test
    void compressFollowsItsStaticCurveAboveTheThreshold() {
        Source c =
                op(
                        "compress",
                        Map.of("threshold", -20, "ratio", 4, "attack", 5, "release", 50),
                        TestSource.sine(1000, 0.5));
        Pulled p = new FramePuller(c).pullSeconds(4);
        // -6 dBFS in, 14 dB over the threshold, a quarter of that out: -20 + 14 / 4 = -16.5 dBFS
        assertEquals(-16.5, db(p.peak(0, p.at(2), p.length())), 1.0);
        assertEquals(
                p.peak(0, p.at(2), p.length()),
                p.peak(1, p.at(2), p.length()),
                1e-6); // linked channels
    }

    @Test
    void compressLeavesALevelBelowTheThresholdAloneButForTheMakeUpGain() {
        Pulled plain =
                new FramePuller(op("compress", Map.of(), TestSource.sine(1000, 0.05)))
                        .pullSeconds(1);
        Pulled raw = new FramePuller(TestSource.sine(1000, 0.05)).pullSeconds(1);
        for (int i = 0; i < raw.length(); i++)
            assertEquals(raw.channel(0)[i], plain.channel(0)[i], 1e-7);
        Pulled made =
                new FramePuller(op("compress", Map.of("gain", 6), TestSource.sine(1000, 0.05)))
                        .pullSeconds(1);
        assertEquals(0.05 * Math.pow(10, 6 / 20.0), made.peak(0), 1e-3);
    }

    @Test
    void compressRefusesARatioUnderOne() {
        assertThrows(
                ScriptException.class,
                () -> op("compress", Map.of("ratio", 0.5), TestSource.level(0)));
    }

    @Test
    void exponentialCompressionRaisesQuietSamplesOnItsCurveAndMuOneChangesNothing() {
        Pulled raw = new FramePuller(TestSource.sine(1000, 0.25)).pullSeconds(1);
        Pulled two =
                new FramePuller(op("compress.exponential", Map.of(), TestSource.sine(1000, 0.25)))
                        .pullSeconds(1);
        Pulled one =
                new FramePuller(
                                op(
                                        "compress.exponential",
                                        Map.of("mu", 1.0),
                                        TestSource.sine(1000, 0.25)))
                        .pullSeconds(1);
        for (int i = 0; i < raw.length(); i++) {
            double x = raw.channel(0)[i];
            double expected = Math.signum(x) * (1 - Math.pow(1 - Math.abs(x), 2));
            assertEquals(expected, two.channel(0)[i], 1e-6);
            assertEquals(x, one.channel(0)[i], 0);
        }
        // a quarter of full scale peaks at 1 - 0.75^2 = 0.4375
        assertEquals(0.4375, two.peak(0), 1e-3);
    }

    @Test
    void limitKeepsEverySampleUnderItsThreshold() {
        double ceiling = Math.pow(10, -1 / 20.0);
        Pulled p =
                new FramePuller(op("limit", Map.of("threshold", -1), TestSource.sine(997, 2.0)))
                        .pullSeconds(3);
        for (int c = 0; c < 2; c++) {
            assertTrue(
                    p.peak(c) <= ceiling * 1.001,
                    "peak " + p.peak(c) + " over the ceiling " + ceiling);
        }
        assertTrue(
                p.peak(0, p.at(1), p.length()) > ceiling * 0.95,
                "a +6 dBFS tone is limited, not muted");
    }

    @Test
    void limitOnlyDelaysWhatIsUnderItsThreshold() {
        Pulled limited =
                new FramePuller(op("limit", Map.of(), TestSource.sine(440, 0.5))).pullSeconds(1);
        Pulled raw = new FramePuller(TestSource.sine(440, 0.5)).pullSeconds(1);
        int delay = 221; // 5 ms of look-ahead at 44.1 kHz
        for (int i = 0; i < delay; i++) assertEquals(0, limited.channel(0)[i]);
        for (int i = delay; i < raw.length(); i++)
            assertEquals(raw.channel(0)[i - delay], limited.channel(0)[i], 1e-6);
    }
}
