package org.groovecast.host.script;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groovy's compiler failing on a script (its "BUG!" errors, an exception from a phase) as one
 * located line: the file and line it names where it names them, never its stack trace. What the
 * script compiler cannot compile yet must say where and what, not how the compiler fell over.
 */
final class CompilerFailure {
    private static final Pattern UNIT = Pattern.compile("in source unit '([^']+)'");
    private static final Pattern LINE = Pattern.compile("at line (\\d+)");

    private CompilerFailure() {}

    static ScriptError located(ScriptFiles files, String fallback, Throwable e) {
        String message = String.valueOf(e.getMessage());
        Matcher unit = UNIT.matcher(message);
        String file = unit.find() ? files.display(unit.group(1)) : null;
        Matcher line = LINE.matcher(message);
        int at = line.find() ? Integer.parseInt(line.group(1)) : 0;
        String what = ScriptFailure.firstLine(message.replaceFirst("^BUG! ", ""));
        return new ScriptError(
                file != null ? file : fallback,
                at,
                "the script compiler cannot compile this ("
                        + what
                        + "); please report it with the script, and write the line another way",
                e);
    }
}
