package org.groovecast.testkit;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * An input with known samples to feed an operator under test: a constant level or a sine, the same
 * on every channel; endless, or in tracks of a given length ({@link #tracks}), each starting with
 * metadata when {@link #titled}; always ready, or {@link #fallible()} and switched on and off by
 * the test ({@link #ready(boolean)}). Configure it before it is prepared.
 *
 * <pre>{@code
 * TestSource music = TestSource.sine(440, 0.5).tracks(2).titled("song"); // "song 1", "song 2"...
 * TestSource live = TestSource.level(0.25).fallible();
 * live.ready(false);
 * }</pre>
 */
public final class TestSource extends Source {
    private final double level;
    private final double frequency;
    private double trackSeconds;
    private String title;
    private boolean fallible;
    private boolean ready = true;
    private long trackLength = -1;
    private long left = -1;
    private boolean startPending = true;
    private int tracksStarted;
    private double phase;
    private double step;

    private TestSource(double level, double frequency) {
        super("test");
        this.level = level;
        this.frequency = frequency;
    }

    /** Every sample of every channel is {@code value}: gains and mixes read off exactly. */
    public static TestSource level(double value) {
        return new TestSource(value, 0);
    }

    /** A sine of {@code frequency} Hz and peak {@code amplitude}, continuous across tracks. */
    public static TestSource sine(double frequency, double amplitude) {
        if (!(frequency > 0))
            throw new IllegalArgumentException("frequency must be positive, got " + frequency);
        return new TestSource(amplitude, frequency);
    }

    /**
     * Cuts the stream into tracks of {@code seconds} each (endless, one track, by default); returns
     * this.
     */
    public TestSource tracks(double seconds) {
        if (!(seconds > 0))
            throw new IllegalArgumentException("track length must be positive, got " + seconds);
        trackSeconds = seconds;
        return this;
    }

    /**
     * Starts each track with metadata {@code title = "<title> <n>"}, n counting tracks from 1;
     * returns this.
     */
    public TestSource titled(String title) {
        this.title = title;
        return this;
    }

    /**
     * Makes the source fallible, so that {@link #ready(boolean)} can switch it off; returns this.
     */
    public TestSource fallible() {
        fallible = true;
        return this;
    }

    /**
     * Switches a fallible source on or off. Off, it is not ready and a get produces nothing, ending
     * its track; on again, it starts a new track, with its metadata (a live input reconnecting).
     */
    public void ready(boolean on) {
        if (!fallible)
            throw new IllegalStateException(
                    id() + ": only a fallible() source can be switched off");
        if (on && !ready) {
            left = trackLength;
            startPending = true;
        }
        ready = on;
    }

    /** Tracks that started so far. */
    public int tracksStarted() {
        return tracksStarted;
    }

    @Override
    public boolean isReady() {
        return ready;
    }

    @Override
    public boolean isFallible() {
        return fallible;
    }

    @Override
    public long remaining() {
        return trackLength < 0 ? -1 : left;
    }

    /**
     * A skip, as a file player's (the default for a source without inputs): if the consumers had
     * samples of the track playing, the next get produces nothing (the track ends) and the one
     * after starts the next track, endless or not.
     */
    @Override
    protected void dropTrack() {
        if (!startPending) { // the skipped track had started: the next one starts now
            left = trackLength;
            startPending = true;
        }
    }

    @Override
    protected void onPrepare(StreamContext context) {
        if (trackSeconds > 0) trackLength = Math.max(1, context.samples(trackSeconds));
        left = trackLength;
        step = 2 * Math.PI * frequency / context.format().sampleRate();
    }

    @Override
    protected void generate(Frame frame) {
        if (!ready) return;
        if (left == 0) {
            // an empty get: the track ended exactly where the frame stands
            left = trackLength;
            startPending = true;
            return;
        }
        int from = frame.position();
        if (startPending) {
            startPending = false;
            tracksStarted++;
            if (title != null)
                frame.addMetadata(from, Metadata.of("title", title + " " + tracksStarted));
        }
        int n = trackLength < 0 ? frame.free() : (int) Math.min(frame.free(), left);
        float[][] pcm = frame.pcm();
        for (int i = from; i < from + n; i++) {
            float v = frequency == 0 ? (float) level : (float) (level * Math.sin(phase));
            phase += step;
            for (float[] plane : pcm) plane[i] = v;
        }
        phase %= 2 * Math.PI;
        frame.advance(n);
        if (trackLength > 0) {
            left -= n;
            if (left == 0 && !frame.isFull()) {
                left = trackLength; // stopped short: the next get starts the next track
                startPending = true;
            }
        }
    }
}
