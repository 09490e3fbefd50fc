package org.groovecast.host.script;

import org.codehaus.groovy.runtime.powerassert.PowerAssertionError;

/**
 * What a script's failure says in one line, the line {@code file:line: message} ends with: Groovy's
 * power assertions draw their values over several lines, and a message may span lines; a located
 * error is one line.
 */
final class ScriptFailures {
    /** What Groovy puts between the message of {@code assert x, 'message'} and the assertion. */
    private static final String ASSERT_EXPRESSION = ". Expression: ";

    private ScriptFailures() {}

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
