package org.groovecast.api;

import java.util.Map;

/**
 * An active source that sends what it pulls somewhere (a file, a socket, nowhere). Its clock calls
 * {@link #tick()} every frame; subclasses implement {@link #send} and, if they hold a resource,
 * {@link #open()} and {@link #close()}.
 */
public abstract class Output extends Transform {
    private final CallbackList<Runnable> beforeOutput = new CallbackList<>();
    private final CallbackList<Runnable> afterOutput = new CallbackList<>();
    private final CallbackList<Runnable> startListeners = new CallbackList<>();
    private final CallbackList<Runnable> stopListeners = new CallbackList<>();
    private Frame frame;
    private boolean started;
    private Output predecessor;

    /**
     * @param fallible whether the script allowed a source that can become unavailable; without it a
     *     fallible source is a script error, since the output would fall silent
     */
    protected Output(String kind, Source source, boolean fallible) {
        super(kind, source);
        if (source.isFallible() && !fallible) {
            throw new ScriptException(
                    kind
                            + "(): source "
                            + source.id()
                            + " is fallible (it may stop producing); wrap it in mksafe() or fallback(), or pass fallible: true");
        }
    }

    public final Source source() {
        return input;
    }

    @Override
    public final boolean isActive() {
        return true;
    }

    @Override
    protected void generate(Frame f) {
        input.get(f);
    }

    @Override
    protected final void onPrepare(StreamContext context) {
        frame = new Frame(context.format(), context.frameSize());
        prepareOutput(context);
    }

    /** Called once the context is known, before {@link #open()}. */
    protected void prepareOutput(StreamContext context) {}

    /** Opens the destination (a file, a connection); errors here stop the station's start. */
    protected void open() throws Exception {}

    /**
     * Sends one frame's data, {@code [0, frame.position())}, once per tick; a short or empty frame
     * means the source ran dry (an output that cares, such as HLS, marks the gap).
     */
    protected abstract void send(Frame frame) throws Exception;

    /** Flushes and closes the destination after the last frame. */
    protected void close() throws Exception {}

    /**
     * On a reload, before this output opens: {@code previous} is the output of the same name, or
     * kind and {@link #endpoint()}, in the station still on air. An output that can keep its
     * predecessor's connection does not open one of its own in {@link #open()} (see {@link
     * #predecessor()}) and takes it over in {@link #adopt}, which the host calls once the old
     * station's clocks stopped and before it closes its outputs.
     */
    public final void follow(Output previous) {
        predecessor = previous;
    }

    /** The output this one replaces on a reload, or null; see {@link #follow}. */
    public final Output predecessor() {
        return predecessor;
    }

    /** Opens the output and fires {@code onStart}. */
    public final void start() throws Exception {
        if (started) return;
        open();
        started = true;
        dispatch(startListeners);
    }

    private static final int MAX_EMPTY_GETS = 4;

    /** Pulls one frame from the source and sends it; called by the clock once per tick. */
    public final void tick() throws Exception {
        frame.clear();
        dispatch(beforeOutput);
        int empty = 0;
        while (!frame.isFull() && input.isReady()) {
            int before = frame.position();
            input.get(frame);
            if (frame.position() == before) {
                // A track change can take a few empty gets (an ending track, then a selected source
                // whose own last track ended on a frame boundary); more in a row means the source
                // has nothing now: do not spin.
                if (++empty == MAX_EMPTY_GETS) break;
            } else {
                empty = 0;
            }
        }
        send(frame);
        dispatch(afterOutput);
    }

    /** Closes the output and fires {@code onStop}; idempotent. */
    public final void stop() throws Exception {
        if (!started) return;
        started = false;
        try {
            close();
        } finally {
            dispatch(stopListeners);
        }
    }

    public final boolean isStarted() {
        return started;
    }

    /** Calls {@code callback} every tick, before the output pulls its frame or after it sent it. */
    public final Registration onOutput(boolean before, Runnable callback) {
        return register(before ? beforeOutput : afterOutput, callback);
    }

    public final Registration onOutput(Runnable callback) {
        return onOutput(false, callback);
    }

    /** Script form: {@code out.onOutput(before: true) { ... }}. */
    public final Registration onOutput(Map<String, ?> options, Runnable callback) {
        return onOutput(Boolean.TRUE.equals(options.get("before")), callback);
    }

    public final Registration onStart(Runnable callback) {
        return register(startListeners, callback);
    }

    public final Registration onStop(Runnable callback) {
        return register(stopListeners, callback);
    }
}
