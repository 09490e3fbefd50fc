package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.host.cli.LiquidsoapCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code liquidsoap --check} and {@code --version} with this front end installed, as AzuraCast runs
 * them: a station's file, or its script piped to {@code --check -}, checked with the messages on
 * standard output (named by the place alone for standard input, as Liquidsoap names it).
 */
class LiquidsoapCommandTest {
    private static final String GOOD = "radio = sine(440.)\noutput.dummy(radio)\n";
    private static final String BAD = "radio = sine(440.)\noutput.dummy(sinee(440.))\n";

    @TempDir Path dir;

    record Result(int code, String out) {}

    @BeforeAll
    static void shippedPlugins() {
        System.setProperty("groovecast.plugins", ShippedStation.pluginsDir().toString());
    }

    @AfterAll
    static void noPlugins() {
        System.clearProperty("groovecast.plugins");
    }

    private static Result liquidsoap(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        InputStream oldIn = System.in;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            int code = LiquidsoapCommand.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setIn(oldIn);
        }
    }

    @Test
    void versionNamesGroovecastAndTheDialect() {
        Result r = liquidsoap("", "--version");
        assertEquals(0, r.code());
        String[] lines = r.out().split("\n");
        assertEquals(2, lines.length, r.out());
        assertEquals(
                true,
                lines[0].matches("Groovecast .+ \\(Liquidsoap 2\\.4\\.5 dialect\\)"),
                r.out());
        // The line AzuraCast's /^Liquidsoap (.+)$/ reads the version from.
        assertEquals("Liquidsoap 2.4.5 dialect", lines[1]);
    }

    @Test
    void checksAStationsFile() throws Exception {
        Path good = Files.writeString(dir.resolve("good.liq"), GOOD);
        Path bad = Files.writeString(dir.resolve("bad.liq"), BAD);
        assertEquals(
                new Result(0, "good.liq: OK, 1 output(s)\n"),
                liquidsoap("", "--check", good.toString()));
        assertEquals(
                new Result(1, "bad.liq:2:13: unknown function sinee; did you mean sine?\n"),
                liquidsoap("", "--check", bad.toString()));
    }

    @Test
    void checksAScriptOnStandardInputAsLiquidsoapNamesIt() {
        assertEquals(new Result(0, "OK, 1 output(s)\n"), liquidsoap(GOOD, "--check", "-"));
        assertEquals(
                new Result(1, "At line 2, char 13: unknown function sinee; did you mean sine?\n"),
                liquidsoap(BAD, "--check", "-"));
        assertEquals(
                new Result(
                        1,
                        "At line 2, char 0: syntax error: unexpected end of file, expected `)` to"
                                + " close the `dummy(` at 1:7\n"),
                liquidsoap("output.dummy(sine(440.)\n", "-c", "-"));
    }

    @Test
    void aStandardInputScriptIncludesFromTheWorkingDirectory() throws Exception {
        // As Liquidsoap resolves %include "-"'s includes: AzuraCast's script includes an absolute
        // path.
        Path lib = Files.writeString(dir.resolve("lib.liq"), "def tone() = sine(440.) end\n");
        Result r =
                liquidsoap(
                        "%include \"" + lib + "\"\noutput.dummy(tone())\noutput.dummy(tonee())\n",
                        "--check",
                        "-");
        assertEquals(
                new Result(1, "At line 3, char 13: unknown function tonee; did you mean tone?\n"),
                r);
    }
}
