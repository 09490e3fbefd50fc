package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.groovecast.ffmpeg.shared.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code output.file.hls(..., publish: 'http://origin/live/')}: the HLS files written locally are
 * also sent to an origin by HTTP PUT, and the expired ones removed by DELETE, as CDNs' HLS ingest
 * and nginx's WebDAV module take them. The output only tells it what happened (on its clock, a few
 * list operations); one virtual thread does the requests, one at a time over a kept-alive HTTP/1.1
 * connection, in an order that never lets a player on the origin miss a file:
 *
 * <ul>
 *   <li>a segment (and its init section) is on the origin (2xx) before any playlist naming it is
 *       sent;
 *   <li>a media playlist is on the origin before the master that names it is sent;
 *   <li>a file is deleted only once every playlist on the origin that named it has been replaced by
 *       one that does not, and then only after the time a player may still fetch it from the
 *       playlist it loaded last: the segment's duration and the playlist's (RFC 8216 §6.2.2),
 *       counted from the moment the origin stopped naming it, so also after an outage.
 * </ul>
 *
 * <p>What waits is bounded by what exists locally: of each playlist only its latest version waits
 * (a newer one replaces it), and a segment that expired locally before it could be sent is dropped
 * (no playlist sent later names it). A failure (origin down, an answer that is not 2xx, a timeout)
 * is logged once per episode with the request and the reason, and the same request is tried again
 * after a {@link Backoff} of 0.5 s doubling to 10 s; the episode ends when that kind of request
 * (PUT or DELETE) succeeds again, logged with how long it took and what was dropped meanwhile. An
 * origin that refuses DELETE (a 4xx other than 404, 408 and 429, or 501: PUT-only ingests) is told
 * once; the publisher then leaves expired files there. The station and the local files never wait
 * for the origin: a stopping output only signals the thread, which sends what waits within its
 * budget on its own.
 */
final class HlsPublisher {
    private static final Logger log = LoggerFactory.getLogger(HlsPublisher.class);
    private static final double FIRST_BACKOFF_SECONDS = 0.5;
    private static final double MAX_BACKOFF_SECONDS = 10;

    /**
     * Expired files kept for deletion at most: an origin that never deletes does not grow this
     * without bound.
     */
    static final int MAX_EXPIRED = 1000;

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * What perform() says of a file no longer on disk: not a failure of the origin, nothing to
     * retry.
     */
    private static final String GONE = "gone";

    /**
     * What perform() says of a DELETE the origin refuses (then the status): for good, nothing to
     * retry.
     */
    private static final String REFUSED = "refused HTTP ";

    /** A playlist's text and the files (or, for the master, the playlists) it names. */
    private record Version(String text, Set<String> names) {}

    /** One request to make: PUT a file, PUT a playlist version, or DELETE a file. */
    private record Op(String method, String name, Version version) {}

    private final URI base;
    private final Map<String, String> headers;
    private final Path dir;
    private final String id;
    private final HttpClient client;
    private final Thread worker;
    private final long deleteDelayNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    // Everything below is guarded by lock.
    /** Segments and init sections to PUT, oldest first. */
    private final ArrayDeque<String> files = new ArrayDeque<>();

    /** Files on the origin (PUT answered 2xx, not deleted since). */
    private final Set<String> onOrigin = new HashSet<>();

    /**
     * Files the output no longer lists: deleted from the origin once no playlist there names them.
     */
    private final Set<String> expired = new LinkedHashSet<>();

    /** When each file on the origin stopped being named by its playlists there (nanoTime). */
    private final Map<String, Long> unnamedSince = new HashMap<>();

    /** The latest version of each playlist not yet on the origin, the master last. */
    private final Map<String, Version> playlists = new LinkedHashMap<>();

    /** What each playlist on the origin names now. */
    private final Map<String, Set<String>> published = new HashMap<>();

    private final Map<String, String> publishedText = new HashMap<>();
    private String master;
    private boolean closing;

    /** When a closing publisher gives up on what still waits (nanoTime). */
    private long closeBy;

    private boolean busy;

    /** The file being sent now, if one is. */
    private String inFlight;

    private final Backoff backoff = new Backoff(FIRST_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS);

    /** The method (PUT, DELETE) whose failure started the episode going on, or null. */
    private String failingMethod;

    /** The origin refused a DELETE for good: expired files stay there. */
    private boolean deletesRefused;

