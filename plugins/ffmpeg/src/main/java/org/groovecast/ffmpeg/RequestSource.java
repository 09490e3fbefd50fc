package org.groovecast.ffmpeg;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays requests one after the other. Choosing, opening and probing the next tracks happens ahead
 * of time on the blocking pool ({@code prefetch} of them), never on the clock; the clock only
 * decodes. Only the next track stays open: the others are probed, then closed until their turn
 * comes near, so that a thousand playlists do not hold three thousand decoders. A request that cannot be read is logged once, with its path, and skipped; when a whole
 * round fails the source is unavailable for a while instead of spinning on broken files.
 */
abstract class RequestSource extends Source {
    private static final Logger log = LoggerFactory.getLogger(RequestSource.class);
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final int prefetch;
    /** Opened and probed: the next track to play (one at most, since it holds a decoder). */
    private final ConcurrentLinkedQueue<Track> ready = new ConcurrentLinkedQueue<>();
    /** Probed and found playable, closed until the track before them starts. */
    private final ConcurrentLinkedQueue<Request> verified = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean fetching = new AtomicBoolean();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private volatile long retryAfter;
    private volatile boolean closed;
    private AudioFormat format;
    private VideoFormat video;
    private int scalingThreads;
    private ClockInfo clock;
    private Executor blocking;
    private boolean realtime;
    private Track current;
    private boolean currentStarted;

    RequestSource(String kind, int prefetch) {
        super(kind);
        this.prefetch = Math.max(1, prefetch);
    }

    /** The next request to try, or null when there is none now. Runs on the blocking pool; may block. */
    protected abstract Request next();

    /** How many failures in a row make a round: after that many, wait before trying again. */
    protected int attemptsPerRound() {
        return 10;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        format = context.format();
        video = context.video();
        scalingThreads = context.scalingThreads();
        clock = context.clock();
        blocking = context.blocking();
        realtime = context.realtime();
        // The first tracks are opened before sound starts, in parallel with every other source's.
        context.beforeStart(this::fetchAndRelease);
        fetching.set(true);
    }

    @Override
    public boolean isReady() {
        if (current != null || !ready.isEmpty()) return true;
        if (!realtime && System.nanoTime() >= retryAfter && fetching.compareAndSet(false, true)) {
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
        for (Track t; (t = ready.poll()) != null; ) t.close();
        verified.clear();
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

    /** What a kind of request source carries across a reload besides its tracks (a queue, a position). */
    protected void adoptState(RequestSource previous) {
    }

    @Override
    public long remaining() {
        Track t = current; // read once: the control interface asks from another thread
        return t == null ? -1 : t.remaining(format);
    }

    @Override
    public void abortTrack() {
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
                // Opened but nothing decodes (a truncated file): skip it within this get, no empty track.
                report(current.uri(), "skipped: no audio could be decoded");
                endCurrent();
                continue;
            }
            if (got < want) endCurrent();
            return;
        }
    }

    private void endCurrent() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    /** Starts a fetch on the blocking pool unless enough tracks are ready or one is running. */
    private void topUp() {
        if (!realtime || closed || blocking == null || ready.size() + verified.size() >= prefetch && !ready.isEmpty()) return;
        if (System.nanoTime() < retryAfter) return;
        if (fetching.compareAndSet(false, true)) blocking.execute(this::fetchAndRelease);
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
        // attemptsPerRound() is asked each time: a playlist knows its size only once it has read it.
        while (!closed && (ready.isEmpty() || ready.size() + verified.size() < prefetch)
                && failures < Math.max(1, attemptsPerRound())) {
            // The next track to open is the oldest verified one; new requests only queue behind them.
            Request r = ready.isEmpty() ? verified.poll() : null;
            if (r == null) {
                try {
                    r = next();
                } catch (RuntimeException e) {
                    log.error("{}: choosing the next track failed: {}", id(), e.toString());
                    break;
                }
                if (r == null) break;
            }
            try {
                Track t = Track.open(r, format, video, scalingThreads);
                if (ready.isEmpty()) {
                    ready.add(t);
                } else {
                    t.close();
                    verified.add(r);
                }
                failures = 0;
            } catch (IOException | RuntimeException e) {
                failures++;
                report(r.uri(), "skipped: " + e.getMessage());
            }
        }
        if (failures >= Math.max(1, attemptsPerRound())) {
            retryAfter = System.nanoTime() + RETRY_NANOS;
            log.warn("{}: {} tracks in a row could not be read; unavailable, trying again in 5 s", id(), failures);
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
        verified.clear();
    }

    @Override
    protected void onShutdown() {
        closed = true;
        endCurrent();
        drain();
    }
}
