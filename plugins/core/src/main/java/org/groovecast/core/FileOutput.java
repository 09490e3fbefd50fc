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
 */
final class FileOutput extends Output {
    private static final Logger log = LoggerFactory.getLogger(FileOutput.class);

    private final Encoder encoder;
    private final String pathPattern;
    private final boolean reopenOnMetadata;
    private final UserFunction onClose;
    private StreamContext context;
    private FileChannel channel;
    private Encoder.Session session;
    private Path path;
    private boolean wroteAudio;
    private Metadata metadata = Metadata.EMPTY;

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
                session = p.session;
                path = p.path;
                metadata = p.metadata;
                wroteAudio = p.wroteAudio;
                p.channel = null;
                p.session = null;
                p.path = null;
            } else {
                p.stop();
                openFile();
            }
        } catch (Exception e) {
            throw new IllegalStateException(id() + ": cannot open " + pathPattern + ": " + e.getMessage(), e);
        }
    }

    private void openFile() throws IOException {
        path = Path.of(TimePattern.format(pathPattern, ZonedDateTime.now(), metadata));
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        session = encoder.open(context.format(), context.video(), channel);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        // A new file starts with the frame that brings new metadata (within one frame of the track start).
        if (frame.metadataCount() > 0) {
            metadata = frame.metadata(frame.metadataCount() - 1);
            if (reopenOnMetadata && wroteAudio) {
                close();
                openFile();
                wroteAudio = false;
            } else if (reopenOnMetadata && pathPattern.contains("%{")) {
                // Nothing written yet: reopen now that the metadata the path names is known.
                close();
                Files.deleteIfExists(path);
                openFile();
            }
        }
        session.encode(frame);
        if (frame.position() > 0) wroteAudio = true;
    }

    @Override
    protected void close() throws IOException {
        Path closed = path;
        // Closing hands the data to the kernel; no fsync, which would block the clock on the disk.
        try (FileChannel c = channel) {
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
