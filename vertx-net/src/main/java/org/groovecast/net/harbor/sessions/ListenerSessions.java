package org.groovecast.net.harbor.sessions;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.groovecast.net.harbor.http.RequestHead;

/**
 * The listener sessions of one harbor port: those of its mounts, begun when a listener is attached
 * and ended when its connection closes, and those of the HLS clients of its static folders, begun
 * by a playlist request and ended once two target durations pass without a request of that client
 * (address, agent, folder). An ended session is written to the access log, once.
 */
public final class ListenerSessions {
    /** An HLS client: no connection of its own, only its requests. */
    private record HlsClient(InetAddress address, String agent, String folder) {}

    private final ConcurrentHashMap<Long, ListenerSession> open = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<HlsClient, ListenerSession> hls = new ConcurrentHashMap<>();
    private volatile AccessLog accessLog = AccessLog.OFF;
    private final java.util.concurrent.atomic.AtomicLong begun =
            new java.util.concurrent.atomic.AtomicLong();

    public void accessLog(AccessLog log) {
        accessLog = log;
    }

    AccessLog accessLog() {
        return accessLog;
    }

    /** A listener attached to {@code mount}; {@code kick} disconnects it. */
    public ListenerSession begin(
            InetAddress address, RequestHead head, String mount, String user, Runnable kick) {
        ListenerSession s = new ListenerSession(address, head, mount, user, kick);
        open.put(s.id(), s);
        begun.incrementAndGet();
        return s;
    }

    /** Its connection closed: the session ends, its line is written, {@code then} gets it. */
    public void end(ListenerSession s, Consumer<ListenerSession> then) {
        if (!s.end(false)) return;
        open.remove(s.id());
        accessLog.finished(s);
        if (then != null) then.accept(s);
    }

    /**
     * A request of an HLS client for a file of {@code folder}: a playlist begins its session if it
     * has none, any file continues it; {@code bytes} were written. {@code idleNanos} is how long
     * the session lasts without a request (two target durations), known from playlists; 0 keeps
     * what the session had.
     */
    public void hlsRequest(
            InetAddress address,
            RequestHead head,
            String folder,
            boolean playlist,
            long bytes,
            long idleNanos) {
        HlsClient key = new HlsClient(address, head.header("user-agent"), folder);
        ListenerSession s = hls.get(key);
        if (s == null || s.ended()) {
            if (!playlist) return; // a file without a playlist: no HLS client, no session
            s =
                    hls.compute(
                            key,
                            (k, had) ->
                                    had != null && !had.ended()
                                            ? had
                                            : new ListenerSession(
                                                    address, head, folder, null, null));
            if (open.putIfAbsent(s.id(), s) == null) begun.incrementAndGet();
        }
        if (idleNanos > 0) s.hlsIdleNanos(idleNanos);
        s.touched();
        s.wroteConcurrently(bytes);
    }

    /** Ends the HLS sessions whose clients stopped asking; called about once a second. */
    public void sweep(long now) {
        for (var e : hls.entrySet()) {
            ListenerSession s = e.getValue();
            if (s.ended() || now - s.lastNanos() > s.hlsIdleNanos()) endHls(e.getKey(), s);
        }
    }

    /** The port closes: every HLS session ends at its last request, and is logged. */
    public void endAllHls() {
        for (var e : hls.entrySet()) endHls(e.getKey(), e.getValue());
    }

    private void endHls(HlsClient key, ListenerSession s) {
        if (hls.remove(key, s) && s.end(true)) {
            open.remove(s.id());
            accessLog.finished(s);
        }
    }

    /** The sessions going on at {@code mount}, oldest first. */
    public List<ListenerSession> on(String mount) {
        List<ListenerSession> out = new ArrayList<>();
        for (ListenerSession s : open.values()) if (Objects.equals(s.mount(), mount)) out.add(s);
        out.sort(Comparator.comparingLong(ListenerSession::id));
        return out;
    }

    /** The session {@code id} going on, or null. */
    public ListenerSession get(long id) {
        return open.get(id);
    }

    /**
     * Ends an HLS session now (killed): its client's next request begins another after a playlist.
     */
    public boolean endHls(ListenerSession s) {
        for (var e : hls.entrySet()) {
            if (e.getValue() == s) {
                endHls(e.getKey(), s);
                return true;
            }
        }
        return false;
    }

    /** Sessions begun since the port was made (Icecast's {@code listener_connections}). */
    public long begun() {
        return begun.get();
    }

    public int size() {
        return open.size();
    }
}
