package org.groovecast.core;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
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
 * again for its next track. What each call registers on the inputs is released at the next call of
 * the same callback, so a station that switches every few seconds for months does not pile up
 * callbacks.
 *
 * <p>With {@code replayMetadata}, switching to an input that has played metadata before sends that
 * metadata again at the input's first data, unless the input brings metadata of its own there (a
 * track starting): listeners see the title of what they hear, also when the switch returns to an
 * input in the middle of its track. With {@code transitions}, switching from one input to another
 * plays what the target's function returns first (see {@link SwitchTransition}).
 */
abstract class Selector extends Source {
    protected final List<Source> choices;
    private final boolean trackSensitive;
    private final UserFunction onSelect;
    private final UserFunction onLeave;
    private final boolean replayMetadata;
    private final Transitions transitions;
    private Source current;
    private boolean midTrack;

    /**
     * Our track started and the selected input has not been pulled in it yet: an empty get from it
     * then ends a track of the input's that we do not play (one cut or skipped before), not ours.
     */
    private boolean firstPull;

    private boolean selectionOpen;
    private Registration selectRegistrations = Registration.NONE;
    private Registration leaveRegistrations = Registration.NONE;
    private long selections;

    /**
     * The old input's continuation over the rest of the frame in which a cut happened, to fade out
     * under the new one.
     */
    private Frame cutTail;

    private int cutFrom;
    private int cutTo;
    private long cutTick = -1;

    /** Whether the input cut into was in the middle of a track (then it fades in too). */
    private boolean cutIntoPlaying;

    /** The metadata to send again at the selected input's first data, or null. */
    private Metadata replay;

    private SwitchTransition transition;

    /**
     * A skip asked for (maybe from the control's thread) while a transition plays: it ends at the
     * next pull.
     */
    private volatile boolean skipTransition;

    private Set<Source> graph;
    private Frame transitionChunk;

    Selector(
            String kind,
            List<Source> choices,
            boolean trackSensitive,
            UserFunction onSelect,
            UserFunction onLeave) {
        this(kind, choices, trackSensitive, onSelect, onLeave, false, Transitions.NONE);
    }

    Selector(
            String kind,
            List<Source> choices,
            boolean trackSensitive,
            UserFunction onSelect,
            UserFunction onLeave,
            boolean replayMetadata,
            Transitions transitions) {
        super(kind, choices);
        this.choices = choices;
        this.trackSensitive = trackSensitive;
        this.onSelect = onSelect;
        this.onLeave = onLeave;
        this.replayMetadata = replayMetadata;
        this.transitions = transitions;
    }

    /**
     * The input to play next among the ready ones, or {@code null}; {@code current} is the one
     * playing.
     */
    protected abstract Source pick(Source current);

    /** Told when a track of {@code source} ended, before the next pick. */
    protected void trackEnded(Source source) {}

    /** Told when {@code source} was selected, after the script's {@code onSelect}. */
    protected void selected(Source source) {}

    @Override
    public boolean isReady() {
        if (current != null && midTrack && onAirReady()) return true;
        return anyReady(current);
    }

    /**
     * Whether {@link #pick} would find an input now; pickers whose pick has side effects override
     * it.
     */
    protected boolean anyReady(Source current) {
        return pick(current) != null;
    }

    /** Whether what plays now (a transition, or the selected input) has more. */
    private boolean onAirReady() {
        SwitchTransition t = transition;
        return t != null && t.isReady() || current.isReady();
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
        Source c = current; // read once: a skip may come from the control's thread
        if (c != null) c.abortTrack();
        if (transition != null) skipTransition = true;
    }

    /** Number of selections made, for tests and metrics. */
    long selections() {
        return selections;
    }

    @Override
    protected void generate(Frame frame) {
        if (midTrack && !onAirReady()) {
            midTrack =
                    false; // the input ran dry mid-track: end ours here and choose again next get
            endTransition();
            leave();
            return;
        }
        if (!midTrack) {
            Source previous = current;
            Source next = pick(previous);
            SwitchTransition t =
                    switching(previous, next) ? beginTransition(previous, next, false) : null;
            select(next);
            if (t != null) transition = t;
            if (current == null) return;
            firstPull = true;
        } else if (!trackSensitive) {
            Source next = pick(current);
            if (next != current) {
                cut(frame, next);
                return;
            }
        }
        int before = frame.position();
        boolean trackEnd = play(frame);
        if (cutTick >= 0) crossCut(frame, before);
        midTrack = true;
        if (trackEnd || frame.position() < frame.end() || frame.position() == before) {
            midTrack = false;
            trackEnded(current);
            leave();
        }
    }

