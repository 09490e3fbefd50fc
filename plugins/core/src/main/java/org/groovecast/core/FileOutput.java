package org.groovecast.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Encodes its source into a file. The path may carry strftime fields ({@code %Y-%m-%d/%H-%M.mp3}),
 * expanded each time a file opens; with {@code reopenOnMetadata} each new metadata starts a new
 * file (one per track). The path may also be a function {@code { -> path }}, asked each time a file
 * opens; an empty path means not to record now (it is asked again a second later). The encoder
 * finalises each file (a WAV header) when it closes, and {@code onClose} then runs on the blocking
 * pool with the path, free to upload or move it.
 *
 * <p>A fallible source is followed: the file opens with the source's first data and closes when the
 * source becomes unavailable, and the next data opens a new file, its path expanded again, so
 * recording a live input gives one file per show.
 *
 * <p>A file that cannot be opened when the station starts is a start error. Once on air, a disk
 * that fills up (or a file that cannot be opened for the next track) costs this output a gap, not
 * the station: what cannot be written is dropped, logged once per outage (at most once a minute),
 * the file is tried again every second, and writing goes on in the same file, after what it already
 * held, once it can.
 */
final class FileOutput extends Output implements FaultTolerantChannel.Listener {
    private static final Logger log = LoggerFactory.getLogger(FileOutput.class);
    private static final long RETRY_NANOS = 1_000_000_000L;

    /**
     * A disk that keeps filling up again (another writer frees and takes space) is reported at most
     * this often.
     */
    private static final long REPORT_NANOS = 60_000_000_000L;

    private final Encoder encoder;

    /** The path as given, or null when a function gives it. */
    private final String pathPattern;

    private final UserFunction pathFunction;

    /** Whether files follow the source: one per stretch of availability. */
    private final boolean follows;

    private final boolean reopenOnMetadata;
    private final UserFunction onClose;
    private StreamContext context;
    private FaultTolerantChannel channel;
    private Encoder.Session session;
    private Path path;
    private boolean wroteAudio;
    private Metadata metadata = Metadata.EMPTY;

    /**
     * While no file could be opened on air (or the path function gave none): when to try again
     * (System.nanoTime), else 0.
     */
    private long reopenAt;

    private long reportedAt;
    private boolean reported;

    /** Whether the last attempt to open a file on air failed (logged once per outage). */
    private boolean failedOpen;

    private boolean functionFailed;

    /**
     * @param path a pattern string or a {@link UserFunction} returning one
     */
    FileOutput(
            Encoder encoder,
            Object path,
            Source source,
            boolean fallible,
            boolean reopenOnMetadata,
            UserFunction onClose) {
        super("output.file", source, fallible);
        this.encoder = encoder;
        this.pathPattern = path instanceof CharSequence p ? p.toString() : null;
        this.pathFunction = path instanceof UserFunction f ? f : null;
        if (pathPattern == null && pathFunction == null) {
            throw new ScriptException(
                    "output.file(): path must be a string or a function { -> path }, got " + path);
        }
        this.follows = source.isFallible();
        this.reopenOnMetadata = reopenOnMetadata;
        this.onClose = onClose;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        this.context = context;
    }

    /**
     * The path pattern; none for a path function (a reload then keeps the file only for an output
     * with an id:).
     */
    @Override
    public String endpoint() {
        return pathPattern;
    }

    /**
     * Opens the first file, or, for a source that is followed, only checks that its directory can
     * be written (the file opens with the source's first data): either way a read-only directory is
     * a start error.
     */
    @Override
    protected void open() throws IOException {
        // On a reload the predecessor's file is taken over in adopt(): opening it here would
        // truncate it.
        if (predecessor() != null) return;
        if (follows) {
            if (pathPattern != null)
                checkDirectory(
                        Path.of(
                                TimePattern.format(
                                        pathPattern, ZonedDateTime.now(context.zone()), metadata)));
        } else if (!openFile()) {
            reopenAt = System.nanoTime() + RETRY_NANOS;
        }
    }

