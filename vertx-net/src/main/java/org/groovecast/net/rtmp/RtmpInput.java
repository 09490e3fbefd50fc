package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.StreamContext;
import org.groovecast.net.live.LiveDecoding;
import org.groovecast.net.live.LiveSource;
import org.groovecast.net.live.LivePipe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.rtmp(app:, key:)}: the audio of a stream published to this engine's RTMP server,
 * as a fallible source. It subscribes like a player; each publish session's messages become an
 * FLV byte stream (tag headers around the shared payloads, no copy) that FFmpeg decodes on a
 * thread of its own into a PCM ring the clock reads. Available once {@code buffer} seconds are
 * decoded and while the publisher streams.
 */
public final class RtmpInput extends LiveSource implements RtmpSubscriber {
    private static final Logger log = LoggerFactory.getLogger(RtmpInput.class);
    private static final byte[] FLV_AUDIO_HEADER = {'F', 'L', 'V', 1, 0x04, 0, 0, 0, 9, 0, 0, 0, 0};
    private static final byte[] FLV_HEADER = {'F', 'L', 'V', 1, 0x05, 0, 0, 0, 9, 0, 0, 0, 0};

    private final RtmpServer server;
    private final String path;
    private final LiveDecoder decoder;
    private volatile Session session;
    /** The publisher's audio and video codec configurations (its loop only). */
    private final RtmpMessage[] headers = new RtmpMessage[2];
    private AudioFormat format;

    private final boolean withVideo;

    /** @param withVideo decode the stream's video into the graph's pictures too (when it has some) */
    public RtmpInput(RtmpServer server, String app, String key, LiveDecoder decoder, double bufferSeconds, double maxSeconds,
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
        return session != null;
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
        Session s = session;
        session = null;
        if (s != null) s.pipe.finish();
    }

    // ---------------------------------------------------------------- the stream's side (publisher's loop)

    @Override
    public void deliver(RtmpMessage m) {
        // The decoder gets the audio, and the video when the graph takes it; data (metadata) it can skip.
        int kind = m.type == RtmpMessage.AUDIO ? 0 : m.type == RtmpMessage.VIDEO && video != null ? 1 : -1;
        if (kind < 0) return;
        if (m.sequenceHeader) {
            RtmpMessage old = headers[kind];
            m.payload.retain();
            headers[kind] = m;
            if (old != null) old.payload.release();
        }
        Session s = session;
        if (s == null) {
            s = new Session();
            session = s;
            s.start();
            // A decoder restarted mid-stream needs the codec configurations before any frame.
            for (RtmpMessage h : headers) if (h != null && h != m) s.tag(h);
        }
        s.tag(m);
    }

    @Override
    public void unpublished() {
        for (int i = 0; i < headers.length; i++) {
            if (headers[i] != null) headers[i].payload.release();
            headers[i] = null;
        }
        Session s = session;
        session = null;
        if (s != null) s.pipe.finish();
    }

    /** One publish session: its FLV stream and its decoding thread. */
    private final class Session {
        final LivePipe pipe = new LivePipe(4 << 20, LivePipe.seconds(10), () -> { }, () -> { });

        void start() {
            pipe.offer(Unpooled.wrappedBuffer(video == null ? FLV_AUDIO_HEADER : FLV_HEADER));
            log.info("input.rtmp {}: publisher on; decoding its audio{}", path, video == null ? "" : " and video");
            // A platform thread: the decoder spends its time in native code, which would pin a virtual one.
            Thread.ofPlatform().daemon().name("input.rtmp " + path).start(this::decode);
        }

        /** One FLV tag: an 11-byte header, the shared payload, the 4-byte tag size after it. */
        void tag(RtmpMessage m) {
            int size = m.payload.readableBytes();
            ByteBuf head = Unpooled.buffer(11);
            head.writeByte(m.type).writeMedium(size).writeMedium((int) m.timestamp).writeByte((int) (m.timestamp >>> 24))
                    .writeMedium(0);
            pipe.offer(head);
            pipe.offer(m.payload.retainedDuplicate());
            pipe.offer(Unpooled.buffer(4).writeInt(11 + size));
        }

        private void decode() {
            try {
                LiveDecoding.run(decoder, pipe, "video/x-flv", format, video, scalingThreads, () -> RtmpInput.this);
            } catch (IOException | RuntimeException e) {
                log.warn("input.rtmp {}: the stream cannot be decoded: {}", path, e.getMessage());
            } finally {
                pipe.close();
                if (session == this) session = null;
                log.info("input.rtmp {}: publisher off", path);
            }
        }
    }
}
