package org.groovecast.bench;

import java.util.concurrent.Executor;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.StreamContext;

/**
 * A stream context without a clock around it, for benchmarks that pull an operator as fast as it
 * goes: blocking work runs at once on the caller, so what it costs is in the measure.
 */
final class OfflineContext implements StreamContext {
    private static final ClockInfo CLOCK =
            new ClockInfo() {
                @Override
                public String getId() {
                    return "bench";
                }

                @Override
                public double getDuty() {
                    return 0;
                }

                @Override
                public double getLag() {
                    return 0;
                }

                @Override
                public long getTicks() {
                    return 0;
                }

                @Override
                public double getTime() {
                    return 0;
                }
            };

    private final AudioFormat format;
    private final int frameSize;

    OfflineContext(AudioFormat format, int frameSize) {
        this.format = format;
        this.frameSize = frameSize;
    }

    @Override
    public AudioFormat format() {
        return format;
    }

    @Override
    public int frameSize() {
        return frameSize;
    }

    @Override
    public ClockInfo clock() {
        return CLOCK;
    }

    @Override
    public Executor blocking() {
        return Runnable::run;
    }

    @Override
    public boolean realtime() {
        return false;
    }

    @Override
    public void beforeStart(Runnable blockingWork) {
        blockingWork.run();
    }
}
