package org.groovecast.liquidsoap.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Node;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.Warning;
import org.junit.jupiter.api.Timeout;

/**
 * The lexer, the preprocessor and the parser on any bytes, as a script file (UTF-8 decoding
 * included), with every {@code %include} answered by a small file of statements or, for an {@code
 * %include_extra}, by nothing.
 *
 * <p>Invariants: only a {@link SyntaxError} escapes, its message one line, {@code
 * fuzz.liq:line:column: syntax error: ...}, at a line of the input; a script that parses gives the
 * same tree twice, every node located in the input (or the included file) with its start before its
 * end, and a tree at most twice {@link Parser#MAX_DEPTH} deep.
 */
class LiquidsoapFuzzTest {
    private static final String NAME = "fuzz.liq";
    private static final SourceText INCLUDED =
            new SourceText("inc.liq", "included = 1\nf(included)\n");

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void parse(byte[] input) {
        Expr.Sequence first;
        SourceText source;
        try {
            source = ScriptText.decode(NAME, input);
            first = Parser.parse(source, LiquidsoapFuzzTest::include, new ArrayList<>(), 0);
        } catch (SyntaxError e) {
            String message = e.getMessage();
            assertFalse(message.contains("\n"), message);
            assertTrue(message.startsWith(NAME + ":"), message);
            assertTrue(message.contains(": syntax error: "), message);
            Span at = e.span();
            assertTrue(at.line() >= 1 && at.column() >= 0, message);
            assertTrue(at.line() <= lines(input), message);
            return;
        }
        List<Warning> warnings = new ArrayList<>();
        Expr.Sequence second = Parser.parse(source, LiquidsoapFuzzTest::include, warnings, 0);
        assertEquals(first, second);
        int depth = check(first, lines(input), 0);
        assertTrue(depth <= 2 * Parser.MAX_DEPTH + 8, "a tree " + depth + " deep");
    }

    private static Expr.Sequence include(Span at, Expr.IncludeKind kind, String name, int depth) {
        if (kind == Expr.IncludeKind.EXTRA) return null;
        return Parser.parse(INCLUDED, null, new ArrayList<>(), depth);
    }

    private static int lines(byte[] input) {
        int lines = 1;
        for (byte b : input) if (b == '\n') lines++;
        return lines;
    }

    /** Checks every node's span below {@code value}; the depth of the tree there. */
    private static int check(Object value, int lines, int level) {
        if (level > 4 * Parser.MAX_DEPTH) fail("a tree deeper than " + level);
        int deepest = level;
        if (value instanceof Node node) {
            Span s = node.span();
            boolean here = s.file().equals(NAME);
            if (!here && !s.file().equals(INCLUDED.name())) fail("a node in " + s.file());
            if (here && (s.line() < 1 || s.endLine() > lines))
                fail("a node out of the input: " + s);
            if (s.line() > s.endLine() || (s.line() == s.endLine() && s.column() > s.endColumn())) {
                fail("a node ending before it starts: " + s);
            }
        }
        if (value instanceof List<?> list) {
            for (Object element : list) deepest = Math.max(deepest, check(element, lines, level));
        } else if (value instanceof Record record) {
            for (RecordComponent c : record.getClass().getRecordComponents()) {
                Object child;
                try {
                    child = c.getAccessor().invoke(record);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
                if (child instanceof Record || child instanceof List<?>) {
                    deepest = Math.max(deepest, check(child, lines, level + 1));
                }
            }
        }
        return deepest;
    }
}
