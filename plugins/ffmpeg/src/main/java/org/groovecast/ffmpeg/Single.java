package org.groovecast.ffmpeg;

import java.io.IOException;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ScriptException;

/** One file, played again and again. Checked when the script loads, so it is infallible. */
final class Single extends RequestSource {
    private final Request request;

    private Single(Request request) {
        super("single", 1);
        this.request = request;
    }

    /** Opens the file once to check it; a file that cannot be played is a script error. */
    static Single of(String uri) {
        Request r;
        try {
            r = Request.parse(uri);
        } catch (IllegalArgumentException e) {
            throw new ScriptException("single(): " + e.getMessage());
        }
        try (Track probe = Track.open(r, AudioFormat.DEFAULT)) {
            return new Single(r);
        } catch (IOException e) {
            throw new ScriptException("single(): cannot play " + r.uri() + ": " + e.getMessage());
        }
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
}