    private static void checkDirectory(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null) return;
        Files.createDirectories(parent);
        if (!Files.isWritable(parent))
            throw new AccessDeniedException(parent.toString(), null, "directory not writable");
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
                if (!follows) openOnAir(); // a followed source's data opens the next file
            }
        } catch (Exception e) {
            throw new IllegalStateException(
                    id()
                            + ": cannot open "
                            + (pathPattern != null ? pathPattern : "its next file")
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Opens the next file; false when the path function says not to record now. */
    private boolean openFile() throws IOException {
        String pattern = pathPattern != null ? pathPattern : fromFunction();
        if (pattern == null) return false;
        path = Path.of(TimePattern.format(pattern, ZonedDateTime.now(context.zone()), metadata));
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        FileChannel file =
                FileChannel.open(
                        path,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
        try {
            channel = new FaultTolerantChannel(file, RETRY_NANOS, this);
            session = encoder.open(context.format(), context.video(), channel);
        } catch (IOException | RuntimeException e) {
            file.close();
            channel = null;
            throw e;
        }
        return true;
    }

    /**
     * The path the function gives now, or null for none (an empty path, or a failing function,
     * logged).
     */
    private String fromFunction() {
        Object p;
        try {
            p = pathFunction.call();
        } catch (RuntimeException e) {
            if (!functionFailed)
                log.error(
                        "{}: the path function failed: {}; asking again every second",
                        id(),
                        e.toString());
            functionFailed = true;
            return null;
        }
        functionFailed = false;
        String s = p == null ? "" : p.toString();
        return s.isEmpty() ? null : s;
    }

    /**
     * Opens the next file while on air: a failure is a gap, tried again every second, not the end
     * of the output.
     */
    private void openOnAir() {
        try {
            if (!openFile()) {
                session = null;
                channel = null;
                reopenAt = System.nanoTime() + RETRY_NANOS;
                return;
            }
            if (failedOpen) log.warn("{}: writing again, to {}", id(), path);
            failedOpen = false;
            reopenAt = 0;
        } catch (IOException e) {
            if (!failedOpen) {
                log.error(
                        "{}: cannot open {} ({}): nothing is recorded until it can; trying again every second, "
                                + "the rest of the station plays on",
                        id(),
                        path,
                        e.toString());
            }
            failedOpen = true;
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
            log.error(
                    "{}: cannot write {} ({}): the file has a gap until writes succeed again, tried every second; "
                            + "the rest of the station plays on",
                    id(),
                    path,
                    cause.toString());
        } else {
            log.debug("{}: cannot write {} again: {}", id(), path, cause.toString());
        }
    }

    @Override
    public void resumed(long lostBytes, long outageNanos) {
        if (reported) {
            log.warn(
                    "{}: writing {} again after {} s; {} bytes were lost",
                    id(),
                    path,
                    String.format("%.1f", outageNanos / 1e9),
                    lostBytes);
        } else {
            log.debug("{}: writing {} again; {} bytes were lost", id(), path, lostBytes);
        }
    }

    @Override
    protected void send(Frame frame) throws IOException {
        // A new file starts with the frame that brings new metadata (within one frame of the track
        // start).
        if (frame.metadataCount() > 0) {
            metadata = frame.metadata(frame.metadataCount() - 1);
            if (session != null && reopenOnMetadata && wroteAudio) {
                close();
                openOnAir();
                wroteAudio = false;
            } else if (session != null
                    && reopenOnMetadata
                    && pathPattern != null
                    && pathPattern.contains("%{")) {
                // Nothing written yet: reopen now that the metadata the path names is known.
                close();
                Files.deleteIfExists(path);
                openOnAir();
            }
        }
        // A short frame means the source ran dry; an empty one, that it was not ready at all.
        boolean gone = follows && !frame.isFull() && (frame.position() == 0 || !source().isReady());
        if (session == null) {
            // Followed, the source's data opens the next file; otherwise only a pending retry does.
            boolean due = follows ? frame.position() > 0 && !gone : reopenAt != 0;
            if (gone) reopenAt = 0; // the next stretch of the source asks for its file at once
            if (!due || reopenAt != 0 && System.nanoTime() < reopenAt) return;
            openOnAir();
            if (session == null) return;
            wroteAudio = false;
        }
        session.encode(frame);
        if (frame.position() > 0) wroteAudio = true;
        if (gone) {
            close(); // this stretch of the source is over: its file is complete, the next data
            // opens another
            reopenAt = 0;
        }
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
            context.blocking()
                    .execute(
                            () -> {
                                try {
                                    onClose.call(closed.toString());
                                } catch (RuntimeException e) {
                                    log.error(
                                            "{}: onClose for {} failed: {}",
                                            id(),
                                            closed,
                                            e.toString());
                                }
                            });
        }
    }
}
