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

    /** The line of the innermost frame from {@code fileName}, if the script is on the stack. */
    public static Optional<Integer> currentLine(String fileName) {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> fileName.equals(f.getFileName()) && f.getLineNumber() > 0)
                .map(f -> f.getLineNumber())
                .findFirst());
    }

    /** The line of the innermost frame from {@code fileName} in {@code t}'s stack trace. */
    public static Optional<Integer> lineIn(Throwable t, String fileName) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (StackTraceElement e : c.getStackTrace()) {
                if (fileName.equals(e.getFileName()) && e.getLineNumber() > 0) return Optional.of(e.getLineNumber());
            }
        }
        return Optional.empty();
    }
}
