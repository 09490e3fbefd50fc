package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_free;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_from_context;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.api.Connecting;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.ffmpeg.encode.FfmpegEncoder;
import org.groovecast.ffmpeg.encode.MediaEncoder;
import org.groovecast.ffmpeg.encode.Muxer;
import org.groovecast.ffmpeg.shared.Interrupter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code output.url(url, encoder, s)}: encodes on the clock, as every output does, and hands the
 * packets through a {@link PacketQueue} to a thread of its own that muxes them to any URL FFmpeg
 * writes (srt, udp, rtp, icecast, a file). The clock never waits for the network: a peer too slow
 * makes the queue drop its oldest packets (logged once per episode). When the muxer cannot open or
 * a write fails, the thread closes it and opens it again after a jittered backoff, logging each
 * outage once and its end; what the clock encodes meanwhile is dropped. A reload opens a new
 * connection (no {@link #endpoint()}: nothing is kept, so the reload says so). Stopping never waits
 * on the caller's thread (a clock, a reload): {@link #close()} flushes the encoder and tells the
 * writer, which sends what is queued and the trailer within its budget and frees the queue itself;
 * only the station's shutdown waits for it.
 */
final class UrlOutput extends Output implements Connecting {
    private static final Logger log = LoggerFactory.getLogger(UrlOutput.class);

    /** Slots of the packet queue: some seconds of audio and video packets at the highest rates. */
    private static final int SLOTS = 2048;

    /**
     * Seconds a connection must take packets to count as back: one that fails at once is the same
     * outage.
     */
    private static final long HOLDS_NANOS = 3_000_000_000L;

    private final String url;
    private final FfmpegEncoder encoding;
    private final String format;
    private final Map<String, String> options;
    private final double timeout;
    private final double queueSeconds;
    private MediaEncoder encoder;
    private final List<AVCodecParameters> params = new ArrayList<>();
    private final List<AVRational> timeBases = new ArrayList<>();
    private PacketQueue queue;

    /**
     * An offline render: nothing is dropped, the clock waits for the writer instead (it has no
     * deadline).
     */
    private boolean lossless;

    private volatile boolean connected;
    private volatile boolean finishing;

    /** When a finishing writer gives up on what is still queued (nanoTime). */
    private volatile long finishBy;

    /**
     * Who still uses the queue and the codec parameters (the output, the writer): the last one
     * frees them.
     */
    private final AtomicInteger holders = new AtomicInteger();

    private final AtomicBoolean outputLetGo = new AtomicBoolean();
    private final Reconnector reconnector;
    private Thread thread;
    // Clock side: whether the last packets were dropped (an episode of a slow peer), and how many.
    private boolean dropping;
    private long droppedInEpisode;
    private final MediaEncoder.Sink sink = this::enqueue;

    UrlOutput(
            String url,
            FfmpegEncoder encoding,
            String format,
            Map<String, String> options,
            Source source,
            boolean fallible,
            double timeout,
            double queueSeconds) {
        super("output.url", source, fallible);
        this.url = url;
        this.encoding = encoding;
        this.format = format;
        this.options = Map.copyOf(options);
        this.timeout = timeout;
        this.queueSeconds = queueSeconds;
        this.reconnector =
                new Reconnector(
                        log, "output.url " + url, "streaming (" + format + ")", 30, this::done);
    }

    /** Whether the muxer is open on the URL now. */
    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        try {
            encoder =
                    encoding.newMediaEncoder(
                            context.format(), context.video(), Muxer.wantsGlobalHeader(format));
        } catch (IOException e) {
            throw new ScriptException(
                    "output.url " + url + ": cannot open " + encoding + ": " + e.getMessage(), e);
        }
        // The writer's muxers are described by a copy, made here once: the clock owns the codecs.
        for (AVCodecContext c : encoder.contexts()) {
            AVCodecParameters p = avcodec_parameters_alloc();
            avcodec_parameters_from_context(p, c);
            params.add(p);
            timeBases.add(new AVRational().num(c.time_base().num()).den(c.time_base().den()));
        }
        queue = new PacketQueue(SLOTS, queueSeconds);
        holders.set(1);
        lossless = !context.realtime();
    }

    @Override
    protected void open() {
        holders.incrementAndGet();
        thread = Thread.ofPlatform().daemon().name("output.url " + url).start(this::run);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        if (frame.position() == 0) return;
        encoder.encode(frame, sink);
    }

    private void enqueue(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        long ts = packet.dts() != AV_NOPTS_VALUE ? packet.dts() : packet.pts();
        double time = ts == AV_NOPTS_VALUE ? 0 : ts * (double) timeBase.num() / timeBase.den();
        if (lossless) {
            if (dropping && !connected)
                return; // the writer is not writing: waiting more would hang the render
            dropping = false;
            try {
                if (!queue.put(packet, stream, time, timeout)) {
                    dropping = true;
                    log.warn(
                            "output.url {}: nothing was written for {} s; dropping packets until it connects again",
                            url,
                            timeout);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            return;
        }
        if (!connected)
            return; // nobody to send it to: dropped, not queued for a connection to come
        int dropped = queue.offer(packet, stream, time);
        if (dropped > 0) {
            if (!dropping) {
                log.warn(
                        "output.url {}: the peer is too slow; dropping the oldest packets (more than {} s queued)",
                        url,
                        queueSeconds);
            }
            dropping = true;
            droppedInEpisode += dropped;
        } else if (dropping && queue.size() <= 4) {
            log.info(
                    "output.url {}: the peer keeps up again ({} packets dropped)",
                    url,
                    droppedInEpisode);
            dropping = false;
            droppedInEpisode = 0;
        }
    }

    /**
     * Seconds a finishing writer has for what is queued: all of an offline render's, a few on air.
     */
    private double finishSeconds() {
        return lossless ? 60 : Math.min(timeout, 5);
    }

    /** Returns at once: the writer finishes on its own thread (see {@link #onShutdown()}). */
    @Override
    protected void close() throws IOException {
        try {
            if (encoder != null) encoder.finish(sink);
        } finally {
            closeEncoder();
            finishBy = System.nanoTime() + (long) (finishSeconds() * 1e9);
            finishing = true;
            // Connected (or rendering), the writer sends what is queued and the trailer; else
            // nothing is to be sent.
            if (!connected && !lossless) stopWriter();
            letGo();
        }
    }

    /**
     * The station stops (after a reload's new clocks started, or before the process ends): the
     * writer gets its time to send the last packets and the trailer, then is stopped.
     */
    @Override
    protected void onShutdown() {
        closeEncoder();
        Thread t = thread;
        if (t != null) {
            finishing = true;
            try {
                if (!t.join(java.time.Duration.ofMillis((long) (finishSeconds() * 1000) + 1000)))
                    stopWriter();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopWriter();
            }
        }
        letGo();
    }

    private void stopWriter() {
        reconnector.stop();
        Thread t = thread;
        if (t != null) t.interrupt();
    }

    private synchronized void closeEncoder() {
        if (encoder != null) encoder.close();
        encoder = null;
    }

    /** The output is done with the queue and the parameters; they go once the writer is too. */
    private void letGo() {
        if (outputLetGo.compareAndSet(false, true)) release();
    }

    /** One holder is done; the last frees the queue's packets and the codec parameters, once. */
    private void release() {
        if (holders.decrementAndGet() != 0) return;
        if (queue != null) queue.close();
        for (AVCodecParameters p : params) avcodec_parameters_free(p);
        params.clear();
    }

    // ---------------------------------------------------------------- the writing thread

    private void run() {
        try {
            writeUntilStopped();
        } catch (Throwable t) { // a bug, not the network: say so rather than go silent forever
            log.error("output.url {}: the writer stopped: {}", url, t.toString(), t);
        } finally {
            release();
        }
    }

    /**
     * Whether the writer is done (besides stopped): finishing, with nothing an offline render still
     * needs written or out of time.
     */
    private boolean done() {
        return finishing && (!(lossless && queue.size() > 0) || System.nanoTime() - finishBy > 0);
    }

    private void writeUntilStopped() {
        // An offline render finishing in a backoff goes on trying (done() says): its tail is in the
        // queue, not lost.
        reconnector.run(this::connectAndWrite);
    }

    /**
     * How long the next write may block: the timeout, or what is left of a finishing writer's
     * budget.
     */
    private double writeSeconds() {
        return finishing
                ? Math.max(0.1, Math.min(timeout, (finishBy - System.nanoTime()) / 1e9))
                : timeout;
    }

    /** One muxer on the URL, until it fails (returns why) or the output stops. */
    private String connectAndWrite(Interrupter interrupter) {
        Muxer muxer = null;
        try {
            interrupter.within(timeout);
            muxer = new Muxer(format, options, params, timeBases, url, interrupter);
            if (!muxer.unusedOptions().isEmpty()) {
                log.warn(
                        "output.url {}: FFmpeg took none of the options {}; check their names "
                                + "(ffmpeg -h muxer={}, -h protocol=NAME)",
                        url,
                        muxer.unusedOptions(),
                        format);
            }
            if (!lossless) queue.clear(); // what waited from before this connection is stale
            connected = true;
            long since = System.nanoTime();
            boolean back = false;
            while (!reconnector.stopped()) {
                if (finishing && System.nanoTime() - finishBy > 0)
                    return "out of time for what is queued";
                if (!back && System.nanoTime() - since >= HOLDS_NANOS) {
                    back = true;
                    reconnector.held();
                }
                PacketQueue.Slot s = queue.take(100);
                if (s == null) {
                    if (finishing) {
                        interrupter.within(writeSeconds());
                        muxer.finish();
                        return "finished";
                    }
                    continue;
                }
                try {
                    interrupter.within(writeSeconds());
                    muxer.write(s.packet, timeBases.get(s.stream), s.stream);
                } finally {
                    queue.recycle(s);
                }
            }
            return "stopped";
        } catch (IOException | RuntimeException e) {
            if (interrupter.expired()) return "the peer took nothing for " + timeout + " s";
            return e.getMessage() == null ? e.toString() : e.getMessage();
        } catch (InterruptedException e) {
            return "stopped";
        } finally {
            connected = false;
            if (muxer != null) muxer.close();
        }
    }
}
