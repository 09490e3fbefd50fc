package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.StreamContext;
import org.groovecast.net.live.LiveDecoding;
import org.groovecast.net.live.LivePipe;
import org.groovecast.net.live.LiveSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.rtmp(app:, key:)}: the audio of a stream published to this engine's RTMP server, as
 * a fallible source. It subscribes like a player; each publish session's messages become an FLV
 * byte stream (tag headers around the shared payloads, no copy) that FFmpeg decodes on a thread of
 * its own into a PCM ring the clock reads. Available once {@code buffer} seconds are decoded and
 * while the publisher streams.
 */
public final class RtmpInput extends LiveSource implements RtmpSubscriber {
    private static final Logger log = LoggerFactory.getLogger(RtmpInput.class);
    // The file header; each tag then brings the size of the one before it (0 for the first).
    private static final byte[] FLV_AUDIO_HEADER = {'F', 'L', 'V', 1, 0x04, 0, 0, 0, 9};
    private static final byte[] FLV_HEADER = {'F', 'L', 'V', 1, 0x05, 0, 0, 0, 9};

    private final RtmpServer server;
    private final String path;
    private final LiveDecoder decoder;
    private volatile Session session;
    private volatile boolean shutDown;

    /** The publisher's audio and video codec configurations (guarded by this). */
    private final StreamHeaders headers = new StreamHeaders();

    private AudioFormat format;

    private final boolean withVideo;

    /**
     * @param withVideo decode the stream's video into the graph's pictures too (when it has some)
     */
    public RtmpInput(
            RtmpServer server,
            String app,
            String key,
            LiveDecoder decoder,
            double bufferSeconds,
            double maxSeconds,
            boolean withVideo) {
        super("input.rtmp", bufferSeconds, maxSeconds);
        this.withVideo = withVideo;
        this.server = server;
        this.path = app + "/" + key;
        this.decoder = decoder;
    }

    @Override
    protected boolean wantsVideo() {
        return withVideo;
    }

    @Override
    public String endpoint() {
        return ":" + server.port() + "/" + path;
    }

    /** Whether a publisher streams to this input now. */
    @Override
    public boolean isConnected() {
        Session s = session;
        return s != null && !s.failed;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        super.onPrepare(context);
        format = context.format();
        server.watch(path, this);
    }

    @Override
    protected void onShutdown() {
        server.unwatch(path, this);
        shutDown = true;
        unpublished(); // the unwatch reaches the stream later: what this input holds goes now
    }

    // ---------------------------------------------------------------- the stream's side
    // (publisher's loop)

    @Override
    public synchronized void deliver(RtmpMessage m) {
        if (shutDown) return;
        // The decoder gets the audio, and the video when the graph takes it; data (metadata) it can
        // skip.
        if (m.type != RtmpMessage.AUDIO && (m.type != RtmpMessage.VIDEO || video == null)) return;
        headers.keep(m, false);
        Session s = session;
        if (s != null && s.failed) return; // undecodable: wait for the next publish
        if (s == null) {
            s = new Session();
            session = s;
            s.start();
            // A decoder restarted mid-stream needs the codec configurations before any frame.
            Session started = s;
            headers.forEach(
                    h -> {
                        if (h != m) started.tag(h);
                    });
        }
        s.tag(m);
    }

    @Override
    public synchronized void unpublished() {
        headers.clear();
        Session s = session;
        session = null;
        if (s != null) s.pipe.finish();
    }

    /** One publish session: its FLV stream and its decoding thread. */
    private final class Session {
        final LivePipe pipe = new LivePipe(4 << 20, LivePipe.seconds(10), () -> {}, () -> {});

        /** Publisher's loop only. */
        private int previousTagSize;

        /** The decoder gave up on this publish: no new decoder per message until the next one. */
        volatile boolean failed;

        void start() {
            pipe.offer(Unpooled.wrappedBuffer(video == null ? FLV_AUDIO_HEADER : FLV_HEADER));
            log.info(
                    "input.rtmp {}: publisher on; decoding its audio{}",
                    path,
                    video == null ? "" : " and video");
            // A platform thread: the decoder spends its time in native code, which would pin a
            // virtual one.
            Thread.ofPlatform().daemon().name("input.rtmp " + path).start(this::decode);
        }

        /**
         * One FLV tag: the previous tag's size and this one's 11-byte header in one buffer, then
         * the shared payload.
         */
        void tag(RtmpMessage m) {
            int size = m.payload.readableBytes();
            ByteBuf head = Unpooled.buffer(15);
            head.writeInt(previousTagSize)
                    .writeByte(m.type)
                    .writeMedium(size)
                    .writeMedium((int) m.timestamp)
                    .writeByte((int) (m.timestamp >>> 24))
                    .writeMedium(0);
            previousTagSize = 11 + size;
            pipe.offer(head);
            pipe.offer(m.payload.retainedDuplicate());
        }

        private void decode() {
            try {
                // A newer publish's decoder owns the buffer (one writer): this one's tail is
                // dropped.
                LiveDecoding.run(
                        decoder,
                        pipe,
                        "video/x-flv",
                        format,
                        video,
                        context(),
                        () -> session == this || session == null ? RtmpInput.this : null);
            } catch (IOException | RuntimeException e) {
                failed = true;
                log.warn("input.rtmp {}: the stream cannot be decoded: {}", path, e.getMessage());
            } finally {
                pipe.close();
                synchronized (RtmpInput.this) {
                    // Ended by itself (no data for a while): the next message starts a decoder
                    // again.
                    if (!failed && session == this) session = null;
                }
                log.info("input.rtmp {}: publisher off", path);
            }
        }
    }
}
