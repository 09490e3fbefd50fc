package org.groovecast.ffmpeg;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveBuffer;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.ffmpeg(url)} and {@code input.http(url)}: a remote stream that FFmpeg reads
 * (Icecast, Shoutcast, HLS, SRT...), decoded on a thread of its own into a {@link LiveBuffer} that
 * the clock reads, as {@code input.harbor} does for a DJ. Available once {@code buffer} seconds are
 * in and while the remote plays (fallible). When the remote ends, fails, sends what cannot be
 * decoded or sends nothing for {@code timeout} seconds (every blocking call is bounded by an
 * {@link Interrupter}), the thread connects again after a jittered backoff; each outage is logged
 * once, and its end. Its ICY titles and tags are inserted as metadata when they change.
 */
final class PullInput extends Source {
    private static final Logger log = LoggerFactory.getLogger(PullInput.class);
    /** Samples decoded per read: small, so that the stall deadline is set often. */
    private static final int BLOCK = 1024;
    /**
     * Seconds of audio a connection must bring to count as back: one that plays a moment and
     * stalls again is still the same outage (no "back" line, the backoff goes on growing).
     */
    private static final double HOLDS = 5;

    private final String url;
    private final AVInputFormat format;
    private final Map<String, String> options;
    private final double timeout;
    private final double bufferSeconds;
    private final double maxSeconds;
    private volatile LiveBuffer buffer;
    private volatile boolean connected;
    private volatile boolean stopped;
    private volatile Interrupter current;
    private AudioFormat audio;
    private Thread thread;

    /**
     * @param kind    {@code input.http} or {@code input.ffmpeg}, for ids and log lines
     * @param format  the demuxer to use, or null to probe
     * @param options demuxer and protocol options, as {@code ffmpeg -i} takes them
     */
    PullInput(String kind, String url, AVInputFormat format, Map<String, String> options, double timeout,
              double bufferSeconds, double maxSeconds) {
        super(kind);
        this.url = url;
        this.format = format;
        this.timeout = timeout;
        this.bufferSeconds = bufferSeconds;
        this.maxSeconds = maxSeconds;
        Map<String, String> o = new LinkedHashMap<>();
        // A protocol's own read timeout backs the interrupt callback up (microseconds).
        o.put("rw_timeout", Long.toString((long) ((timeout + 1) * 1e6))); // the interrupter goes first
        o.putAll(options);
        this.options = Map.copyOf(o);
    }

    String url() {
        return url;
    }

    /** Whether the remote is connected and decoding now. */
    public boolean isConnected() {
        return connected;
    }

    @Override
    public boolean isReady() {
        LiveBuffer b = buffer;
        return b != null && b.isReady(connected);
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        audio = context.format();
        buffer = new LiveBuffer(audio, bufferSeconds, maxSeconds, null);
        // A platform thread: the decoder spends its time in native code, which would pin a virtual one.
        thread = Thread.ofPlatform().daemon().name(kind() + " " + url).start(this::run);
    }

    @Override
    protected void generate(Frame frame) {
        ClockInfo clock = getClock();
        buffer.read(frame, clock == null ? 0 : clock.getTicks());
    }

    @Override
    protected void onShutdown() {
        stopped = true;
        Interrupter i = current;
        if (i != null) i.stop();
        Thread t = thread;
        if (t == null) return;
        t.interrupt();
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- the decoding thread

    private void run() {
        try {
            readUntilStopped();
        } catch (Throwable t) { // a bug, not the network: say so rather than go silent forever
            log.error("{} {}: the decoding thread stopped: {}", kind(), url, t.toString(), t);
        }
    }

    private void readUntilStopped() {
        Backoff backoff = new Backoff(10); // a relay comes back soon after its remote: at most 10 s late
        Frame scratch = new Frame(audio, BLOCK);
        while (!stopped) {
            String reason = play(backoff, scratch);
            if (stopped) break;
            double delay = backoff.nextDelay();
            String line = "{} {}: {}; retrying in {} s";
            Object[] args = {kind(), url, reason, String.format("%.1f", delay)};
            if (backoff.failed()) log.warn(line, args);
            else log.debug(line, args);
            try {
                Thread.sleep((long) (delay * 1000));
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    /** One connection, until it ends; returns why it ended. */
    private String play(Backoff backoff, Frame scratch) {
        Interrupter interrupter = new Interrupter();
        current = interrupter;
        if (stopped) interrupter.stop();
        MediaDecoder d = null;
        try {
            interrupter.within(timeout);
            d = MediaDecoder.openUrl(url, format, options, interrupter, audio);
            if (!d.unusedOptions().isEmpty()) {
                log.warn("{} {}: FFmpeg took none of the options {}; check their names (ffmpeg -h demuxer=NAME, "
                        + "-h protocol=NAME)", kind(), url, d.unusedOptions());
            }
            StreamTags tags = new StreamTags(d);
            Map<String, String> first = tags.initial();
            if (!first.isEmpty()) insertMetadata(first);
            connected = true;
            boolean back = false;
            long reads = 0;
            long decoded = 0;
            long holds = audio.samples(HOLDS);
            while (!stopped) {
                scratch.clear();
                interrupter.within(timeout);
                int n = d.read(scratch, BLOCK, ++reads);
                if (n == 0) return "the stream ended";
                buffer.write(scratch, n);
                decoded += n;
                if (!back && decoded >= holds) {
                    back = true;
                    double outage = backoff.recovered();
                    if (outage >= 0) log.info("{} {}: back after {} s", kind(), url, String.format("%.1f", outage));
                    else log.info("{} {}: playing", kind(), url);
                }
                Map<String, String> changed = tags.changed();
                if (changed != null) insertMetadata(changed);
            }
            return "stopped";
        } catch (IOException | RuntimeException e) {
            if (interrupter.expired()) return "no data for " + seconds(timeout) + " s";
            return e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            connected = false;
            if (d != null) d.close();
            current = null;
            interrupter.close();
        }
    }

    private static String seconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
