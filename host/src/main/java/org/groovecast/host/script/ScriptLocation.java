package org.groovecast.host.script;

import java.util.Optional;

/**
 * Finds the script line that is running now by walking the stack to the first frame compiled
 * from the script: operator calls are dynamic, so this is how a bad argument gets its line.
 * Only used on error paths and at graph construction, never per frame.
 */
public final class ScriptLocation {
    private ScriptLocation() {
    }

    /**
     * The name the script is compiled under, which its stack frames carry: not the file's own, since
     * Groovy names the script class after it and a file called {@code metrics.groovy} would then
     * hide the {@code metrics.*} functions from its own code.
     */
    public static String compiledName(String fileName) {
        return "station_" + fileName.replaceAll("[^A-Za-z0-9_.]", "_");
    }

    private static boolean fromScript(String frameFile, String fileName) {
        return frameFile != null && (frameFile.equals(compiledName(fileName)) || frameFile.equals(fileName));
    }

    /** The line of the innermost frame from {@code fileName}, if the script is on the stack. */
    public static Optional<Integer> currentLine(String fileName) {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> fromScript(f.getFileName(), fileName) && f.getLineNumber() > 0)
                .map(f -> f.getLineNumber())
                .findFirst());
    }

    /** The line of the innermost frame from {@code fileName} in {@code t}'s stack trace. */
    public static Optional<Integer> lineIn(Throwable t, String fileName) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (StackTraceElement e : c.getStackTrace()) {
                if (fromScript(e.getFileName(), fileName) && e.getLineNumber() > 0) return Optional.of(e.getLineNumber());
            }
        }
        return Optional.empty();
    }
}
