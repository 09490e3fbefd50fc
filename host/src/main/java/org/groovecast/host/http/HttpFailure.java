package org.groovecast.host.http;

import org.groovecast.api.ScriptException;

/**
 * An HTTP request that got no answer, and why, for a front end that answers such failures as a
 * status rather than an error: Liquidsoap's {@code http.post} gives a response with status 522 when
 * the server does not answer in time, 523 when it cannot be reached, 525/526 when TLS fails, and
 * AzuraCast's runtime reads the status. The Groovy front end catches it as any {@link
 * ScriptException}.
 */
public final class HttpFailure extends ScriptException {
    /** What went wrong, as a client tells it. */
    public enum Kind {
        /** No answer within the timeout. */
        TIMEOUT,
        /** The host is unknown or refused the connection. */
        UNREACHABLE,
        /** The TLS handshake failed. */
        TLS_HANDSHAKE,
        /** The server's certificate was not trusted. */
        TLS_CERTIFICATE
    }

    private final Kind kind;

    HttpFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
