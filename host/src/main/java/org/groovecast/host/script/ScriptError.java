package org.groovecast.host.script;

/**
 * A mistake in a station script, located: prints as {@code radio.groovy:12: message}, the one line
 * a station engineer needs, never a stack trace.
 */
public final class ScriptError extends RuntimeException {
    private final String file;
    private final int line;
    private final String detail;

    public ScriptError(String file, int line, String detail, Throwable cause) {
        super(format(file, line, detail), cause, false, false);
        this.file = file;
        this.line = line;
        this.detail = detail;
    }

    public ScriptError(String file, int line, String detail) {
        this(file, line, detail, null);
    }

    private static String format(String file, int line, String detail) {
        return line > 0 ? file + ":" + line + ": " + detail : file + ": " + detail;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
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
