package org.groovecast.host.script;

import org.codehaus.groovy.runtime.powerassert.PowerAssertionError;

/**
 * What a script's failure says in one line, the line {@code file:line: message} ends with: Groovy's
 * power assertions draw their values over several lines, and a message may span lines; a located
 * error is one line.
 */
public final class ScriptFailures {
    /** What Groovy puts between the message of {@code assert x, 'message'} and the assertion. */
    private static final String ASSERT_EXPRESSION = ". Expression: ";

    private ScriptFailures() {}

    /**
     * How a log names a failure of the script's code that ran off the script's thread (a {@code
     * thread.run} function, a handler): {@code radio.groovy:12: java.lang.IllegalStateException:
     * ...}, at the innermost line of {@code files} in its trace, or as it is when it is already a
     * located error or no script line is in it.
     */
    public static String located(Throwable e, ScriptFiles files) {
        if (e instanceof ScriptError se) return se.getMessage();
        return ScriptLocation.in(e, files)
                .map(at -> new ScriptError(at.file(), at.line(), describe(e)).getMessage())
                .orElseGet(() -> describe(e));
    }

    static String describe(Throwable e) {
        if (e instanceof StackOverflowError) {
            return "stack overflow: a function calls itself without end";
        }
        String message = e.getMessage();
        if (e instanceof PowerAssertionError && message != null) {
            // Its message is the assertion drawn with its values: the first line is its text.
            return "assertion failed: " + message.strip().lines().findFirst().orElse("").strip();
        }
        if (e instanceof AssertionError && message != null) {
            int expression = message.lastIndexOf(ASSERT_EXPRESSION);
            return "assertion failed: "
                    + firstLine(expression < 0 ? message : message.substring(0, expression));
        }
        return firstLine(e.toString());
    }

    static String firstLine(String text) {
        String t = text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl).strip() + " ...";
    }
}
