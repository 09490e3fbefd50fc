package org.groovecast.ffmpeg.playlist;

import java.util.concurrent.TimeoutException;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.TimeLimit;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a script function for the next track whenever one is needed (the AutoDJ pattern). The
 * function runs on a virtual thread, waited for from the blocking pool at most {@code timeout}
 * seconds, so it may query a database or a web service; one that answers null (nothing now), fails
 * or is abandoned is asked again no sooner than {@code retryDelay} seconds later. Its answer is
 * resolved within the same timeout.
 */
final class DynamicRequests extends RequestSource {
    private static final Logger log = LoggerFactory.getLogger(DynamicRequests.class);

    private final UserFunction nextUri;
    private final double timeout;
    private final double retryDelay;

    /**
     * Whether the last call failed or was abandoned: the next failure in a row is not logged again.
     */
    private boolean failing;

    DynamicRequests(
            UserFunction nextUri,
            int prefetch,
            double timeout,
            double retryDelay,
            RequestResolver requests) {
        super("request.dynamic", prefetch, requests);
        this.nextUri = nextUri;
        this.timeout = timeout;
        this.retryDelay = retryDelay;
    }

    @Override
    protected Request next() {
        double limit = timeout > 0 ? timeout : requests().timeout();
        Object uri;
        try {
            uri = TimeLimit.call(id() + " next", limit, () -> nextUri.call());
        } catch (TimeoutException e) {
            failed("the function did not answer within " + limit + " s; abandoned");
            return null;
        } catch (RuntimeException e) {
            failed("the function failed: " + e);
            return null;
        }
        if (failing) log.info("{}: the function answers again", id());
        failing = false;
        if (uri == null || uri.toString().isEmpty()) {
            pause(retryDelay);
            return null;
        }
        return Request.of(uri.toString());
    }

    private void failed(String why) {
        if (closing()) return; // interrupted by the station's stop
        if (!failing) log.warn("{}: {}; asking again in {} s", id(), why, retryDelay);
        failing = true;
        pause(retryDelay);
    }

    @Override
    protected double timeout() {
        return timeout;
    }

    @Override
    protected int attemptsPerRound() {
        return 3;
    }
}
