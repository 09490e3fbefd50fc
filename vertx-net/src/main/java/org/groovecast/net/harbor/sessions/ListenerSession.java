package org.groovecast.net.harbor.sessions;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.net.harbor.http.RequestHead;

/**
 * One listener as Icecast reports it: a connection to a mount, or an HLS client (its address, agent
 * and playlist folder, until it stops asking). Who (address, agent, referer, user), where (mount),
 * since when, and the bytes written to it so far: counted by the one thread that writes them, a
 * field and no object per chunk.
 */
public final class ListenerSession {
    private static final AtomicLong IDS = new AtomicLong();
    private static final VarHandle BYTES;

    static {
        try {
            BYTES =
                    MethodHandles.lookup()
                            .findVarHandle(ListenerSession.class, "bytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id = IDS.incrementAndGet();
    private final InetAddress address;
    private final String agent;
    private final String referer;
    private final String user;
    private final String request;
    private final String target;
    private final Map<String, String> headers;
    private final long startMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    private volatile String mount;

    /** Written by one thread at a time (the listener's event loop), read by any. */
    @SuppressWarnings("unused")
    private long bytes;

    /** When it ended (System.nanoTime()), or 0 while it goes on; for HLS, its last request. */
    private volatile long lastNanos;

    private volatile boolean ended;

    /** Disconnects it, for {@code /admin/killclient}; null for a client without a connection. */
    private final Runnable kick;

    /**
     * @param request the request line that began it ({@code GET /radio HTTP/1.1}), for the access
     *     log
     * @param user the user it logged in as, or null
     * @param kick what disconnects it, or null
     */
    public ListenerSession(
            InetAddress address, RequestHead head, String mount, String user, Runnable kick) {
        this.address = address;
        this.agent = head.header("user-agent");
        this.referer = head.header("referer");
        this.headers = head.headers();
        // As Icecast logs it: the path as sent, without its query (a token stays out of the log).
        int query = head.target().indexOf('?');
        this.request =
                head.method()
                        + " "
                        + (query < 0 ? head.target() : head.target().substring(0, query))
                        + " "
                        + head.version();
        this.target = head.target();
        this.mount = mount;
        this.user = user;
        this.kick = kick;
    }

    public long id() {
        return id;
    }

    public InetAddress address() {
        return address;
    }

    /** Its {@code User-Agent}, or null. */
    public String agent() {
        return agent;
    }

    /** Its {@code Referer}, or null. */
    public String referer() {
        return referer;
    }

    /** The user it logged in as, or null. */
    public String user() {
        return user;
    }

    /** The mount it listens to now (a move changes it), or an HLS client's folder. */
    public String mount() {
        return mount;
    }

    public void mount(String m) {
        mount = m;
    }

    /** The request line it began with, as the access log writes it. */
    String request() {
        return request;
    }

    /** When it began, epoch milliseconds. */
    public long startMillis() {
        return startMillis;
    }

    /**
     * Seconds connected, until now or until it ended, as Icecast counts them: the difference of the
     * two times in whole seconds of the clock (connected at 12:00:00.9 and gone at 12:00:02.1 is
     * 2), measured on the monotonic clock from the start.
     */
    public long seconds() {
        long until = ended ? lastNanos : System.nanoTime();
        long endMillis = startMillis + Math.max(0, (until - startNanos) / 1_000_000L);
        return endMillis / 1000 - startMillis / 1000;
    }

    /** Bytes written to it so far. */
    public long bytes() {
        return (long) BYTES.getOpaque(this);
    }

    /** {@code n} more bytes written; called by the one thread writing to it, allocating nothing. */
    public void wrote(long n) {
        BYTES.setOpaque(this, (long) BYTES.getOpaque(this) + n);
    }

    boolean ended() {
        return ended;
    }

    /** {@code n} more bytes written by any thread: an HLS client's requests, on any connection. */
    void wroteConcurrently(long n) {
        BYTES.getAndAdd(this, n);
    }

    /** How long an HLS session lasts without a request. */
    private volatile long hlsIdleNanos = 12_000_000_000L;

    long hlsIdleNanos() {
        return hlsIdleNanos;
    }

    void hlsIdleNanos(long nanos) {
        hlsIdleNanos = nanos;
    }

    /** An HLS client asked again. */
    void touched() {
        lastNanos = System.nanoTime();
    }

    long lastNanos() {
        return lastNanos;
    }

    /** It is over: for a connection, now; for an HLS client, at its last request. */
    public boolean end(boolean atLastRequest) {
        if (ended) return false;
        if (!atLastRequest || lastNanos == 0) lastNanos = System.nanoTime();
        ended = true;
        return true;
    }

    /** Disconnects it; false when it has no connection to close. */
    public boolean kick() {
        if (kick == null) return false;
        kick.run();
        return true;
    }

    /**
     * What a script's {@code onConnect} and {@code onDisconnect} get: {@code id}, {@code address},
     * {@code agent}, {@code referer}, {@code user}, {@code mount}, {@code uri} (the request's path
     * and query), {@code start} (epoch seconds), {@code seconds}, {@code bytes} and {@code headers}
     * (its request's, names in lower case), and each header also under its own lower-case name.
     */
    public Map<String, Object> view() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("address", address.getHostAddress());
        m.put("agent", agent);
        m.put("referer", referer);
        m.put("user", user);
        m.put("mount", mount);
        m.put("uri", target);
        m.put("start", startMillis / 1000);
        m.put("seconds", seconds());
        m.put("bytes", bytes());
        Map<String, String> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
        m.put("headers", java.util.Collections.unmodifiableMap(lower));
        // onConnect was called with the request headers alone before sessions: a script reading
        // h['user-agent'] keeps working (no header name is one of the keys above but referer,
        // whose value is the same).
        lower.forEach(m::putIfAbsent);
        return java.util.Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return "session " + id + " of " + address.getHostAddress() + " on " + mount;
    }
}
