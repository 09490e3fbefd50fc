package org.groovecast.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Encodes its source into a file. The path may carry strftime fields ({@code %Y-%m-%d/%H-%M.mp3}),
 * expanded each time a file opens; with {@code reopenOnMetadata} each new metadata starts a new
 * file (one per track). The encoder finalises each file (a WAV header) when it closes, and
 * {@code onClose} then runs on the blocking pool with the path, free to upload or move it.
 *
 * <p>A file that cannot be opened when the station starts is a start error. Once on air, a disk
 * that fills up (or a file that cannot be opened for the next track) costs this output a gap, not
 * the station: what cannot be written is dropped, logged once per outage (at most once a minute),
 * the file is tried again every second, and writing goes on in the same file, after what it
 * already held, once it can.
 */
final class FileOutput extends Output implements FaultTolerantChannel.Listener {
    private static final Logger log = LoggerFactory.getLogger(FileOutput.class);
    private static final long RETRY_NANOS = 1_000_000_000L;
    /** A disk that keeps filling up again (another writer frees and takes space) is reported at most this often. */
    private static final long REPORT_NANOS = 60_000_000_000L;

    private final Encoder encoder;
    private final String pathPattern;
    private final boolean reopenOnMetadata;
    private final UserFunction onClose;
    private StreamContext context;
    private FaultTolerantChannel channel;
    private Encoder.Session session;
    private Path path;
    private boolean wroteAudio;
    private Metadata metadata = Metadata.EMPTY;
    /** While a file could not be opened on air: when to try again (System.nanoTime), else 0. */
    private long reopenAt;
    private long reportedAt;
    private boolean reported;

    FileOutput(Encoder encoder, String pathPattern, Source source, boolean fallible, boolean reopenOnMetadata,
               UserFunction onClose) {
        super("output.file", source, fallible);
        this.encoder = encoder;
        this.pathPattern = pathPattern;
        this.reopenOnMetadata = reopenOnMetadata;
        this.onClose = onClose;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        this.context = context;
    }

    @Override
    public String endpoint() {
        return pathPattern;
    }

    @Override
    protected void open() throws IOException {
        // On a reload the predecessor's file is taken over in adopt(): opening it here would truncate it.
        if (predecessor() == null) openFile();
    }

    /**
     * A reload: the file being written goes on (a recording is not cut in two); the new script's
     * encoder takes effect at the next file. A changed sample format starts a new file instead.
     */
    @Override
    protected void adopt(Source previous) {
        FileOutput p = (FileOutput) previous;
        try {
            if (p.channel != null && p.context.format().equals(context.format())) {
                channel = p.channel;
                channel.listener(this);
                session = p.session;
                path = p.path;
                metadata = p.metadata;
                wroteAudio = p.wroteAudio;
                p.channel = null;
                p.session = null;
                p.path = null;
            } else {
                p.stop();
                openOnAir();
            }
        } catch (Exception e) {
            throw new IllegalStateException(id() + ": cannot open " + pathPattern + ": " + e.getMessage(), e);
        }
    }

    private void openFile() throws IOException {
        path = Path.of(TimePattern.format(pathPattern, ZonedDateTime.now(context.zone()), metadata));
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            channel = new FaultTolerantChannel(file, RETRY_NANOS, this);
            session = encoder.open(context.format(), context.video(), channel);
        } catch (IOException | RuntimeException e) {
            file.close();
            channel = null;
            throw e;
        }
    }

    /** Opens the next file while on air: a failure is a gap, tried again every second, not the end of the output. */
    private void openOnAir() {
        try {
            openFile();
            if (reopenAt != 0) log.warn("{}: writing again, to {}", id(), path);
            reopenAt = 0;
        } catch (IOException e) {
            if (reopenAt == 0) {
                log.error("{}: cannot open {} ({}): nothing is recorded until it can; trying again every second, "
                        + "the rest of the station plays on", id(), path, e.toString());
            }
            session = null;
            channel = null;
            reopenAt = System.nanoTime() + RETRY_NANOS;
        }
    }

    @Override
    public void failed(IOException cause) {
        long now = System.nanoTime();
        reported = reportedAt == 0 || now - reportedAt > REPORT_NANOS;
        if (reported) {
            reportedAt = now;
            log.error("{}: cannot write {} ({}): the file has a gap until writes succeed again, tried every second; "
                    + "the rest of the station plays on", id(), path, cause.toString());
        } else {
            log.debug("{}: cannot write {} again: {}", id(), path, cause.toString());
        }
    }

    @Override
    public void resumed(long lostBytes, long outageNanos) {
        if (reported) {
            log.warn("{}: writing {} again after {} s; {} bytes were lost", id(), path,
                    String.format("%.1f", outageNanos / 1e9), lostBytes);
        } else {
            log.debug("{}: writing {} again; {} bytes were lost", id(), path, lostBytes);
        }
    }

    @Override
    protected void send(Frame frame) throws IOException {
        // A new file starts with the frame that brings new metadata (within one frame of the track start).
        if (frame.metadataCount() > 0) {
            metadata = frame.metadata(frame.metadataCount() - 1);
            if (session != null && reopenOnMetadata && wroteAudio) {
                close();
                openOnAir();
                wroteAudio = false;
            } else if (session != null && reopenOnMetadata && pathPattern.contains("%{")) {
                // Nothing written yet: reopen now that the metadata the path names is known.
                close();
                Files.deleteIfExists(path);
                openOnAir();
            }
        }
        if (session == null) {
            if (reopenAt == 0 || System.nanoTime() < reopenAt) return;
            openOnAir();
            if (session == null) return;
            wroteAudio = false;
        }
        session.encode(frame);
        if (frame.position() > 0) wroteAudio = true;
    }

    @Override
    protected void close() throws IOException {
        Path closed = channel == null ? null : path;
        // Closing hands the data to the kernel; no fsync, which would block the clock on the disk.
        try (FaultTolerantChannel c = channel) {
            if (session != null) session.close();
        } finally {
            session = null;
            channel = null;
        }
        if (onClose != null && closed != null) {
            context.blocking().execute(() -> {
                try {
                    onClose.call(closed.toString());
                } catch (RuntimeException e) {
                    log.error("{}: onClose for {} failed: {}", id(), closed, e.toString());
                }
            });
        }
    }
}
