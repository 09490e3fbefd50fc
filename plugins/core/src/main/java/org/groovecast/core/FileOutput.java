package org.groovecast.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/** Encodes its source into a file; the encoder finalises the file (a WAV header) on a clean stop. */
final class FileOutput extends Output {
    private final Encoder encoder;
    private final Path path;
    private StreamContext context;
    private FileChannel channel;
    private Encoder.Session session;

    FileOutput(Encoder encoder, Path path, Source source, boolean fallible) {
        super("output.file", source, fallible);
        this.encoder = encoder;
        this.path = path;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        this.context = context;
    }

    @Override
    protected void open() throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        session = encoder.open(context.format(), channel);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        session.encode(frame);
    }

    @Override
    protected void close() throws IOException {
        try (FileChannel c = channel) {
            if (session != null) session.close();
            c.force(false);
        } finally {
            session = null;
            channel = null;
        }
    }
}
