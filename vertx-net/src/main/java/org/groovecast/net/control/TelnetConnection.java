package org.groovecast.net.control;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One telnet control connection, on its event loop: every line runs a command and gets its answer
 * followed by {@code END}. A bad, unknown or over-long command answers an error and the connection
 * goes on; only {@code quit} or the client leaving end it.
 */
final class TelnetConnection {
    private static final Logger log = LoggerFactory.getLogger(TelnetConnection.class);
    static final int MAX_LINE = 64 * 1024;
    private static final int IAC = 0xFF;
    private static final int SB = 250;
    private static final int SE = 240;

    private final NetSocket socket;
    private final Commands commands;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    /** Set past {@link #MAX_LINE} bytes without a newline: the rest of that line is dropped, then answered with an error. */
    private boolean overLong;
    private boolean closing;

    TelnetConnection(NetSocket socket, Commands commands) {
        this.socket = socket;
        this.commands = commands;
        socket.handler(this::onData);
        log.debug("telnet: {} connected", socket.remoteAddress());
    }

    private void onData(Buffer data) {
        byte[] bytes = data.getBytes();
        int start = 0;
        for (int i = 0; i < bytes.length && !closing; i++) {
            if (bytes[i] != '\n') continue;
            append(bytes, start, i);
            start = i + 1;
            if (overLong) {
                overLong = false;
                answer("ERROR: line over " + MAX_LINE + " bytes", false);
            } else {
                onLine(text(line.toByteArray()).strip());
            }
            line.reset();
        }
        if (!closing) append(bytes, start, bytes.length);
    }

    private void append(byte[] bytes, int from, int to) {
        if (overLong) return;
        if (line.size() + to - from > MAX_LINE) {
            overLong = true;
            line.reset();
            return;
        }
        line.write(bytes, from, to - from);
    }

    private void onLine(String text) {
        if (text.isEmpty()) return;
        Commands.Answer a = commands.run(text);
        answer(a.text(), a.status() == Commands.Status.CLOSE);
    }

    private void answer(String text, boolean close) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        if (!text.isEmpty()) out.append(text.replace("\r\n", "\n").replace("\n", "\r\n")).append("\r\n");
        out.append("END\r\n");
        var written = socket.write(Buffer.buffer(out.toString(), "UTF-8"));
        if (close) {
            closing = true;
            written.onComplete(r -> socket.close());
            return;
        }
        // A client that sends commands without reading the answers is not read until it catches up.
        if (socket.writeQueueFull()) {
            socket.pause();
            socket.drainHandler(v -> socket.resume());
        }
    }

    /**
     * The line as text, without telnet negotiation (a real telnet client may send some, and an
     * interrupt as IAC IP) or other control characters.
     */
    private static String text(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length);
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xFF;
            if (c == IAC && i + 1 < b.length) {
                int cmd = b[++i] & 0xFF;
                if (cmd == IAC) {
                    out.write(IAC);
                } else if (cmd == SB) {
                    while (i + 1 < b.length && !((b[i] & 0xFF) == IAC && (b[i + 1] & 0xFF) == SE)) i++;
                    i++;
                } else if (cmd >= 251) {
                    i++; // WILL, WONT, DO, DONT carry an option byte
                }
                continue;
            }
            if (c >= 0x20 || c == '\t') out.write(c);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
