package org.groovecast.host.script;

/**
 * A mistake in a station script, located: prints as {@code radio.groovy:12: message}, the one line
 * a station engineer needs, never a stack trace.
 */
public final class ScriptError extends RuntimeException {
    private final String file;
    private final int line;
    private final int column;
    private final String detail;

    public ScriptError(String file, int line, String detail, Throwable cause) {
        this(file, line, -1, detail, cause);
    }

    /**
     * A mistake located to the column too ({@code station.liq:12:4: message}), as the Liquidsoap
     * front end locates them; {@code column} -1 when unknown.
     */
    public ScriptError(String file, int line, int column, String detail, Throwable cause) {
        super(format(file, line, column, detail), cause, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    public ScriptError(String file, int line, String detail) {
        this(file, line, detail, null);
    }

    private static String format(String file, int line, int column, String detail) {
        if (line <= 0) return file + ": " + detail;
        return file + ":" + line + (column >= 0 ? ":" + column : "") + ": " + detail;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    /** The column, -1 when unknown. */
    public int column() {
        return column;
    }

    public String detail() {
        return detail;
    }

    /**
     * The located line alone, also where a log prints the exception: it is the script's mistake,
     * not the engine's.
     */
    @Override
    public String toString() {
        return getMessage();
    }
}
