package org.groovecast.host.status;

import java.util.List;
import org.groovecast.api.ClockInfo;

/**
 * The last ten minutes of a clock's duty cycle and lag, one sample a second, for the status page's
 * plots. Fixed arrays written in place: sampling allocates nothing, and a page that opens late
 * still gets the whole window at once.
 */
public final class ClockTrace {
    /** Samples kept: ten minutes at one a second. */
    public static final int SAMPLES = 600;

    private final ClockInfo clock;
    private final double[] duty = new double[SAMPLES];
    private final double[] lag = new double[SAMPLES];
    private final long[] at = new long[SAMPLES];
    private long count;

    ClockTrace(ClockInfo clock) {
        this.clock = clock;
    }

    public ClockInfo clock() {
        return clock;
    }

    /** Takes one sample, stamped {@code millis} (epoch). */
    synchronized void sample(long millis) {
        int i = (int) (count % SAMPLES);
        duty[i] = finite(clock.getDuty());
        lag[i] = finite(clock.getLag());
        at[i] = millis;
        count++;
    }

    /**
     * Continues {@code previous}'s samples (a reload: the clock of the same name in the new
     * station).
     */
    synchronized void inherit(ClockTrace previous) {
        synchronized (previous) {
            System.arraycopy(previous.duty, 0, duty, 0, SAMPLES);
            System.arraycopy(previous.lag, 0, lag, 0, SAMPLES);
            System.arraycopy(previous.at, 0, at, 0, SAMPLES);
            count = previous.count;
        }
    }

    /** The samples kept, oldest first: times (epoch ms), duty (0..1+), lag (s). */
    public synchronized Window window() {
        int n = (int) Math.min(count, SAMPLES);
        long[] t = new long[n];
        double[] d = new double[n];
        double[] l = new double[n];
        long first = count - n;
        for (int k = 0; k < n; k++) {
            int i = (int) ((first + k) % SAMPLES);
            t[k] = at[i];
            d[k] = duty[i];
            l[k] = lag[i];
        }
        return new Window(clock.getId(), t, d, l);
    }

    /** A copy of what a trace holds. */
    public record Window(String clock, long[] at, double[] duty, double[] lag) {}

    /** A figure JSON can carry: a clock that has not measured yet reads 0, not NaN. */
    static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    static void sampleAll(List<ClockTrace> traces, long millis) {
        for (ClockTrace t : traces) t.sample(millis);
    }
}
