package org.groovecast.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The station's request protocols, as the sources that play requests reach them ({@link
 * Arguments#requests()}). A request is a URI that leads to a local file to play: a path, {@code
 * file:path}, {@code annotate:title="T",liq_cue_in="2":uri} (metadata, then the rest), {@code
 * tmp:path} (deleted once played), {@code http://} and {@code https://} (downloaded to a temporary
 * file), and the protocols the script declares with {@code protocol.add}. What one protocol returns
 * is resolved in turn, so prefixes nest. The registry is the station's: a reloaded script has only
 * the protocols it declares itself.
 *
 * <p>Resolving blocks (a download, a script function asking a web service): call it on the blocking
 * pool ({@link StreamContext#blocking()}) or at load, never on a clock. It ends within its timeout:
 * a protocol that has not answered by then is abandoned (it runs on a virtual thread of its own, so
 * a hung one holds no pool thread), and the resolution fails.
 */
public interface RequestResolver {
    /** The station's resolution timeout in seconds ({@code settings.request.timeout}). */
    double timeout();

    /**
     * Resolves {@code uri} and hands the local file it leads to to {@code opener}. A protocol may
     * answer several URIs: they are alternatives, tried in order until one leads to a file that
     * {@code opener} accepts (an exception from it rejects that file, whose temporary copy is then
     * deleted).
     *
     * @param baseDir the directory relative paths are relative to (a playlist file's), or null for
     *     the working directory
     * @param timeout seconds the whole resolution may take; 0 or less for {@link #timeout()}
     * @return what {@code opener} returned for the file it accepted
     * @throws IOException why no file could be played, naming the step that failed: an unknown
     *     protocol, a protocol that threw, answered nothing or not within the timeout, an HTTP
     *     error, a download over {@code settings.request.maxDownload}, the opener's own reason
     */
    <T> T resolve(String uri, Path baseDir, double timeout, Opener<T> opener) throws IOException;

    /**
     * The metadata the station's script computes for a file about to play (Liquidsoap's {@code
     * decoder.metadata.add}; an autocue implementation of the script's own), given what the track
     * has so far (the file's tags, the request's annotations), to lay over it. Blocking: called
     * where the file is opened, on the blocking pool. A resolver that fails is logged by the host
     * and adds nothing. The default, for hosts without such resolvers: nothing.
     */
    default Metadata fileMetadata(String file, Metadata metadata) {
        return Metadata.EMPTY;
    }

    /** Opens the file a request resolved to (probes it, opens a decoder). */
    @FunctionalInterface
    interface Opener<T> {
        /**
         * Opens {@code request}'s file. What it returns owns {@code request} and must {@link
         * ResolvedRequest#close() close} it once done with the file (after playing it), which
         * deletes the file when it is temporary. Throwing rejects the file: the resolver closes
         * {@code request} and tries the next alternative, if any.
         */
        T open(ResolvedRequest request) throws IOException;
    }
}
