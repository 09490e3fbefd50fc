package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * {@code crossfade(s, duration: 3, fadeIn: 3, fadeOut: 3)}: the end of each track overlaps the
 * start of the next. When the ending track has {@code duration} seconds left (its source must say
 * how much remains: files and cut tracks do), the rest of it and the start of the next are read at
 * once, mixed with their fades, and played out before the input is followed again; the output's
 * track boundary is where the mix begins, so the new track's metadata fires once, when it becomes
 * audible. A track's {@code liq_cross_duration}, {@code liq_fade_in} and {@code liq_fade_out}
 * override the settings. A next track shorter than the overlap, or a source that runs dry during
 * it, is mixed as far as it goes.
 */
final class Crossfade extends Source {
    /** The longest overlap (seconds) a track may ask for. */
    private static final double MAX_SECONDS = 30;

    private final Source input;
    private final double duration;
    private final Mix mix;
    private StreamContext context;
    private Frame tail;
    private Frame head;
    private Frame mixed;
    private int mixedAt;
    private int mixedEnd;
    private boolean emitting;

    /**
     * A skip (maybe from another thread): the clock drops what is left of the mix at its next get.
     */
    private volatile boolean dropMix;

    private boolean trackStart = true;
    private Metadata trackMetadata;

    /**
     * Samples of overlap for the track playing: its liq_cross_duration, else the setting; set once
     * per track.
     */
    private long overlap;

    Crossfade(String kind, Source input, double duration, Mix mix) {
        super(kind, input);
        this.input = input;
        this.duration = duration;
        this.mix = mix;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        this.context = context;
        int size = (int) context.samples(Math.max(duration, 0.1));
        tail = new Frame(context.format(), size);
        head = new Frame(context.format(), size);
        mixed =
                new Frame(
                        context.format(),
                        2 * size); // room for both ends one after the other (a cut)
        mix.prepare(input);
        playing(null);
    }

    @Override
    public boolean isReady() {
        return emitting || input.isReady();
    }

    @Override
    public boolean isFallible() {
        return input.isFallible();
    }

    @Override
    public long remaining() {
        long inner = input.remaining();
        if (!emitting) return inner;
        return inner < 0 ? -1 : mixedEnd - mixedAt + inner;
    }

    /**
     * Ends the track playing, the one a mix began included: the rest of the mix is dropped and the
     * input's track ends, a plain boundary without a fade.
     */
    @Override
    public void abortTrack() {
        dropMix = true;
        input.abortTrack();
    }

    @Override
    protected void generate(Frame frame) {
        if (dropMix) {
            dropMix = false;
            if (emitting) {
                emitting = false;
                if (!input.isReady()) return; // the track ends here; nothing follows yet
            }
        }
        if (emitting) {
            int n = Math.min(frame.free(), mixedEnd - mixedAt);
            frame.copyFrom(mixed, mixedAt, mixedAt + n);
            mixedAt += n;
            if (mixedAt < mixedEnd) return; // the frame is full
            emitting = false;
            trackStart = false; // the input is inside the track the mix began
            if (frame.isFull() || !input.isReady()) return;
        }
        int start = frame.position();
        long remaining = input.remainingFor(frame);
        int end = frame.end();
        int allow = frame.free();
        if (remaining >= 0 && !trackStart) {
            if (remaining <= overlap) {
                transition(overlap);
                return; // the output's track ends where the mix begins
            }
            allow = (int) Math.min(allow, remaining - overlap);
        }
        int old = frame.limit(start + allow);
        input.get(frame);
        frame.limit(old);
        int got = frame.position() - start;
        if (trackStart && got > 0) {
            trackStart = false;
            playing(Overrides.at(frame, start));
        }
        if (frame.position() < start + allow) {
            trackStart = true; // the input's track ended unannounced: a plain boundary
            return;
        }
        if (got == allow && allow < end - start && !frame.isFull()) {
            // stopped at the overlap point inside this frame: the mix starts the next track
            transition(overlap);
        }
    }

    /** A new track is playing: its metadata, and the overlap it asks for. */
    private void playing(Metadata m) {
        trackMetadata = m;
        overlap =
                context.samples(
                        Math.min(
                                MAX_SECONDS, Overrides.seconds(m, "liq_cross_duration", duration)));
    }

    /** Reads the rest of the ending track and the start of the next, and mixes them. */
    private void transition(long overlap) {
        int size = (int) Math.max(1, overlap);
        if (size > tail.size()) { // a track asked for a longer overlap than the setting
            tail = new Frame(context.format(), size);
            head = new Frame(context.format(), size);
            mixed = new Frame(context.format(), 2 * size);
        }
        readTrack(tail, size, false);
        int tailLen = tail.position();
        boolean headEnded = readTrack(head, Math.max(tailLen, 1), true);
        int headLen = head.position();
        Metadata next = Overrides.at(head, 0);
        mixed.clear();
        mix.mix(new Mix.Ends(tail, trackMetadata, head, next, headEnded), mixed, context);
        int len = mixed.position();
        mixedAt = 0;
        mixedEnd = len;
        emitting = len > 0;
        playing(next);
        trackStart =
                headLen == 0
                        || headEnded; // a next track shorter than the overlap is all in the mix
    }

    /**
     * Reads up to {@code max} samples of the input's current track into {@code into}, stopping at
     * the track's end or when the input is not ready; returns whether the track ended. For the new
     * track, empty gets first (the old track's end, seen late) are skipped, a few at most.
     */
    private boolean readTrack(Frame into, int max, boolean newTrack) {
        into.clear();
        int limit = Math.min(max, into.size());
        if (limit <= 0) return false;
        into.limit(limit);
        int empty = 0;
        while (!into.isFull() && input.isReady()) {
            int before = into.position();
            input.get(into);
            if (into.position() == before) {
                if (newTrack && before == 0 && ++empty < 3) continue;
                return true;
            }
            if (into.position() < into.end()) return true;
        }
        return false;
    }
}
