package org.groovecast.host.script;

import java.util.Optional;

/**
 * Finds the script line that is running now by walking the stack to the first frame compiled from
 * one of the station's script files: operator calls are dynamic, so this is how a bad argument gets
 * its line (in the included file when it was made there). Only used on error paths and at graph
 * construction, never per frame.
 */
public final class ScriptLocation {
    private ScriptLocation() {}

    /**
     * The name a script is compiled under, which its stack frames carry: not the file's own, since
     * Groovy names the script class after it and a file called {@code metrics.groovy} would then
     * hide the {@code metrics.*} functions from its own code.
     */
    public static String compiledName(String fileName) {
        return "station_" + fileName.replaceAll("[^A-Za-z0-9_.]", "_");
    }

    /** The innermost frame from one of {@code files}, if a script is on the stack. */
    public static Optional<ScriptLine> current(ScriptFiles files) {
        return StackWalker.getInstance()
                .walk(
                        frames ->
                                frames.filter(
                                                f ->
                                                        f.getLineNumber() > 0
                                                                && files.display(f.getFileName())
                                                                        != null)
                                        .map(
                                                f ->
                                                        new ScriptLine(
                                                                files.display(f.getFileName()),
                                                                f.getLineNumber()))
                                        .findFirst());
    }

    /** The innermost frame from one of {@code files} in {@code t}'s stack trace or its causes'. */
    public static Optional<ScriptLine> in(Throwable t, ScriptFiles files) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (StackTraceElement e : c.getStackTrace()) {
                String file = files.display(e.getFileName());
                if (file != null && e.getLineNumber() > 0)
                    return Optional.of(new ScriptLine(file, e.getLineNumber()));
            }
        }
        return Optional.empty();
    }
}
