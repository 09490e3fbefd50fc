package org.groovecast.host;

import org.groovecast.api.ClockInfo;

/**
 * The clock a script asked for with {@code clock.assignNew}: named at once, bound to the running
 * clock when the station starts. Reads 0 until then.
 */
public final class ClockHandle implements ClockInfo {
    private final String id;
    private volatile ClockInfo clock;

    public ClockHandle(String id) {
        this.id = id;
    }

    void bind(ClockInfo c) {
        this.clock = c;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public double getDuty() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getDuty();
    }

    @Override
    public double getLag() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getLag();
    }

    @Override
    public double getBehindSince() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getBehindSince();
    }

    @Override
    public double getSkipped() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getSkipped();
    }

    @Override
    public long getTicks() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getTicks();
    }

    @Override
    public double getTime() {
        ClockInfo c = clock;
        return c == null ? 0 : c.getTime();
    }

    @Override
    public String toString() {
        return "clock " + id;
    }
}
