package org.groovecast.ffmpeg.playlist;

import java.io.IOException;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ResolvedRequest;
import org.groovecast.api.ScriptException;

/**
 * One file, played again and again. Resolved and checked when the script loads, so it is
 * infallible; a downloaded or temporary file is kept while the station runs and deleted when it
 * stops.
 */
final class Single extends RequestSource {
    private final Request request;
    private final ResolvedRequest resolved;

    private Single(Request request, ResolvedRequest resolved, RequestResolver requests) {
        super("single", 1, requests);
        this.request = request;
        this.resolved = resolved;
    }

    /**
     * Resolves the uri and opens the file once to check it; one that cannot be played is a script
     * error.
     */
    static Single of(String uri, RequestResolver requests) {
        Request given = Request.of(uri);
        ResolvedRequest r;
        try {
            r =
                    requests.resolve(
                            uri,
                            null,
                            0,
                            resolved -> {
                                Track.open(given, resolved, AudioFormat.DEFAULT, null, 1).park();
                                return resolved;
                            });
        } catch (IOException e) {
            throw new ScriptException("single(): cannot play " + uri + ": " + e.getMessage());
        }
        // Played again and again from the resolved file, with the metadata the uri gave it.
        Request local = new Request(r.file(), r.metadata(), null, 0);
        return new Single(local, r, requests);
    }

    @Override
    protected Request next() {
        return request;
    }

    @Override
    protected int attemptsPerRound() {
        return 1;
    }

    @Override
    public boolean isFallible() {
        return false;
    }

    @Override
    protected void onShutdown() {
        super.onShutdown();
        resolved.close();
    }
}
