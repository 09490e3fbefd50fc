package org.groovecast.liquidsoap.engine;

import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptLine;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * The Liquidsoap front end's errors as the engine reports script errors: {@code station.liq:12:4:
 * message}.
 */
final class Located {
    private Located() {}

    static ScriptError error(Span at, String fallbackFile, String detail, Throwable cause) {
        if (at == null) return new ScriptError(fallbackFile, 0, detail, cause);
        return new ScriptError(display(at.file()), at.line(), at.column(), detail, cause);
    }

    /**
     * Located in the script: an error raised inside the prelude at the script's call that led
     * there.
     */
    static ScriptError of(LiqError e, String fallbackFile) {
        Span at = e.at();
        for (Span s : e.trace()) {
            if (!s.file().equals(PRELUDE)) {
                at = s;
                break;
            }
        }
        return error(at, fallbackFile, e.detail(), null);
    }

    /** The name the prelude's own Liquidsoap file has in spans. */
    private static final String PRELUDE = "prelude.liq";

    static ScriptError of(SyntaxError e) {
        return error(e.span(), e.span().file(), "syntax error: " + e.detail(), null);
    }

    static ScriptLine line(Span at) {
        return new ScriptLine(display(at.file()), at.line());
    }

    /**
     * A message that names places of the script ({@code the function at
     * /srv/radio/station.liq:7:4}) with its files named as the places of messages are.
     */
    static String display(String message, ParsedScript parsed) {
        for (java.nio.file.Path f : parsed.files()) {
            String path = f.toString();
            if (message.contains(path + ":"))
                message = message.replace(path + ":", display(path) + ":");
        }
        return message;
    }

    /** A file as messages name it: its name alone, as the Groovy front end does. */
    static String display(String file) {
        int slash = file.lastIndexOf('/');
        return slash < 0 ? file : file.substring(slash + 1);
    }
}
