package org.groovecast.host.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.host.script.ScriptError;

/**
 * A Liquidsoap script given on standard input ({@code liquidsoap --check -}, as AzuraCast checks a
 * station's configuration). The engine knows it by a {@code .liq} name, so that the Liquidsoap
 * front end reads it; its messages name it as Liquidsoap names standard input, by nothing but the
 * place: {@code At line 3, char 4: unknown function foo}.
 */
final class StandardInputScript {
    /** Its name for the engine: a {@code .liq} name no file of a station has. */
    static final String NAME = "<stdin>.liq";

    private static final Pattern PLACE =
            Pattern.compile(Pattern.quote(NAME) + ":(\\d+)(?::(\\d+))?");

    private StandardInputScript() {}

    static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * An error's line: at its place in the script, or as the engine prints it (an included file's),
     * each mention of a place in the script written as Liquidsoap writes it.
     */
    static String message(ScriptError e) {
        if (!e.file().equals(NAME)) return places(e.getMessage());
        if (e.line() <= 0) return places(e.detail());
        return "At " + place(e.line(), e.column()) + ": " + places(e.detail());
    }

    private static String places(String text) {
        Matcher m = PLACE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int column = m.group(2) != null ? Integer.parseInt(m.group(2)) : -1;
            m.appendReplacement(
                    out, Matcher.quoteReplacement(place(Integer.parseInt(m.group(1)), column)));
        }
        return m.appendTail(out).toString();
    }

    private static String place(int line, int column) {
        return "line " + line + (column >= 0 ? ", char " + column : "");
    }
}