    /**
     * When the next held-back DELETE is due (nanoTime), for the worker's wait; Long.MAX_VALUE if
     * none.
     */
    private long nextDue = Long.MAX_VALUE;

    private int dropped;

    /**
     * @param base the origin's URL for the directory, ending in {@code /}: files go to {@code base
     *     + name}
     * @param id the output's id and directory, for log lines
     * @param deleteDelay how long a file stays on the origin once no playlist there names it: its
     *     duration and the playlist's (RFC 8216 §6.2.2)
     */
    HlsPublisher(URI base, Map<String, String> headers, Path dir, String id, Duration deleteDelay) {
        this.base = base;
        this.deleteDelayNanos = deleteDelay.toNanos();
        this.headers = Map.copyOf(headers);
        this.dir = dir;
        this.id = id;
        this.client =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(TIMEOUT)
                        .build();
        // A virtual thread: the drain after close() is bounded by its budget, and the station's
        // shutdown waits for it (awaitDrained), not the JVM.
        this.worker = Thread.ofVirtual().name("hls-publish " + base).unstarted(this::run);
    }

    /**
     * The origin's URL for a directory: {@code http(s)://...} with a trailing slash; null for a URL
     * it cannot be.
     */
    static URI origin(String url) {
        if (url == null || !url.matches("(?i)https?://[^/?#]+.*")) return null;
        try {
            URI uri = URI.create(url.endsWith("/") ? url : url + "/");
            return uri.getQuery() != null || uri.getFragment() != null ? null : uri;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Why {@code headers} cannot go on the origin's requests (a header Java's HTTP client sets
     * itself, such as Host or Content-Length, or a name or value it refuses, such as one with a
     * line break), or null when they all can: for a script error, rather than a publishing thread
     * that dies.
     */
    static String headerProblem(Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://origin/"));
        for (Map.Entry<String, String> h : headers.entrySet()) {
            try {
                b.header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                return "header \""
                        + h.getKey().replace("\r", "\\r").replace("\n", "\\n")
                        + "\" cannot be sent: "
                        + e.getMessage().replace("\r", "\\r").replace("\n", "\\n");
            }
        }
        return null;
    }

    void start() {
        worker.start();
    }

    /**
     * A segment or init section finished on disk (the clock's thread): to be sent before any
     * playlist naming it.
     */
    void file(String name) {
        lock.lock();
        try {
            if (onOrigin.contains(name) || files.contains(name)) return;
            files.addLast(name);
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A new version of a media playlist naming {@code names}; it replaces a version not sent yet.
     */
    void playlist(String name, String text, Collection<String> names) {
        offer(name, new Version(text, new HashSet<>(names)));
    }

    /**
     * The master playlist naming the media playlists {@code playlists}; sent once they are all on
     * the origin.
     */
    void master(String name, String text, Collection<String> playlists) {
        lock.lock();
        try {
            master = name;
        } finally {
            lock.unlock();
        }
        offer(name, new Version(text, new HashSet<>(playlists)));
    }

    private void offer(String name, Version v) {
        lock.lock();
        try {
            if (v.text().equals(publishedText.get(name))) {
                playlists.remove(name);
                return;
            }
            playlists.put(name, v);
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Files the output no longer lists (a round after they left its playlists); it deletes its own
     * copies.
     */
    void expired(Collection<String> names) {
        if (names.isEmpty()) return;
        lock.lock();
        try {
            for (String n : names) {
                boolean sending = n.equals(inFlight);
                if (files.remove(n) && !sending) {
                    // Never sent, and no playlist sent from now on names it: nothing on the origin
                    // needs it.
                    drop(n, "it expired before the origin took it");
                } else if (deletesRefused) {
                    onOrigin.remove(n); // stays on the origin: nothing more to know of it
                    unnamedSince.remove(n);
                } else if (onOrigin.contains(n) || sending) {
                    expired.add(
                            n); // one being sent may get there: deleted then (a DELETE of nothing
                    // is a 404)
                }
            }
            while (expired.size() > MAX_EXPIRED) {
                String oldest = expired.iterator().next();
                forget(oldest);
                onOrigin.remove(oldest);
            }
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    private void drop(String name, String why) {
        if (dropped++ == 0) {
            log.warn(
                    "{}: {} not published: {} (further drops are counted until the origin catches up)",
                    id,
                    name,
                    why);
        }
    }

    /** Expired files waiting for their DELETE, for tests. */
    int expiredCount() {
        lock.lock();
        try {
            return expired.size();
        } finally {
            lock.unlock();
        }
    }

    private void forget(String file) {
        expired.remove(file);
        unnamedSince.remove(file);
    }

    /**
     * Returns at once (the caller is a clock or a reload): the thread goes on sending what waits
     * (the last segments, the playlists with #EXT-X-ENDLIST) for up to {@code millis} while the
     * origin answers, not at all while it fails, then ends and closes its connection. Held-back
     * DELETEs are not waited for. {@link #awaitDrained} waits for the end.
     */
    void close(long millis) {
        lock.lock();
        try {
            if (closing) return;
            closing = true;
            closeBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code millis} for the thread to end after {@link #close}: a station that stops
     * for good.
     */
    boolean awaitDrained(long millis) {
        try {
            return worker.join(Duration.ofMillis(millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (IllegalThreadStateException e) {
            return true; // never started
        }
    }

    /**
     * The next request that may be made now, in the safe order; null if none. Under the lock. Sets
     * {@link #nextDue} to when a DELETE held back for players is due.
     */
    private Op next() {
        nextDue = Long.MAX_VALUE;
        if (!files.isEmpty()) return new Op("PUT", files.getFirst(), null);
        for (Map.Entry<String, Version> e : playlists.entrySet()) {
            Version v = e.getValue();
            boolean ready =
                    e.getKey().equals(master)
                            ? published.keySet().containsAll(v.names())
                            : onOrigin.containsAll(v.names());
            if (ready) return new Op("PUT", e.getKey(), v);
        }
        long now = System.nanoTime();
        for (String f : expired) {
            if (namedOnOrigin(f) || namedWaiting(f)) continue;
            Long since =
                    unnamedSince.get(
                            f); // null: no playlist on the origin ever named it, no player can want
            // it
            long due = since == null ? now : since + deleteDelayNanos;
            if (due - now <= 0) return new Op("DELETE", f, null);
            if (due - nextDue < 0) nextDue = due;
        }
        return null;
    }

    private boolean namedOnOrigin(String file) {
        for (Set<String> names : published.values()) if (names.contains(file)) return true;
        return false;
    }

    private boolean namedWaiting(String file) {
        for (Version v : playlists.values()) if (v.names().contains(file)) return true;
        return false;
    }

    private void run() {
        try {
            while (true) {
                Op op;
                lock.lock();
                try {
                    while ((op = next()) == null) {
                        if (closing) return;
                        if (nextDue == Long.MAX_VALUE) changed.await();
                        else changed.awaitNanos(nextDue - System.nanoTime());
                    }
                    if (closing
                            && (op.method().equals(failingMethod)
                                    || System.nanoTime() - closeBy > 0)) {
                        log.warn(
                                "{}: stopping with uploads to {} not done ({} files, {} playlists waiting)",
                                id,
                                base,
                                files.size(),
                                playlists.size());
                        return; // a station that stops does not wait for a dead or slow origin
                    }
                    busy = true;
                    inFlight = op.version() == null ? op.name() : null;
                } finally {
                    lock.unlock();
                }
                String failure;
                try {
                    failure = perform(op);
                } catch (IOException e) {
                    failure =
                            e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getClass().getSimpleName() + ": " + e.getMessage();
                }
                long wait = settle(op, failure);
                if (wait > 0) {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait);
                    lock.lock();
                    try {
                        long left;
                        while (!closing && (left = end - System.nanoTime()) > 0)
                            changed.awaitNanos(left); // close() cuts it short
                    } finally {
                        lock.unlock();
                    }
                }
            }
        } catch (InterruptedException e) {
            // whatever waits stays unsent
        } catch (
                RuntimeException
                        e) { // a bug, not the origin: say so rather than stop publishing silently
            log.error("{}: publishing to {} stopped: {}", id, base, e.toString(), e);
        } finally {
            lock.lock();
            try {
                busy = false;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            client.shutdownNow();
        }
    }

    /**
     * Makes the request; null when it succeeded, {@link #GONE} for a file no longer on disk, else
     * why it failed.
     */
    private String perform(Op op) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(op.name())).timeout(timeout());
        headers.forEach(b::header);
        if (op.method().equals("DELETE")) {
            int status =
                    client.send(b.DELETE().build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode();
            // 405/403 (a PUT-only ingest), 501 (no DELETE at all): asking again will not help
            if (status / 100 == 4 && status != 404 && status != 408 && status != 429
                    || status == 501) return REFUSED + status;
            return status / 100 == 2 || status == 404 ? null : "HTTP " + status;
        }
        byte[] body;
        if (op.version() != null) {
            body = op.version().text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        } else {
            try {
                body = Files.readAllBytes(dir.resolve(op.name()));
            } catch (NoSuchFileException e) {
                return GONE;
            }
        }
        HttpRequest request =
                b.header("Content-Type", contentType(op.name()))
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build();
        int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        return status / 100 == 2 ? null : "HTTP " + status;
    }

    /** A closing publisher's requests end by its budget; the usual timeout otherwise. */
    private Duration timeout() {
        lock.lock();
        try {
            if (!closing) return TIMEOUT;
            long left = closeBy - System.nanoTime();
            return Duration.ofNanos(
                    Math.clamp(left, TimeUnit.MILLISECONDS.toNanos(100), TIMEOUT.toNanos()));
        } finally {
            lock.unlock();
        }
    }

    /** Records the outcome; returns how long to wait before the next request, in milliseconds. */
    private long settle(Op op, String failure) {
        lock.lock();
        try {
            busy = false;
            inFlight = null;
            changed.signalAll();
            if (failure == GONE) {
                files.remove(op.name());
                drop(op.name(), "it is no longer on disk");
                return 0;
            }
            if (failure != null && failure.startsWith(REFUSED)) {
                deletesRefused = true;
                log.warn(
                        "{}: the origin {} refuses DELETE ({} {}: {}); expired files are left there from now on "
                                + "(let the origin expire them)",
                        id,
                        base,
                        op.method(),
                        op.name(),
                        failure.substring(8));
                for (String f : expired) onOrigin.remove(f);
                expired.clear();
                unnamedSince.clear();
                return 0;
            }
            if (failure != null) {
                if (backoff.failed()) {
                    failingMethod = op.method();
                    log.error(
                            "{}: publishing to {} fails ({} {}: {}); trying again with a backoff up to {} s; "
                                    + "the local files go on, and so does the station",
                            id,
                            base,
                            op.method(),
                            op.name(),
                            failure,
                            (long) MAX_BACKOFF_SECONDS);
                }
                return (long) (backoff.nextDelay() * 1000);
            }
            if (op.method()
                    .equals(failingMethod)) { // another kind of request succeeding is not the
                // origin back
                log.warn(
                        "{}: publishing to {} again after {} s{}",
                        id,
                        base,
                        String.format("%.1f", backoff.recovered()),
                        dropped > 0 ? "; " + dropped + " files were dropped meanwhile" : "");
                failingMethod = null;
                dropped = 0;
            }
            if (op.method().equals("DELETE")) {
                onOrigin.remove(op.name());
                forget(op.name());
            } else if (op.version() == null) {
                files.remove(op.name());
                onOrigin.add(op.name());
            } else {
                Set<String> before = published.put(op.name(), op.version().names());
                publishedText.put(op.name(), op.version().text());
                if (playlists.get(op.name()) == op.version()) playlists.remove(op.name());
                if (before != null
                        && !deletesRefused) { // the delay of what it no longer names starts now,
                    // expired locally yet or not
                    long now = System.nanoTime();
                    for (String f : before) {
                        if (!op.version().names().contains(f)
                                && onOrigin.contains(f)
                                && !namedOnOrigin(f)) {
                            unnamedSince.putIfAbsent(f, now);
                        }
                    }
                }
            }
            if (dropped > 0 && files.isEmpty() && failingMethod == null) {
                if (dropped > 1)
                    log.warn(
                            "{}: publishing to {} caught up; {} files were dropped",
                            id,
                            base,
                            dropped);
                dropped = 0;
            }
            return 0;
        } finally {
            lock.unlock();
        }
    }

    private static String contentType(String name) {
        if (name.endsWith(".m3u8")) return "application/vnd.apple.mpegurl";
        if (name.endsWith(".ts")) return "video/mp2t";
        if (name.endsWith(".m4s")) return "video/iso.segment";
        if (name.endsWith(".mp4")) return "video/mp4";
        if (name.endsWith(".aac")) return "audio/aac";
        if (name.endsWith(".mp3")) return "audio/mpeg";
        return "application/octet-stream";
    }
}