    /**
     * Cut here: the track of the old input ends, the next get starts the new one. Without a
     * transition the old input's next samples are kept to fade out under the new one's first, and
     * its track is ended; a transition plays the old input on instead.
     */
    private void cut(Frame frame, Source next) {
        endTransition();
        Source from = current;
        leave();
        SwitchTransition t = switching(from, next) ? beginTransition(from, next, true) : null;
        if (t == null) {
            keepCutTail(frame);
            cutIntoPlaying = next != null && next.trackPosition() > 0;
            from.abortTrack();
        } else {
            cutTick = -1; // the transition does the crossing
        }
        select(next);
        transition = t;
        midTrack = false;
    }

    private static boolean switching(Source from, Source to) {
        return from != null && to != null && from != to;
    }

    private SwitchTransition beginTransition(Source from, Source to, boolean cut) {
        if (transitions == Transitions.NONE) return null;
        endTransition();
        if (graph == null) {
            graph = Collections.newSetFromMap(new IdentityHashMap<>());
            collect(this, graph);
        }
        if (transitionChunk == null)
            transitionChunk = new Frame(context().format(), context().frameSize());
        return transitions.begin(
                this,
                choices.indexOf(to),
                from,
                to,
                cut,
                this::pullCurrent,
                graph,
                transitionChunk);
    }

    private static void collect(Source s, Set<Source> into) {
        if (!into.add(s)) return;
        for (Source in : s.inputs()) collect(in, into);
    }

    /**
     * Plays the transition, if one is on, then the selected input, in one track; returns whether
     * the track ended inside the transition.
     */
    private boolean play(Frame frame) {
        SwitchTransition t = transition;
        if (t != null) {
            if (skipTransition) {
                skipTransition = false;
                endTransition();
                return true;
            }
            t.play(frame);
            if (!t.isDone()) return false;
            endTransition();
            if (t.endedTrack()) return true;
            if (frame.isFull() || !current.isReady()) return false;
        }
        pullCurrent(frame);
        return false;
    }

    /** Pulls the selected input, sending its last metadata again first if a switch asked for it. */
    private void pullCurrent(Frame frame) {
        int before = frame.position();
        current.get(frame);
        if (firstPull) {
            firstPull = false;
            if (frame.position() == before && current.isReady()) current.get(frame);
        }
        int after = frame.position();
        if (replay == null || after == before) return;
        Metadata m = replay;
        replay = null;
        for (int i = 0; i < frame.metadataCount(); i++) {
            int at = frame.metadataPosition(i);
            if (at >= before && at <= after)
                return; // the input brings its own: a track start, no duplicate
        }
        frame.addMetadata(before, m);
    }

    private void endTransition() {
        SwitchTransition t = transition;
        if (t == null) return;
        transition = null;
        skipTransition = false;
        t.finish();
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
        cutTail.silence(
                from); // same positions as the frame: a shared input serves this tick's samples
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
            for (int c = 0; c < pcm.length; c++)
                pcm[c][i] = pcm[c][i] * gNew + old[c][i] * (1 - in);
        }
    }

    private void select(Source next) {
        // A selection goes on until it is left: the input chosen at a cut is the one the next get
        // plays, not a new selection (its onSelect ran at the cut already).
        if (next != null && next == current && selectionOpen) return;
        leave(); // a selection made at a cut whose input was no longer ready at the next get
        if (next != current) {
            endTransition();
            Metadata last = next == null ? Metadata.EMPTY : next.lastMetadata();
            replay = replayMetadata && !last.isEmpty() ? last : null;
        }
        if (next == null) {
            current = null;
            return;
        }
        current = next;
        selections++;
        selectionOpen = true;
        if (onSelect != null) {
            selectRegistrations.release();
            selectRegistrations =
                    CallbackScope.collect(choices, () -> onSelect.call(next)).registration();
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
            leaveRegistrations =
                    CallbackScope.collect(choices, () -> onLeave.call(left)).registration();
        }
    }

    @Override
    protected void onShutdown() {
        endTransition();
        selectRegistrations.release();
        leaveRegistrations.release();
    }
}
