package org.groovecast.net.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Commands run off the connection's loop: what the connection does while one runs, and after. */
class TelnetConnectionTest {
    private final ArrayDeque<Runnable> running = new ArrayDeque<>();
    private final FakeNetSocket socket = new FakeNetSocket();

    TelnetConnectionTest() {
        Commands commands = new Commands();
        commands.add("echo", "<text>", "answers its argument", argument -> "echo: " + argument);
        // Commands wait in `running` until the test lets one finish; their answers come back
        // inline.
        new TelnetConnection(socket.proxy, commands, running::add, Runnable::run);
    }

    private void finishOne() {
        running.remove().run();
    }

    @Test
    void aRunningCommandPausesReadsAndWhatFollowsIsAnsweredInOrderAfterIt() {
        socket.send("echo one\r\necho two\r\n");
        assertTrue(socket.paused, "reads paused while the command runs");
        assertEquals(1, running.size(), "one command at a time");
        assertEquals(List.of(), socket.written);

        socket.send("echo three\r\necho fo"); // what arrives meanwhile waits its turn
        assertEquals(1, running.size());
        finishOne();
        assertEquals(List.of("echo: one\r\nEND\r\n"), socket.written);
        assertEquals(1, running.size(), "the next line runs once the first is answered");
        finishOne();
        finishOne();
        assertEquals(
                List.of("echo: one\r\nEND\r\n", "echo: two\r\nEND\r\n", "echo: three\r\nEND\r\n"),
                socket.written);
        assertTrue(running.isEmpty(), "a line without its end runs nothing");
        assertFalse(socket.paused, "reads go on once everything is answered");

        socket.send("ur\r\n");
        finishOne();
        assertEquals("echo: four\r\nEND\r\n", socket.written.getLast());
    }

    @Test
    void quitClosesOnceAnsweredAndNothingAfterItRuns() {
        socket.send("quit\r\necho never\r\n");
        finishOne();
        assertEquals(List.of("Bye!\r\nEND\r\n"), socket.written);
        assertTrue(socket.closed);
        socket.send("echo later\r\n");
        assertTrue(running.isEmpty());
    }
}
