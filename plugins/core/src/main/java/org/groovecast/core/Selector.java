package org.groovecast.core;

import java.util.List;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Frame;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/**
 * Plays one of its inputs at a time and chooses again at track boundaries (or on every frame when
 * not track-sensitive). Subclasses only say which input comes next.
 *
 * <p>The script's {@code onSelect} runs at each new selection, and {@code onLeave} when that
 * selection ends: when the selected input's track ends or is cut, or the input runs dry. So every
 * {@code onSelect(s)} is followed by one {@code onLeave(s)}, also when the same input is selected
 * again for its next track. What each call registers on the inputs is released at the next call
 * of the same callback, so a station that switches every few seconds for months does not pile up
 * callbacks.
 */
abstract class Selector extends Source {
    protected final List<Source> choices;
    private final boolean trackSensitive;
    private final UserFunction onSelect;
    private final UserFunction onLeave;
    private Source current;
    private boolean midTrack;
    private boolean selectionOpen;
    private Registration selectRegistrations = Registration.NONE;
    private Registration leaveRegistrations = Registration.NONE;
    private long selections;
    /** The old input's continuation over the rest of the frame in which a cut happened, to fade out under the new one. */
    private Frame cutTail;
    private int cutFrom;
    private int cutTo;
    private long cutTick = -1;
    /** Whether the input cut into was in the middle of a track (then it fades in too). */
    private boolean cutIntoPlaying;

    Selector(String kind, List<Source> choices, boolean trackSensitive, UserFunction onSelect, UserFunction onLeave) {
        super(kind, choices);
        this.choices = choices;
        this.trackSensitive = trackSensitive;
        this.onSelect = onSelect;
        this.onLeave = onLeave;
    }

    /** The input to play next among the ready ones, or {@code null}; {@code current} is the one playing. */
    protected abstract Source pick(Source current);

    /** Told when a track of {@code source} ended, before the next pick. */
    protected void trackEnded(Source source) {
    }

    /** Told when {@code source} was selected, after the script's {@code onSelect}. */
    protected void selected(Source source) {
    }

    @Override
    public boolean isReady() {
        if (current != null && midTrack && current.isReady()) return true;
        return pick(current) != null;
    }

    @Override
    public boolean isFallible() {
        for (Source s : choices) {
            if (!s.isFallible()) return false;
        }
        return true;
    }

    @Override
    public long remaining() {
        Source c = current; // read once: the control interface asks from another thread
        return c != null && midTrack ? c.remaining() : -1;
    }

    @Override
    public void abortTrack() {
        if (current != null) current.abortTrack();
    }

    /** Number of selections made, for tests and metrics. */
    long selections() {
        return selections;
    }

    @Override
    protected void generate(Frame frame) {
        if (midTrack && !current.isReady()) {
            midTrack = false; // the input ran dry mid-track: end ours here and choose again next get
            leave();
            return;
        }
        if (!midTrack) {
            select(pick(current));
            if (current == null) return;
        } else if (!trackSensitive) {
            Source next = pick(current);
            if (next != current) {
                // Cut here: the track of the old input ends, the next get starts the new one; the
                // old one's next samples are kept to fade out under the new one's first.
                keepCutTail(frame);
                cutIntoPlaying = next != null && next.trackPosition() > 0;
                current.abortTrack();
                leave();
                select(next);
                midTrack = false;
                return;
            }
        }
        int before = frame.position();
        current.get(frame);
        if (cutTick >= 0) crossCut(frame, before);
        midTrack = true;
        if (frame.position() < frame.end() || frame.position() == before) {
            midTrack = false;
            trackEnded(current);
            leave();
        }
    }

    /** Reads what the old input would have played over the rest of this frame, aligned with it. */
    private void keepCutTail(Frame frame) {
        cutTick = -1;
        int from = frame.position();
        int to = frame.end();
        if (to <= from || !current.isReady()) return;
        if (cutTail == null) cutTail = new Frame(context().format(), frame.size());
        cutTail.clear();
        cutTail.limit(to);
        cutTail.silence(from); // same positions as the frame: a shared input serves this tick's samples
        while (!cutTail.isFull() && current.isReady()) {
            int p = cutTail.position();
            current.get(cutTail);
            if (cutTail.position() == p || cutTail.position() < cutTail.end()) break;
        }
        cutFrom = from;
        cutTo = cutTail.position();
        if (cutTo > cutFrom) cutTick = context().clock().getTicks();
    }

    /**
     * Mixes the kept tail, fading out, under the new input's first samples (sine curves), in the
     * cut's frame only. The new input fades in only if it was cut into mid-track; a track that
     * starts at the cut starts as it is.
     */
    private void crossCut(Frame frame, int before) {
        long tick = context().clock().getTicks();
        if (tick != cutTick || before != cutFrom) {
            cutTick = -1; // not the frame the cut happened in: nothing aligned to mix
            return;
        }
        cutTick = -1;
        int end = Math.min(frame.position(), cutTo);
        double span = cutTo - cutFrom;
        float[][] pcm = frame.pcm();
        float[][] old = cutTail.pcm();
        for (int i = cutFrom; i < end; i++) {
            float in = (float) ((1 - Math.cos(Math.PI * (i - cutFrom + 0.5) / span)) / 2);
            float gNew = cutIntoPlaying ? in : 1f;
            for (int c = 0; c < pcm.length; c++) pcm[c][i] = pcm[c][i] * gNew + old[c][i] * (1 - in);
        }
    }

    private void select(Source next) {
        // A selection goes on until it is left: the input chosen at a cut is the one the next get
        // plays, not a new selection (its onSelect ran at the cut already).
        if (next != null && next == current && selectionOpen) return;
        leave(); // a selection made at a cut whose input was no longer ready at the next get
        if (next == null) {
            current = null;
            return;
        }
        current = next;
        selections++;
        selectionOpen = true;
        if (onSelect != null) {
            selectRegistrations.release();
            selectRegistrations = CallbackScope.collect(choices, () -> onSelect.call(next)).registration();
        }
        selected(next);
    }

    /** Ends the current selection: the script's {@code onLeave} runs once per selection. */
    private void leave() {
        if (!selectionOpen) return;
        selectionOpen = false;
        if (onLeave != null) {
            Source left = current;
            leaveRegistrations.release();
            leaveRegistrations = CallbackScope.collect(choices, () -> onLeave.call(left)).registration();
        }
    }

    @Override
    protected void onShutdown() {
        selectRegistrations.release();
        leaveRegistrations.release();
    }
}
