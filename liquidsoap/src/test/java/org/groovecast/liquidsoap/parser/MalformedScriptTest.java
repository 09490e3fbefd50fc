package org.groovecast.liquidsoap.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whatever the input, one located {@link SyntaxError}: never another exception, never a stack
 * overflow, never a hang.
 */
class MalformedScriptTest {

    private static SyntaxError refused(String text) {
        return assertThrows(
                SyntaxError.class,
                () -> Parser.parse(new SourceText("station.liq", text), new ArrayList<>()));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    x = "abc                          | 1:4: syntax error: string is not closed
                    x = 1\\n#< never closed\\ny = 2     | 2:0: syntax error: comment `#<` is not closed by `>#`
                    def f() =\\n  1\\n                | 3:0: syntax error: unexpected end of file, expected `end` to close the `def` at 1:0
                    x = 1\\nend                       | 2:0: syntax error: unexpected `end`
                    if x then 1 else 2 end end        | 1:23: syntax error: unexpected `end`
                    f(1, 2                            | 1:6: syntax error: unexpected end of file, expected `)` to close the `f(` at 1:0
                    x = [1, 2                         | 1:9: syntax error: unexpected end of file, expected `]` to close the `[` at 1:4
                    x = {a = 1                        | 1:10: syntax error: unexpected end of file, expected `}` to close the `{` at 1:4
                    x = +                             | 1:4: syntax error: unexpected `+`, expected an expression
                    if x 1 end                        | 1:7: syntax error: unexpected `end`, expected `then`
                    while x print(1) end              | 1:8: syntax error: unexpected `print(`, expected `do`
                    try f() end                       | 1:8: syntax error: unexpected `end`, expected `catch` or `finally`
                    fun x -> x                        | 1:4: syntax error: unexpected `x`, expected `(` and the parameters
                    x = 1 +* 2                        | 1:7: syntax error: unexpected `*`, expected an expression
                    %ifdef x\\n y = 1\\n              | 3:0: syntax error: unexpected end of file, expected `%endif` to close the `%ifdef` at 1:0
                    x = 1 \\u0000                     | 1:6: syntax error: unexpected character U+0000
                    s = "#{}"                         | 1:8: syntax error: unexpected end of the string, expected an expression in `#{}`
                    s = "#{x +}"                      | 1:11: syntax error: unexpected end of the string, expected an expression
                    """)
    void oneLocatedMessage(String script, String message) {
        String text = script.strip().replace("\\n", "\n").replace("\\u0000", "\u0000");
        assertEquals("station.liq:" + message.strip(), refused(text).getMessage());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "(",
                "[",
                "begin ",
                "if x then ",
                "fun () -> ",
                "- ",
                "not ",
                "!",
                "{",
                "f(",
                "a :: ",
                "x := ",
                "def f() = ",
                "c ? ",
                "%ifdef x ",
                "try ",
                "fun (x=",
                "{a = ",
                "1 + ",
                "x.a"
            })
    void deepNestingIsRefusedNotOverflowed(String opener) {
        String text = opener.repeat(100_000) + "1";
        SyntaxError e = refused(text);
        assertTrue(e.detail().startsWith("too deeply nested"), e.getMessage());
    }

    @Test
    void nestingUpToTheLimitParses() {
        int n = Parser.MAX_DEPTH - 10;
        Parser.parse(
                new SourceText("t.liq", "(".repeat(n) + "1" + ")".repeat(n)), new ArrayList<>());
        Parser.parse(
                new SourceText("t.liq", "if x then ".repeat(n / 3) + "1" + " end".repeat(n / 3)),
                new ArrayList<>());
    }

    @Test
    void aSmallStackGivesTheSameErrorNotAStackOverflow() throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t =
                new Thread(
                        null,
                        () -> {
                            try {
                                refused("x = " + "f(".repeat(Parser.MAX_DEPTH - 10) + "1");
                            } catch (Throwable e) {
                                thrown.set(e);
                            }
                        },
                        "small-stack",
                        128 * 1024);
        t.start();
        t.join();
        assertEquals(null, thrown.get());
    }

    @Test
    void longFlatScriptsParse() {
        String text = "x = f(1, \"a\")\n".repeat(200_000);
        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> Parser.parse(new SourceText("t.liq", text), new ArrayList<>()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x.a ", "null.a ", "3.{a = 1} ", "\"\\q\" ", "\"\\q#{x}\\q\" ", "'é' "})
    void tenMegabytesOnOneLineParseInLinearTime(String statement) {
        String text = statement.repeat((10 << 20) / statement.length());
        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> Parser.parse(new SourceText("t.liq", text), new ArrayList<>()));
    }

    @Test
    void tenMegabytesOfRandomBytesAreRefusedAtOnce(@TempDir Path dir) throws IOException {
        byte[] bytes = new byte[10 << 20];
        new Random(25).nextBytes(bytes);
        Path file = dir.resolve("garbage.liq");
        Files.write(file, bytes);
        SyntaxError e =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(30),
                        () -> assertThrows(SyntaxError.class, () -> Scripts.parse(file)));
        assertTrue(e.getMessage().startsWith(file + ":1:"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"", "#<", "{str|", "r/", "'", "\"#{"})
    void tenMegabytesWithoutTheirEndAreRefusedInLinearTime(String opener) {
        String text = opener + "a\nb ".repeat(10 << 18);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> refused(text));
    }

    @Test
    void tenMegabytesOfPrintableGarbage() {
        Random random = new Random(25);
        StringBuilder b = new StringBuilder(10 << 20);
        String alphabet = "abc(){}[]\"'#<>%.,:;=+-*/!?~@ \n0123456789_$^&|\\`";
        for (int i = 0; i < 10 << 20; i++)
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        SyntaxError e =
                assertTimeoutPreemptively(Duration.ofSeconds(30), () -> refused(b.toString()));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aMessageIsOneLine() {
        List<String> scripts = List.of("x = \"a\nb", "f(\n\n", "x = 1.2.3.4 + ", "x = 8h - ");
        for (String s : scripts) {
            try {
                Parser.parse(new SourceText("t.liq", s), new ArrayList<>());
            } catch (SyntaxError e) {
                assertFalse(e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }

    @Test
    void aLongTokenIsCutInTheMessage() {
        String name = "a".repeat(1 << 20);
        assertEquals(
                "station.liq:1:4: syntax error: unexpected `"
                        + "a".repeat(37)
                        + "...`, expected `)` to close the `f(` at 1:0",
                refused("f(x " + name + ")").getMessage());
    }

    @Test
    void noStackTraceIsKept() {
        assertEquals(0, refused("x = ").getStackTrace().length);
    }
}
