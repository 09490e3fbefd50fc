package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** process.run and its kin: a shell command, its output and how it ended. */
class ProcessFunctionsTest {
    @Test
    void runAnswersOutputAndStatus() {
        assertEquals(
                "(\"out\\n\", \"err\\n\", true, 3)",
                Liq.value(
                        "p = process.run(\"echo out; echo err >&2; exit 3\")\n"
                                + "(p.stdout, p.stderr, p.status == \"exit\", p.status.code)"));
        assertEquals("\"abc\"", Liq.value("process.run(stdin=\"abc\", \"cat\").stdout"));
        assertEquals(
                "\"v\"",
                Liq.value("process.run(env=[(\"X\", \"v\")], \"printf %s \\\"$X\\\"\").stdout"));
    }

    @Test
    void aProcessPastItsTimeoutIsKilled() {
        long t0 = System.nanoTime();
        assertEquals(
                "(true, -1)",
                Liq.value(
                        "p = process.run(timeout=0.3, \"sleep 5\")\n(p.status == \"timeout\", p.status.code)"));
        assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "not killed at its timeout");
    }

    @Test
    void readLinesAndTest() {
        assertEquals("\"toto\"", Liq.value("process.read(\"printf toto\")"));
        assertEquals("[\"a\", \"b\"]", Liq.value("process.read.lines(\"printf 'a\\\\nb\\\\n'\")"));
        assertEquals(
                "(true, false)", Liq.value("(process.test(\"true\"), process.test(\"exit 1\"))"));
    }

    @Test
    void quoting() {
        assertEquals("\"'it'\\\\''s'\"", Liq.value("process.quote(\"it's\")"));
        assertEquals(
                "\"'foo' 'gni' 'gno\\\"gna' <'bla' >'blo' 2>&1\"",
                Liq.value(
                        "process.quote.command(stdin=\"bla\", stdout=\"blo\", stderr=\"blo\","
                                + " \"foo\", args=[\"gni\", 'gno\"gna'])"));
        assertEquals("\"'a' 2>'e'\"", Liq.value("process.quote.command(stderr=\"e\", \"a\")"));
        Registered.withTypes(
                "process.run",
                "process.read",
                "process.read.lines",
                "process.test",
                "process.quote",
                "process.quote.command");
    }
}
