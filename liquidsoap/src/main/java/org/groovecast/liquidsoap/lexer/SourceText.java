package org.groovecast.liquidsoap.lexer;

import java.util.Arrays;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * A script's text and its name, turning offsets into {@link Span}s. Lines are counted at each LF;
 * columns in UTF-8 bytes from the start of the line, from 0 (Liquidsoap's). The lexer asks for
 * offsets in order (or a few characters back), so a cursor makes each answer cost the distance from
 * the last one: the whole file costs its length, even on a single 10 MB line.
 */
public final class SourceText {
    private final String name;
    private final String text;
    private final int[] lineStarts;
    private final int lines;
    private int cursorOffset;
    private int cursorLine;
    private int cursorColumn;

    public SourceText(String name, String text) {
        this.name = name;
        this.text = text;
        int[] starts = new int[16];
        int count = 1;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
            if (count == starts.length) starts = Arrays.copyOf(starts, count * 2);
            starts[count++] = i + 1;
        }
        this.lineStarts = starts;
        this.lines = count;
    }

    public String name() {
        return name;
    }

    public String text() {
        return text;
    }

    public Span span(int start, int end) {
        long from = position(start);
        long to = position(end);
        return new Span(name, (int) (from >>> 32), (int) from, (int) (to >>> 32), (int) to);
    }

    /** Line (high half) and column (low half) of an offset. */
    private long position(int offset) {
        offset = Math.clamp(offset, 0, text.length());
        int line = line(offset);
        if (line != cursorLine) {
            cursorLine = line;
            cursorOffset = lineStarts[line];
            cursorColumn = 0;
        }
        int column = cursorColumn;
        for (int i = cursorOffset; i < offset; i++) column += utf8Width(text.charAt(i));
        // a step back on the same line costs its own length, not the line's
        for (int i = offset; i < cursorOffset; i++) column -= utf8Width(text.charAt(i));
        cursorOffset = offset;
        cursorColumn = column;
        return ((long) (line + 1) << 32) | column;
    }

    private int line(int offset) {
        if (cursorLine < lines
                && offset >= lineStarts[cursorLine]
                && (cursorLine + 1 == lines || offset < lineStarts[cursorLine + 1])) {
            return cursorLine;
        }
        int found = Arrays.binarySearch(lineStarts, 0, lines, offset);
        return found >= 0 ? found : -found - 2;
    }

    private static int utf8Width(char c) {
        if (c < 0x80) return 1;
        if (c < 0x800) return 2;
        if (Character.isLowSurrogate(c)) return 0;
        return Character.isHighSurrogate(c) ? 4 : 3;
    }
}
