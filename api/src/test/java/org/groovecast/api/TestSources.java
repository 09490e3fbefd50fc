package org.groovecast.api;

import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Small sources for the api's own tests, and for the host's tests of what it implements of the
 * contract (the api's test-jar).
 */
public final class TestSources {
    private TestSources() {}

    /**
     * Counts upward sample by sample, in tracks of {@code trackLength} samples, with metadata at
     * each start.
     */
    public static final class Counter extends Generator {
        final int trackLength;
        int next;
        int inTrack;
        public int generateCalls;

        public Counter(int trackLength) {
            super("counter");
            this.trackLength = trackLength;
        }

        @Override
        public long remaining() {
            return inTrack == trackLength ? trackLength : trackLength - inTrack;
        }

        @Override
        protected void generate(Frame frame) {
            generateCalls++;
            if (inTrack == trackLength) {
                inTrack = 0;
                return;
            }
            if (inTrack == 0)
                frame.addMetadata(
                        frame.position(), Metadata.of("track", String.valueOf(next / trackLength)));
            int n = Math.min(frame.free(), trackLength - inTrack);
            for (int i = 0; i < n; i++) {
                for (float[] plane : frame.pcm()) plane[frame.position() + i] = next + i;
            }
            next += n;
            inTrack += n;
            frame.advance(n);
        }
    }

    /**
     * A mono 1 kHz context of {@code frameSize}-sample frames that serves one consumer per source.
     */
    public static StreamContext context(int frameSize) {
        return context(frameSize, null);
    }

    /** The same, a second consumer served through {@code share} (the host's cache, under test). */
    public static StreamContext context(
            int frameSize, BiFunction<Source, Consumer<Frame>, TickCache> share) {
        return new StreamContext() {
            @Override
            public AudioFormat format() {
                return new AudioFormat(1000, 1);
            }

            @Override
            public int frameSize() {
                return frameSize;
            }

            @Override
            public ClockInfo clock() {
                return null;
            }

            @Override
            public java.util.concurrent.Executor blocking() {
                return Runnable::run;
            }

            @Override
            public boolean realtime() {
                return true;
            }

            @Override
            public void beforeStart(Runnable blockingWork) {
                blockingWork.run();
            }

            @Override
            public TickCache share(Source source, Consumer<Frame> fill) {
                return share == null
                        ? StreamContext.super.share(source, fill)
                        : share.apply(source, fill);
            }
        };
    }
}
