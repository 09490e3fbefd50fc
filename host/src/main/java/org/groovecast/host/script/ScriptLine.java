package org.groovecast.host.script;

/**
 * A place in a station's scripts: the file's name as messages show it ({@code common.groovy}) and a
 * line, 0 if unknown.
 */
public record ScriptLine(String file, int line) {
    /** {@code detail} located here. */
    public ScriptError error(String detail) {
        return new ScriptError(file, line, detail);
    }

    /** {@code file:line}, or the file alone when the line is unknown. */
    @Override
    public String toString() {
        return line > 0 ? file + ":" + line : file;
    }
}
