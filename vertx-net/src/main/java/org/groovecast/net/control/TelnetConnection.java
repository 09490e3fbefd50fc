package org.groovecast.net.control;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One telnet control connection, read on its event loop: every line runs a command and gets its
 * answer followed by {@code END}. A bad, unknown or over-long command answers an error and the
 * connection goes on; only {@code quit} or the client leaving end it.
 *
 * <p>Commands may run the script's code ({@code server.register}), which may block: each runs on a
 * virtual thread, the connection's reads paused, and its answer is written on the loop before the
 * next line is looked at. A slow command holds up its own connection only.
 */
final class TelnetConnection {
    private static final Logger log = LoggerFactory.getLogger(TelnetConnection.class);
    static final int MAX_LINE = 64 * 1024;
    private static final int IAC = 0xFF;
    private static final int SB = 250;
    private static final int SE = 240;
    private static final Executor VIRTUAL_THREADS =
            r -> Thread.ofVirtual().name("telnet command").start(r);

    private final NetSocket socket;
    private final Commands commands;

    /** Where commands run, and how their answers come back to the connection's loop. */
    private final Executor commandThreads;

    private final Executor loop;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);

    /**
     * What was read and not looked at yet: the rest of a chunk while a command runs, and chunks
     * after it.
     */
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();

    private byte[] chunk;
    private int at;

    /**
     * Set past {@link #MAX_LINE} bytes without a newline: the rest of that line is dropped, then
     * answered with an error.
     */
    private boolean overLong;

    private boolean closing;

    /** A command runs: the connection waits for its answer before looking at what follows. */
    private boolean waiting;

    /**
     * Within {@link #run}: an answer that comes this soon (commands run inline, in tests) is gone
     * on from there.
     */
    private boolean starting;

    private boolean answeredAtOnce;

    /** Reads paused for a command, or for a client that does not read its answers. */
    private boolean paused;

    TelnetConnection(NetSocket socket, Commands commands) {
        this(socket, commands, VIRTUAL_THREADS, onContext(Vertx.currentContext()));
    }

    /**
     * With commands run by {@code commandThreads} and answers handed back through {@code loop}:
     * inline ones in tests.
     */
    TelnetConnection(NetSocket socket, Commands commands, Executor commandThreads, Executor loop) {
        this.socket = socket;
        this.commands = commands;
        this.commandThreads = commandThreads;
        this.loop = loop;
        socket.handler(this::onData);
        log.debug("telnet: {} connected", socket.remoteAddress());
    }

    private static Executor onContext(Context context) {
        return r -> context.runOnContext(v -> r.run());
    }

    private void onData(Buffer data) {
        if (closing) return; // quit was answered: what follows is not read
        chunks.add(data.getBytes());
        if (!waiting) pump();
    }

    /**
     * Looks at what was read: complete lines run as commands, one at a time; when one runs, the
     * rest waits for its answer (see {@link #run}). Once everything is looked at, reading goes on,
     * unless the client has not read its answers.
     */
    private void pump() {
        while (!closing) {
            if (chunk == null || at == chunk.length) {
                chunk = chunks.poll();
                at = 0;
                if (chunk == null) break;
            }
            String text = nextLine();
            if (text != null && !text.isEmpty() && !run(text)) return;
        }
        if (!closing) readOn();
    }

    /**
     * The next complete line of the current chunk, stripped (empty for an over-long one, answered
     * here), or null when the chunk ends first.
     */
    private String nextLine() {
        int end = at;
        while (end < chunk.length && chunk[end] != '\n') end++;
        append(chunk, at, end);
        if (end == chunk.length) {
            at = end;
            return null;
        }
        at = end + 1;
        String text = "";
        if (overLong) {
            overLong = false;
            answer("ERROR: line over " + MAX_LINE + " bytes", false);
        } else {
            text = text(line.toByteArray()).strip();
        }
        line.reset();
        return text;
    }

    /**
     * Runs a command off the loop, reads paused; its answer is written on the loop and what follows
     * looked at then. Returns true when it was answered before this returns, so the caller goes on.
     */
    private boolean run(String text) {
        pause();
        waiting = true;
        starting = true;
        answeredAtOnce = false;
        commandThreads.execute(
                () -> {
                    Commands.Answer answer;
                    try {
                        answer = commands.run(text);
                    } catch (
                            Throwable e) { // what Commands does not catch still gets an answer: the
                        // client waits for one
                        answer = new Commands.Answer(Commands.Status.FAILED, "ERROR: " + e);
                    }
                    Commands.Answer a = answer;
                    loop.execute(
                            () -> {
                                waiting = false;
                                answer(a.text(), a.status() == Commands.Status.CLOSE);
                                if (starting) {
                                    answeredAtOnce = true;
                                } else {
                                    pump();
                                }
                            });
                });
        starting = false;
        return answeredAtOnce;
    }

    private void pause() {
        if (!paused) {
            paused = true;
            socket.pause();
        }
    }

    /**
     * Reads the next bytes, once the client has read what it was answered (it may send commands
     * without reading).
     */
    private void readOn() {
        if (socket.writeQueueFull()) {
            pause();
            socket.drainHandler(
                    v -> {
                        socket.drainHandler(null);
                        if (!waiting && !closing) readOn();
                    });
        } else if (paused) {
            paused = false;
            socket.resume();
        }
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

    private void answer(String text, boolean close) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        if (!text.isEmpty())
            out.append(text.replace("\r\n", "\n").replace("\n", "\r\n")).append("\r\n");
        out.append("END\r\n");
        var written = socket.write(Buffer.buffer(out.toString(), "UTF-8"));
        if (close) {
            closing = true;
            chunks.clear();
            written.onComplete(r -> socket.close());
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
                    while (i + 1 < b.length && !((b[i] & 0xFF) == IAC && (b[i + 1] & 0xFF) == SE))
                        i++;
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
