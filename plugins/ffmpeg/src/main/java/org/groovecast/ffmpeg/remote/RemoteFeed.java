package org.groovecast.ffmpeg.remote;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveBuffer;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.groovecast.ffmpeg.shared.Backoff;
import org.groovecast.ffmpeg.shared.Interrupter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread behind {@code input.http} and {@code input.ffmpeg}: connects to the remote, decodes it
 * into its target's {@link LiveBuffer} and inserts its tags, and when the remote ends, fails, sends
 * what cannot be decoded or sends nothing for {@code timeout} seconds (every blocking FFmpeg call
 * is bounded by an {@link Interrupter}), connects again after a jittered {@link Backoff}. Each
 * outage is logged once, and its end. The target is looked up for every block, so that a reload can
 * hand the feed, connection and buffer, to the new station's input.
 */
final class RemoteFeed {
    private static final Logger log = LoggerFactory.getLogger(RemoteFeed.class);

    /** Samples decoded per read: small, so that the stall deadline is set often. */
    private static final int BLOCK = 1024;

    /**
     * Seconds of audio a connection must bring to count as back: one that plays a moment and stalls
     * again is still the same outage (no "back" line, the backoff goes on growing).
     */
    private static final double HOLDS = 5;

    /** The longest wait between attempts: a relay should come back soon after its remote. */
    private static final double MAX_BACKOFF = 10;

    /** Where the decoded samples and the tags go. */
    interface Target {
        LiveBuffer buffer();

        void tags(Map<String, String> tags);
    }

    /**
     * What the feed reads, and into what buffer: a reload keeps the feed only for the same (a
     * change of {@code buffer:} or {@code max:} makes a new feed with a ring of the new size).
     */
    record Remote(
            String kind,
            String url,
            AVInputFormat format,
            Map<String, String> options,
            double timeout,
            AudioFormat audio,
            double bufferSeconds,
            double maxSeconds) {
        Remote {
            options = Map.copyOf(options);
        }

        @Override
        public boolean equals(Object o) {
            // AVInputFormat is a pointer: compare the address it points to, not the Java object.
            return o instanceof Remote r
                    && kind.equals(r.kind)
                    && url.equals(r.url)
                    && options.equals(r.options)
                    && timeout == r.timeout
                    && audio.equals(r.audio)
                    && address(format) == address(r.format)
                    && bufferSeconds == r.bufferSeconds
                    && maxSeconds == r.maxSeconds;
        }

        @Override
        public int hashCode() {
            return Objects.hash(
                    kind, url, options, timeout, audio, address(format), bufferSeconds, maxSeconds);
        }

        private static long address(AVInputFormat f) {
            return f == null ? 0 : f.address();
        }
    }

    private final Remote remote;
    private final Reconnector reconnector;
    private volatile Target target;
    private volatile boolean connected;
    private Thread thread;

    RemoteFeed(Remote remote, Target target) {
        this.remote = remote;
        this.target = target;
        this.reconnector =
                new Reconnector(
                        log,
                        remote.kind() + " " + remote.url(),
                        "playing",
                        MAX_BACKOFF,
                        () -> false);
    }

    Remote remote() {
        return remote;
    }

    /** Whether the remote is connected and decoding now. */
    boolean connected() {
        return connected;
    }

    /** Feeds {@code next} from now on (a reload). */
    void moveTo(Target next) {
        target = next;
    }

    void start() {
        // A platform thread: the decoder spends its time in native code, which would pin a virtual
        // one.
        thread =
                Thread.ofPlatform()
                        .daemon()
                        .name(remote.kind() + " " + remote.url())
                        .start(this::run);
    }

    /** Interrupts whatever the thread blocks on and waits for it a moment. */
    void stop() {
        reconnector.stop();
        Thread t = thread;
        if (t == null) return;
        t.interrupt();
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            readUntilStopped();
        } catch (Throwable t) { // a bug, not the network: say so rather than go silent forever
            log.error(
                    "{} {}: the decoding thread stopped: {}",
                    remote.kind(),
                    remote.url(),
                    t.toString(),
                    t);
        }
    }

    private void readUntilStopped() {
        Frame scratch = new Frame(remote.audio(), BLOCK);
        reconnector.run(interrupter -> play(interrupter, scratch));
    }

    /** One connection, until it ends; returns why it ended. */
    private String play(Interrupter interrupter, Frame scratch) {
        MediaDecoder d = null;
        String kind = remote.kind();
        String url = remote.url();
        try {
            interrupter.within(remote.timeout());
            d =
                    MediaDecoder.openUrl(
                            url, remote.format(), remote.options(), interrupter, remote.audio());
            if (!d.unusedOptions().isEmpty()) {
                log.warn(
                        "{} {}: FFmpeg took none of the options {}; check their names (ffmpeg -h demuxer=NAME, "
                                + "-h protocol=NAME)",
                        kind,
                        url,
                        d.unusedOptions());
            }
            StreamTags tags = new StreamTags(d);
            Map<String, String> first = tags.initial();
            if (!first.isEmpty()) target.tags(first);
            connected = true;
            boolean back = false;
            long reads = 0;
            long decoded = 0;
            long holds = remote.audio().samples(HOLDS);
            while (!reconnector.stopped()) {
                scratch.clear();
                interrupter.within(remote.timeout());
                int n = d.read(scratch, BLOCK, ++reads);
                if (n == 0) return "the stream ended";
                Target t = target;
                t.buffer().write(scratch, n);
                decoded += n;
                if (!back && decoded >= holds) {
                    back = true;
                    reconnector.held();
                }
                Map<String, String> changed = tags.changed();
                if (changed != null) t.tags(changed);
            }
            return "stopped";
        } catch (IOException | RuntimeException e) {
            if (interrupter.expired()) return "no data for " + seconds(remote.timeout()) + " s";
            return e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            connected = false;
            if (d != null) d.close();
        }
    }

    private static String seconds(double seconds) {
        return seconds == Math.rint(seconds)
                ? Long.toString((long) seconds)
                : Double.toString(seconds);
    }
}
