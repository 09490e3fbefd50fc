package org.groovecast.api;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node of the stream graph. Operators extend this class and implement {@link #generate}, {@link
 * #isReady} and {@link #isFallible}; everything else (track and metadata callbacks, inserted
 * metadata, sharing one source between several consumers) is done here, so that every operator
 * behaves the same way.
 *
 * <p><b>Pull contract.</b> A consumer calls {@link #get} only when {@link #isReady()}; the source
 * writes samples from {@link Frame#position()} and advances. Stopping before the frame is full ends
 * the current track, and a get that produces nothing ends it where the frame stands; a skip ({@link
 * #abortTrack}) reaches the consumers that way. A source that several consumers pull within one
 * clock tick computes its data once and serves each of them from it, through the {@link TickCache}
 * its context gives it.
 *
 * <p><b>Threads.</b> {@code get}, {@code generate} and callback dispatch run on the owning clock,
 * one tick at a time. Callbacks may be registered and released from any thread.
 */
public abstract class Source {
    private static final Logger log = LoggerFactory.getLogger(Source.class);

    private final String kind;
    private final List<Source> inputs;
    private String id;

    private final CallbackList<Consumer<Metadata>> metadataListeners = new CallbackList<>();
    private final CallbackList<Consumer<Metadata>> trackListeners = new CallbackList<>();
    private final CallbackList<PositionListener> positionListeners = new CallbackList<>();
    private final CallbackList<Runnable> beforeFrame = new CallbackList<>();
    private final CallbackList<Runnable> afterFrame = new CallbackList<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private final AtomicReference<Metadata> pendingMetadata = new AtomicReference<>();

    private StreamContext context;
    private int consumers;

    /** Set when a second consumer prepares this source: serves them all from one fill per tick. */
    private TickCache shared;

    private boolean trackStarting = true;

    /** Set by {@link #endTrack()}, from any thread; taken on the clock by {@link #takeCut()}. */
    private volatile boolean trackCut;

    /** A cut track its consumers had data of: the next fill ends it for them, producing nothing. */
    private boolean endOwed;

    private long trackPosition;
    private boolean named;
    private volatile Metadata lastMetadata = Metadata.EMPTY;
    private boolean shutDown;

    /**
     * How each callback that failed is doing, by callback (the item its list holds); null until one
     * fails. Made and read on the clock's thread, entries dropped by releases from any thread: the
     * map is its own lock.
     */
    private volatile Map<Object, FailureEpisode> episodes;

    /**
     * @param kind the operator name, used in ids and messages ({@code "sine"}, {@code "fallback"})
     * @param inputs the sources this one pulls from
     */
    protected Source(String kind, List<? extends Source> inputs) {
        this.kind = Objects.requireNonNull(kind);
        this.inputs = List.copyOf(inputs);
    }

    protected Source(String kind, Source... inputs) {
        this(kind, List.of(inputs));
    }

    // ---- what operators implement ----

    /** True when a {@link #get} now would produce data. */
    public abstract boolean isReady();

    /** True when this source may become unavailable; an infallible source is always ready. */
    public abstract boolean isFallible();

    /**
     * Writes samples into {@code frame} from its position, at most to its end, and advances it.
     * Stopping short ends the current track. Must not block.
     */
    protected abstract void generate(Frame frame);

    /** Samples left in the current track, or -1 when unknown or endless. */
    public long remaining() {
        return -1;
    }

    /**
     * Ends the current track early (a skip): everything downstream sees the track end, and the next
     * track follows. An operator passes it on to the input whose track plays (the default: to all
     * its inputs); a source that makes its own tracks ends the one playing with {@link #endTrack()}
     * (the default for a source without inputs: a generator, a live input).
     */
    public void abortTrack() {
        if (inputs.isEmpty()) {
            endTrack();
            return;
        }
        for (Source s : inputs) s.abortTrack();
    }

    /**
     * Ends this source's track where the stream stands, for a source that makes its own tracks. On
     * the clock, at the start of the next tick or at the next {@code get} if that comes first,
     * {@link #dropTrack()} discards what is left of it; if the consumers had data of the track, the
     * next get produces nothing, which is the track's end as they see it (see the class comment),
     * and the get after starts the next track. Without the empty get a source whose next track is
     * ready at once (a prefetched file) would run the two together, and nothing downstream (a
     * track-sensitive switch, {@code onTrack}) would see the skip. A source that had not started a
     * track ends nothing. Safe from any thread.
     */
    protected final void endTrack() {
        trackCut = true;
    }

    /**
     * Discards what is left of a track that {@link #endTrack()} ended (closes its file), so that
     * what this source produces next is its next track; called on the clock after {@code endTrack}
     * (once for several calls in a row), before the source produces anything more, at the latest at
     * the next tick (a file is closed even when nobody pulls the source), and also when no track
     * was playing. Does nothing by default: a generator's next track goes on where the stream
     * stands.
     */
    protected void dropTrack() {}

    /** Script form of {@link #abortTrack()}: {@code s.skip()} moves on to the next track. */
    public final void skip() {
        abortTrack();
    }

    /** Outputs and live inputs are active: their clock drives them even when nobody pulls. */
    public boolean isActive() {
        return false;
    }

    /** Called once when the clock prepares the graph, after the inputs were prepared. */
    protected void onPrepare(StreamContext context) {}

    /** Called once when the station stops, after the consumers were shut down. */
    protected void onShutdown() {}

    // ---- identity and graph ----

    public final String kind() {
        return kind;
    }

    /**
     * The name scripts know this source by: the one it was given ({@code id:}), else the one the
     * host numbered it with ({@code sine_3}, see {@link #number}), else its kind.
     */
    public final String id() {
        String i = id;
        return i != null ? i : kind;
    }

    /**
     * Live figures this operator publishes for control interfaces (a meter's levels, a gain), read
     * from any thread, names to numbers or strings; empty by default. The telnet and HTTP control
     * show them as {@code <id>.readings}.
     */
    public java.util.Map<String, Object> readings() {
        return java.util.Map.of();
    }

    /** The id as scripts read it: {@code s.id}. */
    public final String getId() {
        return id();
    }

    /** Sets the id scripts know this source by ({@code id:} argument). */
    public final void setId(String id) {
        this.id = Objects.requireNonNull(id);
        named = true;
    }

    /**
     * Gives a source that has no id yet the generated one {@code kind_serial}; the host numbers
     * every source of a script as it is made, so that messages and control commands can tell two of
     * a kind apart. Returns false, changing nothing, when the source already has an id.
     */
    public final boolean number(int serial) {
        if (id != null) return false;
        id = kind + "_" + serial;
        return true;
    }

    /**
     * Where this source meets the outside world, such as {@code :8000/live} for a harbor input or a
     * server and mount for an output; null when it has no such place (the default). A reload
     * matches a source or output to its predecessor by name ({@code id:}) or, unnamed, by kind and
     * endpoint, so a live input keeps its DJ and an output its connection without an {@code id:}.
     */
    public String endpoint() {
        return null;
    }

    /**
     * Whether the script named this source ({@code id:}); only named sources carry state across a
     * reload.
     */
    public final boolean isNamed() {
        return named;
    }

    /**
     * On a reload: {@code previous} is the source of the same name and kind in the station this one
     * replaces, stopped (its clock no longer runs it) but not shut down. The last metadata and the
     * position in the track carry over here; {@link #adopt} takes what else the kind can carry.
     */
    public final void takeOver(Source previous) {
        lastMetadata = previous.lastMetadata;
        trackPosition = previous.trackPosition;
        trackStarting = previous.trackStarting;
        adopt(previous);
    }

    /**
     * Takes over what a previous instance of this source holds (a playing track, a queue, a
     * position in a playlist), leaving it without; called before this source runs. Does nothing by
     * default: the source starts afresh.
     */
    protected void adopt(Source previous) {}

    public final List<Source> inputs() {
        return inputs;
    }

    /** The context given at prepare time; {@code null} before. */
    public final StreamContext context() {
        return context;
    }

    /** The clock driving this source once prepared, for scripts: {@code s.clock.duty}. */
    public final ClockInfo getClock() {
        return context == null ? null : context.clock();
    }

    // ---- lifecycle, driven by the host's clock ----

    /**
     * Prepares this source for a clock; called by each consumer once, so the number of calls is the
     * number of consumers. At the second one the source asks its context for the {@link
     * StreamContext#share cache} that serves them all from one computation per tick.
     */
    public final void prepare(StreamContext ctx) {
        if (consumers++ > 0) {
            if (shared == null) shared = ctx.share(this, this::fill);
            return;
        }
        this.context = ctx;
        for (Source s : inputs) s.prepare(ctx);
        onPrepare(ctx);
    }

    /** Start of a clock tick: fires {@code onFrame(before: true)} and resets the cache. */
    public final void beforeTick() {
        if (shared != null) shared.clear();
        takeCut();
        dispatch(beforeFrame);
    }

    /** End of a clock tick: fires {@code onFrame(before: false)}. */
    public final void afterTick() {
        dispatch(afterFrame);
    }

    /** Stops this source and its inputs; idempotent. */
    public final void shutdown() {
        if (shutDown) return;
        shutDown = true;
        try {
            onShutdown();
        } finally {
            for (Source s : inputs) s.shutdown();
        }
    }

    // ---- pulling ----

    /** Fills {@code frame} from its position; see the class comment for the contract. */
    public final void get(Frame frame) {
        if (frame.isFull()) throw new IllegalStateException(id() + ": get on a full frame");
        if (shared == null) {
            fill(frame);
        } else {
            shared.get(frame);
            frame.addBreak();
        }
    }

    /**
     * Samples left in the current track as seen by a consumer about to fill {@code frame} from its
     * position: {@link #remaining()} corrected for a shared source, which may already have run
     * ahead of this consumer within the tick for another one. -1 when unknown.
     */
    public final long remainingFor(Frame frame) {
        long r = remaining();
        return shared == null ? r : shared.remainingFor(frame, r);
    }

    private void fill(Frame frame) {
        takeCut();
        if (endOwed) { // an empty get: the skipped track ends where the stream stands
            endOwed = false;
            frame.addBreak();
            trackStarting = true;
            return;
        }
        int start = frame.position();
        int mdStart = frame.metadataCount();
        Metadata inserted = pendingMetadata.get() == null ? null : pendingMetadata.getAndSet(null);
        if (inserted != null) frame.addMetadata(start, inserted);
        generate(frame);
        frame.addBreak();
        afterFill(frame, start, mdStart);
    }

    /** On the clock: a track that {@link #endTrack()} ended is dropped, its end owed if begun. */
    private void takeCut() {
        if (!trackCut) return;
        trackCut = false;
        dropTrack();
        if (!trackStarting) endOwed = true;
    }

    private void afterFill(Frame frame, int start, int mdStart) {
        int end = frame.position();
        if (trackStarting && end > start) {
            trackStarting = false;
            trackPosition = 0;
            Metadata first = Metadata.EMPTY;
            for (int i = mdStart; i < frame.metadataCount(); i++) {
                if (frame.metadataPosition(i) == start) first = frame.metadata(i);
            }
            resetPositions();
            dispatch(trackListeners, first);
        }
        for (int i = mdStart; i < frame.metadataCount(); i++) {
            Metadata m = frame.metadata(i);
            lastMetadata = m;
            dispatch(metadataListeners, m);
        }
        trackPosition += end - start;
        if (!positionListeners.isEmpty()) checkPositions();
        if (end < frame.end()) trackStarting = true;
    }

    /** Samples played of the current track. */
    public final long trackPosition() {
        return trackPosition;
    }

    /** The metadata most recently seen on this source. */
    public final Metadata lastMetadata() {
        return lastMetadata;
    }

    /**
     * Inserts metadata into the stream at the start of this source's next data. Safe from any
     * thread; two inserts before the next frame merge, the later one winning per key.
     */
    public final void insertMetadata(Map<?, ?> metadata) {
        Metadata m = Metadata.of(metadata);
        pendingMetadata.accumulateAndGet(m, (old, add) -> old == null ? add : old.with(add));
    }

    // ---- callbacks ----

    /** Calls {@code callback} with each metadata passing through this source. */
    public final Registration onMetadata(Consumer<Metadata> callback) {
        return register(metadataListeners, callback);
    }

    /**
     * Calls {@code callback} at the start of each track, with the metadata found there (maybe
     * empty).
     */
    public final Registration onTrack(Consumer<Metadata> callback) {
        return register(trackListeners, callback);
    }

    /**
     * Calls {@code callback} once per track when it has played {@code seconds}, or, with {@code
     * remaining}, when {@code seconds} are left (only for sources that know their remaining time).
     */
    public final Registration onPosition(
            double seconds, boolean remaining, Consumer<Metadata> callback) {
        return register(positionListeners, new PositionListener(seconds, remaining, callback));
    }

    public final Registration onPosition(double seconds, Consumer<Metadata> callback) {
        return onPosition(seconds, false, callback);
    }

    /** Script form: {@code s.onPosition(30, remaining: true) { m -> ... }}. */
    public final Registration onPosition(
            Map<String, ?> options, double seconds, Consumer<Metadata> callback) {
        return onPosition(seconds, Boolean.TRUE.equals(options.get("remaining")), callback);
    }

    /**
     * Calls {@code callback} on every clock tick, after this source's frame ({@code before} false)
     * or before it.
     */
    public final Registration onFrame(boolean before, Runnable callback) {
        return register(before ? beforeFrame : afterFrame, callback);
    }

    public final Registration onFrame(Runnable callback) {
        return onFrame(false, callback);
    }

    /** Script form: {@code s.onFrame(before: true) { ... }}. */
    public final Registration onFrame(Map<String, ?> options, Runnable callback) {
        return onFrame(Boolean.TRUE.equals(options.get("before")), callback);
    }

    /** Callbacks currently registered on this source, for leak checks. */
    public final int registrations() {
        return registrations.get();
    }

    /**
     * Registers {@code item} in {@code list} and returns its release; subclasses use this for
     * callbacks of their own so that they count and can be collected by {@link CallbackScope}.
     */
    protected final <T> Registration register(CallbackList<T> list, T item) {
        Objects.requireNonNull(item, "callback");
        list.add(item);
        registrations.incrementAndGet();
        Registration r =
                () -> {
                    if (list.remove(item)) {
                        registrations.decrementAndGet();
                        forgetFailures(item);
                    }
                };
        CallbackScope.offer(this, r);
        return r;
    }

    /**
     * Calls each callback of {@code list} with {@code value}; one that throws is logged and counts
     * as not run (see {@link #callbackFailed}).
     */
    @SuppressWarnings("unchecked")
    protected final <T> void dispatch(CallbackList<Consumer<T>> list, T value) {
        for (Object o : list.snapshot()) {
            try {
                ((Consumer<T>) o).accept(value);
                if (episodes != null) callbackSucceeded(o);
            } catch (Throwable t) { // a script's closure throws what it likes, checked or an Error
                callbackFailed(o, o, t);
            }
        }
    }

    protected final void dispatch(CallbackList<Runnable> list) {
        for (Object o : list.snapshot()) {
            try {
                ((Runnable) o).run();
                if (episodes != null) callbackSucceeded(o);
            } catch (Throwable t) {
                callbackFailed(o, o, t);
            }
        }
    }

    /**
     * Callbacks are the script's code: whatever one throws (a mistake, a failed assert, a stack
     * overflow, an HTTP call refused on the clock), short of the JVM running out of memory, is
     * logged with the script's line, once per run of failures of that callback (see {@link
     * FailureEpisode}), and the other callbacks and the stream go on; it must not cost the output
     * pulling this source its place on air, nor the clock its task.
     *
     * @param item what the callback list holds, which the episode is kept under
     * @param callback the script's code, which the context locates
     */
    private void callbackFailed(Object item, Object callback, Throwable t) {
        if (t instanceof OutOfMemoryError oom) throw oom;
        if (t instanceof InterruptedException) Thread.currentThread().interrupt();
        Map<Object, FailureEpisode> m = episodes;
        if (m == null) episodes = m = new IdentityHashMap<>();
        FailureEpisode episode;
        synchronized (m) {
            episode = m.computeIfAbsent(item, k -> new FailureEpisode());
        }
        long unlogged = episode.failed();
        if (unlogged < 0) return;
        log.error(
                "{}: a callback failed, the stream goes on: {}{}",
                id(),
                describe(callback, t),
                FailureEpisode.heldBack(unlogged));
    }

    private String describe(Object callback, Throwable t) {
        StreamContext c = context;
        if (c == null) return t.toString();
        try {
            return c.describeFailure(callback, t);
        } catch (RuntimeException e) {
            return t.toString();
        }
    }

    private void callbackSucceeded(Object item) {
        Map<Object, FailureEpisode> m = episodes;
        FailureEpisode episode;
        synchronized (m) {
            episode = m.get(item);
        }
        if (episode != null) episode.succeeded();
    }

    private void forgetFailures(Object item) {
        Map<Object, FailureEpisode> m = episodes;
        if (m == null) return;
        synchronized (m) {
            m.remove(item);
        }
    }

    private void resetPositions() {
        for (Object o : positionListeners.snapshot()) ((PositionListener) o).fired = false;
    }

    private void checkPositions() {
        long left = -2;
        for (Object o : positionListeners.snapshot()) {
            PositionListener l = (PositionListener) o;
            if (l.fired) continue;
            long at = context == null ? 0 : context.samples(l.seconds);
            boolean due;
            if (l.remaining) {
                if (left == -2) left = remaining();
                due = left >= 0 && left <= at;
            } else {
                due = trackPosition >= at;
            }
            if (due) {
                l.fired = true;
                try {
                    l.callback.accept(lastMetadata);
                    if (episodes != null) callbackSucceeded(l);
                } catch (Throwable t) {
                    callbackFailed(l, l.callback, t);
                }
            }
        }
    }

    private static final class PositionListener {
        final double seconds;
        final boolean remaining;
        final Consumer<Metadata> callback;
        boolean fired;

        PositionListener(double seconds, boolean remaining, Consumer<Metadata> callback) {
            this.seconds = seconds;
            this.remaining = remaining;
            this.callback = callback;
        }
    }

    @Override
    public String toString() {
        return id();
    }
}
