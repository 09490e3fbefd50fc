package org.groovecast.ffmpeg.playlist;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.FfmpegSettings;
import org.groovecast.ffmpeg.autocue.TrackAnalysis;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays requests one after the other. Choosing, resolving (the station's protocols: annotate:,
 * downloads, the script's own), opening and probing the next tracks happens ahead of time on the
 * blocking pool ({@code prefetch} of them), never on the clock; the clock only decodes. Only the
 * next track stays open: the others are probed, then closed until their turn comes near, so that a
 * thousand playlists do not hold three thousand decoders. A request that cannot be read is logged
 * once, with its path, and skipped; when a whole round fails the source is unavailable for a while
 * instead of spinning on broken files.
 */
abstract class RequestSource extends Source {
    private static final Logger log = LoggerFactory.getLogger(RequestSource.class);
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final int prefetch;

    /** Opened and probed: the next track to play (one at most, since it holds a decoder). */
    private final ConcurrentLinkedQueue<Track> ready = new ConcurrentLinkedQueue<>();

    /** Probed and found playable, closed until the track before them starts. */
    private final ConcurrentLinkedQueue<Track.Parked> verified = new ConcurrentLinkedQueue<>();

    private final RequestResolver requests;
    private final AtomicBoolean fetching = new AtomicBoolean();

    /**
     * The pool thread fetching now: a shutdown interrupts it, so that a resolver or a
     * request.dynamic function hung within its timeout is abandoned at once rather than holding up
     * the station's stop.
     */
    private volatile Thread fetcher;

    /**
     * The request being resolved and opened now, and whether it was taken back meanwhile (a queue's
     * remove). Placing its track and clearing it happen together under {@link #handoff}, so that a
     * remove finds the request either here or among the prepared tracks.
     */
    private volatile Request resolving;

    private volatile boolean resolvingDropped;
    private final Object handoff = new Object();

    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /** No new request is asked for before this {@link System#nanoTime()}. */
    private volatile long retryAfter = System.nanoTime();

    private volatile boolean closed;
    private AudioFormat format;
    private VideoFormat video;
    private int scalingThreads;
    private TrackAnalysis analysis = TrackAnalysis.NONE;
    private ClockInfo clock;
    private Executor blocking;
    private boolean realtime;
    private Track current;
    private boolean currentStarted;

    RequestSource(String kind, int prefetch, RequestResolver requests) {
        super(kind);
        this.prefetch = Math.max(1, prefetch);
        this.requests = requests;
    }

    /**
     * The next request to try, or null when there is none now. Runs on the blocking pool; may
     * block.
     */
    protected abstract Request next();

    /** The station's request protocols. */
    protected final RequestResolver requests() {
        return requests;
    }

    /**
     * Seconds a request's resolution may take; 0 for the station's ({@code
     * settings.request.timeout}).
     */
    protected double timeout() {
        return 0;
    }

    /**
     * Asks for no new request (no call of {@link #next}) for {@code seconds}, as after a failing
     * round.
     */
    protected final void pause(double seconds) {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        if (until - retryAfter > 0) retryAfter = until;
    }

    /** Ends a {@link #pause}: something new to play came (a push); safe from any thread. */
    protected final void resume() {
        retryAfter = System.nanoTime();
        topUp();
    }

    /**
     * Ends the current track, as a skip does: at the next get the clock closes it and its consumers
     * see it end, even when the next track is already open. Safe from any thread.
     */
    protected final void skipSoon() {
        endTrack();
    }

    /**
     * Whether the source is shut down (a call of {@link #next} it interrupted need not be
     * reported).
     */
    protected final boolean closing() {
        return closed;
    }

    /**
     * The requests chosen but not yet playing, the next one first: opened, checked, being resolved.
     */
    protected final List<Request> prepared() {
        List<Request> out = new ArrayList<>();
        for (Track t : ready) out.add(t.request());
        for (Track.Parked p : verified) out.add(p.request());
        Request r = resolving;
        if (r != null && !resolvingDropped) out.add(r);
        return out;
    }

    /**
     * Takes back the chosen requests that {@code which} selects, before they play (their files go);
     * safe from any thread. Returns how many.
     */
    protected final int dropPrepared(Predicate<Request> which) {
        int n = 0;
        synchronized (handoff) { // first: once placed, it is among the tracks below
            Request r = resolving;
            if (r != null && !resolvingDropped && which.test(r)) {
                resolvingDropped = true;
                n++;
            }
        }
        for (Track t : ready) {
            if (which.test(t.request()) && ready.remove(t)) { // whoever removes it owns it
                offClock(t::close);
                n++;
            }
        }
        for (Track.Parked p : verified) {
            if (which.test(p.request()) && verified.remove(p)) {
                offClock(p::discard);
                n++;
            }
        }
        if (n > 0) topUp();
        return n;
    }

    /** How many failures in a row make a round: after that many, wait before trying again. */
    protected int attemptsPerRound() {
        return 10;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        format = context.format();
        video = context.video();
        scalingThreads = FfmpegSettings.scalingThreads(context);
        analysis = TrackAnalysis.of(context, format, requests);
        clock = context.clock();
        blocking = context.blocking();
        realtime = context.realtime();
        // The first tracks are opened before sound starts, in parallel with every other source's;
        // marked as fetching first, since a context may run the work at once (a test's).
        fetching.set(true);
        context.beforeStart(this::fetchOnPool);
    }

    @Override
    public boolean isReady() {
        if (current != null || !ready.isEmpty()) return true;
        if (!realtime
                && System.nanoTime() - retryAfter >= 0
                && fetching.compareAndSet(false, true)) {
            // Rendering offline: nobody is waiting in real time, so open the next track right here.
            fetchAndRelease();
            return !ready.isEmpty();
        }
        topUp();
        return false;
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    /** A reload: the previous instance's playing track and prepared ones become this one's. */
    @Override
    protected final void adopt(Source previous) {
        if (previous.getClass() != getClass()) return;
        RequestSource p = (RequestSource) previous;
        // What this instance prepared for its start gives way to what was on air.
        drain();
        if (current != null) current.close();
        current = p.current;
        currentStarted = p.currentStarted;
        p.current = null;
        ready.addAll(p.ready);
        p.ready.clear();
        verified.addAll(p.verified);
        p.verified.clear();
        adoptState(p);
    }

    /**
     * What a kind of request source carries across a reload besides its tracks (a queue, a
     * position).
     */
    protected void adoptState(RequestSource previous) {}

    @Override
    public long remaining() {
        Track t = current; // read once: the control interface asks from another thread
        return t == null ? -1 : t.remaining(format);
    }

    /**
     * A skip (see {@link #skipSoon}), from the script, maybe off the clock (a command, a harbor
     * callback), or from an operator: the clock closes the track at its next get.
     */
    @Override
    public void abortTrack() {
        skipSoon();
    }

    @Override
    protected void dropTrack() {
        endCurrent();
    }

    @Override
    protected void generate(Frame frame) {
        int want = frame.free();
        int start = frame.position();
        while (true) {
            if (current == null) {
                current = ready.poll();
                currentStarted = false;
                topUp();
                if (current == null) return;
            }
            int got;
            try {
                got = current.read(frame, clock.getTicks());
            } catch (IOException e) {
                report(current.uri(), "stopped mid-track: " + e.getMessage());
                got = frame.position() - start;
            }
            if (got > 0 && !currentStarted) {
                currentStarted = true;
                frame.addMetadata(start, current.metadata());
            }
            if (!currentStarted) {
                // Opened but nothing decodes (a truncated file): skip it within this get, no empty
                // track.
                report(current.uri(), "skipped: no audio could be decoded");
                endCurrent();
                continue;
            }
            if (got < want) endCurrent();
            return;
        }
    }

    private void endCurrent() {
        Track t = current;
        if (t != null) {
            current = null;
            offClock(t::close); // nothing reads it any more; a temporary file is deleted there
        }
    }

    /**
     * Closing a decoder and deleting a file may take a moment: not on a clock or an event loop,
     * when there is a pool.
     */
    private void offClock(Runnable closing) {
        Executor pool = blocking;
        if (pool == null || !realtime || closed) {
            closing.run();
            return;
        }
        try {
            pool.execute(closing);
        } catch (RejectedExecutionException stopping) {
            closing.run();
        }
    }

    /** Starts a fetch on the blocking pool unless enough tracks are ready or one is running. */
    private void topUp() {
        if (!realtime
                || closed
                || blocking == null
                || ready.size() + verified.size() >= prefetch && !ready.isEmpty()) return;
        // While paused no new request is asked for, but a checked one may still be opened for its
        // turn.
        if (System.nanoTime() - retryAfter < 0 && (verified.isEmpty() || !ready.isEmpty())) return;
        if (fetching.compareAndSet(false, true)) blocking.execute(this::fetchOnPool);
    }

    /** A fetch on a blocking pool thread (a top-up, the start), which a shutdown may interrupt. */
    private void fetchOnPool() {
        fetcher = Thread.currentThread();
        try {
            fetchAndRelease();
        } finally {
            // An interrupt from a shutdown that came just now is the pool's to clear before its
            // next task.
            fetcher = null;
        }
    }

    private void fetchAndRelease() {
        try {
            fetch();
        } finally {
            fetching.set(false);
        }
    }

    private void fetch() {
        int failures = 0;
        // attemptsPerRound() is asked each time: a playlist knows its size only once it has read
        // it.
        while (!closed
                && (ready.isEmpty() || ready.size() + verified.size() < prefetch)
                && failures < Math.max(1, attemptsPerRound())) {
            // The next track to open is the oldest verified one; new requests only queue behind
            // them.
            Track.Parked parked = ready.isEmpty() ? verified.poll() : null;
            Request r;
            if (parked != null) {
                r = parked.request();
            } else {
                if (System.nanoTime() - retryAfter < 0)
                    break; // paused by next(): no new request for now
                try {
                    r = next();
                } catch (RuntimeException e) {
                    log.error("{}: choosing the next track failed: {}", id(), e.toString());
                    break;
                }
                if (r == null) break;
            }
            synchronized (handoff) {
                resolvingDropped = false;
                resolving = r;
            }
            Track t;
            try {
                t =
                        parked != null
                                ? parked.reopen(format, video, scalingThreads)
                                : requests.resolve(
                                        r.uri(),
                                        r.baseDir(),
                                        timeout(),
                                        resolved ->
                                                Track.open(
                                                        r,
                                                        resolved,
                                                        format,
                                                        video,
                                                        scalingThreads,
                                                        analysis));
                failures = 0;
            } catch (IOException | RuntimeException e) {
                synchronized (handoff) {
                    resolving = null;
                }
                if (parked != null) parked.discard();
                if (closed) break; // abandoned by the shutdown: nothing to report
                failures++;
                report(r.uri(), "skipped: " + e.getMessage());
                continue;
            }
            boolean dropped;
            synchronized (handoff) {
                dropped = resolvingDropped;
                if (!dropped) {
                    if (ready.isEmpty()) ready.add(t);
                    else verified.add(t.park());
                }
                resolving = null;
            }
            if (dropped) t.close(); // taken back while it was being prepared
        }
        if (failures >= Math.max(1, attemptsPerRound())) {
            pause(RETRY_NANOS / 1e9);
            log.warn(
                    "{}: {} tracks in a row could not be read; unavailable, trying again in 5 s",
                    id(),
                    failures);
        }
        if (closed) drain();
    }

    /** Logs a problem with a file once, not on every attempt. */
    private void report(String uri, String problem) {
        if (reported.add(uri)) log.warn("{}: {}: {}", id(), uri, problem);
    }

    private void drain() {
        Track t;
        while ((t = ready.poll()) != null) t.close();
        Track.Parked p;
        while ((p = verified.poll()) != null) p.discard();
    }

    @Override
    protected void onShutdown() {
        closed = true;
        Thread t = fetcher;
        if (t != null) t.interrupt();
        endCurrent();
        drain();
    }
}
