package org.groovecast.host.request;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.api.Metadata;
import org.groovecast.api.ResolvedRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A resolved request; closing it deletes its temporary files (the one to play, untried
 * alternatives).
 */
final class Resolved implements ResolvedRequest {
    private static final Logger log = LoggerFactory.getLogger(Resolved.class);

    private final String file;
    private final Metadata metadata;
    private final List<Path> temporary;
    private final AtomicBoolean closed = new AtomicBoolean();

    Resolved(String file, Metadata metadata, List<Path> temporary) {
        this.file = file;
        this.metadata = metadata;
        this.temporary = temporary;
    }

    @Override
    public String file() {
        return file;
    }

    @Override
    public Metadata metadata() {
        return metadata;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) delete(temporary);
    }

    static void delete(List<Path> files) {
        for (Path p : files) {
            try {
                if (Files.deleteIfExists(p) && log.isDebugEnabled())
                    log.debug("deleted temporary file {}", p);
            } catch (IOException e) {
                log.warn("cannot delete temporary file {}: {}", p, e.toString());
            }
        }
    }

    @Override
    public String toString() {
        return file;
    }
}
