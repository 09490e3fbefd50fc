package org.groovecast.api;

/**
 * A request resolved to a local file: what {@link RequestResolver.Opener} is given. Closing it
 * deletes the file when the resolution made it temporary (a download, a {@code tmp:} file, the
 * result of a {@code protocol.add(temporary: true)} protocol); close it once the file has been
 * played.
 */
public interface ResolvedRequest extends AutoCloseable {
    /**
     * The local file to play; for a URI that no protocol of the station handles but that looks like
     * a URL ({@code rtsp://host/x}), that URI itself, for decoders that open such URLs on their
     * own.
     */
    String file();

    /**
     * The metadata the URI's prefixes gave ({@code annotate:}), an inner prefix's values over an
     * outer one's.
     */
    Metadata metadata();

    /** Deletes the file if it is temporary; idempotent and safe from any thread. */
    @Override
    void close();
}
