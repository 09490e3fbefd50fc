package org.groovecast.ffmpeg;

import org.groovecast.api.UserFunction;

/**
 * Asks a script function for the next track whenever one is needed (the AutoDJ pattern). The
 * function runs on the blocking pool, so it may query a database or a web service.
 */
final class DynamicRequests extends RequestSource {
    private final UserFunction nextUri;

    DynamicRequests(UserFunction nextUri, int prefetch) {
        super("request.dynamic", prefetch);
        this.nextUri = nextUri;
    }

    @Override
    protected Request next() {
        Object uri = nextUri.call();
        return uri == null || uri.toString().isEmpty() ? null : Request.parse(uri.toString());
    }

    @Override
    protected int attemptsPerRound() {
        return 3;
    }
}
