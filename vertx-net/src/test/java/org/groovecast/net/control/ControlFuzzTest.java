package org.groovecast.net.control;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.net.fuzz.Pieces;
import org.groovecast.net.fuzz.QuietLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The telnet control's command parser: any bytes on a {@link TelnetConnection} (over a stand-in
 * socket), in pieces, with the commands a station has without a script (help, quit, var.list,
 * var.get, var.set on a float with bounds, a bool and a string) and two a script would register.
 *
 * <p>Invariants: nothing escapes; every answer is lines ending in CRLF, closed by {@code END}; no
 * command fails (a built-in one throwing anything but its argument error, which {@link Commands}
 * answers and logs as "command X failed": the parser's own errors are {@code ERROR: <reason>}); the
 * connection closes only after answering {@code quit}, and nothing is written after that.
 */
class ControlFuzzTest {
    private static QuietLogs quiet;

    /**
     * Where {@link Commands} says a command failed (the answer alone cannot tell: a variable may
     * hold any text).
     */
    private static final Logger COMMANDS = (Logger) LoggerFactory.getLogger(Commands.class);

    private static final List<String> failures = new ArrayList<>();
    private static final AppenderBase<ILoggingEvent> RECORDER =
            new AppenderBase<>() {
                @Override
                protected void append(ILoggingEvent e) {
                    failures.add(e.getFormattedMessage());
                }
            };

    @BeforeAll
    static void quiet() {
        quiet = new QuietLogs();
        RECORDER.start();
        COMMANDS.addAppender(RECORDER);
        COMMANDS.setLevel(Level.WARN);
        COMMANDS.setAdditive(false);
    }

    @AfterAll
    static void restore() {
        COMMANDS.detachAppender(RECORDER);
        COMMANDS.setLevel(null);
        COMMANDS.setAdditive(true);
        quiet.close();
    }

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void telnet(byte[] input) {
        Commands commands = new Commands();
        Variables variables = new Variables(commands);
        variables.add(new Interactive.FloatVar("volume", 1.0, 0.0, 2.0));
        variables.add(new Interactive.BoolVar("live", false));
        variables.add(new Interactive.StringVar("dj", "nobody"));
        commands.add("echo", "<text>", "answers its argument", argument -> "echo: " + argument);
        commands.add(
                "music.push",
                "<uri>",
                "queues a track",
                argument -> {
                    if (argument.isEmpty())
                        throw new IllegalArgumentException("music.push expects a URI");
                    return "1";
                });
        failures.clear();
        FakeNetSocket socket = new FakeNetSocket();
        // Commands and their answers inline, so that each piece is answered before the next is fed.
        new TelnetConnection(socket.proxy, commands, Runnable::run, Runnable::run);
        Pieces.feed(
                input,
                piece -> {
                    if (socket.closed) return false;
                    socket.handler.handle(Buffer.buffer(piece));
                    return true;
                });
        if (!failures.isEmpty()) fail(failures.get(0));
        for (String answer : socket.written) {
            assertTrue(answer.endsWith("END\r\n"), "an answer without its END: " + quote(answer));
            String inside = answer.replace("\r\n", "");
            assertFalse(
                    inside.contains("\n") || inside.contains("\r"),
                    "a bare line break in " + quote(answer));
        }
        if (socket.closed) {
            assertTrue(
                    !socket.written.isEmpty() && socket.written.getLast().equals("Bye!\r\nEND\r\n"),
                    "closed, and not after answering quit");
        }
    }

    private static String quote(String s) {
        s = s.length() > 300 ? s.substring(0, 300) + "..." : s;
        return "\"" + s.replace("\r", "\\r").replace("\n", "\\n") + "\"";
    }
}
