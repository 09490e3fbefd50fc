package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.PlatformDependent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.harbor.http.ClientText;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.RequestReader;
import org.groovecast.net.harbor.http.Responses;
import org.groovecast.net.harbor.sessions.ListenerSession;
import org.groovecast.net.harbor.sessions.ListenerSessions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener mount served by the harbor: encoded chunks published by an output's clock are shared
 * by every listener, by reference (each listener's socket gets a retained view of the same buffer,
 * never a copy). Listeners are grouped by the event loop that owns their connection, so a chunk
 * crosses threads once per event loop, through a bounded queue, and each loop touches only its own
 * listeners. A listener whose socket falls more than {@code maxBuffer} bytes behind is disconnected
 * alone; the clock never waits for anyone.
 *
 * <p>Each loop's shard owns the chunks queued for it and those it keeps for the burst; the mount
 * lets them go when it is gone ({@link #close}: a reload that drops it, or its harbor closing with
 * the station), the burst kept as long as the mount is (a reload that keeps the mount keeps it). A
 * loop gets its shard with its first listener, so the mount keeps a burst of its own too, which a
 * new shard starts from: the first listener on a loop gets the burst like every other.
 */
public final class HarborMount {
    private static final Logger log = LoggerFactory.getLogger(HarborMount.class);

    /** Chunks waiting for one event loop; about a second and a half of 20 ms chunks. */
    private static final int QUEUE = 64;

    static final int ICY_METAINT = 16_000;

    /**
     * Web players fetch the stream from another origin: any page may, and may read the icy headers
     * (a browser hides response headers from a cross-origin script unless they are exposed).
     */
    private static final String EXPOSED =
            "icy-br, icy-description, icy-genre, icy-metaint, icy-name, icy-pub, icy-url";

    private final String path;
    private final String contentType;
    private final int burst;
    private final int maxBuffer;

    /**
     * The burst a new shard starts from; guarded by itself, which also makes publishing a chunk and
     * adding a shard one after the other, so that a chunk is either in a new shard's burst or in
     * its queue, never both or neither.
     */
    private final RecentChunks history;

    private volatile Map<String, String> icyHeaders;
    private final List<Shard> shards = new CopyOnWriteArrayList<>();
    private final Map<EventExecutor, Shard> byLoop = new ConcurrentHashMap<>();
    private final AtomicInteger listeners = new AtomicInteger();
    private final AtomicInteger listenerPeak = new AtomicInteger();
    private final long createdAt = System.currentTimeMillis();
    private final AtomicLong bytesOut = new AtomicLong();
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile ByteBuf icyBlock = icy(null);
    private volatile Consumer<ListenerSession> onConnect;
    private volatile Consumer<ListenerSession> onDisconnect;
    private volatile String title;

    /** What the encoder makes, for {@code /admin/stats}: null until its output opened. */
    private volatile AudioInfo audio;

    /**
     * The stream as Icecast describes a source's: channels, sample rate, nominal kbit/s (0: none).
     */
    public record AudioInfo(int channels, int sampleRate, int bitrate) {}

    private volatile java.util.function.BiPredicate<String, String> auth;
    private volatile MountAdmission admission = MountAdmission.OPEN;

    /**
     * Gone: a shard made from now on (a listener whose login was still running) retires at once.
     */
    private volatile boolean closed;

    /**
     * @param burst bytes of recent stream a new listener gets at once, so playback starts quickly
     * @param maxBuffer bytes a listener may fall behind before it is dropped
     */
    public HarborMount(
            String path,
            String contentType,
            int burst,
            int maxBuffer,
            Map<String, String> icyHeaders) {
        this.path = path;
        this.contentType = contentType;
        this.burst = burst;
        this.maxBuffer = maxBuffer;
        this.history = new RecentChunks(burst);
        icyHeaders(icyHeaders);
    }

    public String path() {
        return path;
    }

    public String contentType() {
        return contentType;
    }

    /** The station name listeners see ({@code icy-name}), or null when the mount has none. */
    public String name() {
        return icyHeaders.get("icy-name");
    }

    /** The {@code icy-*} headers every listener gets. */
    public Map<String, String> icyHeaders() {
        return icyHeaders;
    }

    /**
     * The headers new listeners get from now on: a reloaded script that keeps the mount (and its
     * listeners) may name the station anew, or encode at another bit rate.
     */
    public void icyHeaders(Map<String, String> headers) {
        icyHeaders =
                java.util.Collections.unmodifiableMap(
                        new java.util.LinkedHashMap<>(headers)); // in the script's order
    }

    public int listeners() {
        return listeners.get();
    }

    /**
     * The most listeners connected at once since the mount was made (Icecast's {@code
     * listener_peak}).
     */
    public int listenerPeak() {
        return listenerPeak.get();
    }

    /** When the mount was made (epoch milliseconds): a reload keeps the mount, and so this. */
    public long createdAt() {
        return createdAt;
    }

    /** Bytes of stream published to the mount so far (Icecast's {@code total_bytes_read}). */
    public long bytesIn() {
        return bytesIn.get();
    }

    /** Bytes written to listener sockets so far. */
    public long bytesOut() {
        return bytesOut.get();
    }

    /**
     * Called off the event loop with each new listener's session (no bytes yet, the burst aside);
     * null for none.
     */
    public void onConnect(Consumer<ListenerSession> callback) {
        onConnect = callback;
    }

    /** Called off the event loop with each listener's session once it ended; null for none. */
    public void onDisconnect(Consumer<ListenerSession> callback) {
        onDisconnect = callback;
    }

    /** The title listeners are told now ({@code artist - title}), or null before the first. */
    public String title() {
        return title;
    }

    public AudioInfo audio() {
        return audio;
    }

    /** What the output's encoder makes, once it opened. */
    public void audio(AudioInfo info) {
        audio = info;
    }

    /** Listeners must then give a user and password this accepts (HTTP Basic); others get 401. */
    public void auth(java.util.function.BiPredicate<String, String> check) {
        auth = check;
    }

    /**
     * The listeners' login check (script code: run off the event loop), or null when the mount is
     * open.
     */
    java.util.function.BiPredicate<String, String> auth() {
        return auth;
    }

    /**
     * Who may listen from now on, and for how long ({@code maxListeners}, {@code
     * maxListenerDuration}, {@code deny}, {@code admit}): a reload's rules apply to the listeners
     * that come after it, those connected keep their time limit.
     */
    public void admission(MountAdmission rules) {
        admission = rules;
    }

    MountAdmission admission() {
        return admission;
    }

    /** Whether {@code rules} cap the mount and it is at its cap. */
    boolean full(MountAdmission rules) {
        return rules.maxListeners() > 0 && listeners.get() >= rules.maxListeners();
    }

    /**
     * Takes a listener's place under {@code rules}' cap (0: none), before the listener is attached;
     * false when there is none left. Compared and set, so that loops attaching at once never pass
     * the cap.
     */
    boolean seat(MountAdmission rules) {
        int max = rules.maxListeners();
        while (true) {
            int n = listeners.get();
            if (max > 0 && n >= max) return false;
            if (listeners.compareAndSet(n, n + 1)) {
                listenerPeak.accumulateAndGet(n + 1, Math::max);
                return true;
            }
        }
    }

    /**
     * The mount is gone (a reload dropped it, or its harbor closed): disconnects every listener and
     * releases the chunks each loop holds, queued or kept for the burst, each loop its own; chunks
     * still published to it (the replaced station's last ones) are released as they come. Completes
     * once every loop let go; idempotent.
     */
    public CompletableFuture<Void> close() {
        closed = true;
        synchronized (history) {
            history.release();
        }
        List<CompletableFuture<Void>> released = new ArrayList<>();
        for (Shard s : shards) {
            try {
                released.add(CompletableFuture.runAsync(s::retire, s.loop));
            } catch (RejectedExecutionException e) {
                s.retire(); // the loop has shut down: nothing else touches its shard any more
            }
        }
        return CompletableFuture.allOf(released.toArray(CompletableFuture[]::new));
    }

    /** Sets the title listeners with {@code Icy-MetaData: 1} see next (StreamTitle). */
    public void metadata(String title) {
        this.title = title;
        icyBlock = icy(title);
    }

    /**
     * Publishes a chunk of the encoded stream; called by the clock. Takes ownership of {@code
     * chunk}. When an event loop is more than {@link #QUEUE} chunks behind the chunk is dropped for
     * its listeners rather than waited for.
     */
    public void publish(ByteBuf chunk) {
        bytesIn.addAndGet(chunk.readableBytes());
        synchronized (history) {
            if (burst > 0 && !closed) history.keep(chunk.retain());
            for (Shard s : shards) {
                ByteBuf ref = chunk.retain();
                if (s.queue.offer(ref)) {
                    s.wake();
                } else {
                    ref.release();
                    if (dropped.getAndIncrement() % 1000 == 0)
                        log.warn("mount {}: an event loop is behind; chunks dropped", path);
                }
            }
        }
        chunk.release();
    }

    /**
     * Attaches a listener connection (on its event loop), whose place {@link #seat} took: sends the
     * response head, the burst, then the stream, and closes it once {@code rules}' time limit is
     * up.
     */
    void attach(
            ChannelHandlerContext ctx,
            RequestHead head,
            String peer,
            ListenerSession session,
            ListenerSessions sessions,
            MountAdmission rules) {
        Shard shard = shard(ctx.executor());
        // After adding the shard, read closed: either close() saw the shard or we see closed.
        if (closed) {
            listeners.decrementAndGet();
            shard.retire();
            ctx.close();
            sessions.end(session, null);
            return;
        }
        boolean icy = wantsIcy(head);
        ByteBuf answer = responseHead(ctx.alloc(), head);
        session.wrote(answer.readableBytes());
        ctx.write(answer, ctx.voidPromise());
        Channel ch = ctx.channel();
        ch.config()
                .setWriteBufferWaterMark(
                        new WriteBufferWaterMark(Math.max(1, maxBuffer / 2), maxBuffer));
        // A fixed kernel buffer (no autotuning to megabytes), so that a stalled listener shows
        // within maxBuffer.
        ch.config()
                .setOption(
                        ChannelOption.SO_SNDBUF, Math.clamp(maxBuffer / 2, 16 * 1024, 1024 * 1024));
        Listener l = new Listener(ctx, icy, peer, session, sessions);
        shard.add(l);
        l.removeOnClose(shard);
        if (rules.maxDurationNanos() > 0) timeLimit(ctx, peer, rules.maxDurationNanos());
        Consumer<ListenerSession> c = onConnect;
        if (c != null) Thread.startVirtualThread(() -> c.accept(session));
        log.info(
                "mount {}: listener {} connected, agent {} ({} now)",
                path,
                peer,
                ClientText.quoted(head.header("user-agent")),
                listeners.get());
    }

    /**
     * Closes the listener once {@code nanos} have passed ({@code maxListenerDuration}): one timer
     * on its loop, cancelled if it leaves first.
     */
    private void timeLimit(ChannelHandlerContext ctx, String peer, long nanos) {
        ScheduledFuture<?> cut =
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (!ctx.channel().isActive()) return;
                                    log.info(
                                            "mount {}: listener {} reached maxListenerDuration ({} s); disconnected",
                                            path,
                                            peer,
                                            RequestReader.secondsText(nanos));
                                    ctx.close();
                                },
                                nanos,
                                TimeUnit.NANOSECONDS);
        ctx.channel().closeFuture().addListener(f -> cut.cancel(false));
    }

    /** The shard of {@code loop}, made with the mount's burst; called on that loop. */
    private Shard shard(EventExecutor loop) {
        return byLoop.computeIfAbsent(
                loop,
                l -> {
                    Shard s = new Shard(l);
                    synchronized (history) {
                        history.forEach(b -> s.recent.keep(b.retain()));
                        shards.add(s);
                    }
                    return s;
                });
    }

    /**
     * Moves every listener to {@code dest} ({@code /admin/moveclients}): each goes on with {@code
     * dest}'s stream from its next chunk, on its connection, with its session. False (nothing
     * moved) when {@code dest} streams another format, which its players could not decode.
     */
    public boolean moveTo(HarborMount dest) {
        if (dest == this || !dest.contentType.equals(contentType)) return false;
        for (Shard s : shards) {
            try {
                s.loop.execute(() -> s.moveTo(dest));
            } catch (RejectedExecutionException e) {
                // the loop has shut down: its listeners are gone with it
            }
        }
        return true;
    }

    /**
     * The head of a listener's response: a {@code HEAD} request gets it alone, so a player probing
     * the mount sees exactly what it will get when it plays.
     */
    ByteBuf responseHead(ByteBufAllocator alloc, RequestHead head) {
        Map<String, String> h = new java.util.LinkedHashMap<>();
        h.put("Content-Type", contentType);
        h.put("Cache-Control", "no-cache, no-store");
        h.putAll(icyHeaders);
        if (wantsIcy(head)) h.put("icy-metaint", String.valueOf(ICY_METAINT));
        h.put("Access-Control-Allow-Origin", "*");
        h.put("Access-Control-Expose-Headers", EXPOSED);
        return Responses.head(alloc, "HTTP/1.0", 200, h, -1, false);
    }

    private static boolean wantsIcy(RequestHead head) {
        return "1".equals(head.header("icy-metadata"));
    }

    private static ByteBuf icy(String title) {
        byte[] text =
                title == null
                        ? new byte[0]
                        : ("StreamTitle='" + title.replace("'", "\u2019") + "';")
                                .getBytes(StandardCharsets.UTF_8);
        int blocks = Math.min(255, (text.length + 15) / 16);
        byte[] block = new byte[1 + blocks * 16];
        block[0] = (byte) blocks;
        System.arraycopy(text, 0, block, 1, Math.min(text.length, blocks * 16));
        // Shared by every listener and replaced, not freed, when the title changes: a heap buffer
        // the GC owns.
        return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(block));
    }

    /** The listeners on one event loop, and the chunks queued for them. */
    private final class Shard implements Runnable {
        final EventExecutor loop;
        final Queue<ByteBuf> queue = PlatformDependent.newFixedMpscQueue(QUEUE);
        final List<Listener> members = new ArrayList<>();
        final RecentChunks recent = new RecentChunks(burst);
        final AtomicInteger scheduled = new AtomicInteger();

        /** The mount is gone: nothing is kept from now on, what comes is released. */
        boolean retired;

        Shard(EventExecutor loop) {
            this.loop = loop;
        }

        void wake() {
            if (scheduled.compareAndSet(0, 1)) loop.execute(this);
        }

        /** Delivers what is queued; runs on the loop. */
        @Override
        public void run() {
            scheduled.set(0);
            if (retired) { // checked once a wake-up, not per chunk
                releaseHeld();
                return;
            }
            ByteBuf chunk;
            while ((chunk = queue.poll()) != null) {
                int sent = 0;
                for (int i = members.size() - 1; i >= 0; i--) {
                    if (members.get(i).send(chunk, this)) sent++;
                }
                // One update per chunk and loop, not per listener: the counter is shared by every
                // loop.
                bytesOut.addAndGet((long) sent * chunk.readableBytes());
                for (Listener l : members) l.ctx.flush();
                recent.keep(chunk); // our reference moves to the burst history
            }
        }

        /** Disconnects the loop's listeners and lets go of its chunks; runs on the loop. */
        void retire() {
            if (retired) return;
            retired = true;
            for (Listener l : new ArrayList<>(members)) l.ctx.close();
            releaseHeld();
        }

        /** Each chunk queued or kept here holds one reference of ours: released once, here. */
        private void releaseHeld() {
            ByteBuf chunk;
            while ((chunk = queue.poll()) != null) chunk.release();
            recent.release();
        }

        void add(Listener l) {
            members.add(l);
            recent.forEach(
                    b -> {
                        if (l.send(b, this)) bytesOut.addAndGet(b.readableBytes());
                    });
            l.ctx.flush();
        }

        void remove(Listener l) {
            if (members.remove(l)) {
                listeners.decrementAndGet();
                log.info(
                        "mount {}: listener {} left after {} s, {} bytes ({} now)",
                        path,
                        l.peer,
                        l.session.seconds(),
                        l.session.bytes(),
                        listeners.get());
                Consumer<ListenerSession> d = onDisconnect;
                l.sessions.end(
                        l.session,
                        d == null ? null : s -> Thread.startVirtualThread(() -> d.accept(s)));
            }
        }

        /**
         * Hands this loop's listeners to {@code dest}'s shard on the same loop; runs on the loop.
         */
        void moveTo(HarborMount dest) {
            if (retired || members.isEmpty()) return;
            Shard there = dest.shard(loop);
            if (dest.closed) return;
            for (Listener l : new ArrayList<>(members)) {
                members.remove(l);
                listeners.decrementAndGet();
                Listener moved = dest.new Listener(l);
                there.members.add(moved);
                dest.listenerPeak.accumulateAndGet(dest.listeners.incrementAndGet(), Math::max);
                moved.removeOnClose(there);
                l.session.mount(dest.path);
                log.info("mount {}: listener {} moved to {}", path, l.peer, dest.path);
            }
        }
    }

    /** One listener socket; touched only on its event loop. */
    private final class Listener {
        final ChannelHandlerContext ctx;
        final boolean icy;
        final String peer;
        final ListenerSession session;
        final ListenerSessions sessions;
        int untilMeta = ICY_METAINT;
        boolean dropping;

        Listener(
                ChannelHandlerContext ctx,
                boolean icy,
                String peer,
                ListenerSession session,
                ListenerSessions sessions) {
            this.ctx = ctx;
            this.icy = icy;
            this.peer = peer;
            this.session = session;
            this.sessions = sessions;
        }

        /** {@code from}, moved to this mount: where its ICY count stands goes with it. */
        Listener(HarborMount.Listener from) {
            this(from.ctx, from.icy, from.peer, from.session, from.sessions);
            untilMeta = from.untilMeta;
        }

        /** Leaves {@code shard} when its connection closes (on the shard's loop). */
        void removeOnClose(Shard shard) {
            ctx.channel()
                    .closeFuture()
                    .addListener(f -> shard.loop.execute(() -> shard.remove(this)));
        }

        /**
         * Writes a view of the chunk; returns whether it was written (the caller counts the bytes).
         */
        boolean send(ByteBuf chunk, Shard shard) {
            if (dropping) return false;
            if (!ctx.channel().isActive()) {
                dropping = true; // gone: the close handler removes it
                return false;
            }
            if (!ctx.channel().isWritable()) {
                dropping = true;
                log.warn(
                        "mount {}: listener {} fell more than {} bytes behind; disconnected",
                        path,
                        peer,
                        maxBuffer);
                ctx.close();
                return false;
            }
            int n = chunk.readableBytes();
            if (!icy) {
                ctx.write(chunk.retainedDuplicate(), ctx.voidPromise());
                session.wrote(n);
                return true;
            }
            // ICY: a metadata block every ICY_METAINT bytes of audio, this listener's own count.
            int at = chunk.readerIndex();
            int left = n;
            while (left > 0) {
                int k = Math.min(left, untilMeta);
                ctx.write(chunk.retainedSlice(at, k), ctx.voidPromise());
                at += k;
                left -= k;
                untilMeta -= k;
                if (untilMeta == 0) {
                    ByteBuf meta = icyBlock.duplicate();
                    n += meta.readableBytes();
                    ctx.write(meta, ctx.voidPromise());
                    untilMeta = ICY_METAINT;
                }
            }
            session.wrote(n);
            return true;
        }
    }
}
