package org.groovecast.host.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What {@code run} refuses before it starts anything when given several scripts or {@code
 * --stations DIR}: each a usage error (exit 2) with one line saying why.
 */
class RunStationsOptionsTest {
    @TempDir Path dir;

    private record Result(int code, String err) {}

    private static Result run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream before = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new Main()).execute(args);
            return new Result(code, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }

    @Test
    void noScriptAtAllIsAUsageError() {
        Result r = run("run");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("give a station script, several, or --stations DIR"), r.err());
    }

    @Test
    void aDirectoryWithoutStationScriptsIsRefused() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "");
        Result r = run("run", "--stations", dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("holds no station script (*.groovy, *.liq)"), r.err());
    }

    @Test
    void stopAfterRendersOneScriptOnly() throws Exception {
        Path a = Files.writeString(dir.resolve("a.groovy"), "");
        Path b = Files.writeString(dir.resolve("b.liq"), "");
        Result r = run("run", "--stop-after", "1", a.toString(), b.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--stop-after renders one script"), r.err());
    }

    @Test
    void twoStationsOfOneNameAreRefused() throws Exception {
        Path a = Files.writeString(dir.resolve("a.groovy"), "");
        Files.createDirectories(dir.resolve("other"));
        Path again = Files.writeString(dir.resolve("other/a.groovy"), "");
        Result r = run("run", "--plugins-dir", dir.toString(), a.toString(), again.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("two stations named a.groovy"), r.err());
    }
}
