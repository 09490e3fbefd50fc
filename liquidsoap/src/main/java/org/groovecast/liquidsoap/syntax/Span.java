package org.groovecast.liquidsoap.syntax;

/**
 * Where a piece of a script is: its file, and its first and last positions. Lines count from 1;
 * columns count bytes from the start of the line, from 0, as Liquidsoap's "char" does (so a
 * position reads the same in our messages and in Liquidsoap's). The end is exclusive.
 */
public record Span(String file, int line, int column, int endLine, int endColumn) {

    /** From the start of this one to the end of {@code last}. */
    public Span to(Span last) {
        return new Span(file, line, column, last.endLine, last.endColumn);
    }

    /** {@code file:line:column}, the prefix of every message about a script. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
