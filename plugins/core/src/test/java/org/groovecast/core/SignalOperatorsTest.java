package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** amplify and add: gains and mixes, read off constant inputs. */
class SignalOperatorsTest {
    static final int FRAME = 882;

    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new SignalOperators(), name, named, positional);
    }

    static void assertLevel(double level, Pulled p, int from, int to) {
        SelectionOperatorsTest.assertLevel(level, p, from, to);
    }

    @Test
    void amplifyMultipliesByItsFactor() {
        assertLevel(
                0.4,
                new FramePuller(op("amplify", Map.of(), 0.5, TestSource.level(0.8))).pull(3),
                0,
                3 * FRAME);
        Pulled loud =
                new FramePuller(op("amplify", Map.of(), 2, TestSource.sine(440, 0.25)))
                        .pullSeconds(1);
        assertEquals(0.5, loud.peak(0), 1e-3);
    }

    @Test
    void aFactorReadEveryFrameRampsToItsNewValueOverOneFrame() {
        double[] volume = {0.5};
        UserFunction factor = args -> volume[0];
        FramePuller puller =
                new FramePuller(op("amplify", Map.of(), factor, TestSource.level(0.8)));
        assertLevel(0.4, puller.pull(2), 0, 2 * FRAME);
        volume[0] = 1.0;
        Pulled p = puller.pull(2);
        float[] x = p.channel(0);
        // no jump from one sample to the next: 0.4 to 0.8 in equal steps across the frame
        assertEquals(0.4 + 0.4 / FRAME, x[0], 1e-5);
        assertEquals(0.6, x[FRAME / 2 - 1], 1e-3);
        assertEquals(0.8, x[FRAME - 1], 1e-5);
        assertLevel(0.8, p, FRAME, 2 * FRAME);
    }

    @Test
    void addNormalizesByTheTotalWeight() {
        Source mean = op("add", Map.of(), TestSource.level(0.2), TestSource.level(0.6));
        assertLevel(0.4, new FramePuller(mean).pull(2), 0, 2 * FRAME);
        Source weighted =
                op(
                        "add",
                        Map.of("weights", List.of(3, 1)),
                        TestSource.level(0.2),
                        TestSource.level(0.6));
        assertLevel(0.3, new FramePuller(weighted).pull(2), 0, 2 * FRAME); // (3 x 0.2 + 0.6) / 4
    }

    @Test
    void addWithoutNormalizeSums() {
        Source sum =
                op(
                        "add",
                        Map.of("normalize", false),
                        List.of(TestSource.level(0.2), TestSource.level(0.6)));
        assertLevel(0.8, new FramePuller(sum).pull(2), 0, 2 * FRAME);
    }

    @Test
    void addCountsOnlyTheReadyInputsWeights() {
        TestSource off = TestSource.level(0.2).fallible();
        off.ready(false);
        Source mix = op("add", Map.of(), off, TestSource.level(0.6));
        FramePuller puller = new FramePuller(mix);
        assertLevel(
                0.6,
                puller.pull(2),
                0,
                2 * FRAME); // not 0.3: the silent input does not halve the other
        off.ready(true);
        assertLevel(0.4, puller.pull(2), 0, 2 * FRAME);
    }
}
