package org.groovecast.liquidsoap.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Show;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scripts read from files, with their {@code %include}s, as Liquidsoap loads them. */
class ScriptsTest {
    @TempDir Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private String error(Path file) {
        return assertThrows(SyntaxError.class, () -> Scripts.parse(file)).getMessage();
    }

    @Test
    void anIncludedFilesStatementsTakeItsPlace() throws IOException {
        write("lib/helpers.liq", "def double(x) = 2 * x end\nhalf = 0.5\n");
        Path main = write("station.liq", "%include \"lib/helpers.liq\"\nprint(double(2))\n");
        ParsedScript script = Scripts.parse(main);
        assertEquals(
                "(seq (def double (x) (* 2 x)) (binding half 0.5) (print (double 2)))",
                Show.of(script.program()));
        assertEquals(List.of(main, dir.resolve("lib/helpers.liq")), script.files());
    }

    @Test
    void includedNodesSayWhichFileTheyComeFrom() throws IOException {
        write("lib.liq", "\n  x = 1\n");
        Path main = write("main.liq", "%include \"lib.liq\"\ny = x\n");
        List<Statement> items = Scripts.parse(main).program().items();
        assertEquals(dir.resolve("lib.liq") + ":2:2", items.get(0).span().toString());
        assertEquals(main + ":2:0", items.get(1).span().toString());
    }

    @Test
    void anIncludeIsRelativeToTheIncludingFile() throws IOException {
        write("a/b/deep.liq", "deep = 1");
        write("a/mid.liq", "%include \"b/deep.liq\"\nmid = deep");
        Path main = write("main.liq", "%include \"a/mid.liq\"\nprint(mid)");
        assertEquals(
                "(seq (binding deep 1) (binding mid deep) (print mid))",
                Show.of(Scripts.parse(main).program()));
    }

    @Test
    void anIncludeWhereAnExpressionGoesIsItsStatements() throws IOException {
        write("value.liq", "y = 2\ny + 1\n");
        Path main = write("main.liq", "x = %include \"value.liq\"\n");
        assertEquals(
                "(binding x (seq (binding y 2) (+ y 1)))", Show.of(Scripts.parse(main).program()));
    }

    @Test
    void anIncludeWhereAnExpressionGoesIsLocatedAtTheInclude() throws IOException {
        write("value.liq", "\n\n\n2\n");
        Path main = write("main.liq", "x = 1 + %include \"value.liq\"\n");
        Statement.Let x = (Statement.Let) Scripts.parse(main).program().items().getFirst();
        Expr.Infix sum = (Expr.Infix) x.value();
        assertEquals(main + ":1:4", sum.span().toString());
        assertEquals(1, sum.span().endLine());
        assertEquals(28, sum.span().endColumn());
        Expr.Sequence included = (Expr.Sequence) sum.right();
        assertEquals(main + ":1:8", included.span().toString());
        assertEquals(
                dir.resolve("value.liq") + ":4:0", included.items().getFirst().span().toString());
    }

    @Test
    void anIncludeInsideIfdefIsReadInItsBranch() throws IOException {
        write("alsa.liq", "a = 1");
        Path main = write("main.liq", "%ifdef input.alsa\n%include \"alsa.liq\"\n%endif\n");
        assertEquals("(ifdef input.alsa (binding a 1))", Show.of(Scripts.parse(main).program()));
    }

    @Test
    void anIncludeExtraOfAMissingFileIsNothing() throws IOException {
        Path main = write("main.liq", "%include_extra \"missing.liq\"\nx = 1\n");
        assertEquals("(binding x 1)", Show.of(Scripts.parse(main).program()));
        Path inExpression = write("expr.liq", "x = %include_extra \"missing.liq\"\n");
        assertEquals("(binding x (tuple))", Show.of(Scripts.parse(inExpression).program()));
    }

