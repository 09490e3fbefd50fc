package org.groovecast.core;

import java.util.ArrayDeque;
import java.util.List;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code buffer(s, buffer: 2, max: 10)}: decouples a source from its consumer with a queue of
 * samples. The source is pulled once per tick, at the end of it, whether or not anybody plays the
 * buffer; the consumer plays from the queue. The buffer is available once {@code buffer} seconds
 * are queued, and again only once {@code buffer} seconds are back after it ran dry, so a live
 * source with gaps plays smoothly, {@code buffer} seconds late.
 *
 * <p>It keeps at most {@code max} seconds: when full (nobody plays it, or the source delivers more
 * than it plays), the oldest samples are dropped, so what plays is never more than {@code max}
 * seconds old. Metadata and track ends travel with the samples; video and encoded packets do not. A
 * skip drops what is queued, at the end of the tick.
 */
final class Buffer extends Source {
    private static final Logger log = LoggerFactory.getLogger(Buffer.class);

    /**
     * A metadata entry, or a track end when {@code metadata} is null, at an absolute queue
     * position.
     */
    private record Mark(long at, Metadata metadata) {}

    private final Source input;
    private final double bufferSeconds;
    private final double maxSeconds;
    private final ArrayDeque<Mark> marks = new ArrayDeque<>();
    private SampleFifo fifo;
    private Frame scratch;
    private long bufferSamples;
    private boolean playing;
    private boolean overflowing;
    private volatile boolean skip;

    Buffer(Source input, double bufferSeconds, double maxSeconds) {
        super("buffer", List.of(input));
        this.input = input;
        this.bufferSeconds = bufferSeconds;
        this.maxSeconds = maxSeconds;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        int capacity = (int) Math.max(context.frameSize(), context.samples(maxSeconds));
        fifo = new SampleFifo(context.format().channels(), capacity);
        scratch = new Frame(context.format(), context.frameSize());
        bufferSamples = Math.max(1, Math.min(capacity, context.samples(bufferSeconds)));
        // Filled after each tick, once the consumers have played: a callback of its own (it shows
        // in registrations()).
        onFrame(false, this::fill);
    }

    @Override
    public boolean isReady() {
        long queued = fifo == null ? 0 : fifo.size();
        return playing ? queued > 0 : queued >= bufferSamples;
    }

    /** It runs dry whenever its source stops for longer than what is queued. */
    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public void abortTrack() {
        super.abortTrack();
        skip = true;
    }

    @Override
    protected void generate(Frame frame) {
        long read = fifo.readPosition();
        if (!playing) {
            playing = true;
            if (!marks.isEmpty() && marks.peek().at() == read && marks.peek().metadata() == null)
                marks.poll(); // old end
        }
        int n = (int) Math.min(frame.free(), fifo.size());
        while (!marks.isEmpty() && marks.peek().at() < read + n) {
            Mark m = marks.peek();
            if (m.metadata()
                    == null) { // the source's track ended inside this frame: ours ends there too,
                // short of its end
                n = (int) (m.at() - read);
                marks.poll();
                break;
            }
            frame.addMetadata(frame.position() + (int) (m.at() - read), m.metadata());
            marks.poll();
        }
        fifo.read(frame.pcm(), frame.position(), n);
        frame.advance(n);
        if (fifo.size() == 0) playing = false; // ran dry: wait for a full buffer again
    }

    /** Queues one frame of the source, with its metadata and track ends. */
    private void fill() {
        if (skip) { // a skip, from a switch or the control interface: what is queued belongs to the
            // skipped track
            skip = false;
            drop();
        }
        scratch.clear();
        long base = fifo.writePosition();
        for (int gets = 0; gets < 4 && !scratch.isFull() && input.isReady(); gets++) {
            int before = scratch.position();
            int md = scratch.metadataCount();
            input.get(scratch);
            for (int i = md; i < scratch.metadataCount(); i++) {
                marks.add(new Mark(base + scratch.metadataPosition(i), scratch.metadata(i)));
            }
            if (scratch.position() < scratch.end() || scratch.position() == before) {
                marks.add(new Mark(base + scratch.position(), null));
            }
        }
        long dropped = fifo.write(scratch.pcm(), 0, scratch.position());
        while (!marks.isEmpty() && marks.peek().at() < fifo.readPosition()) marks.poll();
        if (dropped > 0 && !overflowing) {
            log.debug("{}: full ({} s), dropping the oldest samples", id(), maxSeconds);
        }
        overflowing = dropped > 0;
    }

    private void drop() {
        fifo.clear();
        marks.clear();
        playing = false;
    }
}
