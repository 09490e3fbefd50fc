package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.groovecast.liquidsoap.parser.Scripts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every error is located at the offending expression, in the file it was written in. */
class LocationsTest {
    @TempDir Path dir;

    private String error(String text) {
        return assertThrows(TypeError.class, () -> Check.checked(text)).getMessage();
    }

    @Test
    void theArgumentNotTheCall() {
        assertEquals(
                "t.liq:3:16: this value has type string but it should be a subtype of int",
                error("def f(n) = n + 1 end\nx = 1\ny = f(f(x)) + f(\"a\")"));
    }

    @Test
    void theElementNotTheList() {
        assertEquals(
                "t.liq:2:5: this value has type string but it should be a subtype of int",
                error("x = [1,\n  2, \"three\"]"));
    }

    @Test
    void theBranchValue() {
        assertEquals(
                "t.liq:5:2: this value has type string but it should be a subtype of int",
                error("x = if true then\n  1\nelse\n  print(2)\n  \"two\"\nend"));
    }

    @Test
    void theTargetOfAMissingField() {
        assertEquals(
                "t.liq:2:8: this value has no method `b`. Its type is {a : int}.",
                error("r = {a = 1}\nx = 1 + r.b"));
    }

    @Test
    void anErrorInAnIncludedFileNamesThatFile() throws IOException {
        Files.writeString(
                dir.resolve("lib.liq"),
                "# helpers\ndef twice(x) = x * 2 end\nbad = twice(\"a\")\n");
        Path main = dir.resolve("station.liq");
        Files.writeString(main, "%include \"lib.liq\"\nprint(bad)\n");
        TypeChecker checker = TypeChecker.of(Signatures.of(Map.of("print", "('a) -> unit")));
        TypeError e = assertThrows(TypeError.class, () -> checker.check(Scripts.parse(main)));
        assertEquals(
                dir.resolve("lib.liq")
                        + ":3:12: this value has type string but it should be a subtype of int",
                e.getMessage());
        assertEquals(3, e.span().line());
        assertEquals(12, e.span().column());
    }

    @Test
    void aTypeErrorCarriesNoStackTrace() {
        TypeError e = assertThrows(TypeError.class, () -> Check.checked("x = 1 + \"a\""));
        assertEquals(0, e.getStackTrace().length);
    }

    @Test
    void columnsCountBytesAsLiquidsoapDoes() {
        // é is two bytes: the 1 is at byte 11 of its line
        assertEquals(
                "t.liq:1:11: this value has type int but it should be a subtype of string",
                error("x = \"é\" ^ 1"));
    }
}