    @Test
    void aLibraryIncludeLooksInTheLibraryDirectories() throws IOException {
        Path libs = Files.createDirectories(dir.resolve("libs"));
        Files.writeString(libs.resolve("util.liq"), "util = 1");
        Path main = write("main.liq", "%include <util.liq>\nutil");
        assertEquals(
                "(seq (binding util 1) util)",
                Show.of(Scripts.parse(main, List.of(dir.resolve("none"), libs)).program()));
        assertEquals(
                main
                        + ":1:0: syntax error: cannot include <util.liq>: not in the library directories (none given)",
                error(main));
    }

    @Test
    void aMissingIncludeIsAnErrorAtTheInclude() throws IOException {
        Path main = write("main.liq", "x = 1\n  %include \"nope.liq\"\n");
        assertEquals(
                main + ":2:2: syntax error: cannot include \"nope.liq\": no such file",
                error(main));
    }

    @Test
    void aDirectoryIsNotAScript() throws IOException {
        Files.createDirectories(dir.resolve("d"));
        Path main = write("main.liq", "%include \"d\"\n");
        assertEquals(
                main
                        + ":1:0: syntax error: cannot include \"d\": cannot read it: not a regular file",
                error(main));
    }

    @Test
    void aFileIncludingItselfIsACycle() throws IOException {
        Path main = write("self.liq", "x = 1\n%include \"self.liq\"\n");
        assertEquals(
                main + ":2:0: syntax error: cyclic %include: self.liq includes self.liq",
                error(main));
    }

    @Test
    void aLongerCycleNamesEveryFileAndIsReportedWhereItCloses() throws IOException {
        write("a.liq", "%include \"b.liq\"\n");
        Path b = write("b.liq", "\n%include \"./c.liq\"\n");
        Path c = write("c.liq", "%include \"a.liq\"\n");
        Path main = write("main.liq", "%include \"a.liq\"\n");
        assertEquals(
                c
                        + ":1:0: syntax error: cyclic %include: a.liq includes b.liq includes c.liq includes a.liq",
                error(main));
        assertEquals(dir.resolve("b.liq"), b);
    }

    @Test
    void theSameFileTwiceIsNoCycle() throws IOException {
        write("lib.liq", "x = 1");
        Path main = write("main.liq", "%include \"lib.liq\"\n%include \"lib.liq\"\n");
        assertEquals("(seq (binding x 1) (binding x 1))", Show.of(Scripts.parse(main).program()));
    }

    @Test
    void anErrorInAnIncludedFileIsLocatedThere() throws IOException {
        Path lib = write("lib.liq", "x = (1\n");
        Path main = write("main.liq", "%include \"lib.liq\"\n");
        assertEquals(
                lib
                        + ":2:0: syntax error: unexpected end of file, expected `)` to close the `(` at 1:4",
                error(main));
    }

    @Test
    void notUtf8IsAnErrorWhereItStarts() throws IOException {
        Path main = dir.resolve("bad.liq");
        Files.write(main, "x = \"é\"\ny = \"".getBytes(StandardCharsets.UTF_8));
        Files.write(
                main, new byte[] {(byte) 0xff, '"', '\n'}, java.nio.file.StandardOpenOption.APPEND);
        assertEquals(main + ":2:5: syntax error: not UTF-8 text (byte 0xFF)", error(main));
    }

    @Test
    void aScriptThatCannotBeReadIsNoSyntaxError() throws IOException {
        assertThrows(NoSuchFileException.class, () -> Scripts.parse(dir.resolve("nope.liq")));
        Path directory = Files.createDirectories(dir.resolve("d.liq"));
        assertThrows(IOException.class, () -> Scripts.parse(directory));
    }

    @Test
    void aScriptGivenAsText() throws IOException {
        write("lib.liq", "x = 1");
        ParsedScript script = Scripts.parse("-", "%include \"lib.liq\"\nx", dir, List.of());
        assertEquals("(seq (binding x 1) x)", Show.of(script.program()));
        Expr.Sequence program = script.program();
        assertEquals("-:2:0", program.items().get(1).span().toString());
    }
}
