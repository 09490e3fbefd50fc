package org.groovecast.host.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.groovecast.api.ClockInfo;
import org.junit.jupiter.api.Test;

class ClockTraceTest {
    /** A clock whose figures the test sets. */
    private static final class FakeClock implements ClockInfo {
        double duty;
        double lag;

        @Override
        public String getId() {
            return "c";
        }

        @Override
        public double getDuty() {
            return duty;
        }

        @Override
        public double getLag() {
            return lag;
        }

        @Override
        public long getTicks() {
            return 0;
        }

        @Override
        public double getTime() {
            return 0;
        }
    }

    @Test
    void keepsTheLastTenMinutesOldestFirst() {
        FakeClock clock = new FakeClock();
        ClockTrace trace = new ClockTrace(clock);
        for (int i = 0; i < ClockTrace.SAMPLES + 5; i++) {
            clock.duty = i / 1000.0;
            clock.lag = i;
            trace.sample(1000L * i);
        }
        ClockTrace.Window w = trace.window();
        assertEquals(ClockTrace.SAMPLES, w.at().length);
        assertEquals(5000L, w.at()[0]);
        assertEquals(1000L * (ClockTrace.SAMPLES + 4), w.at()[w.at().length - 1]);
        assertEquals(5.0, w.lag()[0]);
        assertEquals((ClockTrace.SAMPLES + 4) / 1000.0, w.duty()[w.duty().length - 1]);
    }

    @Test
    void aYoungTraceHoldsWhatItSampled() {
        FakeClock clock = new FakeClock();
        ClockTrace trace = new ClockTrace(clock);
        clock.duty = 0.25;
        trace.sample(7);
        assertArrayEquals(new long[] {7}, trace.window().at());
        assertArrayEquals(new double[] {0.25}, trace.window().duty());
    }

    @Test
    void aFigureNotMeasuredYetReadsZeroSoThatJsonCanCarryIt() {
        FakeClock clock = new FakeClock();
        clock.duty = Double.NaN;
        clock.lag = Double.POSITIVE_INFINITY;
        ClockTrace trace = new ClockTrace(clock);
        trace.sample(1);
        assertEquals(0.0, trace.window().duty()[0]);
        assertEquals(0.0, trace.window().lag()[0]);
    }

    @Test
    void aReloadedClockContinuesItsPredecessorsTrace() {
        FakeClock clock = new FakeClock();
        ClockTrace before = new ClockTrace(clock);
        for (int i = 0; i < 3; i++) before.sample(i);
        ClockTrace after = new ClockTrace(clock);
        after.inherit(before);
        after.sample(3);
        assertArrayEquals(new long[] {0, 1, 2, 3}, after.window().at());
    }
}
