package org.groovecast.api;

/**
 * A mistake in a station script found by an operator: a bad argument, an impossible graph. The host
 * prefixes the message with the script's {@code file:line}, so the message itself should read like
 * {@code fallback() expects sources, got String "music"}.
 */
public class ScriptException extends RuntimeException {
    public ScriptException(String message) {
        super(message);
    }

    public ScriptException(String message, Throwable cause) {
        super(message, cause);
    }
}
