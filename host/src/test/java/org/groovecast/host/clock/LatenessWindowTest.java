package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Quantiles over the last window of ticks, not since the clock started; count and sum since the
 * start.
 */
class LatenessWindowTest {
    private static final double[] Q = {0.5, 0.99};

    @Test
    void quantilesFollowTheRecentTicksWhileCountAndSumKeepEverything() {
        LatenessHistogram h = new LatenessHistogram();
        AtomicLong now = new AtomicLong();
        for (int i = 0; i < 1000; i++)
            h.record(20_000_000); // an hour of 20 ms late ticks before metrics looked
        LatenessWindow w = new LatenessWindow(h, 30, now::get);
        double[] got = new double[2];

        w.quantiles(Q, got);
        assertTrue(Double.isNaN(got[0]), "no tick since the window began");

        for (int i = 0; i < 99; i++) h.record(15_000); // 15 µs: the 10..20 µs bucket
        h.record(3_000_000);
        w.quantiles(Q, got);
        assertEquals(0.00002, got[0], 1e-12);
        assertEquals(0.00002, got[1], 1e-12);

        now.set(31_000_000_000L); // a window later: the newer snapshot (taken now) becomes the
        // start only a window on
        w.quantiles(Q, got);
        assertEquals(0.00002, got[0], 1e-12);
        for (int i = 0; i < 100; i++) h.record(1_000_000);
        w.quantiles(Q, got);
        assertEquals(0.00101, got[1], 1e-12, "1 ms ticks since: the 1.00..1.01 ms bucket");

        now.set(62_000_000_000L); // the 15 µs ticks are out of the window now
        w.quantiles(Q, got);
        assertEquals(0.00101, got[0], 1e-12);

        assertEquals(1200, w.count());
        assertEquals(1000 * 0.02 + 99 * 15e-6 + 0.003 + 0.1, w.sumSeconds(), 1e-9);
    }

    @Test
    void ticksPastTheCeilingReadAsTheCeiling() {
        LatenessHistogram h = new LatenessHistogram();
        LatenessWindow w = new LatenessWindow(h, 30, () -> 0);
        h.record(2_000_000_000L);
        double[] got = new double[1];
        w.quantiles(new double[] {0.5}, got);
        assertEquals(h.ceilingMillis() / 1000, got[0], 1e-12);
        assertEquals(2.0, w.sumSeconds(), 1e-12);
    }
}
