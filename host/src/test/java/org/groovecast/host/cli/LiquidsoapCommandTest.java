package org.groovecast.host.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code liquidsoap}'s command line as AzuraCast uses it, without the Liquidsoap front end (host
 * cannot have it): the flags, and where a script goes. The Liquidsoap module's test checks {@code
 * .liq} scripts through it.
 */
class LiquidsoapCommandTest {
    /**
     * A station of the engine's own functions alone (a control server): host's tests have no
     * plugins.
     */
    private static final String GOOD = "server.telnet(port: 0)\n";

    @TempDir Path dir;

    record Result(int code, String out, String err) {}

    /** Runs the command in-process with {@code stdin} as standard input. */
    static Result liquidsoap(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        InputStream oldIn = System.in;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            int code = LiquidsoapCommand.execute(args);
            return new Result(
                    code,
                    out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            System.setIn(oldIn);
        }
    }

    @Test
    void versionNamesGroovecast() {
        Result r = liquidsoap("", "--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Groovecast "), r.out());
        assertTrue(r.out().contains("without its Liquidsoap front end"), r.out());
    }

    @Test
    void anUnknownFlagIsRefusedInOneLineWithLiquidsoapsStatus() {
        Result r = liquidsoap("", "--frobnicate", "station.liq");
        assertEquals(2, r.code());
        assertEquals("liquidsoap: unknown option '--frobnicate'.\n", r.err());
        assertEquals("", r.out());
        Result two = liquidsoap("", "a.liq", "b.liq");
        assertEquals(2, two.code());
        assertEquals("liquidsoap: one script at a time: 'b.liq' is one too many.\n", two.err());
    }

    @Test
    void liquidsoapsLoggingFlagsAndCacheStdlibAreTaken() throws Exception {
        Path good = Files.writeString(dir.resolve("good.groovy"), GOOD);
        for (String flag :
                new String[] {"-v", "--verbose", "-q", "--quiet", "--debug", "--no-cache"}) {
            Result r = liquidsoap("", flag, "--check", good.toString());
            assertEquals(0, r.code(), flag + ": " + r.out() + r.err());
        }
        assertEquals(0, liquidsoap("", "--cache-stdlib").code());
    }

    @Test
    void checkOfAFilePrintsItsMessagesOnStandardOutput() throws Exception {
        Path good = Files.writeString(dir.resolve("good.groovy"), GOOD);
        Path bad =
                Files.writeString(
                        dir.resolve("bad.groovy"), "server.telnet(port: 0)\nlog.infoo('x')\n");
        Result ok = liquidsoap("", "--check", good.toString());
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertEquals("good.groovy: OK, 0 output(s)\n", ok.out());
        Result r = liquidsoap("", "-c", bad.toString());
        assertEquals(1, r.code());
        assertTrue(r.out().startsWith("bad.groovy:2: "), r.out());
        assertTrue(r.out().contains("log.infoo"), r.out());
    }

    @Test
    void aScriptOnStandardInputIsALiquidsoapScript() {
        Result r = liquidsoap("output.dummy(sine(440.))\n", "--check", "-");
        assertEquals(1, r.code());
        assertEquals(
                "no front end reads .liq scripts here: the Liquidsoap front end"
                        + " (groovecast-liquidsoap) is not on the class path\n",
                r.out());
    }

    @Test
    void aStationRunsFromAFileOnly() {
        Result r = liquidsoap("output.dummy(sine(440.))\n", "-");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("standard input is for --check -"), r.err());
        Result none = liquidsoap("");
        assertEquals(1, none.code());
        assertTrue(none.err().startsWith("liquidsoap: no script given"), none.err());
    }
}
