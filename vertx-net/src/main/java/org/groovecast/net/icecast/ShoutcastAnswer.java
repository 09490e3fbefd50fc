package org.groovecast.net.icecast;

import io.vertx.core.buffer.Buffer;

/**
 * The line a Shoutcast v1 server answers the source password with ({@code OK2}, or a refusal), read
 * as its chunks arrive: each byte is looked at once (nothing is decoded again), and a line longer
 * than {@link #MAX} bytes is a protocol error, so that a peer that is no Shoutcast server (or a
 * hostile one) can neither grow the buffer nor spin the decoder.
 */
final class ShoutcastAnswer {
    static final int MAX = 1024;
    private final StringBuilder line = new StringBuilder(64);

    /**
     * Feeds a chunk; returns the answer (stripped, ISO-8859-1) once its line ends, else null.
     *
     * @throws IllegalStateException past {@link #MAX} bytes without a line end
     */
    String feed(Buffer chunk) {
        for (int i = 0, n = chunk.length(); i < n; i++) {
            int c = chunk.getByte(i) & 0xff;
            if (c == '\n') return line.toString().strip();
            if (line.length() == MAX) {
                throw new IllegalStateException(
                        "the server's answer to the password has no line end within "
                                + MAX
                                + " bytes: not a Shoutcast v1 source port?");
            }
            line.append((char) c);
        }
        return null;
    }
}
