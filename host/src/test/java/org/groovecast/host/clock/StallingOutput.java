package org.groovecast.host.clock;

import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.Output;

/**
 * An output whose first {@code slowFrames} frames each take {@code slowMillis} of wall time, as a
 * stream's first frames do (encoders' first packets, decoders' first reads), and the rest none;
 * counts how many such outputs are in their slow frames at once.
 */
final class StallingOutput extends Output {
    private final int slowFrames;
    private final long slowMillis;
    private final AtomicInteger inSlowFrames;
    private final AtomicInteger mostInSlowFrames;
    final AtomicInteger sent = new AtomicInteger();
    volatile long firstFrameNanos;

    StallingOutput(
            String id,
            int slowFrames,
            long slowMillis,
            AtomicInteger inSlowFrames,
            AtomicInteger mostInSlowFrames) {
        super(id, new Silence(), false);
        this.slowFrames = slowFrames;
        this.slowMillis = slowMillis;
        this.inSlowFrames = inSlowFrames;
        this.mostInSlowFrames = mostInSlowFrames;
    }

    StallingOutput(String id, int slowFrames, long slowMillis) {
        this(id, slowFrames, slowMillis, new AtomicInteger(), new AtomicInteger());
    }

    @Override
    protected void send(Frame frame) throws InterruptedException {
        int n = sent.getAndIncrement();
        if (n == 0) {
            firstFrameNanos = System.nanoTime();
            mostInSlowFrames.accumulateAndGet(inSlowFrames.incrementAndGet(), Math::max);
        }
        if (n < slowFrames) Thread.sleep(slowMillis);
        if (n == slowFrames - 1 || slowFrames == 0 && n == 0) inSlowFrames.decrementAndGet();
    }

    @Override
    protected void close() {}

    static final class Silence extends Generator {
        Silence() {
            super("silence");
        }

        @Override
        protected void generate(Frame frame) {
            frame.silence(frame.free());
        }
    }
}
