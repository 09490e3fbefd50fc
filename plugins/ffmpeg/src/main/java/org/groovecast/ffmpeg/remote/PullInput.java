package org.groovecast.ffmpeg.remote;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveBuffer;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.ffmpeg(url)} and {@code input.http(url)}: a remote stream that FFmpeg reads
 * (Icecast, Shoutcast, HLS, SRT...), decoded by a {@link RemoteFeed} on a thread of its own into a
 * {@link LiveBuffer} that the clock reads, as {@code input.harbor} does for a DJ. Available once
 * {@code buffer} seconds are in and while the remote plays (fallible). The feed starts with the
 * first tick that asks for this source; a reload that declares the same input again (kind, URL,
 * options, buffer and max) takes the feed over, connection and buffer, so the relay goes on without
 * a gap.
 */
final class PullInput extends Source implements RemoteFeed.Target {
    private static final Logger log = LoggerFactory.getLogger(PullInput.class);

    private final String url;
    private final AVInputFormat format;
    private final Map<String, String> options;
    private final double timeout;
    private final double bufferSeconds;
    private final double maxSeconds;
    private volatile LiveBuffer buffer;
    private volatile RemoteFeed feed;
    private RemoteFeed.Remote remote;
    private boolean shutDown;

    /**
     * @param kind {@code input.http} or {@code input.ffmpeg}, for ids and log lines
     * @param format the demuxer to use, or null to probe
     * @param options demuxer and protocol options, as {@code ffmpeg -i} takes them
     */
    PullInput(
            String kind,
            String url,
            AVInputFormat format,
            Map<String, String> options,
            double timeout,
            double bufferSeconds,
            double maxSeconds) {
        super(kind);
        this.url = url;
        this.format = format;
        this.timeout = timeout;
        this.bufferSeconds = bufferSeconds;
        this.maxSeconds = maxSeconds;
        Map<String, String> o = new LinkedHashMap<>();
        // A protocol's own read timeout backs the interrupt callback up (microseconds); the
        // interrupter goes first.
        o.put("rw_timeout", Long.toString((long) ((timeout + 1) * 1e6)));
        o.putAll(options);
        this.options = Map.copyOf(o);
    }

    /** A reload keeps an unnamed input that reads the same URL. */
    @Override
    public String endpoint() {
        return url;
    }

    /** Whether the remote is connected and decoding now. */
    public boolean isConnected() {
        RemoteFeed f = feed;
        return f != null && f.connected();
    }

    @Override
    public boolean isReady() {
        LiveBuffer b = buffer;
        if (b == null) return false;
        RemoteFeed f = feed;
        if (f == null) f = startFeed();
        return b.isReady(f != null && f.connected());
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        buffer = new LiveBuffer(context.format(), bufferSeconds, maxSeconds, null);
        remote =
                new RemoteFeed.Remote(
                        kind(),
                        url,
                        format,
                        options,
                        timeout,
                        context.format(),
                        bufferSeconds,
                        maxSeconds);
    }

    /** On the clock, once: starting a thread blocks on nothing. */
    private synchronized RemoteFeed startFeed() {
        if (shutDown) return null;
        if (feed == null) {
            RemoteFeed f = new RemoteFeed(remote, this);
            f.start();
            feed = f;
        }
        return feed;
    }

    @Override
    protected void generate(Frame frame) {
        ClockInfo clock = getClock();
        buffer.read(frame, clock == null ? 0 : clock.getTicks());
    }

    /** A reload: the same remote's feed goes on into this input, its buffer with it. */
    @Override
    protected synchronized void adopt(Source previous) {
        PullInput p = (PullInput) previous;
        RemoteFeed f;
        synchronized (p) {
            f = p.feed;
            if (f == null || !f.remote().equals(remote))
                return; // not running, or not the same: a feed of its own
            p.feed = null;
        }
        buffer = p.buffer;
        f.moveTo(this);
        feed = f;
        log.info("{} {}: kept across the reload", kind(), url);
    }

    @Override
    protected void onShutdown() {
        RemoteFeed f;
        synchronized (this) {
            shutDown = true;
            f = feed;
            feed = null;
        }
        if (f != null) f.stop();
    }

    @Override
    public LiveBuffer buffer() {
        return buffer;
    }

    @Override
    public void tags(Map<String, String> tags) {
        insertMetadata(tags);
    }
}
